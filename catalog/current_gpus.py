"""Every GPU, read once per content version in each process (``caching.fragments``): the GPU pages, the
comparison and the calculator show stored figures of every GPU, which only an editor's change or an import changes
(both move the content version), so a page rendered again reads none of them.

The instances are shared by every request of the process: read them, never change them."""
from dataclasses import dataclass

from caching.fragments import CachedContent

from .models import GPU


@dataclass(frozen=True)
class CurrentGPUs:
    version: int
    gpus: tuple  # in the catalogue's order
    by_slug: dict


def load(version):
    gpus = tuple(GPU.objects.all())
    return CurrentGPUs(version, gpus, {gpu.slug: gpu for gpu in gpus})


# The GPUs of the current content version, read now if this process has not got them yet.
current_gpus = CachedContent(load)

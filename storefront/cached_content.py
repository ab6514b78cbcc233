"""The landing page's content, loaded once per content version in each process, as ``workloads.cached_content``
keeps the workload content: a home page missing from the page cache then renders without a query, and the
first render after an editor's change (to the text or to a featured GPU's price) reloads it (7 queries,
however many GPUs are featured or priced).

Model instances cached here are shared by every request of the process: read them, never change them."""
from dataclasses import dataclass

from django.db.models import Prefetch

from caching.fragments import CachedContent
from catalog.models import GPU

from .models import FeaturedGPU, LandingPage


@dataclass(frozen=True)
class LandingContent:
    version: int
    page: LandingPage | None
    ladder_gpus: tuple = ()  # every GPU with a live price, for the price ladder

    def priced_gpus(self):
        """The featured GPUs that have a live price, in the editors' order."""
        if self.page is None:
            return []
        return [featured.gpu for featured in self.page.featured_gpus.all()
                if featured.gpu.price_usd_per_hour is not None]


def load(version):
    page = LandingPage.objects.filter(key=LandingPage.Key.HOME).prefetch_related(
        "renter_steps", "provider_steps", "facts", "faqs",
        Prefetch("featured_gpus", queryset=FeaturedGPU.objects.select_related("gpu")),
    ).first()
    ladder_gpus = tuple(GPU.objects.exclude(price_usd_per_hour=None).order_by("price_usd_per_hour", "name"))
    return LandingContent(version=version, page=page, ladder_gpus=ladder_gpus)


# The content of the current content version, loaded now if this process has not got it yet.
landing_content = CachedContent(load)

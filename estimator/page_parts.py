"""What the calculator page shows of the content alone, never of the visitor's inputs: the GPUs and the model
presets (2 queries), the tabs, the assumptions with every efficiency figure and its source, the check against
published runs, the GPUs' page addresses and the sizing answer's row of each GPU at each GPU count. Each is worked
out once per content version (and language: a few kilobytes each, for the site's few languages and GPUs) instead
of on every request.

Model instances kept here are shared by every request of the process: read them, never change them."""
from dataclasses import dataclass, field

from django.template.loader import render_to_string

from caching.fragments import CachedContent
from catalog.current_gpus import current_gpus

from .models import ModelPreset


@dataclass
class CalculatorParts:
    version: int
    gpus: tuple
    presets: tuple
    markup: dict = field(default_factory=dict)  # (part, language) → HTML
    paths: dict = field(default_factory=dict)  # language → {GPU slug: the GPU's page}

    def rendered(self, part, language, template_name, make_context):
        """``template_name`` rendered with ``make_context()`` in ``language`` (the active one), once per version.
        Two requests may render a part at the same moment: the same HTML, the first one kept."""
        key = (part, language)
        markup = self.markup.get(key)
        if markup is None:
            markup = self.markup.setdefault(key, render_to_string(template_name, make_context()))
        return markup

    def gpu_paths(self, language):
        """{slug: the GPU's page in ``language`` (the active one)} (reversing an address costs more than a table
        row's other work)."""
        paths = self.paths.get(language)
        if paths is None:
            paths = self.paths.setdefault(language, {gpu.slug: gpu.get_absolute_url(language) for gpu in self.gpus})
        return paths


def load(version):
    return CalculatorParts(version, current_gpus().gpus, tuple(ModelPreset.objects.all()))


# The parts of the current content version, loaded now if this process has not got them yet.
calculator_parts = CachedContent(load)

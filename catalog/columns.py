"""The columns a table of GPUs can have: a spec, or a figure a sizing rule gives (the largest model that
fits, the decode speed ceiling, the usable memory) for a method and a number of GPUs. Each gives a GPU's
value (exact, before formatting: charts plot it and the comparison ranks it) and the text of its cell, so
a workload's table, a GPU's page and the comparison show the same figure the same way."""
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext_lazy

from core.formatting import format_model_size, format_quantity, format_tokens_per_second, not_published

from . import sizing
from .sizing_methods import sizing_method
from .specs import PLOTTABLE_SPECS, SPECS_BY_KEY, spec_text, spec_value


@dataclass(frozen=True)
class SpecColumn:
    spec: str

    is_sizing = False

    @property
    def unit(self):
        return SPECS_BY_KEY[self.spec].unit

    @property
    def is_plottable(self):
        return self.spec in PLOTTABLE_SPECS

    def value(self, gpu):
        """The spec as stored; None when it is not published or not supported."""
        return spec_value(gpu, self.spec)

    def text(self, gpu):
        return spec_text(gpu, self.spec)


class SizingColumn:
    """A figure computed by a sizing rule; more is better, and a chart can plot it."""

    is_sizing = True
    is_plottable = True

    def text(self, gpu):
        value = self.value(gpu)
        return not_published() if value is None else self.format(value)


@dataclass(frozen=True)
class LargestModelColumn(SizingColumn):
    """The largest model that fits ``gpu_count`` GPUs, in billions of parameters."""

    method: str
    gpu_count: int = 1

    unit = gettext_lazy("billions of parameters")

    def value(self, gpu):
        bytes_per_parameter = sizing_method(self.method).bytes_per_parameter
        return sizing.largest_model_params(gpu.memory_gb, self.gpu_count, bytes_per_parameter)

    def format(self, value):
        return format_model_size(value)


@dataclass(frozen=True)
class DecodeCeilingColumn(SizingColumn):
    """The decode speed ceiling of one GPU for a model of ``model_billion_params`` billion parameters."""

    method: str
    model_billion_params: Decimal

    unit = "tokens/s"

    def value(self, gpu):
        if gpu.bandwidth_gbs is None:
            return None
        bytes_per_parameter = sizing_method(self.method).bytes_per_parameter
        return sizing.decode_tokens_per_second_ceiling(gpu.bandwidth_gbs, self.model_billion_params,
                                                       bytes_per_parameter)

    def format(self, value):
        return format_tokens_per_second(value)


@dataclass(frozen=True)
class UsableMemoryColumn(SizingColumn):
    """The memory counted for the model across ``gpu_count`` GPUs."""

    gpu_count: int = 1

    unit = "GB"

    def value(self, gpu):
        return sizing.usable_memory_gb(gpu.memory_gb, self.gpu_count)

    def format(self, value):
        return format_quantity(value, self.unit)

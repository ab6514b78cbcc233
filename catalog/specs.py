"""The GPU specs, each written once: its unit, how a value reads in the active language, whether the
comparison ranks it, whether a chart can plot it against the price, whether a workload table may show
it as a column, and whether a GPU may lack the feature altogether. The list is in the reading order of a
GPU's page and of the comparison. A spec's name is its GPU model field's (one translatable string).
Pages, column choices, rankings and charts derive from this list.

A spec of a GPU is in one of three states: a value; not published (an empty field: the vendor has not
given the figure); or not supported (the key is in the GPU's ``unsupported_specs``: the feature does not
exist on it, such as FP8 on Ampere). Charts and rankings treat the last two alike: no value."""
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass

from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext

from core.formatting import format_number, format_price_per_hour, format_quantity, not_published

from .models import GPU


def as_quantity_or_word(spec, gpu, value):
    """A number with the spec's unit ("80 GB"), or a name as stored ("HBM3")."""
    return format_quantity(value, spec.unit) if spec.unit else str(value)


def as_year(spec, gpu, value):
    return str(value)  # never grouped: 2024, not 2.024


def as_price_per_hour(spec, gpu, value):
    return format_price_per_hour(value)


def as_ray_tracing_cores(spec, gpu, value):
    """The core count, with its generation when known."""
    if gpu.rt_core_generation is None:
        return format_number(value)
    return gettext("%(count)s (gen. %(generation)s)") % {
        "count": format_number(value), "generation": gpu.rt_core_generation,
    }


@dataclass(frozen=True)
class Spec:
    key: str  # the GPU model field
    unit: str = ""  # the same in every language; "" for names, counts and the year
    more_is_better: bool | None = None  # None: the comparison does not rank it
    plottable: bool = False  # a quantity a chart can plot against the price
    table_column: bool = True  # a workload table may show it as a column
    reads_as: Callable = as_quantity_or_word  # (spec, gpu, value) -> text of a published value
    may_be_unsupported: bool = False  # a GPU may lack the feature (editors mark it "not supported")

    @property
    def label(self):
        """The spec's name, as its model field gives it (lower case: a heading capitalizes it)."""
        return GPU._meta.get_field(self.key).verbose_name


SPECS = (
    Spec("vendor", table_column=False),
    Spec("architecture", table_column=False),
    Spec("year", reads_as=as_year),
    Spec("memory_gb", "GB", more_is_better=True, plottable=True),
    Spec("memory_type"),
    Spec("bandwidth_gbs", "GB/s", more_is_better=True, plottable=True),
    Spec("bf16_dense_tflops", "TFLOPS", more_is_better=True, plottable=True, may_be_unsupported=True),
    Spec("fp8_dense_tflops", "TFLOPS", more_is_better=True, plottable=True, may_be_unsupported=True),
    Spec("fp32_tflops", "TFLOPS", more_is_better=True, plottable=True),
    Spec("fp64_tflops", "TFLOPS", more_is_better=True, plottable=True),
    Spec("fp64_tensor_tflops", "TFLOPS", more_is_better=True, plottable=True, may_be_unsupported=True),
    Spec("max_power_w", "W", plottable=True),
    Spec("form_factor"),
    Spec("interconnect"),
    # A card without a GPU-to-GPU link has its PCIe link's figure, not "not supported".
    Spec("interconnect_gbs", "GB/s", more_is_better=True, plottable=True, may_be_unsupported=True),
    # The generation reads with the count.
    Spec("rt_cores", more_is_better=True, plottable=True, reads_as=as_ray_tracing_cores, may_be_unsupported=True),
    Spec("price_usd_per_hour", more_is_better=False, reads_as=as_price_per_hour),
)
SPECS_BY_KEY = {spec.key: spec for spec in SPECS}
PLOTTABLE_SPECS = frozenset(spec.key for spec in SPECS if spec.plottable)


UNSUPPORTABLE_SPECS = tuple(spec.key for spec in SPECS if spec.may_be_unsupported)
# The mark of a spec a GPU does not support, the same in every language (the legend says what it means).
NOT_SUPPORTED_MARK = "—"


class NotSupportedText(str):
    """The text of a spec the GPU does not support: the mark as text (cells, charts' data, tests); in HTML the
    mark is hidden from screen readers, which would read it as nothing, and its meaning is read instead."""

    def __new__(cls):
        return super().__new__(cls, NOT_SUPPORTED_MARK)

    def __html__(self):
        return format_html('<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span>',
                           NOT_SUPPORTED_MARK, gettext("not supported by this GPU"))


def is_not_supported(gpu, key):
    return key in (gpu.unsupported_specs or ())


def missing_spec_text(gpu, key):
    """The text of a spec without a value: "not supported" ("—") or "not published"."""
    return NotSupportedText() if is_not_supported(gpu, key) else not_published()


def spec_value(gpu, key):
    """The spec as stored, for charts and rankings; None when it has no value (not published, or not supported)."""
    value = getattr(gpu, key)
    return None if value == "" or is_not_supported(gpu, key) else value


def spec_text(gpu, key):
    """The value of spec ``key`` for ``gpu`` as a page shows it; "—" when the GPU does not support it, "not
    published" when the vendor has not published it."""
    value = spec_value(gpu, key)
    if value is None:
        return missing_spec_text(gpu, key)
    spec = SPECS_BY_KEY[key]
    return spec.reads_as(spec, gpu, value)


# The specs whose vendors publish for some GPUs only a system figure: the field holding the per-GPU figure derived
# from it, beside the published field (which stays empty: "not published").
DERIVED_FIELDS = {"bandwidth_gbs": "bandwidth_gbs_derived", "bf16_dense_tflops": "bf16_dense_tflops_derived"}
# Where a page lists the sources of the derived figures it shows (includes/catalog/derived_figures_note.html).
DERIVED_NOTE_ID = "derived-figures"


def derived_value(gpu, key):
    """The spec's derived figure when the page would otherwise say "not published" (a published figure comes
    first; a feature the GPU lacks has none); None otherwise."""
    if key not in DERIVED_FIELDS or spec_value(gpu, key) is not None or is_not_supported(gpu, key):
        return None
    return getattr(gpu, DERIVED_FIELDS[key])


def ranked_value(gpu, key):
    """The spec's value for rankings, sorting and charts: the published figure, else a derived one (which the
    page marks); None when it has neither."""
    value = spec_value(gpu, key)
    return derived_value(gpu, key) if value is None else value


def derived_text(text):
    """A figure that comes from a derived one, as rankings and charts write it: "≈ 8,000 GB/s (derived)"."""
    return gettext("≈ %(value)s (derived)") % {"value": text}


def derived_quantity_text(key, value):
    return derived_text(format_quantity(value, SPECS_BY_KEY[key].unit))


class DerivedFigureText(str):
    """The text of a spec the vendor publishes only for a system: "not published per GPU", with the figure
    derived from the system figure beside it. As text (cells, tests) the whole sentence; in HTML its last words
    link to the page's note on where the derived figures come from."""

    def __new__(cls, key, value):
        self = super().__new__(cls, "{} · ≈ {}, {}".format(
            gettext("Not published per GPU"), format_quantity(value, SPECS_BY_KEY[key].unit), derived_link_text()))
        self.key, self.value = key, value
        return self

    def __html__(self):
        return format_html('{} · ≈ {}, <a href="#{}">{}</a>', gettext("Not published per GPU"),
                           format_quantity(self.value, SPECS_BY_KEY[self.key].unit), DERIVED_NOTE_ID,
                           derived_link_text())


def derived_link_text():
    return gettext("derived from the vendor’s system figure")


def spec_text_with_derived(gpu, key):
    """``spec_text``, except that a spec not published per GPU but derived from a system figure says both. The
    content deck's workload tables keep ``spec_text`` (its cells say only "not published")."""
    value = derived_value(gpu, key)
    return spec_text(gpu, key) if value is None else DerivedFigureText(key, value)


def derived_figure_notes(gpus, keys=tuple(DERIVED_FIELDS)):
    """(GPU name, source) of each of ``gpus`` that shows a derived figure among ``keys``: the page's note."""
    return [(gpu.name, gpu.derived_source) for gpu in gpus
            if any(derived_value(gpu, key) is not None for key in keys)]


def shows_not_supported(texts):
    """Whether ``texts`` hold a "not supported" text anywhere: a text, or lists, tuples and dataclasses (rows,
    cells) of them, as tables hold them. A legend explains the mark only where it appears."""
    if isinstance(texts, str):
        return isinstance(texts, NotSupportedText)
    if is_dataclass(texts) and not isinstance(texts, type):
        return any(shows_not_supported(getattr(texts, field.name)) for field in fields(texts))
    if isinstance(texts, list | tuple):
        return any(shows_not_supported(text) for text in texts)
    return False


def spec_label(key):
    """The spec's name as a heading, capitalized."""
    return capfirst(SPECS_BY_KEY[key].label)


def spec_choices():
    """The workload column's ``spec`` choices (a callable, so a new spec needs no migration of its own)."""
    return [(spec.key, spec.label) for spec in SPECS if spec.table_column]


def unsupported_spec_choices():
    """The specs an editor may mark "not supported" for a GPU."""
    return [(key, spec_label(key)) for key in UNSUPPORTABLE_SPECS]

"""The calculator's GET forms, one per question: does it fit, how long and how much to train, what a
million tokens cost. Their fields are the page's query string, so a result is a shareable link."""
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.forms import QueryForm, decimal_input
from catalog.sizing import exact
from catalog.sizing_methods import SIZING_METHODS, calculator_label, sizing_method
from core.formatting import format_number, format_share

from . import formulas as estimates
from .estimates import training_estimate
from .fit import KVCacheShape, memory_requirement, nearest_preset, preset_shape

MAX_MODEL_BILLION_PARAMS = 10_000
DEFAULT_CONTEXT_TOKENS = 8192
DEFAULT_BATCH_SIZE = 1
# Accepted ranges of the calculator's whole numbers: wide enough for any real model, and small enough
# that a typing slip gets a message rather than a meaningless figure.
WHOLE_NUMBER_RANGES = {
    "context": (1, 1_048_576),
    "batch": (1, 1024),
    "layers": (1, 1000),
    "kv_heads": (1, 1024),
    "head_dim": (1, 1024),
}
CUSTOM_SHAPE = "custom"
KV_SHAPE_FIELDS = ("layers", "kv_heads", "head_dim")


def whole_number_field(label, **kwargs):
    """An optional whole number; its range is checked in the form, with the limits in the visitor's digits."""
    return forms.IntegerField(
        label=label, required=False, widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={"invalid": gettext_lazy("Enter a whole number.")}, **kwargs,
    )


def preset_label(preset):
    return _("%(name)s: %(layers)s layers, %(kv_heads)s KV heads, head dimension %(head_dim)s") % {
        "name": preset.name, "layers": preset.layers, "kv_heads": preset.kv_heads, "head_dim": preset.head_dim,
    }


class CalculatorForm(QueryForm):
    size = forms.DecimalField(
        label=gettext_lazy("Model size"), help_text=gettext_lazy("Billions of parameters, for example 7, 70 or 405."),
        localize=True, decimal_places=3, widget=decimal_input(),
        error_messages={
            "required": gettext_lazy("Enter the model size in billions of parameters."),
            "invalid": gettext_lazy("Enter the model size as a number, for example 7 or 70."),
            "max_decimal_places": gettext_lazy("Enter the model size with at most three decimals."),
        },
    )
    method = forms.ChoiceField(
        label=gettext_lazy("Method"), widget=forms.RadioSelect, initial="full_adam",
        error_messages={
            "required": gettext_lazy("Choose a method."),
            "invalid_choice": gettext_lazy("Choose one of the methods listed."),
        },
    )
    context = whole_number_field(
        gettext_lazy("Context length"), help_text=gettext_lazy("Tokens per sequence, prompt and answer together."),
        initial=DEFAULT_CONTEXT_TOKENS,
    )
    batch = whole_number_field(
        gettext_lazy("Batch size"), help_text=gettext_lazy("Sequences served at the same time."),
        initial=DEFAULT_BATCH_SIZE,
    )
    shape = forms.ChoiceField(
        label=gettext_lazy("Model shape"), required=False,
        help_text=gettext_lazy("Layers, KV heads and head dimension, which set the size of the KV cache."),
        error_messages={"invalid_choice": gettext_lazy("Choose a model shape from the list.")},
    )
    layers = whole_number_field(gettext_lazy("Layers"))
    kv_heads = whole_number_field(gettext_lazy("KV heads"))
    head_dim = whole_number_field(gettext_lazy("Head dimension"))

    def __init__(self, *args, presets, **kwargs):
        super().__init__(*args, **kwargs)
        self.presets = {preset.slug: preset for preset in presets}
        self.fields["method"].choices = [(method.key, calculator_label(method)) for method in SIZING_METHODS]
        self.fields["shape"].choices = (
            [("", _("The preset nearest to the model size"))]
            + [(preset.slug, preset_label(preset)) for preset in presets]
            + [(CUSTOM_SHAPE, _("Custom: the layers, KV heads and head dimension below"))]
        )

    def clean_size(self):
        size = self.cleaned_data["size"]
        if size <= 0:
            raise ValidationError(_("The model size must be above zero."), code="not_positive")
        if size > MAX_MODEL_BILLION_PARAMS:
            raise ValidationError(
                _("The model size must be at most %(max)s billion parameters.") % {
                    "max": format_number(MAX_MODEL_BILLION_PARAMS)},
                code="too_large",
            )
        return size

    def clean_method(self):
        return sizing_method(self.cleaned_data["method"])

    def clean(self):
        data = super().clean()
        for name, (low, high) in WHOLE_NUMBER_RANGES.items():
            value = data.get(name)
            if value is not None and not low <= value <= high:
                self.add_error(name, ValidationError(
                    _("Enter a whole number from %(min)s to %(max)s.") % {
                        "min": format_number(low), "max": format_number(high)},
                    code="out_of_range",
                ))
        if data.get("method") and data["method"].serves:
            self.check_kv_cache_shape(data)
        return data

    def check_kv_cache_shape(self, data):
        if data.get("shape") == CUSTOM_SHAPE:
            for name in KV_SHAPE_FIELDS:
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, ValidationError(_("Enter this for a custom model shape."), code="required"))
        elif not data.get("shape") and not self.presets and "shape" not in self.errors:
            self.add_error("shape", ValidationError(
                _("No preset is available: choose “Custom” and enter the model's shape."), code="no_preset"))

    def kv_cache_shape(self):
        data = self.cleaned_data
        if data["shape"] == CUSTOM_SHAPE:
            return KVCacheShape(data["layers"], data["kv_heads"], data["head_dim"])
        preset = self.presets.get(data["shape"]) or nearest_preset(self.presets.values(), data["size"])
        return preset_shape(preset)

    def requirement(self):
        """The memory the submitted model needs; call on a valid form."""
        data = self.cleaned_data
        if not data["method"].serves:
            return memory_requirement(data["size"], data["method"])
        return memory_requirement(
            data["size"], data["method"], self.kv_cache_shape(),
            DEFAULT_CONTEXT_TOKENS if data["context"] is None else data["context"],
            DEFAULT_BATCH_SIZE if data["batch"] is None else data["batch"],
        )


# The calculator's three answers, each a tab with its own GET form; ``answer`` in the query string names it.
FITS, TRAINING, INFERENCE = "fits", "training", "inference"
ANSWERS = (FITS, TRAINING, INFERENCE)
MAX_BILLION_TOKENS = 1_000_000  # a quadrillion tokens: far beyond any run so far
MAX_DECIMALS = 3


def answer_of(query):
    """The answer a query asks for: the sizing answer unless it names another."""
    answer = query.get("answer")
    return answer if answer in ANSWERS else FITS


def preset_size(preset):
    return _("%(name)s (%(size)s billion parameters)") % {
        "name": preset.name, "size": format_number(preset.billion_params)}


def model_size_field(required):
    return forms.DecimalField(
        label=gettext_lazy("Model size"), required=required, localize=True, widget=decimal_input(),
        help_text=gettext_lazy("Billions of parameters, for example 7, 70 or 405."),
        error_messages={
            "required": gettext_lazy("Enter the model size in billions of parameters."),
            "invalid": gettext_lazy("Enter the model size as a number, for example 7 or 70."),
        },
    )


def check_decimal(form, name, low, high, *, low_included, message, write=format_number):
    """A decimal field's range and at most three decimals, with a localized message naming the limits."""
    value = form.cleaned_data.get(name)
    if value is None:
        return
    if value.as_tuple().exponent < -MAX_DECIMALS:
        form.add_error(name, ValidationError(_("Enter at most three decimals."), code="max_decimal_places"))
    elif not (low <= value if low_included else low < value) or value > high:
        form.add_error(name, ValidationError(message % {"min": write(low), "max": write(high)},
                                             code="out_of_range"))


class TrainingForm(QueryForm):
    """Training or fine-tuning time and cost: the model (a size or a preset), the training tokens, the method,
    the model FLOPs utilization and the largest cluster to consider."""

    size = model_size_field(required=False)
    preset = forms.ChoiceField(
        label=gettext_lazy("Or a preset model"), required=False,
        help_text=gettext_lazy("Used when no model size is entered."),
        error_messages={"invalid_choice": gettext_lazy("Choose a model from the list.")},
    )
    method = forms.ChoiceField(
        label=gettext_lazy("Method"), widget=forms.RadioSelect, initial="full_adam",
        error_messages={
            "required": gettext_lazy("Choose a method."),
            "invalid_choice": gettext_lazy("Choose one of the methods listed."),
        },
    )
    tokens = forms.DecimalField(
        label=gettext_lazy("Training tokens (billions)"), required=False, localize=True, widget=decimal_input(),
        error_messages={"invalid": gettext_lazy("Enter the training tokens as a number of billions, such as 2000.")},
    )
    mfu = forms.DecimalField(
        label=gettext_lazy("Model FLOPs utilization (%)"), required=False, localize=True, widget=decimal_input(),
        error_messages={"invalid": gettext_lazy("Enter the utilization as a percentage, such as 40.")},
    )
    cluster = forms.TypedChoiceField(
        label=gettext_lazy("Largest cluster"), required=False, coerce=int, empty_value=estimates.DEFAULT_CLUSTER_SIZE,
        initial=estimates.DEFAULT_CLUSTER_SIZE,
        help_text=gettext_lazy("GPU counts from the fewest that hold the model up to this, doubling."),
        error_messages={"invalid_choice": gettext_lazy("Choose a cluster size from the list.")},
    )

    def __init__(self, *args, presets, **kwargs):
        super().__init__(*args, **kwargs)
        self.presets = {preset.slug: preset for preset in presets}
        self.fields["preset"].choices = [("", _("None"))] + [
            (preset.slug, preset_size(preset)) for preset in presets]
        self.fields["method"].choices = [
            (method.key, calculator_label(method)) for method in SIZING_METHODS if not method.serves]
        self.fields["cluster"].choices = [(size, format_number(size)) for size in estimates.CLUSTER_SIZES]
        self.fields["tokens"].help_text = _(
            "About %(ratio)s tokens per parameter is compute-optimal (Chinchilla); recent models use far more: "
            "Llama 3 saw 15,000 billion. Empty: %(ratio)s per parameter."
        ) % {"ratio": estimates.COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER}
        self.fields["mfu"].help_text = _("Share of the GPUs' dense BF16 peak the run achieves. Empty: %(default)s.") % {
            "default": format_share(estimates.DEFAULT_UTILIZATION)}

    def clean_method(self):
        return sizing_method(self.cleaned_data["method"])

    def clean(self):
        data = super().clean()
        check_decimal(self, "size", 0, MAX_MODEL_BILLION_PARAMS, low_included=False, message=_(
            "Enter a model size above %(min)s and at most %(max)s billion parameters."))
        check_decimal(self, "tokens", 0, MAX_BILLION_TOKENS, low_included=False, message=_(
            "Enter the training tokens above %(min)s and at most %(max)s billion."))
        low, high = (bound * 100 for bound in (estimates.MIN_UTILIZATION, estimates.MAX_UTILIZATION))
        check_decimal(self, "mfu", low, high, low_included=True, write=lambda percent: format_share(percent / 100),
                      message=_("Enter a utilization from %(min)s to %(max)s."))
        if data.get("size") is None and not data.get("preset") and not {"size", "preset"} & set(self.errors):
            self.add_error("size", ValidationError(_("Enter the model size, or choose a preset model."),
                                                   code="required"))
        return data

    def model_billion_params(self):
        data = self.cleaned_data
        return data["size"] if data["size"] is not None else self.presets[data["preset"]].billion_params

    def estimate(self, gpus):
        """Every GPU's training time and cost; call on a valid form."""
        data = self.cleaned_data
        utilization = None if data["mfu"] is None else exact(data["mfu"]) / 100
        return training_estimate(gpus, self.model_billion_params(), data["method"], data["tokens"], utilization,
                                 data["cluster"])


class InferenceForm(CalculatorForm):
    """Inference cost per million tokens: the sizing calculator's inference inputs; the model size may come
    from the chosen preset shape."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["size"].required = False
        self.fields["method"].choices = [
            (method.key, calculator_label(method)) for method in SIZING_METHODS if method.serves]
        self.fields["method"].initial = "weights_16bit"

    def clean_size(self):
        if self.cleaned_data["size"] is None:
            return None
        return super().clean_size()

    def clean(self):
        data = super().clean()
        if data.get("size") is None and "size" not in self.errors:
            preset = self.presets.get(data.get("shape"))
            if preset is None:
                self.add_error("size", ValidationError(_("Enter the model size, or choose a preset model shape."),
                                                       code="required"))
            else:
                data["size"] = preset.billion_params
        return data

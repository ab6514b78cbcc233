"""The calculator's GET forms, one per question: does it fit, how long and how much to train, what a
million tokens cost. Their fields are the page's query string, so a result is a shareable link."""
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from catalog.forms import QueryForm
from catalog.sizing import FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN as FULL_TRAINING_FACTOR
from catalog.sizing_methods import SIZING_METHODS, calculator_label, calculator_name, sizing_method
from core.exact_numbers import exact
from core.formatting import format_number, format_share, plural_count
from core.number_fields import LocalizedNumberField, NumberFormatField

from . import formulas as estimates
from .efficiency import efficiency_model
from .fit import KVCacheShape, memory_requirement, nearest_preset, preset_shape, serving_format
from .inference import Request, inference_estimate
from .memory import GPU_COUNTS
from .serving_data import serving_data
from .texts import tokens_text, weight_format_label, weight_format_name
from .training import training_estimate
from .training_memory import memory_figures, training_bounds

MAX_MODEL_BILLION_PARAMS = 10_000
# Llama 3's training tokens (Meta: "over 15T tokens"), in the tokens field's unit, the help text's example.
LLAMA_3_BILLION_TOKENS = 15_000
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


class WholeNumberField(LocalizedNumberField):
    """A whole number typed in the page's format ("8.192" in German, "8,192" in English), cleaned to an int."""

    def __init__(self, **kwargs):
        super().__init__(integer=True, **kwargs)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        attrs["inputmode"] = "numeric"
        return attrs

    def to_python(self, value):
        number = super().to_python(value)
        return None if number is None else int(number)


def whole_number_field(label, **kwargs):
    """An optional whole number; its range is checked in the form, with the limits in the visitor's digits."""
    return WholeNumberField(label=label, required=False,
                            error_messages={"invalid": gettext_lazy("Enter a whole number.")}, **kwargs)


def billions_field(label, *, required=False, help_text=None, error_messages=None):
    """A number of billions in the page's format, with a size word if the visitor writes one ("70B", "1,5T")."""
    return LocalizedNumberField(label=label, required=required, help_text=help_text, unit_suffixes=True,
                                error_messages=error_messages or {})


def check_whole_number(form, name, low, high):
    """A whole number's range, with a localized message naming the limits in the visitor's digits."""
    value = form.cleaned_data.get(name)
    if value is not None and not low <= value <= high:
        form.add_error(name, ValidationError(_("Enter a whole number from %(min)s to %(max)s.") % {
            "min": format_number(low), "max": format_number(high)}, code="out_of_range"))


def preset_label(preset):
    return _("%(name)s: %(layers)s layers, %(kv_heads)s KV heads, head dimension %(head_dim)s") % {
        "name": preset.name, "layers": preset.layers, "kv_heads": preset.kv_heads, "head_dim": preset.head_dim,
    }


def method_choice_label(method):
    """A method as the calculator offers it: a training method with its bytes per parameter (the sizing registry's),
    a serving one with its weights' format as the memory model counts it."""
    if not method.serves:
        return calculator_label(method)
    weight_format = serving_format(method)
    return _("%(method)s (%(format)s, %(bits)s bits per weight)") % {
        "method": calculator_name(method), "format": weight_format_name(weight_format),
        "bits": format_number(weight_format.bits)}


class CalculatorForm(QueryForm):
    nf = NumberFormatField()
    size = billions_field(
        gettext_lazy("Model size"), required=True,
        help_text=gettext_lazy("Billions of parameters, for example 7, 70 or 405 (or 70B, 1.5T)."),
        error_messages={
            "required": gettext_lazy("Enter the model size in billions of parameters."),
            "invalid": gettext_lazy("Enter the model size as a number, for example 7 or 70."),
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
        if "method" in self.fields:
            self.fields["method"].choices = [(method.key, method_choice_label(method)) for method in SIZING_METHODS]
        self.fields["shape"].choices = (
            [("", _("The preset nearest to the model size"))]
            + [(preset.slug, preset_label(preset)) for preset in presets]
            + [(CUSTOM_SHAPE, _("Custom: the layers, KV heads and head dimension below"))]
        )

    def clean_size(self):
        size = self.cleaned_data["size"]
        if size.as_tuple().exponent < -MAX_DECIMALS:
            raise ValidationError(_("Enter the model size with at most three decimals."), code="max_decimal_places")
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
            check_whole_number(self, name, low, high)
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
        # A size alone describes a dense model: the nearest dense preset lends its shape.
        dense = [preset for preset in self.presets.values() if not preset.active_billion_params]
        preset = self.presets.get(data["shape"]) or nearest_preset(dense, data["size"])
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
# A fine-tuning data set: up to a billion examples of up to a million tokens, up to a hundred passes.
DATASET_RANGES = {"examples": (1, 10**9), "example_tokens": (1, 1_048_576), "epochs": (1, 100)}
# The training run's shape and the time budget: a sequence of up to a million tokens, up to 1,024 sequences per GPU,
# a budget of up to ten years.
RUN_RANGES = {"sequence": (1, 1_048_576), "micro_batch": (1, 1024), "within": (1, 3650)}
MAX_DECIMALS = 3


def answer_of(query):
    """The answer a query asks for: the sizing answer unless it names another."""
    answer = query.get("answer")
    return answer if answer in ANSWERS else FITS


def preset_size(preset):
    """ "Llama 3.1 8B (8 billion parameters)", with the language's plural ("1 Milliarde Parameter")."""
    return ngettext("%(name)s (%(size)s billion parameters)", "%(name)s (%(size)s billion parameters)",
                    plural_count(preset.billion_params)) % {
        "name": preset.name, "size": format_number(preset.billion_params)}


def model_size_field(required):
    return billions_field(
        gettext_lazy("Model size"), required=required,
        help_text=gettext_lazy("Billions of parameters, for example 7, 70 or 405 (or 70B, 1.5T)."),
        error_messages={
            "required": gettext_lazy("Enter the model size in billions of parameters."),
            "invalid": gettext_lazy("Enter the model size as a number, for example 7 or 70."),
        },
    )


def active_parameters_field():
    return billions_field(
        gettext_lazy("Active parameters (mixture of experts)"),
        help_text=gettext_lazy("Billions of parameters each token uses, for example 37 for DeepSeek-V3 (671 in "
                               "all). Empty: a dense model, all parameters active."),
        error_messages={"invalid": gettext_lazy("Enter the active parameters as a number of billions, such as 37.")},
    )


def check_active(form, data):
    """Active parameters above zero and at most the model's size."""
    check_decimal(form, "active", 0, MAX_MODEL_BILLION_PARAMS, low_included=False, message=_(
        "Enter active parameters above %(min)s and at most %(max)s billion."))
    active, size = data.get("active"), data.get("size")
    if active is not None and size is not None and "active" not in form.errors and active > size:
        form.add_error("active", ValidationError(
            _("The active parameters (%(active)s) cannot exceed the model size (%(size)s).") % {
                "active": billions(active), "size": billions(size)}, code="above_size"))


def billions(value):
    """ "8 billion" as typed (not rounded), with the language's plural ("1 Milliarde", "2 Milliarden")."""
    return ngettext("%(count)s billion", "%(count)s billion", plural_count(value)) % {"count": format_number(value)}


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

    nf = NumberFormatField()
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
    active = active_parameters_field()
    tokens = billions_field(
        gettext_lazy("Training tokens (billions)"),
        error_messages={"invalid": gettext_lazy("Enter the training tokens as a number of billions, such as 2000.")},
    )
    examples = whole_number_field(
        gettext_lazy("Fine-tuning examples"),
        help_text=gettext_lazy("LoRA and QLoRA, when no token count is given: the examples in your data set."),
    )
    example_tokens = whole_number_field(gettext_lazy("Tokens per example"))
    epochs = whole_number_field(gettext_lazy("Epochs"), help_text=gettext_lazy("Passes over the data set."))
    mfu = LocalizedNumberField(
        label=gettext_lazy("Model FLOPs utilization (%)"), required=False,
        error_messages={"invalid": gettext_lazy("Enter the utilization as a percentage, such as 40.")},
    )
    within = whole_number_field(gettext_lazy("Finish within (days)"))
    sequence = whole_number_field(gettext_lazy("Sequence length (tokens)"))
    micro_batch = whole_number_field(gettext_lazy("Sequences per GPU per step"))
    checkpointing = forms.ChoiceField(
        label=gettext_lazy("Activation checkpointing"), required=False, initial="on",
        choices=[("on", gettext_lazy("On: each layer keeps its input and is recomputed")),
                 ("off", gettext_lazy("Off: every layer keeps its activations"))],
        error_messages={"invalid_choice": gettext_lazy("Choose one of the options listed.")},
    )
    optimizer = forms.ChoiceField(
        label=gettext_lazy("Optimizer"), required=False, initial="adam",
        choices=[("adam", gettext_lazy("Adam, mixed precision")), ("adam_8bit", gettext_lazy("8-bit Adam"))],
        error_messages={"invalid_choice": gettext_lazy("Choose one of the options listed.")},
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
        self.fields["preset"].choices = [("", pgettext("no preset model chosen", "None"))] + [
            (preset.slug, preset_size(preset)) for preset in presets]
        self.fields["method"].choices = [
            (method.key, calculator_label(method)) for method in SIZING_METHODS if not method.serves]
        self.fields["cluster"].choices = [(size, format_number(size)) for size in estimates.CLUSTER_SIZES]
        model = efficiency_model()
        self.fields["tokens"].help_text = _(
            "Full training: about %(ratio)s tokens per parameter is compute-optimal (Chinchilla), and recent models "
            "use far more (Llama 3 was trained on %(llama)s). Empty: %(ratio)s per parameter for full "
            "training; for LoRA and QLoRA, the fine-tuning data set below."
        ) % {"ratio": estimates.COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER, "llama": tokens_text(LLAMA_3_BILLION_TOKENS)}
        self.fields["example_tokens"].help_text = _("Empty: %(tokens)s.") % {
            "tokens": format_number(model.fine_tuning_tokens_per_example)}
        self.fields["examples"].help_text = _(
            "LoRA and QLoRA, when no token count is given: the examples in your data set. Empty: %(examples)s."
        ) % {"examples": format_number(model.fine_tuning_examples)}
        self.fields["epochs"].help_text = _("Passes over the data set. Empty: %(epochs)s.") % {
            "epochs": format_number(model.fine_tuning_epochs)}
        self.fields["mfu"].help_text = _(
            "Share of the GPUs' dense BF16 peak the run achieves. Empty: the measured figure of each GPU's class, "
            "listed under the assumptions.")
        memory = memory_figures()
        self.fields["within"].help_text = _("The time budget: the cheapest configuration that finishes within it is "
                                            "marked. Empty: %(days)s (our assumption).") % {
            "days": format_number(training_bounds().default_within_days)}
        self.fields["sequence"].help_text = _("Sets the activations' memory. Empty: %(tokens)s (our assumption).") % {
            "tokens": format_number(memory.default_sequence_tokens)}
        self.fields["micro_batch"].help_text = _("Empty: %(count)s (our assumption).") % {
            "count": format_number(memory.default_micro_batch)}

    def clean_method(self):
        return sizing_method(self.cleaned_data["method"])

    def clean(self):
        data = super().clean()
        check_decimal(self, "size", 0, MAX_MODEL_BILLION_PARAMS, low_included=False, message=_(
            "Enter a model size above %(min)s and at most %(max)s billion parameters."))
        check_decimal(self, "tokens", 0, MAX_BILLION_TOKENS, low_included=False, message=_(
            "Enter the training tokens above %(min)s and at most %(max)s billion."))
        check_active(self, data)
        for name, (low, high) in (DATASET_RANGES | RUN_RANGES).items():
            check_whole_number(self, name, low, high)
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

    def active_billion_params(self):
        """The visitor's active parameters; with a preset and no size, the preset's (None: a dense model)."""
        data = self.cleaned_data
        if data.get("active") is not None:
            return data["active"]
        return self.presets[data["preset"]].active_billion_params if data["size"] is None else None

    def billion_tokens(self):
        """The visitor's tokens; for a fine-tuning method, examples × tokens per example × epochs when any of
        them is given; else None (the estimator's default for the method)."""
        data = self.cleaned_data
        if data["tokens"] is not None:
            return data["tokens"]
        dataset = [data.get(name) for name in ("examples", "example_tokens", "epochs")]
        if data["method"].training_flops_per_parameter_token == FULL_TRAINING_FACTOR or not any(dataset):
            return None
        model = efficiency_model()
        examples, per_example, epochs = (
            given if given is not None else default for given, default in zip(dataset, (
                model.fine_tuning_examples, model.fine_tuning_tokens_per_example, model.fine_tuning_epochs),
                strict=True))
        return exact(examples * per_example * epochs) / 10**9

    def ignored_dataset(self):
        """The fine-tuning data set's fields the visitor filled that this answer does not use (full training, or
        training tokens given): named on the page rather than dropped silently."""
        data = self.cleaned_data
        given = [name for name in ("examples", "example_tokens", "epochs") if data.get(name) is not None]
        full = data["method"].training_flops_per_parameter_token == FULL_TRAINING_FACTOR
        return [str(self.fields[name].label) for name in given] if full or data["tokens"] is not None else []

    def estimate(self, gpus):
        """Every GPU's training time and cost; call on a valid form."""
        data = self.cleaned_data
        utilization = None if data["mfu"] is None else exact(data["mfu"]) / 100
        within = data["within"] if data["within"] is not None else training_bounds().default_within_days
        return training_estimate(gpus, self.model_billion_params(), data["method"], self.billion_tokens(),
                                 utilization, data["cluster"], self.active_billion_params(), within_days=within,
                                 sequence_tokens=data["sequence"], micro_batch=data["micro_batch"],
                                 checkpointing=data["checkpointing"] != "off", optimizer=data["optimizer"] or "adam")


DEFAULT_INPUT_TOKENS, DEFAULT_OUTPUT_TOKENS = 1000, 500
SERVING_RANGES = {"input": (1, 1_048_576), "output": (1, 1_048_576), "batch": (1, 1024)}


class InferenceForm(CalculatorForm):
    """Serving a model: its size or preset shape (and a mixture of experts' active parameters), the weights' and the
    KV cache's formats, the prompt and answer lengths, the batch (empty: maximum load) and the GPU count (empty:
    the fewest that hold it)."""

    method = None
    context = None
    active = active_parameters_field()
    # Unchosen, a format is the default one (the form's initial choice).
    weights = forms.TypedChoiceField(
        label=gettext_lazy("Weights"), widget=forms.RadioSelect, initial="fp8", required=False, empty_value="fp8",
        error_messages={"invalid_choice": gettext_lazy("Choose one of the formats listed.")},
    )
    kv = forms.TypedChoiceField(
        label=gettext_lazy("KV cache"), widget=forms.RadioSelect, initial="16", required=False, empty_value="16",
        error_messages={"invalid_choice": gettext_lazy("Choose one of the formats listed.")},
    )
    input = whole_number_field(gettext_lazy("Prompt tokens (input)"), initial=DEFAULT_INPUT_TOKENS)
    output = whole_number_field(gettext_lazy("Answer tokens (output)"), initial=DEFAULT_OUTPUT_TOKENS)
    gpus = forms.TypedChoiceField(
        label=gettext_lazy("GPUs (tensor parallel)"), required=False, coerce=int, empty_value=None,
        error_messages={"invalid_choice": gettext_lazy("Choose a GPU count from the list.")},
    )

    field_order = ["nf", "size", "shape", "active", "weights", "kv", "input", "output", "batch", "gpus", "layers",
                   "kv_heads", "head_dim"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        data = serving_data()
        self.fields["size"].required = False
        self.fields["weights"].choices = [(item.key, weight_format_label(item)) for item in data.weights]
        self.fields["kv"].choices = [("16", _("16 bits (BF16 or FP16)")), ("fp8", _("8 bits (FP8)"))]
        self.fields["gpus"].choices = [("", _("The fewest that hold the model"))] + [
            (count, format_number(count)) for count in GPU_COUNTS]
        self.fields["input"].help_text = _("Tokens of each prompt. Empty: %(tokens)s.") % {
            "tokens": format_number(DEFAULT_INPUT_TOKENS)}
        self.fields["output"].help_text = _("Tokens of each answer. Empty: %(tokens)s.") % {
            "tokens": format_number(DEFAULT_OUTPUT_TOKENS)}
        self.fields["batch"].initial = None
        self.fields["batch"].help_text = _(
            "Sequences served at the same time (concurrent users). Empty: the most the memory holds, up to "
            "%(limit)s.") % {"limit": format_number(data.max_sequences)}

    def clean_size(self):
        if self.cleaned_data["size"] is None:
            return None
        return super().clean_size()

    def clean(self):
        data = forms.Form.clean(self)
        for name, (low, high) in {**WHOLE_NUMBER_RANGES, **SERVING_RANGES}.items():
            if name in self.fields:
                check_whole_number(self, name, low, high)
        self.check_kv_cache_shape(data)
        if data.get("size") is None and "size" not in self.errors:
            preset = self.presets.get(data.get("shape"))
            if preset is None:
                self.add_error("size", ValidationError(_("Enter the model size, or choose a preset model shape."),
                                                       code="required"))
            else:
                data["size"] = preset.billion_params
                if data.get("active") is None:
                    data["active"] = preset.active_billion_params
        check_active(self, data)
        return data

    def serving_request(self):
        """What the visitor serves; call on a valid form."""
        data = self.cleaned_data
        size = exact(data["size"])
        return Request(
            size, exact(data["active"]) if data.get("active") is not None else size, self.kv_cache_shape(),
            data["weights"], data["kv"],
            DEFAULT_INPUT_TOKENS if data["input"] is None else data["input"],
            DEFAULT_OUTPUT_TOKENS if data["output"] is None else data["output"], data["batch"], data["gpus"])

    def estimate(self, gpus):
        """Every GPU's serving speed and cost; call on a valid form."""
        return inference_estimate(gpus, self.serving_request())

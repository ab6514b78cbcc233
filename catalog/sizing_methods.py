"""The sizing methods, each written once: its key, the memory each parameter takes, its name, and whether it
serves the model (inference, which keeps a KV cache beside the weights) or trains it.

The workload columns' method choices, the calculator's choices and assumptions, and the comparison's rows
are derived from this list: adding a method is one entry below plus its name's translations. The rules
that use the bytes per parameter are the pure functions of ``catalog.sizing``."""
from dataclasses import dataclass
from fractions import Fraction

from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy, ngettext

from core.formatting import format_number

from .sizing import FROZEN_BASE_FLOPS_PER_PARAMETER_TOKEN, FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN


@dataclass(frozen=True)
class SizingMethod:
    key: str
    bytes_per_parameter: Fraction
    name: str  # lower case where the language allows: lists and headings capitalize it
    serves: bool  # inference: weights and a KV cache; otherwise training
    # Training FLOPs per parameter and token; None for inference.
    training_flops_per_parameter_token: int | None = None


SIZING_METHODS = (
    # BF16 weights and gradients, FP32 master weights and two Adam moments: 2 + 2 + 4 + 4 + 4.
    SizingMethod("full_adam", Fraction(16), gettext_lazy("full training with Adam, mixed precision"),
                 serves=False, training_flops_per_parameter_token=FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN),
    # LoRA: the frozen base in 16 bits plus adapters, their gradients and optimizer states.
    SizingMethod("lora_16bit", Fraction(5, 2), gettext_lazy("LoRA on a 16-bit base"), serves=False,
                 training_flops_per_parameter_token=FROZEN_BASE_FLOPS_PER_PARAMETER_TOKEN),
    # QLoRA: the frozen base quantized to 4 bits plus adapters and their states.
    SizingMethod("qlora_4bit", Fraction(1), gettext_lazy("QLoRA on a 4-bit base"), serves=False,
                 training_flops_per_parameter_token=FROZEN_BASE_FLOPS_PER_PARAMETER_TOKEN),
    # Inference: weights only.
    SizingMethod("weights_16bit", Fraction(2), gettext_lazy("weights in 16 bits"), serves=True),
    SizingMethod("weights_8bit", Fraction(1), gettext_lazy("weights in 8 bits"), serves=True),
    SizingMethod("weights_4bit", Fraction(1, 2), gettext_lazy("weights in 4 bits"), serves=True),
)
METHODS_BY_KEY = {method.key: method for method in SIZING_METHODS}


def sizing_method(key):
    try:
        return METHODS_BY_KEY[key]
    except KeyError:
        raise ValueError(f"unknown sizing method {key!r}") from None


def with_bytes_per_parameter(name, method):
    """``name`` and the method's memory per parameter: "LoRA on a 16-bit base (2.5 bytes per parameter)"."""
    bytes_ = method.bytes_per_parameter
    # gettext's plural forms count whole numbers; a fraction of a byte reads as plural.
    count = bytes_.numerator if bytes_.denominator == 1 else 2
    return ngettext("%(method)s (%(bytes)s byte per parameter)", "%(method)s (%(bytes)s bytes per parameter)",
                    count) % {"method": name, "bytes": format_number(bytes_)}


def method_label(method):
    """The method as a table column's choice and a comparison row name it, with its bytes per parameter."""
    return with_bytes_per_parameter(method.name, method)


def method_choices():
    """The workload column's ``method`` choices (a callable, so a new method needs no migration)."""
    return [(method.key, method_label(method)) for method in SIZING_METHODS]


def calculator_name(method):
    """The method as the calculator names it, beside training methods: "Inference, weights in 16 bits"."""
    name = gettext("Inference, %(method)s") % {"method": method.name} if method.serves else method.name
    return capfirst(name)


def calculator_label(method):
    return with_bytes_per_parameter(calculator_name(method), method)

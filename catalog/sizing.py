"""Sizing rules: how large a model fits on a number of GPUs, and how fast a GPU can decode.

Pure Python with exact arithmetic (``Fraction``): binary floating point puts values such as 10.0 a
hair below 10 and would turn "≈ 10" into "≈ 9". No Django imports, so the rules are tested alone.
"""
from fractions import Fraction
from numbers import Rational

# Share of GPU memory counted as usable for the model; the rest is headroom for activations,
# the framework and fragmentation.
USABLE_MEMORY_SHARE = Fraction(4, 5)

# Memory each parameter needs, in bytes, by method.
BYTES_PER_PARAMETER = {
    # BF16 weights and gradients, FP32 master weights and two Adam moments: 2 + 2 + 4 + 4 + 4.
    "full_adam": Fraction(16),
    # LoRA: the frozen base in 16 bits plus adapters, their gradients and optimizer states.
    "lora_16bit": Fraction(5, 2),
    # QLoRA: the frozen base quantized to 4 bits plus adapters and their states.
    "qlora_4bit": Fraction(1),
    # Inference: weights only.
    "weights_16bit": Fraction(2),
    "weights_8bit": Fraction(1),
    "weights_4bit": Fraction(1, 2),
}
METHODS = tuple(BYTES_PER_PARAMETER)


def exact(value):
    """Turn an int, Fraction, Decimal or decimal string into a Fraction without a float in between."""
    if isinstance(value, float):
        raise TypeError("pass a Decimal, int, Fraction or string, not a float")
    if isinstance(value, Rational):
        return Fraction(value)
    return Fraction(str(value))


def nice_floor(value):
    """Round down to a step of 1 below 10, of 5 from 10 to below 100, and of 10 from 100 up."""
    value = exact(value)
    if value < 0:
        raise ValueError("a size cannot be negative")
    step = 1 if value < 10 else 5 if value < 100 else 10
    return int(value // step) * step


def usable_memory_gb(memory_gb, gpus=1):
    """Memory counted for the model across ``gpus`` GPUs, in GB."""
    if not isinstance(gpus, int) or gpus < 1:
        raise ValueError("a whole number of GPUs, at least one")
    return exact(memory_gb) * gpus * USABLE_MEMORY_SHARE


def bytes_per_parameter(method):
    try:
        return BYTES_PER_PARAMETER[method]
    except KeyError:
        raise ValueError(f"unknown sizing method {method!r}") from None


def largest_model_params(memory_gb, gpus, method):
    """Largest model, in billions of parameters, that fits ``gpus`` GPUs of ``memory_gb`` each.

    GB divided by bytes per parameter gives billions of parameters, since both are powers of 10^9.
    """
    return nice_floor(usable_memory_gb(memory_gb, gpus) / bytes_per_parameter(method))


def decode_tokens_per_second_ceiling(bandwidth_gbs, model_billion_params, method):
    """Upper bound on single-stream decode speed: every token reads all weights once from memory."""
    weights_gb = exact(model_billion_params) * bytes_per_parameter(method)
    if weights_gb <= 0:
        raise ValueError("the model must have weights")
    return nice_floor(exact(bandwidth_gbs) / weights_gb)

"""Sizing rules: how large a model fits on a number of GPUs, and how fast a GPU can decode.

Pure Python with exact arithmetic (``Fraction``): binary floating point puts values such as 10.0 a
hair below 10 and would turn "≈ 10" into "≈ 9". No Django imports, so the rules are tested alone.
A sizing method enters as its bytes per parameter, a number: each method's is written once, in the
registry ``catalog.sizing_methods``.
"""
from fractions import Fraction

from core.exact_numbers import exact

# Share of GPU memory counted as usable for the model; the rest is headroom for activations,
# the framework and fragmentation.
USABLE_MEMORY_SHARE = Fraction(4, 5)

# Training FLOPs per parameter per token. Full training: the forward pass (2: a multiply and an add per
# weight), the backward pass's gradients of the activations (2) and of the weights (2). LoRA and QLoRA freeze
# the base: no weight gradients for it, so 2 + 2; the adapters' own FLOPs are under 1 % of the base's and
# left out. QLoRA also dequantizes its 4-bit base on every pass, which adds time the FLOPs do not show.
FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN = 6
FROZEN_BASE_FLOPS_PER_PARAMETER_TOKEN = 4


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


def positive_bytes(bytes_per_parameter):
    """A method's memory per parameter, in bytes, as an exact number above zero."""
    value = exact(bytes_per_parameter)
    if value <= 0:
        raise ValueError("a parameter takes more than zero bytes")
    return value


def largest_model_params(memory_gb, gpus, bytes_per_parameter):
    """Largest model, in billions of parameters, that fits ``gpus`` GPUs of ``memory_gb`` each when each
    parameter takes ``bytes_per_parameter`` bytes.

    GB divided by bytes per parameter gives billions of parameters, since both are powers of 10^9.
    """
    return nice_floor(usable_memory_gb(memory_gb, gpus) / positive_bytes(bytes_per_parameter))


def decode_tokens_per_second_ceiling(bandwidth_gbs, model_billion_params, bytes_per_parameter):
    """Upper bound on single-stream decode speed: every token reads all weights once from memory."""
    weights_gb = exact(model_billion_params) * positive_bytes(bytes_per_parameter)
    if weights_gb <= 0:
        raise ValueError("the model must have weights")
    return nice_floor(exact(bandwidth_gbs) / weights_gb)


# The sizing calculator: how much memory a model needs and how many GPUs hold it.

# GPU counts a rented configuration comes in; the calculator picks the fewest that hold the model.
CALCULATOR_GPU_COUNTS = (1, 2, 4, 8)
# The KV cache is kept in 16 bits: 2 bytes per value.
KV_CACHE_BYTES_PER_VALUE = 2
BYTES_PER_GB = 10**9


def required_memory_gb(model_billion_params, bytes_per_parameter):
    """Memory a model of ``model_billion_params`` billion parameters needs at ``bytes_per_parameter``
    bytes each, in GB, before any KV cache."""
    params = exact(model_billion_params)
    if params <= 0:
        raise ValueError("a model has more than zero parameters")
    return params * positive_bytes(bytes_per_parameter)


def kv_cache_gb(layers, kv_heads, head_dim, context_tokens, batch_size):
    """Memory of the KV cache, in GB: a key and a value (2) per layer, KV head, head dimension, token of
    context and sequence of the batch, at ``KV_CACHE_BYTES_PER_VALUE`` bytes each."""
    factors = (layers, kv_heads, head_dim, context_tokens, batch_size)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in factors):
        raise TypeError("the KV cache's dimensions are whole numbers")
    if min(factors) < 1:
        raise ValueError("the KV cache's dimensions are at least one")
    values = 2 * layers * kv_heads * head_dim * context_tokens * batch_size
    return Fraction(values * KV_CACHE_BYTES_PER_VALUE, BYTES_PER_GB)


def fits(required_gb, memory_gb, gpus):
    """Whether ``required_gb``, split evenly across ``gpus`` GPUs, fits their usable memory."""
    return exact(required_gb) <= usable_memory_gb(memory_gb, gpus)


def fewest_gpus(required_gb, memory_gb, counts=CALCULATOR_GPU_COUNTS):
    """The fewest of ``counts`` GPUs of ``memory_gb`` each that hold ``required_gb``; None if none do."""
    return next((gpus for gpus in sorted(counts) if fits(required_gb, memory_gb, gpus)), None)

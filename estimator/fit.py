"""The sizing calculator's answer: the memory a model needs for a method (with the KV cache apart for
inference), and for every GPU the fewest of 1, 2, 4 or 8 that hold it and their hourly cost, cheapest
first. The rules are in ``sizing``; this works on GPUs and presets already fetched: no queries. A method is
anything with ``bytes_per_parameter`` and ``serves`` (a ``catalog.sizing_methods.SizingMethod``)."""
from dataclasses import dataclass
from fractions import Fraction

from catalog import sizing


@dataclass(frozen=True)
class KVCacheShape:
    layers: int
    kv_heads: int
    head_dim: int
    preset: object = None  # the ModelPreset it comes from, if any


@dataclass(frozen=True)
class MemoryRequirement:
    model_billion_params: Fraction
    method: object  # a SizingMethod
    model_gb: Fraction  # weights, and for training their gradients and optimizer states
    kv_cache_gb: Fraction  # zero for training
    shape: KVCacheShape = None  # None for training
    context_tokens: int = None
    batch_size: int = None

    @property
    def total_gb(self):
        return self.model_gb + self.kv_cache_gb

    @property
    def is_inference(self):
        return self.method.serves


@dataclass(frozen=True)
class Configuration:
    gpu: object
    gpu_count: int  # None when even the largest configuration is too small
    hourly_cost: object  # None without a live price or a configuration that fits

    @property
    def fits(self):
        return self.gpu_count is not None

    @property
    def fits_one_gpu(self):
        return self.gpu_count == 1

    @property
    def usable_gb(self):
        """Usable memory of the configuration, or of the largest one when none fits."""
        return sizing.usable_memory_gb(self.gpu.memory_gb, self.gpu_count or max(sizing.CALCULATOR_GPU_COUNTS))


def preset_shape(preset):
    return KVCacheShape(preset.layers, preset.kv_heads, preset.head_dim, preset)


def nearest_preset(presets, model_billion_params):
    """The preset nearest in size to the model, by ratio: 30 B is nearer 70 B (2.3 times) than 8 B (3.75)."""
    size = sizing.exact(model_billion_params)

    def ratio(preset):
        preset_size = sizing.exact(preset.billion_params)
        return max(size / preset_size, preset_size / size)

    return min(presets, key=ratio, default=None)


def memory_requirement(model_billion_params, method, shape=None, context_tokens=None, batch_size=None):
    """The memory a model needs for ``method``; for inference, the KV cache of ``shape`` for ``batch_size``
    sequences of ``context_tokens`` tokens is added."""
    model_gb = sizing.required_memory_gb(model_billion_params, method.bytes_per_parameter)
    if not method.serves:
        return MemoryRequirement(sizing.exact(model_billion_params), method, model_gb, Fraction(0))
    kv_cache_gb = sizing.kv_cache_gb(shape.layers, shape.kv_heads, shape.head_dim, context_tokens, batch_size)
    return MemoryRequirement(
        sizing.exact(model_billion_params), method, model_gb, kv_cache_gb, shape, context_tokens, batch_size,
    )


def configuration(gpu, required_gb):
    gpu_count = sizing.fewest_gpus(required_gb, gpu.memory_gb)
    priced = gpu_count is not None and gpu.price_usd_per_hour is not None
    return Configuration(gpu, gpu_count, gpu_count * gpu.price_usd_per_hour if priced else None)


def configurations(gpus, required_gb):
    """Every GPU's smallest configuration that holds ``required_gb``: cheapest first, then those without a
    live price, then those that need more than the largest configuration, most memory first."""
    return sorted(
        (configuration(gpu, required_gb) for gpu in gpus),
        key=lambda c: (not c.fits, c.hourly_cost is None, c.hourly_cost or 0, c.gpu_count or 0, -c.gpu.memory_gb,
                       c.gpu.name),
    )

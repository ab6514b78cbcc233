"""The sizing calculator's answer: the memory a model needs for a method (with the KV cache apart for
inference), and for every GPU the fewest of 1, 2, 4 or 8 that hold it and their hourly cost, cheapest
first. Training follows the memory model the training tab uses (``training_memory``: weights, gradients, optimizer
states and activations at the training tab's defaults, sharded over the GPUs, with its headroom); serving follows the
one the inference tab uses (``memory``: the weights at their format's bits, the engine's usable share, the paged KV
cache), so a model fits on the same GPUs in the fit tab and the tab of its kind. The deck's simpler rule
(``sizing``: 80 % of memory ÷ bytes per parameter) stays with the workload pages' columns. Works on GPUs and presets
already fetched: no queries. A method is anything with ``bytes_per_parameter``, ``serves`` and ``key`` (a
``catalog.sizing_methods.SizingMethod``)."""
from dataclasses import dataclass
from fractions import Fraction

from catalog import sizing

from . import memory, training_memory
from .serving_data import serving_data

# The weight format each serving method of the sizing registry stands for in the memory model.
SERVING_FORMATS = {"weights_16bit": "bf16", "weights_8bit": "fp8", "weights_4bit": "int4"}
FIT_KV_BYTES = 2  # the fit tab's KV cache is in 16 bits
# Training is counted at the training tab's defaults: its sequence length and micro-batch (the data's), activation
# checkpointing on, Adam (``training.training_estimate`` and ``forms.TrainingForm`` with their fields left empty).
FIT_CHECKPOINTING = True
FIT_OPTIMIZER = "adam"


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
    training: object = None  # for training, the training_memory.TrainingMemory on one GPU
    per_gpu_gb: tuple = ()  # for training, (GPU count, each GPU's need) for each count the calculator tries
    sequence_tokens: int = None  # for training, the defaults it is counted at
    micro_batch: int = None

    @property
    def activations_gb(self):
        return self.training.activations_gb if self.training is not None else Fraction(0)

    @property
    def total_gb(self):
        """The whole need: for training on one GPU (the states sharded over more, each GPU's activations divided
        over them, add up to as much on up to a node's GPUs)."""
        return self.model_gb + self.kv_cache_gb + self.activations_gb

    @property
    def is_inference(self):
        return self.method.serves


@dataclass(frozen=True)
class Configuration:
    gpu: object
    gpu_count: int  # None when even the largest configuration is too small
    hourly_cost: object  # None without a live price or a configuration that fits
    usable_share: Fraction = sizing.USABLE_MEMORY_SHARE  # of each GPU's memory counted for the model
    no_headroom: tuple = None  # training: (GPU count, GB each) of a count filled beyond the headroom, or None

    @property
    def fits(self):
        return self.gpu_count is not None

    @property
    def fits_one_gpu(self):
        return self.gpu_count == 1

    @property
    def usable_gb(self):
        """Usable memory of the configuration, or of the largest one when none fits."""
        count = self.gpu_count or max(sizing.CALCULATOR_GPU_COUNTS)
        return sizing.exact(self.gpu.memory_gb) * count * self.usable_share


def preset_shape(preset):
    return KVCacheShape(preset.layers, preset.kv_heads, preset.head_dim, preset)


def nearest_preset(presets, model_billion_params):
    """The preset nearest in size to the model, by ratio: 30 B is nearer 70 B (2.3 times) than 8 B (3.75)."""
    size = sizing.exact(model_billion_params)

    def ratio(preset):
        preset_size = sizing.exact(preset.billion_params)
        return max(size / preset_size, preset_size / size)

    return min(presets, key=ratio, default=None)


def serving_format(method):
    return serving_data().weight_format(SERVING_FORMATS[method.key])


def memory_requirement(model_billion_params, method, shape=None, context_tokens=None, batch_size=None):
    """The memory a model needs for ``method``; to serve it, the weights at their format's bits and the paged KV
    cache (16 bits) of ``batch_size`` sequences of ``context_tokens`` tokens."""
    if not method.serves:
        return training_requirement(model_billion_params, method)
    model_gb = memory.weights_gb(model_billion_params, serving_format(method).bits)
    per_token = memory.kv_bytes_per_token(shape, FIT_KV_BYTES)
    kv_cache_gb = Fraction(per_token * memory.tokens_held(context_tokens) * batch_size, memory.BYTES_PER_GB)
    return MemoryRequirement(
        sizing.exact(model_billion_params), method, model_gb, kv_cache_gb, shape, context_tokens, batch_size,
    )


def training_requirement(model_billion_params, method):
    """Training memory as the training tab counts it at its defaults (``training_memory``), on each GPU count."""
    figures = training_memory.memory_figures()
    by_count = [(count, training_memory.training_memory(
        model_billion_params, method.key, count, figures.default_sequence_tokens, figures.default_micro_batch,
        FIT_CHECKPOINTING, FIT_OPTIMIZER, figures=figures)) for count in sizing.CALCULATOR_GPU_COUNTS]
    one = by_count[0][1]
    return MemoryRequirement(
        sizing.exact(model_billion_params), method, one.model_states_gb, Fraction(0), training=one,
        per_gpu_gb=tuple((count, need.per_gpu_gb) for count, need in by_count),
        sequence_tokens=figures.default_sequence_tokens, micro_batch=figures.default_micro_batch,
    )


def training_share():
    """The share of each GPU a training configuration may fill: all but the headroom."""
    return 1 - training_memory.memory_figures().headroom_share.value


def fewest_training_gpus(memory_gb, requirement):
    """(The fewest GPUs whose memory holds the run with the headroom, or None; the count just below, or the largest
    when none does, as (count, GB each) if it holds the run only without the headroom, else None)."""
    statuses = [(count, need, training_memory.fit_status(need, memory_gb)) for count, need in requirement.per_gpu_gb]
    fewest = next((count for count, _need, status in statuses if status == training_memory.FITS), None)
    below = [(count, need, status) for count, need, status in statuses if fewest is None or count < fewest]
    if below and below[-1][2] == training_memory.NO_HEADROOM:
        return fewest, below[-1][:2]
    return fewest, None


def configuration(gpu, requirement):
    no_headroom = None
    if requirement.is_inference:
        plan = memory.fewest_gpus(gpu.memory_gb, requirement.model_gb, requirement.shape, FIT_KV_BYTES,
                                  requirement.context_tokens, requirement.batch_size)
        gpu_count, share = (plan.gpus if plan else None), serving_data().memory_utilization
    else:
        (gpu_count, no_headroom), share = fewest_training_gpus(gpu.memory_gb, requirement), training_share()
    priced = gpu_count is not None and gpu.price_usd_per_hour is not None
    return Configuration(gpu, gpu_count, gpu_count * gpu.price_usd_per_hour if priced else None, share, no_headroom)


def configurations(gpus, requirement):
    """Every GPU's smallest configuration that holds the requirement: cheapest first, then those without a
    live price, then those that need more than the largest configuration, most memory first."""
    return sorted(
        (configuration(gpu, requirement) for gpu in gpus),
        key=lambda c: (not c.fits, c.hourly_cost is None, c.hourly_cost or 0, c.gpu_count or 0, -c.gpu.memory_gb,
                       c.gpu.name),
    )

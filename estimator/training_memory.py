"""Training memory from its parts: for a method, the weights, gradients and optimizer states (sharded across the
configuration's GPUs, as ZeRO-3 or FSDP's full shard does) and each GPU's activations for its sequences, with or
without activation checkpointing; then whether a GPU count holds it with the stated headroom.

Every figure is data (``data/efficiency.toml``, tables ``training_memory``, ``training_state_bytes``,
``frozen_base_bytes``, ``adapters``, ``activations``), each with its source or marked as the site's assumption. Pure
Python with exact arithmetic, no Django. Units: parameters in billions, memory in GB (10⁹ bytes).
"""
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from core.exact_numbers import exact

from .efficiency import EFFICIENCY_TOML

FULL = "full_adam"
FROZEN_BASE_METHODS = ("lora_16bit", "qlora_4bit")
OPTIMIZERS = ("adam", "adam_8bit")
FITS, NO_HEADROOM, TOO_SMALL = "fits", "no_headroom", "too_small"
BYTES_PER_GB = 10**9


@dataclass(frozen=True)
class Sourced:
    """A figure and where it comes from; ``source`` is empty for the site's assumption."""

    value: Fraction
    basis: str
    source: str = ""
    excerpt: str = ""


@dataclass(frozen=True)
class MemoryFigures:
    headroom_share: Sourced
    default_sequence_tokens: int
    default_micro_batch: int
    defaults_basis: str
    state_bytes: dict  # optimizer key: (weights, gradients, optimizer) Sourced
    frozen_base_bytes: dict  # method key: Sourced
    adapter_share: Sourced
    adapter_bytes: dict  # method key: Sourced
    activation_bytes: Sourced  # per token and hidden unit, per layer, stored
    checkpointed_bytes: Sourced  # per token and hidden unit, per layer, with checkpointing
    hidden_per_layer: int
    parameters_per_layer_hidden_squared: int
    shape_basis: str
    tensor_parallel_gpus: int


@dataclass(frozen=True)
class ModelShape:
    layers: Fraction
    hidden: Fraction


@dataclass(frozen=True)
class TrainingMemory:
    """Memory of one training configuration, in GB. ``model_states_gb`` is the whole model's (before sharding)."""

    weights_gb: Fraction
    gradients_gb: Fraction
    optimizer_gb: Fraction
    activations_gb: Fraction  # on each GPU
    gpus: int

    @property
    def model_states_gb(self):
        return self.weights_gb + self.gradients_gb + self.optimizer_gb

    @property
    def per_gpu_gb(self):
        return self.model_states_gb / self.gpus + self.activations_gb


def read_memory_figures(text):
    data = tomllib.loads(text)
    memory, adapters, activations = data["training_memory"], data["adapters"], data["activations"]
    states = {row["key"]: tuple(Sourced(exact(row[part]), row["basis"], row["source"], row["excerpt"])
                                for part in ("weights", "gradients", "optimizer"))
              for row in data["training_state_bytes"]}
    figures = MemoryFigures(
        headroom_share=Sourced(exact(memory["headroom_share"]), memory["headroom_basis"]),
        default_sequence_tokens=int(memory["default_sequence_tokens"]),
        default_micro_batch=int(memory["default_micro_batch"]),
        defaults_basis=memory["defaults_basis"],
        state_bytes=states,
        frozen_base_bytes={row["method"]: Sourced(exact(row["bytes"]), row["basis"], row["source"], row["excerpt"])
                           for row in data["frozen_base_bytes"]},
        adapter_share=Sourced(exact(adapters["share"]), adapters["share_basis"], adapters["share_source"],
                              adapters["share_excerpt"]),
        adapter_bytes={
            "lora_16bit": Sourced(exact(adapters["lora_bytes"]), adapters["lora_bytes_basis"]),
            "qlora_4bit": Sourced(exact(adapters["qlora_bytes"]), adapters["qlora_bytes_basis"],
                                  adapters["qlora_bytes_source"], adapters["qlora_bytes_excerpt"]),
        },
        activation_bytes=Sourced(exact(activations["bytes_per_token_hidden"]), activations["basis"],
                                 activations["source"], activations["excerpt"]),
        checkpointed_bytes=Sourced(exact(activations["checkpointed_bytes_per_token_hidden"]), activations["basis"],
                                   activations["source"], activations["excerpt"]),
        hidden_per_layer=int(activations["hidden_per_layer"]),
        parameters_per_layer_hidden_squared=int(activations["parameters_per_layer_hidden_squared"]),
        shape_basis=activations["shape_basis"],
        tensor_parallel_gpus=int(activations["tensor_parallel_gpus"]),
    )
    if set(figures.state_bytes) != set(OPTIMIZERS) or set(figures.frozen_base_bytes) != set(FROZEN_BASE_METHODS):
        raise ValueError("training memory: a state row per optimizer and a frozen base per LoRA method")
    if not 0 < figures.headroom_share.value < 1 or not 0 < figures.adapter_share.value < 1:
        raise ValueError("training memory: the headroom and the adapters' share are above 0 and below 1")
    return figures


@cache
def memory_figures(path=EFFICIENCY_TOML):
    return read_memory_figures(Path(path).read_text(encoding="utf-8"))


def model_shape(billion_params, figures=None):
    """Layers and hidden size of a decoder of ``billion_params``: parameters = k × layers × hidden², hidden = r ×
    layers, so layers = ∛(parameters ÷ (k × r²)). The cube root is taken to a thousandth of a layer."""
    figures = figures or memory_figures()
    ratio = figures.hidden_per_layer
    cube = exact(billion_params) * 10**9 / (figures.parameters_per_layer_hidden_squared * ratio**2)
    # Integer cube root of cube × 10⁹, i.e. the root to three decimals, exactly.
    scaled = int(cube * 10**9)
    root = round(scaled ** (1 / 3))
    while root**3 > scaled:
        root -= 1
    while (root + 1) ** 3 <= scaled:
        root += 1
    layers = Fraction(root, 1000)
    return ModelShape(layers, layers * ratio)


def activations_gb(billion_params, sequence_tokens, micro_batch, checkpointing, figures=None, gpus=1):
    """Each GPU's activations for ``micro_batch`` sequences of ``sequence_tokens`` tokens; on several GPUs, tensor and
    sequence parallelism over up to a node's GPUs divide them."""
    figures = figures or memory_figures()
    shape = model_shape(billion_params, figures)
    tokens_hidden = exact(sequence_tokens) * exact(micro_batch) * shape.hidden
    full = figures.activation_bytes.value * tokens_hidden
    if checkpointing:
        stored = figures.checkpointed_bytes.value * tokens_hidden * shape.layers + full  # + the layer recomputed
    else:
        stored = full * shape.layers
    return stored / BYTES_PER_GB / min(gpus, figures.tensor_parallel_gpus)


def training_memory(billion_params, method_key, gpus=1, sequence_tokens=None, micro_batch=None, checkpointing=True,
                    optimizer="adam", adapter_share=None, figures=None):
    """The memory of training a model of ``billion_params`` with ``method_key`` on ``gpus`` GPUs."""
    figures = figures or memory_figures()
    params = exact(billion_params)
    if params <= 0:
        raise ValueError("a model has more than zero parameters")
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"unknown optimizer {optimizer!r}")
    sequence_tokens = figures.default_sequence_tokens if sequence_tokens is None else sequence_tokens
    micro_batch = figures.default_micro_batch if micro_batch is None else micro_batch
    weights, gradients, states = (part.value for part in figures.state_bytes[optimizer])
    if method_key == FULL:
        parts = (params * weights, params * gradients, params * states)
    elif method_key in FROZEN_BASE_METHODS:
        share = figures.adapter_share.value if adapter_share is None else exact(adapter_share)
        adapter_bytes = figures.adapter_bytes[method_key].value
        if optimizer == "adam_8bit":  # the moments in one byte each: 6 bytes fewer per adapter parameter
            adapter_bytes -= figures.state_bytes["adam"][2].value - states
        adapters = params * share
        base = params * figures.frozen_base_bytes[method_key].value
        # The adapters' weights and gradients in 16 or 32 bits and their states, split as the data gives the total.
        parts = (base, Fraction(0), adapters * adapter_bytes)
    else:
        raise ValueError(f"not a training method: {method_key!r}")
    gpus = _whole(gpus)
    return TrainingMemory(*parts, activations_gb(params, sequence_tokens, micro_batch, checkpointing, figures, gpus),
                          gpus)


def _whole(gpus):
    if not isinstance(gpus, int) or isinstance(gpus, bool) or gpus < 1:
        raise ValueError("a whole number of GPUs, at least one")
    return gpus


def fit_status(per_gpu_gb, memory_gb, figures=None):
    """``fits`` when the need leaves the headroom free, ``no_headroom`` when only the whole card holds it,
    ``too_small`` otherwise."""
    figures = figures or memory_figures()
    memory = exact(memory_gb)
    if per_gpu_gb <= memory * (1 - figures.headroom_share.value):
        return FITS
    return NO_HEADROOM if per_gpu_gb <= memory else TOO_SMALL



@dataclass(frozen=True)
class TrainingBounds:
    """The time budget's default and where scaling stops (table ``training_bounds``)."""

    default_within_days: int
    within_basis: str
    max_global_batch_tokens: int
    global_batch_basis: str
    global_batch_source: str
    global_batch_excerpt: str
    inter_node: Sourced  # GB/s per GPU beyond one node
    all_reduce_bytes: Sourced  # bytes each GPU moves per parameter it holds, per step


@cache
def training_bounds(path=EFFICIENCY_TOML):
    row = tomllib.loads(Path(path).read_text(encoding="utf-8"))["training_bounds"]
    return TrainingBounds(
        int(row["default_within_days"]), row["within_basis"], int(row["max_global_batch_tokens"]),
        row["global_batch_basis"], row["global_batch_source"], row["global_batch_excerpt"],
        Sourced(exact(str(row["inter_node_gbs_per_gpu"])), row["inter_node_basis"], row["inter_node_source"],
                row["inter_node_excerpt"]),
        Sourced(exact(str(row["all_reduce_bytes_per_parameter"])), row["all_reduce_basis"]),
    )


def step_floor_hours(billion_tokens, billion_params, model_parallel_gpus):
    """The least time a run can take beyond one node: one step per largest global batch, each at least the all-reduce
    of the gradients each GPU holds over its network port."""
    bounds = training_bounds()
    steps = exact(billion_tokens) * 10**9 / bounds.max_global_batch_tokens
    seconds = (bounds.all_reduce_bytes.value * exact(billion_params) / model_parallel_gpus
               / bounds.inter_node.value)
    return steps * seconds / 3600

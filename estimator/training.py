"""How long and how much to train: for every GPU, the GPU-hours, wall-clock time and cost on each GPU count
from the fewest that hold the model (``training_memory``: its parts, with the stated headroom) up to the visitor's
cluster, at the measured utilization of the GPU's class (``efficiency``) and the scaling its link keeps at that count.

Scaling stops where published runs stop: beyond the largest published global batch, one sequence per model replica,
more GPUs add no speed (they are paid for, never ranked). Within the visitor's time budget, the cheapest configuration
that finishes in time and the fastest one are marked; a configuration that breaks a bound never is.

Works on GPUs already fetched (anything with ``memory_gb``, ``bf16_dense_tflops``, ``price_usd_per_hour``,
``name`` and the fields ``efficiency`` classes by): no queries, no Django. Exact arithmetic throughout; the
page rounds only what it shows.
"""
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property

from catalog import sizing

from . import formulas
from .efficiency import FROZEN_BASE_WORK, FULL_WORK, efficiency_model
from .peaks import bf16_peak
from .training_memory import (
    FITS,
    NO_HEADROOM,
    fit_status,
    memory_figures,
    step_floor_hours,
    training_bounds,
    training_memory,
)

NO_BF16 = "no_bf16"  # neither a published nor a derived dense BF16 throughput: no training time
TOO_SMALL = "too_small"  # even the largest configuration does not hold the model
HOURS_PER_DAY = 24


@dataclass(frozen=True)
class TrainingConfiguration:
    gpu: object
    gpu_count: int
    utilization: Fraction  # the class's utilization × the scaling kept at this count
    gpu_hours: Fraction
    wall_clock_hours: Fraction
    cost: Fraction = None  # None without a live price
    practical: bool = True  # False: a configuration no team would train on (PCIe cards beyond one node)
    fastest: bool = False
    memory_gb: Fraction = None  # each GPU's need (training_memory)
    useful_gpus: int = None  # the GPUs that speed it up: beyond the global-batch bound, the rest wait
    in_time: bool = True  # finishes within the visitor's time budget

    @property
    def bounded(self):
        """More GPUs than the global-batch bound lets work: paid for, adding no speed."""
        return self.useful_gpus is not None and self.useful_gpus < self.gpu_count

    @property
    def rankable(self):
        return self.practical and not self.bounded


@dataclass(frozen=True)
class TrainingRow:
    gpu: object
    gpu_class: str = None
    peak_tflops: Fraction = None
    peak_derived: bool = False  # the peak is the vendor's system figure ÷ its GPUs, not a per-GPU figure
    utilization: object = None  # the efficiency.Figure applied, or None when the visitor gave one
    configurations: tuple = ()  # from the fewest GPUs that hold the model to the cluster size
    problem: str = None
    cheapest: bool = False
    no_headroom: object = None  # (GPU count, GB each) of a count the memory fills beyond the headroom, or None

    @property
    def fewest(self):
        return self.configurations[0] if self.configurations else None

    @property
    def largest(self):
        return self.configurations[-1] if self.configurations else None

    # Worked out once per row (the page asks for them row after row); a frozen row never changes.
    @cached_property
    def practical_configurations(self):
        """The configurations that may be ranked: practical, and within the global-batch bound."""
        return tuple(c for c in self.configurations if c.rankable)

    @cached_property
    def best(self):
        """The configuration the row stands for: the cheapest rankable one that finishes in time (the fewest GPUs on
        a tie), else the fastest rankable one, else the cheapest of all."""
        in_time = [c for c in self.practical_configurations if c.in_time]
        if in_time:
            return min(in_time, key=lambda c: (c.gpu_hours * c.gpu_count / c.useful_gpus, c.gpu_count))
        if self.practical_configurations:
            return min(self.practical_configurations, key=lambda c: (c.wall_clock_hours, c.gpu_count))
        return min(self.configurations, key=lambda c: (c.gpu_hours, c.gpu_count), default=None)

    @property
    def in_time(self):
        return self.best is not None and self.best.rankable and self.best.in_time

    @property
    def gpu_hours(self):
        return self.best.gpu_hours if self.best else None

    @property
    def cost(self):
        return self.best.cost if self.best else None

    @property
    def practical(self):
        return bool(self.practical_configurations)

    @property
    def fastest(self):
        return any(configuration.fastest for configuration in self.configurations)


@dataclass(frozen=True)
class TrainingEstimate:
    flops: Fraction
    billion_tokens: Fraction
    tokens_default: str  # "compute_optimal", "fine_tuning" or None when the visitor gave the tokens
    compute_billion_params: Fraction  # the active parameters of a mixture of experts, else all
    flops_per_parameter_token: int
    utilization: Fraction  # the visitor's, or None: each GPU class's measured figure
    cluster_size: int
    required_gb: Fraction  # each GPU's need on one GPU (training_memory.TrainingMemory.per_gpu_gb)
    rows: tuple
    configurations: tuple = field(default=())  # every one considered, for the chart
    memory: object = None  # training_memory.TrainingMemory on one GPU: the parts
    within_hours: Fraction = None  # the time budget; None: none
    sequence_tokens: int = None
    micro_batch: int = None
    checkpointing: bool = True
    optimizer: str = "adam"
    max_useful_replicas: int = None  # model replicas the global-batch bound lets work

    @cached_property
    def cheapest(self):
        return [row for row in self.rows if row.cheapest]

    @cached_property
    def fastest(self):
        return [configuration for configuration in self.configurations if configuration.fastest]


def default_billion_tokens(method, compute_billion_params, model):
    """Full training: Chinchilla's compute-optimal 20 tokens per parameter. A frozen base (LoRA, QLoRA):
    a fine-tuning data set (examples × tokens per example × epochs, from the efficiency data)."""
    if method.training_flops_per_parameter_token == sizing.FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN:
        return formulas.compute_optimal_billion_tokens(compute_billion_params), "compute_optimal"
    return model.fine_tuning_billion_tokens, "fine_tuning"


def training_row(gpu, flops, utilization, memory_at, counts, model, within_hours=None, replicas=None,
                 work=FULL_WORK, floor_at=None):
    """``gpu``'s configurations: each of ``counts`` (ascending) from the fewest GPUs whose memory holds the run with
    its headroom (``memory_at``: GPU count → training_memory.TrainingMemory)."""
    peak, derived = bf16_peak(gpu)
    gpu_class = model.gpu_class(gpu)
    if peak is None:
        return TrainingRow(gpu, gpu_class, problem=NO_BF16)
    figure = None if utilization is not None else model.training_utilization(gpu)
    base = utilization if utilization is not None else figure.share
    price = gpu.price_usd_per_hour
    memory_gb = sizing.exact(gpu.memory_gb)

    def status(count):
        return fit_status(memory_at(count).per_gpu_gb, memory_gb)

    # More GPUs hold at least as much (the model states are sharded): found by halving.
    fewest = bisect_left(counts, True, key=lambda count: status(count) == FITS)
    no_headroom = None
    if fewest < len(counts) and fewest > 0 and status(counts[fewest - 1]) == NO_HEADROOM:
        no_headroom = (counts[fewest - 1], memory_at(counts[fewest - 1]).per_gpu_gb)
    elif fewest == len(counts) and status(counts[-1]) == NO_HEADROOM:
        no_headroom = (counts[-1], memory_at(counts[-1]).per_gpu_gb)
    # The GPU-hours depend on the count only through the scaling kept: once per scaling rule.
    per_rule = {}
    configurations = []
    for count in counts[fewest:]:
        rule = model.scaling_rule(gpu_class, count, work)
        if id(rule) not in per_rule:
            effective = base * rule.figure.share
            per_rule[id(rule)] = (effective, formulas.gpu_hours(flops, peak, effective))
        effective, hours = per_rule[id(rule)]
        # One sequence per model replica at the largest published global batch: beyond, GPUs wait.
        useful = count if replicas is None else min(count, replicas * counts[fewest])
        wall = formulas.wall_clock_hours(hours, useful)
        if floor_at is not None and count > model.gpus_per_node:  # beyond a node, the network's step floor
            wall = max(wall, floor_at(counts[fewest]))
        cost = formulas.training_cost(wall * count, price) if price is not None else None
        configurations.append(TrainingConfiguration(
            gpu, count, effective, hours, wall, cost, rule.practical, memory_gb=memory_at(count).per_gpu_gb,
            useful_gpus=useful, in_time=within_hours is None or wall <= within_hours,
        ))
    row = TrainingRow(gpu, gpu_class, peak, derived, figure, tuple(configurations), no_headroom=no_headroom)
    return row if configurations else replace(row, problem=TOO_SMALL)


def marked_row(row, least_cost, least_time):
    """``row`` with its mark as the cheapest that finishes in time, and its configurations' as the fastest (among
    rankable ones: practical and within the bounds; of several GPU counts at the least time, the fewest)."""
    fastest = [c for c in row.configurations if c.rankable and c.wall_clock_hours == least_time]
    fewest = min((c.gpu_count for c in fastest), default=None)
    return replace(
        row, cheapest=row.in_time and row.cost is not None and row.cost == least_cost,
        configurations=tuple(replace(c, fastest=True) if c in fastest and c.gpu_count == fewest else c
                             for c in row.configurations),
    )


def useful_replicas(sequence_tokens, micro_batch):
    """Model replicas the largest published global batch keeps busy: one micro-batch of sequences each."""
    return max(1, training_bounds().max_global_batch_tokens // (sequence_tokens * micro_batch))


def training_estimate(gpus, model_billion_params, method, billion_tokens=None, utilization=None,
                      cluster_size=formulas.DEFAULT_CLUSTER_SIZE, active_billion_params=None, model=None,
                      within_days=None, sequence_tokens=None, micro_batch=None, checkpointing=True, optimizer="adam"):
    """Every GPU's training time and cost. Memory counts all parameters (``training_memory``); FLOPs count the active
    ones of a mixture of experts (``active_billion_params``). ``utilization`` (a share) replaces each class's measured
    figure; ``within_days`` is the time budget (None: none). Order: rows that finish in time cheapest first, then
    those that do not (fastest first), rows without a price, rows only impractical configurations hold, rows the
    cluster cannot hold, and rows without a BF16 figure. The cheapest row(s) that finish in time and the fastest
    configuration(s) are marked among rankable configurations only."""
    model = model or efficiency_model()
    figures = memory_figures()
    total = formulas.positive(model_billion_params, "the model size")
    compute = total if active_billion_params is None else formulas.positive(active_billion_params, "the active size")
    if compute > total:
        raise ValueError("the active parameters are at most the total")
    factor = method.training_flops_per_parameter_token
    if billion_tokens is None:
        tokens, tokens_default = default_billion_tokens(method, compute, model)
    else:
        tokens, tokens_default = sizing.exact(billion_tokens), None
    utilization = None if utilization is None else formulas.checked_utilization(utilization)
    sequence_tokens = figures.default_sequence_tokens if sequence_tokens is None else sequence_tokens
    micro_batch = figures.default_micro_batch if micro_batch is None else micro_batch
    within_hours = None if within_days is None else formulas.positive(within_days, "the time budget") * HOURS_PER_DAY
    flops = formulas.training_flops(compute, tokens, factor)
    memory_by_count = {}

    def memory_at(count):
        if count not in memory_by_count:
            memory_by_count[count] = training_memory(total, method.key, count, sequence_tokens, micro_batch,
                                                     checkpointing, optimizer, figures=figures)
        return memory_by_count[count]

    counts = formulas.cluster_counts(cluster_size)
    replicas = useful_replicas(sequence_tokens, micro_batch)
    work = FULL_WORK if factor == sizing.FULL_TRAINING_FLOPS_PER_PARAMETER_TOKEN else FROZEN_BASE_WORK
    rows = [training_row(gpu, flops, utilization, memory_at, counts, model, within_hours, replicas, work,
                         lambda fewest: step_floor_hours(tokens, total, fewest))
            for gpu in gpus]
    costs = [row.cost for row in rows if row.in_time and row.cost is not None]
    times = [c.wall_clock_hours for row in rows for c in row.practical_configurations]
    least_cost, least_time = min(costs, default=None), min(times, default=None)
    marked = [marked_row(row, least_cost, least_time) for row in rows]
    order = {None: 0, TOO_SMALL: 4, NO_BF16: 5}

    def rank(row):
        if row.problem is not None:
            return order[row.problem]
        if not row.practical:
            return 3
        if row.cost is None:
            return 2
        return 0 if row.in_time else 1

    def within_rank(row):
        if rank(row) == 1:
            return row.best.wall_clock_hours
        return row.cost or 0

    marked.sort(key=lambda row: (rank(row), within_rank(row), row.gpu_hours or 0,
                                 -sizing.exact(row.gpu.memory_gb), row.gpu.name))
    every = tuple(c for row in marked for c in row.configurations)
    return TrainingEstimate(flops, tokens, tokens_default, compute, factor, utilization, cluster_size,
                            memory_at(1).per_gpu_gb, tuple(marked), every, memory_at(1), within_hours,
                            sequence_tokens, micro_batch, checkpointing, optimizer, replicas)

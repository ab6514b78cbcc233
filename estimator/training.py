"""How long and how much to train: for every GPU, the GPU-hours, wall-clock time and cost on each GPU count
from the fewest that hold the model up to the visitor's cluster, at the measured utilization of the GPU's
class (``efficiency``) and the scaling its link keeps at that count.

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
from .efficiency import efficiency_model
from .peaks import bf16_peak

NO_BF16 = "no_bf16"  # neither a published nor a derived dense BF16 throughput: no training time
TOO_SMALL = "too_small"  # even the largest configuration does not hold the model


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

    @property
    def fewest(self):
        return self.configurations[0] if self.configurations else None

    @property
    def largest(self):
        return self.configurations[-1] if self.configurations else None

    # Worked out once per row (the page asks for them row after row); a frozen row never changes.
    @cached_property
    def practical_configurations(self):
        return tuple(c for c in self.configurations if c.practical)

    @cached_property
    def best(self):
        """The configuration the row stands for: the cheapest practical one (the fewest GPUs on a tie), else the
        cheapest of all."""
        candidates = self.practical_configurations or self.configurations
        return min(candidates, key=lambda c: (c.gpu_hours, c.gpu_count), default=None)

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
    required_gb: Fraction
    rows: tuple
    configurations: tuple = field(default=())  # every one considered, for the chart

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


def training_row(gpu, flops, utilization, required_gb, counts, model):
    """``gpu``'s configurations: each of ``counts`` (ascending) from the fewest GPUs that hold ``required_gb``."""
    peak, derived = bf16_peak(gpu)
    gpu_class = model.gpu_class(gpu)
    if peak is None:
        return TrainingRow(gpu, gpu_class, problem=NO_BF16)
    figure = None if utilization is not None else model.training_utilization(gpu)
    base = utilization if utilization is not None else figure.share
    price = gpu.price_usd_per_hour
    memory_gb = sizing.exact(gpu.memory_gb)
    # More GPUs hold at least as much: every count from the fewest that hold the model fits (found by halving).
    fewest = bisect_left(counts, True, key=lambda count: sizing.fits(required_gb, memory_gb, count))
    # The GPU-hours and the cost depend on the count only through the scaling kept: once per scaling rule.
    per_rule = {}
    configurations = []
    for count in counts[fewest:]:
        rule = model.scaling_rule(gpu_class, count)
        if id(rule) not in per_rule:
            effective = base * rule.figure.share
            hours = formulas.gpu_hours(flops, peak, effective)
            per_rule[id(rule)] = (effective, hours,
                                  formulas.training_cost(hours, price) if price is not None else None)
        effective, hours, cost = per_rule[id(rule)]
        configurations.append(TrainingConfiguration(
            gpu, count, effective, hours, formulas.wall_clock_hours(hours, count), cost, rule.practical,
        ))
    row = TrainingRow(gpu, gpu_class, peak, derived, figure, tuple(configurations))
    return row if configurations else replace(row, problem=TOO_SMALL)


def marked_row(row, least_cost, least_time):
    """``row`` with its mark as the cheapest, and its configurations' as the fastest (among practical ones)."""
    return replace(
        row, cheapest=row.practical and row.cost is not None and row.cost == least_cost,
        configurations=tuple(replace(c, fastest=True) if c.practical and c.wall_clock_hours == least_time else c
                             for c in row.configurations),
    )


def training_estimate(gpus, model_billion_params, method, billion_tokens=None, utilization=None,
                      cluster_size=formulas.DEFAULT_CLUSTER_SIZE, active_billion_params=None, model=None):
    """Every GPU's training time and cost. Memory counts all parameters; FLOPs count the active ones of a
    mixture of experts (``active_billion_params``). ``utilization`` (a share) replaces each class's measured
    figure. Order: practical rows cheapest first, then rows without a price, rows only impractical
    configurations hold, rows the cluster cannot hold, and rows without a BF16 figure. The cheapest row(s)
    and fastest configuration(s) are marked among practical configurations only."""
    model = model or efficiency_model()
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
    flops = formulas.training_flops(compute, tokens, factor)
    required_gb = sizing.required_memory_gb(total, method.bytes_per_parameter)
    counts = formulas.cluster_counts(cluster_size)
    rows = [training_row(gpu, flops, utilization, required_gb, counts, model) for gpu in gpus]
    costs = [row.cost for row in rows if row.practical and row.cost is not None]
    times = [c.wall_clock_hours for row in rows for c in row.practical_configurations]
    least_cost, least_time = min(costs, default=None), min(times, default=None)
    marked = [marked_row(row, least_cost, least_time) for row in rows]
    order = {None: 0, TOO_SMALL: 3, NO_BF16: 4}

    def rank(row):
        if row.problem is not None:
            return order[row.problem]
        return 2 if not row.practical else 1 if row.cost is None else 0

    marked.sort(key=lambda row: (rank(row), row.cost or 0, row.gpu_hours or 0, -sizing.exact(row.gpu.memory_gb),
                                 row.gpu.name))
    return TrainingEstimate(flops, tokens, tokens_default, compute, factor, utilization, cluster_size, required_gb,
                            tuple(marked), tuple(c for row in marked for c in row.configurations))

"""The cost estimator's answers for every GPU: training time and cost on each GPU count from the fewest that
hold the model up to the visitor's cluster, and inference cost per million generated tokens on the fewest
GPUs that hold the weights and the KV cache. The rules are in ``estimates`` and ``sizing``; this works on GPUs
already fetched (anything with ``memory_gb``, ``bandwidth_gbs``, ``bf16_dense_tflops``, ``price_usd_per_hour``
and ``name``): no queries, no Django."""
from dataclasses import dataclass, field, replace
from fractions import Fraction

from catalog import sizing

from . import fit as calculator
from . import formulas as estimates

# Why a GPU has no estimate.
NO_BF16 = "no_bf16"  # no published dense BF16 throughput: no training time
NO_BANDWIDTH = "no_bandwidth"  # no published memory bandwidth: no decode ceiling
TOO_SMALL = "too_small"  # even the largest configuration does not hold the model


@dataclass(frozen=True)
class TrainingConfiguration:
    gpu: object
    gpu_count: int
    wall_clock_hours: Fraction
    cost: Fraction = None  # None without a live price
    fastest: bool = False


@dataclass(frozen=True)
class TrainingRow:
    gpu: object
    gpu_hours: Fraction = None  # None without a BF16 figure
    cost: Fraction = None  # None without a price, a BF16 figure or a fitting configuration
    configurations: tuple = ()  # from the fewest GPUs that hold the model to the cluster size
    problem: str = None
    cheapest: bool = False

    @property
    def fewest(self):
        return self.configurations[0] if self.configurations else None

    @property
    def largest(self):
        return self.configurations[-1] if self.configurations else None

    @property
    def fastest(self):
        return any(configuration.fastest for configuration in self.configurations)


@dataclass(frozen=True)
class TrainingEstimate:
    flops: Fraction
    billion_tokens: Fraction
    flops_per_parameter_token: int
    utilization: Fraction
    cluster_size: int
    required_gb: Fraction
    rows: tuple
    configurations: tuple = field(default=())  # every one considered, for the chart

    @property
    def cheapest(self):
        return [row for row in self.rows if row.cheapest]

    @property
    def fastest(self):
        return [configuration for configuration in self.configurations if configuration.fastest]


def training_row(gpu, flops, utilization, required_gb, counts):
    if gpu.bf16_dense_tflops is None:
        return TrainingRow(gpu, problem=NO_BF16)
    hours = estimates.gpu_hours(flops, gpu.bf16_dense_tflops, utilization)
    fitting = [count for count in counts if sizing.fits(required_gb, gpu.memory_gb, count)]
    if not fitting:
        return TrainingRow(gpu, hours, problem=TOO_SMALL)
    price = gpu.price_usd_per_hour
    cost = estimates.training_cost(hours, price) if price is not None else None
    configurations = tuple(
        TrainingConfiguration(gpu, count, estimates.wall_clock_hours(hours, count), cost) for count in fitting
    )
    return TrainingRow(gpu, hours, cost, configurations)


def training_estimate(gpus, model_billion_params, method, billion_tokens=None, utilization=None,
                      cluster_size=estimates.DEFAULT_CLUSTER_SIZE):
    """Every GPU's training time and cost: cheapest first, then those without a price, those the cluster cannot
    hold, and those without a BF16 figure. The cheapest row(s) and the fastest configuration(s) are marked."""
    factor = method.training_flops_per_parameter_token
    tokens = (estimates.compute_optimal_billion_tokens(model_billion_params) if billion_tokens is None
              else sizing.exact(billion_tokens))
    utilization = estimates.DEFAULT_UTILIZATION if utilization is None else sizing.exact(utilization)
    flops = estimates.training_flops(model_billion_params, tokens, factor)
    required_gb = sizing.required_memory_gb(model_billion_params, method.bytes_per_parameter)
    counts = estimates.cluster_counts(cluster_size)
    rows = [training_row(gpu, flops, utilization, required_gb, counts) for gpu in gpus]
    costs = [row.cost for row in rows if row.cost is not None]
    times = [c.wall_clock_hours for row in rows for c in row.configurations]
    least_cost, least_time = min(costs, default=None), min(times, default=None)
    marked = [
        replace(row, cheapest=row.cost is not None and row.cost == least_cost, configurations=tuple(
            replace(c, fastest=c.wall_clock_hours == least_time) for c in row.configurations))
        for row in rows
    ]
    order = {None: 0, TOO_SMALL: 2, NO_BF16: 3}
    marked.sort(key=lambda row: (
        order[row.problem] + (row.problem is None and row.cost is None), row.cost or 0, row.gpu_hours or 0,
        -sizing.exact(row.gpu.memory_gb), row.gpu.name,
    ))
    return TrainingEstimate(flops, tokens, factor, utilization, cluster_size, required_gb, tuple(marked),
                            tuple(c for row in marked for c in row.configurations))


@dataclass(frozen=True)
class InferenceRow:
    gpu: object
    gpu_count: int = None
    bandwidth_gbs: Fraction = None  # of the whole configuration
    per_sequence: Fraction = None  # tokens per second
    aggregate: Fraction = None  # tokens per second, all sequences of the batch
    compute_bound: bool = False  # the compute ceiling, not the memory one, limits the aggregate
    hourly_cost: Fraction = None
    usd_per_million: Fraction = None
    problem: str = None
    cheapest: bool = False


@dataclass(frozen=True)
class InferenceEstimate:
    weights_gb: Fraction
    kv_cache_gb_per_sequence: Fraction
    step_gb: Fraction
    required_gb: Fraction
    batch_size: int
    rows: tuple

    @property
    def cheapest(self):
        return [row for row in self.rows if row.cheapest]


def inference_row(gpu, requirement, kv_per_sequence):
    configuration = calculator.configuration(gpu, requirement.total_gb)
    count = configuration.gpu_count
    if count is None:
        return InferenceRow(gpu, problem=TOO_SMALL)
    if gpu.bandwidth_gbs is None:
        return InferenceRow(gpu, count, problem=NO_BANDWIDTH)
    batch = requirement.batch_size
    # Tensor parallelism: each GPU reads its share of the weights and the cache, all at once.
    bandwidth = count * sizing.exact(gpu.bandwidth_gbs)
    per_sequence = estimates.memory_bound_tokens_per_second(bandwidth, requirement.model_gb, kv_per_sequence, batch)
    aggregate, compute_bound = per_sequence * batch, False
    if gpu.bf16_dense_tflops is not None:
        ceiling = estimates.compute_bound_tokens_per_second(
            count * sizing.exact(gpu.bf16_dense_tflops), requirement.model_billion_params)
        if ceiling < aggregate:
            aggregate, per_sequence, compute_bound = ceiling, ceiling / batch, True
    hourly = configuration.hourly_cost
    per_million = estimates.usd_per_million_tokens(hourly, aggregate) if hourly is not None else None
    return InferenceRow(gpu, count, bandwidth, per_sequence, aggregate, compute_bound, hourly, per_million)


def inference_estimate(gpus, requirement):
    """Every GPU's decode ceiling and cost per million generated tokens for ``requirement`` (an inference
    ``calculator.MemoryRequirement``): cheapest first, then those without a price, without a bandwidth
    figure, and those the largest configuration cannot hold."""
    kv_per_sequence = estimates.kv_cache_gb_per_sequence(requirement.kv_cache_gb, requirement.batch_size)
    rows = [inference_row(gpu, requirement, kv_per_sequence) for gpu in gpus]
    least = min((row.usd_per_million for row in rows if row.usd_per_million is not None), default=None)
    order = {None: 0, NO_BANDWIDTH: 2, TOO_SMALL: 3}
    rows = sorted(
        (replace(row, cheapest=row.usd_per_million is not None and row.usd_per_million == least) for row in rows),
        key=lambda row: (order[row.problem] + (row.problem is None and row.usd_per_million is None),
                         row.usd_per_million or 0, -(row.aggregate or 0), row.gpu.name),
    )
    return InferenceEstimate(
        requirement.model_gb, kv_per_sequence,
        estimates.decode_step_gb(requirement.model_gb, kv_per_sequence, requirement.batch_size),
        requirement.total_gb, requirement.batch_size, tuple(rows),
    )

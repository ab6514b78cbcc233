"""What a million generated tokens cost: for every GPU, the fewest GPUs (1, 2, 4 or 8) that hold the weights
at their stored bits per weight and the KV cache, the decode speed a serving engine reaches there (the
memory-bandwidth ceiling × the measured decode share for that GPU class and count, capped by the measured
share of compute), and the price of a million tokens at that speed.

A mixture of experts reads, per decode step, only the experts its batch's tokens are routed to: with uniform
routing a share a = active ÷ total of the experts per token, the step reads 1 − (1 − a)^batch of them.

Works on GPUs already fetched: no queries, no Django. Exact arithmetic.
"""
from dataclasses import dataclass, replace
from fractions import Fraction

from catalog import sizing

from . import formulas
from .efficiency import efficiency_model
from .peaks import bandwidth_peak, bf16_peak

NO_BANDWIDTH = "no_bandwidth"  # neither a published nor a derived memory bandwidth: no decode speed
TOO_SMALL = "too_small"  # the largest configuration does not hold the model
BITS_PER_BYTE = 8


@dataclass(frozen=True)
class InferenceRow:
    gpu: object
    gpu_count: int = None
    gpu_class: str = None
    bandwidth_gbs: Fraction = None  # of the whole configuration
    bandwidth_derived: bool = False
    ceiling_per_sequence: Fraction = None  # tokens/s: the memory-bandwidth ceiling, labelled as such
    decode_share: object = None  # the efficiency.CountRule applied
    per_sequence: Fraction = None  # tokens/s a serving engine reaches per sequence
    aggregate: Fraction = None  # tokens/s, all sequences of the batch
    compute_bound: bool = False  # the compute cap, not memory, limits the aggregate
    hourly_cost: Fraction = None
    usd_per_million: Fraction = None
    problem: str = None
    cheapest: bool = False


@dataclass(frozen=True)
class InferenceEstimate:
    total_billion_params: Fraction
    active_billion_params: Fraction
    bits_per_weight: object  # efficiency.WeightBits
    weights_gb: Fraction  # all weights, at their stored bits
    weights_read_gb: Fraction  # the weights one decode step reads (all of a dense model's)
    kv_cache_gb_per_sequence: Fraction
    step_gb: Fraction
    required_gb: Fraction
    context_tokens: int
    batch_size: int
    rows: tuple

    @property
    def cheapest(self):
        return [row for row in self.rows if row.cheapest]


def stored_weights_gb(billion_params, bits_per_weight):
    """GB of weights at ``bits_per_weight`` bits each (billions of parameters × bytes each = GB)."""
    return formulas.positive(billion_params, "the model size") * sizing.exact(bits_per_weight) / BITS_PER_BYTE


def experts_read_share(active_share, batch_size):
    """The expected share of a mixture of experts' weights one decode step reads for ``batch_size`` tokens, each
    routed (uniformly) to ``active_share`` of them: 1 − (1 − a)^batch. A dense model (a = 1) reads all. Exact, then
    held to a denominator of at most 10¹⁸ (a share as simple as 37/671 stays exact)."""
    active_share = sizing.exact(active_share)
    if active_share >= 1:
        return Fraction(1)
    return (1 - (1 - active_share) ** formulas.whole_count(batch_size)).limit_denominator(10**18)


def inference_row(gpu, required_gb, weights_read_gb, kv_per_sequence, batch, active_billion_params, model,
                  gpu_count=None):
    # A published run's own GPU count is taken as it ran: it held the model, whatever our headroom rule says.
    count = gpu_count or sizing.fewest_gpus(required_gb, gpu.memory_gb)
    gpu_class = model.gpu_class(gpu)
    if count is None:
        return InferenceRow(gpu, gpu_class=gpu_class, problem=TOO_SMALL)
    bandwidth, derived = bandwidth_peak(gpu)
    if bandwidth is None:
        return InferenceRow(gpu, count, gpu_class, problem=NO_BANDWIDTH)
    # Tensor parallelism: each GPU reads its share of the weights and the cache, all at once.
    total_bandwidth = count * bandwidth
    ceiling = formulas.memory_bound_tokens_per_second(total_bandwidth, weights_read_gb, kv_per_sequence, batch)
    rule = model.decode_rule(gpu_class, count)
    per_sequence = ceiling * rule.figure.share
    aggregate, compute_bound = per_sequence * batch, False
    peak, _derived = bf16_peak(gpu)
    if peak is not None:
        cap = formulas.compute_bound_tokens_per_second(count * peak * model.decode_compute.share,
                                                       active_billion_params)
        if cap < aggregate:
            aggregate, per_sequence, compute_bound = cap, cap / batch, True
    price = gpu.price_usd_per_hour
    hourly = count * sizing.exact(price) if price is not None else None
    per_million = formulas.usd_per_million_tokens(hourly, aggregate) if hourly is not None else None
    return InferenceRow(gpu, count, gpu_class, total_bandwidth, derived, ceiling, rule, per_sequence, aggregate,
                        compute_bound, hourly, per_million)


def inference_estimate(gpus, model_billion_params, method_key, shape, context_tokens, batch_size,
                       active_billion_params=None, model=None, gpu_count=None):
    """Every GPU's decode speed and cost per million generated tokens: cheapest first, then those without a
    price, without a bandwidth figure, and those the largest configuration cannot hold. ``gpu_count`` fixes the
    configuration (a published run's) instead of the fewest GPUs that hold the model."""
    model = model or efficiency_model()
    total = formulas.positive(model_billion_params, "the model size")
    active = total if active_billion_params is None else formulas.positive(active_billion_params, "the active size")
    if active > total:
        raise ValueError("the active parameters are at most the total")
    bits = model.bits_per_weight(method_key)
    if bits is None:
        raise ValueError(f"no stored format for {method_key}")
    batch = formulas.whole_count(batch_size)
    weights_gb = stored_weights_gb(total, bits.bits)
    weights_read_gb = weights_gb * experts_read_share(active / total, batch)
    kv_cache_gb = sizing.kv_cache_gb(shape.layers, shape.kv_heads, shape.head_dim, context_tokens, batch)
    kv_per_sequence = formulas.kv_cache_gb_per_sequence(kv_cache_gb, batch)
    required_gb = weights_gb + kv_cache_gb
    rows = [inference_row(gpu, required_gb, weights_read_gb, kv_per_sequence, batch, active, model, gpu_count)
            for gpu in gpus]
    least = min((row.usd_per_million for row in rows if row.usd_per_million is not None), default=None)
    order = {None: 0, NO_BANDWIDTH: 2, TOO_SMALL: 3}
    rows = sorted(
        (replace(row, cheapest=row.usd_per_million is not None and row.usd_per_million == least) for row in rows),
        key=lambda row: (order[row.problem] + (row.problem is None and row.usd_per_million is None),
                         row.usd_per_million or 0, -(row.aggregate or 0), row.gpu.name),
    )
    return InferenceEstimate(
        total, active, bits, weights_gb, weights_read_gb, kv_per_sequence,
        formulas.decode_step_gb(weights_read_gb, kv_per_sequence, batch), required_gb, context_tokens, batch,
        tuple(rows),
    )

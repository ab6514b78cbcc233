"""What serving a model costs on every GPU: the fewest GPUs (1, 2, 4 or 8, tensor parallel in one node) whose memory
holds the weights and the batch (``memory``), the speed an engine reaches there (``serving``: throughput, time to
first token, time per output token) and the price of a million output tokens and of a million prompt tokens.

With no batch given, each GPU serves at maximum load: the batch its memory holds, up to the engine's limit.

A mixture of experts reads, per decode step, only the experts its batch's tokens are routed to: with uniform
routing a share a = active ÷ total of the experts per token, the step reads 1 − (1 − a)^batch of them.

Works on GPUs already fetched: no queries, no Django. Exact arithmetic.
"""
from dataclasses import dataclass, replace
from fractions import Fraction

from core.exact_numbers import exact

from . import formulas
from .efficiency import PCIE, efficiency_model
from .memory import GPU_COUNTS, Shape, memory_plan, weights_gb
from .peaks import bandwidth_peak, bf16_peak
from .serving import hardware, serving, work
from .serving_data import FP8, serving_data

NO_BANDWIDTH = "no_bandwidth"  # neither a published nor a derived memory bandwidth or peak: no speed
TOO_SMALL = "too_small"  # the largest configuration does not hold the model and one sequence (or the batch)
SECONDS_PER_HOUR = 3600
TOKENS_PER_MILLION = 10**6


@dataclass(frozen=True)
class Request:
    """What the visitor serves: the model, its formats, the prompt and answer lengths, the batch (None: maximum
    load) and the GPU count (None: the fewest that hold it)."""

    total_billion_params: Fraction
    active_billion_params: Fraction
    shape: Shape
    weights_key: str
    kv_key: str
    input_tokens: int
    output_tokens: int
    batch: int = None
    gpus: int = None


@dataclass(frozen=True)
class InferenceRow:
    gpu: object
    gpu_count: int = None
    plan: object = None  # memory.MemoryPlan
    bandwidth_gbs: Fraction = None  # per GPU
    bandwidth_derived: bool = False
    peak_tflops: Fraction = None  # per GPU, at the weights' precision
    peak_derived: bool = False
    platform: object = None  # serving_data.Platform
    result: object = None  # serving.Serving
    hourly_cost: Fraction = None
    usd_per_million_output: Fraction = None  # the decode steps' time
    usd_per_million_input: Fraction = None  # the prefill's time
    usd_per_million_all_in: Fraction = None  # a request's whole time, per output token
    problem: str = None
    cheapest: bool = False

    @property
    def tokens_per_second_per_gpu(self):
        return self.result.output_tokens_per_second / self.gpu_count if self.result else None


@dataclass(frozen=True)
class InferenceEstimate:
    request: Request
    weight_format: object
    kv_format: object
    weights_gb: Fraction  # all weights
    weights_read_gb: Fraction  # the weights a decode step reads at batch 1 (all of a dense model's)
    rows: tuple

    @property
    def cheapest(self):
        return [row for row in self.rows if row.cheapest]


def experts_read_share(active_share, batch_size):
    """The expected share of a mixture of experts' weights one decode step reads for ``batch_size`` tokens, each
    routed (uniformly) to ``active_share`` of them: 1 − (1 − a)^batch. A dense model (a = 1) reads all. Exact, then
    held to a denominator of at most 10¹⁸ (a share as simple as 37/671 stays exact)."""
    active_share = exact(active_share)
    if active_share >= 1:
        return Fraction(1)
    return (1 - (1 - active_share) ** formulas.whole_count(batch_size)).limit_denominator(10**18)


def peak_at(gpu, weight_format):
    """(TFLOPS, derived) at the weights' precision: the FP8 peak for an FP8 format where the GPU has one."""
    if weight_format.compute == FP8 and getattr(gpu, "fp8_dense_tflops", None) is not None:
        return exact(gpu.fp8_dense_tflops), False
    return bf16_peak(gpu)


def link_gbs(gpu, gpus, gpu_class):
    """One-way bandwidth between the group's GPUs: half the GPU's published two-way link, or PCIe beyond the pair a
    bridge joins."""
    link = gpu.interconnect_gbs
    if link is None or (gpu_class == PCIE and gpus > 2):
        return serving_data().pcie_gbs / 2
    return exact(link) / 2


def plans_for(gpu, request, total_weights_gb, kv_bytes):
    """The memory plans to weigh: the requested count if it holds one sequence (the engine runs what fits and
    queues the rest); with a batch, the fewest GPUs that hold it; at maximum load, every count that holds one
    sequence (the cheapest per output token is kept). Empty when none does."""
    tokens = request.input_tokens + request.output_tokens
    counts, needed = ((request.gpus,), 1) if request.gpus else (GPU_COUNTS, request.batch or 1)
    memory = exact(gpu.memory_gb)
    plans = [plan for plan in (memory_plan(memory, count, total_weights_gb, request.shape, kv_bytes, tokens)
                               for count in counts) if plan.holds(needed)]
    return plans if request.batch is None and not request.gpus else plans[:1]


def configuration(gpu, gpu_class, request, plan, total_weights_gb, kv_format, bandwidth, peak, number=exact):
    """(hardware, work, batch) of one configuration, as ``serving.serving`` takes them; ``number`` makes each figure
    exact (or, to compare configurations quickly, a float)."""
    data = serving_data()
    platform = data.platform(gpu)
    batch = min(request.batch or data.max_sequences, plan.batch_that_fits)
    group = hardware(plan.gpus, bandwidth, peak, link_gbs(gpu, plan.gpus, gpu_class), platform.bandwidth_share,
                     platform.compute_share, number)
    share = experts_read_share(request.active_billion_params / request.total_billion_params, batch)
    load = work(request.active_billion_params, total_weights_gb * share, request.shape, kv_format.bytes,
                request.input_tokens, request.output_tokens, number)
    return group, load, batch


def screened_cost(gpu, gpu_class, request, plan, total_weights_gb, kv_format, bandwidth, peak):
    """In floats, for choosing a configuration at maximum load: the cheapest per output token; unpriced, the most
    tokens per GPU; on a tie, the fewest GPUs. The chosen one is then worked out exactly."""
    result = serving(*configuration(gpu, gpu_class, request, plan, total_weights_gb, kv_format, bandwidth, peak,
                                    float))
    price = gpu.price_usd_per_hour
    cost = plan.gpus * float(price) / result.output_tokens_per_second if price is not None else 0
    return cost, -result.output_tokens_per_second / plan.gpus, plan.gpus


def served(gpu, gpu_class, request, plan, kv_format, total_weights_gb, bandwidth, peak):
    """The row of one configuration (``plan``) that has its figures."""
    group, work, batch = configuration(gpu, gpu_class, request, plan, total_weights_gb, kv_format, bandwidth[0],
                                       peak[0])
    platform = serving_data().platform(gpu)
    result = serving(group, work, batch)
    price = gpu.price_usd_per_hour
    hourly = plan.gpus * exact(price) if price is not None else None
    output = input_ = all_in = None
    if hourly is not None:
        per_second = hourly / SECONDS_PER_HOUR
        output = per_second * result.step_seconds / batch * TOKENS_PER_MILLION
        if request.input_tokens:
            input_ = per_second * result.prefill_seconds / request.input_tokens * TOKENS_PER_MILLION
        all_in = per_second / result.output_tokens_per_second * TOKENS_PER_MILLION
    return InferenceRow(gpu, plan.gpus, plan, *bandwidth, *peak, platform, result, hourly, output, input_, all_in)


def inference_row(gpu, request, weight_format, kv_format, total_weights_gb):
    plans = plans_for(gpu, request, total_weights_gb, kv_format.bytes)
    if not plans:
        return InferenceRow(gpu, problem=TOO_SMALL)
    bandwidth, peak = bandwidth_peak(gpu), peak_at(gpu, weight_format)
    if bandwidth[0] is None or peak[0] is None:
        return InferenceRow(gpu, plans[0].gpus, plans[0], problem=NO_BANDWIDTH)
    gpu_class = efficiency_model().gpu_class(gpu)
    plan = min(plans, key=lambda plan: screened_cost(gpu, gpu_class, request, plan, total_weights_gb, kv_format,
                                                     bandwidth[0], peak[0])) if len(plans) > 1 else plans[0]
    return served(gpu, gpu_class, request, plan, kv_format, total_weights_gb, bandwidth, peak)


def inference_estimate(gpus, request):
    """Every GPU's serving speed and cost: cheapest per output token (a request's whole time) first, then those
    without a price, without a bandwidth or peak figure, and those the largest configuration cannot hold."""
    request = replace(request, total_billion_params=formulas.positive(request.total_billion_params, "the model size"),
                      active_billion_params=formulas.positive(request.active_billion_params, "the active size"))
    if request.active_billion_params > request.total_billion_params:
        raise ValueError("the active parameters are at most the total")
    data = serving_data()
    weight_format, kv_format = data.weight_format(request.weights_key), data.kv_format(request.kv_key)
    total_weights = weights_gb(request.total_billion_params, weight_format.bits)
    rows = [inference_row(gpu, request, weight_format, kv_format, total_weights) for gpu in gpus]
    least = min((row.usd_per_million_all_in for row in rows if row.usd_per_million_all_in is not None), default=None)
    order = {None: 0, NO_BANDWIDTH: 2, TOO_SMALL: 3}
    rows = sorted(
        (replace(row, cheapest=True) if least is not None and row.usd_per_million_all_in == least else row
         for row in rows),
        key=lambda row: (order[row.problem] + (row.problem is None and row.usd_per_million_all_in is None),
                         row.usd_per_million_all_in or 0,
                         -(row.result.output_tokens_per_second if row.result else 0), row.gpu.name),
    )
    return InferenceEstimate(request, weight_format, kv_format, total_weights,
                             total_weights * experts_read_share(
                                 request.active_billion_params / request.total_billion_params, 1), tuple(rows))

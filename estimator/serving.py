"""Serving as engines run it: the time of a decode step and of a prompt's prefill on a tensor-parallel group of GPUs,
and what they give at a batch (throughput, time to first token, time per output token).

A decode step reads each GPU's share of the weights (a mixture of experts: the experts its batch's tokens reach)
and of the batch's KV cache, and multiplies each token by the active weights (2 FLOPs a parameter): it takes the
longer of the two at the measured shares of the GPU's bandwidth and of its peak at the weights' precision, plus a
fixed overhead and tensor parallelism's all-reduces. A prefill multiplies every prompt token by the active weights
and attends over the prompt (2 × layers × hidden size × tokens² FLOPs). At a steady load each request costs its
prefill and its share of the decode steps: throughput = output tokens ÷ (prefill + output × step ÷ batch).

Pure Python, exact arithmetic, no Django.
"""
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from .memory import BYTES_PER_GB, kv_bytes_per_token
from .serving_data import serving_data

FLOPS_PER_TFLOP = 10**12
PARAMETERS_PER_BILLION = 10**9
FLOPS_PER_PARAMETER_TOKEN = 2
ALLREDUCES_PER_LAYER = 2
ACTIVATION_BYTES = 2  # 16-bit activations cross the link
# A dense transformer has about 12 × layers × hidden² parameters (attention 4 hidden², the MLP 8): the hidden size
# the attention FLOPs need, from the active parameters and the layers.
PARAMETERS_PER_LAYER_HIDDEN_SQUARED = 12


@dataclass(frozen=True)
class Hardware:
    """A tensor-parallel group: its GPU count, each GPU's bandwidth (GB/s), peak at the weights' precision (TFLOPS)
    and one-way link (GB/s), and the platform's shares."""

    gpus: int
    bandwidth_gbs: Fraction
    peak_tflops: Fraction
    link_gbs: Fraction
    bandwidth_share: Fraction
    compute_share: Fraction


@dataclass(frozen=True)
class Work:
    active_billion_params: Fraction
    weights_read_gb: Fraction  # all GPUs together, one decode step
    shape: object  # memory.Shape
    kv_bytes: int
    input_tokens: int
    output_tokens: int


@dataclass(frozen=True)
class Serving:
    batch: int
    step_seconds: Fraction
    memory_bound: bool
    prefill_seconds: Fraction  # one request's prompt
    output_tokens_per_second: Fraction  # the whole group, at the batch
    time_to_first_token: Fraction  # seconds: the prompt's prefill and one step
    time_per_output_token: Fraction  # seconds, at the load (prefills interleaved)


def hidden_size(active_billion_params, layers):
    return isqrt(int(Fraction(active_billion_params) * PARAMETERS_PER_BILLION
                     / (PARAMETERS_PER_LAYER_HIDDEN_SQUARED * layers)))


def allreduce_seconds(hardware, tokens, hidden, layers):
    """Two all-reduces a layer of ``tokens`` tokens' activations over a ring of the group's GPUs."""
    n = hardware.gpus
    if n == 1:
        return Fraction(0)
    data = serving_data()
    moved = Fraction(2 * (n - 1), n) * tokens * hidden * ACTIVATION_BYTES
    per_allreduce = data.allreduce_latency_seconds + moved / (hardware.link_gbs * data.link_share * BYTES_PER_GB)
    return ALLREDUCES_PER_LAYER * layers * per_allreduce


def compute_rate(hardware):
    """FLOPs a second the group reaches."""
    return hardware.gpus * hardware.peak_tflops * FLOPS_PER_TFLOP * hardware.compute_share


def decode_step(hardware, work, batch):
    """(seconds, memory-bound) of one decode step of ``batch`` sequences, each holding on average its prompt and
    half its answer."""
    context = Fraction(2 * work.input_tokens + work.output_tokens, 2)
    cache_bytes = batch * context * kv_bytes_per_token(work.shape, work.kv_bytes, hardware.gpus)
    read = work.weights_read_gb * BYTES_PER_GB / hardware.gpus + cache_bytes
    memory_seconds = read / (hardware.bandwidth_gbs * BYTES_PER_GB * hardware.bandwidth_share)
    flops = FLOPS_PER_PARAMETER_TOKEN * work.active_billion_params * PARAMETERS_PER_BILLION * batch
    compute_seconds = flops / compute_rate(hardware)
    hidden = hidden_size(work.active_billion_params, work.shape.layers)
    fixed = serving_data().step_overhead_seconds + allreduce_seconds(hardware, batch, hidden, work.shape.layers)
    return max(memory_seconds, compute_seconds) + fixed, memory_seconds >= compute_seconds


def prefill_seconds(hardware, work):
    """One request's prompt: the weights' FLOPs and the attention's over the prompt, and the all-reduces."""
    tokens = work.input_tokens
    if tokens == 0:
        return Fraction(0)
    hidden = hidden_size(work.active_billion_params, work.shape.layers)
    flops = (FLOPS_PER_PARAMETER_TOKEN * work.active_billion_params * PARAMETERS_PER_BILLION * tokens
             + 2 * work.shape.layers * hidden * tokens * tokens)
    moved = allreduce_seconds(hardware, tokens, hidden, work.shape.layers)
    if moved:  # the latency is paid per step, not per token: count the data alone
        moved -= ALLREDUCES_PER_LAYER * work.shape.layers * serving_data().allreduce_latency_seconds
    return flops / compute_rate(hardware) + moved


def serving(hardware, work, batch):
    step, memory_bound = decode_step(hardware, work, batch)
    prefill = prefill_seconds(hardware, work)
    per_request = prefill + work.output_tokens * step / batch
    throughput = work.output_tokens / per_request
    return Serving(batch, step, memory_bound, prefill, throughput, prefill + step, batch / throughput)

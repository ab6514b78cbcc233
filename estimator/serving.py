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
from functools import lru_cache
from math import isqrt

from core.exact_numbers import exact

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
    """A tensor-parallel group of ``gpus`` GPUs and what each reaches: bytes read a second (bandwidth × share),
    FLOPs a second at the weights' precision (peak × share), bytes a second over its link one way (× share); the
    share of the activations a ring all-reduce moves over each link, 2 (n − 1) ÷ n; a step's fixed time and an
    all-reduce's latency, in seconds. Exact numbers, or floats to compare configurations quickly."""

    gpus: int
    bytes_per_second: object
    flops_per_second: object
    link_bytes_per_second: object
    ring_share: object
    step_overhead: object
    allreduce_latency: object


@lru_cache(maxsize=4096)
def hardware(gpus, bandwidth_gbs, peak_tflops, link_gbs, bandwidth_share, compute_share, number=exact):
    """The group from the GPU's published figures (GB/s, TFLOPS, one-way GB/s) and the platform's shares (kept:
    the catalogue's GPUs give a few hundred groups)."""
    data = serving_data()
    return Hardware(
        gpus, number(exact(bandwidth_gbs) * bandwidth_share * BYTES_PER_GB),
        number(exact(peak_tflops) * compute_share * FLOPS_PER_TFLOP),
        number(exact(link_gbs) * data.link_share * BYTES_PER_GB), number(Fraction(2 * (gpus - 1), gpus)),
        number(data.step_overhead_seconds), number(data.allreduce_latency_seconds))


@dataclass(frozen=True)
class Work:
    active_billion_params: object
    weights_read_gb: object  # all GPUs together, one decode step
    shape: object  # memory.Shape
    kv_bytes: int
    input_tokens: int
    output_tokens: int
    context_tokens: object  # a sequence's average during its answer: its prompt and half its answer


def work(active_billion_params, weights_read_gb, shape, kv_bytes, input_tokens, output_tokens, number=exact):
    return Work(number(active_billion_params), number(weights_read_gb), shape, kv_bytes, input_tokens,
                output_tokens, number(Fraction(2 * input_tokens + output_tokens, 2)))


@dataclass(frozen=True)
class Serving:
    batch: int
    step_seconds: Fraction
    memory_bound: bool
    prefill_seconds: Fraction  # one request's prompt
    output_tokens_per_second: Fraction  # the whole group, at the batch
    time_to_first_token: Fraction  # seconds: the prompt's prefill and one step
    time_per_output_token: Fraction  # seconds, at the load (prefills interleaved)


@lru_cache(maxsize=1024)
def hidden_size(active_billion_params, layers):
    return isqrt(int(Fraction(active_billion_params) * PARAMETERS_PER_BILLION
                     / (PARAMETERS_PER_LAYER_HIDDEN_SQUARED * layers)))


def allreduce_data_seconds(hardware, tokens, hidden, layers):
    """The data of two all-reduces a layer of ``tokens`` tokens' activations over a ring of the group's GPUs; the
    latency is counted per step apart."""
    if hardware.gpus == 1:
        return 0
    moved = ALLREDUCES_PER_LAYER * layers * tokens * hidden * ACTIVATION_BYTES * hardware.ring_share
    return moved / hardware.link_bytes_per_second


def decode_step(hardware, work, batch, hidden):
    """(seconds, memory-bound) of one decode step of ``batch`` sequences."""
    n, layers = hardware.gpus, work.shape.layers
    cache_bytes = batch * kv_bytes_per_token(work.shape, work.kv_bytes, n) * work.context_tokens
    memory_seconds = (work.weights_read_gb * BYTES_PER_GB / n + cache_bytes) / hardware.bytes_per_second
    compute_seconds = (work.active_billion_params * (FLOPS_PER_PARAMETER_TOKEN * PARAMETERS_PER_BILLION * batch)
                       / (n * hardware.flops_per_second))
    fixed = hardware.step_overhead + allreduce_data_seconds(hardware, batch, hidden, layers)
    if n > 1:
        fixed += ALLREDUCES_PER_LAYER * layers * hardware.allreduce_latency
    return max(memory_seconds, compute_seconds) + fixed, memory_seconds >= compute_seconds


def prefill_seconds(hardware, work, hidden):
    """One request's prompt: the weights' FLOPs and the attention's over the prompt, and the all-reduces' data."""
    tokens = work.input_tokens
    if tokens == 0:
        return 0 * hardware.step_overhead
    layers = work.shape.layers
    flops = (work.active_billion_params * (FLOPS_PER_PARAMETER_TOKEN * PARAMETERS_PER_BILLION * tokens)
             + 2 * layers * hidden * tokens * tokens)
    return flops / (hardware.gpus * hardware.flops_per_second) + allreduce_data_seconds(hardware, tokens, hidden,
                                                                                         layers)


def serving(hardware, work, batch):
    hidden = hidden_size(work.active_billion_params, work.shape.layers)
    step, memory_bound = decode_step(hardware, work, batch, hidden)
    prefill = prefill_seconds(hardware, work, hidden)
    per_request = prefill + work.output_tokens * step / batch
    throughput = work.output_tokens / per_request
    return Serving(batch, step, memory_bound, prefill, throughput, prefill + step, batch / throughput)

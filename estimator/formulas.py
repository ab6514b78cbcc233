"""How long and how much: training time and cost, and the cost of generated tokens at the memory-bound decode
ceiling. Every number the estimator uses is written once, here, and the assumptions block shows them.

Pure Python with exact arithmetic (``Fraction``), no Django imports. Inputs are exact numbers (int, Decimal,
Fraction or decimal strings; a float is refused); an impossible input (zero, a negative, a utilization above
100 %) raises ValueError. Units: parameters and tokens in billions, throughput in TFLOPS, bandwidth in GB/s,
memory in GB, prices in US dollars per GPU-hour, times in hours.
"""
from fractions import Fraction

from core.exact_numbers import exact

SECONDS_PER_HOUR = 3600
FLOPS_PER_TFLOP = 10**12
PARAMETERS_PER_BILLION = 10**9
TOKENS_PER_MILLION = 10**6

# Chinchilla (Hoffmann et al., 2022): about 20 training tokens per parameter is compute-optimal.
COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER = 20

# Model FLOPs utilization a visitor may enter in place of the measured figures (efficiency.toml).
MIN_UTILIZATION, MAX_UTILIZATION = Fraction(5, 100), Fraction(80, 100)

# GPU counts a training configuration comes in: powers of two up to the cluster the visitor picks.
CLUSTER_SIZES = (8, 64, 512, 4096, 16384)
DEFAULT_CLUSTER_SIZE = 64

# Generating one token takes about 2 FLOPs per parameter (a multiply and an add per weight).
DECODE_FLOPS_PER_PARAMETER_TOKEN = 2


def positive(value, what):
    value = exact(value)
    if value <= 0:
        raise ValueError(f"{what} must be above zero")
    return value


def whole_count(gpus):
    if not isinstance(gpus, int) or isinstance(gpus, bool) or gpus < 1:
        raise ValueError("a whole number of GPUs, at least one")
    return gpus


def training_flops(model_billion_params, training_billion_tokens, flops_per_parameter_token):
    """FLOPs of a training run: factor × parameters × tokens."""
    params = positive(model_billion_params, "the model size") * PARAMETERS_PER_BILLION
    tokens = positive(training_billion_tokens, "the training tokens") * PARAMETERS_PER_BILLION
    return positive(flops_per_parameter_token, "the FLOPs per parameter and token") * params * tokens


def compute_optimal_billion_tokens(model_billion_params):
    return COMPUTE_OPTIMAL_TOKENS_PER_PARAMETER * positive(model_billion_params, "the model size")


def checked_utilization(utilization):
    utilization = exact(utilization)
    if not 0 < utilization <= 1:
        raise ValueError("a utilization is above 0 and at most 1")
    return utilization


def gpu_hours(flops, dense_bf16_tflops, utilization):
    """GPU-hours = FLOPs ÷ (dense BF16 throughput × utilization) ÷ 3,600."""
    throughput = positive(dense_bf16_tflops, "the throughput") * FLOPS_PER_TFLOP * checked_utilization(utilization)
    return positive(flops, "the FLOPs") / throughput / SECONDS_PER_HOUR


def wall_clock_hours(total_gpu_hours, gpus):
    """Hours on ``gpus`` GPUs, assuming the work scales linearly across them."""
    return positive(total_gpu_hours, "the GPU-hours") / whole_count(gpus)


def training_cost(total_gpu_hours, usd_per_gpu_hour):
    """US dollars: GPU-hours × the price of one GPU-hour (the same on 1 GPU or 1,000 under linear scaling)."""
    return positive(total_gpu_hours, "the GPU-hours") * positive(usd_per_gpu_hour, "the price")


def cluster_counts(cluster_size):
    """1, 2, 4, … up to ``cluster_size``, itself a power of two."""
    cluster_size = whole_count(cluster_size)
    if cluster_size & (cluster_size - 1):
        raise ValueError("a cluster size is a power of two")
    return tuple(2**n for n in range(cluster_size.bit_length()))


def decode_step_gb(weights_gb, kv_cache_gb_per_sequence, batch_size):
    """Memory one decode step reads: the weights once, and every sequence's KV cache."""
    return positive(weights_gb, "the weights") + exact(kv_cache_gb_per_sequence) * whole_count(batch_size)


def memory_bound_tokens_per_second(bandwidth_gbs, weights_gb, kv_cache_gb_per_sequence, batch_size):
    """Decode ceiling per sequence: bandwidth ÷ memory read per step; each step gives each sequence one token."""
    if exact(kv_cache_gb_per_sequence) < 0:
        raise ValueError("a KV cache is not negative")
    step = decode_step_gb(weights_gb, kv_cache_gb_per_sequence, batch_size)
    return positive(bandwidth_gbs, "the bandwidth") / step


def compute_bound_tokens_per_second(dense_tflops, model_billion_params):
    """Tokens per second all sequences together cannot exceed: throughput ÷ 2 FLOPs per parameter."""
    params = positive(model_billion_params, "the model size") * PARAMETERS_PER_BILLION
    return positive(dense_tflops, "the throughput") * FLOPS_PER_TFLOP / (DECODE_FLOPS_PER_PARAMETER_TOKEN * params)


def usd_per_million_tokens(usd_per_hour, tokens_per_second):
    """Dollars per million generated tokens = hourly price ÷ (tokens per second × 3,600) × 10⁶."""
    tokens_per_hour = positive(tokens_per_second, "the tokens per second") * SECONDS_PER_HOUR
    return positive(usd_per_hour, "the price") / tokens_per_hour * TOKENS_PER_MILLION


def kv_cache_gb_per_sequence(kv_cache_gb, batch_size):
    return exact(kv_cache_gb) / whole_count(batch_size)


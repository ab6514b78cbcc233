"""The memory a served model takes, as engines reserve it, shared by the calculator's fit and inference tabs.

Each GPU gives the engine its usable share (vLLM's ``gpu_memory_utilization``); tensor parallelism splits the
weights evenly and the KV cache by heads (a KV head is never split: with fewer heads than GPUs each GPU keeps
one); the cache is paged, so a sequence holds its own tokens, rounded up to whole blocks, not the model's whole
context window. What the weights leave is the cache, and the batch that fits is how many sequences it holds.
Activations and the runtime come out of the engine's headroom (the memory it leaves unreserved).

Pure Python, exact arithmetic, no Django. Units: billions of parameters, GB (10⁹ bytes), tokens.
"""
from dataclasses import dataclass
from fractions import Fraction

from core.exact_numbers import exact

from .serving_data import serving_data

BITS_PER_BYTE = 8
BYTES_PER_GB = 10**9
GPU_COUNTS = (1, 2, 4, 8)  # tensor parallelism within one node


@dataclass(frozen=True)
class Shape:
    layers: int
    kv_heads: int
    head_dim: int


@dataclass(frozen=True)
class MemoryPlan:
    gpus: int
    usable_gb: Fraction  # per GPU
    weights_gb: Fraction  # per GPU
    kv_gb_per_sequence: Fraction  # per GPU, the tokens a sequence holds
    tokens_held: int  # per sequence, whole blocks
    batch_that_fits: int  # sequences the cache holds; 0 when the weights leave no room for one

    @property
    def cache_gb(self):
        return max(self.usable_gb - self.weights_gb, Fraction(0))

    def holds(self, batch):
        return self.batch_that_fits >= batch


def weights_gb(billion_params, bits_per_weight):
    """GB of weights at ``bits_per_weight`` bits each."""
    params = exact(billion_params)
    if params <= 0:
        raise ValueError("a model has more than zero parameters")
    return params * exact(bits_per_weight) / BITS_PER_BYTE


def kv_heads_per_gpu(kv_heads, gpus):
    return -(-kv_heads // gpus)


def kv_bytes_per_token(shape, kv_bytes, gpus=1):
    """Bytes of KV cache one token takes on each of ``gpus`` GPUs: a key and a value per layer, KV head and head
    dimension."""
    return 2 * shape.layers * kv_heads_per_gpu(shape.kv_heads, gpus) * shape.head_dim * kv_bytes


def tokens_held(tokens, block_tokens=None):
    """A sequence's tokens rounded up to whole blocks of the paged cache."""
    block = block_tokens or serving_data().block_tokens
    if not isinstance(tokens, int) or tokens < 1:
        raise ValueError("a sequence holds at least one token")
    return -(-tokens // block) * block


def memory_plan(memory_gb, gpus, total_weights_gb, shape, kv_bytes, tokens, utilization=None):
    """The memory of ``gpus`` GPUs of ``memory_gb`` each serving weights of ``total_weights_gb`` with sequences of
    ``tokens`` tokens (prompt and answer) and their KV cache at ``kv_bytes`` bytes a value."""
    data = serving_data()
    usable = exact(memory_gb) * (data.memory_utilization if utilization is None else exact(utilization))
    weights = exact(total_weights_gb) / gpus
    held = tokens_held(tokens, data.block_tokens)
    per_sequence = Fraction(kv_bytes_per_token(shape, kv_bytes, gpus) * held, BYTES_PER_GB)
    room = usable - weights
    fits = int(room // per_sequence) if room > 0 else 0
    return MemoryPlan(gpus, usable, weights, per_sequence, held, fits)


def fewest_gpus(memory_gb, total_weights_gb, shape, kv_bytes, tokens, batch, counts=GPU_COUNTS):
    """The plan of the fewest of ``counts`` GPUs that hold the weights and ``batch`` sequences; None if none do."""
    for gpus in counts:
        plan = memory_plan(memory_gb, gpus, total_weights_gb, shape, kv_bytes, tokens)
        if plan.holds(batch):
            return plan
    return None

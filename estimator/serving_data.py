"""How serving engines run a model, as data (``data/serving.toml``): the memory they reserve, the weight and KV-cache
formats, the shares of a GPU's peaks a decode step and a prefill reach per software platform, and a step's fixed
costs. Each figure keeps its basis and source for the page. Pure Python, exact numbers, no Django."""
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

SERVING_TOML = Path(__file__).resolve().parent / "data" / "serving.toml"
FP8, BF16 = "fp8", "bf16"


@dataclass(frozen=True)
class Basis:
    text: str
    source: str
    read_on: str


@dataclass(frozen=True)
class WeightFormat:
    key: str
    bits: Fraction
    compute: str  # the peak its matrix multiplications run at: FP8 or BF16
    basis: Basis


@dataclass(frozen=True)
class KVFormat:
    key: str
    bytes: int
    basis: Basis


@dataclass(frozen=True)
class Platform:
    vendor: str
    name: str
    bandwidth_share: Fraction
    compute_share: Fraction
    basis: Basis


@dataclass(frozen=True)
class ServingData:
    memory_utilization: Fraction
    utilization_basis: Basis
    block_tokens: int
    block_basis: Basis
    max_sequences: int
    max_sequences_basis: Basis
    weights: tuple  # WeightFormat…
    kv_cache: tuple  # KVFormat…
    platforms: tuple  # Platform…
    step_overhead_seconds: Fraction
    overhead_basis: Basis
    allreduce_latency_seconds: Fraction
    link_share: Fraction
    pcie_gbs: Fraction
    step_basis: Basis

    def weight_format(self, key):
        try:
            return next(item for item in self.weights if item.key == key)
        except StopIteration:
            raise ValueError(f"no weight format {key!r}") from None

    def kv_format(self, key):
        try:
            return next(item for item in self.kv_cache if item.key == key)
        except StopIteration:
            raise ValueError(f"no KV-cache format {key!r}") from None

    def platform(self, gpu):
        """The software platform of a GPU's vendor (CUDA for NVIDIA, ROCm for AMD); the first one otherwise."""
        vendor = (getattr(gpu, "vendor", "") or "").upper()
        return next((item for item in self.platforms if item.vendor.upper() == vendor), self.platforms[0])


def share(value):
    value = Fraction(value)
    if not 0 < value <= 1:
        raise ValueError(f"a share is above 0 and at most 1: {value}")
    return value


def read_serving(text):
    data = tomllib.loads(text)
    memory, step = data["memory"], data["step"]
    return ServingData(
        memory_utilization=share(memory["utilization"]),
        utilization_basis=Basis(memory["utilization_basis"], memory["utilization_source"],
                                memory["utilization_read_on"]),
        block_tokens=int(memory["block_tokens"]),
        block_basis=Basis(memory["block_basis"], memory["block_source"], memory["utilization_read_on"]),
        max_sequences=int(memory["max_sequences"]),
        max_sequences_basis=Basis(memory["max_sequences_basis"], memory["max_sequences_source"],
                                  memory["max_sequences_read_on"]),
        weights=tuple(WeightFormat(row["key"], Fraction(row["bits"]), row["compute"],
                                   Basis(row["basis"], row["source"], row["read_on"])) for row in data["weights"]),
        kv_cache=tuple(KVFormat(row["key"], int(row["bytes"]), Basis(row["basis"], "", ""))
                       for row in data["kv_cache"]),
        platforms=tuple(Platform(row["vendor"], row["name"], share(row["bandwidth"]), share(row["compute"]),
                                 Basis(row["basis"], row["source"], row["read_on"])) for row in data["platform"]),
        step_overhead_seconds=Fraction(step["overhead_ms"]) / 1000,
        overhead_basis=Basis(step["overhead_basis"], step["overhead_source"], step["read_on"]),
        allreduce_latency_seconds=Fraction(step["allreduce_latency_us"]) / 10**6,
        link_share=share(step["link_share"]),
        pcie_gbs=Fraction(step["pcie_gbs"]),
        step_basis=Basis(step["step_basis"], step["step_source"], step["read_on"]),
    )


@cache
def serving_data(path=SERVING_TOML):
    return read_serving(Path(path).read_text(encoding="utf-8"))

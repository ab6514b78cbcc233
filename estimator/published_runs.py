"""Published runs the estimator is checked against (``data/published_runs.toml``): training runs with their
reported GPU-hours and serving runs with their output tokens per second (every sequence together), each with its
source and a quoted excerpt. A run is in the calibration set (its figures chose the efficiencies in
``efficiency.toml`` and ``serving.toml``) or in the held-out set (never used to choose them). ``check_*`` compute
the estimator's figure for a run the way the calculator does, and the ratio estimate ÷ published. Pure: no Django."""
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from core.exact_numbers import exact

from .inference import Request, inference_estimate
from .memory import Shape
from .training import training_estimate
from .training_memory import FITS, fit_status, training_memory

PUBLISHED_RUNS_TOML = Path(__file__).resolve().parent / "data" / "published_runs.toml"
CALIBRATION, HELD_OUT = "calibration", "held_out"
DECODE, SERVING = "decode", "serving"


@dataclass(frozen=True)
class Source:
    url: str
    read_on: str
    excerpt: str
    note: str = ""


@dataclass(frozen=True)
class TrainingRun:
    name: str
    billion_params: Fraction
    active_billion_params: Fraction  # None: dense
    billion_tokens: Fraction
    gpu: str  # the catalogue GPU the estimate uses
    gpu_as_published: str
    published_gpu_hours: Fraction
    precision: str
    set: str
    source: Source


@dataclass(frozen=True)
class ServingRun:
    name: str
    billion_params: Fraction
    active_billion_params: Fraction  # None: dense
    weights: str  # a weight format of serving.toml
    kv: str  # a KV-cache format of serving.toml
    shape: Shape
    input_tokens: int
    output_tokens: int
    batch: int  # 0: maximum load
    gpu: str
    gpu_count: int
    engine: str
    published_tokens_per_second: Fraction  # output tokens, every sequence together
    set: str
    source: Source

    @property
    def band(self):
        """The band the run is held to: decoding one sequence, or serving a batch."""
        return DECODE if self.batch == 1 else SERVING


@dataclass(frozen=True)
class MemoryRun:
    """A fine-tune that fit, or ran out of memory, on named GPUs; ``published_gb`` when the source states its peak."""

    name: str
    billion_params: Fraction
    method: str
    adapter_share: Fraction  # None: the site's default share
    sequence_tokens: int
    micro_batch: int
    checkpointing: bool
    gpu: str
    gpu_as_published: str
    gpu_count: int
    fits: bool
    published_gb: Fraction  # None: the source states only fit or out of memory
    source: Source


@dataclass(frozen=True)
class MemoryCheck:
    run: MemoryRun
    gpu: object
    estimate_gb: Fraction  # each GPU's need
    status: str  # training_memory.FITS, NO_HEADROOM or TOO_SMALL

    @property
    def ratio(self):
        return None if self.run.published_gb is None else self.estimate_gb / self.run.published_gb

    @property
    def agrees(self):
        """The site's fit answer is the run's: it fit and the site says it fits, or it did not and the site agrees."""
        return (self.status == FITS) == self.run.fits


@dataclass(frozen=True)
class Check:
    run: object
    gpu: object
    estimate: Fraction
    ratio: Fraction  # estimate ÷ published


def optional(row, key):
    return exact(row[key]) if row.get(key) else None


def source(row):
    return Source(row["source"], row["read_on"], row["excerpt"], row.get("note", ""))


def read_published_runs(text):
    """(training runs, serving runs) from the data file's text."""
    data = tomllib.loads(text)
    training = tuple(TrainingRun(
        row["name"], exact(row["billion_params"]), optional(row, "active_billion_params"),
        exact(row["billion_tokens"]), row["gpu"], row["gpu_as_published"], exact(row["published_gpu_hours"]),
        row["precision"], row["set"], source(row),
    ) for row in data["training"])
    serving = tuple(ServingRun(
        row["name"], exact(row["billion_params"]), optional(row, "active_billion_params"), row["weights"], row["kv"],
        Shape(int(row["layers"]), int(row["kv_heads"]), int(row["head_dim"])), int(row["input_tokens"]),
        int(row["output_tokens"]), int(row["batch"]), row["gpu"], int(row["gpu_count"]), row["engine"],
        exact(row["published_tokens_per_second"]), row["set"], source(row),
    ) for row in data["serving"])
    for run in training + serving:
        if run.set not in (CALIBRATION, HELD_OUT) or not run.source.url.startswith("https://") \
                or not run.source.excerpt:
            raise ValueError(f"{run.name}: a set, an https source and a quoted excerpt are required")
    return training, serving


def read_memory_runs(text):
    """The training-memory runs of the data file's text."""
    runs = tuple(MemoryRun(
        row["name"], exact(row["billion_params"]), row["method"], optional(row, "adapter_share"),
        int(row["sequence_tokens"]), int(row["micro_batch"]), bool(row["checkpointing"]), row["gpu"],
        row["gpu_as_published"], int(row["gpu_count"]), bool(row["fits"]), optional(row, "published_gb"), source(row),
    ) for row in tomllib.loads(text).get("training_memory", ()))
    for run in runs:
        if not run.source.url.startswith("https://") or not run.source.excerpt:
            raise ValueError(f"{run.name}: an https source and a quoted excerpt are required")
        if run.published_gb is not None and not run.fits:
            raise ValueError(f"{run.name}: a peak is published for a run that fit")
    return runs


@cache
def memory_runs(path=PUBLISHED_RUNS_TOML):
    return read_memory_runs(Path(path).read_text(encoding="utf-8"))


def check_memory(run, gpu):
    """The calculator's memory for a published fine-tune on its GPUs, and whether it says the run fits."""
    memory = training_memory(run.billion_params, run.method, run.gpu_count, run.sequence_tokens, run.micro_batch,
                             run.checkpointing, adapter_share=run.adapter_share)
    return MemoryCheck(run, gpu, memory.per_gpu_gb, fit_status(memory.per_gpu_gb, gpu.memory_gb))


def memory_checks(gpus_by_slug):
    return tuple(check_memory(run, gpus_by_slug[run.gpu]) for run in memory_runs() if run.gpu in gpus_by_slug)


@cache
def published_runs(path=PUBLISHED_RUNS_TOML):
    return read_published_runs(Path(path).read_text(encoding="utf-8"))


def check_training(run, gpu, method, model=None):
    """The estimator's GPU-hours for a training run on its GPU (the fewest GPUs that hold it, up to a cluster of
    16,384, as the calculator counts), against the published GPU-hours."""
    estimate = training_estimate([gpu], run.billion_params, method, run.billion_tokens, None, 16384,
                                 run.active_billion_params, model)
    hours = estimate.rows[0].gpu_hours
    return Check(run, gpu, hours, hours / run.published_gpu_hours)


def check_serving(run, gpu):
    """The estimator's output tokens per second on the run's GPUs, at its batch (or maximum load), against the
    published figure."""
    request = Request(run.billion_params, run.active_billion_params or run.billion_params, run.shape, run.weights,
                      run.kv, run.input_tokens, run.output_tokens, run.batch or None, run.gpu_count)
    row = inference_estimate([gpu], request).rows[0]
    speed = row.result.output_tokens_per_second
    return Check(run, gpu, speed, speed / run.published_tokens_per_second)


def checks(gpus_by_slug, full_training_method, model=None):
    """Every run's check whose GPU is in the catalogue: (training checks, serving checks)."""
    training, serving = published_runs()
    return (
        tuple(check_training(run, gpus_by_slug[run.gpu], full_training_method, model)
              for run in training if run.gpu in gpus_by_slug),
        tuple(check_serving(run, gpus_by_slug[run.gpu]) for run in serving if run.gpu in gpus_by_slug),
    )

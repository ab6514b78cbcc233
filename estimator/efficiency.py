"""Measured efficiencies: what share of a GPU's published peak a training run or a serving engine reaches.

The figures are data (``data/efficiency.toml``), each with its source; this module reads them and answers,
for a GPU and a GPU count, the training utilization and the scaling kept (serving's figures are in
``serving_data``). Pure Python with exact arithmetic, no Django: a GPU is anything with
``memory_type``, ``architecture``, ``interconnect``, ``interconnect_gbs``.
"""
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

EFFICIENCY_TOML = Path(__file__).resolve().parent / "data" / "efficiency.toml"

SCALE_UP, PCIE, CONSUMER = "scale_up", "pcie", "consumer"
GPU_CLASSES = (SCALE_UP, PCIE, CONSUMER)
ANY = "*"
FULL_WORK, FROZEN_BASE_WORK = "full", "frozen_base"
WORKS = (FULL_WORK, FROZEN_BASE_WORK)


@dataclass(frozen=True)
class Figure:
    """One measured share with where it comes from."""

    share: Fraction
    basis: str
    source: str
    read_on: str


@dataclass(frozen=True)
class CountRule:
    """A figure that holds up to ``up_to_gpus`` GPUs (0: any count) of a class ("*": any class), for the kind of work
    it was measured on (``work``: "full" training, a "frozen_base" of LoRA or QLoRA, or "*": any)."""

    gpu_class: str
    up_to_gpus: int
    figure: Figure
    practical: bool = True
    work: str = ANY

    def matches(self, gpu_class, gpus, work=ANY):
        return (self.gpu_class in (gpu_class, ANY) and (self.up_to_gpus == 0 or gpus <= self.up_to_gpus)
                and self.work in (work, ANY))


@dataclass(frozen=True)
class EfficiencyModel:
    scale_up_min_link_gbs: Fraction
    pair_bridge_marker: str
    gpus_per_node: int
    training_mfu: tuple  # ((gpu_class, architecture, Figure), …)
    scaling: tuple  # CountRule…, in the file's order: the first that matches applies
    fine_tuning_examples: int
    fine_tuning_tokens_per_example: int
    fine_tuning_epochs: int
    fine_tuning_basis: Figure

    def gpu_class(self, gpu):
        """``scale_up``, ``pcie`` or ``consumer`` (the data file says how)."""
        memory_type = (gpu.memory_type or "").upper()
        if "HBM" not in memory_type and "ECC" not in memory_type:
            return CONSUMER
        link = gpu.interconnect_gbs
        pairs = self.pair_bridge_marker in (getattr(gpu, "interconnect_en", None) or gpu.interconnect or "").lower()
        if link is not None and Fraction(str(link)) >= self.scale_up_min_link_gbs and not pairs:
            return SCALE_UP
        return PCIE

    def training_utilization(self, gpu):
        """The class's (and architecture's) model FLOPs utilization for training."""
        gpu_class = self.gpu_class(gpu)
        for row_class, architecture, figure in self.training_mfu:
            if row_class == gpu_class and architecture in (gpu.architecture, ANY):
                return figure
        raise LookupError(f"no training utilization for {gpu_class}")

    def scaling_rule(self, gpu_class, gpus, work=ANY):
        """The scaling kept by ``gpus`` GPUs of a class (``gpu_class``) doing ``work`` ("full" or "frozen_base"): the
        first rule of the file that matches."""
        return next(rule for rule in self.scaling if rule.matches(gpu_class, gpus, work))

    @property
    def fine_tuning_billion_tokens(self):
        tokens = self.fine_tuning_examples * self.fine_tuning_tokens_per_example * self.fine_tuning_epochs
        return Fraction(tokens, 10**9)

    def figures(self):
        """Every figure with its source, for the page: (what, Figure)."""
        yield from ((("training", c, a), f) for c, a, f in self.training_mfu)
        yield from ((("scaling", r.gpu_class, r.up_to_gpus), r.figure) for r in self.scaling)


def figure(row, key="share"):
    return Figure(Fraction(row[key]), row.get("basis", ""), row.get("source", ""), row.get("read_on", ""))


def count_rules(rows):
    return tuple(CountRule(row["gpu_class"], int(row["up_to_gpus"]), figure(row), bool(row.get("practical", True)),
                           row.get("work", ANY))
                 for row in rows)


def read_efficiency(text):
    """The efficiency model from the data file's text; every share is above 0 and at most 1."""
    data = tomllib.loads(text)
    classes = data["classes"]
    model = EfficiencyModel(
        scale_up_min_link_gbs=Fraction(classes["scale_up_min_link_gbs"]),
        pair_bridge_marker=classes["pair_bridge_marker"],
        gpus_per_node=int(classes["gpus_per_node"]),
        training_mfu=tuple((row["gpu_class"], row["architecture"], figure(row)) for row in data["training_mfu"]),
        scaling=count_rules(data["scaling"]),
        fine_tuning_examples=int(data["fine_tuning_default"]["examples"]),
        fine_tuning_tokens_per_example=int(data["fine_tuning_default"]["tokens_per_example"]),
        fine_tuning_epochs=int(data["fine_tuning_default"]["epochs"]),
        fine_tuning_basis=Figure(Fraction(1), data["fine_tuning_default"]["basis"],
                                 data["fine_tuning_default"]["source"], data["fine_tuning_default"]["read_on"]),
    )
    for _what, item in model.figures():
        if not 0 < item.share <= 1:
            raise ValueError(f"a share is above 0 and at most 1: {item}")
    for gpu_class in GPU_CLASSES:
        for work in WORKS:
            if not any(rule.matches(gpu_class, 10**6, work) for rule in model.scaling):
                raise ValueError(f"no scaling rule for any count of {gpu_class} doing {work}")
    return model


@cache
def efficiency_model(path=EFFICIENCY_TOML):
    return read_efficiency(Path(path).read_text(encoding="utf-8"))

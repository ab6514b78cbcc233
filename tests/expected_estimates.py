"""The estimator's rules as the tests work them out, with Decimal and independently of ``estimator/``: the GPU
class of each catalogue GPU (from gpus.csv), the efficiency figures (read from the data file the estimator reads,
since they are data), training GPU-hours per configuration and decode speeds per GPU."""
import csv
import tomllib
from decimal import Decimal, localcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
with open(ROOT / "catalog" / "data" / "gpus.csv", newline="", encoding="utf-8") as handle:
    CSV_ROWS = {row["name"]: row for row in csv.DictReader(handle)}
EFFICIENCY = tomllib.loads((ROOT / "estimator" / "data" / "efficiency.toml").read_text(encoding="utf-8"))
USABLE = Decimal("0.8")
NODE = 8


def gpu_class(row):
    """Data-centre GPUs whose link to every GPU of the node carries ≥ 400 GB/s; consumer cards (no ECC, no HBM);
    every other card over PCIe."""
    memory = row["memory_type"].upper()
    if "HBM" not in memory and "ECC" not in memory:
        return "consumer"
    link = row["interconnect_gbs"]
    if link not in ("", "n/a") and Decimal(link) >= 400 and "pairs" not in row["interconnect"]:
        return "scale_up"
    return "pcie"


def peak(row, name):
    """The published per-GPU figure, else the one derived from the vendor's system figure; None without."""
    for column in (name, f"{name}_derived"):
        if row.get(column) not in (None, "", "n/a"):
            return Decimal(row[column])
    return None


def first_rule(rows, gpu_class_, gpus):
    return next(rule for rule in rows
                if rule["gpu_class"] in (gpu_class_, "*") and (rule["up_to_gpus"] == 0 or gpus <= rule["up_to_gpus"]))


def training_utilization(row):
    cls = gpu_class(row)
    return Decimal(next(rule["share"] for rule in EFFICIENCY["training_mfu"]
                        if rule["gpu_class"] == cls and rule["architecture"] in (row["architecture"], "*")))


def scaling(row, gpus):
    rule = first_rule(EFFICIENCY["scaling"], gpu_class(row), gpus)
    return Decimal(rule["share"]), rule.get("practical", True)


def training_configurations(row, size, tokens, bytes_per_parameter, factor, cluster, utilization=None, active=None):
    """[(GPU count, GPU-hours, practical)] from the fewest GPUs that hold the model to the cluster."""
    bf16 = peak(row, "bf16_dense_tflops")
    if bf16 is None:
        return None
    flops = factor * (active or size) * 10**9 * tokens * 10**9
    base = utilization if utilization is not None else training_utilization(row)
    counts = [2**n for n in range(cluster.bit_length())]
    memory = Decimal(row["memory_gb"])
    found = []
    for count in counts:
        if size * bytes_per_parameter > count * memory * USABLE:
            continue
        share, practical = scaling(row, count)
        found.append((count, flops / (bf16 * 10**12 * base * share) / 3600, practical))
    return found


def decode_share(row, gpus):
    return Decimal(first_rule(EFFICIENCY["decode"], gpu_class(row), gpus)["share"])


def weight_bits(method):
    return Decimal(next(rule["bits"] for rule in EFFICIENCY["weight_bits"] if rule["method"] == method))


def decode(row, size, method, kv_per_sequence, batch, active=None, gpus=None):
    """(GPU count, tokens/s per sequence, tokens/s of the batch) on the fewest of 1, 2, 4, 8 GPUs that hold the
    weights and the cache (or ``gpus``), or None."""
    weights = size * weight_bits(method) / 8
    if active is not None and active != size:
        with localcontext() as context:
            context.prec = 40
            read = weights * (1 - (1 - active / size) ** batch)
    else:
        read = weights
    memory = Decimal(row["memory_gb"])
    count = gpus or next((n for n in (1, 2, 4, 8) if weights + batch * kv_per_sequence <= n * memory * USABLE), None)
    bandwidth = peak(row, "bandwidth_gbs")
    if count is None or bandwidth is None:
        return None
    per_sequence = count * bandwidth / (read + batch * kv_per_sequence) * decode_share(row, count)
    aggregate = per_sequence * batch
    bf16 = peak(row, "bf16_dense_tflops")
    if bf16 is not None:
        cap = count * bf16 * 10**12 * Decimal(EFFICIENCY["decode_compute"]["share"]) / (2 * (active or size) * 10**9)
        if cap < aggregate:
            aggregate, per_sequence = cap, cap / batch
    return count, per_sequence, aggregate

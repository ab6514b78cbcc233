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


def first_rule(rows, gpu_class_, gpus, work="*"):
    """The first rule of the class (or any) covering ``gpus``, measured on ``work`` (or on any work)."""
    return next(rule for rule in rows
                if rule["gpu_class"] in (gpu_class_, "*") and (rule["up_to_gpus"] == 0 or gpus <= rule["up_to_gpus"])
                and rule.get("work", "*") in (work, "*"))


def training_utilization(row):
    cls = gpu_class(row)
    return Decimal(next(rule["share"] for rule in EFFICIENCY["training_mfu"]
                        if rule["gpu_class"] == cls and rule["architecture"] in (row["architecture"], "*")))


def scaling(row, gpus, work="full"):
    rule = first_rule(EFFICIENCY["scaling"], gpu_class(row), gpus, work)
    return Decimal(rule["share"]), rule.get("practical", True)


BYTES_PER_METHOD = {Decimal(16): "full_adam", Decimal("2.5"): "lora_16bit", Decimal(1): "qlora_4bit"}


def model_layers(size):
    """Layers of a decoder of ``size`` billion parameters: size × 10⁹ = 12 × layers × (128 × layers)², to a
    thousandth of a layer (rounded down)."""
    shape = EFFICIENCY["activations"]
    ratio, per_layer = shape["hidden_per_layer"], shape["parameters_per_layer_hidden_squared"]
    with localcontext() as context:
        context.prec = 50
        cube = Decimal(size) * 10**9 / (per_layer * ratio**2)
        layers = (cube.ln() / 3).exp()
        floor = layers.quantize(Decimal("0.001"), rounding="ROUND_FLOOR")
        # exp/ln may land a hair under a whole thousandth: step up while the next one still cubes below.
        while (floor + Decimal("0.001")) ** 3 <= cube:
            floor += Decimal("0.001")
        return floor


def training_memory_gb(size, method, gpus=1, sequence=None, batch=None, checkpointing=True, optimizer="adam",
                       adapter_share=None):
    """Each GPU's training memory, GB: the model states (weights, gradients, optimizer states by the data's bytes per
    parameter) split over ``gpus``, plus activations (34 bytes per token and hidden unit per layer; with
    checkpointing 2 per layer plus one layer's 34), split over up to 8 GPUs (tensor and sequence parallelism)."""
    memory, adapters, activations = EFFICIENCY["training_memory"], EFFICIENCY["adapters"], EFFICIENCY["activations"]
    sequence = sequence or memory["default_sequence_tokens"]
    batch = batch or memory["default_micro_batch"]
    states = {row["key"]: row for row in EFFICIENCY["training_state_bytes"]}
    chosen = states[optimizer]
    size = Decimal(size)
    if method == "full_adam":
        model_states = size * sum(Decimal(chosen[part]) for part in ("weights", "gradients", "optimizer"))
    else:
        base = next(Decimal(row["bytes"]) for row in EFFICIENCY["frozen_base_bytes"] if row["method"] == method)
        per_adapter = Decimal(adapters["lora_bytes" if method == "lora_16bit" else "qlora_bytes"])
        if optimizer == "adam_8bit":
            per_adapter -= Decimal(states["adam"]["optimizer"]) - Decimal(chosen["optimizer"])
        share = Decimal(adapter_share) if adapter_share is not None else Decimal(adapters["share"])
        model_states = size * base + size * share * per_adapter
    layers = model_layers(size)
    hidden = layers * activations["hidden_per_layer"]
    token_hidden = Decimal(sequence) * batch * hidden
    full = Decimal(activations["bytes_per_token_hidden"]) * token_hidden
    stored = (Decimal(activations["checkpointed_bytes_per_token_hidden"]) * token_hidden * layers + full
              if checkpointing else full * layers)
    return model_states / gpus + stored / 10**9 / min(gpus, activations["tensor_parallel_gpus"])


def memory_status(need, memory_gb):
    headroom = Decimal(EFFICIENCY["training_memory"]["headroom_share"])
    memory = Decimal(memory_gb)
    return "fits" if need <= memory * (1 - headroom) else "no_headroom" if need <= memory else "too_small"


def useful_replicas(sequence=None, batch=None):
    memory = EFFICIENCY["training_memory"]
    tokens = (sequence or memory["default_sequence_tokens"]) * (batch or memory["default_micro_batch"])
    return max(1, EFFICIENCY["training_bounds"]["max_global_batch_tokens"] // tokens)


def step_floor_hours(size, tokens, fewest):
    """Beyond one node: one step per largest global batch, each at least the all-reduce of the gradients each GPU of
    the model's fewest holds (4 bytes per parameter) over its 50 GB/s port."""
    bounds = EFFICIENCY["training_bounds"]
    steps = Decimal(tokens) * 10**9 / bounds["max_global_batch_tokens"]
    seconds = Decimal(bounds["all_reduce_bytes_per_parameter"]) * Decimal(size) / fewest / bounds[
        "inter_node_gbs_per_gpu"]
    return steps * seconds / 3600


def training_configurations(row, size, tokens, method, factor, cluster, utilization=None, active=None, sequence=None,
                            batch=None):
    """[(GPU count, GPU-hours, practical, useful GPUs, wall-clock hours)] from the fewest GPUs that hold the run (with
    the headroom) to the cluster. ``method`` is a method key, or the bytes per parameter the deck names it by."""
    method = BYTES_PER_METHOD.get(Decimal(method), method) if not isinstance(method, str) else method
    bf16 = peak(row, "bf16_dense_tflops")
    if bf16 is None:
        return None
    flops = factor * (active or size) * 10**9 * tokens * 10**9
    base = utilization if utilization is not None else training_utilization(row)
    counts = [2**n for n in range(cluster.bit_length())]
    found = []
    for count in counts:
        if memory_status(training_memory_gb(size, method, count, sequence, batch), row["memory_gb"]) != "fits":
            continue
        share, practical = scaling(row, count, "full" if factor == 6 else "frozen_base")
        fewest = found[0][0] if found else count
        useful = min(count, useful_replicas(sequence, batch) * fewest)
        hours = flops / (bf16 * 10**12 * base * share) / 3600
        wall = hours / useful
        if count > NODE:
            wall = max(wall, step_floor_hours(size, tokens, fewest))
        found.append((count, hours, practical, useful, wall))
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

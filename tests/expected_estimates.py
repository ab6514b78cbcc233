"""The estimator's rules as the tests work them out, with Decimal and independently of ``estimator/``: the GPU
class of each catalogue GPU (from gpus.csv), the efficiency and serving figures (read from the data files the
estimator reads, since they are data), training GPU-hours per configuration and serving speeds per GPU."""
import csv
import math
import tomllib
from decimal import Decimal, localcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
with open(ROOT / "catalog" / "data" / "gpus.csv", newline="", encoding="utf-8") as handle:
    CSV_ROWS = {row["name"]: row for row in csv.DictReader(handle)}
EFFICIENCY = tomllib.loads((ROOT / "estimator" / "data" / "efficiency.toml").read_text(encoding="utf-8"))
SERVING = tomllib.loads((ROOT / "estimator" / "data" / "serving.toml").read_text(encoding="utf-8"))
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


FIT_COUNTS = (1, 2, 4, 8)


def fit_tab_training(memory_gb, size, method):
    """The fit tab's answer for a training method on a GPU of ``memory_gb``, as the training tab counts memory at its
    defaults: (the fewest of 1, 2, 4, 8 GPUs whose need leaves the headroom free, or None; the count just below it,
    or the largest when none does, if the run fills it beyond the headroom but not beyond the card, else None)."""
    statuses = [(count, memory_status(training_memory_gb(size, method, count), memory_gb)) for count in FIT_COUNTS]
    fewest = next((count for count, status in statuses if status == "fits"), None)
    below = [(count, status) for count, status in statuses if fewest is None or count < fewest]
    no_headroom = below[-1][0] if below and below[-1][1] == "no_headroom" else None
    return fewest, no_headroom


def fit_share():
    """The share of each GPU a training configuration may fill on the fit tab: all but the headroom."""
    return 1 - Decimal(EFFICIENCY["training_memory"]["headroom_share"])


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


def serving_bits(key):
    return Decimal(next(item["bits"] for item in SERVING["weights"] if item["key"] == key))


def serving_kv_bytes(key):
    return next(item["bytes"] for item in SERVING["kv_cache"] if item["key"] == key)


def serving_platform(row):
    return next((item for item in SERVING["platform"] if item["vendor"] == row["vendor"]), SERVING["platform"][0])


def kv_token_bytes(layers, kv_heads, head_dim, kv_bytes, gpus):
    return 2 * layers * -(-kv_heads // gpus) * head_dim * kv_bytes


def sequences_that_fit(row, gpus, weights_gb, layers, kv_heads, head_dim, kv_bytes, tokens):
    """Sequences of ``tokens`` tokens (whole blocks) the KV cache of ``gpus`` GPUs holds beside the weights."""
    block = SERVING["memory"]["block_tokens"]
    held = -(-tokens // block) * block
    room = Decimal(row["memory_gb"]) * Decimal(SERVING["memory"]["utilization"]) - weights_gb / gpus
    per_sequence = Decimal(kv_token_bytes(layers, kv_heads, head_dim, kv_bytes, gpus) * held) / 10**9
    return int(room // per_sequence) if room > 0 else 0


def serving(row, size, active, shape, weights_key, kv_key, input_tokens, output_tokens, batch=None, gpus=None):
    """{count, batch, fits, throughput, step, prefill} of a GPU serving a model, or None when eight GPUs cannot
    hold it (or the GPU has no bandwidth): the requested GPUs, or the fewest that hold the batch, or at maximum
    load the count whose output token is cheapest; the longer of the bandwidth and the compute time of a decode
    step plus its fixed time and all-reduces, each request's prefill, and throughput = output ÷ (prefill + output
    × step ÷ batch)."""
    layers, kv_heads, head_dim = shape
    kv_bytes = serving_kv_bytes(kv_key)
    with localcontext() as context:
        context.prec = 50
        weights = size * serving_bits(weights_key) / 8
        tokens = input_tokens + output_tokens
        found = []
        for n in ((gpus,) if gpus else (1, 2, 4, 8)):
            room = sequences_that_fit(row, n, weights, layers, kv_heads, head_dim, kv_bytes, tokens)
            if room >= (1 if gpus else batch or 1):
                found.append((n, room))
        if peak(row, "bandwidth_gbs") is None or not found:
            return None
        if batch or gpus:
            found = found[:1]
        answers = [serving_on(row, count, fits, size, active or size, shape, weights, weights_key, kv_bytes,
                              input_tokens, output_tokens, batch) for count, fits in found]
        price = row.get("price_usd_per_hour")
        priced = price not in (None, "", "n/a")

        def cost(answer):
            all_in = answer["count"] * Decimal(price) / answer["throughput"] if priced else 0
            return all_in, -answer["throughput"] / answer["count"], answer["count"]

        return min(answers, key=cost)


def serving_on(row, count, fits, size, active, shape, weights, weights_key, kv_bytes, input_tokens, output_tokens,
               batch):
    layers, kv_heads, head_dim = shape
    bandwidth = peak(row, "bandwidth_gbs")
    used = min(batch or SERVING["memory"]["max_sequences"], fits)
    compute = next(item for item in SERVING["weights"] if item["key"] == weights_key)["compute"]
    fp8 = row.get("fp8_dense_tflops")
    top = Decimal(fp8) if compute == "fp8" and fp8 not in (None, "", "n/a") else peak(row, "bf16_dense_tflops")
    platform = serving_platform(row)
    bw_share, flop_share = Decimal(platform["bandwidth"]), Decimal(platform["compute"])
    step_data = SERVING["step"]
    link = row["interconnect_gbs"]
    if link in ("", "n/a") or (gpu_class(row) == "pcie" and count > 2):
        one_way = Decimal(step_data["pcie_gbs"]) / 2
    else:
        one_way = Decimal(link) / 2
    hidden = math.isqrt(int(active * 10**9 / (12 * layers)))
    share = 1 if active == size else 1 - (1 - active / size) ** used
    read = weights * share * 10**9 / count + used * (input_tokens + Decimal(output_tokens) / 2) * kv_token_bytes(
        layers, kv_heads, head_dim, kv_bytes, count)
    memory_time = read / (bandwidth * 10**9 * bw_share)
    rate = count * top * 10**12 * flop_share
    compute_time = 2 * active * 10**9 * used / rate
    latency = Decimal(step_data["allreduce_latency_us"]) / 10**6
    link_rate = one_way * 10**9 * Decimal(step_data["link_share"])

    def moved(tokens_):
        ring = Decimal(2 * (count - 1)) / count * tokens_ * hidden * 2
        return 0 if count == 1 else 2 * layers * ring / link_rate

    step = max(memory_time, compute_time) + Decimal(step_data["overhead_ms"]) / 1000 + moved(used) + (
        0 if count == 1 else 2 * layers * latency)
    prefill = 0 if input_tokens == 0 else (
        (2 * active * 10**9 * input_tokens + 2 * layers * hidden * input_tokens**2) / rate + moved(input_tokens))
    throughput = output_tokens / (prefill + output_tokens * step / used)
    return {"count": count, "batch": used, "fits": fits, "throughput": throughput, "step": step, "prefill": prefill}

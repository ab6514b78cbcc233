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

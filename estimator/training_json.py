"""``/data/estimates/training.json``: the training tab's answer as data, from the same computation as the page (the
``TrainingForm`` and ``training.training_estimate``): the inputs as understood, every GPU's configurations, and every
figure applied with its source. The query string is the tab's (``?size=70&method=full_adam&tokens=15000``), read in
the canonical number format (``nf`` as on the page).

Numbers are JSON numbers, exact when their decimal expansion ends, else to 12 significant digits. The document's
shape is ``open_data/schemas/v1/estimates-training.json``; ``estimate_files`` serves it, as the other tabs' files."""

from core.exact_numbers import significant_decimal

from .efficiency import efficiency_model
from .training_memory import memory_figures, training_bounds

SIGNIFICANT_DIGITS = 12


def number(value):
    """An exact figure to ``SIGNIFICANT_DIGITS`` significant digits (the page shows three), or None: every estimate
    file's numbers."""
    return significant_decimal(value, SIGNIFICANT_DIGITS)


def figure_data(what, figure):
    return {"what": what, "value": number(figure.share), "basis": figure.basis, "source": figure.source or None,
            "read_on": figure.read_on}


def sourced_data(what, sourced):
    return {"what": what, "value": number(sourced.value), "basis": sourced.basis, "source": sourced.source or None,
            "excerpt": sourced.excerpt or None}


def sources():
    """Every figure the training answer applies, with what it was measured on and where it comes from."""
    model, memory, bounds = efficiency_model(), memory_figures(), training_bounds()
    rows = [figure_data(f"training_utilization/{gpu_class}/{architecture}", figure)
            for gpu_class, architecture, figure in model.training_mfu]
    rows += [dict(figure_data(f"scaling/{rule.gpu_class}/{rule.work}/up_to_{rule.up_to_gpus}", rule.figure),
                  ranked=rule.practical) for rule in model.scaling]
    for optimizer, parts in memory.state_bytes.items():
        rows += [sourced_data(f"state_bytes/{optimizer}/{part}", sourced)
                 for part, sourced in zip(("weights", "gradients", "optimizer"), parts, strict=True)]
    rows += [sourced_data(f"frozen_base_bytes/{key}", sourced) for key, sourced in memory.frozen_base_bytes.items()]
    rows += [sourced_data("adapter_share", memory.adapter_share)]
    rows += [sourced_data(f"adapter_bytes/{key}", sourced) for key, sourced in memory.adapter_bytes.items()]
    rows += [sourced_data("activation_bytes_per_token_hidden", memory.activation_bytes),
             sourced_data("checkpointed_bytes_per_token_hidden", memory.checkpointed_bytes),
             sourced_data("headroom_share", memory.headroom_share),
             sourced_data("inter_node_gbs_per_gpu", bounds.inter_node),
             sourced_data("all_reduce_bytes_per_parameter", bounds.all_reduce_bytes),
             {"what": "max_global_batch_tokens", "value": bounds.max_global_batch_tokens,
              "basis": bounds.global_batch_basis, "source": bounds.global_batch_source,
              "excerpt": bounds.global_batch_excerpt}]
    return rows


def configuration_data(configuration):
    return {
        "gpu_count": configuration.gpu_count,
        "useful_gpus": configuration.useful_gpus,
        "memory_gb_per_gpu": number(configuration.memory_gb),
        "utilization": number(configuration.utilization),
        "gpu_hours": number(configuration.gpu_hours),
        "wall_clock_hours": number(configuration.wall_clock_hours),
        "cost_usd": number(configuration.cost),
        "practical": configuration.practical,
        "within_bounds": not configuration.bounded,
        "in_time": configuration.in_time,
        "fastest": configuration.fastest,
    }


def row_data(row):
    no_headroom = None if row.no_headroom is None else {"gpu_count": row.no_headroom[0],
                                                        "memory_gb_per_gpu": number(row.no_headroom[1])}
    return {
        "slug": row.gpu.slug,
        "name": row.gpu.name,
        "problem": row.problem,
        "gpu_class": row.gpu_class,
        "bf16_dense_tflops": number(row.peak_tflops),
        "bf16_derived": row.peak_derived,
        "cheapest_in_time": row.cheapest,
        "in_time": row.in_time,
        "best_gpu_count": row.best.gpu_count if row.best else None,
        "no_headroom": no_headroom,
        "configurations": [configuration_data(c) for c in row.configurations],
    }


def estimate_document(form, gpus):
    """The answer of a valid ``TrainingForm`` on ``gpus``, as data."""
    estimate = form.estimate(gpus)
    data = form.cleaned_data
    memory = estimate.memory
    return {
        "inputs": {
            "model_billion_params": number(form.model_billion_params()),
            "active_billion_params": number(estimate.compute_billion_params),
            "method": data["method"].key,
            "billion_tokens": number(estimate.billion_tokens),
            "tokens_default": estimate.tokens_default,
            "utilization": number(estimate.utilization),
            "cluster_size": estimate.cluster_size,
            "within_days": number(estimate.within_hours / 24) if estimate.within_hours is not None else None,
            "sequence_tokens": estimate.sequence_tokens,
            "micro_batch": estimate.micro_batch,
            "checkpointing": estimate.checkpointing,
            "optimizer": estimate.optimizer,
            "not_used": form.ignored_dataset(),
        },
        "training_flops": number(estimate.flops),
        "memory_on_one_gpu": {
            "weights_gb": number(memory.weights_gb), "gradients_gb": number(memory.gradients_gb),
            "optimizer_gb": number(memory.optimizer_gb), "activations_gb": number(memory.activations_gb),
            "total_gb": number(memory.per_gpu_gb),
        },
        "max_useful_replicas": estimate.max_useful_replicas,
        "gpus": [row_data(row) for row in estimate.rows],
        "sources": sources(),
    }

"""The calculator's answers as data, outside the language prefixes: ``/data/estimates/<answer>.json`` takes the
tab's query parameters (numbers written as the page's links write them) and gives the inputs as understood, every
GPU's answer and the sources the estimate rests on. The figures come from the computation the page shows
(``form.estimate``, ``fit.configurations``); this module only writes them out, with the feed's header, cache and
CORS (``open_data.http``). An invalid query is answered 400 with each field's message, in English like the feed.

A tab adds its file with ``estimate_file(form_class, schema_name, write)``: ``write(form, parts)`` returns the
document's body for a valid form."""
from fractions import Fraction

from django.urls import path

from open_data import document
from open_data.http import open_data_file
from open_data.views import json_response

from .fit import FIT_CHECKPOINTING, FIT_OPTIMIZER, configurations, serving_format
from .forms import CalculatorForm, InferenceForm, TrainingForm
from .memory import tokens_held
from .page_parts import calculator_parts
from .published_runs import HELD_OUT
from .serving_data import serving_data
from .texts import published_checks
from .training_json import estimate_document as training_document
from .training_json import number
from .training_memory import memory_figures


def refusal(form_class):
    def refuse(request):
        form = form_class(request.GET, presets=calculator_parts().presets)
        if form.is_valid():
            return None
        return json_response({"error": "invalid_query",
                              "detail": {name: [str(message) for message in messages]
                                         for name, messages in form.errors.items()}}, status=400)
    return refuse


def estimate_file(form_class, schema_name, write):
    """The view of a tab's file: the form read from the query, refused if invalid, else ``write(form, parts)``."""
    @open_data_file(query=tuple(form_class.base_fields), refuse=refusal(form_class))
    def view(request):
        parts = calculator_parts()
        form = form_class(request.GET, presets=parts.presets)
        form.is_valid()
        return json_response({**document.header(schema_name), **write(form, parts)})

    return view


def shape_json(shape):
    preset = getattr(shape, "preset", None)
    return {"layers": shape.layers, "kv_heads": shape.kv_heads, "head_dim": shape.head_dim,
            "preset": preset.slug if preset else None}


def serving_sources():
    data = serving_data()
    rows = [
        {"figure": "memory_utilization", "value": number(data.memory_utilization),
         "basis": data.utilization_basis.text, "source": data.utilization_basis.source},
        {"figure": "max_sequences", "value": data.max_sequences, "basis": data.max_sequences_basis.text,
         "source": data.max_sequences_basis.source},
        {"figure": "block_tokens", "value": data.block_tokens, "basis": data.block_basis.text,
         "source": data.block_basis.source},
    ]
    for platform in data.platforms:
        rows.append({"figure": f"bandwidth_share.{platform.name}", "value": number(platform.bandwidth_share),
                     "basis": platform.basis.text, "source": platform.basis.source})
        rows.append({"figure": f"compute_share.{platform.name}", "value": number(platform.compute_share),
                     "basis": platform.basis.text, "source": platform.basis.source})
    rows.append({"figure": "step_overhead_seconds", "value": number(data.step_overhead_seconds),
                 "basis": data.overhead_basis.text, "source": data.overhead_basis.source})
    rows.append({"figure": "link_share", "value": number(data.link_share), "basis": data.step_basis.text,
                 "source": data.step_basis.source})
    return rows


def published_serving_runs(parts):
    return [{"name": check.run.name, "gpu": check.run.gpu, "gpu_count": check.run.gpu_count,
             "engine": check.run.engine, "set": "held_out" if check.run.set == HELD_OUT else "calibration",
             "published_tokens_per_second": number(check.run.published_tokens_per_second),
             "estimate_tokens_per_second": number(check.estimate), "ratio": number(check.ratio),
             "source": check.run.source.url}
            for check in published_checks(parts.gpus).serving]


def inference_document(form, parts):
    estimate = form.estimate(parts.gpus)
    request = estimate.request
    rows = []
    for row in estimate.rows:
        result = row.result
        rows.append({
            "slug": row.gpu.slug, "name": row.gpu.name, "problem": row.problem, "cheapest": row.cheapest,
            "gpu_count": row.gpu_count,
            "batch": result.batch if result else None,
            "batch_that_fits": row.plan.batch_that_fits if row.plan else None,
            "output_tokens_per_second": number(result.output_tokens_per_second) if result else None,
            "output_tokens_per_second_per_gpu": number(row.tokens_per_second_per_gpu) if result else None,
            "time_to_first_token_seconds": number(result.time_to_first_token) if result else None,
            "time_per_output_token_seconds": number(result.time_per_output_token) if result else None,
            "memory_bound": result.memory_bound if result else None,
            "usd_per_hour": number(row.hourly_cost),
            "usd_per_million_output_tokens": number(row.usd_per_million_output),
            "usd_per_million_input_tokens": number(row.usd_per_million_input),
            "usd_per_million_output_tokens_all_in": number(row.usd_per_million_all_in),
        })
    return {
        "answer": "inference",
        "inputs": {
            "billion_params": number(request.total_billion_params),
            "active_billion_params": number(request.active_billion_params),
            "shape": shape_json(request.shape),
            "weights": {"format": estimate.weight_format.key, "bits": number(estimate.weight_format.bits)},
            "kv_cache": {"format": estimate.kv_format.key, "bytes": estimate.kv_format.bytes},
            "input_tokens": request.input_tokens, "output_tokens": request.output_tokens,
            "batch": request.batch, "gpus": request.gpus,
        },
        "gpus": rows,
        "sources": serving_sources(),
        "published_runs": published_serving_runs(parts),
    }


def fit_document(form, parts):
    requirement = form.requirement()
    inputs = {"billion_params": number(requirement.model_billion_params), "method": requirement.method.key}
    if requirement.is_inference:
        weight_format = serving_format(requirement.method)
        inputs.update({"weights": {"format": weight_format.key, "bits": number(weight_format.bits)},
                       "shape": shape_json(requirement.shape), "context_tokens": requirement.context_tokens,
                       "tokens_held": tokens_held(requirement.context_tokens), "batch": requirement.batch_size})
    else:
        inputs.update({"sequence_tokens": requirement.sequence_tokens, "micro_batch": requirement.micro_batch,
                       "checkpointing": FIT_CHECKPOINTING, "optimizer": FIT_OPTIMIZER})
    memory_gb = {"model": number(requirement.model_gb), "kv_cache": number(requirement.kv_cache_gb),
                 "total": number(requirement.total_gb)}
    if not requirement.is_inference:
        memory_gb["activations"] = number(requirement.activations_gb)
    return {
        "answer": "fits",
        "inputs": inputs,
        "memory_gb": memory_gb,
        "gpus": [{"slug": c.gpu.slug, "name": c.gpu.name, "gpu_count": c.gpu_count, "fits": c.fits,
                  "usable_gb": number(c.usable_gb), "usable_share": number(Fraction(c.usable_share)),
                  "usd_per_hour": number(c.hourly_cost), "no_headroom": no_headroom_data(c)}
                 for c in configurations(parts.gpus, requirement)],
        "sources": serving_sources() if requirement.is_inference else training_sources(),
    }


def no_headroom_data(configuration):
    if configuration.no_headroom is None:
        return None
    count, need = configuration.no_headroom
    return {"gpu_count": count, "memory_gb_per_gpu": number(need)}


def training_sources():
    """The training memory figures the fit tab counts with, as the training file gives them."""
    figures = memory_figures()
    headroom = figures.headroom_share
    return [
        {"figure": "headroom_share", "value": number(headroom.value), "basis": headroom.basis,
         "source": headroom.source},
        {"figure": "default_sequence_tokens", "value": figures.default_sequence_tokens,
         "basis": figures.defaults_basis, "source": ""},
        {"figure": "default_micro_batch", "value": figures.default_micro_batch, "basis": figures.defaults_basis,
         "source": ""},
    ]


fit_json = estimate_file(CalculatorForm, "estimates-fit", fit_document)
inference_json = estimate_file(InferenceForm, "estimates-inference", inference_document)
training_json = estimate_file(TrainingForm, "estimates-training",
                              lambda form, parts: training_document(form, parts.gpus))

# Included at /data/ by the project's URLs, outside the language prefixes.
app_name = "estimates"
urlpatterns = [
    path("estimates/fit.json", fit_json, name="fit"),
    path("estimates/inference.json", inference_json, name="inference"),
    path("estimates/training.json", training_json, name="training"),
]

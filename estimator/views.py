"""The calculator page: one tab per question (does it fit, how long and how much to train, what a million
tokens cost), each a GET form whose answer is on the same page."""
from django.shortcuts import render
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from catalog import sizing
from catalog.models import GPU, ModelPreset
from catalog.sizing_methods import SIZING_METHODS, calculator_label, calculator_name
from catalog.views import query_paths
from core.formatting import format_share
from core.page_cache import cached_page, canonical_page
from core.pages import page_context

from .fit import configurations
from .forms import ANSWERS, FITS, INFERENCE, TRAINING, CalculatorForm, InferenceForm, TrainingForm, answer_of
from .texts import (
    assumption_figures,
    inference_context,
    published_run_rows,
    recommended_configuration,
    training_context,
)

# The calculator's answers: each one's form, and its page's title and description.
CALCULATOR_FORMS = {FITS: CalculatorForm, TRAINING: TrainingForm, INFERENCE: InferenceForm}
CALCULATOR_QUERY = {"answer"}.union(*(form.base_fields for form in CALCULATOR_FORMS.values()))


def calculator_texts(answer):
    if answer == TRAINING:
        return (_("Training time and cost on every GPU"),
                _("Enter a model, its training tokens and a method, from full training to QLoRA, and see for every "
                  "GPU the GPU-hours, the wall-clock time on one GPU count or many, and the cost."))
    if answer == INFERENCE:
        return (_("Inference cost per million tokens on every GPU"),
                _("Enter a model, its precision, the context length and the batch size, and see for every GPU the "
                  "decode speed ceiling and the cost per million generated tokens."))
    return (_("GPU sizing calculator: how many GPUs does your model need?"),
            _("Enter a model size and a method, from full training to 4-bit inference, and see for every GPU whether "
              "it fits, on how many GPUs, and what they cost per hour."))


def calculator_result(answer, form, context):
    """The answer to a valid form: the estimator's for training and inference, the sizing answer otherwise."""
    gpus = context["gpus"]
    if answer == TRAINING:
        return training_context(form, gpus)
    if answer == INFERENCE:
        return inference_context(form, gpus)
    requirement = form.requirement()
    ranked = configurations(gpus, requirement.total_gb)
    return {
        "requirement": requirement,
        "method_name": calculator_name(requirement.method),
        "configurations": ranked,
        "recommended": recommended_configuration(ranked),
        "bytes_per_parameter": requirement.method.bytes_per_parameter,
        "largest_gpu_count": context["largest_gpu_count"],
        "kv_bytes": context["kv_bytes"],
    }


@cached_page(query=CALCULATOR_QUERY)
def calculator(request):
    presets = list(ModelPreset.objects.all())
    gpus = list(GPU.objects.all())
    answer = answer_of(request.GET)
    form_class = CALCULATOR_FORMS[answer]
    submitted = any(name in request.GET for name in form_class.base_fields)
    form = form_class(request.GET if submitted else None, presets=presets)
    query = ([] if answer == FITS else [("answer", answer)]) + (form.query_pairs() if submitted else [])
    title, description = calculator_texts(answer)
    context = page_context(request, query_paths("estimator:calculator", query), title=title, description=description)
    context.update({
        "form": form,
        "answer": answer,
        "answers": ANSWERS,
        "usable_share": format_share(sizing.USABLE_MEMORY_SHARE),
        "gpu_counts_text": get_text_list([str(count) for count in sizing.CALCULATOR_GPU_COUNTS], _("or")),
        "largest_gpu_count": max(sizing.CALCULATOR_GPU_COUNTS),
        "methods": [calculator_label(method) for method in SIZING_METHODS],
        "kv_bytes": sizing.KV_CACHE_BYTES_PER_VALUE,
        "figures": assumption_figures(),
        "gpus": gpus,
    })
    if answer in (TRAINING, INFERENCE):
        context["published_runs"] = published_run_rows(gpus)
    if form.is_valid():
        context["result"] = calculator_result(answer, form, context)
    # Cached: each tab with no input (``?answer=…`` alone, or nothing); any input is rendered uncached.
    return canonical_page(render(request, "estimator/calculator.html", context), None if submitted else query)

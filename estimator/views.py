"""The calculator page: one tab per question (does it fit, how long and how much to train, what a million
tokens cost), each a GET form whose answer is on the same page."""
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from caching.pages import cached_page, canonical_page
from catalog import sizing
from catalog.sizing_methods import SIZING_METHODS, calculator_name
from catalog.views import query_paths
from core.formatting import format_number, format_share
from core.pages import page_context

from .fit import configurations, serving_format
from .forms import (
    FITS,
    INFERENCE,
    TRAINING,
    CalculatorForm,
    InferenceForm,
    TrainingForm,
    answer_of,
    method_choice_label,
)
from .memory import tokens_held
from .page_parts import calculator_parts
from .serving_data import serving_data
from .texts import (
    TRAINING_MEMORY_ANCHOR,
    assumption_figures,
    fit_training_context,
    inference_context,
    no_headroom_text,
    published_run_rows,
    recommended_configuration,
    training_context,
)
from .training_memory import memory_figures

# The calculator's answers: each one's form, its template, and its page's title and description.
CALCULATOR_FORMS = {FITS: CalculatorForm, TRAINING: TrainingForm, INFERENCE: InferenceForm}
FORM_TEMPLATES = {FITS: "includes/estimator/calculator_form.html",
                  TRAINING: "includes/estimator/calculator_training_form.html",
                  INFERENCE: "includes/estimator/calculator_inference_form.html"}
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


def with_actions(recommended, parts, language):
    """The recommendation with its actions (the signup with its GPUs, the price alert): they show the GPU and its
    count alone, rendered once per content version and language (``page_parts``)."""
    if recommended is not None:
        gpu, count = recommended["gpu"], recommended["count"]
        recommended["actions"] = parts.rendered(("recommended actions", gpu.slug, count), language,
                                                "includes/estimator/recommended_actions.html",
                                                lambda: {"gpu": gpu, "count": count})
    return recommended


def calculator_result(answer, form, parts, language):
    """The answer to a valid form: the estimator's for training and inference, the sizing answer otherwise."""
    result = answer_result(answer, form, parts, language)
    result["recommended"] = with_actions(result["recommended"], parts, language)
    return result


def answer_result(answer, form, parts, language):
    gpus = parts.gpus
    paths = parts.gpu_paths(language)
    if answer == TRAINING:
        return training_context(form, gpus, paths)
    if answer == INFERENCE:
        return inference_context(form, gpus, paths)
    requirement = form.requirement()
    ranked = configurations(gpus, requirement)
    largest = max(sizing.CALCULATOR_GPU_COUNTS)
    return {
        "requirement": requirement,
        "method_name": calculator_name(requirement.method),
        # A GPU's row shows the GPU and its fewest GPUs alone: rendered once per GPU count (``page_parts``).
        "rows": [parts.rendered(("configuration row", c.gpu.slug, c.gpu_count, c.usable_share, c.no_headroom),
                                language, "includes/estimator/calculator_result_row.html",
                                lambda c=c: {"configuration": c, "count": largest, "path": paths[c.gpu.slug],
                                             "no_headroom": no_headroom_text(c)})
                 for c in ranked],
        "recommended": recommended_configuration(ranked),
        "bytes_per_parameter": serving_format(requirement.method).bits / 8 if requirement.is_inference else None,
        "kv_bytes": sizing.KV_CACHE_BYTES_PER_VALUE,
        "tokens_held": tokens_held(requirement.context_tokens) if requirement.is_inference else None,
        "training": None if requirement.is_inference else fit_training_context(form, requirement),
    }


def gpu_counts_text():
    return get_text_list([str(count) for count in sizing.CALCULATOR_GPU_COUNTS], _("or"))


def assumptions_context():
    data, figures = serving_data(), memory_figures()
    return {"methods": [method_choice_label(method) for method in SIZING_METHODS],
            "usable_share": format_share(sizing.USABLE_MEMORY_SHARE), "gpu_counts_text": gpu_counts_text(),
            "kv_bytes": sizing.KV_CACHE_BYTES_PER_VALUE,
            "serving_share": format_share(data.memory_utilization), "block_tokens": data.block_tokens,
            "serving_source": data.utilization_basis.source,
            "sequence": format_number(figures.default_sequence_tokens),
            "micro_batch": format_number(figures.default_micro_batch),
            "headroom": format_share(figures.headroom_share.value),
            "training_url": f"{reverse('estimator:calculator')}?answer=training#{TRAINING_MEMORY_ANCHOR}"}


def content_parts(answer, gpus):
    """The parts of a tab that show the content alone, each (its name in the page's context, its template, its
    context), rendered once per content version and language (``page_parts``)."""
    tabs = ("tabs", "includes/estimator/calculator_tabs.html", lambda: {"answer": answer})
    if answer == FITS:
        return [tabs, ("assumptions", "includes/estimator/calculator_assumptions.html", assumptions_context)]
    kind = "training" if answer == TRAINING else "decode"
    return [
        tabs,
        ("assumptions", f"includes/estimator/calculator_{answer}_assumptions.html",
         lambda: {"figures": assumption_figures()}),
        ("published_runs", "includes/estimator/published_runs.html",
         lambda: {"runs": published_run_rows(gpus), "kind": kind}),
    ]


@cached_page(query=CALCULATOR_QUERY)
def calculator(request):
    parts = calculator_parts()
    answer = answer_of(request.GET)
    form_class = CALCULATOR_FORMS[answer]
    submitted = any(name in request.GET for name in form_class.base_fields)
    title, description = calculator_texts(answer)
    language = get_language()
    form_template = FORM_TEMPLATES[answer]
    query = [] if answer == FITS else [("answer", answer)]
    context = {"answer": answer, "gpu_counts_text": gpu_counts_text()}
    if submitted:  # the form shows the visitor's values and errors, and the answer: rendered on every request
        form = form_class(request.GET, presets=parts.presets)
        query += form.query_pairs()
        context["form_markup"] = render_to_string(form_template, {"form": form})
        if form.is_valid():
            context["result"] = calculator_result(answer, form, parts, language)
    else:  # the empty form shows the content alone (its presets): rendered once per content version and language
        context["form_markup"] = parts.rendered(("empty form", answer), language, form_template,
                                                lambda: {"form": form_class(None, presets=parts.presets)})
    for name, template_name, make_context in content_parts(answer, parts.gpus):
        context[name] = parts.rendered((name, answer), language, template_name, make_context)
    context.update(page_context(request, query_paths("estimator:calculator", query), title=title,
                                description=description))
    # Cached: each tab with no input (``?answer=…`` alone, or nothing); any input is rendered uncached.
    return canonical_page(render(request, "estimator/calculator.html", context), None if submitted else query)

from modeltranslation.translator import TranslationOptions, register

from .models import CallToAction, Workload, WorkloadColumn, WorkloadFAQ, WorkloadSection


@register(Workload)
class WorkloadTranslationOptions(TranslationOptions):
    fields = (
        "slug", "title", "summary", "intro", "table_heading", "swipe_hint", "note",
        "matters_heading", "compare_label", "faq_heading",
    )


@register(WorkloadColumn)
class WorkloadColumnTranslationOptions(TranslationOptions):
    fields = ("label",)


@register(WorkloadSection)
class WorkloadSectionTranslationOptions(TranslationOptions):
    fields = ("heading", "body")


@register(WorkloadFAQ)
class WorkloadFAQTranslationOptions(TranslationOptions):
    fields = ("question", "answer")


@register(CallToAction)
class CallToActionTranslationOptions(TranslationOptions):
    fields = ("heading", "body", "button_label")

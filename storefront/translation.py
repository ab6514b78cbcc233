from modeltranslation.translator import TranslationOptions, register

from .models import LandingFact, LandingFAQ, LandingPage, ProviderStep, RenterStep

LANDING_TEXT_FIELDS = (
    "title", "description", "heading", "lead", "signup_label", "catalogue_label", "prices_heading", "prices_note",
    "workloads_heading", "renters_heading", "providers_heading", "facts_heading", "faq_heading",
)


@register(LandingPage)
class LandingPageTranslationOptions(TranslationOptions):
    fields = LANDING_TEXT_FIELDS


@register(RenterStep)
class RenterStepTranslationOptions(TranslationOptions):
    fields = ("heading", "body")


@register(ProviderStep)
class ProviderStepTranslationOptions(TranslationOptions):
    fields = ("heading", "body")


@register(LandingFact)
class LandingFactTranslationOptions(TranslationOptions):
    fields = ("heading", "body")


@register(LandingFAQ)
class LandingFAQTranslationOptions(TranslationOptions):
    fields = ("question", "answer")

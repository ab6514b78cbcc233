from modeltranslation.translator import TranslationOptions, register

from .models import ProviderPageText


@register(ProviderPageText)
class ProviderPageTextTranslationOptions(TranslationOptions):
    fields = ("heading", "body")

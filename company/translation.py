from modeltranslation.translator import TranslationOptions, register

from .models import LegalPage


@register(LegalPage)
class LegalPageTranslationOptions(TranslationOptions):
    fields = ("title", "body")

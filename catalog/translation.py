from modeltranslation.translator import TranslationOptions, register

from .models import GPU


@register(GPU)
class GPUTranslationOptions(TranslationOptions):
    # Descriptions in words; names, numbers and memory types are the same in every language.
    fields = ("form_factor", "interconnect", "derived_source")

"""The admin inline for a page's text blocks (``core.content_blocks``): one stacked form per block, in
their order (its fields as declared: the order, the title, the text), with a tab per language."""
from modeltranslation.admin import TranslationStackedInline
from modeltranslation.fields import TranslationField


def declared_fields(block_model):
    """The block's own fields, in the order declared (not its page, nor the per-language copies of a text)."""
    return [field.name for field in block_model._meta.concrete_fields
            if field.editable and not field.primary_key and not field.is_relation
            and not isinstance(field, TranslationField)]


def block_inline(block_model):
    # Declared, not left to Django: without ``fields`` an inline builds its formset twice per request, once to
    # learn the fields (``InlineModelAdmin.get_fields``).
    return type(f"{block_model.__name__}Inline", (TranslationStackedInline,), {
        "model": block_model, "extra": 0, "fields": declared_fields(block_model),
    })

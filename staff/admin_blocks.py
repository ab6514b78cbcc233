"""The admin inline for a page's text blocks (``core.content_blocks``): one stacked form per block, in
their order (its fields as declared: the order, the title, the text), with a tab per language."""
from modeltranslation.admin import TranslationStackedInline


def block_inline(block_model):
    return type(f"{block_model.__name__}Inline", (TranslationStackedInline,), {
        "model": block_model, "extra": 0,
    })

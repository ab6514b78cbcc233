"""A note that applies to several rows of a table is written once, under it, and each of those rows carries its
number (``{% table_notes rows "warning" "late" as notes %}``, then ``{% row_notes notes row "warning" "late" as
numbers %}``): a phone shows the sentence once, whole, instead of a
clipped copy under every row."""
from django import template

register = template.Library()


def row_texts(row, attributes):
    return [text for attribute in attributes
            if (text := row.get(attribute) if isinstance(row, dict) else getattr(row, attribute, None))]


@register.simple_tag
def table_notes(rows, *attributes):
    """The distinct non-empty values of the ``attributes`` of ``rows``, in order of first use, as {"number",
    "text"}."""
    notes = {}
    for row in rows:
        for text in row_texts(row, attributes):
            notes.setdefault(text, len(notes) + 1)
    return [{"number": number, "text": text} for text, number in notes.items()]


@register.simple_tag
def row_notes(notes, row, *attributes):
    """The numbers of the notes the row's ``attributes`` name, in ``notes``' order."""
    texts = set(row_texts(row, attributes))
    return [note["number"] for note in notes if note["text"] in texts]

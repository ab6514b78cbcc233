"""A note that applies to several rows of a table is written once, under it, and each of those rows carries its
number (``{% table_notes rows "warning" as notes %}``, then ``{{ notes|note_number:row.warning }}``): a phone
shows the sentence once, whole, instead of a clipped copy under every row."""
from django import template

register = template.Library()


@register.simple_tag
def table_notes(rows, attribute):
    """The distinct non-empty ``attribute`` values of ``rows``, in order of first use, as {"number", "text"}."""
    notes = {}
    for row in rows:
        text = getattr(row, attribute, None) if not isinstance(row, dict) else row.get(attribute)
        if text and text not in notes:
            notes[text] = len(notes) + 1
    return [{"number": number, "text": text} for text, number in notes.items()]


@register.filter
def note_number(notes, text):
    """The number of the note ``text`` in ``notes``, or "" for none."""
    return next((note["number"] for note in notes if text and note["text"] == text), "")

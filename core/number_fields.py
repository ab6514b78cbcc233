"""Form fields for numbers typed in the page's language (``number_input.reading`` reads them).

A GET form with a ``LocalizedNumberField`` also declares ``nf = NumberFormatField()`` and renders ``{{ form.nf }}``:
a hidden input naming the language the form is shown in. The submitted text is read in that format, so "1.500"
typed on a German page is fifteen hundred even when the address is opened in English. Links the site writes itself
carry each number's canonical text (``LocalizedNumberField.canonical``) and no ``nf``; being a form field, ``nf``
is also part of the page cache's key (``cached_page(query=Form.base_fields)``), as it changes what a page shows.
"""
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from number_input.reading import (
    NumberInputError,
    billion_word,
    canonical_number,
    number_language,
    parse_submitted_number,
    plain,
)

from .formatting import active_language, babel_locale, format_number

NUMBER_FORMAT_PARAMETER = "nf"
# Longer submitted text is cut in messages (the page repeats what was typed, not a whole pasted paragraph).
QUOTED_LENGTH = 40
# Shown as the way to write a number: both of the language's symbols (12.345,5 or 12,345.5).
EXAMPLE_NUMBER = Decimal("12345.5")


class SubmittedText(str):
    """Text as a form submitted it, with the number format it was typed in (the form's ``nf``, or None)."""

    def __new__(cls, text, number_format):
        submitted = super().__new__(cls, text)
        submitted.number_format = number_format
        return submitted


class LocalizedNumberInput(forms.TextInput):
    """A text input whose submitted value carries the form's number format (``nf``) along."""

    def value_from_datadict(self, data, files, name):
        text = super().value_from_datadict(data, files, name)
        return SubmittedText(text, data.get(NUMBER_FORMAT_PARAMETER)) if isinstance(text, str) else text


class LocalizedNumberField(forms.Field):
    """A number in the format of the language the form was shown in: "15.000" or "1,5" in German, "15,000" or "1.5"
    in English; the cleaned value is a Decimal (None when empty). Anything malformed or ambiguous is refused with a
    message that repeats what was understood.

    ``unit_suffixes``: the field counts billions, and "70B", "1,5T", "10 Mrd.", "10 mil M" are understood.
    ``integer``: a fractional number is refused."""

    widget = LocalizedNumberInput
    default_error_messages = {
        "invalid": gettext_lazy("“%(value)s” is not a number; write one such as %(example)s."),
        "too_long": gettext_lazy("“%(value)s” has too many digits."),
        "grouping": gettext_lazy(
            "“%(value)s” is not a number as written in %(language)s: group thousands in threes, as in %(example)s."),
        "decimal_or_thousands": gettext_lazy(
            "“%(value)s” is not a number as written in %(language)s: did you mean %(decimal)s or %(thousands)s?"),
        "other_format": gettext_lazy(
            "“%(value)s” is not a number as written in %(language)s: did you mean %(decimal)s?"),
        "unexpected_text": gettext_lazy("“%(value)s”: the number %(number)s is understood, but not “%(rest)s”."),
        "unknown_suffix": gettext_lazy(
            "“%(value)s”: the number %(number)s is understood, but not “%(rest)s”; write a size such as %(word)s or "
            "%(short)s."),
        "fraction": gettext_lazy("“%(value)s” is %(number)s: enter a whole number."),
    }

    def __init__(self, *, unit_suffixes=False, integer=False, **kwargs):
        self.unit_suffixes, self.integer = unit_suffixes, integer
        widget = kwargs.get("widget", self.widget)
        if not (isinstance(widget, LocalizedNumberInput)
                or (isinstance(widget, type) and issubclass(widget, LocalizedNumberInput))):
            raise TypeError("LocalizedNumberField reads the form's number format through a LocalizedNumberInput")
        super().__init__(**kwargs)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        # A phone's decimal keypad has no letters: a field that takes "70B" gets the full keyboard.
        attrs.setdefault("inputmode", "text" if self.unit_suffixes else "decimal")
        attrs.setdefault("autocomplete", "off")
        return attrs

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal | int) and not isinstance(value, bool):
            return plain(Decimal(value))
        text = str(value)
        try:
            return parse_submitted_number(text, active_language(), getattr(value, "number_format", None),
                                          unit_suffixes=self.unit_suffixes, integer=self.integer)
        except NumberInputError as error:
            raise ValidationError(self.error_messages[error.code], code=error.code,
                                  params=message_params(text, error)) from None

    def prepare_value(self, value):
        """A number in the page's format; text that is no number, as the visitor typed it."""
        if isinstance(value, str):
            try:
                number = self.to_python(value)
            except ValidationError:
                return value
            return value if number is None else display_number(number)
        if isinstance(value, Decimal | int) and not isinstance(value, bool):
            return display_number(value)
        return value

    def canonical(self, value):
        """The value's text in a link: the same in every language ("15000", "1.5"); "" for no value."""
        return "" if value is None else canonical_number(value)


class NumberFormatInput(forms.HiddenInput):
    """Always the language of the page being shown: what the visitor types next is in its format, whatever the
    address said."""

    def format_value(self, value):
        return active_language()


class NumberFormatField(forms.Field):
    """The hidden ``nf`` of a form with number fields: the language whose number format the visitor typed in.
    Never invalid (an unknown value is no format, and numbers are then read as the address's)."""

    widget = NumberFormatInput

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        return number_language(value) or ""


def display_number(value):
    """A number in the page's format, every decimal kept (``format_number`` shows three unless told)."""
    value = plain(Decimal(value))
    places = -value.as_tuple().exponent
    return format_number(value, places if places > 3 else None)


def quoted(text):
    text = text.strip()
    return text if len(text) <= QUOTED_LENGTH else text[:QUOTED_LENGTH - 1] + "…"


def message_params(text, error):
    """What every message may repeat: the text, what was read of it, what it may have meant, in the page's format."""
    params = {"value": quoted(text), "example": format_number(EXAMPLE_NUMBER), "rest": quoted(error.rest),
              "number": "", "language": "", "decimal": "", "thousands": ""}
    if error.understood is not None:
        params["number"] = display_number(error.understood)
    if error.language:
        params["language"] = babel_locale().languages[error.language]
        params["short"] = f"{format_number(70)}B"
        params["word"] = f"{format_number(70)} {billion_word(error.language)}"
    readings = [format_number(reading, max(0, -reading.as_tuple().exponent)) for reading in error.readings]
    params.update(zip(("decimal", "thousands"), readings, strict=False))
    return params

"""Texts that can reach a mail's header (a GPU's name is in the subject of its alert mails): no control
characters. A line break in a header is how a mail is made to carry other headers (header injection), and
Django's mail refuses it (``BadHeaderError``) as the mail is sent; refusing it where the text is typed tells
the editor which field, in their language, instead of a mail that never goes."""
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

CONTROL_CHARACTER_MESSAGE = _(
    "Remove the line breaks, tabs and other control characters: this text goes into email subjects."
)
# Control characters (line breaks, tabs, NUL, DEL, C1), and Unicode's line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def has_control_characters(text):
    return any(unicodedata.category(character) in REFUSED_CATEGORIES for character in text or "")


def validate_header_text(text):
    """ValidationError if ``text`` holds a character that may not be in a mail header."""
    if has_control_characters(text):
        raise ValidationError(CONTROL_CHARACTER_MESSAGE, code="control_characters")

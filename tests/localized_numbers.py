"""Reading numbers back from page text, with each language's separators (tests check values, not format)."""
import re
from decimal import Decimal

# (thousands, decimal) separator of each site language.
SEPARATORS = {"es": (".", ","), "pt": (".", ","), "de": (".", ","), "en": (",", ".")}


def numbers_in(text, language):
    """The numbers a text shows, as Decimals, read with the language's separators."""
    thousands, decimal = SEPARATORS[language]
    return [Decimal(token.rstrip(".,").replace(thousands, "").replace(decimal, "."))
            for token in re.findall(r"\d[\d.,]*", text)]

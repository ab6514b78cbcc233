"""A price in US dollars as a visitor types it, and the currency sign around the field, in the visitor's
language (CLDR through Babel, as ``core.formatting`` writes prices).

Only the language's own decimal separator is accepted (8,50 in es, pt and de; 8.50 in en), with at most
two decimals and no thousands separators: "8.500" means 8500 to a German reader and 8.5 to an English one,
so an amount that holds the other language's separator is refused as ambiguous rather than guessed."""
import re
from decimal import Decimal

from babel.numbers import get_currency_symbol, get_decimal_symbol

from core.formatting import babel_locale

CURRENCY = "USD"
# What the link of a calculator row or a script writes (?target=12.50): digits, a point, two decimals.
MACHINE_AMOUNT = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,2})?")
# A currency sign a visitor may type around the amount; it is the only currency the market quotes.
TYPED_CURRENCY = re.compile(r"^(?:US\$|USD|\$)|(?:US\$|USD|\$)$", re.IGNORECASE)


class AmountError(ValueError):
    """Why a typed amount is not one: "malformed", "ambiguous" or "decimals"."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def decimal_separator(language=None):
    return get_decimal_symbol(babel_locale(language))


def currency_affixes(language=None):
    """The currency sign before and after an amount in ``language``: ("", "US$") in es, ("US$", "") in pt,
    ("", "$") in de, ("$", "") in en, from the locale's currency pattern."""
    locale = babel_locale(language)
    pattern = locale.currency_formats["standard"].pattern.split(";")[0]
    symbol = get_currency_symbol(CURRENCY, locale)
    before = pattern.partition("¤")[0]
    return (symbol, "") if not before.strip("\u00a0 ") else ("", symbol)


def parse_amount(text, language=None):
    """The Decimal a visitor typed in ``language``'s format; AmountError(code) when it is not one."""
    text = TYPED_CURRENCY.sub("", text.strip().replace("\u00a0", " ")).strip()
    separator = decimal_separator(language)
    other = "." if separator == "," else ","
    if other in text:
        raise AmountError("ambiguous")
    match = re.fullmatch(r"([0-9]{1,9})(?:" + re.escape(separator) + r"([0-9]+))?", text)
    if match is None:
        raise AmountError("malformed")
    whole, cents = match.groups()
    if cents is not None and len(cents) > 2:
        raise AmountError("decimals")
    return Decimal(f"{whole}.{cents or 0}")


def parse_machine_amount(text):
    """An amount written as links write it (12.50), or None."""
    return Decimal(text) if text and MACHINE_AMOUNT.fullmatch(text) else None


def amount_text(amount, language=None):
    """An amount as the field shows it in ``language``: "12,50" (es, pt, de), "12.50" (en), without thousands
    separators, so that the text parses back."""
    whole, _point, cents = f"{Decimal(amount):.2f}".partition(".")
    return f"{whole}{decimal_separator(language)}{cents}"

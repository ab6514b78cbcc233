"""Numbers, prices and model sizes in the active language's format, as the content deck writes them.

Babel (CLDR) gives the digits and the currency patterns; the wrapping words ("desde", "≈ … mil M",
"No publicado") are interface strings translated in ``locale/``. Every function formats for the
language that is active (``django.utils.translation``), so a page renders in one language throughout.
"""
from decimal import Decimal
from fractions import Fraction
from functools import cache

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.numbers import format_currency, format_percent, parse_pattern
from django.utils import timezone
from django.utils.translation import get_language, gettext

# The regional locale of each site language: Babel formats in it and pages name it (Open Graph's og:locale).
# Portuguese follows the deck: "US$ 8,99" is the pt-BR pattern.
REGIONAL_LOCALES = {"es": "es_ES", "pt": "pt_BR", "de": "de_DE", "en": "en_US"}

# CLDR's minimumGroupingDigits, which neither Babel nor Django applies: with 2, a number groups its
# thousands only from five digits on (Spanish writes 6000 but 16.000).
MINIMUM_GROUPING_DIGITS = {"es": 2}


def babel_locale(language=None):
    language = (language or get_language() or "en").split("-")[0]
    return parsed_locale(REGIONAL_LOCALES.get(language, REGIONAL_LOCALES["en"]))


@cache
def parsed_locale(name):
    """Babel parses a locale name on every call it is given one; a parsed Locale is reused."""
    return Locale.parse(name)


@cache
def number_pattern(pattern):
    """A parsed CLDR number pattern: Babel's format functions parse theirs on every call."""
    return parse_pattern(pattern)


def format_number(value, places=None):
    """A number in the active language's digits, at most three decimals (or exactly ``places``):
    6000 (es), 6.000 (pt, de), 6,000 (en)."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    value = Decimal(value)
    language = (get_language() or "en").split("-")[0]
    locale = babel_locale(language)
    grouped = abs(value) >= 10 ** (3 + MINIMUM_GROUPING_DIGITS.get(language, 1) - 1)
    if places is not None:
        return number_pattern(("#,##0." if grouped else "0.") + "0" * places).apply(value, locale)
    if not grouped:
        return number_pattern("0.###").apply(value, locale)
    return locale.decimal_formats[None].apply(value, locale)


def format_quantity(value, unit):
    """A number with its unit: "288 GB", "1.307 TFLOPS"."""
    return f"{format_number(value)} {unit}"


def as_decimal(value):
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(value)


def format_usd(amount, places=2):
    """An amount in US dollars, rounded to ``places`` decimals: "2,88 US$", "US$ 2,88", "2,88 $", "$2.88"."""
    amount = as_decimal(amount)
    language = (get_language() or "en").split("-")[0]
    locale = babel_locale(language)
    # The locale's currency pattern with ``places`` decimals: "#,##0.00 ¤" becomes "#,##0.0000 ¤".
    pattern = locale.currency_formats["standard"].pattern.replace(".00", "." + "0" * places)
    grouped = abs(amount) >= 10 ** (3 + MINIMUM_GROUPING_DIGITS.get(language, 1) - 1)
    return number_pattern(pattern).apply(amount, locale, currency="USD", currency_digits=False,
                                         group_separator=grouped)


def format_share(share):
    """A share as a percentage in the active language: "80 %" (es, de), "80%" (pt, en)."""
    return format_percent(as_decimal(share), locale=babel_locale())


def format_date_time(moment):
    """A moment in the active language, in the site's time zone: "30 de noviembre de 2026, 12:05:00 UTC"."""
    return format_datetime(moment, "long", tzinfo=timezone.get_current_timezone(), locale=babel_locale())


def format_long_date(day):
    """A date in the active language, in the same CLDR style as ``format_date_time``: "1 de dezembro de
    2026", "December 1, 2026" (Django's own date formats capitalize Portuguese months and abbreviate English
    ones)."""
    return format_date(day, "long", locale=babel_locale())


def format_price_per_hour(usd):
    """The best offer for one GPU-hour: "desde 8,99 US$", "a partir de US$ 8,99", "ab 8,99 $"."""
    price = format_currency(Decimal(usd), "USD", locale=babel_locale())
    return gettext("from %(price)s") % {"price": price}


def format_model_size(billions):
    """A model size in billions of parameters: "≈ 10 mil M", "≈ 10 Mrd.", "≈ 10B"."""
    if billions < 1:
        return gettext("< 1B")
    return gettext("≈ %(billions)sB") % {"billions": format_number(billions)}


def format_tokens_per_second(tokens):
    """A decode speed: "≈ 200 tokens/s"."""
    return gettext("≈ %(tokens)s tokens/s") % {"tokens": format_number(tokens)}


def not_published():
    return gettext("Not published")

"""Numbers, prices and model sizes in the active language's format, as the content deck writes them.

Babel (CLDR) gives the digits and the currency patterns; the wrapping words ("desde", "≈ … mil M",
"No publicado") are interface strings translated in ``locale/``. Every function formats for the
language that is active (``django.utils.translation``), so a page renders in one language throughout.
"""
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache, wraps

from babel import Locale
from babel.dates import format_date, format_datetime, format_skeleton
from babel.numbers import (
    format_compact_currency,
    format_compact_decimal,
    format_currency,
    format_percent,
    parse_pattern,
)
from babel.units import format_unit
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext

# The regional locale of each site language (Babel formats in it, number input reads in it, pages name it in Open
# Graph's og:locale) is defined with the number input (number_input/), which has no Django.
from number_input.reading import REGIONAL_LOCALES

# CLDR's minimumGroupingDigits, which neither Babel nor Django applies: with 2, a number groups its
# thousands only from five digits on (Spanish writes 6000 but 16.000).
MINIMUM_GROUPING_DIGITS = {"es": 2}


def active_language():
    return (get_language() or "en").split("-")[0]


def babel_locale(language=None):
    language = (language or active_language()).split("-")[0]
    return parsed_locale(REGIONAL_LOCALES.get(language, REGIONAL_LOCALES["en"]))


def groups_thousands(value, language):
    """Whether ``value`` is written with a thousands separator in ``language`` (CLDR's minimum grouping
    digits: 6000 but 16.000 in Spanish, 6.000 in German)."""
    return abs(value) >= 10 ** (3 + MINIMUM_GROUPING_DIGITS.get(language, 1) - 1)


@cache
def parsed_locale(name):
    """Babel parses a locale name on every call it is given one; a parsed Locale is reused."""
    return Locale.parse(name)


@cache
def number_pattern(pattern):
    """A parsed CLDR number pattern: Babel's format functions parse theirs on every call."""
    return parse_pattern(pattern)


# Texts cached per formatting function: a page's tables repeat the same figures row after row and page after page
# (memory sizes, prices, estimates), and each costs Babel tens of microseconds; a bound keeps any input's
# figures (the calculator's) from growing a process.
CACHED_TEXTS = 4096


def cached_text(function):
    """``function`` (of a value and options, in the active language) computed once per language, value and
    options. The value is told apart by its type and exact digits, not by equality: Decimal("1.0") == 1, but
    a pattern may write them differently."""
    @lru_cache(maxsize=CACHED_TEXTS)
    def text(language, value_type, value_digits, value, args, kwargs):
        return function(value, *args, **dict(kwargs))

    @wraps(function)
    def in_active_language(value, *args, **kwargs):
        return text(active_language(), type(value), str(value), value, args, tuple(kwargs.items()))

    in_active_language.cache_clear = text.cache_clear
    return in_active_language


@cached_text
def format_number(value, places=None):
    """A number in the active language's digits, at most three decimals (or exactly ``places``):
    6000 (es), 6.000 (pt, de), 6,000 (en)."""
    value = as_decimal(value)
    language = active_language()
    locale = babel_locale(language)
    grouped = groups_thousands(value, language)
    if places is not None:
        return number_pattern(("#,##0." if grouped else "0.") + "0" * places).apply(value, locale)
    if not grouped:
        return number_pattern("0.###").apply(value, locale)
    return locale.decimal_formats[None].apply(value, locale)


@cached_text
def format_quantity(value, unit):
    """A number with its unit: "288 GB", "1.307 TFLOPS"."""
    return f"{format_number(value)} {unit}"


def as_decimal(value):
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(value)


@cached_text
def format_usd(amount, places=2):
    """An amount in US dollars, rounded to ``places`` decimals: "2,88 US$", "US$ 2,88", "2,88 $", "$2.88"."""
    amount = as_decimal(amount)
    language = active_language()
    locale = babel_locale(language)
    # The locale's currency pattern with ``places`` decimals: "#,##0.00 ¤" becomes "#,##0.0000 ¤".
    pattern = locale.currency_formats["standard"].pattern.replace(".00", "." + "0" * places)
    grouped = groups_thousands(amount, language)
    return number_pattern(pattern).apply(amount, locale, currency="USD", currency_digits=False,
                                         group_separator=grouped)


@cached_text
def format_share(share):
    """A share as a percentage in the active language: "80 %" (es, de), "80%" (pt, en)."""
    return format_percent(as_decimal(share), locale=babel_locale())


def signed_pattern(pattern, places):
    """A CLDR number pattern with ``places`` decimals and a sign either way: "#,##0 %" becomes
    "+#,##0.0 %;-#,##0.0 %" (a change reads "+5,0 %", "-13,2 %")."""
    digits = "#,##0." + "0" * places if places else "#,##0"
    pattern = pattern.split(";")[0].replace("#,##0.00", "#,##0").replace("#,##0", digits)
    return f"+{pattern};-{pattern}"


@cached_text
def format_signed_share(share, places=1):
    """A change as a signed percentage in the active language: "+5,0 %" (es, de), "-13,2%" (pt, en)."""
    return number_pattern(signed_pattern(babel_locale().percent_formats[None].pattern, places)).apply(
        as_decimal(share), babel_locale())


@cached_text
def format_signed_usd(amount, places=2):
    """A change of an amount in US dollars, signed: "-0,38 US$", "+US$ 0,38", "+$0.38"."""
    amount = as_decimal(amount)
    language = active_language()
    locale = babel_locale(language)
    grouped = groups_thousands(amount, language)
    return number_pattern(signed_pattern(locale.currency_formats["standard"].pattern, places)).apply(
        amount, locale, currency="USD", currency_digits=False, group_separator=grouped)


def format_day_month(moment):
    """A day without its year, in the site's time zone: "3 sept", "3 de set.", "3. Sept.", "Sep 3"."""
    if hasattr(moment, "astimezone"):
        moment = timezone.localtime(moment).date()
    return format_skeleton("MMMd", moment, locale=babel_locale())


def format_date_time(moment):
    """A moment in the active language, in the site's time zone: "30 de noviembre de 2026, 12:05:00 UTC"."""
    return format_datetime(moment, "long", tzinfo=timezone.get_current_timezone(), locale=babel_locale())


def format_long_date(day):
    """A date in the active language, in the same CLDR style as ``format_date_time``: "1 de dezembro de
    2026", "December 1, 2026" (Django's own date formats capitalize Portuguese months and abbreviate English
    ones)."""
    return format_date(day, "long", locale=babel_locale())


@cached_text
def format_price_per_hour(usd):
    """The best offer for one GPU-hour: "desde 8,99 US$", "a partir de US$ 8,99", "ab 8,99 $"."""
    price = format_currency(Decimal(usd), "USD", locale=babel_locale())
    return gettext("from %(price)s") % {"price": price}


@cached_text
def format_model_size(billions):
    """A model size in billions of parameters: "≈ 10 mil M", "≈ 10 Mrd.", "≈ 10B"."""
    if billions < 1:
        return gettext("< 1B")
    return gettext("≈ %(billions)sB") % {"billions": format_number(billions)}


@cached_text
def format_tokens_per_second(tokens):
    """A decode speed: "≈ 200 tokens/s"."""
    return gettext("≈ %(tokens)s tokens/s") % {"tokens": format_number(tokens)}


def not_published():
    return gettext("Not published")


# From a million on, numbers and amounts are written short, as the language does: "1,2 Mio.", "1,2 mi", "1.2M".
COMPACT_FROM = 10**6
SECONDS_PER_HOUR = 3600
# Durations: (CLDR unit, its length in hours, the fewest of it written in that unit). 36 hours stay hours,
# 18 months are 548 days; below a second, "less than a second".
DURATION_UNITS = (("duration-year", 365 * 24, 2), ("duration-day", 24, 2), ("duration-hour", 1, 1),
                  ("duration-minute", Fraction(1, 60), 1), ("duration-second", Fraction(1, SECONDS_PER_HOUR), 1))


def rounded(value):
    """An estimate to three significant digits at most, and no more than one decimal: 1234 → 1234, 12.34 →
    12.3, 0.123 → 0.1 (estimates carry no more precision than that)."""
    value = as_decimal(value)
    if value == 0:
        return value
    digits = max(0, min(1, 2 - value.adjusted()))
    value = round(value, digits) if value.adjusted() < 3 else value.quantize(Decimal(1))
    # 1.0 → 1: CLDR's plural rules count visible decimals ("1 hour", but "1.0 hours").
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


# Estimates carry three significant digits: "1,05 Mio. $", "252.000 GPU-Stunden", "37,7 GB".
ESTIMATE_DIGITS = 3


def significant(value, digits=ESTIMATE_DIGITS):
    """``value`` rounded to ``digits`` significant digits, without an exponent: 252349 → 252000, 37.684 → 37.7,
    0.012345 → 0.0123."""
    value = as_decimal(value)
    if value == 0:
        return Decimal(0)
    value = round(value, digits - 1 - value.adjusted())
    # 252349 rounds to 2.52E+5: quantize to a whole number; 1.0 → 1 (CLDR plurals count visible decimals).
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value.normalize()


def compact_fraction_digits(value):
    """The decimals a short form ("1,05 Mio.") needs for three significant digits: 2 for 1,05 Mio., 1 for 25,6
    Mio., 0 for 252 Mio."""
    return max(0, ESTIMATE_DIGITS - 1 - value.adjusted() % 3)


def plural_count(value):
    """The count gettext chooses a plural form by: the number itself if whole, else 2 (CLDR reads a fraction as
    plural: "1,5 horas", "1,5 billion parameters")."""
    value = as_decimal(value)
    return int(value) if value == value.to_integral_value() else 2


@cached_text
def format_compact(value):
    """A large estimate in the language's short form from a million on, to three significant digits: "1,05
    Mio." (de), "1,05 M" (es), "1.05M" (en); below, its digits to three significant digits."""
    value = significant(value)
    if abs(value) < COMPACT_FROM:
        return format_number(value)
    return format_compact_decimal(value, locale=babel_locale(), fraction_digits=compact_fraction_digits(value))


@cached_text
def format_usd_estimate(amount):
    """An estimated amount to three significant digits: "12,34 $" below 100 $ (cents), "760.000 $", then short
    from a million: "1,05 Mio. $"."""
    amount = as_decimal(amount)
    if amount < 100:
        return format_usd(amount, 2)
    amount = significant(amount)
    if amount >= COMPACT_FROM:
        return format_compact_currency(amount, "USD", locale=babel_locale(),
                                       fraction_digits=compact_fraction_digits(amount))
    return format_usd(amount, 0)


# Below a cent an amount is written "< 0,01 $": a price per million tokens that small is a rounding error.
SMALLEST_AMOUNT = Decimal("0.01")


@cached_text
def format_usd_rate(amount):
    """A small price such as dollars per million tokens: two decimals from 0,10 $, three significant digits
    below, and "< 0,01 $" below a cent (never "0,0000 $")."""
    amount = as_decimal(amount)
    if amount >= Decimal("0.1"):
        return format_usd(amount, 2)
    if amount < SMALLEST_AMOUNT:
        return gettext("< %(amount)s") % {"amount": format_usd(SMALLEST_AMOUNT, 2)}
    return format_usd(amount, max(2, -significant(amount).as_tuple().exponent))


@cached_text
def format_gpu_hours(hours):
    """GPU-hours as an estimate, three significant digits: "≈ 1,05 Mio. GPU-Stunden", "≈ 506.000 GPU-hours"."""
    text = format_compact(hours)
    count = int(significant(hours)) if hours < COMPACT_FROM else COMPACT_FROM
    return ngettext("≈ %(hours)s GPU-hour", "≈ %(hours)s GPU-hours", count) % {"hours": text}


# Memory below a gigabyte is written in megabytes, and below a megabyte as "< 1 MB": never "0 GB".
MEGABYTES_PER_GIGABYTE = 1000


@cached_text
def format_memory(gigabytes):
    """Memory to three significant digits: "37,7 GB", "512 MB", "< 1 MB" (never "37,684 GB" or "0 GB")."""
    gigabytes = as_decimal(gigabytes)
    if gigabytes >= 1:
        return format_quantity(significant(gigabytes), "GB")
    megabytes = gigabytes * MEGABYTES_PER_GIGABYTE
    if megabytes >= 1:
        return format_quantity(significant(megabytes), "MB")
    if megabytes == 0:
        return format_quantity(0, "GB")
    return gettext("< %(amount)s") % {"amount": format_quantity(1, "MB")}


@cached_text
def format_duration(hours):
    """A duration given in hours, in the largest unit that gives at least one of it (two for days and years),
    with CLDR's unit words: "3,5 Tage", "36 horas", "571 years"."""
    hours = as_decimal(hours)
    if hours < Decimal(1) / SECONDS_PER_HOUR:
        return gettext("less than a second")
    unit, size = next((unit, size) for unit, size, fewest in DURATION_UNITS if hours >= as_decimal(size * fewest))
    value = rounded(hours / as_decimal(size))
    if value >= COMPACT_FROM:
        return gettext("more than a million years")
    return format_in_unit(value, unit)


@cached_text
def format_in_unit(value, unit):
    """A number with a CLDR unit's words in the active language, plural included: "1 hora", "1000 años"
    (Spanish groups from five digits), "10.000 Jahre"."""
    value = as_decimal(value)
    language = active_language()
    grouped = groups_thousands(value, language)
    pattern = "#,##0.#" if grouped else "0.#"
    return format_unit(value, unit, length="long", locale=babel_locale(language), format=pattern)


SUPERSCRIPT_DIGITS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


@cached_text
def format_scientific(value):
    """A very large or small number as mantissa × a power of ten, in the language's digits: "3,8 × 10²⁵"."""
    value = as_decimal(value)
    if value == 0:
        return format_number(0)
    exponent = value.adjusted()
    mantissa = round(value.scaleb(-exponent), 1)
    if abs(mantissa) >= 10:  # 9.96 rounds to 10.0
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{format_number(mantissa, 1)} × 10{str(exponent).translate(SUPERSCRIPT_DIGITS)}"

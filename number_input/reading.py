"""Numbers as visitors type them, read in the format of the language they typed in (CLDR's symbols, via Babel),
and their one language-neutral text for links. Pure: no Django, no float.

German, Spanish and Portuguese write "15.000" and "1,5"; English "15,000" and "1.5". A text that is not a number as
its language writes it is refused with what was understood (``NumberInputError``), never read another way:
"1.5" in German could be one and a half or fifteen hundred, so it is neither.
"""
import re
from decimal import Decimal

from babel.numbers import get_decimal_symbol, get_group_symbol

# The regional locale whose number format each site language follows (``core.formatting`` formats in the same ones).
# Portuguese follows the deck: "US$ 8,99" and "6.000" are the pt-BR patterns.
REGIONAL_LOCALES = {"es": "es_ES", "pt": "pt_BR", "de": "de_DE", "en": "en_US"}

# What a field counted in billions (model sizes, tokens) understands after its number: each spelling and the power
# of ten it multiplies the number by, in billions. Matched ignoring case and spaces ("70B", "70 b", "10 mil M").
SIZE_SUFFIXES = {
    None: {"B": 0, "T": 3, "M": -3},  # every language: the ML convention (70B, 1.5T, 125M)
    "de": {"Mrd.": 0, "Mrd": 0, "Bio.": 3, "Bio": 3, "Mio.": -3, "Mio": -3},
    "es": {"mil M": 0, "mil millones": 0, "millones": -3},
    "pt": {"mil M": 0, "mil milhões": 0, "milhões": -3},
    "en": {"bn": 0, "billion": 0, "trillion": 3, "million": -3},
}

# Grouping besides the language's own symbol: a space, a no-break space, a narrow no-break space (CLDR's French).
GROUPING_SPACES = " \u00a0\u202f"
# More digits than any quantity on the site needs, and than the formatting's decimal context (28 digits) can show.
MAX_DIGITS = 20

# A number, then whatever follows it (a suffix, or text that makes it invalid).
NUMBER = re.compile(r"(?P<sign>[-\u2212+]?)(?P<digits>[.,]?[0-9](?:[0-9.,\u0020\u00a0\u202f]*[0-9])?)(?P<rest>.*)",
                    re.DOTALL)
# The text ``canonical_number`` writes: ASCII digits, a point only before significant decimals.
CANONICAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?")

# NumberInputError codes.
INVALID = "invalid"  # no number at all
TOO_LONG = "too_long"  # more than MAX_DIGITS digits
GROUPING = "grouping"  # separators that are no number in the language, with no plausible reading
DECIMAL_OR_THOUSANDS = "decimal_or_thousands"  # "1.5" in German: readings (1.5, 1500)
OTHER_FORMAT = "other_format"  # the other convention's number ("1,234.5" in German): readings (1234.5,)
UNEXPECTED_TEXT = "unexpected_text"  # a number, then text (a field without size suffixes)
UNKNOWN_SUFFIX = "unknown_suffix"  # a number, then text that is no size suffix of the language
FRACTION = "fraction"  # a whole number was asked for


class NumberInputError(ValueError):
    """A text that is not a number as its language writes it.

    ``code``: one of the codes above. ``language``: the language it was read in (None if read as canonical text).
    ``understood``: the number read before the problem (the number before unknown text, the fractional value a whole
    number field refused), else None. ``readings``: the numbers the text could have meant, for a "did you mean"
    (each with the decimals typed: Decimal("1.5"), Decimal("1500")). ``rest``: the text that was not understood."""

    def __init__(self, code, *, language=None, understood=None, readings=(), rest=""):
        super().__init__(code)
        self.code, self.language, self.understood, self.readings, self.rest = (
            code, language, understood, tuple(readings), rest)


def number_language(language):
    """The site language whose number format ``language`` ("de", "de-at") names, or None."""
    language = (language or "").split("-")[0].lower()
    return language if language in REGIONAL_LOCALES else None


def symbols(language):
    """(decimal symbol, group symbol) of ``language``, from CLDR."""
    locale = REGIONAL_LOCALES[language]
    return get_decimal_symbol(locale), get_group_symbol(locale)


def size_suffixes(language):
    """The suffixes understood in ``language`` (every language's and its own), keyed as they are matched."""
    return {suffix_key(spelling): power
            for table in (SIZE_SUFFIXES[None], SIZE_SUFFIXES[language]) for spelling, power in table.items()}


def billion_word(language):
    """The language's own spelling of "billion" in SIZE_SUFFIXES ("Mrd.", "mil M", "bn")."""
    return next(spelling for spelling, power in SIZE_SUFFIXES[language].items() if power == 0)


def suffix_key(text):
    return re.sub(r"\s+", "", text).casefold()


def parse_number(text, language, *, unit_suffixes=False, integer=False):
    """The Decimal that ``text`` writes in ``language``'s number format (es, pt, de, en), or None for blank text.

    Grouping: the language's group symbol, or spaces (plain, no-break, narrow no-break), in groups of three
    ("15.000", "15 000", "6000"). ``unit_suffixes``: the field counts billions, and a size suffix
    (SIZE_SUFFIXES) may follow the number, with or without a space. ``integer``: a fractional result is refused.
    Raises NumberInputError. The result is exact, without exponent or trailing decimal zeros."""
    if number_language(language) is None:
        raise ValueError(f"no number format for the language {language!r}")
    language = number_language(language)
    text = text.strip()
    if not text:
        return None
    match = NUMBER.fullmatch(text)
    if match is None:
        raise NumberInputError(INVALID, language=language)
    digits, rest = match["digits"], match["rest"].strip()
    if sum(character.isdigit() for character in digits) > MAX_DIGITS:
        raise NumberInputError(TOO_LONG, language=language)
    decimal, group = symbols(language)
    value = read_digits(digits, decimal, group)
    if value is None:
        raise misread(digits, language, decimal, group)
    if match["sign"] in ("-", "\u2212"):
        value = -value
    if rest:
        power = size_suffixes(language).get(suffix_key(rest)) if unit_suffixes else None
        if power is None:
            raise NumberInputError(UNKNOWN_SUFFIX if unit_suffixes else UNEXPECTED_TEXT, language=language,
                                   understood=plain(value), rest=rest)
        value = scaled(value, power)
    return finished(value, integer, language)


def parse_canonical(text, *, integer=False):
    """The Decimal that canonical text ("15000", "1.5", as ``canonical_number`` writes) stands for, or None if
    ``text`` is not canonical."""
    text = text.strip()
    if not CANONICAL.fullmatch(text):
        return None
    if sum(character.isdigit() for character in text) > MAX_DIGITS:
        raise NumberInputError(TOO_LONG)
    return finished(Decimal(text), integer, None)


def parse_submitted_number(text, page_language, number_format=None, *, unit_suffixes=False, integer=False):
    """A number from a GET form or a link, so that an address means the same in every language.

    ``number_format``: the language the form was shown in (its hidden ``nf``), given whenever a visitor submits the
    form: the text is read in it, whatever it looks like. Without it, the address was written by the site (its
    language switcher, canonical and hreflang links carry canonical text and no ``nf``) or typed by hand: canonical
    text is read as canonical, anything else in the page's language."""
    number_format = number_language(number_format)
    options = {"unit_suffixes": unit_suffixes, "integer": integer}
    if number_format is not None:
        return parse_number(text, number_format, **options)
    value = parse_canonical(text, integer=integer)
    return value if value is not None else parse_number(text, page_language, **options)


def canonical_number(value):
    """The language-neutral text of a number: ASCII digits, "." only before significant decimals, no grouping, no
    exponent ("15000", "1.5", "0.35")."""
    value = Decimal(value)
    if not value.is_finite():
        raise ValueError(f"{value} has no canonical text")
    return f"{plain(value):f}" if value else "0"


def read_digits(digits, decimal, group):
    """The Decimal that ``digits`` (no sign, no suffix) write with these symbols, grouped in threes, or None."""
    whole, point, fraction = digits.partition(decimal)
    if point and not (fraction.isdigit() and fraction.isascii()):
        return None
    separators = set(re.sub(r"[0-9]", "", whole))
    if not separators <= set(group + GROUPING_SPACES) or (group in separators and len(separators) > 1):
        return None
    groups = re.split(f"[{re.escape(group + GROUPING_SPACES)}]", whole)
    if len(groups) > 1 and not (1 <= len(groups[0]) <= 3 and groups[0][0] != "0"
                                and all(len(later) == 3 for later in groups[1:])):
        return None
    return Decimal(("".join(groups) or "0") + ("." + fraction if point else ""))


def misread(digits, language, decimal, group):
    """The error for digits that are no number in the language, with what they could have meant: the same
    digits in the other convention (decimal and group symbols swapped), and, for a single short group after a
    group symbol ("1.5" in German), the thousands its writer may have meant (1.500)."""
    readings = []
    if {decimal, group} == {".", ","}:
        swapped = read_digits(digits, decimal=group, group=decimal)
        if swapped is not None:
            readings.append(swapped)
    first, separator, last = digits.partition(group)
    if (separator and decimal not in digits and group not in last and first.isdigit() and last.isdigit()
            and 1 <= len(first) <= 3 and first[0] != "0" and len(last) < 3):
        readings.append(Decimal(first + last.ljust(3, "0")))
    code = {0: GROUPING, 1: OTHER_FORMAT, 2: DECIMAL_OR_THOUSANDS}[len(readings)]
    return NumberInputError(code, language=language, readings=readings)


def finished(value, integer, language):
    value = plain(value)
    if integer and value != value.to_integral_value():
        raise NumberInputError(FRACTION, language=language, understood=value)
    return value


def scaled(value, power):
    """``value`` × 10^power, exactly (no decimal context rounds it)."""
    sign, digits, exponent = value.as_tuple()
    return plain(Decimal((sign, digits, exponent + power)))


def plain(value):
    """``value`` without exponent or trailing decimal zeros, exactly: 1.5E+3 → 1500, 1.50 → 1.5, -0 → 0."""
    sign, digits, exponent = value.as_tuple()
    if not any(digits):
        return Decimal(0)
    digits = list(digits)
    if exponent > 0:
        digits += [0] * exponent
        exponent = 0
    while exponent < 0 and digits[-1] == 0:
        digits.pop()
        exponent += 1
    return Decimal((sign, tuple(digits), exponent))

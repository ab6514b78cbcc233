"""JSON text with decimals written exactly: the standard encoder takes a Decimal only as a float, which would
print 163.4 as whatever binary floating point makes of it. Here a Decimal is written as the number it is
("163.4", "1.25"), never in exponent notation and never through a float."""
import json
from decimal import Decimal
from fractions import Fraction


def exact_number(value):
    """The JSON number of a Decimal or a Fraction whose decimal expansion ends (1/2, 5/2)."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    if not value.is_finite():
        raise ValueError(f"{value} is not a JSON number")
    return format(value, "f")


def dumps(value, indent=2, level=0):
    """``value`` (dicts with string keys, lists, tuples, strings, numbers, booleans, None) as JSON text."""
    if isinstance(value, Decimal | Fraction):
        return exact_number(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = "\n" + " " * (indent * (level + 1))
        items = (f"{json.dumps(key)}: {dumps(item, indent, level + 1)}" for key, item in value.items())
        return "{" + inner + ("," + inner).join(items) + "\n" + " " * (indent * level) + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        inner = "\n" + " " * (indent * (level + 1))
        return "[" + inner + ("," + inner).join(dumps(item, indent, level + 1) for item in value) + "\n" + \
            " " * (indent * level) + "]"
    return json.dumps(value, ensure_ascii=False)

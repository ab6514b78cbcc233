"""Numbers made exact before any arithmetic: the sizing rules and the chart drawers both compute with
``Fraction``, because binary floating point puts values such as 10.0 a hair below 10. Pure Python (no Django),
so the pure modules above (``catalog.sizing``, ``charts``) can use it without a framework."""
from decimal import Context, Decimal
from fractions import Fraction
from numbers import Rational


def exact(value):
    """Turn an int, Fraction, Decimal or decimal string into a Fraction without a float in between."""
    # A Fraction is immutable: the same object serves (the estimator passes its own results back in, often).
    if type(value) is Fraction:
        return value
    if isinstance(value, float):
        raise TypeError("pass a Decimal, int, Fraction or string, not a float")
    if isinstance(value, Rational):
        return Fraction(value)
    if isinstance(value, Decimal) and value.is_finite():
        return Fraction(value)  # its own exact ratio: the value its text reads, without parsing the text
    return Fraction(str(value))


def significant_decimal(value, digits):
    """An exact figure (anything ``exact`` takes) as a Decimal to ``digits`` significant digits, exact when its
    decimal expansion ends sooner; None stays None."""
    if value is None:
        return None
    value = exact(value)
    if value == 0:
        return value
    return Context(prec=digits).divide(Decimal(value.numerator), Decimal(value.denominator)).normalize() + 0

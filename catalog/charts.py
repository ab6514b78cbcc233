"""Geometry of the comparison's horizontal bar charts, in SVG user units: one row per GPU, a bar whose
length is proportional to the value, the GPU's name before it and the value's text after it.

Pure Python (no Django): the template only writes these numbers into SVG presentation attributes.
Every coordinate is a whole number, so templates print it the same in every language."""
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

WIDTH = 640
LABEL_WIDTH = 190  # the GPU's name, left of the bars
VALUE_WIDTH = 150  # the value's text, right of the longest bar
BAR_HEIGHT = 24
ROW_GAP = 12
PADDING = 8
TEXT_BASELINE = 17  # from the top of a row, centres 14-unit text on the bar
PLOT_WIDTH = WIDTH - LABEL_WIDTH - VALUE_WIDTH


@dataclass(frozen=True)
class Bar:
    label: str
    value_text: str
    has_value: bool
    y: int
    length: int
    text_y: int
    value_x: int


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bar_x: int
    bar_height: int
    bars: tuple


def as_fraction(value):
    if isinstance(value, float):
        raise TypeError("pass an exact number, not a float")
    return Fraction(value) if isinstance(value, Rational) else Fraction(str(value))


def bar_length(value, largest):
    """Length of a bar for ``value`` when the largest value gets the whole plot; a positive value
    always gets at least one unit, so it stays visible."""
    value, largest = as_fraction(value), as_fraction(largest)
    if value <= 0 or largest <= 0:
        return 0
    return max(1, round(value / largest * PLOT_WIDTH))


def bar_chart(items):
    """Lay out ``items``, each (label, value or None, value text), as rows of a horizontal bar chart."""
    values = [as_fraction(value) for _label, value, _text in items if value is not None]
    largest = max(values, default=0)
    bars = []
    for row, (label, value, value_text) in enumerate(items):
        y = PADDING + row * (BAR_HEIGHT + ROW_GAP)
        length = 0 if value is None else bar_length(value, largest)
        bars.append(Bar(
            label=label, value_text=value_text, has_value=value is not None, y=y, length=length,
            text_y=y + TEXT_BASELINE, value_x=LABEL_WIDTH + length + PADDING,
        ))
    height = 2 * PADDING + len(items) * BAR_HEIGHT + max(len(items) - 1, 0) * ROW_GAP
    return BarChart(width=WIDTH, height=height, bar_x=LABEL_WIDTH, bar_height=BAR_HEIGHT, bars=tuple(bars))

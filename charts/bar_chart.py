"""Geometry of the comparison's horizontal bar charts, in SVG user units: one row per GPU, its name on a
line of its own, then a bar whose length is proportional to the value and the value's text after it.
Stacking the name above the bar keeps the chart narrow enough to stay legible on a phone."""
from dataclasses import dataclass

from core.exact_numbers import exact

WIDTH = 360
VALUE_WIDTH = 100  # room for the value's text right of the longest bar
PLOT_WIDTH = WIDTH - VALUE_WIDTH
LABEL_HEIGHT = 18  # the GPU's name, above its bar
BAR_HEIGHT = 20
ROW_GAP = 10
PADDING = 4
TEXT_BASELINE = 14  # from the top of a line of text: centres 13-unit text on its line
GAP_BEFORE_VALUE = 6
ROW_HEIGHT = LABEL_HEIGHT + BAR_HEIGHT + ROW_GAP


@dataclass(frozen=True)
class Bar:
    label: str
    value_text: str
    has_value: bool
    label_y: int
    bar_y: int
    length: int
    value_x: int
    value_y: int


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bar_height: int
    bars: tuple


def bar_length(value, largest):
    """Length of a bar for ``value`` when the largest value gets the whole plot; a positive value
    always gets at least one unit, so it stays visible."""
    value, largest = exact(value), exact(largest)
    if value <= 0 or largest <= 0:
        return 0
    return max(1, round(value / largest * PLOT_WIDTH))


def bar_chart(items):
    """Lay out ``items``, each (label, value or None, value text), as rows of a horizontal bar chart."""
    values = [exact(value) for _label, value, _text in items if value is not None]
    largest = max(values, default=0)
    bars = []
    for row, (label, value, value_text) in enumerate(items):
        top = PADDING + row * ROW_HEIGHT
        bar_y = top + LABEL_HEIGHT
        length = 0 if value is None else bar_length(value, largest)
        bars.append(Bar(
            label=label, value_text=value_text, has_value=value is not None, label_y=top + TEXT_BASELINE,
            bar_y=bar_y, length=length, value_x=length + GAP_BEFORE_VALUE, value_y=bar_y + TEXT_BASELINE + 1,
        ))
    height = 2 * PADDING + len(items) * ROW_HEIGHT - (ROW_GAP if items else 0)
    return BarChart(width=WIDTH, height=height, bar_height=BAR_HEIGHT, bars=tuple(bars))

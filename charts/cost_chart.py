"""Geometry of the estimator's chart: cost (vertical) against time (horizontal), both on logarithmic axes
(a training run takes hours on a cluster and years on one GPU), one mark per configuration, and direct labels
for the marks the caller names (the cheapest and the fastest), placed beside their marks over no other mark or
label, or moved away with a leader line where the marks crowd (``labels.py``). Built from the scatter chart's
pieces (``scatter_chart``: boxes, ticks, marks and label places)."""
import math
from dataclasses import dataclass
from itertools import pairwise

from core.exact_numbers import exact

from .labels import Box, extent_of, place_free
from .scatter_chart import (
    POINT_RADIUS,
    TICK_GAP,
    TICK_LABEL_GAP,
    TITLE_GAP,
    X_TICK_GAP,
    Point,
    Tick,
    mark_box,
)
from .text import (
    ASCENT_UNITS,
    DESCENT_UNITS,
    FONT_SIZE,
    LINE_HEIGHT,
    MIDDLE_BASELINE,
    PADDING,
    WIDTH,
    TextLine,
    text_width,
    wrap,
)

PLOT_HEIGHT = 320
MIN_PLOT_WIDTH = WIDTH // 2


@dataclass(frozen=True)
class CostChart:
    width: int
    height: int
    font_size: int
    point_radius: int
    plot: Box
    x_ticks: tuple
    y_ticks: tuple
    x_title: tuple
    y_title: tuple
    points: tuple  # in the order of the items
    highlighted: tuple  # the points of the labelled items
    labels: tuple


def axis_ticks(low, high, ladder, format_value):
    """The ticks of a log axis over values from ``low`` to ``high``: the ``ladder``'s values (ascending (value,
    text) pairs, such as powers of ten or 1 minute, 1 hour, 1 day…) from the last at or below the least value to
    the first at or above the greatest; the data's own ends, written by ``format_value``, where the ladder stops
    short."""
    below = [step for step in ladder if step[0] <= low]
    above = [step for step in ladder if step[0] >= high]
    start = below[-1] if below else (low, format_value(low))
    end = above[0] if above else (high, format_value(high))
    if start[0] == end[0]:  # every value on one rung: the axis spans to the next rung (or a tenfold)
        later = [step for step in ladder if step[0] > end[0]]
        end = later[0] if later else (end[0] * 10, format_value(end[0] * 10))
    # Past the ladder's ends, the axis spans at least a tenfold: never a range too narrow to scale.
    if not above and end[0] < start[0] * 10:
        end = (start[0] * 10, format_value(start[0] * 10))
    if not below and start[0] > end[0] / 10:
        start = (end[0] / 10, format_value(end[0] / 10))
    return [start] + [step for step in ladder if start[0] < step[0] < end[0]] + [end]


def log_scale(low, high, length):
    """The position of a value on a log axis from ``low`` to ``high``, ``length`` units long: whole units from the
    axis's start. The axis's own logarithm is worked out once; value ÷ low is divided as whole numbers, which
    rounds to the same float as the Fraction would (both are correctly rounded)."""
    span = math.log(high / low)
    low_numerator, low_denominator = low.numerator, low.denominator

    def position(value):
        ratio = value.numerator * low_denominator / (value.denominator * low_numerator)
        return round(math.log(ratio) / span * length)

    return position


def thinned(ticks, fits):
    """Every tick, or every second, third… one keeping both ends, the first that ``fits``."""
    for every in range(1, len(ticks)):
        kept = ticks[::every]
        if kept[-1] != ticks[-1]:  # the last kept tick gives way to the axis's end
            kept = [*kept[:-1], ticks[-1]] if len(kept) > 1 else [*kept, ticks[-1]]
        if fits(kept):
            return kept
    return [ticks[0], ticks[-1]]


def cost_chart(items, highlighted, x_title, y_title, x_ladder, y_ladder, format_x, format_y):
    """Lay out ``items``, each (name, x value, y value), all above zero, on log axes whose ticks come from
    ``x_ladder`` and ``y_ladder`` ((value, text) pairs, ascending; ``format_x``/``format_y`` write an end the
    ladder does not reach). ``highlighted``: {index: text} of the items labelled beside their marks."""
    xs = [exact(x) for _name, x, _y in items]
    ys = [exact(y) for _name, _x, y in items]
    if not items:
        raise ValueError("a log chart plots values above zero")
    # Each extreme found once: the values are exact, and every comparison of two Fractions multiplies.
    (least_x, greatest_x), (least_y, greatest_y) = (min(xs), max(xs)), (min(ys), max(ys))
    if least_x <= 0 or least_y <= 0:
        raise ValueError("a log chart plots values above zero")
    y_title_lines = wrap(y_title, FONT_SIZE, WIDTH - 2 * PADDING)
    top = PADDING + len(y_title_lines) * LINE_HEIGHT + TITLE_GAP
    bottom = top + PLOT_HEIGHT
    y_all = axis_ticks(least_y, greatest_y, y_ladder, format_y)
    y_position = log_scale(y_all[0][0], y_all[-1][0], PLOT_HEIGHT)
    y_steps = thinned(y_all, lambda kept: all(
        y_position(b[0]) - y_position(a[0]) >= LINE_HEIGHT for a, b in pairwise(kept)))
    y_labels_right = PADDING + max(text_width(text, FONT_SIZE) for _value, text in y_steps)

    x_all = axis_ticks(least_x, greatest_x, x_ladder, format_x)
    x_low, x_high = x_all[0][0], x_all[-1][0]
    tick_baseline = bottom + X_TICK_GAP + ASCENT_UNITS

    def x_ticks_for(steps):
        left = max(y_labels_right + TICK_GAP, PADDING + (text_width(steps[0][1], FONT_SIZE) + 1) // 2)
        right = WIDTH - PADDING - (text_width(steps[-1][1], FONT_SIZE) + 1) // 2
        # Very long tick labels may overhang the drawing rather than squeeze the plot to nothing.
        left = min(left, WIDTH - PADDING - MIN_PLOT_WIDTH)
        right = max(right, left + MIN_PLOT_WIDTH)
        x_position = log_scale(x_low, x_high, right - left)
        return tuple(
            Tick(value, position, text, position, tick_baseline)
            for value, text in steps
            for position in [left + x_position(value)]
        )

    def x_fits(steps):
        laid = x_ticks_for(steps)
        return all(b.position - a.position >= (text_width(a.text, FONT_SIZE) + text_width(b.text, FONT_SIZE) + 1) // 2
                   + TICK_LABEL_GAP for a, b in pairwise(laid))

    x_ticks = x_ticks_for(thinned(x_all, x_fits))
    plot = Box(x_ticks[0].position, top, x_ticks[-1].position, bottom)
    y_ticks = tuple(
        Tick(value, position, text, plot.left - TICK_GAP, position + MIDDLE_BASELINE)
        for value, text in y_steps
        for position in [bottom - y_position(value)]
    )
    x_position = log_scale(x_low, x_high, plot.right - plot.left)
    points = tuple(
        Point(name, x, y, plot.left + x_position(x), plot.bottom - y_position(y))
        for (name, _x, _y), x, y in zip(items, xs, ys, strict=True)
    )
    marks = [mark_box(point) for point in points]
    # Beside the mark over no other mark or label; in a crowd, moved away with a leader (``labels.py``).
    requests = [(text, (points[index].name,), text_width(text, FONT_SIZE), extent_of([marks[index]]))
                for index, text in highlighted.items()]
    labels = [label for label in place_free(requests, marks, plot) if label is not None]

    centre = (plot.left + plot.right) // 2
    x_title_lines = wrap(x_title, FONT_SIZE, 2 * min(centre - PADDING, WIDTH - PADDING - centre))
    x_title = tuple(TextLine(centre, tick_baseline + (n + 1) * LINE_HEIGHT, line)
                    for n, line in enumerate(x_title_lines))
    y_title = tuple(TextLine(PADDING, PADDING + ASCENT_UNITS + n * LINE_HEIGHT, line)
                    for n, line in enumerate(y_title_lines))
    return CostChart(
        width=WIDTH, height=(x_title[-1].y if x_title else tick_baseline) + DESCENT_UNITS + PADDING,
        font_size=FONT_SIZE, point_radius=POINT_RADIUS, plot=plot, x_ticks=x_ticks, y_ticks=y_ticks,
        x_title=x_title, y_title=y_title, points=points,
        highlighted=tuple(points[index] for index in highlighted), labels=tuple(labels),
    )

"""Geometry of a scatter plot in SVG user units: one mark per item at (x value, y value), axes from zero
with ticks at nice steps (1, 2 or 5 times a power of ten), and the items' names written beside their
marks, placed greedily where they overlap no other name and no mark and stay inside the plot. Marks that
overlap one another read as one: they share one label naming each of them."""
import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from core.exact_numbers import exact

from .labels import Box, Label, candidate_places, extent_of, place_free, text_box
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

PLOT_HEIGHT = 400
POINT_RADIUS = 7
TICK_GAP = 8  # between the vertical axis and its tick labels
X_TICK_GAP = 12  # between the horizontal axis and the top of its tick labels, clear of the lowest y label
TICK_LABEL_GAP = 16  # least room between two tick labels side by side
TITLE_GAP = 10  # between the y axis's title and the top of the plot
# At most this many steps between ticks on each axis: fewer across, where the labels are wider.
X_MAX_INTERVALS, Y_MAX_INTERVALS = 5, 6
NICE_DIGITS = (1, 2, 5)
NAME_SEPARATOR = ", "  # between the names of marks that share a label
SEARCH_BUDGET = 5000  # steps of the search for places for the labels: a bound on the time it takes


@dataclass(frozen=True)
class Tick:
    value: Fraction
    position: int  # x on the horizontal axis, y on the vertical one
    text: str
    label_x: int
    label_y: int



@dataclass(frozen=True)
class Point:
    name: str
    x_value: Fraction
    y_value: Fraction
    x: int
    y: int


@dataclass(frozen=True)
class ScatterChart:
    width: int
    height: int
    font_size: int
    point_radius: int
    plot: Box
    x_step: Fraction
    y_step: Fraction
    x_ticks: tuple
    y_ticks: tuple
    x_title: tuple  # TextLines, centred under the plot
    y_title: tuple  # TextLines, above the plot, from the left
    points: tuple  # in the order of the items
    labels: tuple  # a mark whose name found no free place has none (its name is in the chart's text)


def nice_steps(span):
    """Steps of 1, 2 or 5 times a power of ten, ascending, from a thousandth of ``span`` to at least ``span``."""
    power = Fraction(1)
    while power > span:
        power /= 10
    while power * 10 <= span:
        power *= 10
    return [digit * power * Fraction(10) ** shift for shift in (-3, -2, -1, 0, 1) for digit in NICE_DIGITS]


def decimal_places(step):
    """Decimals a multiple of ``step`` needs: 0 for 2 or 50, 1 for 0.5, 2 for 0.25."""
    places = 0
    while (step * 10**places).denominator != 1:
        places += 1
    return places


def axis_range(values, step):
    """From zero (or the first multiple of ``step`` below the data, if negative) to the first multiple of
    ``step`` at or above every value."""
    low, high = min([0, *values]), max([0, *values])
    start, end = math.floor(low / step) * step, math.ceil(high / step) * step
    return start, end if end > start else start + step


def choose_step(values, max_intervals, fits):
    """The smallest nice step giving at most ``max_intervals`` intervals that ``fits(step)`` accepts."""
    span = max([0, *values]) - min([0, *values]) or Fraction(1)
    steps = nice_steps(span)
    for step in steps:
        start, end = axis_range(values, step)
        if (end - start) / step <= max_intervals and fits(step):
            return step
    return steps[-1]


def tick_values(values, step):
    start, end = axis_range(values, step)
    return [start + n * step for n in range(round((end - start) / step) + 1)]


def scale(value, start, end, length):
    """Whole units from the axis's start for ``value`` on an axis ``length`` units long."""
    return round((value - start) / (end - start) * length)


def mark_box(point):
    return Box(point.x - POINT_RADIUS, point.y - POINT_RADIUS, point.x + POINT_RADIUS, point.y + POINT_RADIUS)


def overlapping_groups(points):
    """The points in groups whose marks overlap (directly or through one another), each group in the order
    of x, y and then of ``points``, the groups in the order of their first point."""
    groups = []  # lists of positions in ``points``
    for index, point in enumerate(points):
        touching = [group for group in groups if any(
            (point.x - points[other].x) ** 2 + (point.y - points[other].y) ** 2 < (2 * POINT_RADIUS) ** 2
            for other in group
        )]
        groups = [group for group in groups if all(group is not other for other in touching)]
        groups.append([index] + [other for group in touching for other in group])
    ordered = [[points[i] for i in sorted(group, key=lambda i: (points[i].x, points[i].y, i))] for group in groups]
    return sorted(ordered, key=lambda group: (group[0].x, group[0].y))


def label_options(group, obstacles, plot):
    """The labels a group of marks may take, in order of preference: each candidate place inside the plot
    and over no mark."""
    text = NAME_SEPARATOR.join(point.name for point in group)
    width = text_width(text, FONT_SIZE)
    extent = extent_of([mark_box(point) for point in group])
    names = tuple(point.name for point in group)
    labels = (Label(text, names, x, baseline, anchor, text_box(x, baseline, anchor, width))
              for x, baseline, anchor in candidate_places(extent, width, plot))
    return [label for label in labels
            if label.box.inside(plot) and not any(label.box.overlaps(other) for other in obstacles)]


def place_labels(points, plot):
    """Labels for the groups of overlapping marks, none over another. Greedy: the most crowded marks choose
    first, each its first free place; when a group finds none, the choices before it are revisited
    (depth first, at most ``SEARCH_BUDGET`` steps) for a placement that labels more marks."""
    groups = overlapping_groups(points)
    reach = 4 * FONT_SIZE

    def neighbours(group):
        return sum(1 for point in points if abs(point.x - group[0].x) <= reach and abs(point.y - group[0].y) <= reach)

    order = sorted(range(len(groups)), key=lambda index: -neighbours(groups[index]))
    marks = [mark_box(point) for point in points]
    options = [label_options(groups[index], marks, plot) for index in order]
    # The most marks the groups from each position on could still label.
    still_possible = [sum(len(groups[index]) for index in order[position:]) for position in range(len(order) + 1)]
    best, best_marks, placed, steps = [], -1, [], 0

    def search(position, labelled):
        nonlocal best, best_marks, steps
        if labelled + still_possible[position] <= best_marks or steps >= SEARCH_BUDGET:
            return
        steps += 1
        if position == len(order):
            best, best_marks = list(placed), labelled
            return
        for label in options[position]:
            if not any(label.box.overlaps(other.box) for other in placed):
                placed.append(label)
                search(position + 1, labelled + len(label.names))
                placed.pop()
        search(position + 1, labelled)  # this group unlabelled

    search(0, 0)
    # A group the search left unlabelled moves away from the crowd, joined to its marks by a leader.
    labelled = {name for label in best for name in label.names}
    requests = [(NAME_SEPARATOR.join(point.name for point in group), tuple(point.name for point in group),
                 text_width(NAME_SEPARATOR.join(point.name for point in group), FONT_SIZE),
                 extent_of([mark_box(point) for point in group]))
                for group in groups if not any(point.name in labelled for point in group)]
    moved = [label for label in place_free(requests, marks, plot, best) if label is not None]
    return sorted([*best, *moved], key=lambda label: (label.box.left, label.box.top))


def scatter_chart(items, x_title, y_title, format_x, format_y):
    """Lay out ``items``, each (name, x value, y value), with the axes' titles, and tick labels written by
    ``format_x(value, decimal_places)`` and ``format_y(value, decimal_places)``."""
    xs = [exact(x) for _name, x, _y in items]
    ys = [exact(y) for _name, _x, y in items]
    y_title_lines = wrap(y_title, FONT_SIZE, WIDTH - 2 * PADDING)
    top = PADDING + len(y_title_lines) * LINE_HEIGHT + TITLE_GAP
    bottom = top + PLOT_HEIGHT

    # The vertical axis: tick labels at least a line apart, right-aligned left of the plot.
    def y_fits(step):
        start, end = axis_range(ys, step)
        return PLOT_HEIGHT * step / (end - start) >= LINE_HEIGHT

    y_step = choose_step(ys, Y_MAX_INTERVALS, y_fits)
    y_values = tick_values(ys, y_step)
    y_texts = [format_y(value, decimal_places(y_step)) for value in y_values]
    y_labels_right = PADDING + max(text_width(text, FONT_SIZE) for text in y_texts)

    # The horizontal axis: tick labels centred under their tick, apart, the first and last inside the drawing.
    tick_baseline = bottom + X_TICK_GAP + ASCENT_UNITS

    def x_ticks_for(step):
        values = tick_values(xs, step)
        texts = [format_x(value, decimal_places(step)) for value in values]
        left = max(y_labels_right + TICK_GAP, PADDING + (text_width(texts[0], FONT_SIZE) + 1) // 2)
        right = WIDTH - PADDING - (text_width(texts[-1], FONT_SIZE) + 1) // 2
        return tuple(
            Tick(value, position, text, position, tick_baseline)
            for value, text in zip(values, texts, strict=True)
            for position in [left + scale(value, values[0], values[-1], right - left)]
        )

    def x_fits(step):
        laid = x_ticks_for(step)
        return all(b.position - a.position >= (text_width(a.text, FONT_SIZE) + text_width(b.text, FONT_SIZE) + 1) // 2
                   + TICK_LABEL_GAP for a, b in pairwise(laid))

    x_step = choose_step(xs, X_MAX_INTERVALS, x_fits)
    x_ticks = x_ticks_for(x_step)
    plot = Box(x_ticks[0].position, top, x_ticks[-1].position, bottom)
    y_ticks = tuple(
        Tick(value, position, text, plot.left - TICK_GAP, position + MIDDLE_BASELINE)
        for value, text in zip(y_values, y_texts, strict=True)
        for position in [bottom - scale(value, y_values[0], y_values[-1], PLOT_HEIGHT)]
    )
    points = tuple(
        Point(name, x, y, plot.left + scale(x, x_ticks[0].value, x_ticks[-1].value, plot.right - plot.left),
              plot.bottom - scale(y, y_ticks[0].value, y_ticks[-1].value, plot.bottom - plot.top))
        for (name, _x, _y), x, y in zip(items, xs, ys, strict=True)
    )

    centre = (plot.left + plot.right) // 2
    x_title_lines = wrap(x_title, FONT_SIZE, 2 * min(centre - PADDING, WIDTH - PADDING - centre))
    x_title = tuple(TextLine(centre, tick_baseline + (n + 1) * LINE_HEIGHT, line)
                    for n, line in enumerate(x_title_lines))
    y_title = tuple(TextLine(PADDING, PADDING + ASCENT_UNITS + n * LINE_HEIGHT, line)
                    for n, line in enumerate(y_title_lines))
    return ScatterChart(
        width=WIDTH, height=(x_title[-1].y if x_title else tick_baseline) + DESCENT_UNITS + PADDING,
        font_size=FONT_SIZE, point_radius=POINT_RADIUS, plot=plot, x_step=x_step, y_step=y_step,
        x_ticks=x_ticks, y_ticks=y_ticks, x_title=x_title, y_title=y_title, points=points,
        labels=tuple(place_labels(points, plot)),
    )

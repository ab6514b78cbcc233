"""Geometry of a step chart of one price over a time window, in SVG user units: the price holds until the next
step, a step without a price (no live offer) leaves a gap. The highest and lowest prices are labelled above and
below the plot at the left, the current price at the right of the line's end, and the dates given (the window's
first, middle and last day) under it, each with a vertical grid line."""
from dataclasses import dataclass
from datetime import timedelta

from core.exact_numbers import exact

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
)

# More steps than this in the window (a feed that changes the price many times a day) are drawn and listed
# as the price at the end of each day: the page stays small whatever the feed does.
MAX_STEPS = 120
PLOT_HEIGHT = 160
GAP = 6  # between a line and the text next to it
POINT_RADIUS = 5
ONE = timedelta(microseconds=1)



@dataclass(frozen=True)
class StepChart:
    width: int
    height: int
    font_size: int
    point_radius: int
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    high_y: int  # the highest price's grid line
    low_y: int  # the lowest price's
    path: str  # SVG path data of the line: one subpath per run of steps with a price
    points: tuple  # (x, y) where a new price starts inside the window
    high: TextLine  # above the highest grid line, from the left
    low: TextLine  # below the lowest grid line, from the left
    current: tuple  # TextLines right of the line's end, each drawn from its x
    ticks: tuple  # (x of the date's grid line, its TextLine under the plot, its text-anchor)


def daily_closing(steps):
    """The last step of each day (24 hours from the first step on), consecutive equal prices merged."""
    closing = {}
    for moment, price in steps:
        closing[(moment - steps[0][0]).days] = (moment, price)
    merged = []
    for moment, price in closing.values():
        if not merged or merged[-1][1] != price:
            merged.append((moment, price))
    return merged


def step_chart(start, end, steps, high_text, low_text, current_lines, dates):
    """Lay out ``steps`` (each (time, price or None), oldest first, none before ``start``, the last holding until
    ``end``); ``current_lines`` (one or two texts, the second bold in the template) label the line's end;
    ``dates`` are (time, text) ticks under the plot."""
    prices = [exact(price) for _moment, price in steps if price is not None]
    low, high = min(prices, default=0), max(prices, default=0)
    column = max((text_width(line, FONT_SIZE, bold=True) for line in current_lines), default=0)
    plot_left, plot_right = PADDING, WIDTH - PADDING - column - GAP
    plot_top = PADDING + ASCENT_UNITS + DESCENT_UNITS + GAP
    plot_bottom = plot_top + PLOT_HEIGHT
    span = (end - start) // ONE or 1

    def x(moment):
        return plot_left + round(min(max((moment - start) // ONE, 0), span) * (plot_right - plot_left) / span)

    def y(price):
        if high == low:
            return (plot_top + plot_bottom) // 2
        return plot_bottom - round((exact(price) - low) / (high - low) * (plot_bottom - plot_top))

    path, points, last = [], [], None
    for index, (moment, price) in enumerate(steps):
        x_end = x(steps[index + 1][0]) if index + 1 < len(steps) else plot_right
        if price is None:
            last = None
            continue
        left, level = x(moment), y(price)
        path.append(f"V{level}" if last == left else f"M{left} {level}")
        path.append(f"H{x_end}")
        if moment > start:
            points.append((left, level))
        last = x_end
    end_y = y(steps[-1][1]) if steps and steps[-1][1] is not None else (plot_top + plot_bottom) // 2
    low_baseline = plot_bottom + GAP + ASCENT_UNITS
    # The current price's lines are centred on the line's end, inside the drawing and above the dates' row.
    first_baseline = end_y + MIDDLE_BASELINE - (len(current_lines) - 1) * LINE_HEIGHT // 2
    first_baseline = min(max(first_baseline, PADDING + ASCENT_UNITS),
                         low_baseline - (len(current_lines) - 1) * LINE_HEIGHT)
    current = tuple(TextLine(plot_right + GAP, first_baseline + n * LINE_HEIGHT, line)
                    for n, line in enumerate(current_lines))
    high_y, low_y = (y(high), y(low)) if prices else (plot_top, plot_bottom)
    date_baseline = low_baseline + LINE_HEIGHT
    ticks = tuple((x(moment), TextLine(x(moment), date_baseline, text), anchor)
                  for (moment, text), anchor in zip(dates, tick_anchors(len(dates)), strict=True))
    return StepChart(
        width=WIDTH, height=date_baseline + DESCENT_UNITS + PADDING, font_size=FONT_SIZE, point_radius=POINT_RADIUS,
        plot_left=plot_left, plot_right=plot_right, plot_top=plot_top, plot_bottom=plot_bottom,
        high_y=high_y, low_y=low_y, path="".join(path), points=tuple(points),
        high=TextLine(plot_left, plot_top - GAP - DESCENT_UNITS, high_text),
        low=TextLine(plot_left, low_baseline, low_text), current=current, ticks=ticks,
    )


def tick_anchors(count):
    """The first date starts at its tick, the last ends at it, any between are centred."""
    return ["start"] + ["middle"] * (count - 2) + ["end"] if count > 1 else ["middle"] * count

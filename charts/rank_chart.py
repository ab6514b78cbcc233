"""Geometry of a rank chart in SVG user units: one "dot strip" row per measure, each an axis from the
lowest to the highest value with a small mark per GPU, one GPU's mark larger and labelled with its value,
and the row's title with that GPU's rank at its right."""
from dataclasses import dataclass

from core.exact_numbers import exact

from .text import ASCENT_UNITS, DESCENT_UNITS, FONT_SIZE, LINE_HEIGHT, PADDING, WIDTH, TextLine, text_width, wrap

POINT_RADIUS = 6
CURRENT_RADIUS = 10
GAP = 4  # between a mark and the text above or below it
TITLE_GAP = 16  # least room between a row's title and its rank
ROW_GAP = 22
# The strip runs between these, so the largest mark at either end stays inside the drawing.
STRIP_LEFT = PADDING + CURRENT_RADIUS
STRIP_RIGHT = WIDTH - PADDING - CURRENT_RADIUS



@dataclass(frozen=True)
class RankRow:
    title: tuple  # TextLines from the left
    rank: TextLine  # ends at the right edge, on the title's first line
    strip_y: int
    marks: tuple  # x of each GPU's mark, in the order given
    current_x: int | None  # the GPU's mark; None when it has no value for this measure
    current_label: TextLine | None  # the GPU's value, centred over its mark where the drawing allows
    low: TextLine  # the lowest value, under the strip's left end
    high: TextLine  # the highest value, ending under the strip's right end
    top: int
    bottom: int


@dataclass(frozen=True)
class RankChart:
    width: int
    height: int
    font_size: int
    point_radius: int
    current_radius: int
    strip_left: int
    strip_right: int
    rows: tuple


def position(value, low, high):
    """x of ``value`` on the strip; every mark sits in the middle when all values are equal."""
    if high == low:
        return (STRIP_LEFT + STRIP_RIGHT) // 2
    return STRIP_LEFT + round((value - low) / (high - low) * (STRIP_RIGHT - STRIP_LEFT))


def rank_row(top, title, rank_text, values, current, current_text, low_text, high_text):
    rank_width = text_width(rank_text, FONT_SIZE, bold=True)
    title_lines = wrap(title, FONT_SIZE, WIDTH - 2 * PADDING - rank_width - TITLE_GAP)
    first_baseline = top + ASCENT_UNITS
    title = tuple(TextLine(PADDING, first_baseline + n * LINE_HEIGHT, line) for n, line in enumerate(title_lines))
    label_baseline = title[-1].y + LINE_HEIGHT + GAP
    strip_y = label_baseline + DESCENT_UNITS + GAP + CURRENT_RADIUS
    values = [exact(value) for value in values]
    low, high = min(values, default=0), max(values, default=0)
    current_x = current_label = None
    if current is not None:
        current_x = position(exact(current), low, high)
        half = (text_width(current_text, FONT_SIZE, bold=True) + 1) // 2
        label_x = min(max(current_x, PADDING + half), WIDTH - PADDING - half)
        current_label = TextLine(label_x, label_baseline, current_text)
    ends_baseline = strip_y + CURRENT_RADIUS + GAP + ASCENT_UNITS
    return RankRow(
        title=title, rank=TextLine(WIDTH - PADDING, first_baseline, rank_text), strip_y=strip_y,
        marks=tuple(position(value, low, high) for value in values), current_x=current_x, current_label=current_label,
        low=TextLine(STRIP_LEFT - POINT_RADIUS, ends_baseline, low_text),
        high=TextLine(STRIP_RIGHT + POINT_RADIUS, ends_baseline, high_text),
        top=top, bottom=ends_baseline + DESCENT_UNITS,
    )


def rank_chart(rows):
    """Lay out ``rows``, each (title, rank text, the values of every GPU that has one, this GPU's value or
    None, its text, the lowest value's text, the highest value's text), one under the other."""
    laid, top = [], PADDING
    for row in rows:
        laid.append(rank_row(top, *row))
        top = laid[-1].bottom + ROW_GAP
    height = (laid[-1].bottom if laid else 0) + PADDING
    return RankChart(width=WIDTH, height=height, font_size=FONT_SIZE, point_radius=POINT_RADIUS,
                     current_radius=CURRENT_RADIUS, strip_left=STRIP_LEFT, strip_right=STRIP_RIGHT, rows=tuple(laid))

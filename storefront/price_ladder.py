"""The home page's price ladder: each GPU's best price for one GPU-hour, cheapest first, as a bar from
zero with the GPU's name at its left above it and the price at its right, both direct labels (no legend).

Geometry in SVG user units on the drawing every chart shares (``charts.text``: 640 wide, 21-unit text,
11.25 px on a 375 px phone). Pure Python: the caller writes every text in its language, the template only
writes these whole numbers into SVG attributes."""
from dataclasses import dataclass

from charts.text import ASCENT_UNITS, DESCENT_UNITS, FONT_SIZE, LINE_HEIGHT, PADDING, WIDTH, text_width
from core.exact_numbers import exact

BAR_HEIGHT = 12
BAR_GAP = 6  # between a row's text and its bar
ROW_GAP = 12
LABEL_GAP = 16  # least room between a GPU's name and its price on one line
MIN_BAR = 3  # a price near zero still shows a bar


@dataclass(frozen=True)
class Rung:
    name: str
    detail: str  # after the name, lighter: the memory
    price_text: str
    name_y: int  # baseline of the name
    price_y: int  # baseline of the price, at the right edge (the name's line, or the next when both do not fit)
    bar_y: int
    bar_length: int


@dataclass(frozen=True)
class PriceLadder:
    width: int
    height: int
    font_size: int
    bar_height: int
    left: int
    right: int
    rungs: tuple


def price_ladder(rows):
    """Lay out ``rows``, each (name, detail, price as an exact number, price text), cheapest first."""
    rows = sorted(rows, key=lambda row: (exact(row[2]), row[0]))
    highest = max((exact(price) for _name, _detail, price, _text in rows), default=0)
    span = WIDTH - 2 * PADDING
    rungs, top = [], PADDING
    for name, detail, price, price_text in rows:
        name_y = top + ASCENT_UNITS
        label = f"{name} {detail}".strip()
        fits_on_one_line = (text_width(label, FONT_SIZE, bold=True) + LABEL_GAP
                            + text_width(price_text, FONT_SIZE, bold=True)) <= span
        price_y = name_y if fits_on_one_line else name_y + LINE_HEIGHT
        bar_y = price_y + DESCENT_UNITS + BAR_GAP
        length = max(MIN_BAR, round(exact(price) / highest * span)) if highest else MIN_BAR
        rungs.append(Rung(name, detail, price_text, name_y, price_y, bar_y, length))
        top = bar_y + BAR_HEIGHT + ROW_GAP
    height = (top - ROW_GAP + PADDING) if rungs else 0
    return PriceLadder(width=WIDTH, height=height, font_size=FONT_SIZE, bar_height=BAR_HEIGHT,
                       left=PADDING, right=WIDTH - PADDING, rungs=tuple(rungs))

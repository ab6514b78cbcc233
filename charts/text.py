"""How much room a line of chart text takes, so chart layouts can keep labels apart and inside the drawing
without a browser to measure them.

The widths are DejaVu Sans's, the widest of the common system sans-serif fonts (the page's ``system-ui``
resolves to it on Linux; San Francisco, Segoe UI and Roboto are narrower), so an estimate errs on the
side of more room."""
import math
import unicodedata
from dataclasses import dataclass

# Advance widths in thousandths of an em; accented letters take their base letter's width.
CHARACTER_WIDTHS = {
    **dict.fromkeys("0123456789$€", 636),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
               (684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863,
                748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685), strict=True)),
    **dict(zip("abcdefghijklmnopqrstuvwxyz",
               (613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974,
                634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525), strict=True)),
    " ": 318, ".": 318, ",": 318, ":": 337, ";": 337, "(": 390, ")": 390, "-": 361, "/": 337, "%": 950,
    "#": 838, "≈": 838, "+": 838, "<": 838, ">": 838, "&": 780, "ß": 630, "º": 471, "°": 500,
    "\u00a0": 318, "\u202f": 318, "\u2009": 318,
}
UNKNOWN_WIDTH = 1000  # a character not in the table: as wide as an em
BOLD_FACTOR = 1.2  # DejaVu Sans Bold: words come out 9 % to 15 % wider, single letters up to 26 %
ASCENT, DESCENT = 0.76, 0.24  # of the font size, above and below the baseline

# The drawing every chart shares, in SVG user units: 640 wide, drawn 343 px wide on a 375 px phone (the
# page's 1 rem padding each side), where 21 units of font size are 11.25 px.
WIDTH = 640
FONT_SIZE = 21
LINE_HEIGHT = 26
PADDING = 4
ASCENT_UNITS = round(ASCENT * FONT_SIZE)
DESCENT_UNITS = round(DESCENT * FONT_SIZE)
# A baseline this far below a mark's centre centres the text on the mark.
MIDDLE_BASELINE = round((ASCENT - DESCENT) * FONT_SIZE / 2)


def character_width(character):
    if character in CHARACTER_WIDTHS:
        return CHARACTER_WIDTHS[character]
    base = unicodedata.normalize("NFD", character)[:1]
    return CHARACTER_WIDTHS.get(base, UNKNOWN_WIDTH)


def text_width(text, font_size, bold=False):
    """Width of ``text`` at ``font_size`` user units, rounded up to a whole unit."""
    thousandths = sum(character_width(character) for character in text)
    return math.ceil(thousandths * font_size * (BOLD_FACTOR if bold else 1) / 1000)


def wrap(text, font_size, width):
    """``text`` in lines no wider than ``width`` where spaces allow; a word wider than that stays whole."""
    lines = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", font_size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


@dataclass(frozen=True)
class TextLine:
    """One line of chart text, placed: its start (or anchor) and its baseline."""

    x: int
    y: int  # baseline
    text: str

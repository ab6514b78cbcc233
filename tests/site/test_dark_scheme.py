"""The dark colour scheme changes colours and nothing else: the site's one stylesheet redefines, for it, only
properties that hold a colour (or a shadow), and nothing else the pages carry depends on the scheme. The browser
gates lean on this: they judge a page in the dark scheme by axe's colour rules alone (tests/page_judges.py), every
other rule having judged the same markup and layout in the light one."""
import re

from django.conf import settings

STYLESHEET = settings.BASE_DIR / "static" / "css" / "site.css"
DARK = "@media (prefers-color-scheme: dark)"
COLOUR = r"(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([^()]*\))"
SHADOW = rf"(-?[\d.]+(rem|em|px)?\s+){{2,4}}{COLOUR}"
COLOUR_PROPERTIES = {"color", "background-color", "border-color", "outline-color", "fill", "stroke"}
# The sources of what a page is made of: templates, the chart drawers' markup, static files.
SOURCES = ("templates", "static", "*/templates", "charts")
SOURCE_SUFFIXES = {".html", ".css", ".js", ".py", ".svg"}


def blocks_after(css, opening):
    """The text inside each block that ``opening`` starts (its braces balanced)."""
    blocks = []
    for found in re.finditer(re.escape(opening), css):
        start = css.index("{", found.end()) + 1
        depth, position = 1, start
        while depth:
            depth += {"{": 1, "}": -1}.get(css[position], 0)
            position += 1
        blocks.append(css[start:position - 1])
    return blocks


def declarations(block):
    """(property, value) of every declaration inside ``block``, whatever rules hold them."""
    return [(name.strip(), value.strip()) for name, value in re.findall(r"([-\w]+)\s*:\s*([^;{}]+)", block)]


def without_comments(css):
    return re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)


def is_colour(value):
    return re.fullmatch(COLOUR, value) is not None or re.fullmatch(SHADOW, value) is not None


def test_the_dark_scheme_redefines_only_colours():
    css = without_comments(STYLESHEET.read_text())
    dark = [pair for block in blocks_after(css, DARK) for pair in declarations(block)]
    light_root = dict(declarations(blocks_after(css.split(DARK)[0], ":root")[0]))
    assert len(dark) >= 10  # the palette
    for name, value in dark:
        assert is_colour(value), (name, value)
        if name.startswith("--"):
            assert is_colour(light_root[name]), (name, light_root[name])
        else:
            assert name in COLOUR_PROPERTIES, name


def test_nothing_else_depends_on_the_scheme():
    mentions = {path.relative_to(settings.BASE_DIR).as_posix()
                for pattern in SOURCES for folder in settings.BASE_DIR.glob(pattern) if folder.is_dir()
                for path in folder.rglob("*") if path.is_file() and path.suffix in SOURCE_SUFFIXES
                and "prefers-color-scheme" in path.read_text(errors="ignore")}
    assert mentions == {"static/css/site.css", "templates/includes/page_head.html"}
    head = (settings.BASE_DIR / "templates" / "includes" / "page_head.html").read_text()
    # There only the browser's own colour for its bar, by scheme.
    assert [line for line in head.splitlines() if "prefers-color-scheme" in line] == [
        line for line in head.splitlines() if line.startswith('<meta name="theme-color"')]

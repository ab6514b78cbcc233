"""The legal pages' text format, simple enough for editors and escaped throughout: paragraphs separated by
an empty line, "## " starts a heading, lines starting with "- " make a list, web addresses become links."""
import re

from django.utils.html import escape, urlize
from django.utils.safestring import mark_safe

BLOCK_SEPARATOR = re.compile(r"\n[ \t]*\n")


def blocks(text):
    return [block.strip() for block in BLOCK_SEPARATOR.split(text.replace("\r\n", "\n")) if block.strip()]


def inline(text):
    return urlize(text, autoescape=True)


def render_block(block):
    lines = block.splitlines()
    if block.startswith("## "):
        return f"<h2>{escape(block[3:].strip())}</h2>"
    if all(line.startswith("- ") for line in lines):
        return "<ul>" + "".join(f"<li>{inline(line[2:].strip())}</li>" for line in lines) + "</ul>"
    return "<p>" + "<br>".join(inline(line.strip()) for line in lines) + "</p>"


def render_legal_text(text):
    return mark_safe("\n".join(render_block(block) for block in blocks(text)))


def first_paragraph(text):
    """The first block that is not a heading, as plain text (for the page's description)."""
    return next((" ".join(block.split()) for block in blocks(text) if not block.startswith("## ")), "")

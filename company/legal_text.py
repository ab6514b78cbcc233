"""The legal pages' text format, simple enough for editors and escaped throughout: paragraphs separated by
an empty line, "## " starts a heading, lines starting with "- " make a list, web addresses become links.

``{company}``, ``{privacy_email}`` and the other names of ``company.legal_fields`` are the company's
details, filled from the operator record: a line naming a detail that does not apply is left out (and a
heading left with nothing under it), a block holding only a list field becomes a list, and a detail not
yet filled shows as such, never as a bracketed placeholder."""
import contextlib
import re

from django.utils.html import escape, format_html, urlize
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from .completeness import Missing
from .legal_fields import NOT_APPLICABLE, legal_fields

BLOCK_SEPARATOR = re.compile(r"\n[ \t]*\n")
FIELD = re.compile(r"\{([a-z_]+)\}")


class LeftOut(Exception):
    """The line names a detail that does not apply."""


def blocks(text):
    return [block.strip() for block in BLOCK_SEPARATOR.split(text.replace("\r\n", "\n")) if block.strip()]


def not_filled(detail):
    return format_html('<mark class="not-filled">{}</mark>', _("not yet filled: %(detail)s")
                       % {"detail": detail.label})


def field_html(value):
    if value is NOT_APPLICABLE:
        raise LeftOut
    if isinstance(value, Missing):
        return not_filled(value)
    if isinstance(value, list):
        return "; ".join(field_html(item) for item in value)
    return "<br>".join(urlize(line, autoescape=True) for line in value.splitlines())


def inline(text, fields):
    """One line as HTML, its fields filled in; raises LeftOut."""
    html, position = [], 0
    for match in FIELD.finditer(text):
        html.append(urlize(text[position:match.start()], autoescape=True))
        name = match.group(1)
        html.append(field_html(fields[name]) if name in fields else escape(match.group(0)))
        position = match.end()
    html.append(urlize(text[position:], autoescape=True))
    return "".join(html)


def kept_lines(lines, fields):
    rendered = []
    for line in lines:
        with contextlib.suppress(LeftOut):
            rendered.append(inline(line, fields))
    return rendered


def render_block(block, fields):
    """The block as HTML; empty when every line of it was left out."""
    lines = block.splitlines()
    if block.startswith("## "):
        return f"<h2>{escape(block[3:].strip())}</h2>"
    whole_field = FIELD.fullmatch(block)
    if whole_field and isinstance(fields.get(whole_field.group(1)), list):
        items = [field_html(item) for item in fields[whole_field.group(1)]]
        return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
    if all(line.startswith("- ") for line in lines):
        items = kept_lines([line[2:].strip() for line in lines], fields)
        return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>" if items else ""
    kept = kept_lines([line.strip() for line in lines], fields)
    return "<p>" + "<br>".join(kept) + "</p>" if kept else ""


def render_legal_text(text, fields=None):
    fields = legal_fields() if fields is None else fields
    html, heading = [], None
    for block in blocks(text):
        rendered = render_block(block, fields)
        if block.startswith("## "):
            heading = rendered
        elif rendered:
            # A heading is written with the first block under it that is kept.
            html.extend([heading, rendered] if heading else [rendered])
            heading = None
    return mark_safe("\n".join(html))


def plain_field(value):
    if value is NOT_APPLICABLE:
        raise LeftOut
    if isinstance(value, Missing):
        return _("not yet filled: %(detail)s") % {"detail": value.label}
    if isinstance(value, list):
        return "; ".join(plain_field(item) for item in value)
    return " ".join(value.split())


def first_paragraph(text, fields=None):
    """The first block that is not a heading, as plain text (for the page's description)."""
    fields = legal_fields() if fields is None else fields
    for block in blocks(text):
        if block.startswith("## "):
            continue
        try:
            return " ".join(FIELD.sub(
                lambda match: plain_field(fields[match.group(1)]) if match.group(1) in fields else match.group(0),
                block).split())
        except LeftOut:
            continue
    return ""

import json

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

# As django.utils.html.json_script: characters that could end the script element are escaped.
JSON_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


@register.simple_tag
def json_ld(data):
    """A JSON-LD block. A data block is never executed, so the CSP needs no nonce for it: the page
    stays free of per-response bytes and is cached and compressed once."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(JSON_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(text))

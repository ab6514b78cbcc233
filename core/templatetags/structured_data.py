import json

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

# As django.utils.html.json_script: characters that could end the script element are escaped.
JSON_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


@register.simple_tag(takes_context=True)
def json_ld(context, data):
    """A JSON-LD block, with the response's CSP nonce."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(JSON_ESCAPES)
    return format_html('<script type="application/ld+json" nonce="{}">{}</script>',
                       context["request"].csp_nonce, mark_safe(text))  # noqa: S308 - escaped above

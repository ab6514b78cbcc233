"""``{% gpu_page_panels gpu %}``, ``{% gpu_row_links gpu price %}`` and
``{% gpu_signup_action gpu via="catalogue" %}`` (optionally ``count=8``, ``style="button"``): what the apps
above the catalogue registered for a GPU's page, its calculator row and any priced row
(``catalog.gpu_page_panels``), rendered in place, each from its own template and context only."""
from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from caching.fragments import render_cached

from .. import gpu_page_panels as registry

register = template.Library()


def render_all(fragments):
    return mark_safe("".join(render_to_string(fragment.template_name, fragment.context) for fragment in fragments))


def render_actions(fragments):
    """Like ``render_all``, each rendered once per language and context (``caching.fragments``): a catalogue
    or a table has one in every row, and a signup action is visitor-independent by contract
    (``register_signup_action``) and given only texts and numbers, so the same context always renders the same
    link."""
    return mark_safe("".join(render_cached(fragment.template_name, fragment.context) for fragment in fragments))


@register.simple_tag
def gpu_page_panels(gpu):
    return render_all(registry.panels(gpu))


@register.simple_tag
def gpu_row_links(gpu, usd_per_hour):
    return render_all(registry.row_links(gpu, usd_per_hour))


@register.simple_tag
def gpu_signup_action(gpu, via, count=None, style="link"):
    """The primary action for ``gpu`` (a GPU model instance), from the page ``via``: a link to the signup with
    the GPU (and ``count`` GPUs, for a configuration) preselected; empty when no app provides one."""
    return render_actions(registry.signup_actions(gpu, via, count=count, style=style))

"""``{% remembered_include "includes/x.html" name=value … %}``: ``{% include "includes/x.html" with name=value … only
%}`` whose markup is rendered once per language and values and kept (``core.remembered_markup``), for an include
that shows nothing but its values (strings, numbers, lists and dicts of them), the translations and the URLs. A
value that is not plain (a form, a model instance) makes it render every time, as an include would."""
from django import template

from ..remembered_markup import render_remembered

register = template.Library()


@register.simple_tag
def remembered_include(template_name, **values):
    return render_remembered(template_name, values)

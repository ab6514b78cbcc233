"""Rendered fragments and loaded content, in this process's ``memory`` alias (``caching.memory``): markup under a
key of everything it shows (``cached``, ``render_cached``), form fields per look (``CachedBoundField``), and content
loaded once per content version (``CachedContent``)."""
import dataclasses
import threading
from decimal import Decimal

from django.forms import BoundField
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

from .content_version import content_version
from .memory import memory_cache

PLAIN_VALUES = (type(None), bool, int, float, Decimal)
# Stands for the varying text in cached markup: no template or escaping makes it, and a filter or an escaping of it
# still shows its name.
HOLE_NAME = "everxtexthole"
HOLE = f"\x00{HOLE_NAME}\x00"


def frozen(value):
    """``value`` as a key equal only for values that render the same: plain values and strings (a safe string apart
    from a plain one, a lazy translation as its text), in lists, tuples, dicts (in order) and frozen dataclasses.
    TypeError for anything else (a model instance reads the database and its fields may change)."""
    if isinstance(value, str):
        return type(value).__name__, str(value)
    if isinstance(value, Promise):
        return "lazy", str(value)
    if isinstance(value, PLAIN_VALUES):
        return type(value).__name__, value
    if isinstance(value, (list, tuple)):
        return "list", tuple(map(frozen, value))
    if isinstance(value, dict):
        return "dict", tuple((name, frozen(item)) for name, item in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and value.__dataclass_params__.frozen:
        return type(value).__qualname__, frozen({field.name: getattr(value, field.name)
                                                 for field in dataclasses.fields(value)})
    raise TypeError(f"{type(value).__name__} is not a plain value")


def cached(key, render):
    """``render()``, kept under ``key`` (a tuple of plain values) until it is the least recently used."""
    return memory_cache().get_or_set(key, render)


def render_cached(template_name, context):
    """``render_to_string(template_name, context)`` once per language and context (every time when ``frozen``
    refuses a value): for a template that shows nothing but its context, the translations and the URLs."""
    try:
        key = ("template", template_name, get_language(), frozen(context))
    except TypeError:
        return render_to_string(template_name, context)
    return mark_safe(cached(key, lambda: render_to_string(template_name, context)))


def with_hole(value, text):
    """``value`` (strings in lists, tuples and dicts) with ``text`` replaced by ``HOLE``; ValueError where a safe
    string holds ``text`` (a template shows it unescaped)."""
    if isinstance(value, SafeData) and text in value:
        raise ValueError("a safe string holds the text")
    if isinstance(value, str):
        return value if isinstance(value, SafeData) else value.replace(text, HOLE)
    if type(value) in (list, tuple):
        return type(value)(with_hole(item, text) for item in value)
    return {name: with_hole(item, text) for name, item in value.items()} if type(value) is dict else value


def render_cached_around(template_name, context, text):
    """``render_cached`` once for every value of ``text`` (a string of the context, such as a page's query string):
    cached with ``HOLE`` in its place, the escaped ``text`` then put in; rendered as given where a safe string holds
    ``text`` or the template changed the placeholder (a filter, JSON or JavaScript escaping)."""
    try:
        filled = render_cached(template_name, with_hole(context, text)).replace(HOLE, escape(text)) if text else ""
    except ValueError:
        filled = ""
    if not filled or "\x00" in filled or HOLE_NAME in filled.lower():
        return render_cached(template_name, context)
    return mark_safe(filled)


class CachedBoundField(BoundField):
    """A form field whose field group and widget are rendered once per look (Django renders a field through half a
    dozen templates): a form's ``bound_field_class = CachedBoundField``."""

    def look(self):
        """Everything the field's HTML is made of (Django's field, label, error and widget templates read no more)."""
        field, errors = self.field, self.errors
        return (type(self.form), self.form.label_suffix, self.name, self.html_name, self.auto_id, get_language(),
                str(self.label), str(self.help_text), field.required, repr(self.initial), repr(self.value()),
                errors.error_class, errors.field_id, tuple(map(str, errors)),
                tuple((str(value), str(label)) for value, label in getattr(field, "choices", ())),
                tuple(sorted(field.widget.attrs.items())))

    def as_field_group(self):
        return cached(("field group", *self.look()), super().as_field_group)

    def __str__(self):
        return cached(("widget", *self.look()), super().__str__)


class CachedContent:
    """``load(version, *args)`` for the current content version, loaded once per version in this process (threads
    wait for the one loading); ``load`` returns an object whose ``version`` is the one it was loaded under. One entry
    per loader in the ``memory`` alias, a new version's value replacing the one before."""

    instances = []  # the tests put back what was loaded under their kept content version (tests/launch_version.py)

    def __init__(self, load):
        self.load, self.key, self.loading = load, ("content", load.__module__, load.__qualname__), threading.Lock()
        CachedContent.instances.append(self)

    def current(self, version):
        value = memory_cache().get(self.key)
        return value if value is not None and value.version == version else None

    def __call__(self, *args):
        if (value := self.current(version := content_version())) is None:
            with self.loading:
                if (value := self.current(version)) is None:
                    memory_cache().set(self.key, value := self.load(version, *args))
        return value

"""Markup rendered once and kept in this process: what a template makes of a context that decides it wholly.

``render_remembered(template_name, context)`` renders a template whose output depends on nothing but its
context, the active language's translations and the URL patterns (the site's header and footer, a signup link)
once per language and context; ``render_remembered_around(template_name, context, text)`` once for every value
of a text that varies more than the rest (a page's query string in its language links). ``remembered(key,
render)`` keeps what ``render()`` returns under a key the caller builds from everything the markup shows (a
catalogue row: the content version, the language, the GPU and its price change). ``RememberedBoundField`` renders
a form field once per look (its label, value, errors, choices…). Both share one store, the least recently used
dropped beyond ``REMEMBERED_MARKUP_BYTES``, so a flood of distinct pages cannot grow it; markup of an earlier
content version is never asked for again and ages out the same way."""
import dataclasses
import threading
from collections import OrderedDict
from decimal import Decimal

from django.forms import BoundField
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

REMEMBERED_MARKUP_BYTES = 16 * 1024 * 1024
PLAIN_VALUES = (type(None), bool, int, float, Decimal)
# What stands for a varying text in kept markup (render_remembered_around): no template or escaping makes it, and
# what a filter or an escaping makes of it still shows its name (HOLE_NAME).
HOLE_NAME = "everxtexthole"  # letters: no escaping changes them
HOLE = f"\x00{HOLE_NAME}\x00"


def frozen(value):
    """``value`` as a key that is equal only for values that render the same: plain values and strings (a safe
    string apart from a plain one, which is escaped), in lists, tuples, dicts and frozen dataclasses (by their
    fields). TypeError for anything else (a model instance reads the database and its fields may change)."""
    if isinstance(value, str):
        return type(value).__name__, str(value)
    if isinstance(value, Promise):  # a lazy translation: its text in the active language, part of the key
        return "lazy", str(value)
    if isinstance(value, PLAIN_VALUES):
        return type(value).__name__, value
    if isinstance(value, (list, tuple)):
        return "list", tuple(frozen(item) for item in value)
    if isinstance(value, dict):  # in its order: a template may show a dict's items in order
        return "dict", tuple((name, frozen(item)) for name, item in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and value.__dataclass_params__.frozen:
        return type(value).__qualname__, frozen({field.name: getattr(value, field.name)
                                                 for field in dataclasses.fields(value)})
    raise TypeError(f"{type(value).__name__} is not a plain value")


def markup_size(value):
    """The characters of the strings in ``value`` (a string, or a tuple of strings and flags)."""
    if isinstance(value, str):
        return len(value)
    return sum(markup_size(item) for item in value) if isinstance(value, tuple) else 0


class RememberedMarkup:
    """Markup (a string, or a tuple of strings and flags) by key, the least recently used dropped beyond ``max_bytes``;
    safe across threads (two threads missing the same key both render it, and store the same markup)."""

    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self.size = 0
        self.entries = OrderedDict()
        self.lock = threading.Lock()

    def get_or_render(self, key, render):
        with self.lock:
            markup = self.entries.get(key)
            if markup is not None:
                self.entries.move_to_end(key)
                return markup
        markup = render()
        with self.lock:
            previous = self.entries.pop(key, None)
            if previous is not None:
                self.size -= markup_size(previous)
            self.entries[key] = markup
            self.size += markup_size(markup)
            while self.size > self.max_bytes and self.entries:
                _key, dropped = self.entries.popitem(last=False)
                self.size -= markup_size(dropped)
        return markup

    def clear(self):
        with self.lock:
            self.entries.clear()
            self.size = 0


remembered_markup = RememberedMarkup(REMEMBERED_MARKUP_BYTES)


def remembered(key, render):
    return remembered_markup.get_or_render(key, render)


def render_remembered(template_name, context):
    """``render_to_string(template_name, context)``, once per language and context (rendered every time when the
    context holds a value ``frozen`` refuses)."""
    try:
        key = ("template", template_name, get_language(), frozen(context))
    except TypeError:
        return render_to_string(template_name, context)
    return mark_safe(remembered(key, lambda: render_to_string(template_name, context)))


def with_hole(value, text):
    """``value`` (strings and plain values in lists, tuples and dicts) with ``text`` replaced by ``HOLE`` in each
    string; any other value as it is (it shows its own text). ValueError where a safe string holds ``text``: a
    template shows it unescaped."""
    if isinstance(value, str):
        if isinstance(value, SafeData) and text in value:
            raise ValueError("a safe string holds the text")
        return value if isinstance(value, SafeData) else value.replace(text, HOLE)
    if type(value) in (list, tuple):
        return type(value)(with_hole(item, text) for item in value)
    if type(value) is dict:
        return {name: with_hole(item, text) for name, item in value.items()}
    return value


def render_remembered_around(template_name, context, text):
    """``render_remembered(template_name, context)`` kept once for every value of ``text``: a string the context
    holds that varies more than the rest of it (a page's query string, which every language link of the page
    ends with, one per visitor's input). The markup is kept with ``HOLE`` in its place and the escaped ``text`` put
    in, which is what the template makes of it wherever it shows it escaped and unfiltered (``{{ link.path }}``:
    escaping is character by character). Rendered as given when ``text`` is empty, a safe string holds it, or the
    template changed the placeholder (a filter, JSON or JavaScript escaping)."""
    if not text:
        return render_remembered(template_name, context)
    try:
        holed = with_hole(context, text)
    except ValueError:
        return render_remembered(template_name, context)
    markup = render_remembered(template_name, holed)
    filled = markup.replace(HOLE, escape(text))
    if "\x00" in filled or HOLE_NAME in filled.lower():
        return render_remembered(template_name, context)
    return mark_safe(filled)


def choices_look(choices):
    """Choices as plain text (labels may be lazy translations)."""
    return tuple((str(value), str(label)) for value, label in choices)


class RememberedBoundField(BoundField):
    """A form field whose field group (``as_field_group``) and widget (``{{ field }}``) are rendered once per look
    and kept: Django renders a field through half a dozen templates (the group, its label, help text, errors, the
    widget, each option), about half a millisecond a field. A form turns it on with
    ``bound_field_class = RememberedBoundField``."""

    def look(self):
        """Everything the field's HTML is made of (Django's field, label, error and widget templates read no
        more): the key of its rendering."""
        field, errors = self.field, self.errors
        return (
            type(self.form), self.form.label_suffix, self.name, self.html_name, self.auto_id, get_language(),
            str(self.label), str(self.help_text), field.required, repr(self.initial), repr(self.value()),
            errors.error_class, errors.field_id, tuple(str(error) for error in errors),
            choices_look(getattr(field, "choices", ())), tuple(sorted(field.widget.attrs.items())),
        )

    def as_field_group(self):
        return remembered(("field group", *self.look()), super().as_field_group)

    def __str__(self):
        return remembered(("widget", *self.look()), super().__str__)

"""Launch content read from TOML files into the database, the same way in every app: ``<name>.toml`` holds
what is the same in every language, ``<language>/<name>.toml`` the text in that language.

Loading is idempotent: by default it creates what is missing and fills translated fields that are empty,
never overwriting what an editor changed; ``reset`` makes the database equal to the files."""
import tomllib

from .pages import language_codes


def read_toml(path):
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def read_translations(content_dir, file_name):
    """``<language>/<file_name>`` in each language that has one: {language: its content}."""
    return {
        lang: read_toml(content_dir / lang / file_name)
        for lang in language_codes() if (content_dir / lang / file_name).exists()
    }


def apply(obj, values, reset):
    """Set ``values`` on ``obj``: all of them with ``reset``, else only fields that are empty."""
    changed = False
    for field, value in values.items():
        if (reset or getattr(obj, field) in (None, "")) and getattr(obj, field) != value:
            setattr(obj, field, value)
            changed = True
    return changed


def translated(values_by_language, field):
    """{``<field>_<language>``: its text} for each language whose content has ``field``."""
    return {f"{field}_{lang}": text[field] for lang, text in values_by_language.items() if field in text}


def load_ordered(model, parent, items_by_language, fields, reset):
    """A list of items under ``parent`` (a workload's sections or FAQs, the landing page's steps…), matched
    by position (their order number) across languages. ``parent``: {foreign key name: the parent}."""
    count = max((len(items) for items in items_by_language.values()), default=0)
    for position in range(count):
        obj, created = model.objects.get_or_create(
            **parent, order=position + 1,
            defaults=dict.fromkeys(fields, ""),
        )
        values = {}
        for lang, items in items_by_language.items():
            if position < len(items):
                values.update({f"{f}_{lang}": items[position][f] for f in fields})
        if apply(obj, values, reset or created):
            obj.save()
    if reset:
        model.objects.filter(**parent, order__gt=count).delete()

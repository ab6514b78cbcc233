"""The content version: one number in the shared cache that every editor change bumps.

Rendered pages are cached under a key that carries it, so any save, import or deletion makes every
page fresh in every language at once, on every app server that shares the cache."""
import secrets

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

CONTENT_VERSION_KEY = "content-version"


def starting_version():
    """A counter that starts again (the cache emptied or restarted) starts from a number no process has
    seen: a process that kept content of an earlier version (``workloads.snapshot``) then reloads it."""
    return secrets.randbelow(2**48) + 1


def content_version():
    version = cache.get(CONTENT_VERSION_KEY)
    if version is None:
        cache.add(CONTENT_VERSION_KEY, starting_version(), timeout=None)
        version = cache.get(CONTENT_VERSION_KEY)
    return version


def bump_content_version(**_signal_arguments):
    try:
        return cache.incr(CONTENT_VERSION_KEY)
    except ValueError:  # not in the cache yet (or evicted): any new number is fresh
        cache.add(CONTENT_VERSION_KEY, starting_version(), timeout=None)
        return cache.incr(CONTENT_VERSION_KEY)


def content_changed(**_signal_arguments):
    """Bump now, and again once the change is committed: a page rendered by another request between
    the two (still from the old data) is then never served under the final version."""
    bump_content_version()
    transaction.on_commit(bump_content_version)


def connect_content_signals():
    """Bump the version whenever a model of an app that holds page content changes."""
    for label in settings.CONTENT_APPS:
        for model in apps.get_app_config(label).get_models():
            uid = f"content-version-{model._meta.label_lower}"
            post_save.connect(content_changed, sender=model, dispatch_uid=f"{uid}-save")
            post_delete.connect(content_changed, sender=model, dispatch_uid=f"{uid}-delete")
    m2m_changed.connect(content_changed, dispatch_uid="content-version-m2m")

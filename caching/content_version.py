"""The content version: the one generation number of everything cached, kept in the shared cache and replaced by a
fresh random number at every content change, so that every page, fragment and loaded value is made again on every
app server. A process reads it at most once every ``CONTENT_VERSION_MAX_AGE`` seconds. While the shared cache is
unavailable, each such period gets a number nothing was stored under, and a change made meanwhile sets a fresh
number once the cache answers again (decision 21)."""
import logging
import secrets
import time

from django.conf import settings
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from . import shared
from .shared import CacheUnavailable, shared_cache

logger = logging.getLogger(__name__)
CONTENT_VERSION_KEY = "content-version"
_known = (None, 0.0)  # this process's copy: (version, time.monotonic() when read)
_bump_pending = False  # whether a change could not be counted


def starting_version():
    """A number no process has seen (48 random bits): nothing is cached under it."""
    return secrets.randbelow(2**48) + 1


def content_version():
    global _known, _bump_pending
    if _known[0] is not None and time.monotonic() - _known[1] < settings.CONTENT_VERSION_MAX_AGE:
        return _known[0]
    try:
        version = next_version() if _bump_pending else shared_cache(
            "get_or_set", CONTENT_VERSION_KEY, starting_version, timeout=None)
        _bump_pending = False
    except CacheUnavailable:
        version, _bump_pending = starting_version(), True
    _known = (version, time.monotonic())
    return version


def next_version():
    """Sets a fresh shared number and returns it; raises CacheUnavailable."""
    shared_cache("set", CONTENT_VERSION_KEY, version := starting_version(), timeout=None)
    return version


def bump_content_version(**_signal_arguments):
    """A fresh number for every process; None, and counted when it answers again, while the cache is unavailable."""
    global _known, _bump_pending
    try:
        _known, _bump_pending = (next_version(), time.monotonic()), False
    except CacheUnavailable:
        logger.error("Content changed while the shared cache is unavailable: counted when it answers again")
        _known, _bump_pending = (None, 0.0), True
    return _known[0]


def content_changed(**_signal_arguments):
    """Bump now, and again once the change is committed: a page rendered by another request between the two (from
    the old data) is never served under the final version."""
    bump_content_version()
    transaction.on_commit(bump_content_version)


def forget_known_state():
    """No version known and no outage noticed, as when this process started."""
    global _known, _bump_pending
    _known, _bump_pending = (None, 0.0), False
    shared.forget_outage()


def connect_content_signals(models):
    """Bump the version whenever one of ``models`` (``core.content_models``) changes, and only then."""
    for model in models:
        uid = f"content-version-{model._meta.label_lower}"
        post_save.connect(content_changed, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(content_changed, sender=model, dispatch_uid=f"{uid}-delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(content_changed, sender=field.remote_field.through,
                                dispatch_uid=f"{uid}-{field.name}-m2m")

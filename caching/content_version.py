"""The content version: the one generation number of everything cached, in the shared cache, bumped by every
editor change.

Rendered pages, fragments and loaded content are cached under keys (or Django's ``version=``) that carry it, so
any save, import or deletion makes every page fresh in every language, on every app server that shares the cache.
A process reads the shared number at most once every ``CONTENT_VERSION_MAX_AGE`` seconds (a round trip per request
would cost the database cache most of its speed), so a change reaches every other process within that time, and the
process that made it at once.

With the shared cache unavailable the version is unknown: each second gets a number nothing was stored
under, so pages and content are read from the database. A process that saw the cache unavailable bumps
the version as soon as it answers again, so that a change made meanwhile (whose bump was lost) is not
hidden behind pages cached before the outage."""
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

# This process's copy: (version, time.monotonic() when read); and whether a change could not be counted.
_known = (None, 0.0)
_bump_pending = False


def starting_version():
    """A counter that starts again (the cache emptied or restarted) starts from a number no process has
    seen: a process that cached content of an earlier version then loads it again."""
    return secrets.randbelow(2**48) + 1


def content_version():
    global _known, _bump_pending
    version, read_at = _known
    if version is not None and time.monotonic() - read_at < settings.CONTENT_VERSION_MAX_AGE:
        return version
    try:
        if _bump_pending:
            version, _bump_pending = next_version(), False
        else:
            version = shared_cache("get", CONTENT_VERSION_KEY)
            if version is None:
                shared_cache("add", CONTENT_VERSION_KEY, starting_version(), timeout=None)
                version = shared_cache("get", CONTENT_VERSION_KEY)
    except CacheUnavailable:
        # A change made meanwhile (here, or by a process that cannot tell) may be missing from the shared
        # number when the cache comes back: this process bumps it then.
        version, _bump_pending = None, True
    # Unknown (the cache unavailable): a number nothing was stored under, kept as a read one would be, so
    # content is reloaded from the database once a second rather than on every call.
    _known = (version or starting_version(), time.monotonic())
    return _known[0]


def next_version():
    """Adds one to the shared number and returns it; raises CacheUnavailable."""
    try:
        return shared_cache("incr", CONTENT_VERSION_KEY)
    except ValueError:  # not in the cache yet (or evicted): any new number is fresh
        shared_cache("add", CONTENT_VERSION_KEY, starting_version(), timeout=None)
        return shared_cache("incr", CONTENT_VERSION_KEY)


def bump_content_version(**_signal_arguments):
    global _known, _bump_pending
    try:
        version = next_version()
    except CacheUnavailable:
        logger.error("Content changed while the shared cache is unavailable: counted when it answers again")
        _known, _bump_pending = (None, 0.0), True
        return None
    _known, _bump_pending = (version, time.monotonic()), False
    return version


def content_changed(**_signal_arguments):
    """Bump now, and again once the change is committed: a page rendered by another request between
    the two (still from the old data) is then never served under the final version."""
    bump_content_version()
    transaction.on_commit(bump_content_version)


def forget_known_state():
    """This process knows no version and no outage of the shared cache, as when it started."""
    global _known, _bump_pending
    _known, _bump_pending = (None, 0.0), False
    shared.forget_outage()


def connect_content_signals(models):
    """Bump the version whenever one of ``models`` (the content, ``core.content_models``) changes, and only then:
    a signup, a mail sent, a permission given or a ``migrate`` leaves every cached page in place."""
    for model in models:
        uid = f"content-version-{model._meta.label_lower}"
        post_save.connect(content_changed, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(content_changed, sender=model, dispatch_uid=f"{uid}-delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(content_changed, sender=field.remote_field.through,
                                dispatch_uid=f"{uid}-{field.name}-m2m")

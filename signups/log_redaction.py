"""The forms' secret paths kept out of the logs: a confirmation link carries its token and an
unsubscribe link its key (a price alert's links too, registered by ``alerts``), and either in a log would let
whoever reads it confirm or unsubscribe someone.
gunicorn's access log (``gunicorn.conf.py``) and Django's request log (``SecretPathFilter``, in the
LOGGING setting: "Not Found: /es/registro/confirmar/<token>/") write ``…`` in their place
(``serving/access_log.py``)."""
import functools
import logging
import uuid

from django.urls import reverse
from django.utils import translation

from core.pages import language_codes
from serving.access_log import redacted_path

# The views whose last path segment is a secret, with a sample value to reverse them with: the signups' own,
# and those the apps above register (``register_secret_path_view``: the price alerts' links).
SAMPLE_TOKEN, SAMPLE_KEY = "sample", uuid.UUID(int=0)
SECRET_PATH_VIEWS = [("signups:confirm", "token", SAMPLE_TOKEN), ("signups:unsubscribe", "key", SAMPLE_KEY)]


def register_secret_path_view(view_name, argument, sample):
    """Called from an ``AppConfig.ready()``, before any request is logged (the prefixes are worked out once)."""
    if (view_name, argument, sample) not in SECRET_PATH_VIEWS:
        SECRET_PATH_VIEWS.append((view_name, argument, sample))


@functools.cache
def secret_path_prefixes():
    """The paths, in every language, that a secret follows: ``/es/registro/confirmar/`` and so on."""
    prefixes = []
    for language in language_codes():
        with translation.override(language):
            for view_name, argument, sample in SECRET_PATH_VIEWS:
                path = reverse(view_name, kwargs={argument: sample})
                prefixes.append(path.removesuffix(f"{sample}/"))
    return tuple(prefixes)


class SecretPathFilter(logging.Filter):
    """Redacts the secret paths among a log record's arguments: Django's request log passes the path as
    one ("Not Found: %s")."""

    def filter(self, record):
        if isinstance(record.args, tuple):
            record.args = tuple(
                redacted_path(arg, secret_path_prefixes()) if isinstance(arg, str) else arg
                for arg in record.args
            )
        return True

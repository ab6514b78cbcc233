"""The signups' secret paths kept out of the logs: a confirmation link carries its token and an
unsubscribe link its key (a price alert's links too), and either in a log would let whoever reads it confirm
or unsubscribe someone.
gunicorn's access log (``gunicorn.conf.py``) and Django's request log (``SecretPathFilter``, in the
LOGGING setting: "Not Found: /es/registro/confirmar/<token>/") write ``…`` in their place
(``core/access_log.py``)."""
import functools
import logging
import uuid

from django.urls import reverse
from django.utils import translation

from core.access_log import redacted_path
from core.pages import language_codes

# The views whose last path segment is a secret, with a sample value to reverse them with.
SECRET_PATH_VIEWS = (
    ("signups:confirm", "token", "sample"), ("signups:unsubscribe", "key", uuid.UUID(int=0)),
    ("signups:price_alert_confirm", "token", "sample"), ("signups:price_alert_delete", "key", uuid.UUID(int=0)),
)


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

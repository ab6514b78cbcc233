"""gunicorn in production (scripts/start-production.sh, the Dockerfile's entry point)."""
import contextlib
import logging
import multiprocessing
import os
import sys

from gunicorn.glogging import Logger

from serving.access_log import redacted_atoms
from serving.buffering_worker import BufferingWorker
from serving.log_text import RedactingFilter

# On gunicorn's error log itself: one instance, so that a configuration reload (``setup`` again) adds it once.
ERROR_LOG_REDACTION = RedactingFilter()


class RedactingLogger(Logger):
    """gunicorn's logger, whose access log never holds a full client address, a query string, a Referer,
    or a confirmation link's token or unsubscribe link's key (``serving/access_log.py``), and whose error log
    ("Invalid request from ip=…", "Error handling request …" with its traceback) holds no full IP or mail
    address either: every record of it passes the site's log redaction (``serving/log_text.py``)."""

    def setup(self, cfg):
        super().setup(cfg)
        # On the logger, not its handlers: whatever handlers the configuration gives it (a file, syslog).
        self.error_log.addFilter(ERROR_LOG_REDACTION)

    def atoms(self, resp, req, environ, request_time):
        # Imported here: the workers have Django set up when they log, the master reading this file has not.
        from signups.log_redaction import secret_path_prefixes

        return redacted_atoms(super().atoms(resp, req, environ, request_time), secret_path_prefixes())


def post_worker_init(worker):
    """Before a new worker takes a request, what Django otherwise does during the first requests that need it,
    each of them waiting (on a threaded worker, several threads doing it at once): read each language's
    translations, compile the URL patterns in each language and the email validator's regexes (their processor
    time: docs/benchmarks.md). None of it touches the database."""
    from django.conf import settings
    from django.core.validators import validate_email
    from django.urls import Resolver404, resolve, reverse
    from django.utils import translation

    for code, _name in settings.LANGUAGES:
        with translation.override(code), contextlib.suppress(Resolver404):
            # A path no pattern takes: every pattern of the language is compiled on the way.
            resolve(reverse("home") + "warm-up/-/")
    validate_email("warm-up@example.com")


bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
# Threads, each given a request only once the main loop has read it whole (serving/buffering_worker.py): a slow
# client holds no thread (docs/decisions/0019).
worker_class = BufferingWorker
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# Each worker listens on its own socket (SO_REUSEPORT) and the kernel spreads connections over them: on
# a shared socket one threaded worker, always ready to accept, would take every kept-alive connection.
reuse_port = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None  # empty: no access log
logger_class = RedactingLogger
# X-Forwarded-Proto (and the request's scheme) is believed only from these addresses: the TLS-terminating
# proxy in front, if any. None by default: a client cannot claim HTTPS for itself.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "")
certfile = os.environ.get("TLS_CERTFILE") or None
keyfile = os.environ.get("TLS_KEYFILE") or None
# gunicorn 25.1+ opens a control socket for its `gunicornc` tool by default, at one path per user
# ($XDG_RUNTIME_DIR or ~/.gunicorn/gunicorn.ctl): a second instance on the host (a deploy beside the old one)
# takes it over, and nothing here uses it.
control_socket_disable = True


def worker_exit(server, worker):
    """A worker that stops normally (a graceful stop has waited for its requests, up to graceful_timeout) ends its
    process at once, after flushing its log: Python's own teardown of a process holding Django and the site's content
    costs processor time and delays every stop (docs/benchmarks.md). Any other exit (the app failed to load, a boot
    error) keeps its status, which tells the master to stop rather than start the worker again."""
    leaving = sys.exc_info()[1]  # called while the worker's SystemExit passes through gunicorn's `finally`
    if isinstance(leaving, SystemExit) and leaving.code in (0, None):
        logging.shutdown()
        os._exit(0)

"""Tests: PostgreSQL from DATABASE_URL (``make test`` starts a throwaway server), fast hashing."""
import os

os.environ.setdefault("SECRET_KEY", "test-only-not-secret")

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Serve static files straight from the app folders, without collectstatic, each looked up when asked for:
# every test's client starts the middleware again, and a scan of every folder at each start is costly
# (docs/benchmarks.md).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Django's test set-up as tests/conftest.py takes it (django_test_environment): the test client's host, mail kept
# in django.core.mail.outbox (unless a test's worker process is given a mail server), no debug pages.
DEBUG = False
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "testserver"]  # noqa: F405
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")

# One process: a per-process cache is the shared one here, and the content version is read afresh on every request
# (a copy kept for a second would outlive the test). Each test starts with empty caches under the content version of
# the launch content as loaded (tests/launch_version.py).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "everx-tests"},
          "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "everx-test-pages"},
          "memory": {"BACKEND": "caching.memory.MemoryCache", "LOCATION": "everx-tests", "TIMEOUT": None}}
CONTENT_VERSION_MAX_AGE = 0
# Tests render many answers from one address; the tests of the limit set it (tests/core/test_render_limit.py).
RENDER_RATE_LIMIT = 0

# Test addresses are at .example (RFC 2606), which the signup forms refuse in production.
SIGNUP_ALLOWED_RESERVED_TLDS = ["example"]

# Tests post many forms from one client (127.0.0.1): the hourly cap on mail to addresses not confirmed is out of
# their way; its own tests (tests/optin/test_mail_cap.py) set it low.
OUTBOX_UNCONFIRMED_MAILS_PER_HOUR = 1_000_000

"""Tests: PostgreSQL from DATABASE_URL (``make test`` starts a throwaway server), fast hashing."""
import os

os.environ.setdefault("SECRET_KEY", "test-only-not-secret")

from .base import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Serve static files straight from the app folders, without collectstatic.
WHITENOISE_USE_FINDERS = True

# One process, and each test empties the cache: a per-process cache is the shared one here, and the
# content version is read afresh on every request (a copy kept for a second would outlive the test).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "everx-tests"}}
CONTENT_VERSION_MAX_AGE = 0

# Test addresses are at .example (RFC 2606), which the signup forms refuse in production.
SIGNUP_ALLOWED_RESERVED_TLDS = ["example"]

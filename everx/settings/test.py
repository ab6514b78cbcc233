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

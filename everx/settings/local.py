"""Development: DEBUG on, SQLite unless DATABASE_URL says otherwise, a throwaway secret."""
import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("SECRET_KEY", "development-only-not-secret")

from .base import *  # noqa: F403

# Serve static files straight from the app folders, picking up edits, without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Mail is printed to the console unless EMAIL_BACKEND says otherwise.
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")  # noqa: F405

"""Production: DEBUG off; SECRET_KEY and DATABASE_URL must be set; compressed, fingerprinted static files."""
from .base import *  # noqa: F403
from .base import env

DEBUG = False
env("DATABASE_URL", required=True)

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True

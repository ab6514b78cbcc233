"""Production: DEBUG off; SECRET_KEY, DATABASE_URL and SITE_URL must be set; HTTPS only; compressed,
fingerprinted static files served by whitenoise with far-future cache headers."""
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env, env_bool

DEBUG = False
env("DATABASE_URL", required=True)
SITE_URL = env("SITE_URL", required=True).rstrip("/")
if urlsplit(SITE_URL).scheme not in ("http", "https") or not urlsplit(SITE_URL).netloc:
    raise ImproperlyConfigured("SITE_URL must be the site's origin, such as https://www.example.com.")

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Fingerprinted files (name.0123456789ab.css) are cached for ten years by whitenoise whatever this says;
# this is for the others (favicon.ico, an unversioned name), which may change under the same URL.
WHITENOISE_MAX_AGE = 3600

# No SECURE_PROXY_SSL_HEADER: Django would believe a client's own X-Forwarded-Proto. Behind a
# TLS-terminating proxy, gunicorn takes the scheme from it only for the proxy's addresses
# (FORWARDED_ALLOW_IPS, gunicorn.conf.py) and passes it on as the request's scheme.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
# Load balancers and the container's health check probe over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", 2 * 365 * 24 * 3600))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
# The CSRF cookie's name with the __Host- prefix: only ever set over HTTPS, for this host, path /.
CSRF_COOKIE_NAME = "__Host-csrftoken"
SESSION_COOKIE_NAME = "__Host-sessionid"

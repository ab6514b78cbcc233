"""Production: DEBUG off; SECRET_KEY and DATABASE_URL must be set; HTTPS only; compressed, fingerprinted
static files served by whitenoise with far-future cache headers."""
from .base import *  # noqa: F403
from .base import env, env_bool

DEBUG = False
env("DATABASE_URL", required=True)

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_MAX_AGE = 365 * 24 * 3600  # only fingerprinted files get it; others get 60 s

# Behind a TLS-terminating proxy or load balancer that sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
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

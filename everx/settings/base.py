"""Settings shared by every environment. Everything that differs between machines is read from the
environment through ``env``; development gets safe defaults, production gets none for secrets."""
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env(name, default=None, *, required=False):
    value = os.environ.get(name)
    if value is None or value == "":
        if required:
            raise ImproperlyConfigured(f"Set the {name} environment variable.")
        return default
    return value


def env_bool(name, default=False):
    return str(env(name, default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in str(env(name, default)).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env("SECRET_KEY", required=True)
# Earlier keys, comma-separated, after a rotation: what they signed stays valid, and the erasures logged
# under them stay findable (optin/pseudonyms.py).
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
# The site's public origin: every absolute URL (mail links, canonical, hreflang, sitemap, social images,
# JSON-LD) is built on it, never on the request's Host header, which a visitor chooses. Required in
# production.
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    # modeltranslation patches the admin, so it comes before the admin (ours: pages of the apps' own).
    "modeltranslation",
    "staff.admin_site.EverXAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "csp",
    "corsheaders",
    "axes",
    # The staff's second factor: a TOTP device per account (staff/staff_login.py).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "caching",
    "core",
    # The app server's parts (gunicorn's worker, log redaction, /healthz) and the staff's side (the admin
    # site, its login and lockout, the Editors role): just above core, below every app that registers an admin.
    "serving",
    "staff",
    "company",
    # The one double opt-in (outbox, mail budget, erasure) every form that mails builds on.
    "optin",
    "catalog",
    # Above the catalogue: its admin adds the price edit and import to the GPU admin (its extension points).
    "prices",
    "open_data",
    "estimator",
    "workloads",
    "signups",
    "providers",
    "alerts",
    "demand",
    "storefront",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.CrossOriginResourcePolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Serves cached pages before the rest of the stack runs (caching/pages.py).
    "caching.pages.PageCacheMiddleware",
    # Compresses responses that are not compressed already (cached pages are stored compressed).
    "django.middleware.gzip.GZipMiddleware",
    # The open data feed's cross-origin headers (CORS_* below) and preflight answers.
    "corsheaders.middleware.CorsMiddleware",
    # The feed's other headers; before LocaleMiddleware, whose Vary it takes back there.
    "open_data.middleware.FeedHeadersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A wrong method gets the 405 of the view's allowed methods, before CSRF takes it for a forged form.
    "core.middleware.AllowedMethodsMiddleware",
    # Before the CSRF check, which reads the body: files are refused before one byte of them is kept.
    "core.middleware.NoFileUploadsMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): whether this session's login passed the second factor.
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Turns a login that django-axes refused into the lockout page (staff/login_lockout.py).
    "axes.middleware.AxesMiddleware",
    # Last, so it sees a view's database errors first: a 503 page instead of a 500.
    "core.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "everx.urls"
WSGI_APPLICATION = "everx.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(env("CONN_MAX_AGE", 60)),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers (two workers taking signups) wait for each other, up to 20 s, instead of failing
    # with "database is locked": a transaction takes the write lock when it begins (a read lock upgraded
    # later fails at once, timeout or not), and WAL lets readers go on meanwhile.
    # secure_delete: a deleted row's bytes are overwritten, not left in free pages (an erasure must erase);
    # optin.erasure also checkpoints the write-ahead log, which still holds the row's pages, after each erasure.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE", "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA secure_delete=ON",
    }
# A database that does not answer costs a connection attempt this many seconds (libpq's connect_timeout, at least
# 2; per address the host resolves to), then an OperationalError (the 503 page), never a thread held for ever.
# Every process (decision 30).
DATABASE_CONNECT_TIMEOUT = max(2, int(env("DATABASE_CONNECT_TIMEOUT", 5)))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, whose connections in the web server bound their waits (serving/postgresql, decision 30).
    DATABASES["default"]["ENGINE"] = "serving.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = DATABASE_CONNECT_TIMEOUT
# The web server's bounds on each query, in seconds (serving/database_limits.py, applied by everx/wsgi.py only: no
# command, migration, import, mail worker or backup gets them; decision 30): the server cancels a statement that runs
# longer, or waits longer for a lock, and the visitor gets the 503 page; a server that does not even answer that is
# given DATABASE_STATEMENT_TIMEOUT + DATABASE_NO_ANSWER_GRACE before the connection is closed. A verified staff
# member's admin requests (the price import, the demand CSV) get DATABASE_STAFF_STATEMENT_TIMEOUT and no lock
# timeout instead. 0: no bound.
DATABASE_STATEMENT_TIMEOUT = float(env("DATABASE_STATEMENT_TIMEOUT", 5))
DATABASE_LOCK_TIMEOUT = float(env("DATABASE_LOCK_TIMEOUT", 2))
DATABASE_STAFF_STATEMENT_TIMEOUT = float(env("DATABASE_STAFF_STATEMENT_TIMEOUT", 300))
DATABASE_NO_ANSWER_GRACE = float(env("DATABASE_NO_ANSWER_GRACE", 2))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Languages: Spanish, Portuguese and German first, English too. English is the x-default and the
# fallback for a model field left empty in another language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("es", _("Spanish")),
    ("pt", _("Portuguese")),
    ("de", _("German")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

MODELTRANSLATION_DEFAULT_LANGUAGE = LANGUAGE_CODE
MODELTRANSLATION_LANGUAGES = tuple(code for code, _name in LANGUAGES)
MODELTRANSLATION_FALLBACK_LANGUAGES = (LANGUAGE_CODE,)
# modeltranslation's admin tabs load jQuery UI from a CDN by default; the site serves its own copy.
JQUERY_UI_URL = "vendor/jquery-ui-1.13.3/jquery-ui.min.js"

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

ADMIN_URL = env("ADMIN_URL", "admin/").strip("/") + "/"
# Admin login lockout (staff/login_lockout.py): django-axes counts failed logins in the database, which
# every worker and server shares, per username from one address and per address, each against its own limit.
# No limit per username from every address: one a stranger could reach would lock the account out for everyone
# (issue 48); guessing spread over many addresses meets the second factor instead (staff/staff_login.py).
AXES_HANDLER = "staff.login_lockout.PerParameterLimitsHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
LOGIN_MAX_FAILURES_PER_USER = int(env("LOGIN_MAX_FAILURES_PER_USER", 5))
LOGIN_MAX_FAILURES_PER_ADDRESS = int(env("LOGIN_MAX_FAILURES_PER_ADDRESS", 20))
# Locked out while this many of the parameters above are at their limit: the handler counts those.
AXES_FAILURE_LIMIT = 1
# A lockout ends this long after the last attempt; failures further apart are not added up.
AXES_COOLOFF_TIME = timedelta(seconds=int(env("LOGIN_LOCKOUT_SECONDS", 15 * 60)))
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "staff.login_lockout.username"
AXES_CLIENT_IP_CALLABLE = "staff.login_lockout.address_group"
AXES_LOCKOUT_CALLABLE = "staff.login_lockout.lockout_response"
# No record of successful logins (axes.AccessLog): nothing is kept about editors that the lockout does not need.
AXES_DISABLE_ACCESS_LOG = True
# No banner in the log of every process and command at start.
AXES_VERBOSE = False
# Proxies in front of the app that append to X-Forwarded-For (0: use the connection's address).
TRUSTED_PROXY_COUNT = int(env("TRUSTED_PROXY_COUNT", 0))

# The open data feed (/data/…) may be read by scripts on any site, without credentials (django-cors-headers);
# no other path answers other origins.
CORS_URLS_REGEX = r"^/data/"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
# A script that revalidates its copy sends If-None-Match, which needs a preflight, and reads the ETag.
CORS_ALLOW_HEADERS = ["if-none-match"]
CORS_EXPOSE_HEADERS = ["ETag"]
CORS_PREFLIGHT_MAX_AGE = 86400

# The shared cache. Every process of every app server must see the same one, so it is never per process:
# Redis with REDIS_URL (the faster), else tables in the database (`manage.py createcachetable`: the start
# script and `make run` run it). Two aliases, so that pages can never push state out: "default" holds state
# for correctness (the content version) and never culls a live key;
# "pages" holds rendered pages only, bounded by PAGE_CACHE_MAX_BYTES (caching/pages.py) and emptied at
# will. With Redis, pages have their own database (REDIS_PAGES_URL, by default the next database number of
# REDIS_URL's server), since emptying it is FLUSHDB; run Redis without an eviction policy (its default).
REDIS_URL = env("REDIS_URL")


def next_redis_database(url):
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{int(parts.path.strip('/') or 0) + 1}"))


if REDIS_URL:
    # A Redis that is down or unreachable costs a request half a second, not a TCP timeout.
    REDIS_OPTIONS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                    "OPTIONS": REDIS_OPTIONS},
        "pages": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                  "LOCATION": env("REDIS_PAGES_URL") or next_redis_database(REDIS_URL), "OPTIONS": REDIS_OPTIONS},
    }
else:
    CACHES = {
        # Django's database cache with counters that several processes can share and no culling of live
        # keys (caching/database.py): past MAX_ENTRIES rows it only deletes expired ones.
        "default": {"BACKEND": "caching.database.DatabaseCache", "LOCATION": "django_cache",
                    "OPTIONS": {"MAX_ENTRIES": 10_000}},
        # Pages only; their bytes are bounded by PAGE_CACHE_MAX_BYTES before Django's culling could apply.
        "pages": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "page_cache",
                  "OPTIONS": {"MAX_ENTRIES": 100_000}},
    }
# This process's own cache of pages, fragments and loaded content, bounded in bytes (caching/memory.py).
CACHES["memory"] = {"BACKEND": "caching.memory.MemoryCache", "LOCATION": "everx", "TIMEOUT": None,
                    "OPTIONS": {"MAX_BYTES": int(env("MEMORY_CACHE_BYTES", 64 * 1024 * 1024))}}
# Asked before a page renders a visitor's own query (caching/pages.py): the per-client limit, 429 past it.
PAGE_RENDER_REFUSAL = "core.render_limit.refusal"
# Seconds a process keeps the content version it read before reading the shared one again: a change
# reaches every process within this time (caching/content_version.py).
CONTENT_VERSION_MAX_AGE = 1.0

# Whole-page cache (caching/pages.py), keyed by language, path and content version.
PAGE_CACHE_ENABLED = env_bool("PAGE_CACHE_ENABLED", True)
PAGE_CACHE_SECONDS = int(env("PAGE_CACHE_SECONDS", 24 * 3600))
# Bytes of pages the shared cache holds per content version (counted as the database cache stores them);
# beyond it pages are rendered and served without being stored (caching/pages.py).
PAGE_CACHE_MAX_BYTES = int(env("PAGE_CACHE_MAX_BYTES", 32 * 1024 * 1024))
# What browsers and a CDN in front are told: browsers revalidate (ETag), a CDN may keep a page briefly.
PAGE_BROWSER_MAX_AGE = int(env("PAGE_BROWSER_MAX_AGE", 0))
PAGE_SHARED_MAX_AGE = int(env("PAGE_SHARED_MAX_AGE", 60))
PAGE_STALE_WHILE_REVALIDATE = int(env("PAGE_STALE_WHILE_REVALIDATE", 600))

# Security headers. Pages carry no inline script or style; a nonce covers any that must be inline.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [NONE],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    },
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
CROSS_ORIGIN_RESOURCE_POLICY = "same-origin"
SESSION_COOKIE_SAMESITE = "Lax"
# Sessions are the staff's alone (visitors have none): a login lasts a working day, not Django's two weeks.
SESSION_COOKIE_AGE = int(env("SESSION_SECONDS", 12 * 3600))
# The authenticator apps' label of the site's accounts (manage.py staff_totp).
OTP_TOTP_ISSUER = "EverXCloud"
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Django logs the path of a failed request ("Not Found: /es/registro/confirmar/<token>/"): the token or
    # unsubscribe key in it is replaced before any handler sees it (signups/log_redaction.py).
    "filters": {"secret_paths": {"()": "signups.log_redaction.SecretPathFilter"},
                # No full IP or mail address in any line, and a bad Host header in one line (serving/log_text.py).
                "redacted": {"()": "serving.log_text.RedactingFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redacted"]}},
    # django-axes says at INFO what every login did; its warnings (failures, lockouts) are enough.
    "loggers": {"django.request": {"filters": ["secret_paths"]}, "axes": {"level": "WARNING"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
}

# Files served at the site root (favicon.ico), from root_files/.
WHITENOISE_ROOT = BASE_DIR / "root_files"

# Mail. Signup and application mails go through the outbox (optin/outbox.py): only the mail worker,
# `manage.py send_outbox --loop`, talks to the mail server (requests never wait on it) and retries what it
# refused. EMAIL_TIMEOUT bounds each attempt.
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env("EMAIL_PORT", 25))
EMAIL_HOST_USER = env("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = int(env("EMAIL_TIMEOUT", 10))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "EverXCloud <hello@localhost>")
OUTBOX_MAX_ATTEMPTS = int(env("OUTBOX_MAX_ATTEMPTS", 20))
# Forms' mails to addresses not confirmed (confirmations, "limit reached", acknowledgements) the worker sends in
# any hour, and the share of them one client network (an IPv4 address, an IPv6 /64) may take; beyond, mail waits
# for the next hour, never dropped (optin/origins.py, optin/outbox.py).
OUTBOX_UNCONFIRMED_MAILS_PER_HOUR = int(env("OUTBOX_UNCONFIRMED_MAILS_PER_HOUR", 600))
OUTBOX_UNCONFIRMED_SHARE_PERCENT = int(env("OUTBOX_UNCONFIRMED_SHARE_PERCENT", 5))
# Tests only: a folder where the mail worker stops at its hold points (optin/worker.py). Empty in production.
WORKER_TEST_HOLD_DIR = env("WORKER_TEST_HOLD_DIR", "")
# /healthz reports the mail queue as failing ("degraded") while the oldest mail waiting to be sent is
# older than this (optin/outbox_health.py).
MAIL_QUEUE_STALL_SECONDS = int(env("MAIL_QUEUE_STALL_SECONDS", 900))
# Signups never confirmed are deleted this many days after their confirmation was asked for, with their
# mails (optin/retention.py: the mail worker's loop, or `manage.py purge_unconfirmed`).
SIGNUP_UNCONFIRMED_RETENTION_DAYS = int(env("SIGNUP_UNCONFIRMED_RETENTION_DAYS", 30))
# A confirmation link (signups, price alerts) works this many days after its mail was sent (optin/confirmation.py).
# The privacy policy states both periods from these settings (company/legal_fields.py).
CONFIRMATION_LINK_VALID_DAYS = int(env("CONFIRMATION_LINK_VALID_DAYS", 7))
# The evidence of a consent (optin/consent_records.py) is kept this many months after its withdrawal (an
# unsubscribe, a deleted or lapsed alert, an erasure, a request never confirmed) while the operator record's
# "consent evidence kept" is empty; the operator record's value, once filled, wins.
CONSENT_EVIDENCE_RETENTION_MONTHS = int(env("CONSENT_EVIDENCE_RETENTION_MONTHS", 36))

# Signup and provider forms: submissions per client address (core/client_ip.py) and window (seconds),
# counted in the database (signups/rate_limit.py).
SIGNUP_RATE_LIMIT = int(env("SIGNUP_RATE_LIMIT", 10))
SIGNUP_RATE_LIMIT_WINDOW = int(env("SIGNUP_RATE_LIMIT_WINDOW", 3600))
# Renders the page cache does not serve (a page's answer to one visitor's query), per client (an IPv6 client by
# its /64) per window (core/render_limit.py); 0: no limit.
RENDER_RATE_LIMIT = int(env("RENDER_RATE_LIMIT", 60))
RENDER_RATE_LIMIT_WINDOW = int(env("RENDER_RATE_LIMIT_WINDOW", 60))
# Mails the forms may queue for one mailbox (confirmations, a refused price alert, a provider's acknowledgement),
# whatever asked for them and from where, per window (seconds), counted in the database (optin/mail_budget.py).
SIGNUP_MAILS_PER_ADDRESS = int(env("SIGNUP_MAILS_PER_ADDRESS", 3))
SIGNUP_MAILS_PER_ADDRESS_WINDOW = int(env("SIGNUP_MAILS_PER_ADDRESS_WINDOW", 24 * 3600))
# Special-use top-level domains the forms accept addresses at anyway (optin/addresses.py): none in
# production; the tests use .example.
SIGNUP_ALLOWED_RESERVED_TLDS = env_list("SIGNUP_ALLOWED_RESERVED_TLDS", "")
# The largest price file `import_prices` reads (prices/price_import.py): a CSV file is read as a stream, a
# JSON file whole, so JSON has its own, lower cap.
PRICE_IMPORT_MAX_BYTES = int(env("PRICE_IMPORT_MAX_BYTES", 200 * 1024 * 1024))
PRICE_IMPORT_MAX_JSON_BYTES = int(env("PRICE_IMPORT_MAX_JSON_BYTES", 20 * 1024 * 1024))
# Confirmed price alerts one mailbox may hold (alerts/price_alerts.py).
PRICE_ALERTS_PER_ADDRESS = int(env("PRICE_ALERTS_PER_ADDRESS", 20))
# A confirmed price alert lapses (is deleted) this many days after its confirmation or last renewal; this many
# days before that, a reminder mail offers a one-click renewal (alerts/lapse.py).
PRICE_ALERT_LIFETIME_DAYS = int(env("PRICE_ALERT_LIFETIME_DAYS", 180))
PRICE_ALERT_RENEWAL_NOTICE_DAYS = int(env("PRICE_ALERT_RENEWAL_NOTICE_DAYS", 14))
# An alert that mailed mails again no sooner than this many hours later, unless the price has fallen this many
# percent below both its target and the price it last mailed (alerts/price_alerts.py): price flips send no flood.
PRICE_ALERT_COOLDOWN_HOURS = int(env("PRICE_ALERT_COOLDOWN_HOURS", 24))
PRICE_ALERT_REFIRE_MARGIN_PERCENT = int(env("PRICE_ALERT_REFIRE_MARGIN_PERCENT", 10))
CSRF_FAILURE_VIEW = "core.errors.csrf_failure"

"""gunicorn in production (scripts/start-production.sh, the Dockerfile's entry point)."""
import multiprocessing
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
# Sync workers, one per core, were the steadiest here under keep-alive load.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_class = "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None  # empty: no access log
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
certfile = os.environ.get("TLS_CERTFILE") or None
keyfile = os.environ.get("TLS_KEYFILE") or None

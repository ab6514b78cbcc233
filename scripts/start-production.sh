#!/usr/bin/env bash
# Start the site in production. Needs SECRET_KEY, DATABASE_URL and SITE_URL; see README.md for the others.
#   scripts/start-production.sh            the web server: migrate, create the cache table, load missing
#                                          launch content, gunicorn
#   scripts/start-production.sh outbox     the mail worker, the only sender of mail: applies waitlist
#                                          signups, sends queued mails, retrying (one per site is enough)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export DJANGO_SETTINGS_MODULE=everx.settings.production
case "${1:-web}" in
  web)
    if [[ ${MIGRATE_ON_START:-true} == true ]]; then
      "$PY" manage.py migrate --noinput -v0
      "$PY" manage.py createcachetable  # the shared cache without REDIS_URL (does nothing with Redis)
      "$PY" manage.py load_launch_content
    fi
    exec "$(dirname "$PY")/gunicorn" --config gunicorn.conf.py everx.wsgi:application
    ;;
  outbox) exec "$PY" manage.py send_outbox --loop ;;
  *) echo "usage: $0 [web|outbox]" >&2; exit 2 ;;
esac

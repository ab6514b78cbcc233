#!/usr/bin/env bash
# Start the site in production: migrate, load any missing launch content, then gunicorn.
# Needs SECRET_KEY and DATABASE_URL; see README.md for the other variables.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export DJANGO_SETTINGS_MODULE=everx.settings.production
if [[ ${MIGRATE_ON_START:-true} == true ]]; then
  "$PY" manage.py migrate --noinput -v0
  "$PY" manage.py load_launch_content
fi
exec "$(dirname "$PY")/gunicorn" --config gunicorn.conf.py everx.wsgi:application

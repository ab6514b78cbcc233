#!/usr/bin/env bash
# Build steps of a production release: interface translations and fingerprinted, compressed static files.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export DJANGO_SETTINGS_MODULE=everx.settings.production
# Building needs no real secret or database; the running server gets both from its environment.
SECRET_KEY=build-only DATABASE_URL=${DATABASE_URL:-sqlite:///build-only.sqlite3} \
  "$PY" manage.py compilemessages --ignore=.venv -v0
SECRET_KEY=build-only DATABASE_URL=${DATABASE_URL:-sqlite:///build-only.sqlite3} \
  "$PY" manage.py collectstatic --noinput -v0

#!/usr/bin/env bash
# Build steps of a production release: interface translations and fingerprinted, compressed static files.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export DJANGO_SETTINGS_MODULE=everx.settings.production
# Building needs no real secret, database or address; the running server gets them from its environment.
export SECRET_KEY=build-only DATABASE_URL=${DATABASE_URL:-sqlite:///build-only.sqlite3} \
  SITE_URL=${SITE_URL:-https://build-only.invalid}
"$PY" manage.py compilemessages --ignore=.venv -v0
"$PY" manage.py collectstatic --noinput -v0

#!/usr/bin/env bash
# Start the site in production. Needs SECRET_KEY, DATABASE_URL and SITE_URL; see README.md for the others.
#   scripts/start-production.sh            the web server: migrate, create the cache table, load missing
#                                          launch content, the deploy checks (refuses to start on an
#                                          error, such as an incomplete operator record), gunicorn
#   scripts/start-production.sh outbox     the mail worker, the only sender of mail: applies waitlist
#                                          signups, sends queued mails, retrying (one per site is enough);
#                                          started again whenever it exits unasked
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
    if [[ -n ${OPERATOR_RECORD_FILE:-} ]]; then
      "$PY" manage.py load_operator_record "$OPERATOR_RECORD_FILE"  # company/operator-record.example.toml
    fi
    # Refuse to serve legal pages that are a draft: the deploy checks fail while the operator record
    # (company/) lacks a detail, each named in the message.
    "$PY" manage.py check --deploy --fail-level ERROR || {
      echo "Not starting: fix the errors above (fill the operator record with OPERATOR_RECORD_FILE=FILE, see company/operator-record.example.toml)." >&2; exit 1; }
    exec "$(dirname "$PY")/gunicorn" --config gunicorn.conf.py everx.wsgi:application
    ;;
  outbox)
    # Supervised, as gunicorn's master keeps its workers: a worker that exits for any reason but a stop asked
    # for (SIGTERM, SIGINT: passed on, and the mail in hand is finished) is started again after
    # OUTBOX_RESTART_DELAY seconds, so mail never stops for want of someone to restart it.
    stopping="" child=""
    trap 'stopping=1; [[ -n $child ]] && kill -TERM "$child" 2>/dev/null' TERM INT
    while true; do
      "$PY" manage.py send_outbox --loop & child=$!
      status=0
      wait "$child" || status=$?
      if [[ -n $stopping ]]; then
        wait "$child" 2>/dev/null || true  # the first wait ends at the signal; the worker finishes its mail
        exit 0
      fi
      echo "Mail worker exited with status $status; starting it again in ${OUTBOX_RESTART_DELAY:-5} s." >&2
      sleep "${OUTBOX_RESTART_DELAY:-5}" & child=$!
      wait "$child" || true
      [[ -n $stopping ]] && exit 0
    done
    ;;
  *) echo "usage: $0 [web|outbox]" >&2; exit 2 ;;
esac

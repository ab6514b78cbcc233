#!/usr/bin/env bash
# Build the production image and check it: it refuses to start without an operator record, runs as a
# non-root user, migrates and loads the content on start, answers /healthz and a workload page with the production headers, and Docker's HEALTHCHECK
# reports it healthy. Needs a running Docker engine (not part of `make test`: CI has none).
#   scripts/check-docker-image.sh
#   PYTHON_IMAGE=registry.example/python:3.11-slim-bookworm scripts/check-docker-image.sh   (a mirror)
set -euo pipefail
cd "$(dirname "$0")/.."
image=${IMAGE:-everx-web:check}
port=${PORT:-8137}
build_args=()
[[ -n ${PYTHON_IMAGE:-} ]] && build_args+=(--build-arg "PYTHON_IMAGE=$PYTHON_IMAGE")

docker build --network host "${build_args[@]}" -t "$image" .
name=everx-check-$$
cleanup() { docker rm -f "$name" >/dev/null 2>&1 || true; }
trap cleanup EXIT
# Host networking: the check needs no bridge (and works where the engine runs without iptables).
environment=(-e SECRET_KEY="check-only-$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
  -e DATABASE_URL=sqlite:////tmp/check.sqlite3 -e ALLOWED_HOSTS=127.0.0.1 -e PORT="$port"
  -e SITE_URL="http://127.0.0.1:$port" -e FORWARDED_ALLOW_IPS=127.0.0.1 -e SECURE_SSL_REDIRECT=false)
# Without an operator record the server refuses to start, naming what is missing.
if refused=$(docker run --rm --network host "${environment[@]}" "$image" 2>&1); then
  echo "FAIL: started without an operator record" >&2; exit 1
fi
grep -q '(legal_name) is empty' <<<"$refused" || { echo "FAIL: the refusal names no field: $refused" >&2; exit 1; }
# With one (fictional values), it starts.
docker run -d --name "$name" --network host "${environment[@]}" \
  -v "$PWD/tests/operator-record.fictional.toml:/run/operator-record.toml:ro" \
  -e OPERATOR_RECORD_FILE=/run/operator-record.toml "$image" >/dev/null

fail() { echo "FAIL: $*" >&2; docker logs "$name" 2>&1 | tail -30 >&2; exit 1; }
for _ in $(seq 60); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || fail "/healthz did not answer"
user=$(docker exec "$name" id -u)
[[ $user != 0 ]] || fail "runs as root"
# As the load balancer that terminated TLS would ask for it (FORWARDED_ALLOW_IPS trusts this address).
headers=$(curl -fsS -D - -o /tmp/everx-check-page.html -H "X-Forwarded-Proto: https" \
  "http://127.0.0.1:$port/es/gpu-entrenamiento-llm/")
grep -qi '^content-security-policy:' <<<"$headers" || fail "no Content-Security-Policy"
grep -qi '^strict-transport-security:' <<<"$headers" || fail "no HSTS"
grep -q 'H100 SXM' /tmp/everx-check-page.html || fail "the workload page has no table"
static=$(grep -o '/static/css/site\.[0-9a-f]*\.css' /tmp/everx-check-page.html | head -n 1)
[[ -n $static ]] || fail "no fingerprinted stylesheet"
curl -fsS -D - -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port$static" \
  | grep -qi 'cache-control: max-age=315360000' || fail "static files are not cached far-future"
for _ in $(seq 90); do
  health=$(docker inspect -f '{{.State.Health.Status}}' "$name")
  [[ $health == healthy ]] && break
  sleep 1
done
[[ $health == healthy ]] || fail "HEALTHCHECK says $health"
size=$(docker image inspect -f '{{.Size}}' "$image")
echo "OK: $image ($((size / 1000000)) MB) runs as uid $user, healthy, serves pages and fingerprinted static files"

# EverXCloud website, production image. Build: docker build -t everx-web .
# Run: docker run -e SECRET_KEY=… -e DATABASE_URL=postgres://… -e SITE_URL=https://… -e ALLOWED_HOSTS=… \
#        -p 8000:8000 everx-web
# and, beside it, the mail worker (the only sender of mail; one per site, same environment, no port; the script
# starts it again whenever it exits unasked, and --restart brings back the container itself):
#      docker run --restart unless-stopped -e SECRET_KEY=… -e DATABASE_URL=postgres://… -e SITE_URL=https://… \
#        -e EMAIL_HOST=… everx-web outbox

# The base image; a mirror's copy can be given with --build-arg PYTHON_IMAGE=… (scripts/check-docker-image.sh).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.lock ./
RUN python -m venv .venv && .venv/bin/pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock
COPY . .
# Interface translations and fingerprinted, compressed static files, made once at build time.
RUN PY=.venv/bin/python scripts/build-production.sh && rm -f build-only.sqlite3

FROM ${PYTHON_IMAGE} AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PORT=8000 HOST=0.0.0.0 \
    DJANGO_SETTINGS_MODULE=everx.settings.production PY=/app/.venv/bin/python
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin everx
WORKDIR /app
COPY --from=build --chown=everx:everx /app /app
USER everx
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["/app/.venv/bin/python", "-c", "import os, urllib.request as u; u.urlopen(u.Request(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz\", headers={'Host': os.environ.get('ALLOWED_HOSTS', 'localhost').split(',')[0]}), timeout=4)"]
ENTRYPOINT ["/app/scripts/start-production.sh"]

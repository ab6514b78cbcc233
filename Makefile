# The two commands of the contract: `make run` and `make test`. Everything they need is installed here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: run test install install-test messages db-ready lock

run: install messages db-ready
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

test: install-test messages
	scripts/install-test-system-packages.sh
	DJANGO_SETTINGS_MODULE=everx.settings.test scripts/with-throwaway-postgres.sh $(PY) -m pytest $(PYTEST_ARGS)

install: $(VENV)/.installed-run

install-test: $(VENV)/.installed-test

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: requirements.lock | $(VENV)/bin/python
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements.lock
	touch $@

$(VENV)/.installed-test: requirements-test.lock | $(VENV)/bin/python
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements-test.lock
	touch $@ $(VENV)/.installed-run

# Interface strings: locale/*/LC_MESSAGES/django.po compiled to .mo (gettext's msgfmt).
messages:
	@command -v msgfmt >/dev/null || scripts/apt-install.sh gettext
	$(PY) manage.py compilemessages --ignore=$(VENV) -v0

# The embedded SQLite database (or DATABASE_URL), migrated, with the launch content loaded.
db-ready:
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py load_launch_content

# Regenerate the lock files after changing pyproject.toml (needs uv: pip install uv).
lock:
	uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -o requirements.lock
	uv pip compile pyproject.toml --extra test --python-version 3.11 --generate-hashes -o requirements-test.lock

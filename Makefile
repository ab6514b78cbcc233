# The two commands of the contract: `make run` and `make test`. Everything they need is installed here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Python keeps compiled modules, and pytest the test modules it rewrote for its assertion messages (most of a
# test run's start in each worker otherwise), also where the environment asks it not to.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-fast test-later lint serve bench-lighthouse bench-pages bench-compare bench-import bench-history bench-history-feed bench-signups bench-flood bench-known-vs-new bench-slow-clients bench-social-images install install-test messages db-ready lock

# The mail worker (manage.py send_outbox --loop: the only sender of mail) runs beside the development
# server and is stopped with it.
run: install messages db-ready
	export SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)}; \
	$(PY) manage.py send_outbox --loop & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# Both run the tests in parallel, one pytest-xdist worker per core (WORKERS= overrides), each with its own
# PostgreSQL database and its own launch content; `make test WORKERS=0` runs them in one process. Each worker
# starts on half the tests, and one that runs out takes half of what another has left (worksteal).
WORKERS ?= auto
DIST := $(if $(filter 0,$(WORKERS)),,--dist worksteal)

test: install-test messages
	scripts/install-test-system-packages.sh
	$(MAKE) node_modules/.installed
	DJANGO_SETTINGS_MODULE=everx.settings.test scripts/with-throwaway-postgres.sh $(PY) -m pytest -n $(WORKERS) $(DIST) $(PYTEST_ARGS)

# The quick loop while changing code: the suite without the browser tests, the quality gates and the tests
# that start servers or other processes (pytest markers; tests/conftest.py refuses an unmarked one).
# Needs only PostgreSQL's server.
test-fast: install-test messages
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || scripts/apt-install.sh postgresql
	DJANGO_SETTINGS_MODULE=everx.settings.test scripts/with-throwaway-postgres.sh \
	  $(PY) -m pytest -n $(WORKERS) $(DIST) -m "not browser and not quality and not multiprocess" $(PYTEST_ARGS)

# The quick loop's tests on a later day (LATER=+100d, or an absolute "@2027-11-02 00:10:00"): libfaketime moves
# pytest's clock only (PostgreSQL keeps the real one). Finds a test, or a page, that holds only until some date.
LATER ?= +100d
test-later: install-test messages
	@command -v faketime >/dev/null || scripts/apt-install.sh faketime
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || scripts/apt-install.sh postgresql
	DJANGO_SETTINGS_MODULE=everx.settings.test scripts/with-throwaway-postgres.sh faketime -f "$(LATER)" \
	  $(PY) -m pytest -n $(WORKERS) $(DIST) -m "not browser and not quality and not multiprocess" $(PYTEST_ARGS)

# The linters, pinned in requirements-test.lock and configured in pyproject.toml: ruff on the Python code,
# djLint on the templates. Both must find nothing; .ci/run runs this before the tests.
lint: install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/djlint templates $(wildcard */templates) --lint --configuration pyproject.toml

# The production configuration on this machine: gunicorn, whitenoise, HTTPS-only settings. A local
# secret is made once in .secret_key; HTTPS is expected from a proxy, or give TLS_CERTFILE/TLS_KEYFILE.
# SITE_URL (the origin of absolute URLs) defaults to this server's own address. The mail worker (the only
# sender of mail) runs beside gunicorn, started again whenever it exits unasked, and is stopped with it. It
# refuses to start while the operator record is incomplete: fill it with OPERATOR_RECORD_FILE=FILE
# (company/operator-record.example.toml).
serve: install messages
	@test -s .secret_key || $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret_key
	SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} DATABASE_URL=$${DATABASE_URL:-sqlite:///$(CURDIR)/serve.sqlite3} \
	  scripts/build-production.sh
	export SECRET_KEY=$${SECRET_KEY:-$$(cat .secret_key)} DATABASE_URL=$${DATABASE_URL:-sqlite:///$(CURDIR)/serve.sqlite3} \
	  SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)}; \
	scripts/start-production.sh outbox & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	HOST=127.0.0.1 PORT=$(PORT) SECURE_SSL_REDIRECT=$${SECURE_SSL_REDIRECT:-false} scripts/start-production.sh

# Benchmarks (bench/README.md): each starts its own throwaway PostgreSQL and gunicorn, and prints figures.
bench-pages: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/page_speed.py

# Two trees' bench-pages alternated three times, side by side: make bench-compare OLD=../old NEW=.
bench-compare: install-test messages
	$(PY) bench/compare_trees.py $(OLD) $(NEW)

bench-lighthouse: install-test messages node_modules/.installed
	scripts/with-throwaway-postgres.sh $(PY) bench/lighthouse_scores.py

bench-import: install-test
	scripts/with-throwaway-postgres.sh $(PY) bench/price_import.py

bench-history: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/gpu_page_history.py

bench-history-feed: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/price_history_feed.py

bench-signups: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/signup_concurrency.py

bench-flood: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/cache_flood.py

bench-known-vs-new: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/known_vs_new.py

bench-slow-clients: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/slow_clients.py

bench-social-images: install-test messages
	scripts/with-throwaway-postgres.sh $(PY) bench/social_images.py

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

# The quality gates' judges (axe-core, the Nu HTML Checker, Lighthouse), pinned in package-lock.json.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

# Interface strings: locale/*/LC_MESSAGES/django.po compiled to .mo (gettext's msgfmt).
messages:
	@command -v msgfmt >/dev/null || scripts/apt-install.sh gettext
	$(PY) manage.py compilemessages --ignore=$(VENV) -v0

# The embedded SQLite database (or DATABASE_URL), migrated, with the cache table and the launch content.
db-ready:
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py createcachetable
	$(PY) manage.py load_launch_content

# Regenerate the lock files after changing pyproject.toml (needs uv: pip install uv).
lock:
	uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -o requirements.lock
	uv pip compile pyproject.toml --extra test --python-version 3.11 --generate-hashes -o requirements-test.lock

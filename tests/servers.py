"""Real servers for tests that need them: gunicorn with the production settings, against the test
database (whose rows a `transactional_db` test has committed), and Redis."""
import fcntl
import functools
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psycopg
from django.core.management import call_command
from django.db import connection
from django.test.utils import override_settings

PROJECT_DIR = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
# gunicorn as production starts it (scripts/start-production.sh), run from PROJECT_DIR.
GUNICORN_COMMAND = [str(VENV_BIN / "gunicorn"), "--config", "gunicorn.conf.py", "everx.wsgi:application"]
PRODUCTION_SECRET = "test-production-secret-key-long-enough-for-the-deploy-checks-0123456789"
# The origin the servers' absolute URLs are built on (canonical, sitemap, mail links).
SITE_URL = "https://www.everx.example"
# The table of the production settings' shared cache without REDIS_URL (everx/settings/base.py).
DATABASE_CACHE = {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "django_cache"}
# The servers' own aliases (everx/settings/base.py without REDIS_URL): state, and pages apart.
# This process's own cache (everx/settings/test.py), beside whichever shared cache a test starts.
MEMORY_CACHE = {"BACKEND": "caching.memory.MemoryCache", "LOCATION": "everx-tests", "TIMEOUT": None}
DATABASE_CACHES = {"default": {"BACKEND": "caching.database.DatabaseCache", "LOCATION": "django_cache"},
                   "pages": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "page_cache"}}


def stop(process, seconds=10):
    """Asks ``process`` to stop (SIGTERM) and waits for it; kills it if it has not stopped within ``seconds``."""
    process.terminate()
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_database_url():
    """The database the test run is using, as a URL a subprocess can connect to."""
    settings = connection.settings_dict
    host = settings["HOST"] or ""
    host = host.replace("/", "%2F")
    auth = settings["USER"] + (f":{settings['PASSWORD']}" if settings["PASSWORD"] else "")
    port = f":{settings['PORT']}" if settings["PORT"] else ""
    return f"postgres://{auth}@{host}{port}/{settings['NAME']}"


def production_env(**extra):
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update({
        "DJANGO_SETTINGS_MODULE": "everx.settings.production",
        "SECRET_KEY": PRODUCTION_SECRET,
        "DATABASE_URL": test_database_url(),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": SITE_URL,
        "SECURE_SSL_REDIRECT": "false",
        "MIGRATE_ON_START": "false",
        "GUNICORN_ACCESS_LOG": "",
    })
    env.update(extra)
    return env


@functools.cache
def collect_static():
    """Fingerprinted, compressed static files, as the production build makes them: once per test run, by
    whichever pytest-xdist worker asks first. The others wait on the lock and find the run's mark, so no
    server ever reads a folder that another worker is rewriting."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", f"pid-{os.getpid()}")
    mark = PROJECT_DIR / "staticfiles" / ".collected-by-test-run"
    with open(PROJECT_DIR / ".collectstatic.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if mark.exists() and mark.read_text() == run:
            return
        env = production_env(DATABASE_URL="sqlite:///build-only.sqlite3")
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=PROJECT_DIR,
                       env=env, check=True, timeout=300)
        mark.write_text(run)


def empty_database_cache():
    """The servers' shared cache table in the test database, created if missing and emptied: what one
    test's servers cached (the content version among it) must not reach the next test's. The tests' own
    process uses a per-process cache (everx/settings/test.py)."""
    with override_settings(CACHES={**DATABASE_CACHES, "memory": MEMORY_CACHE}):
        call_command("createcachetable", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM django_cache")
        cursor.execute("DELETE FROM page_cache")


def wait_until_healthy(url, process, seconds=30):
    deadline = time.monotonic() + seconds
    # A server with TLS_CERTFILE has a test's own certificate, which nothing here is asked to trust.
    context = ssl._create_unverified_context() if url.startswith("https:") else None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2, context=context) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not become healthy in {seconds} s")


@contextmanager
def gunicorn_server(workers=1, log=None, **extra_env):
    """gunicorn with the production settings on a free loopback port; yields its base URL (https: with
    TLS_CERTFILE). Its output goes to ``log`` (a binary file, left open) when given, else to a temporary file."""
    empty_database_cache()
    with gunicorn_on(workers, log, **extra_env) as url:
        yield url


@contextmanager
def gunicorn_on(workers=1, log=None, **extra_env):
    """``gunicorn_server`` without touching the test database: for a server on a database of its own
    (``DATABASE_URL`` in ``extra_env``), whose cache tables are its own too."""
    if log is None:
        with tempfile.TemporaryFile() as own_log, gunicorn_on(workers, own_log, **extra_env) as url:
            yield url
        return
    port = free_port()
    env = production_env(HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY=str(workers), **extra_env)
    process = subprocess.Popen(GUNICORN_COMMAND, cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"{'https' if extra_env.get('TLS_CERTFILE') else 'http'}://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process)
        yield url
    except RuntimeError:
        log.seek(0)
        raise RuntimeError(log.read().decode(errors="replace")[-3000:]) from None
    finally:
        stop(process)


@contextmanager
def shared_gunicorn_server(django_db_blocker, **options):
    """``gunicorn_server(**options)`` for a fixture wider than one test, whose tests read pages and change no
    content: the database is opened for the start alone (which empties the servers' cache table). Each test
    still asks for ``live_launch_content``; what it puts back is the content the server has been serving."""
    with ExitStack() as stack:
        with django_db_blocker.unblock():
            url = stack.enter_context(gunicorn_server(**options))
        yield url


@contextmanager
def redis_server():
    """A throwaway Redis on a free loopback port, no persistence; yields its URL."""
    with redis_process() as (url, _process):
        yield url


@contextmanager
def redis_process(port=None):
    """A throwaway Redis on a free loopback port (or ``port``), no persistence; yields its URL and its
    process, for a test that stops it."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (make test installs it)")
    port = port or free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        process.terminate()
        process.wait(timeout=10)


# The mail worker as production starts it (scripts/start-production.sh outbox), passing every fraction of a second.
WORKER_COMMAND = [sys.executable, "manage.py", "send_outbox", "--loop", "--interval", "0.2"]


@contextmanager
def mail_worker_process(smtp_port, log, **extra_env):
    """The mail worker (``manage.py send_outbox --loop``) with the production settings, against the test database
    and the SMTP server on ``smtp_port``; yields its process. Its output goes to ``log`` (a binary file)."""
    env = production_env(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1",
                         EMAIL_PORT=str(smtp_port), EMAIL_TIMEOUT="5", **extra_env)
    process = subprocess.Popen(WORKER_COMMAND, cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        stop(process, seconds=15)


class PostgresCluster:
    """A throwaway PostgreSQL server of a test's own, as scripts/with-throwaway-postgres.sh starts one: a fresh
    cluster in a temporary folder, on a unix socket there only, without fsync, with one database ``everx`` (``url``).
    Unlike the suite's server, which every pytest-xdist worker uses, it may be stopped (``stop``, immediate: the
    server's processes end at once, as in a crash) and started again (``start``) under a running site."""

    # No fsync (the machine does not crash, only the server); but commits are synchronous, as by default: a commit
    # acknowledged before an immediate stop is in the WAL the server recovers from, not lost with its memory.
    OPTIONS = "-c listen_addresses='' -c fsync=off"

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="everx-pg-"))
        self.folder.chmod(0o755)
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(self.folder, "postgres")
        self.data = self.folder / "data"
        self.url = f"postgres://postgres@{str(self.folder).replace('/', '%2F')}/everx"

    def run(self, *command, check=True):
        """A program of the newest PostgreSQL installed, as the cluster's owner."""
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        postgres_bin = max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: int(path.parent.name))
        result = subprocess.run([*as_postgres, str(postgres_bin / command[0]), *map(str, command[1:])],
                                capture_output=True, text=True, check=False, timeout=120)
        assert result.returncode == 0 or not check, result.stdout + result.stderr

    def create(self):
        self.run("initdb", "-D", self.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8")
        self.start()
        self.run("createdb", "-h", self.folder, "-U", "postgres", "everx")

    def start(self):
        self.run("pg_ctl", "-D", self.data, "-l", self.folder / "server.log", "-w",
                 "-o", f"{self.OPTIONS} -k {self.folder}", "start")

    def stop(self):
        self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def remove(self):
        self.run("pg_ctl", "-D", self.data, "-m", "immediate", "stop", check=False)  # stopped already, or never started
        shutil.rmtree(self.folder, ignore_errors=True)

    def connect(self):
        """A connection of the test's own (psycopg, autocommit), beside Django's, which stays on the suite's
        database."""
        return psycopg.connect(host=str(self.folder), user="postgres", dbname="everx", autocommit=True)

    def rows(self, models):
        """How many rows each of ``models``' tables holds, by model name, read from the server itself."""
        with self.connect() as database:
            return {model.__name__: database.execute(f'SELECT count(*) FROM "{model._meta.db_table}"').fetchone()[0]
                    for model in models}

    def empty(self, models):
        """``models``' tables emptied, and what refers to them."""
        with self.connect() as database:
            database.execute("TRUNCATE " + ", ".join(f'"{model._meta.db_table}"' for model in models) + " CASCADE")

    def manage(self, *command, **extra_env):
        """``manage.py *command`` with the production settings on this cluster."""
        env = production_env(DATABASE_URL=self.url, **extra_env)
        result = subprocess.run([sys.executable, "manage.py", *command], cwd=PROJECT_DIR, env=env, capture_output=True,
                                text=True, check=False, timeout=300)
        assert result.returncode == 0, (command, result.stdout + result.stderr)
        return result.stdout + result.stderr


@contextmanager
def postgres_cluster():
    """A ``PostgresCluster`` created, and removed (its server stopped) at the end."""
    cluster = PostgresCluster()
    try:
        cluster.create()
        yield cluster
    finally:
        cluster.remove()


@contextmanager
def site_on_its_own_database(**extra_env):
    """gunicorn with the production settings on a ``PostgresCluster`` of its own, migrated and loaded as a deploy
    does, for a test that breaks the database under it: yields (its base URL, the cluster)."""
    collect_static()
    with postgres_cluster() as cluster:
        for command in (["migrate", "--noinput", "-v0"], ["createcachetable"], ["load_launch_content"]):
            cluster.manage(*command)
        with gunicorn_on(DATABASE_URL=cluster.url, **extra_env) as url:
            yield url, cluster

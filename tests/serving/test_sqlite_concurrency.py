"""SQLite under concurrent signups (the `make serve` default): writers wait for each other instead of
answering "database is locked" (503). Real gunicorn, two workers, on a SQLite file."""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from ..http_visitors import Browserless, submit_signup
from ..servers import PROJECT_DIR, collect_static, gunicorn_server, production_env

pytestmark = pytest.mark.multiprocess

SIGNUPS = 40


def test_concurrent_signups_on_sqlite_all_go_through(db, migrated_sqlite_url):
    env = production_env(DATABASE_URL=migrated_sqlite_url)
    for command in (["createcachetable"], ["load_launch_content"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=PROJECT_DIR, env=env, check=True,
                       capture_output=True, timeout=300)
    collect_static()
    with gunicorn_server(workers=2, DATABASE_URL=migrated_sqlite_url, SIGNUP_RATE_LIMIT=str(10 * SIGNUPS),
                         EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend") as url, \
            ThreadPoolExecutor(max_workers=SIGNUPS) as pool:
        statuses = list(pool.map(lambda n: submit_signup(Browserless(url), f"visitor{n}@example.com"),
                                 range(SIGNUPS)))
    assert statuses == [303] * SIGNUPS

"""A site on SQLite, as `make run` serves it: for the tests of what differs from PostgreSQL."""
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from .servers import PROJECT_DIR, production_env


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory):
    """A SQLite database migrated by ``manage.py migrate`` with the production settings, made once per worker (3 s
    alone): for the tests of a site on SQLite, which each start from a copy (``migrated_sqlite_url``)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "migrated.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=PROJECT_DIR,
                   env=production_env(DATABASE_URL=f"sqlite:///{path}"), check=True, capture_output=True, timeout=300)
    return path


@pytest.fixture
def migrated_sqlite_url(migrated_sqlite_template, tmp_path):
    """A fresh copy of the migrated SQLite database, in the test's folder, as its ``DATABASE_URL`` (SQLite's backup
    copies what its write-ahead log still holds too)."""
    path = tmp_path / "site.sqlite3"
    with closing(sqlite3.connect(migrated_sqlite_template)) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
    return f"sqlite:///{path}"

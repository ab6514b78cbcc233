"""An erasure on SQLite (the `make serve` default) erases (issue 48): with ``secure_delete`` the erased rows'
bytes are overwritten, and the write-ahead log that still held them is checkpointed and emptied, so neither the
database file nor its log holds the address afterwards. A real SQLite file, through the production settings."""
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from ..servers import PROJECT_DIR, production_env

pytestmark = pytest.mark.multiprocess

ADDRESS = "erase.me.completely@example.com"
SCRIPT = f"""
from signups.models import Signup
from optin.erasure import erase_person
from tests import factories
for number in range(30):
    factories.signup(email=f"other{{number}}@example.com")
factories.signup(email={ADDRESS!r})
factories.waitlist_request(email={ADDRESS.upper()!r})
erase_person({ADDRESS!r})
assert not Signup.objects.filter(email={ADDRESS!r}).exists()
"""


def test_an_erased_address_is_in_neither_the_database_file_nor_its_log(migrated_sqlite_url):
    env = production_env(DATABASE_URL=migrated_sqlite_url)
    path = Path(migrated_sqlite_url.removeprefix("sqlite:///"))
    # Another process's connection, idle, as the web server's are: the log is not folded in when the erasing
    # process closes its own.
    with closing(sqlite3.connect(path)) as other:
        other.execute("PRAGMA journal_mode=WAL")
        subprocess.run([sys.executable, "manage.py", "shell", "-c", SCRIPT], cwd=PROJECT_DIR, env=env,
                       check=True, capture_output=True, timeout=120)
        files = [candidate for candidate in (path, path.with_name(path.name + "-wal")) if candidate.exists()]
        held = b"".join(candidate.read_bytes() for candidate in files).lower()
    assert b"other29@example.com" in held  # what was not erased is there to be found
    assert ADDRESS.encode() not in held

"""What the mail worker (``manage.py send_outbox``) does before each pass over the outbox, as the apps that
queue mail register it from their ``AppConfig.ready()`` (the waitlist applies its stored requests, each
queueing its confirmation mail): this app, below them, names none of them."""
import time
from pathlib import Path
from typing import NamedTuple

from django.conf import settings


class Chore(NamedTuple):
    label: str  # in the worker's output: "<label>: <n> applied."
    run: object  # run(limit) -> how many were done, at most ``limit``


_chores = []


def register_chore(label, run):
    chore = Chore(label, run)
    if chore not in _chores:
        _chores.append(chore)


def chores():
    return list(_chores)


# How long a hold point waits for its release at most: a test that forgot it cannot hang the worker for ever.
LONGEST_HOLD_SECONDS = 60


def hold_point(name):
    """A test hook, idle in production: with WORKER_TEST_HOLD_DIR set, the worker stops here (inside the
    transaction the caller holds, its locks held) after creating ``<name>.held`` in that folder, until a test
    creates ``<name>.release`` there. How the tests show what waits for the worker's commit."""
    folder = settings.WORKER_TEST_HOLD_DIR
    if not folder:
        return
    folder = Path(folder)
    (folder / f"{name}.held").touch()
    deadline = time.monotonic() + LONGEST_HOLD_SECONDS
    while not (folder / f"{name}.release").exists() and time.monotonic() < deadline:
        time.sleep(0.05)

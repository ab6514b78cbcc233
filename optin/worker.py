"""What the mail worker (``manage.py send_outbox``) does before each pass over the outbox, as the apps that
queue mail register it from their ``AppConfig.ready()`` (the waitlist applies its stored requests, each
queueing its confirmation mail): this app, below them, names none of them."""
from typing import NamedTuple


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

"""A value each process loads once per content version (``core.content_version``) and keeps until an
editor's change moves the version: the workload content, the landing page."""
import threading

from .content_version import content_version


class PerContentVersion:
    """Calling it returns ``load(version, *args)`` for the current content version, loaded at most once per
    version in this process (threads wait for the one loading). ``args`` are what the caller already fetched
    (used only when loading). ``load`` returns an object with a ``version`` attribute: the version it was
    loaded under."""

    def __init__(self, load):
        self._load = load
        self._current = None
        self._loading = threading.Lock()

    def __call__(self, *args):
        version = content_version()
        snapshot = self._current
        if snapshot is None or snapshot.version != version:
            with self._loading:
                snapshot = self._current
                if snapshot is None or snapshot.version != version:
                    snapshot = self._current = self._load(version, *args)
        return snapshot

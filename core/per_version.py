"""A value each process loads once per content version (``core.content_version``) and keeps until an
editor's change moves the version: the workload content, the landing page."""
import threading

from .content_version import content_version


class PerContentVersion:
    """Calling it returns ``load(version, *args)`` for the current content version, loaded at most once per
    version in this process (threads wait for the one loading). ``args`` are what the caller already fetched
    (used only when loading). ``load`` returns an object with a ``version`` attribute: the version it was
    loaded under. Every instance is listed in ``PerContentVersion.instances``."""

    instances = []

    def __init__(self, load):
        self._load = load
        self._current = None
        self._loading = threading.Lock()
        PerContentVersion.instances.append(self)

    def __call__(self, *args):
        version = content_version()
        snapshot = self._current
        if snapshot is None or snapshot.version != version:
            with self._loading:
                snapshot = self._current
                if snapshot is None or snapshot.version != version:
                    snapshot = self._current = self._load(version, *args)
        return snapshot

    def loaded(self):
        """The value loaded last, under the version it carries (None before the first call)."""
        return self._current

    def put_back(self, value):
        """Keeps ``value``, loaded before by this instance, as the one loaded last: found again while the content
        version is the one it carries (the tests put back the launch content's after a test that left it)."""
        self._current = value

"""The ``memory`` alias: what this process caches (rendered pages, fragments, loaded content), bounded in bytes.

Django's local-memory cache pickles every value on each set and get (a loaded snapshot of model instances would be
copied on every read) and bounds entries by count; this backend keeps values as they are (callers never mutate what
they get) and drops the least recently used beyond ``OPTIONS["MAX_BYTES"]``, an entry's size (``value_size`` of its
value, plus ``ENTRY_BYTES``) counted when it is stored. Instances of one ``LOCATION`` share one store, as Django
makes a backend instance per thread. Keys never leave the process, so any hashable key is taken as it is (a tuple of
plain values: no string to build and no validation per lookup)."""
import contextlib
import dataclasses
import functools
import numbers
import threading
import time
from collections import OrderedDict

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.signals import setting_changed

OBJECT_BYTES = 1024
ENTRY_BYTES = 100  # an entry besides its value: the key (not measured: a lookup's key may be large) and its slot
_stores = {}


def value_size(value):
    """Bytes ``value`` holds, roughly, as it is stored: the length of its strings and bytes (in containers and
    dataclasses), ``OBJECT_BYTES`` for any other object (a model instance), nothing for a number or None."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if value is None or isinstance(value, numbers.Number):
        return 0
    if isinstance(value, dict):
        return sum(value_size(name) + value_size(item) for name, item in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sum(value_size(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(value_size(getattr(value, field.name)) for field in dataclasses.fields(value))
    return OBJECT_BYTES


@functools.cache
def memory_cache():
    """``caches["memory"]``, looked up once: Django's cache handler costs 3 µs a call (a context-local lookup), five
    times a hit here, and a page looks up tens of fragments; this backend's instances share their store, so one
    serves every thread. Looked up again when ``CACHES`` changes (a test's ``override_settings``)."""
    return caches["memory"]


def forget_memory_cache(setting, **_signal_arguments):
    if setting == "CACHES":
        memory_cache.cache_clear()


setting_changed.connect(forget_memory_cache, dispatch_uid="caching-memory-cache")


class MemoryCache(BaseCache):
    def __init__(self, location, params):
        super().__init__(params)
        self.max_bytes = int(params.get("OPTIONS", {}).get("MAX_BYTES", 64 * 1024 * 1024))
        # (entries: key -> (value, expiry or None, size), [bytes held], lock), one per LOCATION.
        self.entries, self.held, self.lock = _stores.setdefault(location, (OrderedDict(), [0], threading.RLock()))

    def make_key(self, key, version=None):
        return key, self.version if version is None else version

    def get(self, key, default=None, version=None):
        key = self.make_key(key, version)
        entry = self.entries.get(key)  # no lock to read: each dict operation is atomic, and a page reads tens
        if entry is None or (entry[1] is not None and entry[1] <= time.time()):
            return default
        with contextlib.suppress(KeyError):  # dropped by another thread meanwhile
            self.entries.move_to_end(key)
        return entry[0]

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_key(key, version)
        size = ENTRY_BYTES + value_size(value)
        with self.lock:
            self._drop(key)
            if size <= self.max_bytes:
                self.entries[key] = (value, self.get_backend_timeout(timeout), size)
                self.held[0] += size
            while self.held[0] > self.max_bytes:
                self.held[0] -= self.entries.popitem(last=False)[1][2]

    def get_or_set(self, key, default, timeout=DEFAULT_TIMEOUT, version=None):
        value = self.get(key, self._missing_key, version)
        if value is self._missing_key:
            value = default() if callable(default) else default
            self.set(key, value, timeout, version)
        return value

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        with self.lock:
            if self.has_key(key, version):
                return False
            self.set(key, value, timeout, version)
            return True

    def delete(self, key, version=None):
        with self.lock:
            return self._drop(self.make_key(key, version))

    def _drop(self, made_key):
        entry = self.entries.pop(made_key, None)
        if entry is not None:
            self.held[0] -= entry[2]
        return entry is not None

    def clear(self):
        with self.lock:
            self.entries.clear()
            self.held[0] = 0

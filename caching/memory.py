"""The ``memory`` alias: this process's store of pages, fragments and loaded content, bounded in bytes (decision 22).

Django's local-memory cache pickles every value on each set and get, and bounds entries by count: this one keeps
values as they are (callers never mutate what they get) and drops the least recently used past ``MAX_BYTES``, an
entry counting ``ENTRY_BYTES`` and its value's ``value_size``. Entries never expire (their keys carry the content
version). Instances of one ``LOCATION`` share one store (Django makes one per thread)."""
import dataclasses
import functools
import numbers
import threading
from collections import OrderedDict

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.signals import setting_changed

OBJECT_BYTES = 1024
ENTRY_BYTES = 100  # an entry besides its value: its key (not measured: a lookup's key may be large) and its slot
_stores = {}


def value_size(value):
    """The length of ``value``'s strings and bytes (in containers and dataclasses), ``OBJECT_BYTES`` for any other
    object (a model instance), nothing for a number or None."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if value is None or isinstance(value, numbers.Number):
        return 0
    if isinstance(value, dict):
        value = value.items()
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = [getattr(value, field.name) for field in dataclasses.fields(value)]
    elif not isinstance(value, (list, tuple, set, frozenset)):
        return OBJECT_BYTES
    return sum(map(value_size, value))


@functools.cache
def memory_cache():
    """``caches["memory"]``, looked up once (Django's handler costs more per call than a hit)."""
    return caches["memory"]


def forget_memory_cache(setting, **_signal_arguments):
    if setting == "CACHES":  # a test's own caches
        memory_cache.cache_clear()


setting_changed.connect(forget_memory_cache, dispatch_uid="caching-memory-cache")


class MemoryCache(BaseCache):
    def __init__(self, location, params):
        super().__init__(params)
        self.max_bytes = int(params.get("OPTIONS", {}).get("MAX_BYTES", 64 * 1024 * 1024))
        # key -> (value, size), [bytes held], the lock of writes: one each per LOCATION.
        self.entries, self.held, self.lock = _stores.setdefault(location, (OrderedDict(), [0], threading.Lock()))

    def make_key(self, key, version=None):
        return key, self.version if version is None else version

    def get(self, key, default=None, version=None):
        key = self.make_key(key, version)
        if (entry := self.entries.get(key)) is None:  # no lock to read: each dict operation is atomic
            return default
        try:  # noqa: SIM105 (contextlib.suppress costs eight times this, and a page reads tens of entries)
            self.entries.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile
            pass
        return entry[0]

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key, size = self.make_key(key, version), ENTRY_BYTES + value_size(value)
        with self.lock:
            self.held[0] -= self.entries.pop(key, (None, 0))[1]
            if size <= self.max_bytes:
                self.entries[key] = value, size
                self.held[0] += size
            while self.held[0] > self.max_bytes:
                self.held[0] -= self.entries.popitem(last=False)[1][1]

    def get_or_set(self, key, default, timeout=DEFAULT_TIMEOUT, version=None):
        if (value := self.get(key, self._missing_key, version)) is self._missing_key:
            self.set(key, value := default() if callable(default) else default, timeout, version)
        return value

    def clear(self):
        with self.lock:
            self.entries.clear()
            self.held[0] = 0

"""The operator record as pages and mails read it: loaded once per content version in each process
(``caching.fragments``; a save of the record or a recipient bumps the version, company/apps.py), so a page
rendered uncached costs no query for it. The deploy check reads the database itself."""
from typing import NamedTuple

from caching.fragments import CachedContent

from .models import OperatorRecord


class CachedRecord(NamedTuple):
    version: int
    record: OperatorRecord


def load(version):
    record = OperatorRecord.current()
    if not record._state.adding:
        list(record.recipients.all())  # prefetched by current(): kept on the instance
    return CachedRecord(version, record)


cached_record = CachedContent(load)


def operator_record():
    """The record of the current content version (an unsaved empty one before any is saved)."""
    return cached_record().record

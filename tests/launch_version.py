"""One content version for the launch content as loaded, kept from test to test in a worker.

Each test starts with empty caches, but the content a process keeps per content version (the workload
snapshot, every GPU, cached markup: ``caching.fragments``, in the ``memory`` alias) depends only on the
database's committed rows, which each test finds as the test before it did (its transaction is rolled back;
only a test that commits changes them, and it drops the kept version). So a test starts under the version
the previous tests used, and finds that content already read. The version is left as soon as the test can
make the database or the settings differ from what that content was read from (putting the launch content
back, ``tests/launch_copy.py``, moves the version as a load does):

- a test that asks for a committed database or a server, or that starts processes, starts under a version
  nothing was kept under, as a process would after an editor's change;
- a test that writes to a content table (``core.content_models``) or changes the schema (any statement on
  the test's connection but a read or a write to another table), changes a setting or patches anything with
  ``monkeypatch`` moves to such a version at that moment, before it can read anything written or patched;
- a test that bumps the version as the site does after any change its pages show (a content model's, or the
  operator record's, whose tables the first sign does not watch) leaves it before the bump, so that the
  values loaded under the kept version are put back at its end (the bump itself sets a fresh random number);
and after any of these the test reads under its own version to its end. When it ends, the database and the settings
are as before it (its transaction rolled back, its settings and patches undone): the next test finds the kept
version again, with the values loaded under it (``caching.fragments.CachedContent``, saved when the test left) and
the pages rendered under it. After a test with a committed database or a server, the kept version is dropped: the
next test starts from a new one.
"""
import functools

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.signals import setting_changed
from django.db import connection

from caching import content_version
from caching.fragments import CachedContent

from .launch_copy import content_tables
from .markers import has_own_state

# Statements that leave the database as it was (a test's transaction and its savepoints included), and those
# that change rows of the table they name.
READS = ("SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK", "SHOW", "SET ")
ROW_WRITES = ("INSERT", "UPDATE", "DELETE")

_kept_version = None  # the version the launch content is read under in this process, while no test changed it
_left = False  # whether the running test left the kept version
# The kept version the running test left, and the values loaded under it: (version, [(loader, value)]).
_left_from = None
_caches_replaced = False  # whether the running test replaced the caches (override_settings(CACHES=…))


@functools.cache
def quoted_content_tables():
    return tuple(f'"{table}"' for table in content_tables())


def may_change_content(sql):
    statement = sql.lstrip().upper()
    if statement.startswith(READS):
        return False
    return not statement.startswith(ROW_WRITES) or any(table in sql for table in quoted_content_tables())


def set_shared_version(version):
    """The test caches' version (a local memory cache), read again at the next call."""
    caches["default"].set(content_version.CONTENT_VERSION_KEY, version, timeout=None)
    content_version.forget_known_state()


def leave_kept_version(setting=None, enter=True, **_signal_arguments):
    """From now on this test reads under a version nothing was kept under; the kept one, and the values loaded
    under it, are set aside for ``end_test`` to put back. While the caches themselves are replaced (by a database
    or Redis cache the test starts), the version is the replacing cache's, which never held the kept one."""
    global _left, _kept_version, _caches_replaced, _left_from
    if not _left and _kept_version is not None:
        loaded = [(loader, caches["memory"].get(loader.key)) for loader in CachedContent.instances]
        _left_from = _kept_version, [(loader, value) for loader, value in loaded
                                     if value is not None and value.version == _kept_version]
    _left, _kept_version = True, None
    if setting == "CACHES":
        _caches_replaced = enter
    if _caches_replaced:
        content_version.forget_known_state()
    else:
        set_shared_version(content_version.starting_version())


def note_statement(execute, sql, params, many, context):
    if not _left and may_change_content(sql):
        leave_kept_version()
    return execute(sql, params, many, context)


def start_test(item):
    """Called with empty caches: the test's content version, and a context that notes its writes."""
    global _left, _kept_version, _left_from
    _left, _left_from = False, None
    if has_own_state(item):
        leave_kept_version()
    else:
        if _kept_version is None:
            _kept_version = content_version.starting_version()
        set_shared_version(_kept_version)
    return connection.execute_wrapper(note_statement)


def end_test(item):
    """Called at the test's end, before its caches are emptied. A test that left the kept version without a
    committed database or a server puts it back, with the values loaded under it. Returns whether the pages
    rendered in this process may serve the next test: those kept under that version are still the content's (the
    pages of a test that left it are under a number no test reads again, and age out)."""
    global _kept_version, _left_from
    if _left and _left_from is not None and not has_own_state(item):
        _kept_version, loaded = _left_from
        for loader, value in loaded:
            caches["memory"].set(loader.key, value)
    _left_from = None
    return _kept_version is not None


def leaving_kept_version_first(patch):
    @functools.wraps(patch)
    def patch_after_leaving(*args, **kwargs):
        if not _left:
            leave_kept_version()
        return patch(*args, **kwargs)
    return patch_after_leaving


setting_changed.connect(leave_kept_version, dispatch_uid="tests-leave-kept-version")
# Looked up by name when called (content_changed, the signals' receiver, calls it so) and imported by name after this.
content_version.bump_content_version = leaving_kept_version_first(content_version.bump_content_version)


class LeavingMonkeyPatch(pytest.MonkeyPatch):
    """pytest's ``monkeypatch``, whose first patch leaves the kept version."""


for _name in ("setattr", "delattr", "setitem", "delitem", "setenv", "delenv", "syspath_prepend", "chdir"):
    setattr(LeavingMonkeyPatch, _name, leaving_kept_version_first(getattr(pytest.MonkeyPatch, _name)))


@pytest.fixture
def monkeypatch():
    """pytest's own fixture, with a ``LeavingMonkeyPatch``: what a test patches may change what its pages show."""
    patch = LeavingMonkeyPatch()
    yield patch
    patch.undo()


def forget_the_cache(keep_memory=False):
    """An empty cache, as this process would first see it: no outage noticed in the last second, no content version
    read (a test of an outage leaves both behind; the next test starts within the second). With ``keep_memory``,
    what this process cached in its ``memory`` alias stays: each page or loaded value is under the content version
    it was made from, and found again only under that version."""
    for alias in settings.CACHES:
        if not (keep_memory and alias == "memory"):
            caches[alias].clear()
    content_version.forget_known_state()


@pytest.fixture(autouse=True)
def kept_content_version(request, launch_content_put_back):
    """Each test starts with an empty cache (the database is rolled back between tests, the cache is not), under the
    content version the tests before it read the launch content under, unless it changes the database or the
    settings. The pages rendered under that version stay in the process's memory, as a server keeps them until the
    content changes; those of a test that left it go."""
    forget_the_cache(keep_memory=not has_own_state(request.node))
    with start_test(request.node):
        yield
    forget_the_cache(keep_memory=end_test(request.node))

"""The launch content as loaded, kept as PostgreSQL's COPY text of each content table, and put back in one go.

A transactional test's teardown empties every table; the next test that needs the launch content would load it
from the versioned data files again, through the ORM. Loaded once per worker and copied here, it is put back row
for row, with the same ids, by COPY, far quicker (docs/benchmarks.md)."""
import io
import time
import warnings

from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DatabaseError, connection, transaction

from caching.content_version import content_changed
from catalog.models import GPU, PricePoint
from core.content_models import content_models
from workloads.models import Workload

_copied = {}  # table → (its columns, its rows as COPY text), taken right after the session's load
tables_may_be_empty = False  # whether a test that commits (whose teardown empties every table) ran since the load


def load_launch_content():
    """The launch content, loaded as `make run` loads it, and copied."""
    call_command("load_launch_content", reset=True, stdout=io.StringIO())
    copy_launch_content()


def ensure_launch_content():
    """The launch content, put back if the tables are empty: put back as the session loaded it, or loaded again."""
    global tables_may_be_empty
    if not Workload.objects.exists() and not put_back_launch_content():
        load_launch_content()
    tables_may_be_empty = False


def content_tables():
    tables = []
    for model in content_models():
        tables.append(model._meta.db_table)
        tables += [field.remote_field.through._meta.db_table for field in model._meta.local_many_to_many]
    return tables


def copy_launch_content():
    """Keeps every content table's rows, as the session's load left them."""
    _copied.clear()
    with connection.cursor() as cursor:
        for table in content_tables():
            columns = ", ".join(f'"{column.name}"' for column in connection.introspection.get_table_description(
                cursor, table))
            with cursor.cursor.copy(f'COPY "{table}" ({columns}) TO STDOUT') as copy:
                _copied[table] = columns, b"".join(bytes(block) for block in copy)


def put_back_launch_content():
    """Writes the kept rows into the content tables, sets their id sequences past them, and moves the content
    version, as a load does. False, writing nothing, when nothing was kept, a content table holds rows or the
    tables changed (a test migrated them)."""
    if not _copied:
        return False
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(f'(SELECT 1 FROM "{table}" LIMIT 1)' for table in _copied))
            if cursor.fetchone() is not None:
                return False
            for table, (columns, rows) in _copied.items():
                with cursor.cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy:
                    copy.write(rows)
            for statement in connection.ops.sequence_reset_sql(no_style(), list(content_models())):
                cursor.execute(statement)
    except DatabaseError:
        return False
    content_changed()
    return True


def other_sessions():
    """The other sessions on this worker's test database: (pid, application, connected at, state, last query)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid, application_name, backend_start, state, left(query, 160) FROM pg_stat_activity"
                       " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return cursor.fetchall()


def wait_for_other_sessions(seconds=5):
    """Waits up to ``seconds`` for the sessions of other processes (servers a test stopped) to end, which would keep
    pytest-django from dropping the test database; names those left, so that the test that leaves one is found."""
    deadline = time.monotonic() + seconds
    while (left_open := other_sessions()) and time.monotonic() < deadline:
        time.sleep(0.1)
    if left_open:
        warnings.warn(f"sessions of other processes on the test database at the end of the run: {left_open}",
                      stacklevel=1)


def launch_prices_dated(moment):
    """The launch prices dated ``moment`` instead of the launch data's ``price_date`` (catalog/data/gpus.csv): a
    test of the 7-day change sets where the launch price falls in the window, whatever today's date."""
    PricePoint.objects.filter(source=PricePoint.Source.LAUNCH).update(time=moment)
    GPU.objects.exclude(price_updated_at=None).update(price_updated_at=moment)

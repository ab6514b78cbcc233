"""The launch content put back after a transactional test's teardown emptied the tables (tests/launch_copy.py)
equals the launch content loaded from the data files, row for row."""
from datetime import datetime

import pytest
from django.core.management import call_command
from django.db import connection

from .. import launch_copy
from ..launch_copy import ensure_launch_content, load_launch_content


def content_rows():
    """Every content table's rows in id order, times of saving left out (a load writes its own)."""
    rows = {}
    with connection.cursor() as cursor:
        for table in launch_copy.content_tables():
            cursor.execute(f'SELECT * FROM "{table}" ORDER BY 1')
            rows[table] = [tuple("a time" if isinstance(value, datetime) else value for value in row)
                           for row in cursor.fetchall()]
    return rows


@pytest.mark.django_db(transaction=True)
def test_the_put_back_content_equals_the_loaded_content():
    ensure_launch_content()
    call_command("flush", interactive=False, verbosity=0)
    load_launch_content()
    loaded = content_rows()
    assert loaded["catalog_gpu"] and loaded["workloads_workload"]
    call_command("flush", interactive=False, verbosity=0)
    assert launch_copy.put_back_launch_content()
    assert content_rows() == loaded


@pytest.mark.django_db(transaction=True)
def test_nothing_is_put_back_over_rows_already_there():
    ensure_launch_content()
    assert not launch_copy.put_back_launch_content()

"""Migration tests inside the test's own transaction: PostgreSQL rolls a schema change back with the rows, so
a test that migrates the database back, fills it as an earlier release would and migrates it forward leaves
nothing behind, where a transactional test would migrate forward again and empty every table at its end."""
import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets):
    """The database migrated to ``targets`` (app label and migration name pairs, or every leaf when None);
    returns the models as they were there."""
    with connection.cursor() as cursor:
        # The rows a test wrote in this transaction are checked now: PostgreSQL alters no table with a check
        # of its foreign keys still pending.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    executor = MigrationExecutor(connection)
    targets = executor.loader.graph.leaf_nodes() if targets is None else targets
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def migrations_rolled_back(db):
    """``migrate_to`` in a test whose transaction, schema changes included, is rolled back at its
    end (PostgreSQL's DDL is transactional): no migrating forward again, no emptied tables."""
    assert connection.in_atomic_block
    yield migrate_to
    # Content types a migration made or renamed in the rolled-back transaction went with it.
    ContentType.objects.clear_cache()

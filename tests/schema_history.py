"""Migration tests inside the test's own transaction: PostgreSQL rolls a schema change back with the rows, so
a test that migrates the database back, fills it as an earlier release would and migrates it forward leaves
nothing behind, where a transactional test would migrate forward again and empty every table at its end."""
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


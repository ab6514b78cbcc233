"""Django's PostgreSQL backend, whose connections in the web server bound every wait on a database that hangs
(``serving.database_limits``, decision 30): ENGINE "serving.postgresql" (everx/settings/base.py)."""
from django.db.backends.postgresql import base

from .. import database_limits


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        return database_limits.with_web_limits(super().get_connection_params())

    def get_new_connection(self, conn_params):
        return database_limits.connect(lambda: super(DatabaseWrapper, self).get_new_connection(conn_params))

"""Django's database cache with counters that several processes share, and that never culls a live key.

Django's ``incr`` reads, adds and writes back with the default timeout: two workers counting at once lose a count,
and each count moves the expiry. Here the row is locked while it is read and written (``SELECT … FOR UPDATE``;
SQLite's write lock, taken at the transaction's start by ``transaction_mode`` IMMEDIATE) and keeps its expiry.
Django culls a third of the keys in key order past ``MAX_ENTRIES``, the content version first: this alias holds
state (pages have their own, ``caching.pages``), so past ``MAX_ENTRIES`` it deletes expired rows only."""
import base64
import pickle

from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import connections, router, transaction
from django.utils.timezone import now


class DatabaseCache(DjangoDatabaseCache):
    def incr(self, key, delta=1, version=None):
        key, db = self.make_and_validate_key(key, version=version), router.db_for_write(self.cache_model_class)
        connection = connections[db]
        table, value_column, key_column = map(connection.ops.quote_name, (self._table, "value", "cache_key"))
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(f"SELECT {value_column} FROM {table} WHERE {key_column} = %s AND "
                           f"{connection.ops.quote_name('expires')} >= %s{lock}",
                           [key, connection.ops.adapt_datetimefield_value(now())])
            if (row := cursor.fetchone()) is None:
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]).encode())) + delta
            cursor.execute(f"UPDATE {table} SET {value_column} = %s WHERE {key_column} = %s",
                           [base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1"), key])
        return value

    def _cull(self, db, cursor, now, num):
        connection = connections[db]
        cursor.execute(f"DELETE FROM {connection.ops.quote_name(self._table)} "
                       f"WHERE {connection.ops.quote_name('expires')} < %s",
                       [connection.ops.adapt_datetimefield_value(now)])

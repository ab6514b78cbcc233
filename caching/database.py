"""Django's database cache with counters that several processes can share, and that never culls a live key.

Django's ``incr`` on the database cache reads the value, adds one and writes it back with the default
timeout: two workers counting at once lose a count, and every count moves the expiry (a 15-minute login
lockout ended after 5 minutes; the content version, kept without expiry, got one). Here the row is
locked while it is read and written (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's write lock, taken
at the start of the transaction by ``transaction_mode`` IMMEDIATE), and its expiry is left as it was.

Django culls a third of the keys in key order past ``MAX_ENTRIES``, and the content version sorts
first: this cache holds state for correctness only (pages have their own alias,
``caching.pages``), so past ``MAX_ENTRIES`` it deletes expired rows and nothing else."""
import base64
import pickle

from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import connections, models, router, transaction
from django.utils.timezone import now


class DatabaseCache(DjangoDatabaseCache):
    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table = quote_name(self._table)
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {quote_name('value')}, {quote_name('expires')} FROM {table} "
                f"WHERE {quote_name('cache_key')} = %s{lock}", [key])
            row = cursor.fetchone()
            if row is None or self._expires(connection, row[1]) < now():
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]).encode())) + delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {quote_name('value')} = %s WHERE {quote_name('cache_key')} = %s",
                [encoded, key])
        return value

    @staticmethod
    def _expires(connection, value):
        """The expiry column as an aware datetime, as Django's own reads convert it."""
        expression = models.Expression(output_field=models.DateTimeField())
        converters = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        for converter in converters:
            value = converter(value, expression, connection)
        return value

    def _cull(self, db, cursor, now, num):
        connection = connections[db]
        cursor.execute(
            f"DELETE FROM {connection.ops.quote_name(self._table)} WHERE {connection.ops.quote_name('expires')} < %s",
            [connection.ops.adapt_datetimefield_value(now)])

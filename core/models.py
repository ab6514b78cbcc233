"""State that every worker and server must agree on and that lives in the database, not the shared cache."""
from django.db import models


class SubmissionCount(models.Model):
    """How many times one client has sent one form in one fixed window (``signups/rate_limit.py``).

    Counted in the database rather than the shared cache: one statement counts and answers, and the
    count survives a cache that is flushed, down or culled (docs/decisions/0012-request-rate-limits.md).
    The key holds the form, the window's number and a keyed hash of the client's address, never the
    address itself; a row is deleted once its window has ended."""

    key = models.CharField(primary_key=True, max_length=200)
    count = models.PositiveIntegerField()
    window_ends_at = models.DateTimeField(db_index=True)

    def __str__(self):
        return f"{self.key}: {self.count}"

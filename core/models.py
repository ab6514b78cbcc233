"""State that every worker and server must agree on and that lives in the database, not the shared cache."""
from django.db import models


class SubmissionCount(models.Model):
    """How many times one client did one counted thing in one fixed window (``core.window_counts``): sent one form
    (``signups.rate_limit``) or asked for a page the page cache does not answer (``core.render_limit``). It stays
    in core because the render limit, core's own, counts in it, and core may not import an app above.

    Counted in the database rather than the shared cache: one statement counts and answers, and the
    count survives a cache that is flushed, down or culled (docs/decisions/0012-request-rate-limits.md).
    The key holds the scope (a form, or renders), the window's number and a keyed hash of the client's address,
    never the address itself; the mail worker's hourly purge deletes the rows of ended windows."""

    key = models.CharField(primary_key=True, max_length=200)
    count = models.PositiveIntegerField()
    window_ends_at = models.DateTimeField(db_index=True)

    def __str__(self):
        return f"{self.key}: {self.count}"

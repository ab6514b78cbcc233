import logging
import signal
import threading
import time

from django.core.management.base import BaseCommand
from django.db import DatabaseError, close_old_connections

from optin.outbox import send_due
from optin.retention import purge_unconfirmed
from optin.worker import chores
from serving.log_text import redacted_text

logger = logging.getLogger("optin.worker")

# How often the loop deletes the unconfirmed requests whose time is up (optin/retention.py).
PURGE_EVERY_SECONDS = 3600


class Command(BaseCommand):
    help = (
        "The mail worker: do the chores the apps registered (the waitlist applies its waiting requests, each "
        "queueing its confirmation mail), then send the outbox's due mails (new ones, and failed ones whose "
        "retry time has come). --loop keeps running, checking every --interval seconds, until stopped (Ctrl-C or "
        "SIGTERM), and once an hour deletes the requests never confirmed whose time is up (as purge_unconfirmed "
        "does)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="Keep running.")
        parser.add_argument("--interval", type=float, default=2.0, help="Seconds between passes with --loop.")
        parser.add_argument("--batch", type=int, default=100,
                            help="At most this many requests and mails per pass.")

    def handle(self, *args, loop=False, interval=2.0, batch=100, **options):
        if not loop:
            self.work(batch)
            return
        stopping = threading.Event()
        # Finish the mail in hand before stopping: a mail killed mid-send could be sent twice.
        signal.signal(signal.SIGTERM, lambda *_: stopping.set())
        signal.signal(signal.SIGINT, lambda *_: stopping.set())
        next_purge = time.monotonic()
        while not stopping.is_set():
            close_old_connections()
            try:
                self.work(batch)
                if time.monotonic() >= next_purge:
                    self.purge()
                    next_purge = time.monotonic() + PURGE_EVERY_SECONDS
            # The database is away, or not migrated yet (the web server migrates as both start): next pass.
            except DatabaseError as error:
                self.stderr.write(redacted_text(f"Outbox: database unavailable ({error})."))
            # Anything else is logged and the next pass comes: the worker never stops on an error (each mail's
            # is recorded on it by ``outbox.send``).
            except Exception:
                logger.exception("Mail worker: the pass failed; trying again in %s s.", interval)
            stopping.wait(interval)

    def work(self, batch):
        done = [(chore.label, self.run_chore(chore, batch)) for chore in chores()]
        sent, failed = send_due(batch)
        for label, count in done:
            if count:
                self.stdout.write(f"{label}: {count} applied.")
        if sent or failed:
            self.stdout.write(f"Outbox: {sent} sent, {failed} failed.")

    def run_chore(self, chore, batch):
        """A chore that fails leaves the others and the mails to go: logged, and tried again next pass."""
        try:
            return chore.run(batch)
        except DatabaseError:
            raise
        except Exception:
            logger.exception("Mail worker: %s failed; trying again next pass.", chore.label)
            return 0

    def purge(self):
        purged = purge_unconfirmed()
        if purged:
            self.stdout.write(f"Unconfirmed requests past their time, deleted: {purged}.")

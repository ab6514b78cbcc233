import signal
import threading

from django.core.management.base import BaseCommand
from django.db import InterfaceError, OperationalError, close_old_connections

from signups.outbox import send_due


class Command(BaseCommand):
    help = (
        "Send the outbox's due mails (new ones, and failed ones whose retry time has come). "
        "--loop keeps running, checking every --interval seconds, until stopped (Ctrl-C or SIGTERM)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="Keep running.")
        parser.add_argument("--interval", type=float, default=5.0, help="Seconds between passes with --loop.")
        parser.add_argument("--batch", type=int, default=100, help="At most this many mails per pass.")

    def handle(self, *args, loop=False, interval=5.0, batch=100, **options):
        if not loop:
            self.report(*send_due(batch))
            return
        stopping = threading.Event()
        # Finish the mail in hand before stopping: a mail killed mid-send could be sent twice.
        signal.signal(signal.SIGTERM, lambda *_: stopping.set())
        signal.signal(signal.SIGINT, lambda *_: stopping.set())
        while not stopping.is_set():
            close_old_connections()
            try:
                self.report(*send_due(batch))
            except (OperationalError, InterfaceError) as error:  # the database is away: try again next pass
                self.stderr.write(f"Outbox: database unavailable ({error}).")
            stopping.wait(interval)

    def report(self, sent, failed):
        if sent or failed:
            self.stdout.write(f"Outbox: {sent} sent, {failed} failed.")

from django.conf import settings
from django.core.management.base import BaseCommand

from optin.retention import purge_unconfirmed


class Command(BaseCommand):
    help = (
        "Delete what was never confirmed (signups, price alerts: every form's registered purge) whose "
        "confirmation was asked for more than SIGNUP_UNCONFIRMED_RETENTION_DAYS days ago, with their mails, and "
        "the waiting signup requests as old. The mail worker (send_outbox --loop) does this about once an hour "
        "by itself."
    )

    def handle(self, *args, **options):
        purged = purge_unconfirmed()
        self.stdout.write(
            f"Unconfirmed for more than {settings.SIGNUP_UNCONFIRMED_RETENTION_DAYS} days, deleted: {purged}."
        )

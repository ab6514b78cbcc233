"""One budget of mails per mailbox across every form: at most SIGNUP_MAILS_PER_ADDRESS mails that a form asks
for (a confirmation, a refused price alert, a provider's acknowledgement) in any SIGNUP_MAILS_PER_ADDRESS_WINDOW
seconds, whichever form, GPU or client asked, and however the address is spelt: the budget counts the mailbox
``addresses.mailbox_for_budget`` makes of it (case, IDN, quotes, "+tags" at every domain, Gmail's dots and
googlemail.com), so ``v.ictim+s0@googlemail.com`` spends the budget of ``victim@gmail.com``. Nobody can aim the
forms at someone else's mailbox: from any number of IP addresses and spellings it gets at most the budget.

Counted in the database, so every worker agrees: each request for a mailbox first locks its row (``lock``, an
insert that ignores a conflict, then SELECT … FOR UPDATE), so concurrent requests for one mailbox take turns
and never spend the same room twice. Only a keyed hash of the address is stored (``pseudonyms.mailbox_hash``).

A request over the budget is answered like any other (the pages never say what happened): its rows are
stored, and a later confirmation mail, or one already on its way, confirms them (as
``alerts.price_alerts.confirm_all`` does)."""
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import addresses, pseudonyms
from .models import Mailbox, MailboxMail


def window():
    return timedelta(seconds=settings.SIGNUP_MAILS_PER_ADDRESS_WINDOW)


def lock(email):
    """The mailbox of ``email``, locked until the caller's transaction ends."""
    assert transaction.get_connection().in_atomic_block, "the lock only holds inside a transaction"
    address_hash = pseudonyms.mailbox_hash(addresses.mailbox_for_budget(email))
    while True:  # again if ``purge_spent`` deleted the row between the two statements
        Mailbox.objects.bulk_create([Mailbox(address_hash=address_hash)], ignore_conflicts=True)
        mailbox = Mailbox.objects.select_for_update().filter(address_hash=address_hash).first()
        if mailbox is not None:
            return mailbox


def spend(mailbox, now=None):
    """Count one mail for ``mailbox`` (locked by ``lock``) if its budget has room: True if it may be queued."""
    now = now or timezone.now()
    if mailbox.mails.filter(queued_at__gt=now - window()).count() >= settings.SIGNUP_MAILS_PER_ADDRESS:
        return False
    MailboxMail.objects.create(mailbox=mailbox, queued_at=now)
    return True


def mails_in_window(email, now=None):
    """How many mails the budget of ``email`` has counted in the window ending ``now``."""
    now = now or timezone.now()
    return MailboxMail.objects.filter(
        mailbox__address_hash=pseudonyms.mailbox_hash(addresses.mailbox_for_budget(email)),
        queued_at__gt=now - window(),
    ).count()


def purge_spent(now=None):
    """Delete what no budget counts any more: mails older than the window, then mailboxes without mails.
    Returns how many mails were deleted."""
    now = now or timezone.now()
    deleted, _ = MailboxMail.objects.filter(queued_at__lte=now - window()).delete()
    Mailbox.objects.filter(mails__isnull=True).delete()
    return deleted

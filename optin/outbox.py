"""Outgoing mail through the outbox table: queued in the caller's transaction, sent only by the mail worker
(``manage.py send_outbox --loop``), and retried while the mail server is unreachable.

No request ever talks to the mail server: one that answers slowly or never would hold a web worker for
EMAIL_TIMEOUT, and the difference in time would tell whether a request had mailed. A mail is claimed
before it is sent (its next attempt moved past a lease), so any number of workers never send it twice. A
confirmation mail gets its link only as it is sent (``confirmation.py``, from the issuer its kind registered):
the outbox never holds a usable token. When a confirmation mail has gone out, its row's consent record notes
the mail's version and the time (``consent_records.confirmation_mail_sent``)."""
import logging
import smtplib
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Count
from django.db.models.signals import post_delete
from django.utils import timezone

from . import consent_records, origins
from .confirmation import LINK_PLACEHOLDER
from .models import OutboxEmail
from .tokens import derived_token

logger = logging.getLogger(__name__)

# Longer than an SMTP attempt can take (EMAIL_TIMEOUT); a mail whose sender died mid-send is due
# again after it.
CLAIM_LEASE = timedelta(minutes=10)
FIRST_RETRY_DELAY = timedelta(minutes=1)
LONGEST_RETRY_DELAY = timedelta(hours=6)
LINK_TOKEN_SALT = "optin.outbox.link-token"


class LinkKind(NamedTuple):
    """Rows a mail with a link may be about: their model, what makes the link of one (``issue_link(row, token)``,
    an absolute URL with the mail's ``link_token``, called as the mail is sent) and, for a confirmation mail, its
    wording's version (recorded in the row's ``consent_record`` once it is sent; empty for other links, such as
    a renewal's)."""
    model: type
    issue_link: object
    mail_version: str = ""


_link_kinds = {}


def register_link_kind(kind, link, mail_version=""):
    """Called from the ``AppConfig.ready()`` of an app whose rows are confirmed by mail: its mails name a row of
    ``link.model`` as (``kind``, pk) and carry its ``link`` (a ``confirmation.Link``). A model's first kind is its
    confirmation; ``mail_version`` (bumped whenever the wording of that mail changes) is what its consent records
    keep. Deleting such a row deletes its mails, as a foreign key's cascade would: every way rows are deleted (a
    queryset, the admin, erasure) sends ``post_delete``."""
    model = link.model
    _link_kinds[kind] = LinkKind(model, link.issue, mail_version)
    post_delete.connect(delete_linked_mails, sender=model, dispatch_uid=f"outbox-linked-mails-{model._meta.label}")


def kind_of(model):
    """The confirmation kind of ``model``: the first registered for it."""
    return next(kind for kind, link in _link_kinds.items() if link.model is model)


def kinds_of(model):
    return [kind for kind, link in _link_kinds.items() if link.model is model]


def linked_mails(model, pks):
    """The mails about the rows of ``model`` whose primary keys are ``pks`` (a list or a subquery)."""
    return OutboxEmail.objects.filter(link_kind=kind_of(model), link_row_id__in=pks)


def mails_about(row):
    """The confirmation mails of ``row``."""
    return OutboxEmail.objects.filter(link_kind=kind_of(type(row)), link_row_id=row.pk)


def delete_linked_mails(sender, instance, **kwargs):
    OutboxEmail.objects.filter(link_kind__in=kinds_of(sender), link_row_id=instance.pk).delete()


def queue(*, recipient, subject, body, language, headers=None, confirmation_of=None, link_kind=None):
    """Store a mail, in the caller's transaction, for the worker to send; ``confirmation_of``: the row (of a
    registered kind) whose link replaces ``LINK_PLACEHOLDER`` in ``body`` as it is sent: its confirmation link,
    or the link of ``link_kind`` (another kind registered for its model)."""
    link = {} if confirmation_of is None else {"link_kind": link_kind or kind_of(type(confirmation_of)),
                                               "link_row_id": confirmation_of.pk}
    # Queued while a form's request is saved or applied: a mail to an address not confirmed, capped.
    origin = origins.current()
    cap = {} if origin is None else {"capped": True, "origin": origin}
    return OutboxEmail.objects.create(
        recipient=recipient, subject=subject, body=body, language=language, headers=headers or {}, **link, **cap,
    )


def queue_all(mails):
    """Store many mails (unsaved OutboxEmail rows) in one statement per batch, in the caller's transaction."""
    return OutboxEmail.objects.bulk_create(mails, batch_size=500)


def retry_delay(attempts):
    """1, 2, 4, 8 … minutes after each failed attempt, at most six hours."""
    return min(FIRST_RETRY_DELAY * 2 ** (attempts - 1), LONGEST_RETRY_DELAY)


def claim(pk, now):
    return OutboxEmail.objects.filter(pk=pk, sent_at__isnull=True, next_attempt_at__lte=now).update(
        next_attempt_at=now + CLAIM_LEASE,
    ) == 1


def linked_row(mail):
    """The row whose link ``mail`` carries (a signup, an alert), or None: none, or deleted since it was queued."""
    if not mail.link_kind:
        return None
    return _link_kinds[mail.link_kind].model.objects.filter(pk=mail.link_row_id).first()


def link_token(mail):
    """The token of the link in ``mail``: derived from the mail (under SECRET_KEY, never stored), so every attempt
    to send one mail carries the same link; another mail gets another."""
    identity = f"{mail.pk}:{mail.link_kind}:{mail.link_row_id}:{mail.created_at.isoformat()}"
    return derived_token(LINK_TOKEN_SALT, identity)


def as_message(mail, row):
    """``mail`` as it goes out: the link of ``row`` (its ``linked_row``) made now, in place of the placeholder."""
    body = mail.body
    if row is not None:
        body = body.replace(LINK_PLACEHOLDER, _link_kinds[mail.link_kind].issue_link(row, link_token(mail)))
    return EmailMessage(
        subject=mail.subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[mail.recipient],
        headers={"Content-Language": mail.language, **mail.headers},
    )


def send(pk):
    """Send one due mail; True once sent, False after a failed attempt, None if it is not due or taken.

    Any error is this mail's alone: an unreachable server (``SMTPException``, ``OSError``) is retried later; a
    mail that can never go as it is (a header with a line break: ``BadHeaderError``, or any other error in
    making it) is given up at once. Either way the attempt is recorded and the worker goes on with the next
    mail: one bad mail never stops the others."""
    now = timezone.now()
    if not claim(pk, now):
        return None
    mail = OutboxEmail.objects.filter(pk=pk).first()
    if mail is None:  # deleted since it was claimed (its row erased): nothing to send
        return None
    mail.attempts += 1
    try:
        row = linked_row(mail)
        as_message(mail, row).send()
    except (smtplib.SMTPException, OSError) as error:
        return record_failure(mail, error, give_up=mail.attempts >= settings.OUTBOX_MAX_ATTEMPTS)
    except Exception as error:  # whatever it is, it is this mail's: recorded, and the next one goes
        return record_failure(mail, error, give_up=True)
    mail.sent_at = timezone.now()
    mail.next_attempt_at = None
    mail.last_error = ""
    mail.save(update_fields=["attempts", "last_error", "next_attempt_at", "sent_at"])
    record_confirmation_sent(mail, row)
    return True


def record_failure(mail, error, give_up):
    """Record a failed attempt of ``mail``: retried after ``retry_delay``, or never again (``give_up``)."""
    mail.last_error = f"{type(error).__name__}: {error}"[:2000]
    mail.next_attempt_at = None if give_up else timezone.now() + retry_delay(mail.attempts)
    mail.save(update_fields=["attempts", "last_error", "next_attempt_at"])
    log = logger.warning if isinstance(error, (smtplib.SMTPException, OSError)) else logger.error
    log("Outbox mail %s: attempt %s failed (%s)%s", mail.pk, mail.attempts, type(error).__name__,
        ", giving up" if give_up else "")
    return False


def record_confirmation_sent(mail, row):
    """A confirmation mail that went out is part of its row's consent evidence: its version and send time."""
    if row is None or not _link_kinds[mail.link_kind].mail_version or row.consent_record_id is None:
        return
    consent_records.confirmation_mail_sent(row.consent_record_id, _link_kinds[mail.link_kind].mail_version,
                                           mail.sent_at)


CAP_WINDOW = timedelta(hours=1)


class CapRoom:
    """What the hourly cap on forms' mails to addresses not confirmed leaves, as a pass begins: counted from the
    capped mails sent in the last hour, in all and per origin (``origins.py``), and kept up to date as the pass
    sends."""

    def __init__(self, now):
        self.cap = settings.OUTBOX_UNCONFIRMED_MAILS_PER_HOUR
        self.share = max(1, self.cap * settings.OUTBOX_UNCONFIRMED_SHARE_PERCENT // 100)
        sent = OutboxEmail.objects.filter(capped=True, sent_at__gt=now - CAP_WINDOW)
        self.by_origin = dict(sent.values_list("origin").annotate(count=Count("pk")).values_list("origin", "count"))
        self.total = sum(self.by_origin.values())

    def full(self):
        return self.total >= self.cap

    def full_origins(self):
        return [origin for origin, count in self.by_origin.items() if count >= self.share]

    def allows(self, origin):
        return not self.full() and self.by_origin.get(origin, 0) < self.share

    def spend(self, origin):
        self.by_origin[origin] = self.by_origin.get(origin, 0) + 1
        self.total += 1


def due_mails(limit, room, now):
    """Up to ``limit`` due mails, (pk, capped, origin), oldest due first; capped ones only while the cap, and their
    origin's share, has room (the others wait where they are, so a flood from one origin never stands before the
    rest)."""
    due = OutboxEmail.objects.filter(sent_at__isnull=True, next_attempt_at__lte=now)
    if room.full():
        due = due.filter(capped=False)
    else:
        full = room.full_origins()
        if full:
            due = due.exclude(capped=True, origin__in=full)
    return list(due.order_by("next_attempt_at", "pk").values_list("pk", "capped", "origin")[:limit])


def due_mail_ids(limit, now=None):
    now = now or timezone.now()
    return [pk for pk, _capped, _origin in due_mails(limit, CapRoom(now), now)]


def send_due(limit=100):
    """One pass over the mails that are due: returns (sent, failed). A capped mail over the cap or its origin's
    share is left waiting for a later pass."""
    now = timezone.now()
    room = CapRoom(now)
    results = []
    for pk, capped, origin in due_mails(limit, room, now):
        if capped and not room.allows(origin):
            continue
        result = send(pk)
        if capped and result:
            room.spend(origin)
        results.append(result)
    return results.count(True), results.count(False)

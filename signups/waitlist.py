"""The renter waitlist: ask to join (the request), join (the mail worker: double opt-in) and unsubscribe;
confirming is in ``confirmation.py``.

A request only stores what was sent (``request_to_join``): one insert whatever the address, so the answer
and its timing are the same for a new address and a known one. The worker then applies each request
(``apply_requests``) and keeps one row per address (compared ignoring case): concurrent workers meet at the
unique constraint, and the losers read the winner's row instead of failing."""
from datetime import timedelta

from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Lower

from optin import addresses, mail_budget, origins, worker

from . import mails
from .models import Signup, WaitlistRequest

# A pending address asked again sooner than this gets no second mail; beyond it the mailbox's budget
# (``mail_budget.py``) bounds the mails, whatever form asks.
RESEND_CONFIRMATION_AFTER = timedelta(minutes=15)


# What a request carries beyond address, currency, language and workload, to the signup as it came.
ANSWER_FIELDS = ("gpu_id", "gpu_count", "via", "for_business")


def request_to_join(*, email, currency, language, workload, consent, gpu=None, gpu_count=None, via="",
                    for_business=False):
    """What a signup request does, for any address: store its answers and consent for the worker."""
    request = WaitlistRequest.objects.create(
        email=email, currency=currency, language=language, workload=workload, gpu=gpu, gpu_count=gpu_count,
        via=via, for_business=for_business, **consent,
    )
    origins.note(request)  # the client network its confirmation counts against (``optin.origins``)
    return request


def apply_requests(limit=100):
    """The worker's part: each waiting request joins the waitlist and is deleted, in one transaction.
    Returns how many were applied.

    The mailbox's lock comes first (``mail_budget.lock``), then the request's row, in the order an erasure takes
    them (``optin.erasure``): an erasure of the address waits for this commit and then erases what it made, or
    goes first and leaves no request to apply. Another worker's request of the same mailbox is applied (and
    gone) by the time the lock is ours."""
    applied = 0
    for pk, email in WaitlistRequest.objects.values_list("pk", "email")[:limit]:
        with transaction.atomic():
            mail_budget.lock(email)
            request = WaitlistRequest.objects.select_for_update().filter(pk=pk).first()
            if request is None:
                continue
            with origins.requested_from(origins.of(request)):
                join_request(request)
            request.delete()
            worker.hold_point("waitlist-request-applied")
        applied += 1
    return applied


def join_request(request):
    """``join`` with what ``request`` holds."""
    join(
        email=request.email, currency=request.currency, language=request.language,
        workload_id=request.workload_id, at=request.received_at,
        answers={field: getattr(request, field) for field in ANSWER_FIELDS},
        consent={field: getattr(request, field) for field in (
            "consent_text_version", "privacy_policy_version", "consent_language", "source_path",
        )},
    )


@transaction.atomic
def join(*, email, currency, language, workload_id, consent, at, answers=None):
    """Record a signup made at ``at`` and queue its confirmation mail, in one transaction.

    ``consent`` holds the evidence fields (consent text and privacy policy versions, consent language,
    the form's page), ``answers`` the GPU, count, page and business confirmation (``ANSWER_FIELDS``). A
    confirmed address is left as it is; a pending one takes this request's answers and
    consent, and a new confirmation mail, while the mailbox's budget (``mail_budget.py``) has room."""
    request_fields = {"currency": currency, "language": language, "workload_id": workload_id, **consent,
                      **(answers or {}), "signed_up_at": at}
    email = addresses.equivalent_address(email)  # as the form stores it; a request stored before may differ
    mailbox = mail_budget.lock(email)
    # Lowercased by the database on both sides, exactly as the unique constraint compares them.
    signup, created = Signup.objects.get_or_create(
        email__lower=Lower(Value(email)), defaults={"email": email, **request_fields},
    )
    if created:
        if mail_budget.spend(mailbox):
            mails.queue_confirmation(signup)
        return signup
    signup = Signup.objects.select_for_update().get(pk=signup.pk)
    if signup.is_subscribed or signup.signed_up_at > at - RESEND_CONFIRMATION_AFTER:
        return signup
    # Over the mailbox's budget the signup stays as it was, and so do the links it has mailed.
    if not mail_budget.spend(mailbox):
        return signup
    for field, value in request_fields.items():
        setattr(signup, field, value)
    signup.email = email
    # Links already mailed die: only the new mail's link confirms these answers.
    signup.confirmation_token_hash = signup.confirmation_expires_at = None
    signup.save()
    mails.queue_confirmation(signup)
    return signup


def join_unmailed(*, email, currency, language, consent, at, answers=None):
    """Record a signup asked for on another form whose own confirmation mail confirms it (a price alert's:
    ``alerts.price_alerts``), so no mail of its own: a new signup, or a pending one taking these answers and
    consent, with its consent record. Returns it, or None when the address is on the list already (left as it
    is). The caller holds the mailbox's lock (``mail_budget.lock``)."""
    request_fields = {"currency": currency, "language": language, **consent, **(answers or {}), "signed_up_at": at}
    email = addresses.equivalent_address(email)
    signup, created = Signup.objects.get_or_create(
        email__lower=Lower(Value(email)), defaults={"email": email, **request_fields},
    )
    if not created:
        signup = Signup.objects.select_for_update().get(pk=signup.pk)
        if signup.is_subscribed:
            return None
        for field, value in request_fields.items():
            setattr(signup, field, value)
        signup.save()
    mails.ask_consent(signup)
    return signup


def subscriber(key):
    """The signup an unsubscribe link's key belongs to, or None."""
    return Signup.objects.filter(unsubscribe_key=key).first()


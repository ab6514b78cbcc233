"""Provider applications: the form stores the request (``request_application``: one insert whatever the address
holds, so neither the answer nor its timing tells whether an address has applied) and the mail worker applies it
(``apply_requests``): the application stored with its GPU rows and consent evidence, acknowledged by mail, in one
transaction.

An application sent again is not stored twice, nor acknowledged twice: the same form (its submission key,
also when both arrive at once: the key is unique), or the same company from the same address within
``RESUBMIT_WINDOW`` (the form filled in again after going back). The acknowledgement counts against the
address's mail budget (``mail_budget.py``): the application is stored even when the budget is spent."""
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.utils import timezone

from catalog.models import GPU
from optin import consent_records, mail_budget, origins

from . import mails
from .models import ApplicationRequest, OfferedGPU, ProviderApplication

RESUBMIT_WINDOW = timedelta(days=1)

# The request's evidence fields, copied to the application and its consent record.
CONSENT_FIELDS = ("consent_text_version", "privacy_policy_version", "consent_language", "source_path")
ANSWER_FIELDS = ("company", "contact_name", "email", "country", "message")


@transaction.atomic
def request_application(*, submission, consent, language, offered, **answers):
    """What the form does, for any address: store the request for the worker (``offered``: dicts of gpu, name,
    count, location, as ``apply`` takes them) with its origin, in one transaction."""
    request = ApplicationRequest.objects.create(
        submission=submission, language=language, **answers, **consent,
        offered=[{"gpu": row["gpu"].pk if row["gpu"] else None, "name": row["name"], "count": row["count"],
                  "location": row["location"]} for row in offered],
    )
    origins.note(request)  # the client network its acknowledgement counts against (``optin.origins``)
    return request


def apply_requests(limit=100):
    """The worker's chore: each waiting request is applied (``apply``) and deleted, in one transaction, under the
    mailbox's lock taken before the request's row (the order an erasure takes them: ``optin.erasure``). Returns
    how many were applied."""
    applied = 0
    for pk, email in ApplicationRequest.objects.values_list("pk", "email")[:limit]:
        with transaction.atomic():
            mailbox = mail_budget.lock(email)
            request = ApplicationRequest.objects.select_for_update().filter(pk=pk).first()
            if request is None:  # applied by another worker, or erased
                continue
            with origins.requested_from(origins.of(request)):
                apply_request(request, mailbox)
            request.delete()
        applied += 1
    return applied


def apply_request(request, mailbox):
    """``apply`` with what ``request`` holds; a GPU deleted from the catalogue since is named, not linked."""
    known = set(GPU.objects.filter(pk__in=[row["gpu"] for row in request.offered if row["gpu"]])
                .values_list("pk", flat=True))
    offered = [{**row, "gpu_id": row["gpu"] if row["gpu"] in known else None} for row in request.offered]
    for row in offered:
        del row["gpu"]
    return apply(submission=request.submission, language=request.language, offered=offered, at=request.received_at,
                 consent={field: getattr(request, field) for field in CONSENT_FIELDS}, mailbox=mailbox,
                 **{field: getattr(request, field) for field in ANSWER_FIELDS})


def is_repeat(*, submission, email, company, at):
    return ProviderApplication.objects.filter(
        Q(submission=submission)
        | Q(email__lower=Lower(Value(email)), company__iexact=company, submitted_at__gt=at - RESUBMIT_WINDOW)
    ).exists()


@transaction.atomic
def apply(*, submission, consent, language, offered, at=None, mailbox=None, **answers):
    """The stored application with its GPU rows (``offered``: dicts of gpu or gpu_id, name, count, location), or
    None when it repeats one already stored. ``at``: when it was sent (now by default); ``mailbox``: the address's
    mailbox when the caller holds its lock already."""
    at = at or timezone.now()
    if mailbox is None:
        mailbox = mail_budget.lock(answers["email"])
    if is_repeat(submission=submission, email=answers["email"], company=answers["company"], at=at):
        return None
    try:
        with transaction.atomic():
            application = ProviderApplication.objects.create(
                submission=submission, language=language, submitted_at=at, **answers, **consent,
                consent_record=consent_records.asked(consent_records.Purpose.PROVIDER_APPLICATION,
                                                     email=answers["email"], consent=consent, asked_at=at),
            )
            OfferedGPU.objects.bulk_create(OfferedGPU(application=application, order=order, **row)
                                           for order, row in enumerate(offered))
    except IntegrityError:  # the same form, sent twice at once: the other request stored it
        return None
    if mail_budget.spend(mailbox):
        mails.queue_acknowledgement(application)
    return application

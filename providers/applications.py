"""Provider applications: stored with their consent evidence, acknowledged by mail in one transaction.

An application sent again is not stored twice, nor acknowledged twice: the same form (its submission key,
also when both arrive at once: the key is unique), or the same company from the same address within
``RESUBMIT_WINDOW`` (the form filled in again after going back). The acknowledgement counts against the
address's mail budget (``mail_budget.py``): the application is stored even when the budget is spent."""
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.utils import timezone

from optin import consent_records, mail_budget

from . import mails
from .models import OfferedGPU, ProviderApplication

RESUBMIT_WINDOW = timedelta(days=1)


def is_repeat(*, submission, email, company):
    return ProviderApplication.objects.filter(
        Q(submission=submission)
        | Q(email__lower=Lower(Value(email)), company__iexact=company,
            submitted_at__gt=timezone.now() - RESUBMIT_WINDOW)
    ).exists()


@transaction.atomic
def apply(*, submission, consent, language, offered, **answers):
    """The stored application with its GPU rows (``offered``: dicts of gpu, name, count, location), or None when
    it repeats one already stored."""
    mailbox = mail_budget.lock(answers["email"])
    if is_repeat(submission=submission, email=answers["email"], company=answers["company"]):
        return None
    try:
        with transaction.atomic():
            application = ProviderApplication.objects.create(
                submission=submission, language=language, **answers, **consent,
                consent_record=consent_records.asked(consent_records.Purpose.PROVIDER_APPLICATION,
                                                     email=answers["email"], consent=consent,
                                                     asked_at=timezone.now()),
            )
            OfferedGPU.objects.bulk_create(OfferedGPU(application=application, order=order, **row)
                                           for order, row in enumerate(offered))
    except IntegrityError:  # the same form, sent twice at once: the other request stored it
        return None
    if mail_budget.spend(mailbox):
        mails.queue_acknowledgement(application)
    return application

"""Unsubscribing from the launch list: the signup is deleted at once, with its mails and the admin's history of
it; the evidence of the consent and of its withdrawal stays in its consent record (``optin.consent_records``)
for the evidence's retention period.

Idempotent: a link used already names no signup any more, and the page answers that the address is not on
the list (``views.unsubscribe``)."""
from django.db import transaction

from optin import consent_records
from optin.erasure import delete_with_admin_history

from .models import Signup


@transaction.atomic
def unsubscribe(key, now=None):
    """Delete the signup an unsubscribe link's ``key`` names and end its consent as unsubscribed; returns whether
    there was one."""
    signup = Signup.objects.select_for_update().filter(unsubscribe_key=key)
    if not signup.exists():
        return False
    consent_records.withdraw(consent_records.records_for(signup), consent_records.Withdrawal.UNSUBSCRIBED, now)
    delete_with_admin_history(signup)
    return True

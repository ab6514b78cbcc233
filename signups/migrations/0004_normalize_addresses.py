"""Stored addresses as the forms now store them (``optin/addresses.py``, then ``signups/addresses.py``), and one signup per mailbox.

Signups whose addresses are one mailbox (``idn@bücher.example``, ``IDN@xn--bcher-kva.example``) become one
row: the earliest, keeping its consent evidence (when, which texts, which language, which page) and its
unsubscribe link; the answers (currency, language, workload) and the spelling of the newest; the state
(pending, subscribed, unsubscribed) that replaying every row's signup, confirmation and unsubscription in
time order gives; and the most recently mailed confirmation link. The merged rows' other links then stop
working (a confirmation link says so; their unsubscribe links find no signup, so the newest mail's link is
the one to use). Their mails still waiting in the outbox are dropped: the kept row has its own.

Addresses the forms now refuse (``x@localhost``) are normalized as far as they can be and kept: staff can
erase them. Unapplying the migration changes nothing back: the spelling as typed is not kept."""
from collections import defaultdict

from django.db import migrations

from optin.addresses import normalize

EVENT_ORDER = {"signup": 0, "confirm": 1, "unsubscribe": 2}


def replayed_state(rows):
    """(confirmed_at, unsubscribed_at) after every row's events, applied as the waitlist applies them."""
    events = []
    for row in rows:
        events.append((row.signed_up_at, "signup"))
        if row.confirmed_at:
            events.append((row.confirmed_at, "confirm"))
        if row.unsubscribed_at:
            events.append((row.unsubscribed_at, "unsubscribe"))
    confirmed_at = unsubscribed_at = None
    for at, event in sorted(events, key=lambda item: (item[0], EVENT_ORDER[item[1]])):
        subscribed = confirmed_at is not None and unsubscribed_at is None
        if event == "signup" and not subscribed:
            confirmed_at = unsubscribed_at = None
        elif event == "confirm":
            confirmed_at, unsubscribed_at = at, None
        elif event == "unsubscribe" and unsubscribed_at is None:
            unsubscribed_at = at
    return confirmed_at, unsubscribed_at


def merge_signups(apps, schema_editor):
    Signup = apps.get_model("signups", "Signup")
    OutboxEmail = apps.get_model("signups", "OutboxEmail")
    mailboxes = defaultdict(list)
    for signup in Signup.objects.order_by("signed_up_at", "pk"):
        mailboxes[normalize(signup.email).lower()].append(signup)
    merged = [rows for rows in mailboxes.values() if len(rows) > 1]
    # Every duplicate goes before any row changes: a changed address must not meet one not yet merged.
    for rows in merged:
        others = [row.pk for row in rows[1:]]
        OutboxEmail.objects.filter(confirmation_for__in=others, sent_at__isnull=True).delete()
        OutboxEmail.objects.filter(confirmation_for__in=others).update(confirmation_for=rows[0].pk)
        Signup.objects.filter(pk__in=others).delete()
    for rows in mailboxes.values():
        kept, newest = rows[0], rows[-1]
        if len(rows) == 1 and normalize(kept.email) == kept.email:
            continue
        kept.email = normalize(newest.email)
        if len(rows) > 1:
            kept.currency, kept.language = newest.currency, newest.language
            kept.workload_id = newest.workload_id
            kept.confirmed_at, kept.unsubscribed_at = replayed_state(rows)
            linked = [row for row in rows if row.confirmation_expires_at is not None]
            latest_link = max(linked, key=lambda row: row.confirmation_expires_at) if linked else kept
            kept.confirmation_token_hash = latest_link.confirmation_token_hash
            kept.confirmation_expires_at = latest_link.confirmation_expires_at
        kept.save()


def normalize_other_addresses(apps, schema_editor):
    for model_name, field in (("ProviderApplication", "email"), ("WaitlistRequest", "email"),
                              ("OutboxEmail", "recipient")):
        model = apps.get_model("signups", model_name)
        for pk, address in model.objects.values_list("pk", field).iterator():
            if normalize(address) != address:
                model.objects.filter(pk=pk).update(**{field: normalize(address)})


class Migration(migrations.Migration):

    dependencies = [
        ("signups", "0003_waitlist_requests_and_application_keys"),
    ]

    operations = [
        migrations.RunPython(merge_signups, migrations.RunPython.noop),
        migrations.RunPython(normalize_other_addresses, migrations.RunPython.noop),
    ]

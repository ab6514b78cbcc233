"""Every signup, price alert and provider application already stored gets its consent record
(``optin.ConsentRecord``), with what its row held: the consent text's and privacy policy's versions, the
language, the form's page, when it was asked and confirmed, and when its confirmation mail went out (the
mail's version was not kept before: it stays empty).

A signup unsubscribed before is deleted now, as an unsubscribe now does, with its mails and the admin's history
of it; its record keeps the unsubscription and is kept for the evidence's period after it. A confirmed alert
starts its lifetime at its confirmation (``alerts.lapse``): one confirmed long ago gets its reminder at the
worker's first pass and still its full notice."""
import calendar

from django.conf import settings
from django.db import migrations
from django.utils.crypto import salted_hmac

# optin.pseudonyms.CONSENT_ADDRESS_SALT, as it was when this migration was written.
CONSENT_ADDRESS_SALT = "optin.pseudonyms.consent-evidence-address"
EVIDENCE_FIELDS = ("consent_text_version", "privacy_policy_version", "consent_language", "source_path")


def add_months(moment, months):
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def address_hash(email):
    # Stored addresses are normalized (signups 0004): their key is the lowercased address.
    return salted_hmac(CONSENT_ADDRESS_SALT, email.lower(), algorithm="sha256").hexdigest()


def add_records(apps, schema_editor):
    ConsentRecord = apps.get_model("optin", "ConsentRecord")
    OutboxEmail = apps.get_model("optin", "OutboxEmail")
    months = apps.get_model("company", "OperatorRecord").objects.filter(pk=1).values_list(
        "consent_evidence_retention_months", flat=True).first()
    months = months if months is not None else settings.CONSENT_EVIDENCE_RETENTION_MONTHS

    def record_of(row, purpose, asked_at, link_kind=None):
        sent = None
        if link_kind:
            sent = (OutboxEmail.objects.filter(link_kind=link_kind, link_row_id=row.pk, sent_at__isnull=False)
                    .order_by("-sent_at").values_list("sent_at", flat=True).first())
        return ConsentRecord.objects.create(
            purpose=purpose, address_hash=address_hash(row.email), asked_at=asked_at,
            confirmed_at=getattr(row, "confirmed_at", None), confirmation_mail_sent_at=sent,
            **{field: getattr(row, field) for field in EVIDENCE_FIELDS},
        )

    Signup = apps.get_model("signups", "Signup")
    unsubscribed = []
    for signup in Signup.objects.filter(consent_record__isnull=True).order_by("pk"):
        record = record_of(signup, "waitlist", signup.signed_up_at, "signup")
        if signup.unsubscribed_at is not None:
            ConsentRecord.objects.filter(pk=record.pk).update(
                withdrawn_at=signup.unsubscribed_at, withdrawal="unsubscribed",
                keep_until=add_months(signup.unsubscribed_at, months))
            unsubscribed.append(signup.pk)
        else:
            Signup.objects.filter(pk=signup.pk).update(consent_record=record)
    if unsubscribed:
        OutboxEmail.objects.filter(link_kind="signup", link_row_id__in=unsubscribed).delete()
        ContentType = apps.get_model("contenttypes", "ContentType")
        signup_type = ContentType.objects.filter(app_label="signups", model="signup").first()
        if signup_type is not None:
            apps.get_model("admin", "LogEntry").objects.filter(
                content_type=signup_type, object_id__in=[str(pk) for pk in unsubscribed]).delete()
        Signup.objects.filter(pk__in=unsubscribed).delete()

    PriceAlert = apps.get_model("alerts", "PriceAlert")
    for alert in PriceAlert.objects.filter(consent_record__isnull=True).order_by("pk"):
        record = record_of(alert, "price_alert", alert.created_at, "price_alert")
        PriceAlert.objects.filter(pk=alert.pk).update(consent_record=record, renewed_at=alert.confirmed_at)

    ProviderApplication = apps.get_model("signups", "ProviderApplication")
    for application in ProviderApplication.objects.filter(consent_record__isnull=True).order_by("pk"):
        record = record_of(application, "provider_application", application.submitted_at)
        ProviderApplication.objects.filter(pk=application.pk).update(consent_record=record)


class Migration(migrations.Migration):

    dependencies = [
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("alerts", "0002_consent_record_and_renewal"),
        ("company", "0001_operator_record"),
        ("signups", "0012_consent_record_links"),
    ]

    operations = [
        migrations.RunPython(add_records, migrations.RunPython.noop),
    ]

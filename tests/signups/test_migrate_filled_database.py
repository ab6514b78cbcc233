"""Stored data survives the moves out of ``signups`` (issue 25): a database filled as the release before them
left it (legal pages, signups, a waiting request, price alerts, a provider application, outbox mails of each
kind, an erasure record, mail budget rows, a group's permissions) is migrated forward, and every row and value
is still there, each confirmation mail still names its row, and the permissions follow their models. Then
(issue 27) every signup, alert and application gets its consent record with the evidence its row held, an
unsubscribed signup is deleted while its record keeps the unsubscription, and confirmed alerts start their
lifetime at their confirmation."""
from datetime import UTC, date, datetime
from decimal import Decimal

from django.contrib.auth.models import Group
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from alerts import confirmation as alert_link
from alerts.models import AlertRequest, PriceAlert
from company.models import LegalPage
from optin import outbox, pseudonyms
from optin.confirmation import LinkState
from optin.models import ConsentRecord, ErasureLog, Mailbox, MailboxMail, OutboxEmail
from optin.tokens import token_hash
from providers.models import ApplicationRequest, ProviderApplication
from signups import confirmation as signup_link
from signups.models import Signup, WaitlistRequest

# The leaf migrations of the release before the moves; every other app stays at its own leaf.
BEFORE_MOVES = {"signups": "0008_mail_budget", "company": "0001_operator_record"}
# Made by the moves: not in the database before them.
NEW_APPS = {"optin", "alerts", "providers"}
MOVED = {"legalpage": "company", "pricealert": "alerts", "outboxemail": "optin", "mailbox": "optin",
         "mailboxmail": "optin", "erasurelog": "optin"}
AT = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
UNSUBSCRIBED_AT = datetime(2027, 1, 31, 8, 0, tzinfo=UTC)
CONSENT = {"consent_text_version": "renter-1", "privacy_policy_version": "privacy-3", "consent_language": "de",
           "source_path": "/de/"}


def before_moves(executor):
    leaves = [(app, name) for app, name in executor.loader.graph.leaf_nodes()
              if app not in BEFORE_MOVES and app not in NEW_APPS]
    return leaves + list(BEFORE_MOVES.items())


def fill(old):
    """The rows a filled database of that release holds, made with its models; returns what to look for."""
    GPU = old.get_model("catalog", "GPU")
    gpu = GPU.objects.create(slug="migrated-gpu", vendor="V", name="Migrated GPU", architecture="A",
                             memory_gb=Decimal(80), price_usd_per_hour=Decimal("2.50"))
    LegalPage = old.get_model("signups", "LegalPage")
    pages = {}
    for key, title in (("privacy", "Datenschutz (alt)"), ("legal-notice", "Impressum (alt)")):
        LegalPage.objects.update_or_create(key=key, defaults={
            "title": title, "title_de": title, "title_en": f"{title} en", "body": f"Text of {key}",
            "body_de": f"Text von {key}", "version": f"{key}-7", "updated": date(2026, 11, 1)})
        pages[key] = (title, f"{title} en", f"Text von {key}", f"{key}-7", date(2026, 11, 1))
    Signup = old.get_model("signups", "Signup")
    confirmed = Signup.objects.create(email="Ana@example.com", currency="EUR", language="de", gpu=gpu, gpu_count=8,
                                      via="calculator", for_business=True, signed_up_at=AT, confirmed_at=AT,
                                      **CONSENT)
    pending = Signup.objects.create(email="ben@example.com", currency="USD", language="es", signed_up_at=AT,
                                    confirmation_token_hash="a" * 64, confirmation_expires_at=AT, **CONSENT)
    # The operator's period of keeping consent evidence: 24 months.
    old.get_model("company", "OperatorRecord").objects.update_or_create(
        pk=1, defaults={"consent_evidence_retention_months": 24})
    left = Signup.objects.create(email="Gil@example.com", currency="EUR", language="pt", signed_up_at=AT,
                                 confirmed_at=AT, unsubscribed_at=UNSUBSCRIBED_AT, **CONSENT)
    old.get_model("signups", "WaitlistRequest").objects.create(
        email="cleo@example.com", currency="GBP", language="pt", via="gpu-page", received_at=AT, **CONSENT)
    PriceAlert = old.get_model("signups", "PriceAlert")
    active = PriceAlert.objects.create(email="ana@example.com", gpu=gpu, target_usd_per_hour=Decimal("1.99"),
                                       language="de", state="resting", created_at=AT, confirmed_at=AT,
                                       last_notified_at=AT, **CONSENT)
    waiting = PriceAlert.objects.create(email="dora@example.com", gpu=gpu, target_usd_per_hour=Decimal("2.10"),
                                        requested_target_usd_per_hour=None, language="en", created_at=AT,
                                        confirmation_token_hash="b" * 64, confirmation_expires_at=AT, **CONSENT)
    old.get_model("signups", "ProviderApplication").objects.create(
        company="Rechenzentrum GmbH", contact_name="Eva", email="eva@example.com", country="DE", gpus="16 × H100",
        server_locations="Frankfurt", message="Hallo", language="de", status="contacted", submitted_at=AT,
        submission="00000000-0000-0000-0000-000000000007", **CONSENT)
    OutboxEmail = old.get_model("signups", "OutboxEmail")
    mails = {
        "signup": OutboxEmail.objects.create(recipient=pending.email, subject="Bestätigen", body="[[link]]",
                                             language="es", confirmation_for=pending,
                                             headers={"List-Unsubscribe": "<https://x/u/>"}),
        "price_alert": OutboxEmail.objects.create(recipient=waiting.email, subject="Confirm", body="b",
                                                  language="en", alert_confirmation_for=waiting, attempts=2,
                                                  last_error="SMTPServerDisconnected: gone"),
        "": OutboxEmail.objects.create(recipient=active.email, subject="Price", body="p", language="de",
                                       sent_at=AT, next_attempt_at=None, attempts=1),
    }
    OutboxEmail.objects.create(recipient=left.email, subject="Bestätigen", body="b", language="pt",
                               confirmation_for=left, sent_at=AT, next_attempt_at=None, attempts=1)
    old.get_model("signups", "ErasureLog").objects.create(email_hash="c" * 64, erased_at=AT)
    mailbox = old.get_model("signups", "Mailbox").objects.create(address_hash="d" * 64)
    old.get_model("signups", "MailboxMail").objects.create(mailbox=mailbox, queued_at=AT)
    # Permissions given on the moved models before the move (content types as the release had them).
    ContentType, Permission = old.get_model("contenttypes", "ContentType"), old.get_model("auth", "Permission")
    group = old.get_model("auth", "Group").objects.create(name="Migrated operators")
    for model in MOVED:
        content_type, _created = ContentType.objects.get_or_create(app_label="signups", model=model)
        permission, _created = Permission.objects.get_or_create(
            content_type=content_type, codename=f"view_{model}", defaults={"name": f"Can view {model}"})
        group.permissions.add(permission)
    return {"pages": pages, "gpu": gpu.pk, "confirmed": confirmed.pk, "pending": pending.pk, "active": active.pk,
            "waiting": waiting.pk, "left": left.pk, "mails": {kind: mail.pk for kind, mail in mails.items()}}


def test_every_row_survives_the_moves_out_of_signups(migrations_rolled_back):
    made = fill(migrations_rolled_back(before_moves(MigrationExecutor(connection))))
    migrations_rolled_back(None)

    for key, (title, title_en, body_de, version, updated) in made["pages"].items():
        page = LegalPage.objects.get(key=key)
        assert (page.title_de, page.title_en, page.body_de, page.version, page.updated) == (
            title, title_en, body_de, version, updated)
    confirmed, pending = Signup.objects.get(pk=made["confirmed"]), Signup.objects.get(pk=made["pending"])
    assert (confirmed.email, confirmed.currency, confirmed.gpu_id, confirmed.gpu_count, confirmed.via,
            confirmed.for_business, confirmed.confirmed_at, confirmed.consent_text_version,
            confirmed.privacy_policy_version, confirmed.source_path) == (
        "Ana@example.com", "EUR", made["gpu"], 8, "calculator", True, AT, "renter-1", "privacy-3", "/de/")
    assert (pending.confirmed_at, pending.confirmation_token_hash, pending.confirmation_expires_at) == (
        None, "a" * 64, AT)
    request = WaitlistRequest.objects.get()
    assert (request.email, request.currency, request.language, request.via, request.received_at) == (
        "cleo@example.com", "GBP", "pt", "gpu-page", AT)
    active, waiting = PriceAlert.objects.get(pk=made["active"]), PriceAlert.objects.get(pk=made["waiting"])
    assert (active.email, active.gpu_id, active.target_usd_per_hour, active.state, active.confirmed_at,
            active.last_notified_at, active.consent_language) == (
        "ana@example.com", made["gpu"], Decimal("1.99"), PriceAlert.State.RESTING, AT, AT, "de")
    assert (waiting.confirmed_at, waiting.target_usd_per_hour, waiting.confirmation_token_hash) == (
        None, Decimal("2.10"), "b" * 64)
    application = ProviderApplication.objects.get()
    assert (application.company, application.gpus, application.status, str(application.submission)) == (
        "Rechenzentrum GmbH", "16 × H100", "contacted", "00000000-0000-0000-0000-000000000007")

    # Each mail keeps its values, and a confirmation mail still names the row it confirms.
    mails = {kind: OutboxEmail.objects.get(pk=pk) for kind, pk in made["mails"].items()}
    assert (mails["signup"].link_kind, mails["signup"].link_row_id) == ("signup", made["pending"])
    assert (mails["price_alert"].link_kind, mails["price_alert"].link_row_id) == ("price_alert", made["waiting"])
    assert (mails[""].link_kind, mails[""].link_row_id) == ("", None)
    assert list(outbox.mails_about(pending)) == [mails["signup"]]
    assert list(outbox.mails_about(waiting)) == [mails["price_alert"]]
    assert (mails["signup"].body, mails["signup"].headers, mails["signup"].language) == (
        "[[link]]", {"List-Unsubscribe": "<https://x/u/>"}, "es")
    assert (mails["price_alert"].attempts, mails["price_alert"].last_error) == (2, "SMTPServerDisconnected: gone")
    assert (mails[""].sent_at, mails[""].next_attempt_at) == (AT, None)

    assert list(ErasureLog.objects.values_list("email_hash", "erased_at")) == [("c" * 64, AT)]
    assert list(MailboxMail.objects.values_list("mailbox__address_hash", "queued_at")) == [("d" * 64, AT)]
    assert Mailbox.objects.count() == 1

    # The permissions given on the moved models are now on the models in their new apps.
    granted = Group.objects.get(name="Migrated operators").permissions.select_related("content_type")
    assert {(p.content_type.app_label, p.codename) for p in granted} == {
        (app, f"view_{model}") for model, app in MOVED.items()}

    # Issue 27: the evidence of each consent in a record of its own, the address only as a keyed hash.
    def evidence(record):
        return (record.purpose, record.address_hash, record.consent_text_version, record.privacy_policy_version,
                record.consent_language, record.source_path, record.asked_at, record.confirmed_at)

    def hashed(address):
        return pseudonyms.consent_address_hash(address.lower())

    evidence_of_consent = (CONSENT["consent_text_version"], CONSENT["privacy_policy_version"],
                           CONSENT["consent_language"], CONSENT["source_path"])
    assert evidence(confirmed.consent_record) == (
        "waitlist", hashed("Ana@example.com"), *evidence_of_consent, AT, AT)
    assert evidence(pending.consent_record) == ("waitlist", hashed("ben@example.com"), *evidence_of_consent, AT, None)
    assert evidence(active.consent_record) == ("price_alert", hashed("ana@example.com"), *evidence_of_consent, AT, AT)
    assert evidence(waiting.consent_record) == (
        "price_alert", hashed("dora@example.com"), *evidence_of_consent, AT, None)
    assert evidence(application.consent_record) == (
        "provider_application", hashed("eva@example.com"), *evidence_of_consent, AT, None)
    assert (active.renewed_at, waiting.renewed_at) == (AT, None)
    # The unsubscribed signup is gone with its mails; its record keeps the unsubscription for the period.
    assert not Signup.objects.filter(pk=made["left"]).exists()
    assert not OutboxEmail.objects.filter(recipient="Gil@example.com").exists()
    left = ConsentRecord.objects.get(address_hash=hashed("gil@example.com"))
    assert evidence(left) == ("waitlist", hashed("gil@example.com"), *evidence_of_consent, AT, AT)
    assert left.confirmation_mail_sent_at == AT
    assert (left.withdrawal, left.withdrawn_at, left.keep_until) == (
        "unsubscribed", UNSUBSCRIBED_AT, datetime(2029, 1, 31, 8, 0, tzinfo=UTC))
    assert ConsentRecord.objects.count() == 6
    assert all(record.withdrawn_at is None for record in ConsentRecord.objects.exclude(pk=left.pk))


# Issue 49: the fields every form's row shares, now declared once in ``optin``, read from the tables as they are.
EVIDENCE = {"consent_text_version": "alert-2", "privacy_policy_version": "privacy-4", "consent_language": "pt",
            "source_path": "/pt/gpus/moved/"}


def stored_token(token):
    return {"confirmation_token_hash": token_hash(token), "confirmation_expires_at": AT}


def test_the_consent_evidence_and_the_token_moved_to_optin_keep_every_stored_value(migrations_rolled_back):
    """``ConsentEvidence`` (from ``signups.models``) and the confirmation token's fields (copied in ``Signup`` and
    ``PriceAlert``) are abstract models of ``optin`` now: their fields stay in each form's own table, so no
    migration moves anything (``test_site_walk`` checks that none is pending). A database filled at the migrations
    of the release, with the models as its migrations describe them, reads the same through the moved models."""
    old = migrations_rolled_back(None)
    gpu = old.get_model("catalog", "GPU").objects.create(
        slug="evidence-gpu", vendor="V", name="Evidence GPU", architecture="A", memory_gb=Decimal(80))
    rows = {
        Signup: old.get_model("signups", "Signup").objects.create(
            email="fia@example.com", currency="EUR", language="pt", **EVIDENCE, **stored_token("signup-link")),
        WaitlistRequest: old.get_model("signups", "WaitlistRequest").objects.create(
            email="gus@example.com", currency="USD", language="pt", **EVIDENCE),
        PriceAlert: old.get_model("alerts", "PriceAlert").objects.create(
            email="fia@example.com", gpu=gpu, target_usd_per_hour=Decimal("1.50"), language="pt", **EVIDENCE,
            **stored_token("alert-link")),
        AlertRequest: old.get_model("alerts", "AlertRequest").objects.create(
            email="gus@example.com", gpu=gpu, target_usd_per_hour=Decimal("1.40"), language="pt", **EVIDENCE),
        ProviderApplication: old.get_model("providers", "ProviderApplication").objects.create(
            company="Moved GmbH", contact_name="Ida", email="ida@example.com", country="PT", language="pt",
            **EVIDENCE),
        ApplicationRequest: old.get_model("providers", "ApplicationRequest").objects.create(
            submission="00000000-0000-0000-0000-000000000049", company="Moved GmbH", contact_name="Ida",
            email="ida@example.com", country="PT", language="pt", **EVIDENCE),
    }

    for model, row in rows.items():
        assert {field: getattr(model.objects.get(pk=row.pk), field) for field in EVIDENCE} == EVIDENCE, model
    # Each link finds its row by the stored hash, and tells from the stored expiry that it is too old.
    for link, token, model in ((signup_link.LINK, "signup-link", Signup), (alert_link.LINK, "alert-link", PriceAlert)):
        row = link.row_for(token)
        assert (row.pk, row.confirmation_expires_at, link.state(row)) == (rows[model].pk, AT, LinkState.EXPIRED)

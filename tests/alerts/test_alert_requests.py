"""The price alert form answers the same whatever the address holds (issue 48): it stores the request (one
insert) and the mail worker applies it, as the waitlist does; a known address (confirmed alerts, one waiting) and
a new one get the same answer by the same queries and writes. An erasure deletes the waiting requests too."""
from decimal import Decimal

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from alerts.amounts import amount_text
from alerts.models import AlertRequest, PriceAlert
from catalog.models import GPU
from optin.erasure import erase_person
from optin.models import ConsentRecord, OutboxEmail

from .. import factories
from ..localized_urls import url_in
from ..queries import query_shapes
from ..signup_helpers import run_mail_worker

KNOWN = "known@example.com"


def post(client, gpu, email, target="0.10"):
    return client.post(url_in("es", "alerts:price_alert", slug=gpu.slug),
                       {"email": email, "target": amount_text(target, "es"), "consent": "on"})


def test_a_known_and_a_new_address_get_the_same_answer_by_the_same_queries_and_writes(client, launch_content,
                                                                                     settings):
    settings.SIGNUP_RATE_LIMIT = 1000
    gpus = list(GPU.objects.exclude(price_usd_per_hour=None).order_by("pk")[:3])
    now = timezone.now()
    for gpu in gpus[:2]:
        factories.price_alert(email=KNOWN, gpu=gpu, confirmed_at=now, renewed_at=now)
    factories.price_alert(email=KNOWN, gpu=gpus[2])
    # What a process reads once per content version (the privacy policy's version) is read by this first one.
    assert post(client, gpus[0], "first@example.com").status_code == 303
    answers = {}
    for label, email, gpu in (("new", "new@example.com", gpus[0]), ("known, its GPU", KNOWN, gpus[0]),
                              ("known, its waiting GPU", KNOWN, gpus[2]), ("known, another GPU", "KNOWN@example.com",
                                                                          gpus[1])):
        with CaptureQueriesContext(connection) as queries:
            response = post(client, gpu, email)
        shapes = query_shapes(queries.captured_queries)
        answers[label] = (response.status_code, response["Location"].replace(gpu.slug, "<gpu>"), response.content,
                          shapes)
    assert len({repr(answer) for answer in answers.values()}) == 1, answers
    shapes = answers["new"][3]
    writes = [shape for shape in shapes if shape.split()[0] in ("INSERT", "UPDATE", "DELETE")]
    # The rate limit's count, the request and its origin (the client network its mail counts against).
    assert len(writes) == 3 and "alerts_alertrequest" in writes[1] and "optin_requestorigin" in writes[2], writes
    assert not any("signups_pricealert" in shape or "signups_mailbox" in shape for shape in shapes)
    assert AlertRequest.objects.count() == 5


def test_the_worker_applies_the_stored_request(client, launch_content):
    gpu = GPU.objects.exclude(price_usd_per_hour=None).first()
    assert post(client, gpu, "Ana@example.com", "1.25").status_code == 303
    assert not PriceAlert.objects.exists() and not OutboxEmail.objects.exists()
    output = run_mail_worker()
    assert "Price alert requests: 1 applied." in output
    alert = PriceAlert.objects.get()
    assert (alert.email, alert.gpu, alert.target_usd_per_hour, alert.language) == (
        "Ana@example.com", gpu, Decimal("1.25"), "es")
    assert alert.consent_record.consent_text_version == "price-alert-2"
    assert OutboxEmail.objects.get().sent_at is not None
    assert not AlertRequest.objects.exists()


def test_an_erasure_deletes_the_waiting_requests(client, launch_content):
    gpu = GPU.objects.exclude(price_usd_per_hour=None).first()
    post(client, gpu, "ana@example.com")
    erase_person("ANA@example.com")
    assert not AlertRequest.objects.exists()
    run_mail_worker()
    assert not PriceAlert.objects.exists() and not ConsentRecord.objects.exists()


def test_the_migration_keeps_the_alerts(migrations_rolled_back):
    others = [(app, name) for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes() if app != "alerts"]
    old = migrations_rolled_back([*others, ("alerts", "0004_alert_last_notified_price")])
    gpu = old.get_model("catalog", "GPU").objects.create(
        slug="old-gpu", vendor="V", name="Old GPU", architecture="A", memory_gb=Decimal(80), derived_source="")
    old.get_model("alerts", "PriceAlert").objects.create(
        email="old@example.com", gpu=gpu, target_usd_per_hour=Decimal("2.50"), language="de",
        consent_text_version="price-alert-2", consent_language="de", source_path="/de/")
    new = migrations_rolled_back([*others, ("alerts", "0005_alert_requests")])
    assert new.get_model("alerts", "PriceAlert").objects.get().email == "old@example.com"
    assert not new.get_model("alerts", "AlertRequest").objects.exists()

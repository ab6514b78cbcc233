"""The provider application form answers the same whatever the address holds (issue 48): it stores the request
(one insert, and its origin) and the mail worker applies it (the repeat check, the mailbox lock, the application
with its GPU rows and consent record, the acknowledgement within the mail budget), as the waitlist and the price
alert form do; a new address and known ones (an application already stored, one accepted, one from the same
company) get the same answer by the same queries and writes. An erasure deletes the waiting requests too."""
import re
import uuid
from datetime import UTC, datetime

from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from catalog.models import GPU
from optin.erasure import erase_person
from optin.models import ConsentRecord, OutboxEmail
from providers.models import ApplicationRequest, OfferedGPU, ProviderApplication

from .. import factories
from ..localized_urls import url_in
from ..queries import query_shapes
from ..signup_helpers import provider_data, run_mail_worker

KNOWN = "marta@computo.example"
CONSENT = {"consent_text_version": "provider-2", "consent_language": "es", "source_path": "/es/"}


def post(client, email, company="Cómputo Ibérico S.L."):
    return client.post(url_in("es", "providers:application"),
                       provider_data(email=email, company=company, submission=str(uuid.uuid4())))


def test_a_known_and_a_new_address_get_the_same_answer_by_the_same_queries_and_writes(client, launch_content,
                                                                                     settings):
    settings.SIGNUP_RATE_LIMIT = 1000
    factories.provider_application(email=KNOWN, company="Cómputo Ibérico S.L.")
    factories.provider_application(email="eva@rechenzentrum.example", company="Rechenzentrum Nord GmbH",
                                   status=ProviderApplication.Status.ACCEPTED)
    factories.provider_application(email="rui@nuvem.example", company="Nuvem Lusa Lda")
    # What a process reads once per content version (the privacy policy's version) is read by this first one.
    assert post(client, "first@example.com", "First S.A.").status_code == 303
    answers = {}
    for label, email, company in (
            ("new", "new@example.com", "Nueva S.A."),
            ("known, its application stored", KNOWN.upper(), "cómputo ibérico s.l."),
            ("known, its application accepted", "eva@rechenzentrum.example", "Rechenzentrum Nord GmbH"),
            ("known, the same company", "ana@nuvem.example", "Nuvem Lusa Lda")):
        with CaptureQueriesContext(connection) as queries:
            response = post(client, email, company)
        # The savepoint of the request's transaction is named after the thread and a counter.
        shapes = [re.sub(r'SAVEPOINT "s\d+_x\d+"', "SAVEPOINT ?", shape)
                  for shape in query_shapes(queries.captured_queries)]
        answers[label] = (response.status_code, response["Location"], response.content, shapes)
    assert len({repr(answer) for answer in answers.values()}) == 1, answers
    shapes = answers["new"][3]
    writes = [shape for shape in shapes if shape.split()[0] in ("INSERT", "UPDATE", "DELETE")]
    # The rate limit's count, the request and its origin (the client network its mail counts against).
    assert len(writes) == 3 and "providers_applicationrequest" in writes[1], writes
    assert "optin_requestorigin" in writes[2], writes
    assert not any(table in shape for shape in shapes for table in (
        "signups_providerapplication", "providers_offeredgpu", "optin_mailbox", "optin_outboxemail"))
    assert ApplicationRequest.objects.count() == 5 and ProviderApplication.objects.count() == 3


def test_the_worker_applies_the_stored_request(client, launch_content):
    response = client.post(url_in("pt", "providers:application"), provider_data(email="Ana@Dados.example"))
    assert response.status_code == 303
    assert not ProviderApplication.objects.exists() and not OutboxEmail.objects.exists()
    received_at = ApplicationRequest.objects.get().received_at
    output = run_mail_worker()
    assert "Provider applications: 1 applied." in output
    application = ProviderApplication.objects.get()
    assert (application.email, application.company, application.language, application.submitted_at) == (
        "Ana@dados.example", "Cómputo Ibérico S.L.", "pt", received_at)
    assert [(row.gpu.slug if row.gpu else None, row.name, row.count, row.location, row.order)
            for row in application.offered_gpus.all()] == [
        ("h100-sxm", "H100 SXM", 16, "Madrid, España", 0), (None, "A100 80 GB", 8, "Bilbao, España", 1)]
    assert application.consent_text_version == "provider-2" and application.consent_language == "pt"
    assert application.consent_record.asked_at == received_at
    assert OutboxEmail.objects.get().sent_at is not None and mail.outbox[0].to == ["Ana@dados.example"]
    assert not ApplicationRequest.objects.exists()


def test_a_repeat_waits_as_a_request_and_the_worker_drops_it(client, launch_content):
    key = str(uuid.uuid4())
    for _click in range(2):
        client.post(url_in("es", "providers:application"), provider_data(submission=key))
    client.post(url_in("es", "providers:application"), provider_data(email="MARTA@computo.example"))
    assert ApplicationRequest.objects.count() == 3
    assert "Provider applications: 3 applied." in run_mail_worker()
    assert ProviderApplication.objects.count() == 1 and len(mail.outbox) == 1
    assert not ApplicationRequest.objects.exists()


def test_a_gpu_deleted_before_the_worker_applies_the_request_is_kept_by_name(client, launch_content):
    client.post(url_in("es", "providers:application"), provider_data())
    GPU.objects.filter(slug="h100-sxm").delete()
    run_mail_worker()
    assert [(row.gpu, row.name) for row in OfferedGPU.objects.all()] == [(None, "H100 SXM"), (None, "A100 80 GB")]


def test_an_erasure_deletes_the_waiting_requests(client, launch_content):
    client.post(url_in("es", "providers:application"), provider_data(email="ana@example.com"))
    erase_person("ANA@example.com")
    assert not ApplicationRequest.objects.exists()
    run_mail_worker()
    assert not ProviderApplication.objects.exists() and not ConsentRecord.objects.exists()
    assert not mail.outbox


def test_the_migration_keeps_the_applications(migrations_rolled_back):
    others = [(app, name) for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes()
              if app != "providers"]
    old = migrations_rolled_back([*others, ("providers", "0002_offered_gpus_and_page_texts")])
    application = old.get_model("providers", "ProviderApplication").objects.create(
        company="Rechenzentrum GmbH", contact_name="Eva", email="eva@example.com", country="DE", language="de",
        status="contacted", submitted_at=datetime(2026, 12, 1, tzinfo=UTC), **CONSENT)
    old.get_model("providers", "OfferedGPU").objects.create(application=application, name="H100 SXM", count=16,
                                                            location="Frankfurt")
    new = migrations_rolled_back([*others, ("providers", "0003_application_requests")])
    kept = new.get_model("providers", "ProviderApplication").objects.get()
    assert (kept.email, kept.status, kept.company) == ("eva@example.com", "contacted", "Rechenzentrum GmbH")
    assert [(row.name, row.count) for row in new.get_model("providers", "OfferedGPU").objects.all()] == [
        ("H100 SXM", 16)]
    assert not new.get_model("providers", "ApplicationRequest").objects.exists()

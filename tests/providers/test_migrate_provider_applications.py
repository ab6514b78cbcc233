"""Provider applications move from ``signups`` to ``providers`` (issue 45): a database filled as the release
before left it (applications with their GPUs as free text, their consent records, a group's permission on them)
is migrated forward, and every application is still there with every value, its free text shown beside the (new,
empty) GPU rows in the admin and counted on the demand page as unstructured; the permission follows the model."""
from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from catalog.models import GPU
from demand import figures
from providers.models import OfferedGPU, ProviderApplication

BEFORE = {"signups": "0013_signup_unsubscribed_at_goes"}
AT = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
APPLICATIONS = [
    {"company": "Rechenzentrum GmbH", "contact_name": "Eva", "email": "eva@example.com", "country": "DE",
     "gpus": "16 × H100 SXM, 8 × A100 80 GB", "server_locations": "Frankfurt am Main", "message": "Hallo",
     "language": "de", "status": "contacted", "submission": "00000000-0000-4000-8000-000000000007",
     "consent_text_version": "provider-2", "privacy_policy_version": "privacy-3", "consent_language": "de",
     "source_path": "/de/anbieter/bewerben/"},
    {"company": "Nuvem Lusa Lda", "contact_name": "Rui", "email": "rui@example.com", "country": "PT",
     "gpus": "4 × RTX 4090", "server_locations": "Lisboa", "message": "", "language": "pt", "status": "new",
     "submission": None, "consent_text_version": "provider-1", "privacy_policy_version": "",
     "consent_language": "pt", "source_path": "/pt/"},
]


def before(executor):
    """Every other app at its latest migration that does not need the move (a later app's migration that depends on
    the moved model, such as the alerts' link to a launch-list signup, is left out with what follows it)."""
    graph = executor.loader.graph
    moved = {node for node in graph.nodes
             if node[0] == "providers" or (node[0] == "signups" and node[1] > BEFORE["signups"])}
    targets = []
    for app, name in graph.leaf_nodes():
        if app in BEFORE or app == "providers":
            continue
        node = (app, name)
        while node is not None and moved & set(graph.forwards_plan(node)):
            node = next((parent for parent in graph.node_map[node].parents if parent[0] == app), None)
        targets.append(node or (app, None))
    return [*targets, *BEFORE.items()]


def unapply_providers():
    """No migration of providers: it depends on the release's signups, so rolling signups back to that release
    alone would leave it applied (in the test's transaction, rolled back with it: ``migrations_rolled_back``)."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    MigrationExecutor(connection).migrate([("providers", None)])


def fill(old):
    ConsentRecord = old.get_model("optin", "ConsentRecord")
    Application = old.get_model("signups", "ProviderApplication")
    made = []
    for answers in APPLICATIONS:
        record = ConsentRecord.objects.create(
            purpose="provider_application", address_hash=answers["email"][0] * 64, asked_at=AT,
            **{field: answers[field] for field in ("consent_text_version", "privacy_policy_version",
                                                    "consent_language", "source_path")})
        made.append(Application.objects.create(submitted_at=AT, consent_record=record, **answers).pk)
    ContentType, Permission = old.get_model("contenttypes", "ContentType"), old.get_model("auth", "Permission")
    content_type, _created = ContentType.objects.get_or_create(app_label="signups", model="providerapplication")
    permission, _created = Permission.objects.get_or_create(
        content_type=content_type, codename="change_providerapplication",
        defaults={"name": "Can change provider application"})
    old.get_model("auth", "Group").objects.create(name="Provider desk").permissions.add(permission)
    return made


def test_applications_with_free_text_survive_the_move_and_are_shown(migrations_rolled_back, client):
    unapply_providers()
    made = fill(migrations_rolled_back(before(MigrationExecutor(connection))))
    migrations_rolled_back(None)

    for pk, answers in zip(made, APPLICATIONS, strict=True):
        application = ProviderApplication.objects.get(pk=pk)
        kept = {field: getattr(application, field) for field in answers}
        kept["submission"] = str(application.submission) if application.submission else None
        assert kept == answers
        assert application.submitted_at == AT
        assert application.consent_record.consent_text_version == answers["consent_text_version"]
        assert not application.offered_gpus.exists()
    assert ContentType.objects.get_for_model(ProviderApplication).app_label == "providers"
    assert not ContentType.objects.filter(app_label="signups", model="providerapplication").exists()
    granted = Group.objects.get(name="Provider desk").permissions.select_related("content_type")
    assert [(p.content_type.app_label, p.codename) for p in granted] == [("providers", "change_providerapplication")]

    # The admin shows the free text the application was sent with, beside its (empty) GPU rows.
    client.force_login(get_user_model().objects.create_superuser("founder", "f@example.com", "a-long-pass-1"))
    body = client.get(reverse("admin:providers_providerapplication_change", args=[made[0]])).content.decode()
    assert "16 × H100 SXM, 8 × A100 80 GB" in body and "Frankfurt am Main" in body
    listing = client.get(reverse("admin:providers_providerapplication_changelist")).content.decode()
    assert "4 × RTX 4090" in listing
    # The demand page counts them as unstructured; rows added now are counted per model.
    assert figures.supply().unstructured_applications == 2
    OfferedGPU.objects.create(application_id=made[1], gpu=GPU.objects.get(slug="rtx-4090"), name="RTX 4090",
                              count=4, location="Lisboa")
    supply = figures.supply()
    assert supply.unstructured_applications == 1
    assert [(row.gpu_slug, row.offered, row.applications) for row in supply.rows] == [("rtx-4090", 4, 1)]

"""The calculator's model presets move from ``catalog`` to ``estimator`` (issue 49): a database filled as the
release before left it (presets an editor added or changed, a group's permission on them) is migrated forward, and
every preset is still there with every value, in the same table; the permission follows the model."""
from decimal import Decimal

from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from estimator.models import ModelPreset

BEFORE = {"catalog": "0009_derived_figures_price_source"}
PRESETS = [
    {"slug": "editors-dense-7b", "name": "Editor's dense 7B", "billion_params": Decimal("7.2"),
     "active_billion_params": None, "layers": 32, "kv_heads": 8, "head_dim": 128},
    {"slug": "editors-moe-47b", "name": "Editor's MoE", "billion_params": Decimal("46.7"),
     "active_billion_params": Decimal("12.9"), "layers": 32, "kv_heads": 8, "head_dim": 128},
]


def before(executor):
    """Every app at its leaf but the catalogue, at the release's migration, and the estimator, without any."""
    leaves = [(app, name) for app, name in executor.loader.graph.leaf_nodes() if app not in {*BEFORE, "estimator"}]
    return [*leaves, *BEFORE.items()]


def unapply_estimator():
    """No migration of the estimator: its first takes the model (rolled back with the test's transaction:
    ``migrations_rolled_back``)."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    MigrationExecutor(connection).migrate([("estimator", None)])


def fill(old):
    Preset = old.get_model("catalog", "ModelPreset")
    made = {answers["slug"]: Preset.objects.create(**answers).pk for answers in PRESETS}
    ContentType, Permission = old.get_model("contenttypes", "ContentType"), old.get_model("auth", "Permission")
    content_type, _created = ContentType.objects.get_or_create(app_label="catalog", model="modelpreset")
    permission, _created = Permission.objects.get_or_create(
        content_type=content_type, codename="change_modelpreset", defaults={"name": "Can change model preset"})
    old.get_model("auth", "Group").objects.create(name="Preset keepers").permissions.add(permission)
    return made, content_type.pk


def test_every_preset_and_its_permission_survive_the_move_to_the_estimator(migrations_rolled_back):
    unapply_estimator()
    old = migrations_rolled_back(before(MigrationExecutor(connection)))
    assert "modelpreset" in old.all_models["catalog"] and "modelpreset" not in old.all_models["estimator"]
    made, content_type_id = fill(old)
    migrations_rolled_back(None)

    assert ModelPreset._meta.db_table == "catalog_modelpreset"
    for answers in PRESETS:
        preset = ModelPreset.objects.get(slug=answers["slug"])
        assert preset.pk == made[answers["slug"]]
        assert {field: getattr(preset, field) for field in answers} == answers
    content_type = ContentType.objects.get_for_model(ModelPreset)
    assert (content_type.pk, content_type.app_label) == (content_type_id, "estimator")
    assert not ContentType.objects.filter(app_label="catalog", model="modelpreset").exists()
    [permission] = Group.objects.get(name="Preset keepers").permissions.all()
    assert (permission.content_type_id, permission.codename) == (content_type_id, "change_modelpreset")

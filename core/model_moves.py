"""Moving a model from one app to another while its table and rows stay: the migrations move the model's
state (``SeparateDatabaseAndState``, the table named in ``Meta.db_table``), and this moves its content type,
so the permissions given to groups and users and the admin's history of its rows follow the model.

Kept apart from any app's migrations because several apps move models (``signups`` gave its legal pages to
``company``, its price alerts to ``alerts`` and its mail plumbing to ``optin``)."""
from django.db import migrations


def relabel(apps, from_app, to_app, model_names):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in model_names:
        old = ContentType.objects.filter(app_label=from_app, model=model).first()
        if old is None:
            continue  # a database migrated before any content type was made (post_migrate makes them)
        # A content type made for the new label (post_migrate after an earlier migration back and forth)
        # holds nothing the old one does not: the old one, with the groups' permissions, wins.
        ContentType.objects.filter(app_label=to_app, model=model).delete()
        old.app_label = to_app
        old.save(update_fields=["app_label"])


def move_content_types(from_app, to_app, *model_names):
    """A reversible migration operation that relabels the content types of ``model_names`` (lower case)."""
    return migrations.RunPython(
        lambda apps, schema_editor: relabel(apps, from_app, to_app, model_names),
        lambda apps, schema_editor: relabel(apps, to_app, from_app, model_names),
    )

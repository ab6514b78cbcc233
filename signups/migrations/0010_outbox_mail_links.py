"""A confirmation mail names the row it confirms by kind and id instead of a foreign key, so that the outbox can
move below the forms (``optin``) while the rows stay above it (signups here, price alerts in ``alerts``):
existing mails are converted, both ways. Deleting a row still deletes its mails (``optin.outbox``)."""
from django.db import migrations, models

# The kinds the apps register (``optin.outbox.register_link_kind``), by the foreign key that named them.
KINDS = {"confirmation_for": "signup", "alert_confirmation_for": "price_alert"}


def links_from_foreign_keys(apps, schema_editor):
    OutboxEmail = apps.get_model("signups", "OutboxEmail")
    for field, kind in KINDS.items():
        for pk, row_id in OutboxEmail.objects.filter(**{f"{field}__isnull": False}).values_list("pk", f"{field}_id"):
            OutboxEmail.objects.filter(pk=pk).update(link_kind=kind, link_row_id=row_id)


def foreign_keys_from_links(apps, schema_editor):
    OutboxEmail = apps.get_model("signups", "OutboxEmail")
    for field, kind in KINDS.items():
        for pk, row_id in OutboxEmail.objects.filter(link_kind=kind).values_list("pk", "link_row_id"):
            OutboxEmail.objects.filter(pk=pk).update(**{f"{field}_id": row_id})


class Migration(migrations.Migration):

    dependencies = [
        ('signups', '0009_legal_pages_to_company'),
    ]

    operations = [
        migrations.AddField(
            model_name='outboxemail',
            name='link_kind',
            field=models.CharField(blank=True, editable=False, max_length=20),
        ),
        migrations.AddField(
            model_name='outboxemail',
            name='link_row_id',
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(links_from_foreign_keys, foreign_keys_from_links),
        migrations.RemoveField(model_name='outboxemail', name='confirmation_for'),
        migrations.RemoveField(model_name='outboxemail', name='alert_confirmation_for'),
        migrations.AddIndex(
            model_name='outboxemail',
            index=models.Index(fields=['link_kind', 'link_row_id'], name='outbox_link'),
        ),
    ]

"""The erasure log's hashes keyed with a secret (``signups/pseudonyms.py``): each plain SHA-256 already
stored becomes the HMAC of that SHA-256, exactly what ``pseudonyms.erasure_hash`` now computes from the
address, so the erasures logged before stay findable."""
from django.db import migrations, models
from django.utils.crypto import salted_hmac

# signups.pseudonyms.ERASURE_SALT, as it was when this migration was written.
ERASURE_SALT = "signups.pseudonyms.erasure-log-email"


def key_existing_hashes(apps, schema_editor):
    ErasureLog = apps.get_model("signups", "ErasureLog")
    for log in ErasureLog.objects.only("email_hash"):
        log.email_hash = salted_hmac(ERASURE_SALT, log.email_hash, algorithm="sha256").hexdigest()
        log.save(update_fields=["email_hash"])


class Migration(migrations.Migration):

    dependencies = [
        ("signups", "0004_normalize_addresses"),
    ]

    operations = [
        migrations.RenameField(model_name="erasurelog", old_name="email_sha256", new_name="email_hash"),
        migrations.AlterField(
            model_name="erasurelog",
            name="email_hash",
            field=models.CharField(
                max_length=64, verbose_name="keyed hash of the email address (HMAC-SHA256)",
            ),
        ),
        # A keyed hash cannot be turned back into the plain one: going back leaves them keyed.
        migrations.RunPython(key_existing_hashes, migrations.RunPython.noop),
    ]

"""An unsubscribe deletes the signup at once (its consent record keeps the withdrawal), so no signup is kept as
"unsubscribed" any more: the column goes, after alerts 0003 has turned every unsubscribed signup into the record
of its withdrawal and deleted it (the data migration lives there because it needs both apps' models)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("signups", "0012_consent_record_links"),
        ("alerts", "0003_consent_evidence_of_existing_rows"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="signup",
            name="unsubscribed_at",
        ),
    ]

"""The legal pages now belong to ``company`` (its migration 0002 took the model and the table)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('signups', '0008_mail_budget'),
        ('company', '0002_legal_pages_from_signups'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name='LegalPage')]),
    ]

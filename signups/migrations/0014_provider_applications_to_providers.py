"""Provider applications now belong to ``providers`` (its migration 0001 took the model; the table stays as it
is)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('signups', '0013_signup_unsubscribed_at_goes'),
        ('providers', '0001_applications_from_signups'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name='ProviderApplication'),
        ]),
    ]

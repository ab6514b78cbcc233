"""The price an alert last mailed: within its cooldown only a fall well below it mails again. Alerts that mailed
before it was kept have none: their cooldown compares with their target."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('alerts', '0003_consent_evidence_of_existing_rows'),
    ]

    operations = [
        migrations.AddField(
            model_name='pricealert',
            name='last_notified_price_usd_per_hour',
            field=models.DecimalField(blank=True, decimal_places=2, max_digits=8, null=True, verbose_name='last notified price'),
        ),
    ]

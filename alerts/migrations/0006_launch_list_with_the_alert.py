"""An alert's form may ask for the launch list too: the request keeps what the list needs, the alert the signup its
confirmation mail confirms (``price_alerts.confirm_all``)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('alerts', '0005_alert_requests'),
        ('signups', '0014_provider_applications_to_providers'),
    ]

    operations = [
        migrations.AddField(
            model_name='alertrequest',
            name='launch_list_consent_text_version',
            field=models.CharField(blank=True, max_length=40, verbose_name='launch list consent text version'),
        ),
        migrations.AddField(
            model_name='alertrequest',
            name='launch_list_currency',
            field=models.CharField(blank=True, choices=[('EUR', 'Euro (EUR)'), ('USD', 'US dollar (USD)'), ('GBP', 'Pound sterling (GBP)')], max_length=3, verbose_name='balance currency'),
        ),
        migrations.AddField(
            model_name='pricealert',
            name='launch_list_signup',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='signups.signup', verbose_name='launch-list signup confirmed with it'),
        ),
    ]

"""The price alert form stores its requests for the mail worker to apply (``alerts.price_alerts.apply_requests``)."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('alerts', '0004_alert_last_notified_price'),
        ('catalog', '0009_derived_figures_price_source'),
    ]

    operations = [
        migrations.CreateModel(
            name='AlertRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('consent_text_version', models.CharField(max_length=40, verbose_name='consent text version')),
                ('privacy_policy_version', models.CharField(blank=True, max_length=40, verbose_name='privacy policy version')),
                ('consent_language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], help_text='The language the consent text was shown in.', max_length=8, verbose_name='consent language')),
                ('source_path', models.CharField(help_text='The page on this site the visitor came to the form from.', max_length=300, verbose_name="form's page")),
                ('email', models.EmailField(max_length=254, verbose_name='email')),
                ('target_usd_per_hour', models.DecimalField(decimal_places=2, max_digits=8, verbose_name='target price')),
                ('language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], max_length=8, verbose_name='language')),
                ('received_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='received')),
                ('gpu', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='catalog.gpu', verbose_name='GPU')),
            ],
            options={
                'verbose_name': 'waiting price alert request',
                'verbose_name_plural': 'waiting price alert requests',
                'ordering': ['pk'],
            },
        ),
    ]

"""Price alerts move here from ``signups``: the model's state only; the table ``signups_pricealert`` and its rows
stay, and its content type (with the permissions given on it) follows."""
import uuid
from decimal import Decimal

import django.core.validators
import django.db.models.deletion
import django.db.models.functions.text
import django.utils.timezone
from django.db import migrations, models

from core.model_moves import move_content_types


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0006_price_history'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('signups', '0010_outbox_mail_links'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PriceAlert',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('consent_text_version', models.CharField(max_length=40, verbose_name='consent text version')),
                        ('privacy_policy_version', models.CharField(blank=True, max_length=40, verbose_name='privacy policy version')),
                        ('consent_language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], help_text='The language the consent text was shown in.', max_length=8, verbose_name='consent language')),
                        ('source_path', models.CharField(help_text='The page on this site the visitor came to the form from.', max_length=300, verbose_name="form's page")),
                        ('email', models.EmailField(max_length=254, verbose_name='email')),
                        ('target_usd_per_hour', models.DecimalField(decimal_places=2, help_text='USD per GPU-hour: the alert mails when the best price is at or below it.', max_digits=8, validators=[django.core.validators.MinValueValidator(Decimal('0.01')), django.core.validators.MaxValueValidator(Decimal('999999.99'))], verbose_name='target price')),
                        ('requested_target_usd_per_hour', models.DecimalField(blank=True, decimal_places=2, help_text='Waiting for confirmation; the alert keeps its target until then.', max_digits=8, null=True, verbose_name='requested target price')),
                        ('language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], max_length=8, verbose_name='language')),
                        ('state', models.CharField(choices=[('active', 'waiting for the price'), ('resting', 'notified, waiting for the price to rise again')], default='active', max_length=8, verbose_name='state')),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                        ('confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmed')),
                        ('last_notified_at', models.DateTimeField(blank=True, null=True, verbose_name='last notified')),
                        ('confirmation_token_hash', models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True)),
                        ('confirmation_expires_at', models.DateTimeField(blank=True, editable=False, null=True)),
                        ('unsubscribe_key', models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                        ('gpu', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='price_alerts', to='catalog.gpu', verbose_name='GPU')),
                    ],
                    options={
                        'verbose_name': 'price alert',
                        'verbose_name_plural': 'price alerts',
                        'db_table': 'signups_pricealert',
                        'ordering': ['-created_at'],
                        'indexes': [models.Index(condition=models.Q(('confirmed_at__isnull', False)), fields=['gpu', 'state', 'target_usd_per_hour'], name='price_alert_confirmed')],
                        'constraints': [models.UniqueConstraint(django.db.models.functions.text.Lower('email'), models.F('gpu'), name='price_alert_email_gpu_unique_ignoring_case')],
                    },
                ),
            ],
        ),
        move_content_types('signups', 'alerts', 'pricealert'),
    ]

"""Provider applications move here from ``signups``: the model's state only; the table
``signups_providerapplication`` and its rows stay, and its content type (with the permissions given on it)
follows. ``gpus`` and ``server_locations``, the free text of the applications sent so far, stay as they are
(optional from now on: newer applications give GPU rows, ``0002``)."""
import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

from core.model_moves import move_content_types


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('optin', '0002_consent_records'),
        ('signups', '0013_signup_unsubscribed_at_goes'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ProviderApplication',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('consent_text_version', models.CharField(max_length=40, verbose_name='consent text version')),
                        ('privacy_policy_version', models.CharField(blank=True, max_length=40, verbose_name='privacy policy version')),
                        ('consent_language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], help_text='The language the consent text was shown in.', max_length=8, verbose_name='consent language')),
                        ('source_path', models.CharField(help_text='The page on this site the visitor came to the form from.', max_length=300, verbose_name="form's page")),
                        ('company', models.CharField(max_length=200, verbose_name='company')),
                        ('contact_name', models.CharField(max_length=200, verbose_name='contact name')),
                        ('email', models.EmailField(max_length=254, verbose_name='email')),
                        ('country', models.CharField(help_text="ISO 3166 code of the company's country.", max_length=2, verbose_name='country')),
                        ('gpus', models.TextField(blank=True, max_length=2000, verbose_name='GPU models and counts')),
                        ('server_locations', models.TextField(blank=True, max_length=1000, verbose_name='where the servers are')),
                        ('message', models.TextField(blank=True, max_length=5000, verbose_name='message')),
                        ('language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], max_length=8, verbose_name='language')),
                        ('status', models.CharField(choices=[('new', 'new'), ('contacted', 'contacted'), ('accepted', 'accepted'), ('declined', 'declined')], default='new', max_length=12, verbose_name='status')),
                        ('submitted_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='submitted')),
                        ('submission', models.UUIDField(blank=True, editable=False, null=True, unique=True)),
                        ('consent_record', models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='optin.consentrecord', verbose_name='consent record')),
                    ],
                    options={
                        'verbose_name': 'provider application',
                        'verbose_name_plural': 'provider applications',
                        'db_table': 'signups_providerapplication',
                        'ordering': ['-submitted_at'],
                    },
                ),
            ],
        ),
        move_content_types('signups', 'providers', 'providerapplication'),
    ]

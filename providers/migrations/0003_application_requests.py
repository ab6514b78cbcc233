"""The application form stores its requests for the mail worker to apply (``providers.applications.apply_requests``)."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('providers', '0002_offered_gpus_and_page_texts'),
    ]

    operations = [
        migrations.CreateModel(
            name='ApplicationRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('consent_text_version', models.CharField(max_length=40, verbose_name='consent text version')),
                ('privacy_policy_version', models.CharField(blank=True, max_length=40, verbose_name='privacy policy version')),
                ('consent_language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], help_text='The language the consent text was shown in.', max_length=8, verbose_name='consent language')),
                ('source_path', models.CharField(help_text='The page on this site the visitor came to the form from.', max_length=300, verbose_name="form's page")),
                ('submission', models.UUIDField(editable=False)),
                ('company', models.CharField(max_length=200, verbose_name='company')),
                ('contact_name', models.CharField(max_length=200, verbose_name='contact name')),
                ('email', models.EmailField(max_length=254, verbose_name='email')),
                ('country', models.CharField(max_length=2, verbose_name='country')),
                ('message', models.TextField(blank=True, max_length=5000, verbose_name='message')),
                ('offered', models.JSONField(default=list, verbose_name='offered GPUs')),
                ('language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], max_length=8, verbose_name='language')),
                ('received_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='received')),
            ],
            options={
                'verbose_name': 'waiting provider application',
                'verbose_name_plural': 'waiting provider applications',
                'ordering': ['pk'],
            },
        ),
    ]

"""The hourly cap on forms' mails to addresses not confirmed: each such mail is marked and carries its client network's
keyed hash; a request stored for the worker keeps that hash beside it. Mails queued before are not capped."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('optin', '0002_consent_records'),
    ]

    operations = [
        migrations.CreateModel(
            name='RequestOrigin',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('object_id', models.BigIntegerField()),
                ('origin', models.CharField(max_length=32)),
            ],
        ),
        migrations.AddField(
            model_name='outboxemail',
            name='capped',
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name='outboxemail',
            name='origin',
            field=models.CharField(blank=True, editable=False, max_length=32),
        ),
        migrations.AddIndex(
            model_name='outboxemail',
            index=models.Index(condition=models.Q(('capped', True)), fields=['sent_at', 'origin'], name='outbox_capped_sent'),
        ),
        migrations.AddField(
            model_name='requestorigin',
            name='content_type',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='contenttypes.contenttype'),
        ),
        migrations.AddConstraint(
            model_name='requestorigin',
            constraint=models.UniqueConstraint(fields=('content_type', 'object_id'), name='request_origin_unique'),
        ),
    ]

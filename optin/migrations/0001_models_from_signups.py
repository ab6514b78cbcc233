"""The outbox, the mail budget's mailboxes and the erasure log move here from ``signups``: the models' state
only; their tables and rows stay, and their content types (with the permissions given on them) follow."""
import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

from core.model_moves import move_content_types


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('signups', '0010_outbox_mail_links'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ErasureLog',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('email_hash', models.CharField(max_length=64, verbose_name='keyed hash of the email address (HMAC-SHA256)')),
                        ('erased_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='erased')),
                    ],
                    options={
                        'verbose_name': 'erasure',
                        'verbose_name_plural': 'erasures',
                        'db_table': 'signups_erasurelog',
                        'ordering': ['-erased_at'],
                    },
                ),
                migrations.CreateModel(
                    name='Mailbox',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('address_hash', models.CharField(editable=False, max_length=64, unique=True)),
                    ],
                    options={
                        'db_table': 'signups_mailbox',
                    },
                ),
                migrations.CreateModel(
                    name='OutboxEmail',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('recipient', models.EmailField(max_length=254, verbose_name='recipient')),
                        ('subject', models.CharField(max_length=255, verbose_name='subject')),
                        ('body', models.TextField(verbose_name='text')),
                        ('headers', models.JSONField(blank=True, default=dict, verbose_name='headers')),
                        ('language', models.CharField(choices=[('es', 'Spanish'), ('pt', 'Portuguese'), ('de', 'German'), ('en', 'English')], max_length=8, verbose_name='language')),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                        ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                        ('next_attempt_at', models.DateTimeField(blank=True, default=django.utils.timezone.now, null=True, verbose_name='next attempt')),
                        ('sent_at', models.DateTimeField(blank=True, null=True, verbose_name='sent')),
                        ('last_error', models.TextField(blank=True, verbose_name='last error')),
                        ('link_kind', models.CharField(blank=True, editable=False, max_length=20)),
                        ('link_row_id', models.BigIntegerField(blank=True, editable=False, null=True)),
                    ],
                    options={
                        'verbose_name': 'outgoing email',
                        'verbose_name_plural': 'outgoing emails',
                        'db_table': 'signups_outboxemail',
                        'ordering': ['-created_at'],
                        'indexes': [models.Index(condition=models.Q(('sent_at__isnull', True)), fields=['next_attempt_at'], name='outbox_due'), models.Index(fields=['link_kind', 'link_row_id'], name='outbox_link')],
                    },
                ),
                migrations.CreateModel(
                    name='MailboxMail',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('queued_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('mailbox', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='mails', to='optin.mailbox')),
                    ],
                    options={
                        'db_table': 'signups_mailboxmail',
                        'indexes': [models.Index(fields=['mailbox', 'queued_at'], name='mailbox_mail_recent')],
                    },
                ),
            ],
        ),
        move_content_types('signups', 'optin', 'outboxemail', 'mailbox', 'mailboxmail', 'erasurelog'),
    ]

"""The legal pages move here from ``signups``: the model's state only; the table ``signups_legalpage`` and its
rows stay, and its content type (with the permissions given on it) follows."""
from django.db import migrations, models

from core.model_moves import move_content_types

HELP_BODY = ('Paragraphs separated by an empty line; a paragraph starting with "## " is a heading, lines starting '
             'with "- " make a list.')


class Migration(migrations.Migration):

    dependencies = [
        ('company', '0001_operator_record'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('signups', '0008_mail_budget'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='LegalPage',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(choices=[('privacy', 'privacy policy'), ('legal-notice', 'legal notice')], max_length=20, unique=True, verbose_name='key')),
                        ('title', models.CharField(max_length=160, verbose_name='title')),
                        ('title_es', models.CharField(max_length=160, null=True, verbose_name='title')),
                        ('title_pt', models.CharField(max_length=160, null=True, verbose_name='title')),
                        ('title_de', models.CharField(max_length=160, null=True, verbose_name='title')),
                        ('title_en', models.CharField(max_length=160, null=True, verbose_name='title')),
                        ('body', models.TextField(help_text=HELP_BODY, verbose_name='text')),
                        ('body_es', models.TextField(help_text=HELP_BODY, null=True, verbose_name='text')),
                        ('body_pt', models.TextField(help_text=HELP_BODY, null=True, verbose_name='text')),
                        ('body_de', models.TextField(help_text=HELP_BODY, null=True, verbose_name='text')),
                        ('body_en', models.TextField(help_text=HELP_BODY, null=True, verbose_name='text')),
                        ('version', models.CharField(help_text='Change it with every change of substance: signups record the version they agreed to.', max_length=40, verbose_name='version')),
                        ('updated', models.DateField(help_text='Shown on the page.', verbose_name='last updated')),
                    ],
                    options={
                        'verbose_name': 'legal page',
                        'verbose_name_plural': 'legal pages',
                        'ordering': ['key'],
                        'db_table': 'signups_legalpage',
                    },
                ),
            ],
        ),
        move_content_types('signups', 'company', 'legalpage'),
    ]

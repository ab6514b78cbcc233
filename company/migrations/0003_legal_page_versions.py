"""Each legal page version's text is kept (``LegalPageVersion``): the pages as they are now keep theirs, as the
text of their current version (what consents recorded since that version was set were given on; the text of
earlier versions was not kept)."""
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def keep_current_texts(apps, schema_editor):
    LegalPage = apps.get_model("company", "LegalPage")
    LegalPageVersion = apps.get_model("company", "LegalPageVersion")
    for page in LegalPage.objects.all():
        texts = {code: {"title": getattr(page, f"title_{code}", "") or "", "body": getattr(page, f"body_{code}", "") or ""}
                 for code, _name in settings.LANGUAGES}
        LegalPageVersion.objects.get_or_create(key=page.key, version=page.version,
                                               defaults={"texts": texts, "updated": page.updated})


class Migration(migrations.Migration):

    dependencies = [
        ('company', '0002_legal_pages_from_signups'),
    ]

    operations = [
        migrations.CreateModel(
            name='LegalPageVersion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(choices=[('privacy', 'privacy policy'), ('legal-notice', 'legal notice')], max_length=20, verbose_name='page')),
                ('version', models.CharField(max_length=40, verbose_name='version')),
                ('texts', models.JSONField(default=dict, verbose_name='texts')),
                ('updated', models.DateField(verbose_name='last updated')),
                ('kept_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='kept since')),
            ],
            options={
                'verbose_name': 'legal page version',
                'verbose_name_plural': 'legal page versions',
                'ordering': ['key', '-kept_at'],
                'constraints': [models.UniqueConstraint(fields=('key', 'version'), name='legal_page_version_unique')],
            },
        ),
        migrations.RunPython(keep_current_texts, migrations.RunPython.noop),
    ]

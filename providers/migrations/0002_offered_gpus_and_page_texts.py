"""The GPUs an application offers, one row per model, and the provider page's sections for editors."""
import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0009_derived_figures_price_source'),
        ('providers', '0001_applications_from_signups'),
    ]

    operations = [
        migrations.CreateModel(
            name='ProviderPageText',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('order', models.PositiveSmallIntegerField(default=0, verbose_name='order')),
                ('heading', models.CharField(max_length=160, verbose_name='heading')),
                ('heading_es', models.CharField(max_length=160, null=True, verbose_name='heading')),
                ('heading_pt', models.CharField(max_length=160, null=True, verbose_name='heading')),
                ('heading_de', models.CharField(max_length=160, null=True, verbose_name='heading')),
                ('heading_en', models.CharField(max_length=160, null=True, verbose_name='heading')),
                ('body', models.TextField(verbose_name='text')),
                ('body_es', models.TextField(null=True, verbose_name='text')),
                ('body_pt', models.TextField(null=True, verbose_name='text')),
                ('body_de', models.TextField(null=True, verbose_name='text')),
                ('body_en', models.TextField(null=True, verbose_name='text')),
                ('topic', models.CharField(choices=[('requirements', 'what qualifies'), ('onboarding', 'how onboarding goes'), ('terms', 'platform fee and payouts')], max_length=16, verbose_name='topic')),
            ],
            options={
                'verbose_name': 'provider page section',
                'verbose_name_plural': 'provider page sections',
                'ordering': ['order', 'id'],
                'abstract': False,
            },
        ),
        migrations.CreateModel(
            name='OfferedGPU',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('order', models.PositiveSmallIntegerField(default=0, verbose_name='order')),
                ('name', models.CharField(max_length=80, verbose_name='GPU model')),
                ('count', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(100000)], verbose_name='number of GPUs')),
                ('location', models.CharField(max_length=200, verbose_name='where they are')),
                ('gpu', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='catalog.gpu', verbose_name='GPU')),
                ('application', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='offered_gpus', to='providers.providerapplication', verbose_name='provider application')),
            ],
            options={
                'verbose_name': 'offered GPU',
                'verbose_name_plural': 'offered GPUs',
                'ordering': ['application', 'order', 'pk'],
            },
        ),
    ]

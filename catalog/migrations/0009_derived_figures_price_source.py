"""Derived per-GPU figures beside the published ones; where each current price came from. A current price
is from where its history's last point is from. A launch price that is still a GPU's only point was dated
when the launch data was loaded: it takes the launch data's date instead (``price_date`` in gpus.csv, the
same for every GPU when this migration was written)."""
from datetime import UTC, datetime

import django.core.validators
from django.db import migrations, models

LAUNCH_PRICE_DATE = datetime(2026, 11, 30, tzinfo=UTC)


def set_price_sources(apps, schema_editor):
    GPU = apps.get_model("catalog", "GPU")
    PricePoint = apps.get_model("catalog", "PricePoint")
    for gpu in GPU.objects.all():
        points = list(PricePoint.objects.filter(gpu=gpu).order_by("-time", "-pk")[:2])
        if not points:
            continue
        gpu.price_source = points[0].source
        launch_only = len(points) == 1 and points[0].source == "launch"
        if launch_only and points[0].usd_per_hour == gpu.price_usd_per_hour and points[0].time > LAUNCH_PRICE_DATE:
            PricePoint.objects.filter(pk=points[0].pk).update(time=LAUNCH_PRICE_DATE)
            gpu.price_updated_at = LAUNCH_PRICE_DATE
        gpu.save(update_fields=["price_source", "price_updated_at"])


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0008_model_preset_active_parameters'),
    ]

    operations = [
        migrations.AddField(
            model_name='gpu',
            name='bandwidth_gbs_derived',
            field=models.DecimalField(blank=True, decimal_places=1, help_text='GB/s per GPU derived from a system figure, for a GPU whose vendor publishes none per GPU; say how in “source of the derived figures”.', max_digits=8, null=True, validators=[django.core.validators.MinValueValidator(0)], verbose_name='memory bandwidth, derived per GPU'),
        ),
        migrations.AddField(
            model_name='gpu',
            name='bf16_dense_tflops_derived',
            field=models.DecimalField(blank=True, decimal_places=1, help_text='Dense TFLOPS per GPU derived from a system figure, for a GPU whose vendor publishes none per GPU; say how in “source of the derived figures”.', max_digits=8, null=True, validators=[django.core.validators.MinValueValidator(0)], verbose_name='BF16 tensor, derived per GPU'),
        ),
        migrations.AddField(
            model_name='gpu',
            name='derived_source',
            field=models.TextField(blank=True, help_text='How the derived figures were computed, and the address of the vendor’s figure.', verbose_name='source of the derived figures'),
        ),
        migrations.AddField(
            model_name='gpu',
            name='derived_source_de',
            field=models.TextField(blank=True, help_text='How the derived figures were computed, and the address of the vendor’s figure.', null=True, verbose_name='source of the derived figures'),
        ),
        migrations.AddField(
            model_name='gpu',
            name='derived_source_en',
            field=models.TextField(blank=True, help_text='How the derived figures were computed, and the address of the vendor’s figure.', null=True, verbose_name='source of the derived figures'),
        ),
        migrations.AddField(
            model_name='gpu',
            name='derived_source_es',
            field=models.TextField(blank=True, help_text='How the derived figures were computed, and the address of the vendor’s figure.', null=True, verbose_name='source of the derived figures'),
        ),
        migrations.AddField(
            model_name='gpu',
            name='derived_source_pt',
            field=models.TextField(blank=True, help_text='How the derived figures were computed, and the address of the vendor’s figure.', null=True, verbose_name='source of the derived figures'),
        ),
        migrations.AddField(
            model_name='gpu',
            name='price_source',
            field=models.CharField(choices=[('launch', 'launch data'), ('import', 'price import'), ('admin', 'admin edit')], default='launch', help_text="Launch data: the price's time is the launch data's date. An import or an edit sets it.", max_length=10, verbose_name='price source'),
        ),
        migrations.RunPython(set_price_sources, migrations.RunPython.noop),
    ]

"""One point of price history per GPU: its current price at its price's time (or now, for a price without a
time), as launch data. A GPU with neither a price nor a time has nothing to record; one that already has points
is left alone."""
from django.db import migrations
from django.utils import timezone


def seed_price_points(apps, schema_editor):
    GPU = apps.get_model("catalog", "GPU")
    PricePoint = apps.get_model("catalog", "PricePoint")
    now = timezone.now()
    PricePoint.objects.bulk_create(
        PricePoint(gpu=gpu, usd_per_hour=gpu.price_usd_per_hour, time=gpu.price_updated_at or now, source="launch")
        for gpu in GPU.objects.filter(price_points__isnull=True).distinct()
        if gpu.price_usd_per_hour is not None or gpu.price_updated_at is not None
    )


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0006_price_history"),
    ]

    operations = [
        migrations.RunPython(seed_price_points, migrations.RunPython.noop),
    ]

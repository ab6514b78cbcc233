"""The calculator's model presets now belong to ``estimator`` (its migration 0001 took the model; the table
``catalog_modelpreset`` stays as it is)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0009_derived_figures_price_source'),
        ('estimator', '0001_model_presets_from_catalog'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name='ModelPreset'),
        ]),
    ]

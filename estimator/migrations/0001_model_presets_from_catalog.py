"""The calculator's model presets move here from ``catalog``: the model's state only; the table
``catalog_modelpreset`` and its rows stay, and its content type (with the permissions given on it) follows."""
from decimal import Decimal

import django.core.validators
from django.db import migrations, models

from core.model_moves import move_content_types


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0009_derived_figures_price_source'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ModelPreset',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slug', models.SlugField(max_length=60, unique=True, verbose_name='slug')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('billion_params', models.DecimalField(decimal_places=1, help_text='Billions of parameters.', max_digits=7, validators=[django.core.validators.MinValueValidator(Decimal('0.1'))], verbose_name='model size')),
                        ('active_billion_params', models.DecimalField(blank=True, decimal_places=1, help_text='Mixture-of-experts models: billions of parameters each token uses. Empty for a dense model.', max_digits=7, null=True, validators=[django.core.validators.MinValueValidator(Decimal('0.1'))], verbose_name='active parameters')),
                        ('layers', models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='layers')),
                        ('kv_heads', models.PositiveSmallIntegerField(help_text='Key and value heads per layer.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='KV heads')),
                        ('head_dim', models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='head dimension')),
                    ],
                    options={
                        'verbose_name': 'model preset',
                        'verbose_name_plural': 'model presets',
                        'db_table': 'catalog_modelpreset',
                        'ordering': ['billion_params', 'name'],
                    },
                ),
            ],
        ),
        move_content_types('catalog', 'estimator', 'modelpreset'),
    ]

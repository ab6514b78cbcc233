"""The calculator's model presets: public language models whose shape the calculator offers, loaded from
``data/model_presets.csv`` (``loading.py``) and kept by editors in the admin."""
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class ModelPreset(models.Model):
    """A public language model whose shape the sizing calculator offers for its KV cache estimate."""

    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=80)
    billion_params = models.DecimalField(
        _("model size"), max_digits=7, decimal_places=1, validators=[MinValueValidator(Decimal("0.1"))],
        help_text=_("Billions of parameters."),
    )
    active_billion_params = models.DecimalField(
        _("active parameters"), max_digits=7, decimal_places=1, null=True, blank=True,
        validators=[MinValueValidator(Decimal("0.1"))],
        help_text=_("Mixture-of-experts models: billions of parameters each token uses. Empty for a dense model."),
    )
    layers = models.PositiveSmallIntegerField(_("layers"), validators=[MinValueValidator(1)])
    kv_heads = models.PositiveSmallIntegerField(
        _("KV heads"), validators=[MinValueValidator(1)], help_text=_("Key and value heads per layer."),
    )
    head_dim = models.PositiveSmallIntegerField(_("head dimension"), validators=[MinValueValidator(1)])

    class Meta:
        # The table keeps the name it had in the catalogue, where the model was first (migration 0001).
        db_table = "catalog_modelpreset"
        verbose_name = _("model preset")
        verbose_name_plural = _("model presets")
        ordering = ["billion_params", "name"]

    def __str__(self):
        return self.name

    def clean(self):
        if self.active_billion_params is not None and self.billion_params is not None \
                and self.active_billion_params > self.billion_params:
            raise ValidationError({"active_billion_params": _(
                "The active parameters cannot exceed the model's total parameters.")})

    @property
    def compute_billion_params(self):
        """The parameters each token uses: the active ones of a mixture of experts, else all of them."""
        return self.active_billion_params or self.billion_params

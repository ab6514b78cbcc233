"""Blocks of editable page text that several pages share: an ordered heading with its paragraph (``HeadedText``),
and an ordered question with its answer (``Question``). Abstract: each app's concrete model adds the page it belongs
to."""
from django.db import models
from django.utils.translation import gettext_lazy as _


class OrderedBlock(models.Model):
    """A title and its text, in their page's order; named by its title, the first line of text declared."""

    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        abstract = True
        ordering = ["order", "id"]

    def __str__(self):
        return next(str(getattr(self, field.attname)) for field in self._meta.fields
                    if isinstance(field, models.CharField))


class HeadedText(OrderedBlock):
    heading = models.CharField(_("heading"), max_length=160)
    body = models.TextField(_("text"))

    class Meta(OrderedBlock.Meta):
        abstract = True


class Question(OrderedBlock):
    question = models.CharField(_("question"), max_length=240)
    answer = models.TextField(_("answer"))

    class Meta(OrderedBlock.Meta):
        abstract = True
        verbose_name = _("FAQ")
        verbose_name_plural = _("FAQs")

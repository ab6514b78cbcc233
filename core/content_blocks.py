"""Blocks of editable page text that several pages share: an ordered heading with its paragraph, and an
ordered question with its answer. Abstract: each app's concrete model adds the page it belongs to."""
from django.db import models
from django.utils.translation import gettext_lazy as _


class OrderedBlock(models.Model):
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        abstract = True
        ordering = ["order", "id"]


class HeadedText(OrderedBlock):
    """A heading and a paragraph."""

    heading = models.CharField(_("heading"), max_length=160)
    body = models.TextField(_("text"))
    edited_fields = ("order", "heading", "body")

    class Meta(OrderedBlock.Meta):
        abstract = True

    def __str__(self):
        return self.heading


class Question(OrderedBlock):
    """A frequently asked question and its answer."""

    question = models.CharField(_("question"), max_length=240)
    answer = models.TextField(_("answer"))
    edited_fields = ("order", "question", "answer")

    class Meta(OrderedBlock.Meta):
        abstract = True
        verbose_name = _("FAQ")
        verbose_name_plural = _("FAQs")

    def __str__(self):
        return self.question

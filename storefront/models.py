from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from catalog.models import GPU
from core.content_blocks import HeadedText, Question
from core.pages import language_codes


class LandingPage(models.Model):
    """The home page's text, its featured GPUs, steps, facts and FAQs. One row per key; the launch content
    loader creates the home page's."""

    class Key(models.TextChoices):
        HOME = "home", _("home page")

    key = models.CharField(_("key"), max_length=20, choices=Key.choices, unique=True)
    title = models.CharField(_("title"), max_length=160, help_text=_("Browser tab and search results."))
    description = models.CharField(_("description"), max_length=300, help_text=_("Search results and link previews."))
    heading = models.CharField(_("heading"), max_length=160, help_text=_("What EverXCloud is, in one line."))
    lead = models.CharField(_("lead"), max_length=300, help_text=_("One short sentence under the heading."))
    signup_label = models.CharField(_("waitlist button label"), max_length=80)
    catalogue_label = models.CharField(_("catalogue link text"), max_length=80)
    prices_heading = models.CharField(_("prices heading"), max_length=160)
    prices_note = models.CharField(_("prices note"), max_length=300, blank=True)
    workloads_heading = models.CharField(_("workloads heading"), max_length=160)
    renters_heading = models.CharField(_("renters' steps heading"), max_length=160)
    providers_heading = models.CharField(_("providers' steps heading"), max_length=160)
    facts_heading = models.CharField(_("facts heading"), max_length=160)
    faq_heading = models.CharField(_("FAQ heading"), max_length=200)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("landing page")
        verbose_name_plural = _("landing pages")
        ordering = ["key"]

    def __str__(self):
        return self.heading or self.get_key_display()

    def get_absolute_url(self, language=None):
        with translation.override(language or translation.get_language()):
            return reverse("home")

    def page_languages(self):
        """The home page exists in every language (an empty field falls back to English)."""
        return language_codes()


class FeaturedGPU(models.Model):
    """A GPU whose starting price the landing page shows, in the editors' order."""

    landing = models.ForeignKey(LandingPage, on_delete=models.CASCADE, related_name="featured_gpus")
    gpu = models.ForeignKey(
        GPU, on_delete=models.CASCADE, related_name="+", verbose_name=_("GPU"),
        help_text=_("Shown with its best live price; a GPU without a price is left out."),
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("featured GPU")
        verbose_name_plural = _("featured GPUs")
        ordering = ["order", "id"]
        constraints = [models.UniqueConstraint(fields=["landing", "gpu"], name="one_feature_per_gpu")]

    def __str__(self):
        return str(self.gpu)


class RenterStep(HeadedText):
    landing = models.ForeignKey(LandingPage, on_delete=models.CASCADE, related_name="renter_steps")

    class Meta(HeadedText.Meta):
        verbose_name = _("step for renters")
        verbose_name_plural = _("steps for renters")


class ProviderStep(HeadedText):
    landing = models.ForeignKey(LandingPage, on_delete=models.CASCADE, related_name="provider_steps")

    class Meta(HeadedText.Meta):
        verbose_name = _("step for providers")
        verbose_name_plural = _("steps for providers")


class LandingFact(HeadedText):
    """A fact that tells visitors how buying works (prepaid balance, hourly billing, …)."""

    landing = models.ForeignKey(LandingPage, on_delete=models.CASCADE, related_name="facts")

    class Meta(HeadedText.Meta):
        verbose_name = _("fact")
        verbose_name_plural = _("facts")


class LandingFAQ(Question):
    landing = models.ForeignKey(LandingPage, on_delete=models.CASCADE, related_name="faqs")

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from catalog.columns import DecodeCeilingColumn, LargestModelColumn, SpecColumn, UsableMemoryColumn
from catalog.models import GPU
from catalog.sizing_methods import method_choices
from catalog.specs import PLOTTABLE_SPECS, spec_choices
from core.content_blocks import HeadedText, Question
from core.page_addresses import languages_where_taken
from core.pages import language_codes


class WorkloadQuerySet(models.QuerySet):
    def named_in(self, language):
        """Workloads with a title in ``language``, published or not (for cross-links and the signup form's
        choices); ``Workload.is_named_in`` is the same rule for an instance."""
        return self.exclude(
            models.Q(**{f"title_{language}__isnull": True}) | models.Q(**{f"title_{language}": ""})
        )


class Workload(models.Model):
    """A job visitors rent GPUs for, with its page: table, explainers, FAQs and cross-link summary."""

    key = models.SlugField(
        _("key"), max_length=60, unique=True,
        help_text=_("Stable identifier in every language; the launch content files use it."),
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    is_published = models.BooleanField(_("published"), default=False)
    slug = models.SlugField(_("URL slug"), max_length=80)
    title = models.CharField(_("title"), max_length=160, help_text=_("The page's heading and the cross-link text."))
    summary = models.CharField(
        _("summary"), max_length=200, blank=True, help_text=_("One line shown under cross-links."),
    )
    intro = models.TextField(_("introduction"), blank=True)
    table_heading = models.CharField(_("table heading"), max_length=160, blank=True)
    swipe_hint = models.CharField(_("swipe hint"), max_length=160, blank=True)
    note = models.TextField(_("table note"), blank=True, help_text=_("The assumptions behind the table's numbers."))
    matters_heading = models.CharField(_("'what matters' heading"), max_length=160, blank=True)
    compare_label = models.CharField(_("comparison link text"), max_length=160, blank=True)
    faq_heading = models.CharField(_("FAQ heading"), max_length=200, blank=True)
    chart_column = models.SlugField(
        _("chart column"), max_length=40, blank=True,
        help_text=_("Key of the table column the chart plots against the price per hour. Empty: the first "
                    "'largest model that fits' column, else the first column with a quantity such as memory."),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = WorkloadQuerySet.as_manager()

    class Meta:
        verbose_name = _("workload")
        verbose_name_plural = _("workloads")
        ordering = ["order", "key"]

    def __str__(self):
        return self.title or self.key

    def get_absolute_url(self, language=None):
        language = language or translation.get_language()
        with translation.override(language):
            return reverse("workload", kwargs={"slug": getattr(self, f"slug_{language}")})

    def clean(self):
        """Each language's slug is unique among workloads and is not another page's address, so every
        page has one address and can be reached at it."""
        errors = {}
        slugs = {code: slug for code in language_codes() if (slug := getattr(self, f"slug_{code}", None))}
        for code, slug in slugs.items():
            if Workload.objects.exclude(pk=self.pk).filter(**{f"slug_{code}": slug}).exists():
                errors[f"slug_{code}"] = _("Another workload already uses this address in this language.")
        taken = _("Another page of the site has this address in this language.")
        for code in languages_where_taken("workload", slugs):
            errors.setdefault(f"slug_{code}", taken)
        saved_columns = self.columns.all() if self.pk else ()
        if self.chart_column and not any(
            column.key == self.chart_column and column.is_plottable for column in saved_columns
        ):
            errors["chart_column"] = _(
                "No saved column of this workload has this key and a number to plot (a sizing column, or a spec "
                "such as memory or FP64). Save a new column first, then choose it here."
            )
        if errors:
            raise ValidationError(errors)

    def plotted_column(self):
        """The column the chart plots against price: the one ``chart_column`` names if it can be plotted,
        else the first 'largest model that fits' column, else the first plottable spec; None when there is
        none. Works on prefetched columns."""
        columns = list(self.columns.all())
        chosen = [column for column in columns if column.key == self.chart_column and column.is_plottable]
        fits = [column for column in columns if column.kind == WorkloadColumn.Kind.MODEL_FIT]
        specs = [column for column in columns if column.kind == WorkloadColumn.Kind.SPEC and column.is_plottable]
        return next(iter(chosen + fits + specs), None)

    def is_named_in(self, language):
        return bool(getattr(self, f"title_{language}", None))

    def has_page_in(self, language):
        """Its page is published in ``language``: published, with a slug and a title there."""
        return self.is_published and bool(getattr(self, f"slug_{language}", None)) and self.is_named_in(language)

    def page_languages(self):
        """Languages this workload's page exists in, in the site's order."""
        return [code for code in language_codes() if self.has_page_in(code)]


class WorkloadGPU(models.Model):
    """A row of a workload's table."""

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="rows")
    gpu = models.ForeignKey(GPU, on_delete=models.CASCADE, related_name="workload_rows", verbose_name=_("GPU"))
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("table row")
        verbose_name_plural = _("table rows")
        ordering = ["order", "id"]
        constraints = [models.UniqueConstraint(fields=["workload", "gpu"], name="one_row_per_gpu")]

    def __str__(self):
        return f"{self.workload} · {self.gpu}"


class WorkloadColumn(models.Model):
    """A column of a workload's table: a GPU spec, or a number computed by a sizing rule."""

    class Kind(models.TextChoices):
        SPEC = "spec", _("GPU spec")
        MODEL_FIT = "model_fit", _("largest model that fits")
        DECODE_CEILING = "decode_ceiling", _("decode speed ceiling")
        USABLE_MEMORY = "usable_memory", _("usable memory")

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="columns")
    key = models.SlugField(_("key"), max_length=40)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    label = models.CharField(_("heading"), max_length=80)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.SPEC)
    # The specs and sizing methods are the catalogue's registries (catalog.specs, catalog.sizing_methods).
    spec = models.CharField(_("spec"), max_length=30, choices=spec_choices, blank=True)
    method = models.CharField(_("sizing method"), max_length=20, choices=method_choices, blank=True)
    gpu_count = models.PositiveSmallIntegerField(
        _("number of GPUs"), default=1, help_text=_("For sizing columns: GPUs the model is spread across."),
    )
    model_billion_params = models.DecimalField(
        _("model size"), max_digits=7, decimal_places=1, null=True, blank=True,
        help_text=_("Billions of parameters; for the decode speed ceiling."),
    )

    class Meta:
        verbose_name = _("table column")
        verbose_name_plural = _("table columns")
        ordering = ["order", "id"]
        constraints = [models.UniqueConstraint(fields=["workload", "key"], name="column_key_unique_per_workload")]

    def __str__(self):
        return self.label or self.key

    @property
    def is_plottable(self):
        """Its cells hold a quantity a chart can plot against the price: a sizing rule's number, or a spec
        such as memory (not a name, the year or the price itself)."""
        return self.kind != self.Kind.SPEC or self.spec in PLOTTABLE_SPECS

    def gpu_column(self):
        """What its cells show, as the catalogue computes and writes it (``catalog.columns``)."""
        if self.kind == self.Kind.SPEC:
            return SpecColumn(self.spec)
        if self.kind == self.Kind.MODEL_FIT:
            return LargestModelColumn(self.method, self.gpu_count)
        if self.kind == self.Kind.DECODE_CEILING:
            return DecodeCeilingColumn(self.method, self.model_billion_params)
        if self.kind == self.Kind.USABLE_MEMORY:
            return UsableMemoryColumn(self.gpu_count)
        raise ValueError(f"unknown column kind {self.kind!r}")

    def clean(self):
        errors = {}
        if self.kind == self.Kind.SPEC and not self.spec:
            errors["spec"] = _("A spec column needs the spec it shows.")
        if self.kind in (self.Kind.MODEL_FIT, self.Kind.DECODE_CEILING) and not self.method:
            errors["method"] = _("A sizing column needs its method, which sets the bytes per parameter.")
        if self.gpu_count is not None and self.gpu_count < 1:
            errors["gpu_count"] = _("At least one GPU.")
        if self.kind == self.Kind.DECODE_CEILING and not self.model_billion_params:
            errors["model_billion_params"] = _("The decode speed ceiling needs a model size above zero.")
        if errors:
            raise ValidationError(errors)


class WorkloadSection(HeadedText):
    """A "what matters" explainer section."""

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="sections")

    class Meta(HeadedText.Meta):
        verbose_name = _("'what matters' section")
        verbose_name_plural = _("'what matters' sections")


class WorkloadFAQ(Question):
    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="faqs")


class CallToAction(models.Model):
    """A site-wide call to action: be ready on launch day, or join the EverXCloud Network."""

    class Key(models.TextChoices):
        LAUNCH = "launch", _("launch signup")
        PROVIDER = "provider", _("provider application")

    key = models.CharField(_("key"), max_length=20, choices=Key.choices, unique=True)
    heading = models.CharField(_("heading"), max_length=160)
    body = models.TextField(_("text"))
    button_label = models.CharField(_("button label"), max_length=80, blank=True)

    class Meta:
        verbose_name = _("call to action")
        verbose_name_plural = _("calls to action")
        ordering = ["key"]

    def __str__(self):
        return self.heading

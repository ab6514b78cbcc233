from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from core.header_text import validate_header_text
from core.page_addresses import languages_where_taken
from core.pages import language_codes, language_name

# A price's time (the admin's and the price import's rule): not before this, and not more than a clock
# difference ahead of ours.
EARLIEST_PRICE_TIME = datetime(2000, 1, 1, tzinfo=UTC)
CLOCK_DIFFERENCE_ALLOWED = timedelta(minutes=5)


class PriceSource(models.TextChoices):
    """Where a price came from: only an imported or edited price was "updated"; a launch price is dated by the
    launch data."""
    LAUNCH = "launch", _("launch data")
    IMPORT = "import", _("price import")
    ADMIN = "admin", _("admin edit")


class Figure(NamedTuple):
    """A spec's figure for estimates and rankings: the vendor's per-GPU value, or one derived from a system figure
    (``derived`` True), which pages label as such."""
    value: Decimal
    derived: bool


def published_measure(verbose_name, help_text, decimal_places=1):
    """A vendor's figure, never negative; empty (null) while the vendor has not published it, or when the GPU
    does not support it."""
    return models.DecimalField(
        verbose_name, max_digits=8, decimal_places=decimal_places, null=True, blank=True,
        validators=[MinValueValidator(0)], help_text=help_text,
    )


class GPU(models.Model):
    """One GPU model with the vendor's published facts. An empty field means "not published", unless its spec
    is among ``unsupported_specs``: then the GPU does not have the feature at all."""

    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    vendor = models.CharField(_("vendor"), max_length=40)
    name = models.CharField(_("name"), max_length=80)
    architecture = models.CharField(_("architecture"), max_length=60)
    memory_gb = models.DecimalField(
        _("memory"), max_digits=7, decimal_places=1,
        validators=[MinValueValidator(Decimal("0.1"), message=_("Memory must be above zero."))],
        help_text=_("GPU memory in GB."),
    )
    memory_type = models.CharField(_("memory type"), max_length=40, blank=True)
    bandwidth_gbs = published_measure(_("memory bandwidth"), _("GB/s. Leave empty when not published."))
    bf16_dense_tflops = published_measure(_("BF16 tensor"), _("Dense TFLOPS, without sparsity."))
    # Beside the published figures, never in their place: per GPU from a vendor's system figure (HGX board ÷ 8),
    # for GPUs whose vendor publishes none per GPU. Pages keep "not published" and show these beside it.
    bf16_dense_tflops_derived = published_measure(
        _("BF16 tensor, derived per GPU"),
        _("Dense TFLOPS per GPU derived from a system figure, for a GPU whose vendor publishes none per GPU; "
          "say how in “source of the derived figures”."),
    )
    bandwidth_gbs_derived = published_measure(
        _("memory bandwidth, derived per GPU"),
        _("GB/s per GPU derived from a system figure, for a GPU whose vendor publishes none per GPU; say how in "
          "“source of the derived figures”."),
    )
    derived_source = models.TextField(
        _("source of the derived figures"), blank=True,
        help_text=_("How the derived figures were computed, and the address of the vendor’s figure."),
    )
    fp8_dense_tflops = published_measure(_("FP8 tensor"), _("Dense TFLOPS, without sparsity."))
    fp32_tflops = published_measure(_("FP32"), _("TFLOPS."))
    # Two decimals: some GPUs publish a vestigial FP64 rate (1.25 TFLOPS).
    fp64_tflops = published_measure(_("FP64"), _("TFLOPS."), decimal_places=2)
    fp64_tensor_tflops = published_measure(_("FP64 tensor"), _("TFLOPS."), decimal_places=2)
    max_power_w = models.PositiveIntegerField(_("maximum power"), null=True, blank=True, help_text=_("Watts."))
    form_factor = models.CharField(_("form factor"), max_length=80, blank=True)
    interconnect = models.CharField(_("interconnect"), max_length=80, blank=True)
    interconnect_gbs = published_measure(_("interconnect bandwidth"), _("GB/s per GPU, bidirectional."))
    rt_cores = models.PositiveIntegerField(
        _("ray-tracing cores"), null=True, blank=True,
        help_text=_("Leave empty for GPUs without them, and mark them “not supported”."),
    )
    rt_core_generation = models.PositiveSmallIntegerField(_("ray-tracing core generation"), null=True, blank=True)
    year = models.PositiveSmallIntegerField(_("year"), null=True, blank=True)
    price_usd_per_hour = models.DecimalField(
        _("price"), max_digits=8, decimal_places=2, null=True, blank=True,
        # "No live offer" is an empty price, never 0, which would publish "$0.00".
        validators=[MinValueValidator(
            Decimal("0.01"), message=_("A price must be more than 0. Leave it empty when no offer is live."),
        )],
        help_text=_("Best live offer in USD per GPU-hour, before tax. Empty when no offer is live."),
    )
    price_updated_at = models.DateTimeField(_("price updated"), null=True, blank=True)
    price_source = models.CharField(
        _("price source"), max_length=10, choices=PriceSource.choices, default=PriceSource.LAUNCH,
        help_text=_("Launch data: the price's time is the launch data's date. An import or an edit sets it."),
    )
    # Keys of specs (catalog.specs) the GPU does not have; the admin offers those a GPU may lack.
    unsupported_specs = models.JSONField(
        _("not supported"), default=list, blank=True,
        help_text=_("Features this GPU does not have (FP8 on Ampere, ray-tracing cores on data-centre GPUs): pages "
                    "show “—” for them. Leave their fields empty."),
    )

    class Meta:
        verbose_name = _("GPU")
        verbose_name_plural = _("GPUs")
        ordering = ["vendor", "name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self, language=None):
        with translation.override(language or translation.get_language()):
            return reverse("catalog:gpu_detail", kwargs={"slug": self.slug})

    def clean(self):
        """The price's time is plausible; the GPU's page must be reachable: in no language may its address
        be another page's. Its name goes into mail subjects: no line break (``core.header_text``)."""
        self.clean_name()
        self.clean_price_time()
        self.clean_unsupported_specs()
        self.clean_derived_source()
        if not self.slug:
            return
        taken = languages_where_taken("catalog:gpu_detail", dict.fromkeys(self.page_languages(), self.slug))
        if taken:
            raise ValidationError({"slug": _(
                "This slug would make the GPU's page the address of another page in %(language)s; "
                "choose another."
            ) % {"language": language_name(taken[0])}})

    def clean_name(self):
        """Checked here rather than as the field's validator, which would be a migration of the catalogue."""
        try:
            validate_header_text(self.name)
        except ValidationError as error:
            raise ValidationError({"name": error.messages}) from None

    def clean_price_time(self):
        """A price time ahead of now would also make every newer price from the feed look older (kept out)."""
        moment = self.price_updated_at
        if moment and not EARLIEST_PRICE_TIME <= moment <= timezone.now() + CLOCK_DIFFERENCE_ALLOWED:
            message = _("A price’s time must lie between %(earliest)s and now.")
            raise ValidationError({"price_updated_at": message % {"earliest": EARLIEST_PRICE_TIME.date().isoformat()}})

    def clean_unsupported_specs(self):
        """A spec is either a value or "not supported", never both: the page could show only one of them."""
        errors = {}
        for key in self.unsupported_specs or ():
            if getattr(self, key, None) not in (None, ""):
                errors[key] = _("This GPU is marked as not supporting this; empty the field or untick it under "
                                "“not supported”.")
        if errors:
            raise ValidationError(errors)

    def clean_derived_source(self):
        """A derived figure is shown with its source: no derived figure without one."""
        if (self.bf16_dense_tflops_derived is not None or self.bandwidth_gbs_derived is not None) and not (
                self.derived_source or "").strip():
            raise ValidationError({"derived_source": _("Say how the derived figures were computed, and where "
                                                       "the vendor publishes the figure they come from.")})

    def published_or_derived(self, key):
        """The spec's published figure, else its derived one, as a ``Figure``; None when it has neither, or when
        the GPU does not support the feature."""
        if key in (self.unsupported_specs or ()):
            return None
        published = getattr(self, key)
        if published is not None:
            return Figure(published, False)
        derived = getattr(self, f"{key}_derived", None)
        return None if derived is None else Figure(derived, True)

    @property
    def training_bf16_tflops(self):
        """Dense BF16 TFLOPS for training estimates: (value, derived) or None."""
        return self.published_or_derived("bf16_dense_tflops")

    @property
    def decode_bandwidth_gbs(self):
        """Memory bandwidth in GB/s for decode estimates: (value, derived) or None."""
        return self.published_or_derived("bandwidth_gbs")

    def page_languages(self):
        """A GPU's page exists in every language: its words are interface strings or fall back to English."""
        return language_codes()


class PricePoint(models.Model):
    """One price of a GPU at a time, as it came in: the GPU's history. The current price stays on the GPU;
    a point older than it (an older price file) is history only. An empty price is an offer withdrawn."""

    Source = PriceSource

    gpu = models.ForeignKey(GPU, on_delete=models.CASCADE, related_name="price_points", verbose_name=_("GPU"))
    usd_per_hour = models.DecimalField(_("price"), max_digits=8, decimal_places=2, null=True, blank=True)
    time = models.DateTimeField(_("time"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("price point")
        verbose_name_plural = _("price points")
        ordering = ["gpu", "time", "pk"]
        indexes = [models.Index(fields=["gpu", "time"], name="price_point_gpu_time")]

    def __str__(self):
        return f"{self.gpu_id} {self.usd_per_hour} {self.time.isoformat()}"

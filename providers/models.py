"""Provider applications with the GPUs each offers, one row per model, and the editors' text of the provider page.
An application's table keeps the ``signups_`` name it was created under (``Meta.db_table``), so no row moves."""
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.models import GPU
from core.content_blocks import HeadedText
from optin.consent_records import ConsentEvidence, consent_record_field

# The most GPUs one row may offer: more than any fleet that would apply through a form.
MAX_OFFERED_GPUS = 100_000
# The most rows one application may have.
MAX_OFFERED_ROWS = 10


class ProviderApplication(ConsentEvidence):
    """A company asking to sell GPU hours through the EverXCloud Network. Its GPUs are its rows
    (``OfferedGPU``); ``gpus`` and ``server_locations`` hold what applications sent before there were rows (free
    text), kept as it was typed and shown beside the rows."""

    class Status(models.TextChoices):
        NEW = "new", _("new")
        CONTACTED = "contacted", _("contacted")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    company = models.CharField(_("company"), max_length=200)
    contact_name = models.CharField(_("contact name"), max_length=200)
    email = models.EmailField(_("email"), max_length=254)
    country = models.CharField(
        _("country"), max_length=2, help_text=_("ISO 3166 code of the company's country."),
    )
    gpus = models.TextField(_("GPU models and counts"), max_length=2000, blank=True)
    server_locations = models.TextField(_("where the servers are"), max_length=1000, blank=True)
    message = models.TextField(_("message"), max_length=5000, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.NEW)
    submitted_at = models.DateTimeField(_("submitted"), default=timezone.now)
    # The form's idempotency key: the same form sent twice (a double click, a retry) is one application.
    submission = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    consent_record = consent_record_field()

    class Meta:
        db_table = "signups_providerapplication"
        verbose_name = _("provider application")
        verbose_name_plural = _("provider applications")
        ordering = ["-submitted_at"]

    def __str__(self):
        return f"{self.company} ({self.contact_name})"


ProviderApplication._meta.get_field("email").register_lookup(Lower)


class ApplicationRequest(ConsentEvidence):
    """A submitted application form, stored as it came: the mail worker (``manage.py send_outbox``) applies it
    (``applications.apply_requests``: the repeat check, the application with its GPU rows and consent record, the
    acknowledgement within the address's mail budget) and deletes it. The request does this one insert whatever
    the address holds, so neither its answer nor its timing tells whether an address has applied (as
    ``signups.WaitlistRequest``)."""

    # The form's idempotency key (not unique here: the worker drops a repeat, ``applications.is_repeat``).
    submission = models.UUIDField(editable=False)
    company = models.CharField(_("company"), max_length=200)
    contact_name = models.CharField(_("contact name"), max_length=200)
    email = models.EmailField(_("email"), max_length=254)
    country = models.CharField(_("country"), max_length=2)
    message = models.TextField(_("message"), max_length=5000, blank=True)
    # The GPU rows as the form cleaned them: [{"gpu": catalogue GPU's pk or null, "name", "count", "location"}].
    offered = models.JSONField(_("offered GPUs"), default=list)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    received_at = models.DateTimeField(_("received"), default=timezone.now)

    class Meta:
        verbose_name = _("waiting provider application")
        verbose_name_plural = _("waiting provider applications")
        ordering = ["pk"]

    def __str__(self):
        return f"{self.company} ({self.contact_name})"


class OfferedGPU(models.Model):
    """GPUs of one model an application offers, and where they are: a catalogue GPU, or another one by name."""

    application = models.ForeignKey(
        ProviderApplication, on_delete=models.CASCADE, related_name="offered_gpus",
        verbose_name=_("provider application"),
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    # Empty for a GPU the catalogue does not list (then ``name`` says which), or one deleted from it since.
    gpu = models.ForeignKey(GPU, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                            verbose_name=_("GPU"))
    # The GPU's name as the application gave it: the catalogue's name, or the one typed for another GPU.
    name = models.CharField(_("GPU model"), max_length=80)
    count = models.PositiveIntegerField(
        _("number of GPUs"), validators=[MinValueValidator(1), MaxValueValidator(MAX_OFFERED_GPUS)],
    )
    location = models.CharField(_("where they are"), max_length=200)

    class Meta:
        verbose_name = _("offered GPU")
        verbose_name_plural = _("offered GPUs")
        ordering = ["application", "order", "pk"]

    def __str__(self):
        return f"{self.count} × {self.name}"


class ProviderPageText(HeadedText):
    """A section of the provider page an editor writes: what qualifies, how onboarding goes, the platform's fee
    and payouts. None at launch: the page then says they are announced before launch."""

    class Topic(models.TextChoices):
        REQUIREMENTS = "requirements", _("what qualifies")
        ONBOARDING = "onboarding", _("how onboarding goes")
        TERMS = "terms", _("platform fee and payouts")

    topic = models.CharField(_("topic"), max_length=16, choices=Topic.choices)
    edited_fields = ("topic", "order", "heading", "body")

    class Meta(HeadedText.Meta):
        verbose_name = _("provider page section")
        verbose_name_plural = _("provider page sections")

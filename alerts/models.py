import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.models import GPU
from optin.consent_records import ConsentEvidence, consent_record_field
from optin.models import ConfirmationToken
from signups.models import Signup


class PriceAlert(ConsentEvidence, ConfirmationToken):
    """"Tell me when this GPU is at or below this price": one address, one GPU, one target (double opt-in).

    A confirmed alert is active until the GPU's best price reaches the target; it then mails once and rests
    until the price has gone back above the target (``price_alerts.py``). One row per address and GPU: asking
    again for the same GPU changes the target. It lapses PRICE_ALERT_LIFETIME_DAYS after its confirmation or
    last renewal unless renewed from its reminder mail (``lapse.py``)."""

    class State(models.TextChoices):
        ACTIVE = "active", _("waiting for the price")
        RESTING = "resting", _("notified, waiting for the price to rise again")

    # As ``addresses.normalize`` makes it; compared ignoring case (the constraint).
    email = models.EmailField(_("email"), max_length=254)
    gpu = models.ForeignKey(GPU, on_delete=models.CASCADE, related_name="price_alerts", verbose_name=_("GPU"))
    # The market quotes USD only; the form shows the amount in the visitor's language.
    target_usd_per_hour = models.DecimalField(
        _("target price"), max_digits=8, decimal_places=2,
        validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(Decimal("999999.99"))],
        help_text=_("USD per GPU-hour: the alert mails when the best price is at or below it."),
    )
    # A new target asked for a confirmed alert: it replaces the target once its own mail's link confirms it,
    # so nobody who merely knows an address can change or stop that address's alerts.
    requested_target_usd_per_hour = models.DecimalField(
        _("requested target price"), max_digits=8, decimal_places=2, null=True, blank=True,
        help_text=_("Waiting for confirmation; the alert keeps its target until then."),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    state = models.CharField(_("state"), max_length=8, choices=State.choices, default=State.ACTIVE)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    last_notified_at = models.DateTimeField(_("last notified"), null=True, blank=True)
    # The price the last mail named: within the cooldown, only a fall well below it mails again (``price_alerts``).
    last_notified_price_usd_per_hour = models.DecimalField(
        _("last notified price"), max_digits=8, decimal_places=2, null=True, blank=True,
    )
    # Goes into every mail about this alert: one click deletes it.
    unsubscribe_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    consent_record = consent_record_field()
    # Its confirmation or last renewal: it lapses PRICE_ALERT_LIFETIME_DAYS later unless renewed (``lapse.py``).
    renewed_at = models.DateTimeField(_("confirmed or last renewed"), null=True, blank=True)
    renewal_reminder_queued_at = models.DateTimeField(_("renewal reminder queued"), null=True, blank=True)
    # The reminder's renew link, as the confirmation's: only the hash of a token made when the mail is sent.
    renewal_token_hash = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)
    renewal_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A launch-list signup asked for on the alert's form (its own consent): the alert's confirmation mail says so,
    # and its link confirms the signup with the alert (``price_alerts.confirm_all``); emptied once it has.
    launch_list_signup = models.ForeignKey(
        Signup, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", editable=False,
        verbose_name=_("launch-list signup confirmed with it"),
    )

    class Meta:
        # Moved here from ``signups``: the table keeps its name.
        db_table = "signups_pricealert"
        verbose_name = _("price alert")
        verbose_name_plural = _("price alerts")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(Lower("email"), "gpu", name="price_alert_email_gpu_unique_ignoring_case"),
        ]
        indexes = [
            # What a price change looks up: the confirmed alerts of one GPU, by state and target.
            models.Index(
                fields=["gpu", "state", "target_usd_per_hour"], condition=models.Q(confirmed_at__isnull=False),
                name="price_alert_confirmed",
            ),
        ]

    def __str__(self):
        return f"{self.email} · {self.gpu_id} ≤ {self.target_usd_per_hour}"


# ``email__lower=…`` matches the way the unique constraint compares addresses (and uses its index).
PriceAlert._meta.get_field("email").register_lookup(Lower)


class AlertRequest(ConsentEvidence):
    """A submitted price alert form, stored as it came: the mail worker (``manage.py send_outbox``) applies it
    (``price_alerts.apply_requests``: the alert, its consent record, its confirmation or "limit reached" mail) and
    deletes it. The request does this one insert whatever the address holds, so neither its answer nor its timing
    tells whether an address has alerts (as ``signups.WaitlistRequest``)."""

    # As ``addresses.equivalent_address`` makes it (the form).
    email = models.EmailField(_("email"), max_length=254)
    gpu = models.ForeignKey(GPU, on_delete=models.CASCADE, related_name="+", verbose_name=_("GPU"))
    target_usd_per_hour = models.DecimalField(_("target price"), max_digits=8, decimal_places=2)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    received_at = models.DateTimeField(_("received"), default=timezone.now)
    # The launch list asked for with the alert (its box ticked, with the business confirmation): the balance
    # currency and the version of the list's own consent text; both empty when it was not.
    launch_list_currency = models.CharField(
        _("balance currency"), max_length=3, choices=Signup.Currency.choices, blank=True,
    )
    launch_list_consent_text_version = models.CharField(_("launch list consent text version"), max_length=40,
                                                        blank=True)

    class Meta:
        verbose_name = _("waiting price alert request")
        verbose_name_plural = _("waiting price alert requests")
        ordering = ["pk"]

    def __str__(self):
        return f"{self.email} · {self.gpu_id} ≤ {self.target_usd_per_hour}"

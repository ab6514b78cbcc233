import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.models import GPU
from optin.consent_records import ConsentEvidence, consent_record_field
from optin.models import ConfirmationToken
from workloads.models import Workload

from .signup_actions import SIGNUP_VIA_PAGES

# The largest GPU count a signup action may carry: more than any configuration the calculator recommends.
MAX_SIGNUP_GPU_COUNT = 4096


class SignupAnswers(models.Model):
    """What a renter's signup form records beyond the address: the GPU (and count) and the page that led to it
    (from the signup action's link, never typed), and the business confirmation."""

    gpu = models.ForeignKey(
        GPU, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("chosen GPU"),
    )
    gpu_count = models.PositiveIntegerField(
        _("GPU count"), null=True, blank=True, validators=[MinValueValidator(1),
                                                           MaxValueValidator(MAX_SIGNUP_GPU_COUNT)],
    )
    via = models.CharField(
        _("page that led to the signup"), max_length=20, blank=True, choices=list(SIGNUP_VIA_PAGES.items()),
    )
    # False only for signups made before the form asked (the market sells to business customers only).
    for_business = models.BooleanField(_("confirmed signing up for a business"), default=False)

    class Meta:
        abstract = True


class Signup(SignupAnswers, ConsentEvidence, ConfirmationToken):
    """A renter on the launch mailing list: subscribed once confirmed (double opt-in); deleted when they
    unsubscribe (the evidence of their consent stays in its record)."""

    class Currency(models.TextChoices):
        EUR = "EUR", _("Euro (EUR)")
        USD = "USD", _("US dollar (USD)")
        GBP = "GBP", _("Pound sterling (GBP)")

    # As ``addresses.normalize`` makes it; one row per address, compared ignoring case (the constraint).
    email = models.EmailField(_("email"), max_length=254)
    currency = models.CharField(_("balance currency"), max_length=3, choices=Currency.choices)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    workload = models.ForeignKey(
        Workload, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("planned workload"),
    )
    signed_up_at = models.DateTimeField(_("signed up"), default=timezone.now)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    # Unguessable and not secret: it goes into every mail's unsubscribe link, for as long as we send mail.
    unsubscribe_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    consent_record = consent_record_field()

    class Meta:
        verbose_name = _("renter signup")
        verbose_name_plural = _("renter signups")
        ordering = ["-signed_up_at"]
        constraints = [models.UniqueConstraint(Lower("email"), name="signup_email_unique_ignoring_case")]

    def __str__(self):
        return self.email

    @property
    def is_subscribed(self):
        return self.confirmed_at is not None


class WaitlistRequest(SignupAnswers, ConsentEvidence):
    """A submitted waitlist form, stored as it came: the mail worker (``manage.py send_outbox``) applies it
    to the waitlist and queues its confirmation mail, then deletes it. The request does this one insert
    whatever the address, so neither its answer nor its timing tells whether an address is on the list."""

    email = models.EmailField(_("email"), max_length=254)
    currency = models.CharField(_("balance currency"), max_length=3, choices=Signup.Currency.choices)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    workload = models.ForeignKey(
        Workload, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("planned workload"),
    )
    received_at = models.DateTimeField(_("signed up"), default=timezone.now)

    class Meta:
        verbose_name = _("waiting signup")
        verbose_name_plural = _("waiting signups")
        ordering = ["pk"]

    def __str__(self):
        return self.email


# ``email__lower=…`` matches the way the unique constraint compares addresses (and uses its index).
for model in (Signup, WaitlistRequest):
    model._meta.get_field("email").register_lookup(Lower)

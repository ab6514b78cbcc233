import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import ProtectedError
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.gpu_page_panels import SIGNUP_VIA_PAGES
from catalog.models import GPU
from workloads.models import Workload

from .legal_text import render_legal_text


class ConsentEvidence(models.Model):
    """What proves a visitor's consent: which consent text, in which language, on which page, when."""

    consent_text_version = models.CharField(_("consent text version"), max_length=40)
    privacy_policy_version = models.CharField(_("privacy policy version"), max_length=40, blank=True)
    consent_language = models.CharField(
        _("consent language"), max_length=8, choices=settings.LANGUAGES,
        help_text=_("The language the consent text was shown in."),
    )
    source_path = models.CharField(
        _("form's page"), max_length=300,
        help_text=_("The page on this site the visitor came to the form from."),
    )

    class Meta:
        abstract = True


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


class Signup(SignupAnswers, ConsentEvidence):
    """A renter on the launch mailing list: subscribed once confirmed (double opt-in), until unsubscribed."""

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
    unsubscribed_at = models.DateTimeField(_("unsubscribed"), null=True, blank=True)
    # Double opt-in: only the SHA-256 of the mailed token is kept, cleared once used.
    confirmation_token_hash = models.CharField(
        max_length=64, null=True, blank=True, unique=True, editable=False,
    )
    confirmation_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Unguessable and not secret: it goes into every mail's unsubscribe link, for as long as we send mail.
    unsubscribe_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    class Meta:
        verbose_name = _("renter signup")
        verbose_name_plural = _("renter signups")
        ordering = ["-signed_up_at"]
        constraints = [models.UniqueConstraint(Lower("email"), name="signup_email_unique_ignoring_case")]

    def __str__(self):
        return self.email

    @property
    def is_subscribed(self):
        return self.confirmed_at is not None and self.unsubscribed_at is None


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


class PriceAlert(ConsentEvidence):
    """"Tell me when this GPU is at or below this price": one address, one GPU, one target (double opt-in).

    A confirmed alert is active until the GPU's best price reaches the target; it then mails once and rests
    until the price has gone back above the target (``price_alerts.py``). One row per address and GPU: asking
    again for the same GPU changes the target."""

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
    # Double opt-in as for signups: only the SHA-256 of the mailed token, made when the mail is sent.
    confirmation_token_hash = models.CharField(
        max_length=64, null=True, blank=True, unique=True, editable=False,
    )
    confirmation_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Goes into every mail about this alert: one click deletes it.
    unsubscribe_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    class Meta:
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


class ProviderApplication(ConsentEvidence):
    """A company asking to sell GPU hours through the EverXCloud Network."""

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
    gpus = models.TextField(_("GPU models and counts"), max_length=2000)
    server_locations = models.TextField(_("where the servers are"), max_length=1000)
    message = models.TextField(_("message"), max_length=5000, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.NEW)
    submitted_at = models.DateTimeField(_("submitted"), default=timezone.now)
    # The form's idempotency key: the same form sent twice (a double click, a retry) is one application.
    submission = models.UUIDField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        verbose_name = _("provider application")
        verbose_name_plural = _("provider applications")
        ordering = ["-submitted_at"]

    def __str__(self):
        return f"{self.company} ({self.contact_name})"


class LegalPage(models.Model):
    """The privacy policy or the legal notice: text that editors keep in four languages."""

    class Key(models.TextChoices):
        PRIVACY = "privacy", _("privacy policy")
        LEGAL_NOTICE = "legal-notice", _("legal notice")

    URL_NAMES = {Key.PRIVACY: "signups:privacy", Key.LEGAL_NOTICE: "signups:legal_notice"}

    key = models.CharField(_("key"), max_length=20, choices=Key.choices, unique=True)
    title = models.CharField(_("title"), max_length=160)
    body = models.TextField(
        _("text"),
        help_text=_('Paragraphs separated by an empty line; a paragraph starting with "## " is a heading, '
                    'lines starting with "- " make a list.'),
    )
    version = models.CharField(
        _("version"), max_length=40,
        help_text=_("Change it with every change of substance: signups record the version they agreed to."),
    )
    updated = models.DateField(_("last updated"), help_text=_("Shown on the page."))

    class Meta:
        verbose_name = _("legal page")
        verbose_name_plural = _("legal pages")
        ordering = ["key"]

    def __str__(self):
        return self.title or self.get_key_display()

    @property
    def url_name(self):
        return self.URL_NAMES[self.key]

    def body_html(self):
        return render_legal_text(self.body)


def refuse_legal_page_deletion(sender, instance, **kwargs):
    """Every form links to the privacy policy and records its version, and the footer links both pages:
    they are edited, never deleted (connected to ``pre_delete`` in ``apps.py``, so querysets too)."""
    raise ProtectedError(
        f"The {instance.get_key_display()} cannot be deleted: edit it instead.", {instance},
    )


class OutboxEmail(models.Model):
    """A mail waiting to be sent, or sent. Written in the same transaction as what it is about, so a mail
    server that is down loses nothing: ``manage.py send_outbox`` retries with a growing delay."""

    recipient = models.EmailField(_("recipient"), max_length=254)
    subject = models.CharField(_("subject"), max_length=255)
    body = models.TextField(_("text"))
    headers = models.JSONField(_("headers"), default=dict, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # Empty once sent or given up.
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True, default=timezone.now)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    confirmation_for = models.ForeignKey(
        Signup, on_delete=models.CASCADE, null=True, blank=True, related_name="confirmation_mails",
        verbose_name=_("confirmation of"),
        help_text=_("Its confirmation link is made when the mail is sent, so the link is never stored."),
    )
    alert_confirmation_for = models.ForeignKey(
        PriceAlert, on_delete=models.CASCADE, null=True, blank=True, related_name="confirmation_mails",
        verbose_name=_("confirmation of price alert"),
        help_text=_("Its confirmation link is made when the mail is sent, so the link is never stored."),
    )

    class Meta:
        verbose_name = _("outgoing email")
        verbose_name_plural = _("outgoing emails")
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"], condition=models.Q(sent_at__isnull=True), name="outbox_due",
            ),
        ]

    def __str__(self):
        return f"{self.subject} → {self.recipient}"


class Mailbox(models.Model):
    """A mailbox the forms have mailed, known only by a keyed hash of its address (``pseudonyms.mailbox_hash``):
    the row every request for that mailbox locks, so that its mail budget (``mail_budget.py``) is counted by one
    request at a time on every worker."""

    address_hash = models.CharField(max_length=64, unique=True, editable=False)

    def __str__(self):
        return f"{self.address_hash[:12]}…"


class MailboxMail(models.Model):
    """One mail a form queued for a mailbox (a confirmation, a refusal, an acknowledgement), counted against
    its budget while younger than the budget's window, then deleted."""

    mailbox = models.ForeignKey(Mailbox, on_delete=models.CASCADE, related_name="mails")
    queued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["mailbox", "queued_at"], name="mailbox_mail_recent")]

    def __str__(self):
        return f"{self.mailbox} {self.queued_at:%Y-%m-%d %H:%M}"


class ErasureLog(models.Model):
    """That a person's data was erased on request, and when: nothing but a keyed hash of the address
    (``pseudonyms.erasure_hash``), which only this site, holding the key, can match to an address."""

    email_hash = models.CharField(_("keyed hash of the email address (HMAC-SHA256)"), max_length=64)
    erased_at = models.DateTimeField(_("erased"), default=timezone.now)

    class Meta:
        verbose_name = _("erasure")
        verbose_name_plural = _("erasures")
        ordering = ["-erased_at"]

    def __str__(self):
        return f"{self.email_hash[:12]}… {self.erased_at:%Y-%m-%d %H:%M}"


# ``email__lower=…`` matches the way the unique constraint compares addresses (and uses its index).
for model, field_name in ((Signup, "email"), (WaitlistRequest, "email"), (ProviderApplication, "email"),
                          (PriceAlert, "email"), (OutboxEmail, "recipient")):
    model._meta.get_field(field_name).register_lookup(Lower)

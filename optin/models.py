"""The rows of the one double opt-in that every form that mails shares: the outbox, the mail budget's mailboxes,
the erasure log (moved here from ``signups``; their tables keep their names, ``Meta.db_table``), the evidence of
each consent, kept apart from what was consented to, and the confirmation token every confirmed row holds."""
from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class OutboxEmail(models.Model):
    """A mail waiting to be sent, or sent. Written in the same transaction as what it is about, so a mail
    server that is down loses nothing: ``manage.py send_outbox`` retries with a growing delay.

    A confirmation mail names the row it confirms by kind and id (``link_kind``, ``link_row_id``), not by a
    foreign key: the rows (signups, price alerts) belong to apps above this one, which register each kind
    with its link issuer (``outbox.register_link_kind``); deleting such a row deletes its mails there."""

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
    # The row a confirmation link is made for when the mail is sent (so the link is never stored).
    link_kind = models.CharField(max_length=20, blank=True, editable=False)
    link_row_id = models.BigIntegerField(null=True, blank=True, editable=False)
    # A form's mail to an address not confirmed, counted against the hourly cap, and the keyed hash of the client
    # network it was asked from (``origins.py``).
    capped = models.BooleanField(default=False, editable=False)
    origin = models.CharField(max_length=32, blank=True, editable=False)

    class Meta:
        db_table = "signups_outboxemail"
        verbose_name = _("outgoing email")
        verbose_name_plural = _("outgoing emails")
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"], condition=models.Q(sent_at__isnull=True), name="outbox_due",
            ),
            models.Index(fields=["link_kind", "link_row_id"], name="outbox_link"),
            models.Index(fields=["sent_at", "origin"], condition=models.Q(capped=True), name="outbox_capped_sent"),
        ]

    def __str__(self):
        return f"{self.subject} → {self.recipient}"


class RequestOrigin(models.Model):
    """The origin (``origins.py``: a keyed hash of a client network) of a form request stored for the mail worker,
    beside it; deleted as the worker applies the request."""

    content_type = models.ForeignKey("contenttypes.ContentType", on_delete=models.CASCADE, related_name="+")
    object_id = models.BigIntegerField()
    origin = models.CharField(max_length=32)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["content_type", "object_id"], name="request_origin_unique")]

    def __str__(self):
        return f"{self.content_type_id}:{self.object_id}"


class Mailbox(models.Model):
    """A mailbox the forms have mailed, known only by a keyed hash of its address (``pseudonyms.mailbox_hash``):
    the row every request for that mailbox locks, so that its mail budget (``mail_budget.py``) is counted by one
    request at a time on every worker."""

    address_hash = models.CharField(max_length=64, unique=True, editable=False)

    class Meta:
        db_table = "signups_mailbox"

    def __str__(self):
        return f"{self.address_hash[:12]}…"


class MailboxMail(models.Model):
    """One mail a form queued for a mailbox (a confirmation, a refusal, an acknowledgement), counted against
    its budget while younger than the budget's window, then deleted."""

    mailbox = models.ForeignKey(Mailbox, on_delete=models.CASCADE, related_name="mails")
    queued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "signups_mailboxmail"
        indexes = [models.Index(fields=["mailbox", "queued_at"], name="mailbox_mail_recent")]

    def __str__(self):
        return f"{self.mailbox} {self.queued_at:%Y-%m-%d %H:%M}"


class ErasureLog(models.Model):
    """That a person's data was erased on request, and when: nothing but a keyed hash of the address
    (``pseudonyms.erasure_hash``), which only this site, holding the key, can match to an address."""

    email_hash = models.CharField(_("keyed hash of the email address (HMAC-SHA256)"), max_length=64)
    erased_at = models.DateTimeField(_("erased"), default=timezone.now)

    class Meta:
        db_table = "signups_erasurelog"
        verbose_name = _("erasure")
        verbose_name_plural = _("erasures")
        ordering = ["-erased_at"]

    def __str__(self):
        return f"{self.email_hash[:12]}… {self.erased_at:%Y-%m-%d %H:%M}"


class ConfirmationToken(models.Model):
    """The double opt-in's link on the row it confirms (``confirmation.Link``): only the SHA-256 of the mailed
    token, made when the mail is sent, and when the link expires. The hash stays after use, so a second click
    is told the link was used, until a newer mail's token replaces it."""

    confirmation_token_hash = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)
    confirmation_expires_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        abstract = True


class ConsentRecord(models.Model):
    """The evidence of one consent (or, for a provider application, of one request), kept apart from the row it
    was given for: that row (a signup, a price alert, an application) points here and is deleted as soon as
    the consent is withdrawn, while this record is kept until ``keep_until`` (``consent_records.py``).

    What it proves: what was asked (the consent text's version and language, the privacy policy's version),
    when and on which page, which confirmation mail carried the link and when it went out, when the link was
    clicked, renewals, and when and how the consent ended. The address is held only as a keyed hash
    (``pseudonyms.consent_address_hash``): the site can match it to an address given to it, nobody else can."""

    class Purpose(models.TextChoices):
        WAITLIST = "waitlist", _("launch emails (renter waitlist)")
        PRICE_ALERT = "price_alert", _("price alert")
        PROVIDER_APPLICATION = "provider_application", _("provider application (pre-contract request)")

    class Withdrawal(models.TextChoices):
        UNSUBSCRIBED = "unsubscribed", _("unsubscribed")
        DELETED_BY_OWNER = "deleted", _("deleted by its owner")
        LAPSED = "lapsed", _("lapsed, not renewed")
        NOT_CONFIRMED = "unconfirmed", _("never confirmed")
        ERASED = "erased", _("erased on request")
        REMOVED = "removed", _("removed by the site")

    purpose = models.CharField(_("purpose"), max_length=24, choices=Purpose.choices)
    address_hash = models.CharField(
        _("keyed hash of the email address (HMAC-SHA256)"), max_length=64, db_index=True, editable=False,
    )
    consent_text_version = models.CharField(_("consent text version"), max_length=40)
    consent_language = models.CharField(_("consent language"), max_length=8, choices=settings.LANGUAGES)
    privacy_policy_version = models.CharField(_("privacy policy version"), max_length=40, blank=True)
    source_path = models.CharField(_("form's page"), max_length=300)
    asked_at = models.DateTimeField(_("asked"))
    confirmation_mail_version = models.CharField(_("confirmation mail version"), max_length=40, blank=True)
    confirmation_mail_sent_at = models.DateTimeField(_("confirmation mail sent"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    renewed_at = models.DateTimeField(_("last renewed"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    withdrawal = models.CharField(_("how it ended"), max_length=12, choices=Withdrawal.choices, blank=True)
    # Empty while the consent holds; then the withdrawal plus the evidence's retention period.
    keep_until = models.DateTimeField(_("kept until"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("consent record")
        verbose_name_plural = _("consent records")
        ordering = ["-asked_at"]

    def __str__(self):
        return f"{self.get_purpose_display()} {self.address_hash[:12]}… {self.asked_at:%Y-%m-%d}"


# ``recipient__lower=…`` matches the way the forms compare addresses.
OutboxEmail._meta.get_field("recipient").register_lookup(Lower)

"""The operator record: one row (a singleton) that operators fill in the admin, and the recipients of
personal data listed with it. Every field starts empty: the company's details are never guessed, and
``check --deploy`` names each one still missing (company/completeness.py). And the legal pages, whose
text names the record's details."""
from babel import Locale
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The European Economic Area: the EU's 27 members, Iceland, Liechtenstein and Norway. A recipient
# outside it needs a transfer safeguard (Art. 44–46 GDPR).
EEA_COUNTRIES = frozenset({
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT",
    "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "IS", "LI", "NO",
})


def validate_country_code(code):
    if code and code not in Locale.parse("en").territories:
        raise ValidationError(_("Enter a two-letter ISO 3166 country code, such as DE."))


class Applicability(models.TextChoices):
    """For details the law asks for only in some cases: an operator decides, empty is not a decision."""

    UNDECIDED = "", _("not yet decided")
    APPLIES = "applies", _("applies")
    DOES_NOT_APPLY = "does-not-apply", _("does not apply")


class OperatorRecord(models.Model):
    class DisputeResolution(models.TextChoices):
        UNDECIDED = "", _("not yet decided")
        NOT_WILLING = "not-willing", _("neither willing nor obliged to take part")
        WILLING = "willing", _("takes part before the body named below")

    legal_name = models.CharField(_("company name"), max_length=200, blank=True,
                                  help_text=_("As registered, without the legal form."))
    legal_form = models.CharField(_("legal form"), max_length=100, blank=True)
    street = models.CharField(_("street and number"), max_length=200, blank=True)
    postal_code = models.CharField(_("postcode"), max_length=20, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True, validators=[validate_country_code],
                               help_text=_("Two-letter ISO 3166 code, such as DE."))
    representatives = models.TextField(_("representatives"), blank=True,
                                       help_text=_("The managing directors' names, one a line."))
    register_name = models.CharField(_("commercial register"), max_length=200, blank=True,
                                     help_text=_("The register court or registry."))
    register_number = models.CharField(_("registration number"), max_length=100, blank=True)
    vat_id = models.CharField(_("VAT identification number"), max_length=30, blank=True)
    cnpj_applies = models.CharField(_("Brazilian company number (CNPJ)"), max_length=20, blank=True,
                                    choices=Applicability.choices)
    cnpj = models.CharField(_("CNPJ"), max_length=30, blank=True)
    contact_email = models.EmailField(_("contact email"), blank=True)
    phone = models.CharField(_("telephone"), max_length=40, blank=True)
    privacy_email = models.EmailField(_("data protection contact email"), blank=True)
    dpo_applies = models.CharField(_("data protection officer appointed"), max_length=20, blank=True,
                                   choices=Applicability.choices)
    dpo = models.TextField(_("data protection officer"), blank=True, help_text=_("Name and contact."))
    eu_representative_applies = models.CharField(
        _("EU representative (Art. 27 GDPR) needed"), max_length=20, blank=True, choices=Applicability.choices,
        help_text=_("Needed when the company is established outside the EU."))
    eu_representative = models.TextField(_("EU representative"), blank=True, help_text=_("Name and address."))
    lead_supervisory_authority = models.CharField(_("lead data protection supervisory authority"),
                                                  max_length=200, blank=True)
    licensing_authority_applies = models.CharField(
        _("activity requires authorisation"), max_length=20, blank=True, choices=Applicability.choices)
    licensing_authority = models.CharField(_("supervisory authority of the activity"), max_length=200,
                                           blank=True)
    content_responsible = models.TextField(
        _("responsible for the content"), blank=True,
        help_text=_("Name and address of the person responsible under § 18(2) MStV."))
    dispute_resolution = models.CharField(_("consumer dispute resolution"), max_length=20, blank=True,
                                          choices=DisputeResolution.choices)
    dispute_resolution_body = models.CharField(_("consumer arbitration board"), max_length=200, blank=True)
    consent_evidence_retention_months = models.PositiveSmallIntegerField(
        _("consent evidence kept (months after withdrawal)"), null=True, blank=True)
    provider_application_retention_months = models.PositiveSmallIntegerField(
        _("provider applications kept (months after the last contact)"), null=True, blank=True)
    erasure_record_retention_months = models.PositiveSmallIntegerField(
        _("erasure records kept (months)"), null=True, blank=True)
    backup_retention_days = models.PositiveSmallIntegerField(
        _("database backups kept (days)"), null=True, blank=True,
        help_text=_("How long a backup is kept: an erased address is gone from every backup after it."))

    class Meta:
        verbose_name = _("operator record")
        verbose_name_plural = _("operator record")

    def __str__(self):
        return str(self._meta.verbose_name)

    def save(self, *args, **kwargs):
        self.pk = 1  # one record: the company behind the site
        super().save(*args, **kwargs)

    @classmethod
    def current(cls):
        """The saved record, or an empty one (never saved here: reading must not write)."""
        return cls.objects.filter(pk=1).prefetch_related("recipients").first() or cls(pk=1)


class Recipient(models.Model):
    """A service provider that receives personal data (Art. 13(1)(e) GDPR), with its country."""

    class Role(models.TextChoices):
        HOSTING = "hosting", _("hosting")
        EMAIL = "email", _("email delivery")
        CDN = "cdn", _("content delivery network (CDN)")
        LOGS = "logs", _("log collection")

    class Safeguard(models.TextChoices):
        NONE = "", _("none (inside the EEA)")
        ADEQUACY = "adequacy", _("adequacy decision (Art. 45 GDPR)")
        STANDARD_CLAUSES = "standard-clauses", _("standard contractual clauses (Art. 46(2)(c) GDPR)")

    record = models.ForeignKey(OperatorRecord, on_delete=models.CASCADE, related_name="recipients")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    name = models.CharField(_("name"), max_length=200)
    country = models.CharField(_("country"), max_length=2, validators=[validate_country_code],
                               help_text=_("Two-letter ISO 3166 code, such as DE."))
    safeguard = models.CharField(_("transfer safeguard"), max_length=20, blank=True, choices=Safeguard.choices,
                                 help_text=_("Needed for a country outside the EEA."))

    class Meta:
        verbose_name = _("recipient of personal data")
        verbose_name_plural = _("recipients of personal data")
        ordering = ["role", "name"]

    def __str__(self):
        return self.name

    @property
    def outside_eea(self):
        return self.country not in EEA_COUNTRIES


class LegalPage(models.Model):
    """The privacy policy or the legal notice: text that editors keep in four languages, the company's
    details filled in from the operator record as the page is shown (``legal_text.py``).

    Its table keeps the ``signups_`` name it was created under (``Meta.db_table``), so no row moves."""

    class Key(models.TextChoices):
        PRIVACY = "privacy", _("privacy policy")
        LEGAL_NOTICE = "legal-notice", _("legal notice")

    URL_NAMES = {Key.PRIVACY: "company:privacy", Key.LEGAL_NOTICE: "company:legal_notice"}

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
        db_table = "signups_legalpage"
        verbose_name = _("legal page")
        verbose_name_plural = _("legal pages")
        ordering = ["key"]

    def __str__(self):
        return self.title or self.get_key_display()

    def save(self, *args, **kwargs):
        """Refused, whoever saves (the admin, the content loader, a shell), when the text changed under the same
        version; else the version's text is kept (``LegalPageVersion``)."""
        stored = LegalPage.objects.filter(pk=self.pk).first() if self.pk else None
        if stored is not None:
            keep_version(stored)  # the text it replaces, if it was not kept yet (a page loaded before versions were)
        if self.changed_texts():
            self.clean()
        super().save(*args, **kwargs)
        keep_version(self)

    @property
    def url_name(self):
        return self.URL_NAMES[self.key]

    def texts(self):
        """Title and text in each language: what ``LegalPageVersion`` keeps."""
        return {code: {"title": getattr(self, f"title_{code}", "") or "",
                       "body": getattr(self, f"body_{code}", "") or ""} for code, _name in settings.LANGUAGES}

    def changed_texts(self):
        """The languages whose text differs from the one kept for this page's version (a language whose text was
        empty there may be filled in: a translation added)."""
        kept = LegalPageVersion.objects.filter(key=self.key, version=self.version).first()
        stored = LegalPage.objects.filter(pk=self.pk, version=self.version).first() if self.pk else None
        references = [texts for texts in (kept and kept.texts, stored and stored.texts()) if texts]
        return sorted({code for reference in references for code, text in self.texts().items()
                       if reference.get(code, {}).get("body")
                       and comparable(text["body"]) != comparable(reference[code]["body"])})

    def clean(self):
        """The text cannot change under the version consents recorded: a change of text needs a new version."""
        changed = self.changed_texts()
        if changed:
            raise ValidationError({"version": _(
                "The text changed (%(languages)s): give this page a new version. Consents recorded the version "
                "they agreed to, and each version's text is kept."
            ) % {"languages": ", ".join(changed)}})



def comparable(text):
    """A legal text as it reads: line endings and the whitespace around it (a form strips it) make no change."""
    return text.replace("\r\n", "\n").strip()


def keep_version(page):
    """Keep the text of ``page``'s version: a new version's whole text, or a language filled in since."""
    kept, created = LegalPageVersion.objects.get_or_create(
        key=page.key, version=page.version, defaults={"texts": page.texts(), "updated": page.updated})
    if not created:
        texts = {code: kept.texts.get(code) if kept.texts.get(code, {}).get("body") else text
                 for code, text in page.texts().items()}
        if texts != kept.texts:
            kept.texts = texts
            kept.save(update_fields=["texts"])


class LegalPageVersion(models.Model):
    """The text of one version of a legal page, in every language, kept as it was: what a consent record that
    names the version was given on (the consent records' admin shows it beside them). Never changed, never
    deleted; a new version of the page makes a new row."""

    key = models.CharField(_("page"), max_length=20, choices=LegalPage.Key.choices)
    version = models.CharField(_("version"), max_length=40)
    # {language: {"title": …, "body": …}}, the body in the legal text format (``legal_text.py``).
    texts = models.JSONField(_("texts"), default=dict)
    updated = models.DateField(_("last updated"))
    kept_at = models.DateTimeField(_("kept since"), default=timezone.now)

    class Meta:
        verbose_name = _("legal page version")
        verbose_name_plural = _("legal page versions")
        ordering = ["key", "-kept_at"]
        constraints = [models.UniqueConstraint(fields=["key", "version"], name="legal_page_version_unique")]

    def __str__(self):
        return f"{self.get_key_display()} {self.version}"


def refuse_legal_page_deletion(sender, instance, **kwargs):
    """Every form links to the privacy policy and records its version, and the footer links both pages:
    they are edited, never deleted (connected to ``pre_delete`` in ``apps.py``, so querysets too)."""
    raise ProtectedError(
        f"The {instance.get_key_display()} cannot be deleted: edit it instead.", {instance},
    )

from dataclasses import dataclass

from django import forms
from django.forms.renderers import DjangoTemplates
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from caching.fragments import CachedContent
from catalog.models import GPU
from company.models import LegalPage
from core.pages import language_codes, language_name
from optin import addresses
from workloads.models import Workload

from .models import MAX_SIGNUP_GPU_COUNT, Signup
from .signup_actions import SIGNUP_VIA_PAGES
from .site_paths import site_path


class FieldGroupRenderer(DjangoTemplates):
    """Each field as one accessible group: label (or fieldset and legend), hint, errors, input."""

    field_template_name = "signups/includes/field.html"


def consent_box(field, label):
    """Make ``field`` a box for one purpose, labelled ``label`` (plain text), with the privacy policy linked beside
    it: the policy is information about the processing, not a second thing to agree to, so it is no part of
    what the box says."""
    field.label = label
    field.help_text = format_html('{} <a href="{}">{}</a>', gettext("How we handle your data:"),
                                  reverse("company:privacy"), gettext("privacy policy"))


class AddressField(forms.EmailField):
    """An email address, normalized (``addresses.py``) before it is validated, stored or compared; one we
    cannot or may not mail is refused with a message that says why."""

    def to_python(self, value):
        return addresses.equivalent_address(super().to_python(value))

    def run_validators(self, value):
        super().run_validators(value)
        if value not in self.empty_values:
            addresses.validate_deliverable(value)


class PublicForm(forms.Form):
    """What the public forms share: a honeypot, the page the visitor came from, the consent evidence."""

    # One instance for every form: each renderer has its own template engine and cache.
    default_renderer = FieldGroupRenderer()
    # Bump in a subclass whenever its consent label's wording changes: records keep the version agreed to.
    consent_text_version = None

    # Invisible to people (CSS moves it off screen); bots that fill every field fill it too.
    website = forms.CharField(
        label=_("Leave this field empty"), required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )
    source = forms.CharField(required=False, widget=forms.HiddenInput)
    consent = forms.BooleanField(error_messages={"required": _("Please tick this box to continue.")})

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def filled_by_a_bot(self):
        return bool(self.data.get("website"))

    def clean_source(self):
        return site_path(self.cleaned_data["source"])

    def consent_evidence(self, form_path):
        return {
            "consent_text_version": self.consent_text_version,
            "privacy_policy_version": privacy_policy_version().value,
            "consent_language": get_language(),
            "source_path": self.cleaned_data.get("source") or form_path,
        }


@dataclass(frozen=True)
class PrivacyPolicyVersion:
    version: int  # the content version it was read under
    value: str  # the policy's own version ("" before it is loaded)


# Every consent records the policy's version: read once per content version (an edit of the policy moves it), not
# by a query in every form's POST.
privacy_policy_version = CachedContent(lambda version: PrivacyPolicyVersion(
    version, LegalPage.objects.filter(key=LegalPage.Key.PRIVACY).values_list("version", flat=True).first() or "",
))


# The launch list's consent, on the signup form and as the price alert form's own box for the list
# (``alerts.forms``): one wording, one version; bump it whenever that wording changes.
LAUNCH_LIST_CONSENT_TEXT_VERSION = "renter-2"


def launch_list_consent_text():
    return gettext("I want to receive emails about the EverXCloud launch. I can unsubscribe at any time.")


# The balance currency a form proposes in each language (the visitor can change it).
DEFAULT_CURRENCY = {"en": Signup.Currency.USD}


def default_currency(language):
    return DEFAULT_CURRENCY.get(language, Signup.Currency.EUR)


class WorkloadChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, workload):
        return workload.title


def gpu_count(text):
    """The GPU count of a signup action's link, or None for anything else."""
    text = str(text or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        return None
    count = int(text)
    return count if 1 <= count <= MAX_SIGNUP_GPU_COUNT else None


class RenterSignupForm(PublicForm):
    """The renter's signup. The GPU, its count and the page that led here come from the signup action's link
    (``signup_actions``), as hidden inputs the visitor never fills; what does not name a GPU or a page we know
    is dropped, never refused. A preselected GPU is shown, and can be changed."""

    consent_text_version = LAUNCH_LIST_CONSENT_TEXT_VERSION

    email = AddressField(
        label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    currency = forms.ChoiceField(
        label=_("Balance currency"), choices=Signup.Currency.choices, widget=forms.RadioSelect,
        help_text=_("The currency you will top up your prepaid balance in."),
    )
    language = forms.ChoiceField(
        label=_("Language of our emails"), widget=forms.Select(attrs={"autocomplete": "language"}),
        choices=[(code, language_name(code)) for code in language_codes()],
    )
    workload = WorkloadChoiceField(
        label=_("What you plan to run (optional)"), queryset=Workload.objects.none(), required=False,
        empty_label=_("Not decided yet"),
    )

    business = forms.BooleanField(
        label=_("I am signing up for a business."),
        error_messages={"required": _("At launch the market sells to business customers only: please confirm "
                                      "that you are signing up for a business.")},
    )
    gpu = forms.CharField(label=_("GPU"), required=False, widget=forms.HiddenInput)
    count = forms.CharField(required=False, widget=forms.HiddenInput)
    via = forms.CharField(required=False, widget=forms.HiddenInput)

    field_order = ["email", "currency", "language", "workload", "business", "consent"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["workload"].queryset = Workload.objects.named_in(get_language())
        self.chosen_gpu = self.gpu_named(self.data.get("gpu") if self.is_bound else self.initial.get("gpu"))
        if not self.is_bound:
            # Only what names a GPU or a page we know goes back into the form.
            via = self.initial.get("via")
            self.initial.update(gpu=self.chosen_gpu.slug if self.chosen_gpu else "", count=self.chosen_count() or "",
                                via=via if via in SIGNUP_VIA_PAGES else "")
        if self.chosen_gpu is not None:
            # Shown (and changeable) only when a link chose a GPU: nobody else gets an extra field.
            self.fields["gpu"].widget = forms.Select(choices=[
                ("", gettext("No particular GPU")), *GPU.objects.values_list("slug", "name"),
            ])
        consent_box(self.fields["consent"], launch_list_consent_text())

    @staticmethod
    def gpu_named(slug):
        if not slug or not isinstance(slug, str) or len(slug) > 60:
            return None
        return GPU.objects.filter(slug=slug).first()

    def chosen_count(self):
        """The count the link carried, with its GPU only (a count without a GPU means nothing)."""
        if self.chosen_gpu is None:
            return None
        return gpu_count(self.data.get("count") if self.is_bound else self.initial.get("count"))

    def clean_gpu(self):
        return self.gpu_named(self.cleaned_data["gpu"])

    def clean_count(self):
        return gpu_count(self.cleaned_data["count"]) if self.cleaned_data.get("gpu") else None

    def clean_via(self):
        via = self.cleaned_data["via"]
        return via if via in SIGNUP_VIA_PAGES else ""

    def signup_fields(self):
        fields = {field: self.cleaned_data[field] for field in ("email", "currency", "language", "workload")}
        return {**fields, "gpu": self.cleaned_data["gpu"], "gpu_count": self.cleaned_data["count"],
                "via": self.cleaned_data["via"], "for_business": self.cleaned_data["business"]}

"""The provider page's earnings estimate (a GET form: its fields are the page's query string) and the
application, whose GPUs are rows: a catalogue model or another one by name, how many, where."""
import uuid
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from catalog.forms import QueryForm
from core.formatting import format_number
from core.number_fields import LocalizedNumberField, NumberFormatField
from signups.countries import country_choices
from signups.forms import AddressField, PublicForm, consent_box

from .models import MAX_OFFERED_GPUS

OTHER_GPU = "other"
# Row slots of the application form: a company with more models writes the rest in its message. The slots after
# the first ``SHOWN_ROWS`` are folded away until asked for (or filled, or in error).
APPLICATION_ROWS = 4
SHOWN_ROWS = 2
ROW_PARTS = ("gpu", "name", "count", "location")
MAX_USD_PER_KWH = Decimal(10)
MAX_PUE = Decimal(3)


class WholeNumberField(LocalizedNumberField):
    """A whole number typed in the page's format ("1.000" in German), cleaned to an int."""

    def __init__(self, **kwargs):
        super().__init__(integer=True, **kwargs)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        attrs["inputmode"] = "numeric"
        return attrs

    def to_python(self, value):
        number = super().to_python(value)
        return None if number is None else int(number)


def check_range(value, low, high):
    if value is not None and not low <= value <= high:
        raise ValidationError(gettext("Enter a number from %(min)s to %(max)s.") % {
            "min": format_number(low), "max": format_number(high)}, code="out_of_range")
    return value


def gpu_choices(gpus, first):
    return [("", first), *((gpu.slug, gpu.name) for gpu in gpus)]


class EstimateForm(QueryForm):
    """The estimate's inputs. ``gpus``: the catalogue's GPUs with a live offer, the only ones it can price."""

    nf = NumberFormatField()
    gpu = forms.ChoiceField(label=_("GPU model"), error_messages={
        "required": _("Choose a GPU model."),
        "invalid_choice": _("Choose a GPU model from the list: only GPUs with a live offer can be estimated."),
    })
    count = WholeNumberField(label=_("Number of GPUs"), error_messages={
        "required": _("Enter the number of GPUs."), "invalid": _("Enter a whole number.")})
    utilization = LocalizedNumberField(
        label=_("Utilization (%)"), required=False,
        help_text=_("The share of hours rented. Left empty: 100 %, a ceiling no server reaches."),
    )
    electricity = LocalizedNumberField(
        label=_("Electricity price (US$ per kWh, optional)"), required=False,
        help_text=_("In US dollars, the currency of the offers."),
    )
    pue = LocalizedNumberField(
        label=_("PUE (optional)"), required=False,
        help_text=_("The data centre's power usage effectiveness, at least 1. Left empty: 1, the GPUs alone."),
    )

    def __init__(self, *args, gpus, **kwargs):
        super().__init__(*args, **kwargs)
        self.gpus = {gpu.slug: gpu for gpu in gpus}
        self.fields["gpu"].choices = gpu_choices(gpus, gettext("Choose a GPU model"))

    def clean_gpu(self):
        return self.gpus[self.cleaned_data["gpu"]]

    def clean_count(self):
        return check_range(self.cleaned_data["count"], 1, MAX_OFFERED_GPUS)

    def clean_utilization(self):
        value = self.cleaned_data["utilization"]
        if value is not None and not 0 < value <= 100:
            raise ValidationError(gettext("Enter a utilization above 0 and at most 100 %."), code="out_of_range")
        return value

    def clean_electricity(self):
        return check_range(self.cleaned_data["electricity"], 0, MAX_USD_PER_KWH)

    def clean_pue(self):
        return check_range(self.cleaned_data["pue"], 1, MAX_PUE)


class ProviderApplicationForm(PublicForm):
    """The application: the company, then its GPUs, one row per model (``APPLICATION_ROWS`` slots; an empty row
    is no row). A row names a catalogue GPU, or "other" with the model's name, the count and where they are."""

    consent_text_version = "provider-2"

    company = forms.CharField(label=_("Company"), max_length=200,
                              widget=forms.TextInput(attrs={"autocomplete": "organization"}))
    contact_name = forms.CharField(label=_("Contact name"), max_length=200,
                                   widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = AddressField(label=_("Email"), max_length=254,
                         widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    country = forms.ChoiceField(label=_("Country of the company"),
                                widget=forms.Select(attrs={"autocomplete": "country"}))
    message = forms.CharField(label=_("Message (optional)"), max_length=5000, required=False,
                              widget=forms.Textarea(attrs={"rows": 4}))
    nf = NumberFormatField()
    # Made when the form is shown: the same form sent twice is one application (``applications.py``).
    submission = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, gpus, **kwargs):
        super().__init__(*args, **kwargs)
        self.gpus = {gpu.slug: gpu for gpu in gpus}
        self.initial.setdefault("submission", uuid.uuid4())
        self.fields["country"].choices = [("", gettext("Choose a country")), *country_choices(get_language())]
        choices = [*gpu_choices(gpus, gettext("Choose a GPU model")), (OTHER_GPU, gettext("Another GPU"))]
        for row in self.row_numbers():
            first = row == 1
            self.fields[f"gpu_{row}"] = forms.ChoiceField(
                label=_("GPU model"), required=False, choices=choices,
                error_messages={"invalid_choice": _("Choose a GPU model from the list, or “Another GPU”.")})
            self.fields[f"name_{row}"] = forms.CharField(
                label=_("Name of the other GPU"), max_length=80, required=False,
                help_text=_("Only for “Another GPU”.") if first else None)
            self.fields[f"count_{row}"] = WholeNumberField(
                label=_("Number of GPUs"), required=False, error_messages={"invalid": _("Enter a whole number.")})
            self.fields[f"location_{row}"] = forms.CharField(
                label=_("Where they are"), max_length=200, required=False,
                help_text=_("City and country of the data centre.") if first else None)
        # Not a consent: the basis is the company's own request, before a possible contract (GDPR Art. 6(1)(b)).
        consent_box(self.fields["consent"], gettext(
            "I ask EverXCloud to answer this application: the details in this form are used to reply to it and "
            "to prepare a possible contract with my company."
        ))

    @staticmethod
    def row_numbers():
        return range(1, APPLICATION_ROWS + 1)

    def rows(self):
        """Each row slot's bound fields, for the template: (number, gpu, name, count, location)."""
        return [(row, *(self[f"{part}_{row}"] for part in ROW_PARTS)) for row in self.row_numbers()]

    def shown_rows(self):
        return self.rows()[:SHOWN_ROWS]

    def folded_rows(self):
        return self.rows()[SHOWN_ROWS:]

    def folded_rows_open(self):
        """Whether a folded slot holds anything (a sent form's value, or an error): then it is shown open."""
        names = [f"{part}_{row}" for row in self.row_numbers() if row > SHOWN_ROWS for part in ROW_PARTS]
        return self.is_bound and any(self.data.get(name) or name in self.errors for name in names)

    def clean_submission(self):
        """A form without a readable key (sent by a script, say) gets a key of its own."""
        try:
            return uuid.UUID(self.cleaned_data["submission"])
        except ValueError:
            return uuid.uuid4()

    def clean(self):
        cleaned = super().clean()
        self.offered = []
        for row in self.row_numbers():
            self.clean_row(row, cleaned)
        if not self.offered and not any(f"{part}_{row}" in self.errors for row in self.row_numbers()
                                        for part in ("gpu", "name", "count", "location")):
            self.add_error("gpu_1", ValidationError(_("Name at least one GPU model you offer."), code="no_rows"))
        return cleaned

    def clean_row(self, row, cleaned):
        names = {part: f"{part}_{row}" for part in ("gpu", "name", "count", "location")}
        if any(name in self.errors for name in names.values()):
            return
        gpu, name = cleaned.get(names["gpu"]), (cleaned.get(names["name"]) or "").strip()
        count, location = cleaned.get(names["count"]), (cleaned.get(names["location"]) or "").strip()
        if not gpu and not name and count is None and not location:
            return  # an empty slot
        if not gpu:
            self.add_error(names["gpu"], _("Choose the GPU model of this row."))
        elif gpu == OTHER_GPU and not name:
            self.add_error(names["name"], _("Name the other GPU model."))
        if count is None:
            self.add_error(names["count"], _("Enter the number of GPUs."))
        elif not 1 <= count <= MAX_OFFERED_GPUS:
            self.add_error(names["count"], gettext("Enter a number from %(min)s to %(max)s.") % {
                "min": format_number(1), "max": format_number(MAX_OFFERED_GPUS)})
        if not location:
            self.add_error(names["location"], _("Say where these GPUs are."))
        if any(name in self.errors for name in names.values()):
            return
        catalogue_gpu = None if gpu == OTHER_GPU else self.gpus[gpu]
        self.offered.append({"gpu": catalogue_gpu, "name": catalogue_gpu.name if catalogue_gpu else name,
                             "count": count, "location": location})

    def answers(self):
        return {field: self.cleaned_data[field] for field in ("company", "contact_name", "email", "country",
                                                             "message")}

"""The GET forms of the catalogue and the comparison. Their fields are the pages'
query string, so a result is a shareable link; every message is translatable."""
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from caching.fragments import CachedBoundField
from core.number_fields import LocalizedNumberField, NumberFormatField

from .catalogue import SORT_CHOICES
from .comparison import MAX_GPUS, MIN_GPUS


def decimal_input():
    return forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})


class QueryForm(forms.Form):
    """A form read from the query string, labels without a colon; each field's HTML rendered once per look
    (``caching.fragments``)."""

    bound_field_class = CachedBoundField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def query_pairs(self):
        """The submitted values of this form's fields, in field order: the page's own query string. A number is
        written in its canonical text ("1000" for "1.000" typed in German; an invalid one is left out) and the number
        format (``nf``) is dropped, so a link the site writes means the same in every language."""
        pairs = []
        for name, field in self.fields.items():
            if isinstance(field, NumberFormatField):
                continue
            if isinstance(field, LocalizedNumberField):
                value = self.cleaned_values().get(name)
                pairs += [(name, field.canonical(value))] if value is not None else []
            else:
                pairs += [(name, value) for value in self.data.getlist(name) if value]
        return pairs

    def cleaned_values(self):
        """The cleaned values of a bound form (an invalid field has none); the form is cleaned once."""
        if not self.is_bound:
            return {}
        self.is_valid()
        return self.cleaned_data


class CatalogueForm(QueryForm):
    vendor = forms.ChoiceField(
        label=gettext_lazy("Vendor"), required=False,
        error_messages={"invalid_choice": gettext_lazy(
            "No GPU in the catalogue is from “%(value)s”: "
            "showing every vendor."
        )},
    )
    min_memory = LocalizedNumberField(
        label=gettext_lazy("Minimum memory (GB)"), required=False,
        error_messages={"invalid": gettext_lazy(
            "Enter the minimum memory as a number of GB, such as 80: "
            "showing every size."
        )},
    )
    sort = forms.ChoiceField(
        label=gettext_lazy("Sort"), required=False, choices=SORT_CHOICES,
        error_messages={"invalid_choice": gettext_lazy("There is no such order: sorted by memory.")},
    )
    nf = NumberFormatField()

    def __init__(self, *args, vendors, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["vendor"].choices = [("", _("All vendors"))] + [(vendor, vendor) for vendor in vendors]

    def clean_min_memory(self):
        value = self.cleaned_data["min_memory"]
        if value is not None and value < 0:
            raise ValidationError(_("The minimum memory cannot be negative: showing every size."), code="negative")
        return value


class CompareForm(QueryForm):
    gpu = forms.MultipleChoiceField(
        label=gettext_lazy("GPUs"), help_text=gettext_lazy("Choose two to four."),
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": gettext_lazy("Choose two to four GPUs."),
            "invalid_choice": gettext_lazy("There is no GPU “%(value)s” in the catalogue."),
        },
    )
    workload = forms.ChoiceField(
        label=gettext_lazy("Add the sizing columns of a workload"), required=False,
        error_messages={"invalid_choice": gettext_lazy("There is no workload “%(value)s”.")},
    )

    def __init__(self, *args, gpus, tables, **kwargs):
        """``tables``: the published GPU tables (``catalog.gpu_tables``) whose sizing columns it may add."""
        super().__init__(*args, **kwargs)
        self.fields["gpu"].choices = [(gpu.slug, gpu.name) for gpu in gpus]
        self.fields["workload"].choices = [("", pgettext("no workload chosen", "None"))] + [
            (table.key, table.title) for table in tables]

    def clean_gpu(self):
        slugs = sorted(set(self.cleaned_data["gpu"]))
        if not MIN_GPUS <= len(slugs) <= MAX_GPUS:
            raise ValidationError(_("Choose two to four GPUs."), code="count")
        return slugs

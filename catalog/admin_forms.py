from django import forms
from django.utils.translation import gettext_lazy as _

from .models import GPU
from .specs import unsupported_spec_choices

MAX_PRICE_FILE_BYTES = 2 * 1024 * 1024


class PriceImportForm(forms.Form):
    price_file = forms.FileField(
        label=_("Price file"),
        help_text=_("CSV with the columns gpu, usd_per_hour, time (ISO 8601 with time zone), or JSON: a list "
                    "of objects with those keys. USD per GPU-hour, before tax. All rows are applied, or none."),
    )

    def clean_price_file(self):
        upload = self.cleaned_data["price_file"]
        if upload.size > MAX_PRICE_FILE_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        return upload


class GPUAdminForm(forms.ModelForm):
    """The GPU's form (the admin gives its model and fields): "not supported" is a box per spec the registry
    lets a GPU lack."""

    unsupported_specs = forms.MultipleChoiceField(
        label=GPU._meta.get_field("unsupported_specs").verbose_name,
        help_text=GPU._meta.get_field("unsupported_specs").help_text,
        choices=unsupported_spec_choices, widget=forms.CheckboxSelectMultiple, required=False,
    )

"""The admin's upload of a price file (``prices.admin``); the rows themselves are checked by ``price_import``."""
from django import forms
from django.utils.translation import gettext_lazy as _

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

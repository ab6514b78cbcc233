"""The price alert form: an address, a target price typed in the visitor's format (``amounts.py``) and consent,
on the public forms' common ground (``signups.forms.PublicForm``)."""
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from core.formatting import format_usd
from prices.price_import import MAX_PRICE_USD_PER_HOUR
from signups.forms import (
    LAUNCH_LIST_CONSENT_TEXT_VERSION,
    AddressField,
    PublicForm,
    consent_box,
    default_currency,
    launch_list_consent_text,
)
from signups.models import Signup

from .amounts import AmountError, amount_text, currency_affixes, decimal_separator, parse_amount


class AmountInput(forms.TextInput):
    """A text field for an amount, with the currency sign on the side the visitor's language writes it."""

    template_name = "alerts/widgets/amount.html"

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["before"], context["widget"]["after"] = currency_affixes()
        return context


# An example amount in the messages, written in the visitor's format.
EXAMPLE_AMOUNT = "8.50"


class TargetPriceField(forms.CharField):
    """A price in US dollars per GPU-hour, typed in the visitor's format (``amounts.py``): a Decimal above 0
    and at most what a price file may set."""

    # Longer than any price written with its currency sign; a longer text is refused unread.
    MAX_LENGTH = 20

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", AmountInput(attrs={
            "inputmode": "decimal", "autocomplete": "off", "maxlength": self.MAX_LENGTH,
        }))
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        example = amount_text(EXAMPLE_AMOUNT)
        try:
            if len(value) > self.MAX_LENGTH:
                raise AmountError("malformed")
            amount = parse_amount(value)
        except AmountError as error:
            messages = {
                "ambiguous": gettext("Write the cents after “%(separator)s”, without thousands separators, "
                                     "as in %(example)s."),
                "decimals": gettext("Enter at most two decimals, as in %(example)s."),
                "malformed": gettext("Enter a price in figures, as in %(example)s."),
            }
            raise ValidationError(messages[error.code] % {"separator": decimal_separator(), "example": example},
                                  code=error.code) from None
        if amount <= 0:
            raise ValidationError(gettext("Enter a price above zero."), code="min_value")
        if amount > MAX_PRICE_USD_PER_HOUR:
            raise ValidationError(gettext("Enter a price of at most %(max)s.") % {
                "max": format_usd(MAX_PRICE_USD_PER_HOUR)}, code="max_value")
        return amount


class PriceAlertForm(PublicForm):
    """"Tell me when this GPU is at or below this price": an address, a target and consent; and, optionally, the
    launch list with its own consent box (its wording and version are the signup form's), the balance currency
    and the business confirmation the list needs. Always shown, no script needed: what the list needs is
    required only when its box is ticked, and one confirmation mail confirms both (``price_alerts.py``)."""

    consent_text_version = "price-alert-2"

    email = AddressField(
        label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    target = TargetPriceField(label=_("Your target price per GPU-hour"))

    launch_list = forms.BooleanField(required=False)
    launch_list_currency = forms.ChoiceField(
        label=_("Balance currency"), choices=Signup.Currency.choices, widget=forms.RadioSelect, required=False,
        help_text=_("The currency you will top up your prepaid balance in."),
    )
    launch_list_business = forms.BooleanField(label=_("I am signing up for a business."), required=False)

    field_order = ["email", "target", "consent", "launch_list", "launch_list_currency", "launch_list_business"]

    def __init__(self, *args, gpu, **kwargs):
        super().__init__(*args, **kwargs)
        self.gpu = gpu
        price = gpu.price_usd_per_hour
        if price is None:
            hint = gettext("No live offer for this GPU right now.")
        else:
            hint = gettext("Today’s best price: %(price)s.") % {"price": format_usd(price)}
        self.fields["target"].help_text = gettext(
            "In US dollars, before tax. We email you when the best price is at or below it. %(today)s"
        ) % {"today": hint}
        consent_box(self.fields["consent"], gettext(
            "I want an email when the best price of this GPU is at or below my target. Every email has a link to "
            "delete the alert."
        ))
        consent_box(self.fields["launch_list"], launch_list_consent_text())
        if not self.is_bound:
            self.initial.setdefault("launch_list_currency", default_currency(get_language()))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("launch_list"):
            if not cleaned.get("launch_list_currency"):
                self.add_error("launch_list_currency", ValidationError(
                    self.fields["launch_list_currency"].error_messages["required"], code="required"))
            if not cleaned.get("launch_list_business"):
                self.add_error("launch_list_business", ValidationError(gettext(
                    "At launch the market sells to business customers only: please confirm that you are signing "
                    "up for a business."), code="required"))
        return cleaned

    def launch_list_answers(self, consent):
        """What the launch list needs, stored with the alert's request (empty: its box was not ticked); its consent
        is the list's own, asked on the same page."""
        if not self.cleaned_data.get("launch_list"):
            return {}
        return {"launch_list_currency": self.cleaned_data["launch_list_currency"],
                "launch_list_consent_text_version": LAUNCH_LIST_CONSENT_TEXT_VERSION}

"""The staff's second factor: a time-based code (TOTP, django-otp) from an authenticator app, asked for with the
password on the admin's login page. A password alone never opens the admin: the site treats a session whose login
did not pass the code as no staff session (``EverXAdminSite.has_permission``), and an account without a confirmed
device cannot log in until an operator sets one up (``manage.py staff_totp USERNAME``, docs/operations.md).

A wrong or missing code after the right password counts as a failed login for django-axes (per username from
that address, and per address: ``staff.login_lockout``), as a wrong password does; django-otp also slows down a
device after each wrong code. Neither can be reached without the account's password."""
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_totp.models import TOTPDevice


def staff_device(user):
    """The account's authenticator (its first confirmed TOTP device), or None."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("pk").first()


class StaffLoginForm(AdminAuthenticationForm):
    otp_token = forms.CharField(
        label=_("Authenticator code"), required=False, max_length=10,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )
    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "invalid_code": _("Enter the current code of your authenticator app."),
    }

    def clean(self):
        cleaned_data = super().clean()  # the password, and the account is staff and active
        user = self.get_user()
        device = staff_device(user)
        token = "".join(cleaned_data.get("otp_token", "").split())
        if device is None or not token or not device.verify_token(token):
            user_login_failed.send(sender=__name__, credentials={"username": cleaned_data.get("username")},
                                   request=self.request)
            raise forms.ValidationError(self.error_messages["invalid_code"], code="invalid_code")
        user.otp_device = device  # django_otp marks the session verified when the login completes
        return cleaned_data

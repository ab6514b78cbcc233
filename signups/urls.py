from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import alert_views, views
from .models import LegalPage

app_name = "signups"

urlpatterns = [
    path(_("signup/"), views.signup, name="signup"),
    path(_("signup/thanks/"), views.signup_thanks, name="signup_thanks"),
    path(_("signup/confirm/<str:token>/"), views.confirm, name="confirm"),
    path(_("signup/unsubscribe/<uuid:key>/"), views.unsubscribe, name="unsubscribe"),
    # Before the GPU's pages: "confirm" and "delete" are taken by the mails' links.
    path(_("alerts/confirm/<str:token>/"), alert_views.confirm_price_alert, name="price_alert_confirm"),
    path(_("alerts/delete/<uuid:key>/"), alert_views.delete_price_alert, name="price_alert_delete"),
    path(_("alerts/<slug:slug>/"), alert_views.price_alert, name="price_alert"),
    path(_("alerts/<slug:slug>/sent/"), alert_views.price_alert_thanks, name="price_alert_thanks"),
    path(_("providers/apply/"), views.provider_application, name="provider_application"),
    path(_("providers/apply/thanks/"), views.provider_thanks, name="provider_thanks"),
    path(_("privacy/"), views.legal_page, {"key": LegalPage.Key.PRIVACY}, name="privacy"),
    path(_("legal-notice/"), views.legal_page, {"key": LegalPage.Key.LEGAL_NOTICE}, name="legal_notice"),
]

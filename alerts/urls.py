from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "alerts"

urlpatterns = [
    # Before the GPU's pages: "confirm", "delete" and "renew" are taken by the mails' links.
    path(_("alerts/confirm/<str:token>/"), views.confirm_price_alert, name="price_alert_confirm"),
    path(_("alerts/delete/<uuid:key>/"), views.delete_price_alert, name="price_alert_delete"),
    path(_("alerts/renew/<str:token>/"), views.renew_price_alert, name="price_alert_renew"),
    path(_("alerts/<slug:slug>/"), views.price_alert, name="price_alert"),
    path(_("alerts/<slug:slug>/sent/"), views.price_alert_thanks, name="price_alert_thanks"),
]

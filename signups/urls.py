from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "signups"

urlpatterns = [
    path(_("signup/"), views.signup, name="signup"),
    path(_("signup/thanks/"), views.signup_thanks, name="signup_thanks"),
    path(_("signup/confirm/<str:token>/"), views.confirm, name="confirm"),
    path(_("signup/unsubscribe/<uuid:key>/"), views.unsubscribe, name="unsubscribe"),
]

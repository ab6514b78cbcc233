from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "providers"

urlpatterns = [
    path(_("providers/"), views.provider_page, name="page"),
    path(_("providers/apply/"), views.application, name="application"),
    path(_("providers/apply/thanks/"), views.thanks, name="thanks"),
]

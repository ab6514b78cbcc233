from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views
from .models import LegalPage

app_name = "company"

urlpatterns = [
    path(_("privacy/"), views.legal_page, {"key": LegalPage.Key.PRIVACY}, name="privacy"),
    path(_("legal-notice/"), views.legal_page, {"key": LegalPage.Key.LEGAL_NOTICE}, name="legal_notice"),
]

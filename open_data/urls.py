from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "open_data"
# Inside i18n_patterns, before the workload catch-all.
urlpatterns = [
    path(_("open-data/"), views.docs, name="docs"),
]

from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "catalog"
# Inside i18n_patterns, before the workload catch-all; "compare" comes before the GPU slug it would match.
urlpatterns = [
    path(_("gpus/"), views.gpu_list, name="gpu_list"),
    path(_("gpus/compare/"), views.compare, name="compare"),
    path(_("gpus/<slug:slug>/"), views.gpu_detail, name="gpu_detail"),
]

from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "estimator"
urlpatterns = [
    path(_("gpu-calculator/"), views.calculator, name="calculator"),
]

from django.urls import path

from . import views
from .schemas import SCHEMA_MAJOR_VERSION

app_name = "data"
# Outside the language prefixes (/data/…): the files are the same in every language.
urlpatterns = [
    path("gpus.json", views.gpus_json, name="gpus_json"),
    path("gpus.csv", views.gpus_csv, name="gpus_csv"),
    path("gpus/<slug:slug>/prices.json", views.gpu_prices, name="gpu_prices"),
    path(f"schema/v{SCHEMA_MAJOR_VERSION}/<slug:name>.json", views.schema, name="schema"),
]

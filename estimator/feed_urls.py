from django.urls import path

from .training_json import training_json

app_name = "estimates"
# Outside the language prefixes (/data/estimates/…): the same answer in every language.
urlpatterns = [
    path("training.json", training_json, name="training_json"),
]

from django.apps import AppConfig


class EstimatorConfig(AppConfig):
    name = "estimator"
    verbose_name = "Estimator"

    def ready(self):
        from core.public_pages import register

        from .public_pages import estimator_pages

        register(estimator_pages)

from django.apps import AppConfig


class EstimatorConfig(AppConfig):
    name = "estimator"
    verbose_name = "Estimator"

    def ready(self):
        from core.public_pages import register
        from core.site_parts import register_link

        from .public_pages import estimator_pages

        register(estimator_pages)
        # The catalogue's tool links name the calculator by this key (catalog is below the estimator).
        register_link("calculator", "estimator:calculator")

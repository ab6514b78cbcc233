from django.apps import AppConfig


class EstimatorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "estimator"
    verbose_name = "Estimator"
    # Page content (core.content_models): a change bumps the content version; editors may change it.
    content_models = ("ModelPreset",)

    def ready(self):
        from core.site_parts import register_link

        # The catalogue's tool links name the calculator by this key (catalog is below the estimator).
        register_link("calculator", "estimator:calculator")

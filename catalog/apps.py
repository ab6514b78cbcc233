from django.apps import AppConfig


class CatalogConfig(AppConfig):
    default_auto_field = 'django.db.models.BigAutoField'
    name = 'catalog'
    # Page content (core.content_models): a change bumps the content version; editors may change it.
    content_models = ("GPU", "PricePoint")

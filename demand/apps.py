from django.apps import AppConfig


class DemandConfig(AppConfig):
    """Demand, for the founders: aggregates of signups and price alerts, and beside them the GPUs the provider
    applications offer, in the admin (``figures.py``, a page and its CSV export in ``admin.py``). Above the forms
    it counts, beside storefront: nothing below names it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "demand"

from django.apps import AppConfig


class PricesConfig(AppConfig):
    """How a GPU's current price changes: the market feed's price file (``price_import``, the ``import_prices``
    command, the admin's import page) and an editor's edit in the admin (``admin``). The prices and their history
    are the catalogue's models (``catalog.PricePoint``), which stay there: this app only writes them, above the
    catalogue, so nothing below names it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "prices"

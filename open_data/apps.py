from django.apps import AppConfig


class OpenDataConfig(AppConfig):
    """The open data feed: every GPU with its specs, price and largest models as JSON and CSV, each GPU's price
    history, their JSON Schemas, and the page that documents them. Reads the catalogue; nothing below imports
    it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "open_data"

    def ready(self):
        from core.site_parts import register_link

        # The catalogue links the files and their documentation by these keys (catalog is below open_data).
        register_link("open_data_json", "data:gpus_json")
        register_link("open_data_csv", "data:gpus_csv")
        register_link("open_data_docs", "open_data:docs")

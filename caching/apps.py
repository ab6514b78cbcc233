from django.apps import AppConfig


class CachingConfig(AppConfig):
    """Everything that stores or invalidates rendered output or loaded content (docs/decisions/0021)."""

    name = "caching"

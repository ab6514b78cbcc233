"""The models that hold site content, as each app declares them next to its own code: a ``content_models``
attribute on its AppConfig, naming its models. A change to one bumps the content version
(``caching.content_version``), and the Editors group may change them (``staff.editor_role``); any other model
(signups, mail, users, permissions) is neither."""
from django.apps import apps


def content_models():
    for app_config in apps.get_app_configs():
        for model_name in getattr(app_config, "content_models", ()):
            yield app_config.get_model(model_name)

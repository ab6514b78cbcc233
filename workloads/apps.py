from django.apps import AppConfig


class WorkloadsConfig(AppConfig):
    default_auto_field = 'django.db.models.BigAutoField'
    name = 'workloads'

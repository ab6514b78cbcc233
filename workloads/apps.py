from django.apps import AppConfig


class WorkloadsConfig(AppConfig):
    default_auto_field = 'django.db.models.BigAutoField'
    name = 'workloads'
    # Page content (core.content_models): a change bumps the content version; editors may change it.
    content_models = ("Workload", "WorkloadGPU", "WorkloadColumn", "WorkloadSection", "WorkloadFAQ", "CallToAction")

    def ready(self):
        from catalog import gpu_tables

        from .cached_content import published_gpu_tables

        # A GPU's page shows its rows of the workload tables; the comparison offers their sizing columns.
        gpu_tables.register(published_gpu_tables)

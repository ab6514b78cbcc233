from django.apps import AppConfig


class ProvidersConfig(AppConfig):
    """The supply side: the provider page (earnings at today's best offers, what qualifies, onboarding, terms) and
    the applications with their GPU rows, on the public forms' common ground of ``signups`` and the double opt-in
    of ``optin``, with which it registers what is its own."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "providers"
    # Page content (core.content_models): a change bumps the content version; editors may change it.
    content_models = ("ProviderPageText",)

    def ready(self):
        from optin import consent_records, erasure, origins, worker

        from .applications import apply_requests
        from .models import ApplicationRequest, ProviderApplication

        consent_records.register_evidence_holder(ProviderApplication)
        erasure.register_address_holder(ProviderApplication, admin_history=True)
        erasure.register_address_holder(ApplicationRequest, admin_history=False)
        origins.register_request_model(ApplicationRequest)
        # The mail worker applies the waiting applications (and queues their acknowledgements) before each pass.
        worker.register_chore("Provider applications", apply_requests)

from django.apps import AppConfig


class SignupsConfig(AppConfig):
    """Pre-launch renter signups (double opt-in), provider applications, their mail, the legal pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "signups"
    # Only the legal pages are page content (core.content_models): a signup or a mail sent leaves every
    # cached page in place, and signups and applications stay out of the editor role (personal data).
    content_models = ("LegalPage",)

    def ready(self):
        from django.db.models.signals import pre_delete

        from core.public_pages import register

        from .models import LegalPage, refuse_legal_page_deletion
        from .public_pages import legal_pages

        register(legal_pages)

        pre_delete.connect(refuse_legal_page_deletion, sender=LegalPage, dispatch_uid="legal-pages-kept")

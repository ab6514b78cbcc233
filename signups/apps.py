from django.apps import AppConfig


class SignupsConfig(AppConfig):
    """Pre-launch renter signups (double opt-in), provider applications, their mail, the legal pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "signups"

    def ready(self):
        from django.db.models.signals import post_save, pre_delete

        from core.content_version import content_changed

        from .models import LegalPage, refuse_legal_page_deletion

        # Only the legal pages are page content. The app is deliberately not in CONTENT_APPS: that
        # would bump the content version (and empty the page cache) on every signup and every mail sent.
        uid = "content-version-signups.legalpage"
        post_save.connect(content_changed, sender=LegalPage, dispatch_uid=f"{uid}-save")
        # Never deleted, so never a deletion to count.
        pre_delete.connect(refuse_legal_page_deletion, sender=LegalPage, dispatch_uid="legal-pages-kept")

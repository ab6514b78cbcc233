from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompanyConfig(AppConfig):
    """The operator record: the company behind the site (identity, contacts, recipients of personal data,
    retention periods), filled by operators in the admin. The legal pages (edited by editors, ``/privacy/``
    and ``/legal-notice/``), the mail signatures and the Organization structured data are rendered from it;
    ``check --deploy`` fails while it is incomplete."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "company"
    verbose_name = _("Company")
    # The legal pages are page content (core.content_models): editors keep their text.
    content_models = ("LegalPage",)

    def ready(self):
        from django.db.models.signals import post_delete, post_save, pre_delete

        from caching.content_version import content_changed

        from . import checks  # noqa: F401  (registers the deploy check)
        from .models import LegalPage, OperatorRecord, Recipient, refuse_legal_page_deletion

        pre_delete.connect(refuse_legal_page_deletion, sender=LegalPage, dispatch_uid="legal-pages-kept")

        # Every legal page shows the record: a change makes every cached page fresh. Not a content model
        # (core.content_models): the company's identity is the operators', not the editors'.
        for model in (OperatorRecord, Recipient):
            uid = f"content-version-{model._meta.label_lower}"
            post_save.connect(content_changed, sender=model, dispatch_uid=f"{uid}-save")
            post_delete.connect(content_changed, sender=model, dispatch_uid=f"{uid}-delete")

from django.apps import AppConfig


class SignupsConfig(AppConfig):
    """Pre-launch renter signups (double opt-in), price alerts, provider applications, their mail, the legal
    pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "signups"
    # Only the legal pages are page content (core.content_models): a signup or a mail sent leaves every
    # cached page in place, and signups and applications stay out of the editor role (personal data).
    content_models = ("LegalPage",)

    def ready(self):
        from django.db.models.signals import pre_delete

        from catalog import gpu_page_panels
        from catalog.price_events import price_changed
        from core.admin_site import AdminPage, register_admin_page
        from core.health import register_check
        from core.public_pages import register

        from .alert_panels import price_alert_panel, price_alert_row_link
        from .demand_admin import PAGE_NAME, PAGE_URL_NAME, may_view_demand
        from .models import LegalPage, refuse_legal_page_deletion
        from .outbox_health import mail_queue_ok
        from .price_alerts import on_price_changed
        from .public_pages import legal_pages
        from .signup_actions import signup_action

        register(legal_pages)
        # /healthz is degraded while a mail has waited too long to be sent.
        register_check("mail_queue", mail_queue_ok)
        # The founders' demand page, listed with the signups in the admin for those who may see it.
        register_admin_page(AdminPage("signups", PAGE_NAME, PAGE_URL_NAME, may_view_demand))

        pre_delete.connect(refuse_legal_page_deletion, sender=LegalPage, dispatch_uid="legal-pages-kept")
        # Price alerts: a panel on each GPU's page, a link in each priced calculator row, and the mails a
        # new price sends (in the transaction that saves it).
        gpu_page_panels.register_panel(price_alert_panel)
        gpu_page_panels.register_row_link(price_alert_row_link)
        # The signup action beside every price, with the GPU preselected.
        gpu_page_panels.register_signup_action(signup_action)
        price_changed.connect(on_price_changed, dispatch_uid="price-alerts")

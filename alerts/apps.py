from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AlertsConfig(AppConfig):
    """Price alerts: "tell me when this GPU is at or below this price", on the one double opt-in of ``optin``
    and the public forms of ``signups``; a panel on each GPU's page, a link in each priced calculator row, and
    the mails a new price sends."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "alerts"
    verbose_name = _("Price alerts")

    def ready(self):
        from catalog import gpu_page_panels
        from catalog.price_events import price_changed
        from core.site_parts import register_link
        from optin import consent_records, erasure, origins, outbox, retention, worker
        from signups.log_redaction import SAMPLE_KEY, SAMPLE_TOKEN, register_secret_path_view

        from . import confirmation, lapse, mails
        from .models import AlertRequest, PriceAlert
        from .panels import price_alert_panel, price_alert_row_link
        from .price_alerts import apply_requests, mail_after_cooldown, on_price_changed
        from .retention import LABELS, purge_unconfirmed_alerts

        # An alert's confirmation mail gets its link as it is sent; deleting an alert deletes its mails.
        outbox.register_link_kind("price_alert", confirmation.LINK, mails.CONFIRMATION_MAIL_VERSION)
        # A renewal reminder's link, made as it is sent; the mail worker reminds and lapses before each pass.
        outbox.register_link_kind(mails.RENEWAL_LINK_KIND, lapse.RENEWAL_LINK)
        # The requests the form stored come first: their confirmation mails go in the same pass.
        worker.register_chore("Price alert requests", apply_requests)
        worker.register_chore("Price alerts reminded or lapsed", lapse.remind_and_lapse)
        worker.register_chore("Price alerts mailed after their cooldown", mail_after_cooldown)
        consent_records.register_evidence_holder(PriceAlert)
        erasure.register_address_holder(PriceAlert)
        erasure.register_address_holder(AlertRequest, admin_history=False)
        origins.register_request_model(AlertRequest)
        retention.register_purge(purge_unconfirmed_alerts, LABELS)
        register_secret_path_view("alerts:price_alert_confirm", "token", SAMPLE_TOKEN)
        register_secret_path_view("alerts:price_alert_renew", "token", SAMPLE_TOKEN)
        register_secret_path_view("alerts:price_alert_delete", "key", SAMPLE_KEY)
        # A panel on each GPU's page, a link in each priced calculator row, and the mails a new price sends (in
        # the transaction that saves it).
        gpu_page_panels.register_panel(price_alert_panel)
        # The pages that end the signup flow offer an alert (``signups.views``, a layer below).
        register_link("price_alert", "alerts:price_alert")
        gpu_page_panels.register_row_link(price_alert_row_link)
        price_changed.connect(on_price_changed, dispatch_uid="price-alerts")

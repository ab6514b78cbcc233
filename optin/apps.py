from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OptinConfig(AppConfig):
    """One double opt-in for every form that mails (signups, provider applications, price alerts): the
    confirmation link (token, confirm by POST, expiry), the outbox and its worker (``send_outbox``), one mail
    budget per mailbox, normalized addresses, keyed hashes, erasure and the retention of what was never
    confirmed. Below the forms: they register what is theirs (link kinds, address holders, purges, chores)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "optin"
    verbose_name = _("Mail and erasure")

    def ready(self):
        from serving.health import register_check

        from .outbox_health import mail_queue_ok

        # /healthz is degraded while a mail has waited too long to be sent.
        register_check("mail_queue", mail_queue_ok)

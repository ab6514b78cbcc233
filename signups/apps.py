from django.apps import AppConfig


class SignupsConfig(AppConfig):
    """Pre-launch renter signups (double opt-in), on the one double opt-in of ``optin``: this app registers with
    it what is its own (link kind, address holders, purge, the worker's chore). The public forms' common ground
    (``forms.py``, ``views.py``) serves the provider application too (``providers``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "signups"

    def ready(self):
        from catalog import gpu_page_panels
        from optin import consent_records, erasure, origins, outbox, retention, worker

        from . import confirmation, mails, rate_limit, waitlist
        from .models import Signup, WaitlistRequest
        from .retention import LABELS, purge_unconfirmed_signups
        from .signup_actions import signup_action

        # A signup's confirmation mail gets its link as it is sent; deleting a signup deletes its mails.
        outbox.register_link_kind("signup", confirmation.LINK, mails.CONFIRMATION_MAIL_VERSION)
        consent_records.register_evidence_holder(Signup)
        for model, admin_history in ((Signup, True), (WaitlistRequest, False)):
            erasure.register_address_holder(model, admin_history=admin_history)
        origins.register_request_model(WaitlistRequest)
        retention.register_purge(purge_unconfirmed_signups, LABELS)
        retention.register_purge(rate_limit.purge_ended_windows, rate_limit.PURGE_LABELS)
        # The mail worker applies the waiting requests before each pass over the outbox.
        worker.register_chore("Waitlist", waitlist.apply_requests)
        # The signup action beside every price, with the GPU preselected.
        gpu_page_panels.register_signup_action(signup_action)

"""A mail sent twice carries one link (issue 48): the worker is killed after the mail server took a confirmation
mail and before the send was recorded, so a worker started again sends it again, after the lease; the link in
the mail that arrived first still confirms, until it expires."""
import email
import email.policy
import os
import signal
import tempfile
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from optin.models import OutboxEmail
from signups.models import Signup

from ..localized_urls import url_in
from ..servers import mail_worker_process
from ..signup_helpers import Mailbox, confirmation_path, signup_data, smtp_server


class KillingMailbox(Mailbox):
    """Takes each message, and kills the worker as the first one is taken: it never hears the server's 250."""

    def __init__(self):
        super().__init__()
        self.worker_pid = None

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        if len(self.messages) == 1 and self.worker_pid:
            os.kill(self.worker_pid, signal.SIGKILL)
        return "250 Message accepted"


def wait_for(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not condition():
        time.sleep(0.1)
    return condition()


def body_of(envelope):
    return email.message_from_bytes(envelope.content, policy=email.policy.default).get_content()


@pytest.mark.multiprocess
def test_a_mail_sent_again_after_a_killed_worker_keeps_the_first_link_valid(live_launch_content, client):
    assert client.post(url_in("es", "signups:signup"), signup_data(email="twice@example.com")).status_code == 303
    handler = KillingMailbox()
    with tempfile.TemporaryFile() as log, smtp_server(handler=handler) as (port, mailbox):
        with mail_worker_process(port, log) as worker:
            handler.worker_pid = worker.pid
            assert wait_for(lambda: worker.poll() is not None), "the worker was not killed"
        mail = OutboxEmail.objects.get()
        assert mail.sent_at is None and len(mailbox.messages) == 1  # taken, not recorded
        # The lease of the dead worker's claim runs out (10 minutes, skipped here).
        OutboxEmail.objects.filter(pk=mail.pk).update(next_attempt_at=timezone.now() - timedelta(seconds=1))
        with mail_worker_process(port, log):
            assert wait_for(lambda: len(mailbox.messages) == 2)
            assert wait_for(lambda: OutboxEmail.objects.filter(sent_at__isnull=False).exists())
    first, second = (confirmation_path(body_of(envelope)) for envelope in mailbox.messages)
    assert first == second
    assert client.post(first).status_code == 200
    assert Signup.objects.get().is_subscribed

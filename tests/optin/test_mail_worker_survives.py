"""One bad mail never stops the others (issue 48): a GPU name with a line break makes an alert mail whose subject
Django refuses (``BadHeaderError``). The real worker, against a real SMTP server, records that attempt, gives the
mail up and delivers every other queued mail; and the admin refuses such a name, in the editor's language."""
import os
import signal
import subprocess
import tempfile
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from alerts import mails
from catalog.models import GPU
from core.header_text import CONTROL_CHARACTER_MESSAGE
from optin import outbox
from optin.models import OutboxEmail

from .. import factories
from ..editors import change_form_data
from ..servers import PROJECT_DIR, mail_worker_process, production_env
from ..signup_helpers import smtp_server

GOOD_MAILS = 5


def alert_mail(gpu, email):
    alert = factories.price_alert(email=email, gpu=gpu, confirmed_at=timezone.now(), renewed_at=timezone.now())
    return mails.price_alert_mail(alert, gpu, gpu.price_usd_per_hour)


def wait_for(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.multiprocess
def test_a_line_break_in_a_gpu_name_leaves_every_other_queued_mail_delivered(live_launch_content):
    bad, good = GPU.objects.filter(price_usd_per_hour__isnull=False).order_by("pk")[:2]
    # Saved past the admin, as before the admin refused it (or by any other way in).
    GPU.objects.filter(pk=bad.pk).update(name="H100\nBcc: everyone@example.com")
    bad.refresh_from_db()
    # The bad mail first in the queue: it is the first the worker takes.
    outbox.queue_all([alert_mail(bad, "first@example.com")])
    outbox.queue_all([alert_mail(good, f"other{number}@example.com") for number in range(GOOD_MAILS)])
    bad_mail = OutboxEmail.objects.get(recipient="first@example.com")

    with tempfile.TemporaryFile() as log, smtp_server() as (port, mailbox), \
            mail_worker_process(port, log) as worker:
        delivered = wait_for(lambda: len(mailbox.messages) >= GOOD_MAILS)
        time.sleep(0.5)  # a few more passes: the worker keeps running
        running = worker.poll() is None
        log.seek(0)
        output = log.read().decode(errors="replace")

    assert delivered, output[-3000:]
    assert running, output[-3000:]
    assert sorted(rcpt for message in mailbox.messages for rcpt in message.rcpt_tos) == sorted(
        f"other{number}@example.com" for number in range(GOOD_MAILS))
    bad_mail.refresh_from_db()
    # The attempt is recorded; a mail that can never go as it is is given up, not retried after every lease.
    assert bad_mail.sent_at is None and bad_mail.attempts == 1 and bad_mail.next_attempt_at is None
    assert bad_mail.last_error.startswith("BadHeaderError")
    assert OutboxEmail.objects.filter(sent_at__isnull=False).count() == GOOD_MAILS
    # Neither the worker's log nor the mail's error names the address.
    assert "first@example.com" not in output and "first@example.com" not in bad_mail.last_error


@pytest.mark.parametrize("name", ["H100\nSXM", "H100\rSXM", "H100\tSXM", "H100\x00SXM", "H100\u2028SXM"])
def test_a_gpu_name_with_a_control_character_is_refused(launch_content, name):
    gpu = GPU.objects.get(slug="h100-sxm")
    gpu.name = name
    with pytest.raises(ValidationError) as refused:
        gpu.full_clean()
    assert "name" in refused.value.message_dict


def test_the_admin_refuses_a_line_break_in_a_gpu_name_in_the_editors_language(client, launch_content):
    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "a-long-test-password")
    client.force_login(user)
    h100 = GPU.objects.get(slug="h100-sxm")
    data = change_form_data(h100)
    data["name"] = "H100\nSXM"
    response = client.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    with translation.override("es"):
        message = str(CONTROL_CHARACTER_MESSAGE)
    assert message in response.content.decode()
    h100.refresh_from_db()
    assert h100.name == "H100 SXM"


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(child) for child in listing.read().split()]
    except FileNotFoundError:
        return []


def worker_pid(script):
    """The worker's process: the supervising script's child running ``send_outbox`` (the script itself when it
    replaced itself with the worker)."""
    for pid in [script.pid, *children(script.pid)]:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"send_outbox" in cmdline.read():
                    return pid
        except FileNotFoundError:
            continue
    return None


def queue_plain_mail(recipient):
    outbox.queue(recipient=recipient, subject="Hallo", body="Text", language="de")


@pytest.mark.multiprocess
def test_production_starts_the_worker_again_when_it_dies_and_stops_it_when_asked(live_launch_content):
    queue_plain_mail("before@example.com")
    with tempfile.TemporaryFile() as log, smtp_server() as (port, mailbox):
        env = production_env(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1",
                             EMAIL_PORT=str(port), OUTBOX_RESTART_DELAY="0.2")
        script = subprocess.Popen([str(PROJECT_DIR / "scripts" / "start-production.sh"), "outbox"], cwd=PROJECT_DIR,
                                  env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            assert wait_for(lambda: len(mailbox.messages) == 1)
            first = worker_pid(script)
            assert first is not None
            os.kill(first, signal.SIGKILL)  # a crash: nobody asked it to stop
            queue_plain_mail("after@example.com")
            delivered = wait_for(lambda: len(mailbox.messages) == 2)
            second = worker_pid(script)
            script.send_signal(signal.SIGTERM)
            stopped = script.wait(timeout=20)
        finally:
            if script.poll() is None:
                script.kill()
        log.seek(0)
        output = log.read().decode(errors="replace")
    assert delivered, output[-3000:]
    assert second not in (None, first)
    assert "starting it again" in output
    assert stopped == 0, output[-3000:]
    assert worker_pid(script) is None  # the worker stopped with it

"""An erasure takes the mailbox's lock the mail worker takes (issue 48): while the real worker holds a waiting
signup of the address between its lock and its commit (a test hook, ``optin.worker.hold_point``), an erasure
waits; once the worker commits, the erasure erases what it made, and nothing of the person is left."""
import tempfile
import threading
import time

import pytest
from django.conf import settings
from django.db import connections

from optin.erasure import erase_person
from optin.models import ConsentRecord, ErasureLog, OutboxEmail
from signups.models import Signup, WaitlistRequest

from ..localized_urls import url_in
from ..servers import mail_worker_process
from ..signup_helpers import signup_data, smtp_server

HOLD = "waitlist-request-applied"


def wait_for(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not condition():
        time.sleep(0.05)
    return condition()


@pytest.mark.multiprocess
def test_an_erasure_waits_for_the_workers_commit_and_leaves_nothing(live_launch_content, client, tmp_path):
    assert client.post(url_in("es", "signups:signup"), signup_data(email="held@example.com")).status_code == 303
    erased = threading.Event()

    def erase():
        try:
            erase_person("HELD@example.com")
            erased.set()
        finally:
            connections.close_all()

    # The worker under this process's SECRET_KEY: the mailbox's lock is a row named by a keyed hash.
    with tempfile.TemporaryFile() as log, smtp_server() as (port, _mailbox), \
            mail_worker_process(port, log, WORKER_TEST_HOLD_DIR=str(tmp_path), SECRET_KEY=settings.SECRET_KEY):
        held = wait_for((tmp_path / f"{HOLD}.held").exists)
        log.seek(0)
        assert held, log.read().decode(errors="replace")[-3000:]
        eraser = threading.Thread(target=erase)
        eraser.start()
        time.sleep(1)
        waited = not erased.is_set()
        (tmp_path / f"{HOLD}.release").touch()
        eraser.join(timeout=30)
        assert erased.is_set()
        time.sleep(0.5)  # the worker's next steps, after the erasure
    assert waited, "the erasure did not wait for the worker's commit"
    assert not Signup.objects.exists() and not WaitlistRequest.objects.exists()
    assert not OutboxEmail.objects.exists()
    assert ErasureLog.objects.count() == 1
    # The evidence of the consent the worker recorded is kept, ended as erased.
    assert list(ConsentRecord.objects.values_list("withdrawal", flat=True)) == [ConsentRecord.Withdrawal.ERASED]

"""Only the mail worker talks to the mail server. With a mail server that accepts connections and never
answers, signups and pages served by a real gunicorn stay fast, and no request even connects to it; the
worker's attempt fails after EMAIL_TIMEOUT and the mail waits for the next. A new address and a known one
get the same answer by the same queries: nothing tells whether an address is on the list."""
import http.client
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from urllib.parse import urlencode, urlsplit

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from optin.models import OutboxEmail
from signups.models import Signup, WaitlistRequest
from workloads.models import Workload

from .. import factories
from ..localized_urls import url_in
from ..queries import query_shapes
from ..servers import collect_static, gunicorn_server
from ..signup_helpers import (
    form_cookie_and_token,
    hanging_smtp_server,
    run_mail_worker,
    signup_data,
    smtp_settings,
)

SIGNUPS = 10
PAGE_VIEWS = 30


@pytest.fixture(scope="module")
def static_files():
    collect_static()


def timed_request(base_url, method, path, body=None, headers=None):
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    began = time.perf_counter()
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - began
    finally:
        connection.close()


@pytest.mark.multiprocess
def test_signups_and_pages_stay_fast_while_the_mail_server_hangs(live_launch_content, static_files):
    form_path = url_in("es", "signups:signup")
    pages = [url_in("es", "home"), Workload.objects.get(key="llm-training").get_absolute_url("es"),
             url_in("es", "catalog:gpu_list")]
    with hanging_smtp_server() as (smtp_port, smtp_connections), gunicorn_server(
            workers=2, SIGNUP_RATE_LIMIT="1000", EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(smtp_port), EMAIL_TIMEOUT="10") as url:
        cookie, token = form_cookie_and_token(url, form_path)
        for path in pages:  # cached, as pages are once visited
            assert timed_request(url, "GET", path)[0] == 200

        def sign_up(number):
            body = urlencode(signup_data(email=f"hang{number}@example.com", csrfmiddlewaretoken=token))
            return timed_request(url, "POST", form_path, body, {
                "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})

        def view_page(number):
            time.sleep(0.05 * number)  # spread over the time the signups take
            return timed_request(url, "GET", pages[number % len(pages)])

        with ThreadPoolExecutor(max_workers=SIGNUPS + PAGE_VIEWS) as pool:
            signups = [pool.submit(sign_up, number) for number in range(SIGNUPS)]
            views = [pool.submit(view_page, number) for number in range(PAGE_VIEWS)]
            signups, views = [future.result() for future in signups], [future.result() for future in views]
        mail_server_connections = len(smtp_connections)

    assert [status for status, _seconds in signups] == [303] * SIGNUPS
    assert max(seconds for _status, seconds in signups) < 3, signups
    assert [status for status, _seconds in views] == [200] * PAGE_VIEWS
    assert max(seconds for _status, seconds in views) < 2, views
    assert mail_server_connections == 0, "a request talked to the mail server"
    assert WaitlistRequest.objects.count() == SIGNUPS


def test_the_workers_attempt_against_a_hanging_mail_server_times_out_and_the_mail_waits(client,
                                                                                      launch_content):
    client.post(url_in("es", "signups:signup"), signup_data(email="patient@example.com"))
    with hanging_smtp_server() as (smtp_port, smtp_connections), \
            override_settings(**{**smtp_settings(smtp_port), "EMAIL_TIMEOUT": 1}):
        began = time.perf_counter()
        output = run_mail_worker()
        seconds = time.perf_counter() - began
        assert len(smtp_connections) == 1
    assert 1 <= seconds < 5 and "0 sent, 1 failed" in output
    mail = OutboxEmail.objects.get()
    assert mail.sent_at is None and mail.attempts == 1 and "timed out" in mail.last_error
    assert timezone.now() < mail.next_attempt_at <= timezone.now() + timedelta(minutes=1)
    assert Signup.objects.get().email == "patient@example.com"


def test_a_new_and_a_known_address_get_the_same_answer_by_the_same_queries(client, launch_content):
    factories.signup(email="confirmed@example.com", confirmed_at=timezone.now())
    factories.signup(email="pending@example.com")
    # What a process reads once per content version (the privacy policy's version) is read by this first one.
    assert client.post(url_in("es", "signups:signup"), signup_data(email="first@example.com")).status_code == 303
    answers = {}
    for address in ("new@example.com", "confirmed@example.com", "pending@example.com"):
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url_in("es", "signups:signup"), signup_data(email=address))
        answers[address] = (response.status_code, response["Location"], response.content,
                            query_shapes(queries.captured_queries))
    assert len(set(map(repr, answers.values()))) == 1, answers
    assert not any("signups_signup" in shape for shape in answers["new@example.com"][3])

"""The admin cannot be closed by one attacker (issue 48): after 100 failed logins for the superuser from 25
addresses, only the guessing addresses are refused, not the account for everyone, and the superuser logs in from
their own with the second factor. Real gunicorn with the production settings (PBKDF2, sessions, django-axes in the
database); the clients connect from other loopback addresses."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.urls import reverse

from ..editors import authenticator_code
from ..html import form_fields
from ..http_visitors import PASSWORD, Browserless, create_editor
from ..servers import collect_static, gunicorn_server

# Each failed login costs the server two PBKDF2 runs (the check, then Django's evening of its time): the hundred
# make a long test (docs/benchmarks.md).
pytestmark = [pytest.mark.multiprocess, pytest.mark.long]


def attempt(url, source, fields):
    agent = Browserless(url, source=source)
    page_fields = form_fields(agent.request("GET", reverse("admin:login"))[2], "login-form")
    status, headers, _page = agent.request("POST", reverse("admin:login"),
                                           {**page_fields, **fields, "next": reverse("admin:index")})
    return agent, status, headers


def test_a_hundred_failures_from_25_addresses_leave_the_superuser_able_to_log_in(live_launch_content):
    collect_static()
    superuser = create_editor()
    with gunicorn_server(workers=2) as url:
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(
                lambda number: attempt(url, f"127.0.1.{number // 4 + 1}",
                                       {"username": "editor", "password": f"guess-{number}"})[1],
                range(100)))
        assert statuses == [200] * 100
        # The password alone does not log in, even from a clean address.
        _agent, status, _headers = attempt(url, "127.0.2.1", {"username": "editor", "password": PASSWORD})
        assert status == 200
        agent, status, _headers = attempt(url, "127.0.2.2", {"username": "editor", "password": PASSWORD,
                                                            "otp_token": authenticator_code(superuser)})
        assert status == 302, status
        assert agent.request("GET", reverse("admin:index"))[0] == 200

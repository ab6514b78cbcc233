"""Two gunicorn instances on one PostgreSQL and one Redis: app servers are stateless. An admin change
made through one is seen within a second through the other; a signup rate limit counts across both, and
a login locked out through one is refused by the other."""
import time

import pytest
from django.urls import reverse

from catalog.models import GPU
from signups.models import WaitlistRequest
from workloads.models import Workload

from ..deck import squash
from ..html import form_fields
from ..http_visitors import PASSWORD, Browserless, create_editor, log_in, log_in_status, submit_signup
from ..servers import collect_static, gunicorn_server, redis_server

pytestmark = pytest.mark.multiprocess

SIGNUP_LIMIT = 3
LOGIN_LIMIT = 3


@pytest.fixture
def two_servers(live_launch_content):
    collect_static()
    # A window of 10⁹ s: the fixed window cannot roll over during the test and reset the count.
    settings = {"SIGNUP_RATE_LIMIT": str(SIGNUP_LIMIT), "SIGNUP_RATE_LIMIT_WINDOW": str(10**9),
                "LOGIN_MAX_FAILURES_PER_USER": str(LOGIN_LIMIT),
                "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"}
    with redis_server() as redis_url, \
            gunicorn_server(REDIS_URL=redis_url, **settings) as first, \
            gunicorn_server(REDIS_URL=redis_url, **settings) as second:
        yield first, second


def test_an_admin_change_through_one_server_is_seen_within_a_second_through_the_other(two_servers):
    first, second = two_servers
    create_editor()
    page_path = Workload.objects.get(key="llm-training").get_absolute_url("es")
    reader = Browserless(second)
    status, _headers, before = reader.request("GET", page_path)
    assert status == 200 and "desde2,88US$" in squash(before)
    # Served from the shared cache the second time.
    assert reader.request("GET", page_path)[2] == before

    editor = log_in(first)
    h100 = GPU.objects.get(slug="h100-sxm")
    change_path = reverse("admin:catalog_gpu_change", args=[h100.pk])
    status, _headers, form_page = editor.request("GET", change_path)
    assert status == 200
    fields = form_fields(form_page, "gpu_form")
    fields.update({"price_usd_per_hour": "2.50", "_save": "Save"})
    status, _headers, _page = editor.request("POST", change_path, fields)
    assert status == 302

    time.sleep(1.2)  # a process re-reads the shared content version at most once a second
    status, _headers, after = reader.request("GET", page_path)
    assert "desde2,50US$" in squash(after)


def test_the_signup_rate_limit_counts_submissions_to_both_servers_together(two_servers):
    first, second = two_servers
    through_first, through_second = Browserless(first), Browserless(second)
    # Under the limit in all, but each server alone sees fewer than the limit.
    accepted = [submit_signup(through_first, "one@example.com"), submit_signup(through_second, "two@example.com"),
                submit_signup(through_first, "three@example.com")]
    assert accepted == [303] * SIGNUP_LIMIT
    # The next one is refused by either server, though the second has counted only one of its own.
    assert submit_signup(through_second, "four@example.com") == 429
    assert submit_signup(through_first, "five@example.com") == 429
    # Stored as requests for the mail worker (signups/waitlist.py).
    assert sorted(WaitlistRequest.objects.values_list("email", flat=True)) == [
        "one@example.com", "three@example.com", "two@example.com"]


def test_a_login_locked_out_through_one_server_is_refused_by_the_other(two_servers):
    """The failures are counted in the database (django-axes), not in either process nor in Redis."""
    first, second = two_servers
    create_editor()
    statuses = [log_in_status(first, "wrong")[0] for _ in range(LOGIN_LIMIT)]
    assert statuses == [200] * (LOGIN_LIMIT - 1) + [429]
    # The second server has not seen one failure, yet refuses the right password, and so does the first.
    status, headers = log_in_status(second, PASSWORD)
    assert status == 429 and headers["Retry-After"] == "900"
    assert log_in_status(first, PASSWORD)[0] == 429
    assert log_in_status(second, PASSWORD)[0] == 429

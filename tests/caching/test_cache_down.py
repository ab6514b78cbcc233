"""Redis stopped under a running site: pages are still served (rendered from the database), /healthz says
the cache is failing, the admin login still works and still locks out and visitors' forms keep their rate limit
(both are counted in the database); when Redis is back, so is everything else, and a change made meanwhile
shows."""
import json
import signal
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from django.urls import reverse

from catalog.models import GPU
from workloads.models import Workload

from ..deck import squash
from ..html import form_fields
from ..http_visitors import PASSWORD, Browserless, create_editor, log_in, log_in_status, submit_signup
from ..servers import collect_static, gunicorn_server, redis_process

pytestmark = pytest.mark.multiprocess

LOGIN_LIMIT = 3


def healthz(url):
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.fixture
def site_on_redis(live_launch_content):
    collect_static()
    with tempfile.TemporaryFile() as log, redis_process() as (redis_url, redis), \
            gunicorn_server(workers=2, log=log, REDIS_URL=redis_url, SIGNUP_RATE_LIMIT="1",
                            LOGIN_MAX_FAILURES_PER_USER=str(LOGIN_LIMIT),
                            SIGNUP_RATE_LIMIT_WINDOW=str(10**9),
                            EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend") as url:
        yield url, redis_url, redis, log


def test_with_redis_stopped_pages_are_served_and_the_login_still_locks_out(site_on_redis):
    url, redis_url, redis, _log = site_on_redis
    create_editor()
    cached_path = Workload.objects.get(key="llm-training").get_absolute_url("es")
    assert Browserless(url).request("GET", cached_path)[0] == 200
    assert submit_signup(Browserless(url), "first@example.com") == 303

    redis.terminate()
    redis.wait(timeout=10)
    time.sleep(1.2)  # past the second a worker may keep the content version it read

    for path in (cached_path, Workload.objects.get(key="llm-training").get_absolute_url("de"), "/es/",
                 "/sitemap.xml"):
        for _ in range(4):
            status, _headers, _page = Browserless(url).request("GET", path)
            assert status == 200, path
    assert "desde2,88US$" in squash(Browserless(url).request("GET", cached_path)[2])

    status, body = healthz(url)
    assert status == 200 and body == {"status": "degraded", "database": "ok", "cache": "failing", "mail_queue": "ok"}

    # The login lockout does not depend on the cache: an editor logs in, and guessing is still counted.
    assert log_in_status(url, PASSWORD)[0] == 302
    failures = [log_in_status(url, "wrong")[0] for _ in range(LOGIN_LIMIT)]
    assert failures == [200] * (LOGIN_LIMIT - 1) + [429]
    assert log_in_status(url, PASSWORD)[0] == 429

    # Nor does the forms' limit (1 here), counted in the database too (signups/rate_limit.py).
    assert submit_signup(Browserless(url), "second@example.com") == 429

    with redis_process(port=int(redis_url.rsplit(":", 1)[1].split("/")[0])):
        time.sleep(1.2)
        assert healthz(url) == (200, {"status": "ok", "database": "ok", "cache": "ok", "mail_queue": "ok"})
        assert log_in_status(url, PASSWORD)[0] == 429, "the lockout outlives the cache's outage"


@pytest.fixture
def one_worker_on_redis(live_launch_content):
    collect_static()
    with redis_process() as (redis_url, redis), gunicorn_server(REDIS_URL=redis_url) as url:
        try:
            yield url, redis
        finally:
            redis.send_signal(signal.SIGCONT)


def test_a_change_made_while_redis_hangs_is_not_hidden_when_it_answers_again(one_worker_on_redis):
    """Redis stopped (SIGSTOP: connections hang, calls time out) keeps its data: the content version from
    before the change is still there when it answers. The change must not be hidden behind the pages
    cached under that version."""
    url, redis = one_worker_on_redis
    create_editor()
    page_path = Workload.objects.get(key="llm-training").get_absolute_url("es")
    assert "desde2,88US$" in squash(Browserless(url).request("GET", page_path)[2])
    editor = log_in(url)
    change_path = reverse("admin:catalog_gpu_change", args=[GPU.objects.get(slug="h100-sxm").pk])
    fields = form_fields(editor.request("GET", change_path)[2], "gpu_form")
    fields.update({"price_usd_per_hour": "2.50", "_save": "Save"})

    redis.send_signal(signal.SIGSTOP)
    assert editor.request("POST", change_path, fields)[0] == 302
    time.sleep(1.2)
    assert "desde2,50US$" in squash(Browserless(url).request("GET", page_path)[2])

    redis.send_signal(signal.SIGCONT)
    time.sleep(1.2)
    for _ in range(3):
        assert "desde2,50US$" in squash(Browserless(url).request("GET", page_path)[2])

"""A verified staff member's admin requests (the price import, the demand CSV) run under the staff's statement timeout
and no lock timeout in the web server, and its connection gets the web's limits back after them; nobody else's request
changes them (serving/database_limits.py, decision 30). The web server's own bounds are tested on a real server in
tests/serving/test_database_hangs.py; here the test client's process is made the web server's for the test."""
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from serving import database_limits

from ..localized_urls import url_in


@pytest.fixture
def web_server(monkeypatch, settings):
    monkeypatch.setattr(database_limits, "_limited", True)
    settings.DATABASE_STATEMENT_TIMEOUT, settings.DATABASE_LOCK_TIMEOUT = 5, 2
    settings.DATABASE_STAFF_STATEMENT_TIMEOUT = 300


def timeouts_set(queries):
    return [query["sql"] for query in queries if "set_config('statement_timeout'" in query["sql"]]


def show(name):
    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {name}")
        return cursor.fetchone()[0]


def test_a_verified_staff_members_admin_request_lifts_the_timeouts_and_puts_them_back(client, web_server, db):
    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "a-long-test-password")
    client.force_login(user)  # with the second factor (tests/editors.py)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("admin:index")).status_code == 200
    lifted, restored = timeouts_set(queries.captured_queries)
    assert queries.captured_queries[-1]["sql"] == restored  # after the view's own queries
    assert "'300000'" in lifted and "'0'" in lifted
    assert "'5000'" in restored and "'2000'" in restored
    assert (show("statement_timeout"), show("lock_timeout")) == ("5s", "2s")


def test_nobody_elses_request_changes_the_timeouts(client, web_server, live_launch_content):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("admin:login")).status_code == 200
        assert client.get(url_in("es", "signups:signup")).status_code == 200
    assert timeouts_set(queries.captured_queries) == []


def test_outside_the_web_server_an_admin_request_changes_nothing(client, db):
    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "a-long-test-password")
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("admin:index")).status_code == 200
    assert timeouts_set(queries.captured_queries) == []

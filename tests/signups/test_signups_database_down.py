"""With the database unreachable, or a commit failing, the visitor gets a 503 page in their language with
Retry-After, and never a thank-you for a signup that was not stored."""
from contextlib import contextmanager
from unittest import mock

import pytest
from django.core import mail
from django.db import InterfaceError, OperationalError, connections
from django.db.backends.utils import CursorWrapper

from optin.models import OutboxEmail, RequestOrigin
from providers.models import ApplicationRequest, ProviderApplication
from signups.models import Signup

from ..html import assert_page_heading
from ..localized_urls import url_in
from ..signup_helpers import provider_data, run_mail_worker, signup_data


@contextmanager
def database_down(error=OperationalError):
    """Every query fails as when the server is gone; the page must render without one. A pytest patch: the test
    leaves the content the tests before it kept in memory (tests/launch_version.py), as a process would whose
    database went away before it read any."""
    failing = mock.Mock(side_effect=error("connection to server failed: Connection refused"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CursorWrapper, "execute", failing)
        patch.setattr(CursorWrapper, "executemany", failing)
        yield


def assert_unavailable_page(response, language):
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "no-store" in response["Cache-Control"]
    assert not response.has_header("Location")
    assert_page_heading(response, language, "Temporarily unavailable")


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_signup_with_the_database_down_gets_a_503_not_a_thank_you(client, launch_content, error):
    with database_down(error):
        response = client.post(url_in("de", "signups:signup"), signup_data())
    assert_unavailable_page(response, "de")
    assert not Signup.objects.exists()


@pytest.mark.parametrize("view_name", ["signups:signup", "providers:application", "home"])
def test_pages_with_the_database_down_get_the_503_page(client, launch_content, view_name):
    with database_down():
        response = client.get(url_in("pt", view_name))
    assert_unavailable_page(response, "pt")


def test_a_failed_commit_gets_a_503_and_leaves_neither_row_nor_mail(client, live_launch_content):
    """The provider form writes its request and the request's origin in one transaction. (A signup request is
    one insert, committed as it runs: the database going away then fails the insert, as above.)"""
    connection = connections["default"]
    failing_commit = OperationalError("server closed the connection")
    with mock.patch.object(connection, "commit", side_effect=failing_commit):
        response = client.post(url_in("es", "providers:application"), provider_data())
    assert_unavailable_page(response, "es")
    assert not ApplicationRequest.objects.exists() and not RequestOrigin.objects.exists()
    run_mail_worker()
    assert not ProviderApplication.objects.exists() and not OutboxEmail.objects.exists()
    assert mail.outbox == []


def test_a_worker_whose_commit_fails_keeps_the_provider_request_for_its_next_pass(client, live_launch_content):
    from providers.applications import apply_requests

    client.post(url_in("es", "providers:application"), provider_data())
    connection = connections["default"]
    failing_commit = OperationalError("server closed the connection")
    with mock.patch.object(connection, "commit", side_effect=failing_commit), pytest.raises(OperationalError):
        apply_requests()
    assert ApplicationRequest.objects.count() == 1 and not ProviderApplication.objects.exists()
    assert apply_requests() == 1 and ProviderApplication.objects.count() == 1 and OutboxEmail.objects.count() == 1
    assert not ApplicationRequest.objects.exists() and not RequestOrigin.objects.exists()


def test_a_worker_whose_commit_fails_keeps_the_signup_request_for_its_next_pass(transactional_db):
    from signups.models import WaitlistRequest
    from signups.waitlist import apply_requests

    WaitlistRequest.objects.create(email="ana@example.com", currency="EUR", language="es",
                                   consent_text_version="renter-1", consent_language="es", source_path="/es/")
    connection = connections["default"]
    failing_commit = OperationalError("server closed the connection")
    with mock.patch.object(connection, "commit", side_effect=failing_commit), pytest.raises(OperationalError):
        apply_requests()
    assert WaitlistRequest.objects.count() == 1 and not Signup.objects.exists()
    assert apply_requests() == 1 and Signup.objects.count() == 1 and OutboxEmail.objects.count() == 1

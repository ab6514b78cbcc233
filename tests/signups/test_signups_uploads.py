"""No anonymous visitor can upload a file: a multipart body with a file part gets the localized 400 page
before a byte of the file is kept in memory or on disk, and nothing is stored. Forms sent as multipart
without files still work (the test client sends every form that way); staff may upload in the admin."""
import http.client
import os
import time
import uuid
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from optin.models import OutboxEmail
from providers.models import ApplicationRequest, ProviderApplication
from signups.models import Signup, WaitlistRequest

from .. import factories
from ..html import assert_page_heading
from ..localized_urls import url_in
from ..servers import collect_static, gunicorn_server
from ..signup_helpers import form_cookie_and_token, provider_data, signup_data

TWENTY_MEGABYTES = 20 * 1024 * 1024


def assert_nothing_stored():
    assert not WaitlistRequest.objects.exists() and not Signup.objects.exists()
    assert not ProviderApplication.objects.exists() and not OutboxEmail.objects.exists()
    assert not ApplicationRequest.objects.exists()


@pytest.mark.parametrize("view_name, data", [
    ("signups:signup", signup_data()), ("providers:application", provider_data()),
])
def test_a_file_sent_to_a_form_gets_a_localized_400_and_nothing_is_kept(client, launch_content, settings,
                                                                       tmp_path, view_name, data):
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    upload = SimpleUploadedFile("big.bin", bytes(TWENTY_MEGABYTES), content_type="application/octet-stream")
    response = client.post(url_in("pt", view_name), {**data, "attachment": upload})
    assert response.status_code == 400
    assert_page_heading(response, "pt", "The request could not be processed")
    assert_nothing_stored()
    assert list(tmp_path.iterdir()) == []


def test_a_file_sent_to_the_admins_login_page_is_refused_too(client, db, tmp_path, settings):
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    upload = SimpleUploadedFile("big.bin", bytes(TWENTY_MEGABYTES))
    response = client.post(reverse("admin:login"), {"username": "x", "password": "y", "file": upload})
    assert response.status_code == 400
    assert list(tmp_path.iterdir()) == []


def test_a_multipart_form_without_a_file_is_accepted(client, launch_content):
    response = client.post(url_in("es", "signups:signup"), signup_data())  # multipart/form-data
    assert response.status_code == 303 and WaitlistRequest.objects.count() == 1


def test_staff_may_still_send_files_to_the_admin(client, launch_content):
    staff = get_user_model().objects.create_superuser("admin", "admin@example.com", "a-long-test-password")
    client.force_login(staff)
    factories.signup(email="ana@example.com")
    response = client.post(reverse("admin:signups_signup_changelist"), {
        "action": "export_csv", "_selected_action": list(Signup.objects.values_list("pk", flat=True)),
        "file": SimpleUploadedFile("prices.json", b"[]"),
    })
    assert response.status_code == 200 and "ana@example.com" in response.content.decode()


@pytest.mark.multiprocess
def test_gunicorn_refuses_a_20_megabyte_upload_before_writing_any_of_it(live_launch_content, tmp_path):
    """Over HTTP, as a script would send it: the form's fields (with a valid CSRF token), then a 20 MB
    file. Halfway through, the temporary folder is looked at: Django's default handlers would be writing
    the file there by then."""
    collect_static()
    temp_dir = tmp_path / "tmp"
    temp_dir.mkdir()
    form_path = url_in("es", "signups:signup")
    with gunicorn_server(workers=1, TMPDIR=str(temp_dir)) as url:
        cookie, token = form_cookie_and_token(url, form_path)
        boundary = uuid.uuid4().hex
        fields = b"".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
            for name, value in signup_data(email="uploader@example.com", csrfmiddlewaretoken=token).items()
        )
        file_head = (f'--{boundary}\r\nContent-Disposition: form-data; name="cv"; filename="big.bin"\r\n'
                     "Content-Type: application/octet-stream\r\n\r\n").encode()
        tail = f"\r\n--{boundary}--\r\n".encode()
        length = len(fields) + len(file_head) + TWENTY_MEGABYTES + len(tail)
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        connection.putrequest("POST", form_path)
        connection.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
        connection.putheader("Content-Length", str(length))
        connection.putheader("Cookie", cookie)
        connection.endheaders()
        connection.send(fields + file_head)
        chunk = bytes(1024 * 1024)
        halfway = TWENTY_MEGABYTES // len(chunk) // 2
        written_halfway = None
        try:
            for number in range(TWENTY_MEGABYTES // len(chunk)):
                connection.send(chunk)
                if number == halfway:
                    time.sleep(0.5)
                    written_halfway = os.listdir(temp_dir)
            connection.send(tail)
        except (BrokenPipeError, ConnectionResetError):  # the server may stop reading once it has answered
            written_halfway = os.listdir(temp_dir) if written_halfway is None else written_halfway
        response = connection.getresponse()
        status = response.status
        connection.close()
    assert written_halfway == []
    assert status == 400
    assert os.listdir(temp_dir) == []
    assert_nothing_stored()

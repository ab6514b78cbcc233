"""Two gunicorn instances on one PostgreSQL and one Redis: app servers are stateless. An admin change
made through one is seen at once through the other; a signup rate limit counts across both."""
import html.parser
import http.client
import urllib.parse

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.urls import reverse

from catalog.models import GPU
from workloads.models import Workload

from .deck import squash
from .servers import collect_static, gunicorn_server, redis_server

PASSWORD = "a-long-editor-password"


class Browserless:
    """Just enough of a browser for the admin over plain HTTP: cookies (also Secure ones, since the
    servers run behind no TLS here), forms and CSRF."""

    def __init__(self, base_url):
        self.host = urllib.parse.urlsplit(base_url).netloc
        self.cookies = {}

    def request(self, method, path, fields=None, headers=None):
        connection = http.client.HTTPConnection(self.host, timeout=30)
        headers = {"Host": self.host, **(headers or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields, doseq=True)
            headers.update({"Content-Type": "application/x-www-form-urlencoded",
                            "Origin": f"http://{self.host}", "Referer": f"http://{self.host}{path}"})
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        content = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                cookie_name, _, rest = value.partition("=")
                self.cookies[cookie_name] = rest.split(";", 1)[0]
        connection.close()
        return response.status, dict(response.getheaders()), content


class FormFields(html.parser.HTMLParser):
    """The fields a browser would submit from the form with the given id."""

    def __init__(self, page, form_id):
        super().__init__()
        self.form_id, self._inside = form_id, False
        self.fields, self._select, self._textarea = {}, None, None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._inside = attrs.get("id") == self.form_id
        if not self._inside:
            return
        if tag == "input" and attrs.get("name"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            if attrs.get("type") in ("submit", "file"):
                return
            self.fields[attrs["name"]] = attrs.get("value", "")
        elif tag == "select":
            self._select = attrs.get("name")
        elif tag == "option" and self._select and "selected" in attrs:
            self.fields[self._select] = attrs.get("value", "")
        elif tag == "textarea":
            self._textarea = attrs.get("name")
            self.fields[self._textarea] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._inside = False

    def handle_data(self, data):
        if self._inside and self._textarea:
            self.fields[self._textarea] += data


@pytest.fixture
def two_servers(live_launch_content):
    collect_static()
    with redis_server() as redis_url, \
            gunicorn_server(REDIS_URL=redis_url) as first, gunicorn_server(REDIS_URL=redis_url) as second:
        yield first, second


def create_editor():
    # The servers run the production settings, whose hashers do not include the tests' fast MD5.
    user = get_user_model().objects.create_superuser("editor", "editor@example.com")
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt())
    user.save()


def log_in(base_url):
    agent = Browserless(base_url)
    status, _headers, page = agent.request("GET", reverse("admin:login"))
    assert status == 200
    fields = FormFields(page, "login-form").fields
    status, headers, _page = agent.request("POST", reverse("admin:login"), {
        **fields, "username": "editor", "password": PASSWORD, "next": reverse("admin:index")})
    assert status == 302, "login failed"
    return agent


def test_an_admin_change_through_one_server_is_seen_at_once_through_the_other(two_servers):
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
    fields = FormFields(form_page, "gpu_form").fields
    fields.update({"price_usd_per_hour": "2.50", "_save": "Save"})
    status, _headers, _page = editor.request("POST", change_path, fields)
    assert status == 302

    status, _headers, after = reader.request("GET", page_path)
    assert "desde2,50US$" in squash(after)

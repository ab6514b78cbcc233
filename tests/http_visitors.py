"""A visitor of a running server (gunicorn, tests/servers.py) over plain HTTP, and the editor it logs in as: just
enough of a browser for the admin and the forms, for the tests of servers, workers and failures."""
import http.client
import urllib.parse

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.urls import reverse

from .editors import add_authenticator, authenticator_code
from .html import assert_page_heading, form_fields

PASSWORD = "a-long-editor-password"


class Browserless:
    """Just enough of a browser for the admin over plain HTTP: cookies (also Secure ones, since the
    servers run behind no TLS here), forms and CSRF."""

    def __init__(self, base_url, source=None):
        """``source``: the loopback address to connect from (another client), else the system's choice."""
        self.host = urllib.parse.urlsplit(base_url).netloc
        self.cookies = {}
        self.source = (source, 0) if source else None

    def request(self, method, path, fields=None, headers=None):
        connection = http.client.HTTPConnection(self.host, timeout=30, source_address=self.source)
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


def create_editor():
    # The servers run the production settings, whose hashers do not include the tests' fast MD5.
    user = get_user_model().objects.create_superuser("editor", "editor@example.com")
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt())
    user.save()
    add_authenticator(user)
    return user


def editor_account():
    return get_user_model().objects.get(username="editor")


def log_in(base_url):
    agent = Browserless(base_url)
    status, _headers, page = agent.request("GET", reverse("admin:login"))
    assert status == 200
    fields = form_fields(page, "login-form")
    status, _headers, _page = agent.request("POST", reverse("admin:login"), {
        **fields, "username": "editor", "password": PASSWORD, "otp_token": authenticator_code(editor_account()),
        "next": reverse("admin:index")})
    assert status == 302, "login failed"
    return agent


def log_in_status(base_url, password):
    """One login attempt as the editor from a fresh browser, with the authenticator's code; returns the response's
    status and headers."""
    agent = Browserless(base_url)
    fields = form_fields(agent.request("GET", reverse("admin:login"))[2], "login-form")
    fields.update({"username": "editor", "password": password, "otp_token": authenticator_code(editor_account()),
                   "next": reverse("admin:index")})
    status, headers, _page = agent.request("POST", reverse("admin:login"), fields)
    return status, headers


def submit_signup(agent, email):
    """Fetch the signup form and submit it as a browser would; returns the response's status."""
    form_path = reverse("signups:signup")
    status, _headers, page = agent.request("GET", form_path)
    assert status == 200
    fields = form_fields(page, action=form_path)
    assert "csrfmiddlewaretoken" in fields
    fields.update({"email": email, "currency": "EUR", "business": "on", "consent": "on"})
    status, _headers, _page = agent.request("POST", form_path, fields)
    return status


class Answer:
    """A real server's response, read as the tests read the test client's."""

    def __init__(self, status, headers, body):
        self.status_code, self.content = status, body.encode()
        self.headers = {name.lower(): value for name, value in headers.items()}

    def __getitem__(self, name):
        return self.headers[name.lower()]

    def has_header(self, name):
        return name.lower() in self.headers


def visit(visitor, method, path, fields=None):
    return Answer(*visitor.request(method, path, fields))


def assert_unavailable_page(response, language):
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "no-store" in response["Cache-Control"]
    assert not response.has_header("Location")
    assert_page_heading(response, language, "Temporarily unavailable")

"""Shared by the signup tests: form data, links read from mails, the mail worker, local SMTP servers."""
import asyncio
import contextlib
import http.client
import io
import re
import socket
import threading
from contextlib import contextmanager
from urllib.parse import urlsplit

from aiosmtpd.controller import Controller
from django.conf import settings
from django.core.management import call_command

from .localized_urls import url_in
from .servers import free_port

SAMPLE_UUID = "00000000-0000-4000-8000-000000000000"


def link_pattern(view_name, kwarg, sample):
    """A mail link to ``view_name`` in any of the site's languages (the URL segments are translated)."""
    prefixes = [re.escape(url_in(code, view_name, **{kwarg: sample}).split(sample)[0])
                for code, _name in settings.LANGUAGES]
    return re.compile(r"https?://[^\s/]+(?:" + "|".join(prefixes) + r")[^\s/]+/")


CONFIRM_LINK = link_pattern("signups:confirm", "token", "sample-token")
UNSUBSCRIBE_LINK = link_pattern("signups:unsubscribe", "key", SAMPLE_UUID)


def signup_data(**overrides):
    data = {"email": "ana@example.com", "currency": "EUR", "language": "es", "business": "on", "consent": "on"}
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def provider_data(**overrides):
    data = {
        "company": "Cómputo Ibérico S.L.", "contact_name": "Marta Ruiz", "email": "marta@computo.example",
        "country": "ES", "gpu_1": "h100-sxm", "count_1": "16", "location_1": "Madrid, España",
        "gpu_2": "other", "name_2": "A100 80 GB", "count_2": "8", "location_2": "Bilbao, España",
        "message": "", "consent": "on",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def path_of(url):
    return urlsplit(url).path


def confirmation_path(body):
    return path_of(CONFIRM_LINK.search(body).group(0))


def unsubscribe_path(body):
    return path_of(UNSUBSCRIBE_LINK.search(body).group(0))


def run_mail_worker():
    """One pass of the mail worker (`manage.py send_outbox`): waiting signups join the waitlist, mails go."""
    out = io.StringIO()
    call_command("send_outbox", stdout=out)
    return out.getvalue()


class Mailbox:
    """aiosmtpd handler that keeps every message it receives."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 Message accepted"


@contextmanager
def smtp_server(port=None, handler=None):
    """A real SMTP server on loopback; yields (port, mailbox): ``handler`` (a ``Mailbox``) or a new one."""
    port = port or free_port()
    mailbox = handler or Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port, loop=asyncio.new_event_loop())
    controller.start()
    try:
        yield port, mailbox
    finally:
        controller.stop()


def smtp_settings(port):
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": port, "EMAIL_USE_TLS": False, "EMAIL_TIMEOUT": 5,
        "EMAIL_HOST_USER": "", "EMAIL_HOST_PASSWORD": "",
    }


@contextmanager
def hanging_smtp_server():
    """A mail server that accepts connections and never answers (not even its greeting); yields its port and
    the list of connections it has accepted."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    held = []
    stopping = threading.Event()

    def accept():
        while not stopping.is_set():
            try:
                connection, _address = listener.accept()
            except OSError:
                return
            held.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], held
    finally:
        stopping.set()
        with contextlib.suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        listener.close()
        for connection in held:
            connection.close()


def form_cookie_and_token(base_url, path):
    """A form's CSRF cookie (as a "name=value" Cookie header) and token, fetched from a real server."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read().decode()
    finally:
        connection.close()
    cookie = re.search(r"((?:__Host-)?csrftoken=[^;]+)", response.getheader("Set-Cookie")).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    return cookie, token

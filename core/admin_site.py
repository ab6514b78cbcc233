"""The editors' admin: Django's admin with login throttling and lockout.

Failed logins are counted in the shared cache; while one of these counters is at its limit, the login
form refuses the attempts it covers with 429, right password or not:
- per username from one client address: LOGIN_MAX_FAILURES_PER_USER (5) in LOGIN_LOCKOUT_SECONDS (15
  minutes from the first failure). This stops guessing one password from one address, and locks out only
  that address: a stranger guessing an editor's password does not lock the editor out, who logs in from
  their own address.
- per client address, whatever the username: LOGIN_MAX_FAILURES_PER_ADDRESS (20) in LOGIN_LOCKOUT_SECONDS;
  the address can then log in as nobody (guessing many usernames, or one with ever-changing spelling).
- per username from every address (the ceiling): LOGIN_USER_CEILING (100) in LOGIN_USER_CEILING_SECONDS
  (an hour from the first failure); that username is then locked out for everyone until the hour ends,
  with a warning in the log. This stops guessing spread over many addresses; its price is that such an
  attack can still lock an editor out (5 addresses, each at 5 failures per 15 minutes, reach 100 in the
  hour), which the warning tells the operators about.
An IPv6 address counts as its /64 network, which one host usually holds whole. A successful login clears
only the failures of its username from its address. With the shared cache unavailable failures cannot be
counted, so every login is refused (503) until it answers again."""
import hashlib
import ipaddress
import logging
from collections.abc import Callable
from typing import NamedTuple

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .client_ip import client_ip
from .shared_cache import CacheUnavailable, count, shared_cache

logger = logging.getLogger(__name__)

# Seconds an editor is asked to wait when the login cannot be throttled.
CACHE_UNAVAILABLE_RETRY_AFTER = 60


class FailureCounter(NamedTuple):
    key: str
    limit: int
    seconds: int  # how long the counter, and so its lockout, lasts from the first failure


def address_group(request):
    """The client address failures are counted by: an IPv6 address's /64 network, else the address."""
    address = client_ip(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ip.ipv4_mapped) if ip.ipv4_mapped else str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def failure_counters(request):
    """This attempt's counters: its username from its address, its address, its username everywhere."""
    username = request.POST.get("username", "").strip().lower()
    hashed = hashlib.sha256(username.encode()).hexdigest()[:32]
    address = address_group(request)
    return (
        FailureCounter(f"login-failures:user-address:{hashed}:{address}", settings.LOGIN_MAX_FAILURES_PER_USER,
                       settings.LOGIN_LOCKOUT_SECONDS),
        FailureCounter(f"login-failures:ip:{address}", settings.LOGIN_MAX_FAILURES_PER_ADDRESS,
                       settings.LOGIN_LOCKOUT_SECONDS),
        FailureCounter(f"login-failures:user:{hashed}", settings.LOGIN_USER_CEILING,
                       settings.LOGIN_USER_CEILING_SECONDS),
    )


def lockout_seconds(request):
    """0 when this attempt may go ahead, else the longest lockout it is under. Raises CacheUnavailable
    when the failures cannot be read."""
    counters = failure_counters(request)
    counts = shared_cache("get_many", [counter.key for counter in counters])
    locked = [counter.seconds for counter in counters if counts.get(counter.key, 0) >= counter.limit]
    return max(locked, default=0)


def record_failure(request):
    pair, address, user = failure_counters(request)
    count(pair.key, pair.seconds)
    count(address.key, address.seconds)
    if count(user.key, user.seconds) == user.limit:
        logger.warning(
            "Admin login: %d failed logins for the username %r within %d s, the last from %s; that username "
            "is locked out for everyone until the window ends.",
            user.limit, request.POST.get("username", "").strip().lower(), user.seconds, address_group(request),
        )


def clear_failures(request):
    """After a successful login: only its username's failures from its address (a login does not excuse
    an address's guesses at other usernames, nor stop guessing from elsewhere)."""
    pair, _address, _user = failure_counters(request)
    shared_cache("delete", pair.key)


class AdminPage(NamedTuple):
    """A page of an app's own in the admin (not a model's list), listed with the app's models on the index for
    those ``may_view(request)`` lets in."""
    app_label: str
    name: str
    url_name: str  # in the admin's namespace
    may_view: Callable


_admin_pages = []


def register_admin_page(page):
    """Called from an app's ``AppConfig.ready()``: core names no app above it."""
    if page not in _admin_pages:
        _admin_pages.append(page)


class EverXAdminSite(admin.AdminSite):
    site_header = gettext_lazy("EverXCloud editors")
    site_title = gettext_lazy("EverXCloud editors")
    index_title = gettext_lazy("Site content")

    def get_app_list(self, request, app_label=None):
        app_list = super().get_app_list(request, app_label)
        for app in app_list:
            for page in _admin_pages:
                if page.app_label == app["app_label"] and page.may_view(request):
                    app["models"].append({
                        "name": page.name, "object_name": page.url_name, "view_only": True, "add_url": None,
                        "admin_url": reverse(f"{self.name}:{page.url_name}"), "perms": {"view": True},
                    })
        return app_list

    def refusal(self, request, extra_context, message, status, retry_after):
        context = {**self.each_context(request), "title": _("Log in"), "lockout_message": message,
                   **(extra_context or {})}
        response = TemplateResponse(request, "admin/login_locked.html", context, status=status)
        response["Retry-After"] = str(retry_after)
        return response

    def login(self, request, extra_context=None):
        if request.method == "POST":
            try:
                locked_seconds = lockout_seconds(request)
            except CacheUnavailable:
                return self.refusal(request, extra_context, _("Logging in is unavailable for a moment. Try again in a "
                                                              "minute."), 503, CACHE_UNAVAILABLE_RETRY_AFTER)
            if locked_seconds:
                minutes = max(1, locked_seconds // 60)
                message = _("Too many failed attempts. Try again in %(minutes)s minutes.") % {"minutes": minutes}
                return self.refusal(request, extra_context, message, 429, locked_seconds)
        response = super().login(request, extra_context)
        if request.method == "POST":
            try:
                if request.user.is_authenticated:
                    clear_failures(request)
                else:
                    record_failure(request)
            except CacheUnavailable:  # went down since the check: this one attempt is not counted
                pass
        return response


class EverXAdminConfig(AdminConfig):
    default_site = "core.admin_site.EverXAdminSite"

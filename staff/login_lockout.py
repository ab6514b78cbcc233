"""The admin's login lockout: django-axes, with a limit of its own for each lockout parameter.

axes counts failed logins in the database (``axes.models.AccessAttempt``): every worker of every server
reads the same counts, no cache flood or outage can erase them, and an operator can see and clear them in
the admin. While one of these counts is at its limit, the login refuses the attempts it covers with 429,
right password or not; a refused attempt counts too, so a lockout ends AXES_COOLOFF_TIME (15 minutes) after
the last attempt, and failures further apart than that are not added up:
- a username from one client address: LOGIN_MAX_FAILURES_PER_USER (5). This stops guessing one password
  from one address, and locks out only that address: a stranger guessing an editor's password does not
  lock the editor out, who logs in from their own address.
- a client address, whatever the username: LOGIN_MAX_FAILURES_PER_ADDRESS (20); the address can then log
  in as nobody (guessing many usernames, or one with ever-changing spelling).
There is no limit per username from every address: any such limit is one a stranger can reach, from enough
addresses, to lock an editor out for everyone (issue 48: 100 failures from 25 addresses closed the admin). Guessing
spread over many addresses meets the second factor instead: a password alone never logs staff in
(``staff.staff_login``), and a wrong code counts as a failed login here.
axes compares every parameter with one limit (AXES_FAILURE_LIMIT); a limit per parameter is a handler of
our own, as its maintainers advise (jazzband/django-axes#661). An IPv6 address counts as its /64 network,
which one host usually holds whole, and a username whatever its case. A successful login clears only the
failures of its username from its address."""
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.db.models import Sum
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.client_ip import client_network

# The setting that holds the limit of each of AXES_LOCKOUT_PARAMETERS.
LIMIT_SETTINGS = {
    ("username", "ip_address"): "LOGIN_MAX_FAILURES_PER_USER",
    ("ip_address",): "LOGIN_MAX_FAILURES_PER_ADDRESS",
}


def address_group(request):
    """The client address failures are counted by (AXES_CLIENT_IP_CALLABLE): ``client_network``, an IPv6
    address's /64, else the address; None for what is no address (the column holds addresses only)."""
    return client_network(request)


def username(request, credentials):
    """The username failures are counted by (AXES_USERNAME_CALLABLE): without surrounding spaces and
    lowercased, so that ``Editor`` and ``editor`` are one target."""
    source = credentials if credentials is not None else request.POST
    return (source.get("username") or "").strip().lower()


def parameter_sets():
    return [(parameter,) if isinstance(parameter, str) else tuple(parameter)
            for parameter in settings.AXES_LOCKOUT_PARAMETERS]


class PerParameterLimitsHandler(AxesDatabaseHandler):
    """axes' database handler with a limit per lockout parameter (LIMIT_SETTINGS). axes locks out while
    ``get_failures`` is at least AXES_FAILURE_LIMIT, which is 1: here ``get_failures`` is the number of
    parameters at their limit."""

    def failures(self, request, credentials):
        """The failures within the cool-off counted by each of AXES_LOCKOUT_PARAMETERS."""
        return {
            parameters: attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for parameters, attempts in zip(parameter_sets(), self.get_user_attempts(request, credentials), strict=True)
        }

    def get_failures(self, request, credentials=None):
        return sum(count >= getattr(settings, LIMIT_SETTINGS[parameters])
                   for parameters, count in self.failures(request, credentials).items())

    def reset_user_attempts(self, request, credentials=None):
        """After a successful login (AXES_RESET_ON_SUCCESS): only its username's failures from its address. A
        login does not excuse an address's guesses at other usernames, nor stop guessing from elsewhere."""
        deleted, _per_model = AccessAttempt.objects.filter(
            username=get_client_username(request, credentials), ip_address=request.axes_ip_address,
        ).delete()
        return deleted


def lockout_response(request, original_response, credentials):
    """What a refused login gets (AXES_LOCKOUT_CALLABLE): the admin's login page saying so in the
    visitor's language, with 429 and a Retry-After of the cool-off, which the refused attempt began again."""
    seconds = int(get_cool_off(request).total_seconds())
    message = _("Too many failed attempts. Try again in %(minutes)s minutes.") % {"minutes": max(1, seconds // 60)}
    context = {**admin.site.each_context(request), "title": _("Log in"), "lockout_message": message}
    response = render(request, "admin/login_locked.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(seconds)
    return response

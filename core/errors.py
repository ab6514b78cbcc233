"""Error pages in the visitor's language (the language prefix is active by the time they render): bad
request, forbidden, CSRF failure, wrong method, too many requests, the database being unavailable, and
the server's own error."""
from django.conf import settings
from django.http import HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from .site_parts import link_path

# Seconds a visitor is asked to wait when the database is unavailable.
DATABASE_RETRY_AFTER = 30


def message_context(heading, paragraphs, link=None, next_steps=()):
    """``link``: one {"url", "label"} link; ``next_steps``: the links a page that ends a flow offers instead, so
    that it is no dead end (shown as a list under the message)."""
    return {"page_title": heading, "page_description": paragraphs[0], "heading": heading,
            "paragraphs": paragraphs, "link": link, "next_steps": list(next_steps)}


def message_page(request, heading, paragraphs, *, status=200, link=None, next_steps=()):
    """A page with a heading, a few paragraphs and an optional {"url", "label"} link or list of next steps."""
    context = message_context(heading, paragraphs, link, next_steps)
    response = render(request, "core/message.html", context, status=status)
    add_never_cache_headers(response)
    return response


def bad_request(request, exception=None):
    return message_page(request, _("The request could not be processed"), [
        _("Something in what your browser sent was not valid, or it was too large. Go back, check the form "
          "and send it again."),
    ], status=400)


def permission_denied(request, exception=None):
    return message_page(request, _("Access denied"), [
        _("You do not have permission to open this page."),
    ], status=403)


def csrf_failure(request, reason=""):
    """The form was sent without its security token (an expired page, or cookies blocked)."""
    return message_page(request, _("The form has expired"), [
        _("For your security, forms can only be sent from a page of this site, with cookies enabled. "
          "Reload the form and send it again."),
    ], status=403)


def method_not_allowed(request, allowed):
    response = message_page(request, _("This page cannot do that"), [
        _("This address does not accept that kind of request."),
    ], status=405)
    response["Allow"] = ", ".join(allowed)
    return response


def too_many_requests(request, retry_after):
    response = message_page(request, _("Too many attempts"), [
        _("We received many forms from your connection in a short time. Please wait a while and try again."),
    ], status=429)
    response["Retry-After"] = str(retry_after)
    return response


def too_many_renders(request, retry_after):
    """A page's answer to a query, refused past its client's limit (core/render_limit.py)."""
    response = message_page(request, _("Too many requests"), [
        _("We received many requests for calculated pages from your connection in a short time. Please wait "
          "%(seconds)s seconds and try again; pages without your own inputs are still served.")
        % {"seconds": retry_after},
    ], status=429)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "private, no-store"
    return response


def service_unavailable():
    """Rendered without the request, so without context processors: nothing here touches the database."""
    body = render_to_string("core/message.html", message_context(_("Temporarily unavailable"), [
        _("We could not save or load your data just now, so nothing was recorded. "
          "Please try again in a minute."),
    ]))
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    add_never_cache_headers(response)
    return response


def server_error(request):
    """The 500 page: a page of its own, not the base template, so it renders whatever failed (the
    database, the content, a template). Its language is the one in the path, as the page's would be."""
    language = translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
    with translation.override(language):
        try:
            stylesheet_url = static("css/site.css")
        except ValueError:  # no manifest entry: the page goes without the stylesheet
            stylesheet_url = None
        body = render_to_string("core/server_error.html", {
            "language": language,
            "heading": _("Something went wrong"),
            "explanation": _("This page could not be shown because of an error on our side. "
                             "Please try again in a few minutes."),
            "home_url": link_path("home"),
            "stylesheet_url": stylesheet_url,
        })
    response = HttpResponseServerError(body)
    add_never_cache_headers(response)
    return response

"""The signup and provider forms (never cached: they carry a CSRF token), their follow-up pages, and the
legal pages (public, cached)."""
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import Truncator
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from core.errors import allow_methods, message_page, too_many_requests
from core.page_cache import cached_page
from core.pages import page_context, urls_by_language

from . import confirmation, providers, rate_limit, waitlist
from .forms import ProviderApplicationForm, RenterSignupForm
from .legal_text import first_paragraph
from .models import LegalPage
from .site_paths import referring_path


def see_other(view_name):
    """After a POST, the browser fetches the next page with GET: reloading it sends nothing twice."""
    response = HttpResponseRedirect(reverse(view_name))
    response.status_code = 303
    return response


def form_view(request, *, form_class, view_name, thanks_view_name, template, title, description, save):
    """GET shows the form; POST is counted, checked and saved, then redirected to the thank-you page.

    A filled honeypot gets the same thank-you page and saves nothing."""
    if request.method == "POST":
        seconds = rate_limit.seconds_to_wait(request, scope=view_name)
        if seconds is not None:
            return too_many_requests(request, seconds)
        form = form_class(request.POST)
        if form.filled_by_a_bot():
            return see_other(thanks_view_name)
        if form.is_valid():
            save(form, form.consent_evidence(form_path=request.path))
            return see_other(thanks_view_name)
        status = 400
    else:
        form = form_class(initial={"language": get_language(),
                                   "source": request.GET.get("from") or referring_path(request)})
        status = 200
    context = page_context(request, urls_by_language(view_name), title=title, description=description)
    context["form"] = form
    return render(request, template, context, status=status)


@never_cache
@allow_methods("GET", "HEAD", "POST")
def signup(request):
    return form_view(
        request, form_class=RenterSignupForm, view_name="signups:signup",
        thanks_view_name="signups:signup_thanks", template="signups/signup_form.html",
        title=_("Join the EverXCloud waitlist"),
        description=_("Sign up to hear when the EverXCloud GPU spot market opens, in your language."),
        save=lambda form, consent: waitlist.join(**form.signup_fields(), consent=consent),
    )


@never_cache
@allow_methods("GET", "HEAD", "POST")
def provider_application(request):
    return form_view(
        request, form_class=ProviderApplicationForm, view_name="signups:provider_application",
        thanks_view_name="signups:provider_thanks", template="signups/provider_form.html",
        title=_("Join the EverXCloud Network"),
        description=_("Companies with GPU servers: apply to sell GPU hours through the EverXCloud spot "
                      "market."),
        save=lambda form, consent: providers.apply(
            **form.answers(), language=get_language(), consent=consent,
        ),
    )


@allow_methods("GET", "HEAD")
def signup_thanks(request):
    days = confirmation.VALID_FOR.days
    return message_page(request, _("Check your inbox"), [
        ngettext(
            "We have sent a confirmation link to the address you entered, unless it is already on the list. "
            "Open the link within %(days)d day to confirm your signup.",
            "We have sent a confirmation link to the address you entered, unless it is already on the list. "
            "Open the link within %(days)d days to confirm your signup.", days,
        ) % {"days": days},
        _("No email after a few minutes? Look in your spam folder."),
    ], link={"url": reverse("home"), "label": _("Back to the home page")})


@allow_methods("GET", "HEAD")
def provider_thanks(request):
    return message_page(request, _("Thank you for your application"), [
        _("We have received it and sent an acknowledgement to the address you entered. "
          "We will reply to you personally."),
    ], link={"url": reverse("home"), "label": _("Back to the home page")})


# GET only: the link in the mail confirms in one click; HEAD (link checkers) must not.
@allow_methods("GET")
def confirm(request, token):
    if confirmation.confirm(token):
        response = message_page(request, _("Your signup is confirmed"), [
            _("Thank you. We will email you when the EverXCloud spot market opens. Every email has a link "
              "to unsubscribe."),
        ], link={"url": reverse("home"), "label": _("Back to the home page")})
    else:
        days = confirmation.VALID_FOR.days
        response = message_page(request, _("This link is no longer valid"), [
            ngettext(
                "Confirmation links work once, for %(days)d day. If you already confirmed, there is nothing "
                "more to do; otherwise, sign up again to receive a new link.",
                "Confirmation links work once, for %(days)d days. If you already confirmed, there is nothing "
                "more to do; otherwise, sign up again to receive a new link.", days,
            ) % {"days": days},
        ], status=404, link={"url": reverse("signups:signup"), "label": _("Sign up again")})
    response["X-Robots-Tag"] = "noindex"
    return response


# One step from the mail's link (GET), and RFC 8058 one-click from mail clients (POST, no CSRF token).
@csrf_exempt
@allow_methods("GET", "POST")
def unsubscribe(request, key):
    waitlist.unsubscribe(key)
    response = message_page(request, _("You are unsubscribed"), [
        _("We will not email you about the launch any more."),
    ], link={"url": reverse("home"), "label": _("Back to the home page")})
    response["X-Robots-Tag"] = "noindex"
    return response


@cached_page
def legal_page(request, key):
    page = get_object_or_404(LegalPage, key=key)
    context = page_context(request, urls_by_language(page.url_name), title=page.title,
                           description=Truncator(first_paragraph(page.body)).chars(160))
    context["legal_page"] = page
    return render(request, "signups/legal_page.html", context)

"""The signup form (never cached: it carries a CSRF token) and its follow-up pages."""
from email.utils import parseaddr

from django.conf import settings
from django.http import HttpResponseRedirect
from django.urls import reverse, reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.translation import get_language, gettext_lazy, ngettext, ngettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import FormView

from catalog.models import GPU
from core.client_ip import client_network
from core.errors import message_page, too_many_requests
from core.middleware import allow_methods
from core.pages import page_context, urls_by_language
from core.site_parts import link_path
from optin import origins
from optin.confirmation import VALID_FOR, LinkState
from optin.views import LinkView, link_page

from . import confirmation, rate_limit, unsubscribing, waitlist
from .forms import RenterSignupForm
from .site_paths import referring_path, site_path


@method_decorator([never_cache, allow_methods("GET", "HEAD", "POST")], name="dispatch")
class PublicFormView(FormView):
    """GET shows the form; POST is counted, checked and saved, then redirected (303) to the thank-you page
    (``success_url``), so reloading that page sends nothing twice. A form with errors comes back with 400;
    a filled honeypot gets the same thank-you page and saves nothing."""

    view_name = None  # the form's own URL name: its page in each language, and its rate limit's scope
    title = description = None

    def save(self, form, consent):
        raise NotImplementedError

    def get_initial(self):
        # Only a new form needs them: a sent one carries its own values.
        if self.request.method == "POST":
            return {}
        return {"language": get_language(),
                "source": site_path(self.request.GET.get("from")) or referring_path(self.request)}

    def page_paths(self):
        return urls_by_language(self.view_name)

    def get_context_data(self, **kwargs):
        context = page_context(self.request, self.page_paths(), title=str(self.title),
                               description=str(self.description))
        return {**context, **super().get_context_data(**kwargs)}

    def post(self, request, *args, **kwargs):
        seconds = rate_limit.seconds_to_wait(request, scope=self.view_name)
        if seconds is not None:
            return too_many_requests(request, seconds)
        form = self.get_form()
        if form.filled_by_a_bot():
            return self.see_thanks()
        return self.form_valid(form) if form.is_valid() else self.form_invalid(form)

    def form_valid(self, form):
        # The mails this request makes (or its request, applied later, makes) count against its client's share
        # of the hourly cap on mail to addresses not confirmed (``optin.origins``).
        with origins.requested_from(origins.origin_of_network(client_network(self.request))):
            self.save(form, form.consent_evidence(form_path=self.request.path))
        return self.see_thanks()

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def see_thanks(self):
        return HttpResponseRedirect(self.get_success_url(), status=303)


class SignupView(PublicFormView):
    form_class = RenterSignupForm
    template_name = "signups/signup_form.html"
    view_name = "signups:signup"
    success_url = reverse_lazy("signups:signup_thanks")
    title = gettext_lazy("Create your EverXCloud account")
    description = gettext_lazy("Create your account now: we open it when the EverXCloud GPU spot market opens, "
                               "and send you the launch news in your language.")

    def get_initial(self):
        initial = super().get_initial()
        if self.request.method != "POST":
            # From the signup action's link (``signup_actions``); the form keeps only what it knows.
            initial.update({key: self.request.GET.get(key) for key in ("gpu", "count", "via")})
        return initial

    def save(self, form, consent):
        waitlist.request_to_join(**form.signup_fields(), consent=consent)


signup = SignupView.as_view()


@allow_methods("GET", "HEAD")
def signup_thanks(request):
    days = VALID_FOR.days
    return message_page(request, _("Check your inbox"), [
        ngettext(
            "We have sent a confirmation link to the address you entered, unless it is already on the list. "
            "Open the link within %(days)d day to confirm your signup.",
            "We have sent a confirmation link to the address you entered, unless it is already on the list. "
            "Open the link within %(days)d days to confirm your signup.", days,
        ) % {"days": days},
        sender_line(),
        _("No email after a few minutes? Look in your spam folder."),
    ], next_steps=[catalogue_step(), calculator_step()])


def sender_line():
    return _("The email comes from %(address)s.") % {"address": parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}


def catalogue_step():
    return {"url": reverse("catalog:gpu_list"), "label": _("All GPU models")}


def calculator_step():
    return {"url": reverse("estimator:calculator"), "label": _("GPU sizing calculator")}


def alert_steps(signup):
    """A price alert for the GPU the visitor signed up with, or else for the two cheapest GPUs with a price."""
    gpus = [signup.gpu] if signup is not None and signup.gpu is not None else list(
        GPU.objects.filter(price_usd_per_hour__isnull=False).order_by("price_usd_per_hour", "name")[:2])
    label = _("Set a price alert for the %(gpu)s")
    return [{"url": link_path("price_alert", gpu.slug), "label": label % {"gpu": gpu.name}} for gpu in gpus]


def home_link():
    return {"url": reverse("home"), "label": _("Back to the home page")}


def sign_up_again_link():
    return {"url": reverse("signups:signup"), "label": _("Sign up again")}


class ConfirmSignupView(LinkView):
    link = confirmation.LINK
    use = staticmethod(confirmation.confirm)
    button = gettext_lazy("Confirm my signup")
    headings = {
        LinkState.UNUSED: gettext_lazy("Confirm your signup"),
        LinkState.CONFIRMED: gettext_lazy("Your signup is confirmed"),
        LinkState.USED: gettext_lazy("Your signup is already confirmed"),
    }
    texts = {
        LinkState.UNUSED: gettext_lazy("Press the button to confirm that you want emails about the EverXCloud launch "
                                       "at this address."),
        LinkState.CONFIRMED: gettext_lazy("Thank you. We will email you when the EverXCloud spot market opens. Every "
                                          "email has a link to unsubscribe."),
        LinkState.USED: gettext_lazy("This link has been used already, so there is nothing more to do. We will email "
                                     "you when the EverXCloud spot market opens."),
        LinkState.EXPIRED: ngettext_lazy(
            "Confirmation links work once, for %(days)d day. If you already confirmed, there is nothing more to do; "
            "otherwise, sign up again to receive a new link.",
            "Confirmation links work once, for %(days)d days. If you already confirmed, there is nothing more to "
            "do; otherwise, sign up again to receive a new link.", "days"),
        LinkState.UNKNOWN: gettext_lazy("Check that you opened the whole link from the email. If you signed up more "
                                        "than once, only the link in the latest email works."),
    }

    def text_values(self, signup):
        return {"days": VALID_FOR.days}

    def onward(self, state, signup):
        return {"next_steps": [*alert_steps(signup), calculator_step()]}

    def again_link(self, signup):
        return sign_up_again_link()


confirm = ConfirmSignupView.as_view()


# RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to the link, with no cookie or CSRF
# token; the key in the link is the credential. People opening the link get a page with the same button.
# Unsubscribing deletes the signup (``unsubscribing.py``): a link used already names nobody, and its page says
# the address is off the list (a key is a whole UUID, or the URL does not match: no half-copied link gets here).
@csrf_exempt
@allow_methods("GET", "HEAD", "POST")
def unsubscribe(request, key):
    if request.method == "POST" and unsubscribing.unsubscribe(key):
        return link_page(request, _("You are unsubscribed"), [
            _("We will not email you about the launch any more."),
        ], link=home_link())
    if request.method != "POST" and waitlist.subscriber(key) is not None:
        return link_page(request, _("Unsubscribe from the launch emails"), [
            _("Press the button and we will not email you about the EverXCloud launch any more."),
        ], button=_("Unsubscribe"))
    return link_page(request, _("You are unsubscribed"), [
        _("The address of this link is not on the launch list (any more): we will not email you about the "
          "launch. If you unsubscribed already, there is nothing more to do."),
    ], link=home_link())

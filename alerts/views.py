"""The pages of price alerts: a GPU's alert form (never cached: it carries a CSRF token), its thank-you page,
and the pages behind the links of its mails (confirm, renew, delete), which only ever show a button that POSTs."""
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, ngettext, ngettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from catalog.models import GPU
from core.errors import message_page
from core.formatting import format_usd
from core.middleware import allow_methods
from core.pages import urls_by_language
from optin.confirmation import VALID_FOR, LinkState
from optin.views import LinkView, link_page
from signups.models import Signup
from signups.views import PublicFormView, home_link

from . import confirmation, lapse, price_alerts
from .amounts import amount_text, parse_machine_amount
from .forms import PriceAlertForm

# The longest ?target= a link may prefill (anything longer is no price).
MAX_PREFILL_LENGTH = 20


class PriceAlertView(PublicFormView):
    form_class = PriceAlertForm
    template_name = "alerts/price_alert_form.html"
    view_name = "alerts:price_alert"

    # The GPU is found in setup, not in an overridden dispatch: as_view() takes the methods the view answers
    # from PublicFormView's decorated dispatch (``allow_methods``), which an override would hide.
    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        self.gpu = get_object_or_404(GPU, slug=kwargs["slug"])

    @property
    def title(self):
        return _("Price alert for the %(gpu)s") % {"gpu": self.gpu.name}

    @property
    def description(self):
        return _("Get one email when the best price of the %(gpu)s per GPU-hour is at or below your target.") % {
            "gpu": self.gpu.name}

    def page_paths(self):
        return urls_by_language(self.view_name, slug=self.gpu.slug)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "gpu": self.gpu}

    def get_initial(self):
        """A link may bring a target: a calculator row's (12.50), or what a visitor typed into the GPU page's
        field, in their own format (shown as typed, for the form to judge)."""
        initial = super().get_initial()
        typed = self.request.GET.get("target", "")[:MAX_PREFILL_LENGTH].strip()
        if typed and self.request.method != "POST":
            amount = parse_machine_amount(typed)
            initial["target"] = amount_text(amount) if amount is not None else typed
        return initial

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "gpu": self.gpu}

    def get_success_url(self):
        return reverse("alerts:price_alert_thanks", kwargs={"slug": self.gpu.slug})

    def save(self, form, consent):
        price_alerts.request_alert(email=form.cleaned_data["email"], gpu=self.gpu,
                                   target=form.cleaned_data["target"], language=get_language(), consent=consent,
                                   launch_list=form.launch_list_answers(consent))


price_alert = PriceAlertView.as_view()


@allow_methods("GET", "HEAD")
def price_alert_thanks(request, slug):
    gpu = get_object_or_404(GPU, slug=slug)
    days = VALID_FOR.days
    return message_page(request, _("Check your inbox"), [
        ngettext(
            "We have sent a confirmation link to the address you entered. Open it within %(days)d day to start "
            "the alert for the %(gpu)s.",
            "We have sent a confirmation link to the address you entered. Open it within %(days)d days to "
            "start the alert for the %(gpu)s.", days,
        ) % {"days": days, "gpu": gpu.name},
        _("If you asked for this alert a few minutes ago, use the link we sent then. No email after a few "
          "minutes? Look in your spam folder."),
        _("Asked for alerts on several GPUs? One email confirms them all: its link shows every alert it "
          "confirms."),
    ], link=gpu_link(gpu))


def gpu_link(gpu):
    return {"url": gpu.get_absolute_url(), "label": _("Back to the %(gpu)s") % {"gpu": gpu.name}}


def next_steps_after(alert):
    """Where a confirmed alert's page leads on: back to its GPU, and the launch list unless the address is on it."""
    steps = [gpu_link(alert.gpu)]
    if not Signup.objects.filter(email__iexact=alert.email, confirmed_at__isnull=False).exists():
        steps.append({"url": f"{reverse('signups:signup')}?gpu={alert.gpu.slug}", "label": _("Create your account"),
                      "note": _("Join the launch list: we email you when the spot market opens.")})
    return steps


def ask_again_link(gpu):
    """Where an ended or expired link sends its visitor: the alert form of its GPU."""
    return {"url": reverse("alerts:price_alert", kwargs={"slug": gpu.slug}), "label": _("Ask for the alert again")}


def alert_text(alert):
    """The alert in words, as the pages behind the mails' links name it."""
    target = alert.requested_target_usd_per_hour or alert.target_usd_per_hour
    return {"gpu": alert.gpu.name, "target": format_usd(target)}


def others_text(alerts):
    """The other alerts one click confirms, in words."""
    return "; ".join(_("%(gpu)s at %(target)s per GPU-hour") % alert_text(alert) for alert in alerts)


def also_confirmed(others, joined_list, *, done):
    """What else the button of a confirmation link confirms (``done``: confirmed): ``others``, the other alerts
    waiting at its address, and the launch list (``joined_list``)."""
    also = []
    if others:
        also.append((_("The same click also confirmed the other price alerts waiting at this address: %(alerts)s.")
                     if done else
                     _("The same button also confirms the other price alerts waiting at this address: %(alerts)s."))
                    % {"alerts": others_text(others)})
    if joined_list:
        also.append(_("This address is on the launch list now: we email you when the spot market opens. Every "
                      "email about the launch has a link to unsubscribe.") if done else
                    _("The same button also puts this address on the launch list: we email you when the spot "
                      "market opens."))
    return also


class AlertLinkView(LinkView):
    def text_values(self, alert):
        return alert_text(alert) if alert is not None else {}

    def onward(self, state, alert):
        return {"link": gpu_link(alert.gpu)}

    def again_link(self, alert):
        return ask_again_link(alert.gpu) if alert is not None else home_link()


class ConfirmPriceAlertView(AlertLinkView):
    """The page of a confirmation link; its button confirms every alert waiting at the address
    (``price_alerts.confirm_all``), and its page names them."""

    link = confirmation.LINK
    button = gettext_lazy("Confirm the alert")
    headings = {
        LinkState.UNUSED: gettext_lazy("Confirm your price alert"),
        LinkState.CONFIRMED: gettext_lazy("Your price alert is on"),
        LinkState.USED: gettext_lazy("Your price alert is already on"),
    }
    texts = {
        LinkState.UNUSED: gettext_lazy("Press the button to receive an email when the best price of the %(gpu)s is "
                                       "at or below %(target)s per GPU-hour."),
        LinkState.CONFIRMED: gettext_lazy("We will email you when the best price of the %(gpu)s is at or below "
                                          "%(target)s per GPU-hour. Every email has a link to delete the alert."),
        LinkState.USED: gettext_lazy("This link has been used already, so there is nothing more to do. We will email "
                                     "you when the best price of the %(gpu)s is at or below %(target)s per "
                                     "GPU-hour."),
        LinkState.EXPIRED: ngettext_lazy(
            "Confirmation links work once, for %(days)d day. Ask for the alert again to receive a new link.",
            "Confirmation links work once, for %(days)d days. Ask for the alert again to receive a new link.",
            "days"),
        LinkState.UNKNOWN: gettext_lazy("Check that you opened the whole link from the email. If you asked for an "
                                        "alert more than once, only the link in the latest email works."),
    }
    # Confirmed while the price is already at or below the target: mailed at once.
    resting_text = gettext_lazy("The best price of the %(gpu)s is already at or below %(target)s per GPU-hour: we "
                                "are emailing you now, and again once it has gone back above your target and come "
                                "down to it again.")

    def use(self, token):
        self.result = price_alerts.confirm_all(token)
        return self.result.state

    def text_values(self, alert):
        return {**super().text_values(alert), "days": VALID_FOR.days}

    def onward(self, state, alert):
        return {"next_steps": next_steps_after(alert)}

    def message(self, state, alert):
        """Beside the alert, the other alerts of the address its button confirms (or, once confirmed,
        confirmed), and the launch list if its button puts (or put) the address on it too."""
        message = super().message(state, alert)
        if state is LinkState.CONFIRMED and alert.state == alert.State.RESTING:
            message["paragraphs"] = [self.resting_text % alert_text(alert)]
        if self.request.method == "POST":
            others = [row for row in self.result.alerts if row.pk != alert.pk]
            joined_list = self.result.joined_list
        else:
            others = price_alerts.also_waiting(alert) if state is LinkState.UNUSED else ()
            joined_list = state is LinkState.UNUSED and price_alerts.joins_list(alert, others)
        if state is not LinkState.USED:
            message["paragraphs"] += also_confirmed(others, joined_list, done=state is LinkState.CONFIRMED)
        return message


confirm_price_alert = ConfirmPriceAlertView.as_view()


# RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to the link, with no cookie or CSRF
# token; the key in the link is the credential. People opening the link get a page with the same button.
@csrf_exempt
@allow_methods("GET", "HEAD", "POST")
def delete_price_alert(request, key):
    alert = price_alerts.alert_for_key(key)
    if alert is None:
        return link_page(request, _("This link is not valid"), [
            _("This price alert does not exist any more (it may have been deleted already), or the link is "
              "incomplete."),
        ], status=404, link=home_link())
    if request.method != "POST":
        return link_page(request, _("Delete your price alert"), [
            _("Press the button to delete your alert for the %(gpu)s at %(target)s per GPU-hour: we will not "
              "email you about it any more.") % alert_text(alert),
        ], button=_("Delete the alert"))
    price_alerts.delete(key)
    return link_page(request, _("Your price alert is deleted"), [
        _("We will not email you about the price of the %(gpu)s any more.") % {"gpu": alert.gpu.name},
    ], link=gpu_link(alert.gpu))


class RenewPriceAlertView(AlertLinkView):
    """The page of a reminder's renew link."""

    link = lapse.RENEWAL_LINK
    use = staticmethod(lapse.renew)
    button = gettext_lazy("Keep the alert")
    headings = {
        LinkState.UNUSED: gettext_lazy("Keep your price alert"),
        LinkState.CONFIRMED: gettext_lazy("Your price alert is renewed"),
        LinkState.USED: gettext_lazy("Your price alert is already renewed"),
    }
    texts = {
        LinkState.UNUSED: ngettext_lazy(
            "Press the button to keep your alert for the %(gpu)s at %(target)s per GPU-hour for %(days)d more day.",
            "Press the button to keep your alert for the %(gpu)s at %(target)s per GPU-hour for %(days)d more days.",
            "days"),
        LinkState.CONFIRMED: ngettext_lazy(
            "We will email you when the best price of the %(gpu)s is at or below %(target)s per GPU-hour, for "
            "%(days)d more day. Every email has a link to delete the alert.",
            "We will email you when the best price of the %(gpu)s is at or below %(target)s per GPU-hour, for "
            "%(days)d more days. Every email has a link to delete the alert.", "days"),
        LinkState.USED: gettext_lazy("This link has been used already, so there is nothing more to do."),
        LinkState.EXPIRED: gettext_lazy("The alert has ended. Ask for it again to receive emails about this price."),
        LinkState.UNKNOWN: gettext_lazy("This price alert does not exist any more (it may have been deleted already), "
                                        "or the link is incomplete."),
    }

    def text_values(self, alert):
        return {**super().text_values(alert), "days": lapse.lifetime().days}


renew_price_alert = RenewPriceAlertView.as_view()

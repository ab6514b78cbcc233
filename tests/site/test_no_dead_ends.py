"""No dead ends (issue 44): the pages that end the signup flow say what happens next and offer next steps, and
none of them, header included, leads back to the signup."""
from email.utils import parseaddr
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from catalog.models import GPU

from ..html import parse
from ..languages import LANGUAGES
from ..localized_urls import url_in
from ..signup_helpers import confirmation_path, run_mail_worker, signup_data


def next_steps(response):
    page = parse(response.content.decode())
    nav = page.find("nav", class_="next-steps")
    assert nav is not None
    return [(link.attrs["href"], link.squashed_text) for link in nav.find_all("a")]


def links_to_signup(response, language):
    signup = url_in(language, "signups:signup")
    return [link.attrs["href"] for link in parse(response.content.decode()).find_all("a")
            if urlsplit(link.attrs.get("href", "")).path == signup]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_thanks_page_says_what_happens_next_and_offers_two_steps(client, launch_content, language):
    response = client.get(url_in(language, "signups:signup_thanks"))
    text = parse(response.content.decode()).squashed_text
    assert parseaddr(settings.DEFAULT_FROM_EMAIL)[1] in text
    steps = next_steps(response)
    assert [href for href, _label in steps] == [url_in(language, "catalog:gpu_list"),
                                                url_in(language, "estimator:calculator")]
    assert links_to_signup(response, language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_confirmed_page_offers_an_alert_for_the_chosen_gpu_and_the_calculator(client, launch_content, language):
    client.post(url_in(language, "signups:signup"), signup_data(language=language, gpu="h100-sxm", count="8"))
    run_mail_worker()
    response = client.post(confirmation_path(mail.outbox[0].body))
    steps = next_steps(response)
    with translation.override(language):
        assert steps == [
            (url_in(language, "alerts:price_alert", slug="h100-sxm"),
             gettext("Set a price alert for the %(gpu)s") % {"gpu": "H100 SXM"}),
            (url_in(language, "estimator:calculator"), gettext("GPU sizing calculator")),
        ]
    assert links_to_signup(response, language) == []


def test_without_a_gpu_the_confirmed_page_offers_alerts_for_the_two_cheapest(client, launch_content):
    client.post(url_in("en", "signups:signup"), signup_data(language="en"))
    run_mail_worker()
    path = confirmation_path(mail.outbox[0].body)
    cheapest = GPU.objects.exclude(price_usd_per_hour=None).order_by("price_usd_per_hour", "name")[:2]
    for response in (client.post(path), client.get(path)):  # confirmed, then already confirmed
        hrefs = [href for href, _label in next_steps(response)]
        assert hrefs == [*(url_in("en", "alerts:price_alert", slug=gpu.slug) for gpu in cheapest),
                         url_in("en", "estimator:calculator")]


def test_the_alert_page_says_its_step_and_its_confirmed_page_offers_the_launch_list(client, launch_content):
    from alerts.models import PriceAlert

    from ..signup_helpers import path_of

    page = parse(client.get(url_in("de", "alerts:price_alert", slug="h100-sxm")).content.decode())
    with translation.override("de"):
        assert page.find("p", class_="eyebrow").squashed_text == gettext("Price alert, step 2 of 2")
    client.post(url_in("en", "alerts:price_alert", slug="h100-sxm"),
                {"email": "rita@example.com", "target": "2.00", "consent": "on"})
    run_mail_worker()
    link = next(path_of(url) for url in mail.outbox[-1].body.split() if "/alerts/confirm/" in url)
    response = client.post(link)
    assert PriceAlert.objects.get().confirmed_at is not None
    hrefs = [href for href, _label in next_steps(response)]
    assert hrefs == [GPU.objects.get(slug="h100-sxm").get_absolute_url("en"),
                     url_in("en", "signups:signup") + "?gpu=h100-sxm"]

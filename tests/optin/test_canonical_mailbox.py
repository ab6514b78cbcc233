"""Mail per person, not per spelling (issue 48): the budget counts the mailbox ``addresses.mailbox_for_budget``
makes of an address (case, IDN, quotes, "+tags", Gmail's dots and googlemail.com); duplicate detection and
erasure compare ``addresses.equivalent_address`` (RFC equivalence, plus Gmail's rules only). A hundred spellings
of one Gmail inbox, from one IPv4 address or one IPv6 /64, through every form, get the budget's mails at most
from the real worker and a real SMTP server."""
import tempfile
import time

import pytest
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from alerts.amounts import amount_text
from alerts.models import PriceAlert
from catalog.models import GPU
from optin import addresses
from optin.erasure import erase_person
from optin.models import ConsentRecord, OutboxEmail
from signups.models import Signup, WaitlistRequest

from .. import factories
from ..localized_urls import url_in
from ..servers import mail_worker_process
from ..signup_helpers import run_mail_worker, signup_data, smtp_server

INBOX = "victim@gmail.com"
ATEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*/=?^_`{|}~-"
atoms = st.text(alphabet=ATEXT, min_size=1, max_size=8)
domains = st.sampled_from(["example.com", "Example.COM", "bücher.example", "xn--bcher-kva.example", "mail.example"])


def gmail_spellings(count, local="victim"):
    """``count`` distinct spellings of one Gmail inbox: dots, case, "+tags", googlemail.com, quotes."""
    spellings = []
    for number in range(count):
        dotted = "".join(letter + ("." if number >> position & 1 else "")
                         for position, letter in enumerate(local[:-1])) + local[-1]
        if number & 32:
            dotted = dotted.upper()
        if number & 64:
            dotted = f"{dotted}+s{number}"
        if number % 3 == 1:
            dotted = f'"{dotted}"'
        domain = "googlemail.com" if number % 2 else "GMail.com"
        spellings.append(f"{dotted}@{domain}")
    assert len(set(spellings)) == count
    return spellings


# The two notions, by example.

@pytest.mark.parametrize("typed", gmail_spellings(100))
def test_every_spelling_of_a_gmail_inbox_is_one_address_and_one_budget(typed):
    assert addresses.equivalent_address(typed).lower() == INBOX
    assert addresses.mailbox_for_budget(typed) == INBOX


@pytest.mark.parametrize("typed, equivalent, budget", [
    ('"ana"@example.com', "ana@example.com", "ana@example.com"),
    ('"a\\na"@example.com', "ana@example.com", "ana@example.com"),
    ('"a.na"@example.com', "a.na@example.com", "a.na@example.com"),
    ('"a b"@example.com', '"a b"@example.com', "a b@example.com"),
    ('"a..b"@example.com', '"a..b"@example.com', "a..b@example.com"),
    ("Ana+news@Example.COM", "Ana+news@example.com", "ana@example.com"),
    ("a.na@example.com", "a.na@example.com", "a.na@example.com"),  # dots matter outside Gmail
    ("Ana@BÜCHER.example", "Ana@xn--bcher-kva.example", "ana@xn--bcher-kva.example"),
    ("A.N.A+x@GoogleMail.com", "ana@gmail.com", "ana@gmail.com"),
    ("+only@gmail.com", "+only@gmail.com", "+only@gmail.com"),
    ("+only@example.com", "+only@example.com", "+only@example.com"),
])
def test_the_two_notions(typed, equivalent, budget):
    assert addresses.equivalent_address(typed) == equivalent
    assert addresses.mailbox_for_budget(typed) == budget


# The two notions, by their properties.

@given(atoms, domains)
def test_both_are_idempotent(local, domain):
    address = f"{local}@{domain}"
    assert addresses.equivalent_address(addresses.equivalent_address(address)) == addresses.equivalent_address(
        address)
    assert addresses.mailbox_for_budget(addresses.mailbox_for_budget(address)) == addresses.mailbox_for_budget(
        address)


@given(st.lists(atoms, min_size=1, max_size=3), domains)
def test_quoting_an_unquoted_local_part_changes_neither(parts, domain):
    local = ".".join(parts)
    quoted = '"' + local.replace("\\", "\\\\").replace('"', '\\"') + '"'
    assert addresses.equivalent_address(f"{quoted}@{domain}") == addresses.equivalent_address(f"{local}@{domain}")
    assert addresses.mailbox_for_budget(f"{quoted}@{domain}") == addresses.mailbox_for_budget(f"{local}@{domain}")


@given(atoms, atoms, domains)
def test_a_tag_outside_gmail_is_another_address_but_the_same_budget(local, tag, domain):
    local = local.replace("+", "") or "x"
    tagged, plain = f"{local}+{tag}@{domain}", f"{local}@{domain}"
    assert addresses.key(tagged) != addresses.key(plain)
    assert addresses.mailbox_for_budget(tagged) == addresses.mailbox_for_budget(plain)


@given(atoms, st.lists(st.integers(min_value=0, max_value=20), max_size=4), st.booleans(), st.booleans(),
       st.booleans())
def test_gmails_rules_make_one_address(local, dots, tag, googlemail, upper):
    base = local.replace("+", "").replace(".", "") or "x"
    spelt = list(base)
    for position in dots:
        spelt.insert(min(position, len(spelt) - 1) + 1, ".")
    spelling = "".join(spelt).strip(".").replace("..", ".") or base
    spelling = (spelling.upper() if upper else spelling) + ("+tag" if tag else "")
    typed = f"{spelling}@{'googlemail.com' if googlemail else 'gmail.com'}"
    assert addresses.key(typed) == f"{base.lower()}@gmail.com"
    assert addresses.mailbox_for_budget(typed) == f"{base.lower()}@gmail.com"


@given(atoms, domains)
def test_one_address_is_always_one_budget(local, domain):
    """Whatever duplicate detection calls one address, the budget counts as one mailbox."""
    address = f"{local}@{domain}"
    assert addresses.mailbox_for_budget(addresses.equivalent_address(address)) == addresses.mailbox_for_budget(
        address)
    assert addresses.mailbox_for_budget(address.upper()) == addresses.mailbox_for_budget(address)


# Duplicates and erasure.

def test_spellings_of_one_gmail_inbox_are_one_signup(client, launch_content, settings):
    settings.SIGNUP_RATE_LIMIT = 1000
    for spelling in gmail_spellings(20):
        assert client.post(url_in("es", "signups:signup"), signup_data(email=spelling)).status_code == 303
    run_mail_worker()
    assert list(Signup.objects.values_list("email", flat=True)) == [INBOX]


def test_a_tag_outside_gmail_is_another_signup(client, launch_content):
    for spelling in ("ana@example.com", "ana+shop@example.com"):
        assert client.post(url_in("es", "signups:signup"), signup_data(email=spelling)).status_code == 303
    run_mail_worker()
    assert sorted(Signup.objects.values_list("email", flat=True)) == ["ana+shop@example.com", "ana@example.com"]


def test_erasing_any_spelling_erases_rows_stored_under_another(client, launch_content):
    # Stored before the forms stored one spelling, and through the forms now.
    factories.signup(email="V.ictim+old@googlemail.com")
    factories.signup(email='"quoted"@example.com')
    factories.signup(email="other@gmail.com")
    client.post(url_in("es", "signups:signup"), signup_data(email="vic.tim@gmail.com"))
    erase_person('"v.i.c.t.i.m"@GMAIL.com')
    erase_person("Quoted@example.com")
    assert list(Signup.objects.values_list("email", flat=True)) == ["other@gmail.com"]
    assert not WaitlistRequest.objects.exists()


def test_the_alert_form_stores_one_address_per_gmail_inbox(client, launch_content):
    gpu = GPU.objects.exclude(price_usd_per_hour=None).first()
    for spelling in ("V.ictim@gmail.com", "victim+x@googlemail.com"):
        client.post(url_in("es", "alerts:price_alert", slug=gpu.slug),
                    {"email": spelling, "target": amount_text("0.10", "es"), "consent": "on"})
    run_mail_worker()
    assert list(PriceAlert.objects.values_list("email", flat=True)) == [INBOX]
    assert ConsentRecord.objects.count() == 1


# The whole way: the forms, the real worker, a real SMTP server.

def post_everywhere(spellings, remote_address, slugs):
    """Each spelling through one of the forms (the waitlist, the price alert on each GPU), from one client."""
    browser = Client()
    statuses = []
    for number, spelling in enumerate(spellings):
        address = remote_address(number)
        if number % 2:
            path = url_in("es", "alerts:price_alert", slug=slugs[number % len(slugs)])
            data = {"email": spelling, "target": amount_text("0.10", "es"), "consent": "on"}
        else:
            path, data = url_in("es", "signups:signup"), signup_data(email=spelling)
        statuses.append(browser.post(path, data, REMOTE_ADDR=address).status_code)
    return statuses


def delivered_after_worker(seconds=60):
    with tempfile.TemporaryFile() as log, smtp_server() as (port, mailbox), mail_worker_process(port, log):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and (
                WaitlistRequest.objects.exists()
                or OutboxEmail.objects.filter(sent_at__isnull=True, next_attempt_at__isnull=False).exists()):
            time.sleep(0.2)
        time.sleep(0.5)
        return [recipient for message in mailbox.messages for recipient in message.rcpt_tos]


@pytest.mark.multiprocess
@pytest.mark.parametrize("remote_address", [
    lambda number: "198.51.100.7",
    lambda number: f"2001:db8:48:1:{number:x}::{number + 1:x}",
], ids=["one IPv4 address", "one IPv6 /64"])
def test_a_hundred_spellings_of_one_gmail_inbox_get_at_most_the_budgets_mails(live_launch_content, settings,
                                                                               remote_address):
    # The form limits are generous here: the budget alone must bound what one inbox receives.
    settings.SIGNUP_RATE_LIMIT = 1000
    slugs = list(GPU.objects.exclude(price_usd_per_hour=None).values_list("slug", flat=True)[:5])
    statuses = post_everywhere(gmail_spellings(100), remote_address, slugs)
    assert set(statuses) == {303}
    delivered = delivered_after_worker()
    assert 1 <= len(delivered) <= django_settings.SIGNUP_MAILS_PER_ADDRESS, delivered
    assert set(delivered) == {INBOX}

"""Mail that cannot be aimed (optin/mail_budget.py): one budget of mails per mailbox across every form and GPU,
counted in the database; one click confirms every price alert waiting at an address; the "limit reached" mail
inside the same budget; alerts never confirmed never take the owner's slots; the pages answer the same
whatever happened."""
import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.core import mail
from django.db import connection, connections
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext

from alerts import price_alerts
from alerts.amounts import amount_text
from alerts.models import PriceAlert
from catalog.models import GPU
from core.formatting import format_usd
from optin import mail_budget, pseudonyms
from optin.models import Mailbox, MailboxMail, OutboxEmail
from optin.outbox import send_due
from optin.retention import purge_unconfirmed
from providers import applications
from providers.models import ProviderApplication
from signups.models import Signup
from signups.waitlist import apply_requests

from ..localized_urls import url_in
from ..signup_helpers import link_pattern, path_of, provider_data, run_mail_worker, signup_data

VICTIM = "victim@example.com"
# One mailbox, however the forms are sent it: the budget counts the mailbox, not the spelling.
SPELLINGS = [VICTIM, "VICTIM@example.com", "Victim@EXAMPLE.com", " victim@Example.COM "]
CONFIRM_ALERT_LINK = link_pattern("alerts:price_alert_confirm", "token", "sample-token")


def mails_to(address):
    return OutboxEmail.objects.filter(recipient__iexact=address.strip())


def ip(number):
    return f"198.51.{number // 250}.{number % 250 + 1}"


def post_signup(client, number, email, language="es"):
    return client.post(url_in(language, "signups:signup"), signup_data(email=email, language=language),
                       REMOTE_ADDR=ip(number))


def post_provider(client, number, email, language="de"):
    """Post the form; the request it stored is then applied, as the mail worker's chore does."""
    response = client.post(url_in(language, "providers:application"), provider_data(
        email=email, company=f"Rechenzentrum {number} GmbH", submission=str(uuid.uuid4())), REMOTE_ADDR=ip(number))
    applications.apply_requests()
    return response


def post_alert(client, number, email, slug, language="pt", target="0.10"):
    """Post the form; the request it stored is then applied, as the mail worker's first chore does."""
    response = client.post(url_in(language, "alerts:price_alert", slug=slug), {
        "email": email, "target": amount_text(target, language), "consent": "on"}, REMOTE_ADDR=ip(number))
    price_alerts.apply_requests()
    return response


def alert_link(body):
    return path_of(CONFIRM_ALERT_LINK.search(body).group(0))


def test_fifty_addresses_aimed_at_one_mailbox_across_every_form_and_gpu_queue_at_most_the_budget(
        client, launch_content, settings):
    budget = settings.SIGNUP_MAILS_PER_ADDRESS
    assert budget == 3  # the production default: three mails a day, whatever asks
    slugs = list(GPU.objects.order_by("slug").values_list("slug", flat=True))
    assert len(slugs) >= 10
    thanks = {"signup": url_in("es", "signups:signup_thanks"), "provider": url_in("de", "providers:thanks")}
    forms = Counter()
    for number in range(50):
        email = SPELLINGS[number % len(SPELLINGS)]
        form = ("signup", "provider", "alert", "alert")[number % 4]
        if form == "signup":
            response = post_signup(client, number, email)
        elif form == "provider":
            response = post_provider(client, number, email)
        else:
            slug = slugs[number % len(slugs)]
            response = post_alert(client, number, email, slug, target=f"{number}.25")
            thanks["alert"] = url_in("pt", "alerts:price_alert_thanks", slug=slug)
        forms[form] += 1
        # Every request gets the answer of its form, whatever happened to it.
        assert (response.status_code, response["Location"]) == (303, thanks[form])
        if number % 10 == 9:  # the worker runs meanwhile, as `send_outbox --loop` does
            run_mail_worker()
    run_mail_worker()
    # Each was stored (alerts once per GPU), but the mailbox got the budget's mails, no more.
    assert ProviderApplication.objects.filter(email__iexact=VICTIM).count() == forms["provider"]
    assert PriceAlert.objects.filter(email__iexact=VICTIM).count() == len({
        slugs[number % len(slugs)] for number in range(50) if number % 4 >= 2})
    assert Signup.objects.filter(email__iexact=VICTIM).count() == 1
    assert mails_to(VICTIM).count() == budget == len([m for m in mail.outbox if m.to[0].lower() == VICTIM])
    assert mail_budget.mails_in_window(VICTIM) == budget
    # The budget holds only a keyed hash of the mailbox, never the address.
    [mailbox] = Mailbox.objects.all()
    assert mailbox.address_hash == pseudonyms.mailbox_hash(VICTIM) and VICTIM not in mailbox.address_hash

    # Another mailbox is unaffected: its signup is confirmed by mail as ever.
    assert post_signup(client, 60, "other@example.com").status_code == 303
    assert post_alert(client, 61, "other@example.com", slugs[0]).status_code == 303
    run_mail_worker()
    assert mails_to("other@example.com").count() == 2

    # A day later the victim's mailbox has its budget again.
    MailboxMail.objects.update(queued_at=timezone.now() - timedelta(seconds=settings.SIGNUP_MAILS_PER_ADDRESS_WINDOW))
    assert post_provider(client, 70, VICTIM).status_code == 303
    assert mails_to(VICTIM).count() == budget + 1


def test_a_mailbox_that_spent_its_budget_answers_exactly_as_one_that_did_not(client, launch_content, settings):
    settings.SIGNUP_MAILS_PER_ADDRESS = 1
    slug = GPU.objects.order_by("slug").values_list("slug", flat=True).first()
    first = [post_signup(client, 1, VICTIM), post_provider(client, 2, VICTIM), post_alert(client, 3, VICTIM, slug)]
    run_mail_worker()
    assert mails_to(VICTIM).count() == 1
    fresh = "fresh@example.com"
    second = [post_signup(client, 4, fresh), post_provider(client, 5, fresh), post_alert(client, 6, fresh, slug)]
    for spent, unspent in zip(first, second, strict=True):
        assert (spent.status_code, spent["Location"], spent.content) == (
            unspent.status_code, unspent["Location"], unspent.content)
    spent_page, unspent_page = (client.get(response["Location"]) for response in (first[2], second[2]))
    assert spent_page.content == unspent_page.content


def test_one_click_confirms_every_alert_waiting_at_the_address(client, launch_content):
    gpus = list(GPU.objects.exclude(price_usd_per_hour=None).order_by("slug"))[:4]
    targets = [(gpu.price_usd_per_hour / 2).quantize(Decimal("0.01")) for gpu in gpus]
    for number, (gpu, target) in enumerate(zip(gpus, targets, strict=True)):
        assert post_alert(client, number, "ana@example.com", gpu.slug, "es", str(target)).status_code == 303
    run_mail_worker()
    [confirmation] = [m for m in mail.outbox if m.to == ["ana@example.com"]]
    link = alert_link(confirmation.body)
    with translation.override("es"):
        others = "; ".join(gettext("%(gpu)s at %(target)s per GPU-hour") % {
            "gpu": gpu.name, "target": format_usd(target)} for gpu, target in zip(gpus[1:], targets[1:], strict=True))
        offer = gettext("The same button also confirms the other price alerts waiting at this address: "
                        "%(alerts)s.") % {"alerts": others}
        done = gettext("The same click also confirmed the other price alerts waiting at this address: "
                       "%(alerts)s.") % {"alerts": others}
    page = client.get(link).content.decode()
    assert offer in page.replace("&#x27;", "'")
    assert not PriceAlert.objects.filter(confirmed_at__isnull=False).exists()
    response = client.post(link)
    assert response.status_code == 200 and done in response.content.decode()
    assert PriceAlert.objects.filter(email="ana@example.com", confirmed_at__isnull=False).count() == 4


def test_the_alerts_confirmed_together_each_mail_on_their_own_gpu(client, launch_content):
    from alerts import price_alerts
    from catalog.price_events import CurrentPriceChange

    gpus = list(GPU.objects.exclude(price_usd_per_hour=None).order_by("slug"))[:3]
    for number, gpu in enumerate(gpus):
        post_alert(client, number, "ana@example.com", gpu.slug, "de", str(gpu.price_usd_per_hour - 1))
    run_mail_worker()
    [confirmation] = mail.outbox
    assert client.post(alert_link(confirmation.body)).status_code == 200
    change = CurrentPriceChange(gpus[2], gpus[2].price_usd_per_hour, gpus[2].price_usd_per_hour - 2,
                                timezone.now(), "import")
    assert price_alerts.apply_price_changes([change]).notified == 1
    [notice] = OutboxEmail.objects.filter(link_kind="")
    assert gpus[2].name in notice.subject


def test_a_request_after_the_link_was_used_gets_its_own_mail(client, launch_content):
    slugs = list(GPU.objects.order_by("slug").values_list("slug", flat=True))[:2]
    post_alert(client, 1, "ana@example.com", slugs[0])
    run_mail_worker()
    assert client.post(alert_link(mail.outbox[-1].body)).status_code == 200
    # Minutes later, another GPU: the first link is used, so a new one goes out (within the budget).
    post_alert(client, 2, "ana@example.com", slugs[1])
    run_mail_worker()
    assert len(mail.outbox) == 2
    assert client.post(alert_link(mail.outbox[-1].body)).status_code == 200
    assert PriceAlert.objects.filter(confirmed_at__isnull=False).count() == 2


def test_alerts_never_confirmed_never_block_the_owner_and_the_click_keeps_the_bound(
        client, launch_content, settings):
    settings.PRICE_ALERTS_PER_ADDRESS = 2
    slugs = list(GPU.objects.order_by("slug").values_list("slug", flat=True))[:6]
    # Someone else asks for five alerts at the owner's address.
    for number, slug in enumerate(slugs[:5]):
        post_alert(client, number, VICTIM, slug)
    # The owner asks for their own: not refused, although five wait.
    post_alert(client, 9, VICTIM, slugs[5], target="3.75")
    run_mail_worker()
    assert PriceAlert.objects.count() == 6
    assert not OutboxEmail.objects.filter(subject__contains=GPU.objects.get(slug=slugs[5]).name).exists()
    [confirmation] = mail.outbox  # every request joined the first mail
    assert client.post(alert_link(confirmation.body)).status_code == 200
    # Two confirmed (the link's own first), the others dropped with their mails: the bound holds.
    assert PriceAlert.objects.filter(confirmed_at__isnull=False).count() == 2 == PriceAlert.objects.count()
    # The owner deletes one and asks again: it is set and confirmed by the owner's new mail.
    PriceAlert.objects.exclude(gpu__slug=slugs[0]).delete()
    post_alert(client, 10, VICTIM, slugs[5], target="3.75")
    run_mail_worker()
    assert client.post(alert_link(mail.outbox[-1].body)).status_code == 200
    assert set(PriceAlert.objects.filter(confirmed_at__isnull=False).values_list("gpu__slug", flat=True)) == {
        slugs[0], slugs[5]}


def test_the_limit_reached_mail_counts_against_the_same_budget(client, launch_content, settings):
    settings.PRICE_ALERTS_PER_ADDRESS = 1
    budget = settings.SIGNUP_MAILS_PER_ADDRESS
    slugs = list(GPU.objects.order_by("slug").values_list("slug", flat=True))
    post_alert(client, 0, VICTIM, slugs[0])
    run_mail_worker()
    assert client.post(alert_link(mail.outbox[-1].body)).status_code == 200
    for number, slug in enumerate(slugs[1:], start=1):
        assert post_alert(client, number, VICTIM, slug).status_code == 303
    refusals = OutboxEmail.objects.filter(link_kind="", recipient=VICTIM)
    assert len(slugs) - 1 > budget - 1 == refusals.count()
    assert mails_to(VICTIM).count() == budget
    assert PriceAlert.objects.count() == 1


def test_spent_rows_are_purged_with_the_unconfirmed_ones(client, launch_content, settings):
    post_provider(client, 1, VICTIM)
    assert MailboxMail.objects.count() == 1
    purge_unconfirmed(now=timezone.now() + timedelta(seconds=settings.SIGNUP_MAILS_PER_ADDRESS_WINDOW - 60))
    assert MailboxMail.objects.count() == 1
    purge_unconfirmed(now=timezone.now() + timedelta(seconds=settings.SIGNUP_MAILS_PER_ADDRESS_WINDOW + 1))
    assert not MailboxMail.objects.exists() and not Mailbox.objects.exists()


THREADS = 20


@contextmanager
def slow_budget_writes(seconds=0.2):
    """Each mail counted takes ``seconds`` to write, as on a loaded server: requests that counted the budget
    before another one's mail was written would each find room, unless they take turns."""
    with connection.cursor() as cursor:
        cursor.execute(f"""
            CREATE FUNCTION slow_budget_write() RETURNS trigger AS $$
            BEGIN PERFORM pg_sleep({seconds}); RETURN NEW; END $$ LANGUAGE plpgsql;
            CREATE TRIGGER slow_budget_write BEFORE INSERT ON signups_mailboxmail
            FOR EACH ROW EXECUTE FUNCTION slow_budget_write();
        """)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER slow_budget_write ON signups_mailboxmail; DROP FUNCTION slow_budget_write();")


def test_twenty_concurrent_requests_for_one_mailbox_queue_at_most_the_budget(live_launch_content, settings):
    """Each thread a browser from its own address with its own database connection, so the transactions really
    overlap in PostgreSQL; then four mail workers at once apply the signups."""
    assert connection.vendor == "postgresql"
    budget = settings.SIGNUP_MAILS_PER_ADDRESS
    slugs = list(GPU.objects.order_by("slug").values_list("slug", flat=True))
    first = Client()
    first.get(url_in("es", "signups:signup"))
    start = threading.Barrier(THREADS, timeout=60)

    def submit(number):
        browser = Client()
        browser.handler = first.handler
        email = SPELLINGS[number % len(SPELLINGS)]
        try:
            start.wait()
            if number % 4 == 0:
                return post_signup(browser, number, email).status_code
            if number % 4 == 1:
                return post_provider(browser, number, email).status_code
            return post_alert(browser, number, email, slugs[number % len(slugs)]).status_code
        finally:
            connections.close_all()

    with slow_budget_writes(), ThreadPoolExecutor(max_workers=THREADS) as pool:
        statuses = Counter(pool.map(submit, range(THREADS)))
    assert statuses == {303: THREADS}

    def work(_worker):
        try:
            apply_requests(limit=10)
            while sum(send_due(limit=10)):
                pass
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(work, range(4)))
    assert ProviderApplication.objects.count() == THREADS // 4
    assert mails_to(VICTIM).count() == budget
    assert MailboxMail.objects.count() == budget and Mailbox.objects.count() == 1


def test_the_migration_adds_the_budget_to_a_filled_database(migrations_rolled_back):
    before, after = [("signups", "0007_signup_origin_and_business")], [("signups", "0008_mail_budget")]
    old = migrations_rolled_back(before)
    old.get_model("signups", "Signup").objects.create(
        email="old@example.com", currency="USD", language="pt", signed_up_at=datetime(2026, 10, 1, tzinfo=UTC),
        consent_text_version="renter-1", consent_language="pt", source_path="/pt/",
    )
    old.get_model("signups", "OutboxEmail").objects.create(
        recipient="old@example.com", subject="s", body="b", language="pt")
    new = migrations_rolled_back(after)
    assert new.get_model("signups", "Signup").objects.get().email == "old@example.com"
    assert new.get_model("signups", "OutboxEmail").objects.count() == 1
    assert not new.get_model("signups", "MailboxMail").objects.exists()
    migrations_rolled_back(None)
    # Mails queued before the budget existed count for nothing: the mailbox has its whole budget.
    assert mail_budget.mails_in_window("old@example.com") == 0

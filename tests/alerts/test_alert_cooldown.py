"""An alert that mailed waits a cooldown before it mails again (issue 48): an editor's six price flips around a
target send one mail, not seven; after the cooldown, or after a fall of the margin below the target and the price
last mailed, it mails again; and one the cooldown held back mails when the cooldown ends if the price is still at
or below its target."""
from datetime import timedelta
from decimal import Decimal

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from alerts import price_alerts
from alerts.models import PriceAlert
from catalog.models import GPU
from optin.models import OutboxEmail

from .price_alert_steps import SLUG, change, confirmed_alert, import_price


def alert_mails():
    return OutboxEmail.objects.filter(recipient="ana@example.com", link_kind="")


def test_six_price_flips_around_the_target_send_one_mail(client, launch_content):
    alert = confirmed_alert(client, "es")  # target 2.50, the price above it
    for _flip in range(7):
        import_price(SLUG, "2.40")
        import_price(SLUG, "2.60")
    assert alert_mails().count() == 1
    alert.refresh_from_db()
    assert alert.last_notified_price_usd_per_hour == Decimal("2.40")


def test_after_the_cooldown_the_alert_mails_again(client, launch_content, settings):
    confirmed_alert(client, "es")
    gpu = GPU.objects.get(slug=SLUG)
    now = timezone.now()
    price_alerts.apply_price_changes([change(gpu, Decimal("2.40"))], now=now)
    price_alerts.apply_price_changes([change(gpu, Decimal("2.60"))], now=now + timedelta(hours=1))
    price_alerts.apply_price_changes([change(gpu, Decimal("2.40"))], now=now + timedelta(hours=2))
    assert alert_mails().count() == 1
    price_alerts.apply_price_changes([change(gpu, Decimal("2.60"))], now=now + timedelta(hours=25))
    price_alerts.apply_price_changes([change(gpu, Decimal("2.40"))], now=now + timedelta(hours=25, minutes=1))
    assert alert_mails().count() == 2


def test_within_the_cooldown_only_a_fall_of_the_margin_below_the_price_last_mailed_mails(client, launch_content):
    confirmed_alert(client, "es")  # target 2.50; margin 10 %
    gpu = GPU.objects.get(slug=SLUG)
    now = timezone.now()
    steps = [("2.40", 1), ("2.60", 1), ("2.20", 1), ("2.60", 1), ("2.16", 2), ("2.60", 2), ("2.16", 2),
             ("2.60", 2), ("1.95", 2), ("2.60", 2), ("1.94", 3)]
    for minute, (price, mails) in enumerate(steps):
        price_alerts.apply_price_changes([change(gpu, Decimal(price))], now=now + timedelta(minutes=minute))
        assert alert_mails().count() == mails, (price, mails)


def test_an_alert_held_back_mails_when_its_cooldown_ends_if_the_price_is_still_at_its_target(
        client, launch_content):
    alert = confirmed_alert(client, "es")
    gpu = GPU.objects.get(slug=SLUG)
    now = timezone.now()
    price_alerts.apply_price_changes([change(gpu, Decimal("2.40"))], now=now)
    price_alerts.apply_price_changes([change(gpu, Decimal("2.60"))], now=now + timedelta(hours=1))
    price_alerts.apply_price_changes([change(gpu, Decimal("2.45"))], now=now + timedelta(hours=2))
    GPU.objects.filter(pk=gpu.pk).update(price_usd_per_hour=Decimal("2.45"))
    assert alert_mails().count() == 1
    assert price_alerts.mail_after_cooldown(100, now + timedelta(hours=23)) == 0
    assert price_alerts.mail_after_cooldown(100, now + timedelta(hours=25)) == 1
    assert price_alerts.mail_after_cooldown(100, now + timedelta(hours=26)) == 0
    assert alert_mails().count() == 2
    alert.refresh_from_db()
    assert alert.state == PriceAlert.State.RESTING and alert.last_notified_price_usd_per_hour == Decimal("2.45")


def test_the_migration_keeps_the_alerts_and_their_last_mail(migrations_rolled_back):
    others = [(app, name) for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes() if app != "alerts"]
    old = migrations_rolled_back([*others, ("alerts", "0003_consent_evidence_of_existing_rows")])
    gpu = old.get_model("catalog", "GPU").objects.create(
        slug="old-gpu", vendor="V", name="Old GPU", architecture="A", memory_gb=Decimal(80),
        price_usd_per_hour=Decimal("2.00"), derived_source="")
    at = timezone.now() - timedelta(hours=30)
    old.get_model("alerts", "PriceAlert").objects.create(
        email="old@example.com", gpu=gpu, target_usd_per_hour=Decimal("2.50"), language="de", state="resting",
        confirmed_at=at, renewed_at=at, last_notified_at=at, consent_text_version="price-alert-2",
        consent_language="de", source_path="/de/")
    new = migrations_rolled_back([*others, ("alerts", "0004_alert_last_notified_price")])
    alert = new.get_model("alerts", "PriceAlert").objects.get()
    assert (alert.email, alert.state, alert.last_notified_at, alert.last_notified_price_usd_per_hour) == (
        "old@example.com", "resting", at, None)
    migrations_rolled_back(None)
    alert = PriceAlert.objects.get()
    # An alert that mailed before the price was kept: its cooldown compares with its target.
    alert.state = PriceAlert.State.ACTIVE
    assert price_alerts.may_mail(alert, Decimal("2.40"), timezone.now())

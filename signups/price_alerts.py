"""Price alerts: "tell me when this GPU is at or below this price". Asking (``subscribe``), confirming (double
opt-in, ``confirm``), mailing when a price change reaches the target (``apply_price_changes``, the receiver
of ``catalog.price_events.price_changed``) and deleting (``delete``).

- One alert per address and GPU: asking again for the same GPU changes the target. An alert not confirmed
  yet takes the new answers and a new confirmation mail; a confirmed one keeps its target until the new
  one is confirmed from its own mail, so nobody who merely knows an address can change its alerts.
- One mailbox holds at most PRICE_ALERTS_PER_ADDRESS alerts, confirmed or not.
- A confirmed alert is active until the best price is at or below its target: then one mail is queued and
  the alert rests until the price has gone back above the target. A withdrawn offer changes nothing.
- A confirmation when the price is already at or below the target mails at once, so an active alert always
  waits for a price it has not mailed about."""
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.utils import timezone

from . import alert_confirmation, mails, outbox
from .confirmation import LinkState, well_formed
from .erasure import delete_with_admin_history
from .models import PriceAlert
from .tokens import token_hash

# A request for an alert whose confirmation mail went out sooner than this sends none and changes nothing:
# nobody can flood a mailbox, or rewrite an alert its owner is about to confirm, through us.
RESEND_CONFIRMATION_AFTER = timedelta(minutes=15)
# Rows per UPDATE when many alerts change state at once (SQLite limits the parameters of a statement).
BATCH = 500


@dataclass(frozen=True)
class PriceChangeOutcome:
    checked: int  # confirmed alerts of the changed GPUs the database narrowed them to, each then compared
    notified: int  # mails queued
    rearmed: int  # resting alerts active again


def alerts_of(email):
    # Lowercased by the database on both sides, exactly as the unique constraint compares addresses.
    return PriceAlert.objects.filter(email__lower=Lower(Value(email)))


def limit():
    return settings.PRICE_ALERTS_PER_ADDRESS


@transaction.atomic
def subscribe(*, email, gpu, target, language, consent, now=None):
    """Record the wish for an alert on ``gpu`` at ``target`` USD per GPU-hour and queue its confirmation
    mail. When it would be one alert too many for the address, nothing is stored and the mail says so, with the
    address's alerts and their delete links: the page answers the same either way, so it tells nobody what an
    address holds.

    ``consent`` holds the evidence fields (consent text and privacy policy versions, consent language, the
    form's page)."""
    now = now or timezone.now()
    alert = alerts_of(email).select_for_update().filter(gpu=gpu).first()
    if alert is None:
        held = list(alerts_of(email).select_related("gpu").order_by("gpu__name"))
        if len(held) >= limit():
            mails.queue_alert_limit_reached(email=email, gpu=gpu, target=target, language=language, held=held)
            return None
        try:
            with transaction.atomic():
                alert = PriceAlert.objects.create(
                    email=email, gpu=gpu, target_usd_per_hour=target, language=language, created_at=now,
                    **consent,
                )
        except IntegrityError:  # the same address and GPU from another request at this moment: that one won
            return alerts_of(email).get(gpu=gpu)
        mails.queue_alert_confirmation(alert, target)
        return alert
    if alert.confirmation_mails.filter(created_at__gt=now - RESEND_CONFIRMATION_AFTER).exists():
        return alert
    if alert.confirmed_at is None:
        alert.email, alert.target_usd_per_hour, alert.language, alert.created_at = email, target, language, now
        for field, value in consent.items():
            setattr(alert, field, value)
    elif target == alert.target_usd_per_hour:
        return alert
    else:
        alert.requested_target_usd_per_hour = target
    # Links already mailed die: only the new mail's link confirms these answers.
    alert.confirmation_token_hash = alert.confirmation_expires_at = None
    alert.save()
    mails.queue_alert_confirmation(alert, target)
    return alert


@transaction.atomic
def confirm(token, now=None):
    """Confirm the alert (or the new target) the token was mailed for: CONFIRMED, or the state that
    prevented it. Locked, so of two clicks at the same moment exactly one confirms."""
    if not well_formed(token):
        return LinkState.UNKNOWN
    now = now or timezone.now()
    alert = (
        PriceAlert.objects.select_for_update(of=("self",)).select_related("gpu")
        .filter(confirmation_token_hash=token_hash(token), confirmation_expires_at__gt=now)
        .filter(Q(confirmed_at__isnull=True) | Q(requested_target_usd_per_hour__isnull=False))
        .first()
    )
    if alert is None:
        return alert_confirmation.link_state(alert_confirmation.alert_for(token))
    alert.confirmed_at = alert.confirmed_at or now
    if alert.requested_target_usd_per_hour is not None:
        alert.target_usd_per_hour, alert.requested_target_usd_per_hour = alert.requested_target_usd_per_hour, None
    alert.state = PriceAlert.State.ACTIVE
    alert.save(update_fields=["confirmed_at", "target_usd_per_hour", "requested_target_usd_per_hour", "state"])
    price = alert.gpu.price_usd_per_hour
    if price is not None and price <= alert.target_usd_per_hour:
        notify([(alert, alert.gpu, price)], now)
    return LinkState.CONFIRMED


def notify(alerts, now):
    """Queue the mail of each (alert, GPU, new price) and let the alerts rest."""
    outbox.queue_all([mails.price_alert_mail(alert, gpu, price) for alert, gpu, price in alerts])
    update_in_batches([alert.pk for alert, _gpu, _price in alerts], state=PriceAlert.State.RESTING,
                      last_notified_at=now)


def update_in_batches(pks, **values):
    for start in range(0, len(pks), BATCH):
        PriceAlert.objects.filter(pk__in=pks[start:start + BATCH]).update(**values)


@transaction.atomic
def apply_price_changes(changes, now=None):
    """What new current prices (``catalog.price_events.CurrentPriceChange``) do to the confirmed alerts of
    their GPUs, in the caller's transaction and a constant number of queries: an active alert at or above
    its GPU's new price mails and rests; a resting one below it is active again."""
    now = now or timezone.now()
    new_prices = {change.gpu.pk: (change.gpu, change.new) for change in changes if change.new is not None}
    if not new_prices:
        return PriceChangeOutcome(0, 0, 0)
    prices = [price for _gpu, price in new_prices.values()]
    State = PriceAlert.State
    # The database narrows them down with the extreme prices; each alert is then held against its own GPU's.
    candidates = list(
        PriceAlert.objects.select_for_update(of=("self",))
        .filter(confirmed_at__isnull=False, gpu_id__in=new_prices)
        .filter(Q(state=State.ACTIVE, target_usd_per_hour__gte=min(prices))
                | Q(state=State.RESTING, target_usd_per_hour__lt=max(prices)))
        .only("pk", "email", "gpu_id", "state", "target_usd_per_hour", "language", "unsubscribe_key")
    )
    to_notify, to_rearm = [], []
    for alert in candidates:
        gpu, price = new_prices[alert.gpu_id]
        if alert.state == State.ACTIVE and alert.target_usd_per_hour >= price:
            to_notify.append((alert, gpu, price))
        elif alert.state == State.RESTING and alert.target_usd_per_hour < price:
            to_rearm.append(alert.pk)
    if to_notify:
        notify(to_notify, now)
    update_in_batches(to_rearm, state=State.ACTIVE)
    return PriceChangeOutcome(len(candidates), len(to_notify), len(to_rearm))


def on_price_changed(sender, changes, **kwargs):
    """The receiver of ``catalog.price_events.price_changed`` (connected in ``apps.py``)."""
    apply_price_changes(changes)


def alert_for_key(key):
    """The alert a mail's delete link names, or None."""
    return PriceAlert.objects.select_related("gpu").filter(unsubscribe_key=key).first()


def delete(key):
    """Delete the alert, with the admin's history of it. Idempotent."""
    delete_with_admin_history(PriceAlert.objects.filter(unsubscribe_key=key))


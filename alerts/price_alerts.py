"""Price alerts: "tell me when this GPU is at or below this price". Asking (``request_alert``: the form stores the
request, which the mail worker applies with ``subscribe``, so the answer is the same whatever the address holds),
confirming (double
opt-in, ``confirm``), mailing when a price change reaches the target (``apply_price_changes``, the receiver
of ``catalog.price_events.price_changed``) and deleting (``delete``).

- One alert per address and GPU: asking again for the same GPU changes the target. An alert not confirmed
  yet takes the new answers; a confirmed one keeps its target until the new one is confirmed, so nobody who
  merely knows an address can change its alerts.
- One click confirms every alert waiting at an address: a request made while the address's last confirmation
  mail is still on its way (or went out minutes ago) joins that mail instead of sending another, and every
  mail counts against the address's budget across all forms (``mail_budget.py``). Someone asking for four
  GPUs gets one mail; someone aiming the form at a stranger gets the budget's mails at most.
- One mailbox holds at most PRICE_ALERTS_PER_ADDRESS confirmed alerts; alerts never confirmed count for
  nothing, so nobody can fill a stranger's slots: the owner's click confirms the waiting ones while there is
  room and drops the rest.
- A confirmed alert is active until the best price is at or below its target: then one mail is queued and
  the alert rests until the price has gone back above the target. A withdrawn offer changes nothing.
- An alert that mailed waits a cooldown (PRICE_ALERT_COOLDOWN_HOURS) before it mails again, unless the price
  has fallen PRICE_ALERT_REFIRE_MARGIN_PERCENT below both its target and the price it last mailed: prices that
  flip around a target send one mail, not one per flip. An alert held back by the cooldown stays active; if the
  price is still at or below its target when the cooldown ends, the mail worker mails it then
  (``mail_after_cooldown``, a chore).
- A confirmation when the price is already at or below the target mails at once, so an active alert always
  waits for a price it has not mailed about.
- The form may ask for the launch list too (its own box and consent): the request keeps what the list needs, and
  the alert's confirmation mail (which then says so) confirms the signup with the alert (``launch_list``), so one
  mail confirms both; when no such mail is asked for (the alert is confirmed already, or the address holds its
  limit), the list's own confirmation mail is queued instead (``waitlist.join``).
- Each alert has its consent record (``optin.consent_records``), made when it is asked for: confirming,
  renewing (``lapse.py``) and the end (deleted by its owner, lapsed, never confirmed) are noted there, and the
  record outlives the alert for the evidence's period."""
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Lower
from django.utils import timezone

from optin import consent_records, mail_budget, origins, outbox
from optin.confirmation import LinkState
from optin.erasure import delete_with_admin_history
from signups import waitlist
from signups.models import Signup

from . import mails
from .confirmation import AWAITING_CONFIRMATION, LINK
from .models import AlertRequest, PriceAlert

# A request for an alert whose confirmation mail went out sooner than this changes nothing, so nobody can
# rewrite an alert its owner is about to confirm; a request for another GPU joins that mail.
RESEND_CONFIRMATION_AFTER = timedelta(minutes=15)
# Rows per UPDATE when many alerts change state at once (SQLite limits the parameters of a statement).
BATCH = 500


@dataclass(frozen=True)
class PriceChangeOutcome:
    checked: int  # confirmed alerts of the changed GPUs the database narrowed them to, each then compared
    notified: int  # mails queued
    rearmed: int  # resting alerts active again


@dataclass(frozen=True)
class Confirmation:
    state: LinkState
    alerts: tuple = ()  # the alerts this click confirmed, the link's own first
    joined_list: bool = False  # it also confirmed a launch-list signup asked for with them


def alerts_of(email):
    # Lowercased by the database on both sides, exactly as the unique constraint compares addresses.
    return PriceAlert.objects.filter(email__lower=Lower(Value(email)))


def limit():
    return settings.PRICE_ALERTS_PER_ADDRESS


def confirmation_on_its_way(email, now):
    """Whether a confirmation mail of an alert of ``email`` is waiting to be sent, or went out minutes ago, and
    its link not used yet: that link confirms every alert waiting at the address, so a new request joins it."""
    waiting = alerts_of(email).filter(AWAITING_CONFIRMATION).values("pk")
    return outbox.linked_mails(PriceAlert, waiting).filter(
        Q(sent_at__isnull=True, next_attempt_at__isnull=False) | Q(created_at__gt=now - RESEND_CONFIRMATION_AFTER),
    ).exists()


def ask_confirmation(mailbox, alert, target, now):
    """Queue the confirmation mail of ``alert`` (new, or asked a new ``target``) unless one on its way confirms
    it too, or the mailbox's budget is spent: then it waits for the next link its owner opens."""
    if confirmation_on_its_way(alert.email, now) or not mail_budget.spend(mailbox, now):
        return
    mails.queue_alert_confirmation(alert, target)


# The request's evidence fields, copied to the alert and its consent record.
CONSENT_FIELDS = ("consent_text_version", "privacy_policy_version", "consent_language", "source_path")


def request_alert(*, email, gpu, target, language, consent, launch_list=None):
    """What the form does, for any address: store the request for the worker (one insert); ``launch_list``: the
    form's ``launch_list_answers`` (empty: the list was not asked for)."""
    request = AlertRequest.objects.create(email=email, gpu=gpu, target_usd_per_hour=target, language=language,
                                          **consent, **(launch_list or {}))
    origins.note(request)  # the client network its mail counts against (``optin.origins``)
    return request


def apply_requests(limit=100):
    """The worker's chore: each waiting request is subscribed (``subscribe``) and deleted, in one transaction, under
    the mailbox's lock taken before the request's row (the order an erasure takes them: ``optin.erasure``).
    Returns how many were applied."""
    applied = 0
    for pk, email in AlertRequest.objects.values_list("pk", "email")[:limit]:
        with transaction.atomic():
            mail_budget.lock(email)
            request = AlertRequest.objects.select_for_update(of=("self",)).select_related("gpu").filter(pk=pk).first()
            if request is None:  # applied by another worker, or erased
                continue
            consent = {field: getattr(request, field) for field in CONSENT_FIELDS}
            launch_list = launch_list_of(request, consent)
            with origins.requested_from(origins.of(request)):
                alert = subscribe(email=request.email, gpu=request.gpu, target=request.target_usd_per_hour,
                                  language=request.language, consent=consent, now=request.received_at,
                                  launch_list=launch_list)
                if launch_list is not None and (alert is None or alert.launch_list_signup_id is None):
                    # No alert mail to confirm it with: the list's own confirmation mail.
                    waitlist.join(email=request.email, workload_id=None, **launch_list)
            request.delete()
        applied += 1
    return applied


def launch_list_of(request, consent):
    """What a request asks of the launch list, as ``waitlist.join`` takes it (None: nothing)."""
    if not request.launch_list_currency:
        return None
    return {"currency": request.launch_list_currency, "language": request.language, "at": request.received_at,
            "consent": {**consent, "consent_text_version": request.launch_list_consent_text_version},
            "answers": {"gpu_id": request.gpu_id, "for_business": True}}


def with_launch_list(alert, launch_list):
    """Link to ``alert`` the launch-list signup ``launch_list`` asks for (``launch_list_of``), without a mail of
    its own: the alert's confirmation mail, queued next, says so and confirms both. Nothing when the address is
    on the list already."""
    if launch_list is None:
        return
    alert.launch_list_signup = waitlist.join_unmailed(**launch_list, email=alert.email)
    type(alert).objects.filter(pk=alert.pk).update(launch_list_signup=alert.launch_list_signup)


@transaction.atomic
def subscribe(*, email, gpu, target, language, consent, now=None, launch_list=None):
    """Record the wish for an alert on ``gpu`` at ``target`` USD per GPU-hour and ask for its confirmation.
    When the address holds as many confirmed alerts as it may, nothing is stored and a mail says so (within the
    budget), with the address's alerts and their delete links: the page answers the same either way, so it
    tells nobody what an address holds.

    ``consent`` holds the evidence fields (consent text and privacy policy versions, consent language, the
    form's page), ``launch_list`` what the launch list was asked for with (``launch_list_of``; None: it was
    not): its signup is linked to the alert whose confirmation is asked (``with_launch_list``). Requests for one
    address take turns (the mailbox's lock)."""
    now = now or timezone.now()
    mailbox = mail_budget.lock(email)
    alert = alerts_of(email).select_for_update().filter(gpu=gpu).first()
    if alert is None:
        held = alerts_of(email).filter(confirmed_at__isnull=False)
        if held.count() >= limit():
            if mail_budget.spend(mailbox, now):
                mails.queue_alert_limit_reached(email=email, gpu=gpu, target=target, language=language,
                                                held=list(held.select_related("gpu").order_by("gpu__name")))
            return None
        try:
            with transaction.atomic():
                alert = PriceAlert.objects.create(
                    email=email, gpu=gpu, target_usd_per_hour=target, language=language, created_at=now,
                    **consent, consent_record=consent_records.asked(
                        consent_records.Purpose.PRICE_ALERT, email=email, consent=consent, asked_at=now),
                )
        except IntegrityError:  # the same address and GPU, spelt otherwise, from another request: that one won
            return alerts_of(email).get(gpu=gpu)
        with_launch_list(alert, launch_list)
        ask_confirmation(mailbox, alert, target, now)
        return alert
    if outbox.mails_about(alert).filter(created_at__gt=now - RESEND_CONFIRMATION_AFTER).exists():
        return alert
    if alert.confirmed_at is None:
        alert.email, alert.target_usd_per_hour, alert.language, alert.created_at = email, target, language, now
        for field, value in consent.items():
            setattr(alert, field, value)
        alert.consent_record = consent_records.reasked(alert.consent_record, consent_records.Purpose.PRICE_ALERT,
                                                       email=email, consent=consent, asked_at=now)
    elif target == alert.target_usd_per_hour:
        return alert
    else:
        alert.requested_target_usd_per_hour = target
    # Its own links already mailed die, and its mails not sent yet go: they name other answers.
    alert.confirmation_token_hash = alert.confirmation_expires_at = None
    alert.save()
    outbox.mails_about(alert).filter(sent_at__isnull=True).delete()
    with_launch_list(alert, launch_list)
    ask_confirmation(mailbox, alert, target, now)
    return alert


def awaiting(token, now):
    return LINK.usable(token, now).select_related("gpu")


@transaction.atomic
def confirm_all(token, now=None):
    """Confirm, with the link of one alert, every alert waiting at its address (and new targets asked for
    confirmed ones), while the address holds fewer confirmed alerts than it may; the ones beyond are dropped.
    Returns a ``Confirmation``: CONFIRMED and the alerts, or the state that prevented it. Under the mailbox's
    lock, so of two clicks at the same moment exactly one confirms."""
    now = now or timezone.now()
    alert = awaiting(token, now).first()
    if alert is not None:
        mail_budget.lock(alert.email)
        alert = awaiting(token, now).first()  # again, under the lock
    if alert is None:
        return Confirmation(LINK.state(LINK.row_for(token), now))
    waiting = sorted(
        alerts_of(alert.email).select_for_update(of=("self",)).select_related("gpu").filter(AWAITING_CONFIRMATION),
        key=lambda row: (row.pk != alert.pk, row.created_at, row.pk),
    )
    room = limit() - alerts_of(alert.email).filter(confirmed_at__isnull=False).count()
    confirmed, dropped, new = [], [], []
    for row in waiting:
        if row.confirmed_at is None and room <= 0:
            dropped.append(row.pk)
            continue
        if row.confirmed_at is None:
            row.confirmed_at, row.renewed_at, room = now, now, room - 1
            new.append(row.pk)
        if row.requested_target_usd_per_hour is not None:
            row.target_usd_per_hour, row.requested_target_usd_per_hour = row.requested_target_usd_per_hour, None
        row.state = PriceAlert.State.ACTIVE
        row.save(update_fields=["confirmed_at", "renewed_at", "target_usd_per_hour", "requested_target_usd_per_hour",
                                "state"])
        confirmed.append(row)
    # The clicked mail confirmed them all: their records name it.
    consent_records.confirm(consent_records.records_for(PriceAlert.objects.filter(pk__in=new)), now,
                            via=alert.consent_record)
    joined_list = confirm_launch_list(confirmed, now, via=alert.consent_record)
    dropped_rows = PriceAlert.objects.filter(pk__in=dropped)
    consent_records.withdraw(consent_records.records_for(dropped_rows), consent_records.Withdrawal.NOT_CONFIRMED, now)
    delete_with_admin_history(dropped_rows)
    if not confirmed or confirmed[0].pk != alert.pk:  # no room left for the link's own alert
        return Confirmation(LinkState.EXPIRED, tuple(confirmed))
    reached = [(row, row.gpu, row.gpu.price_usd_per_hour) for row in confirmed
               if row.gpu.price_usd_per_hour is not None and row.gpu.price_usd_per_hour <= row.target_usd_per_hour]
    if reached:
        notify(reached, now)
        for row, _gpu, _price in reached:
            row.state = PriceAlert.State.RESTING
    return Confirmation(LinkState.CONFIRMED, tuple(confirmed), joined_list)


def confirm_launch_list(alerts, now, via):
    """Confirm the launch-list signups asked for with ``alerts`` (just confirmed by the click whose record is
    ``via``), with their consent records; True if one was. The alerts let go of them."""
    linked = [alert.pk for alert in alerts if alert.launch_list_signup_id is not None]
    if not linked:
        return False
    signups = Signup.objects.filter(pk__in=[alert.launch_list_signup_id for alert in alerts
                                            if alert.launch_list_signup_id is not None], confirmed_at__isnull=True)
    records = consent_records.records_for(signups)
    confirmed = signups.update(confirmed_at=now)
    consent_records.confirm(records, now, via=via)
    PriceAlert.objects.filter(pk__in=linked).update(launch_list_signup=None)
    for alert in alerts:
        alert.launch_list_signup = None
    return confirmed > 0


def joins_list(alert, others=()):
    """Whether the link of ``alert`` (with ``others``, the alerts it confirms too) confirms a launch-list signup."""
    return any(row.launch_list_signup_id is not None for row in (alert, *others))


def also_waiting(alert):
    """The other alerts waiting for a click at the address of ``alert``: its link confirms them too."""
    return list(alerts_of(alert.email).filter(AWAITING_CONFIRMATION).exclude(pk=alert.pk)
                .select_related("gpu").order_by("created_at", "pk"))


def confirm(token, now=None):
    """Confirm the alert (or the new target) the token was mailed for, with every alert waiting at its
    address: CONFIRMED, or the state that prevented it."""
    return confirm_all(token, now).state


def cooldown():
    return timedelta(hours=settings.PRICE_ALERT_COOLDOWN_HOURS)


def may_mail(alert, price, now):
    """Whether ``alert``, active and at or above ``price``, may mail now: it never mailed, its cooldown is over,
    or the price has fallen the margin below both its target and the price it last mailed."""
    if alert.last_notified_at is None or alert.last_notified_at <= now - cooldown():
        return True
    floor = min(alert.target_usd_per_hour, alert.last_notified_price_usd_per_hour or alert.target_usd_per_hour)
    return price <= floor * (100 - settings.PRICE_ALERT_REFIRE_MARGIN_PERCENT) / 100


def notify(alerts, now):
    """Queue the mail of each (alert, GPU, new price) and let the alerts rest, noting when and at which price."""
    outbox.queue_all([mails.price_alert_mail(alert, gpu, price) for alert, gpu, price in alerts])
    prices = {gpu.pk: price for _alert, gpu, price in alerts}
    # One statement per batch whatever the number of GPUs: each alert takes its own GPU's price.
    price_of_gpu = Case(*(When(gpu_id=pk, then=Value(price)) for pk, price in prices.items()),
                        output_field=PriceAlert._meta.get_field("last_notified_price_usd_per_hour"))
    update_in_batches([alert.pk for alert, _gpu, _price in alerts], state=PriceAlert.State.RESTING,
                      last_notified_at=now, last_notified_price_usd_per_hour=price_of_gpu)


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
        .only("pk", "email", "gpu_id", "state", "target_usd_per_hour", "language", "unsubscribe_key",
              "last_notified_at", "last_notified_price_usd_per_hour")
    )
    to_notify, to_rearm = [], []
    for alert in candidates:
        gpu, price = new_prices[alert.gpu_id]
        if alert.state == State.ACTIVE and alert.target_usd_per_hour >= price:
            if may_mail(alert, price, now):  # else it stays active, for the end of its cooldown
                to_notify.append((alert, gpu, price))
        elif alert.state == State.RESTING and alert.target_usd_per_hour < price:
            to_rearm.append(alert.pk)
    if to_notify:
        notify(to_notify, now)
    update_in_batches(to_rearm, state=State.ACTIVE)
    return PriceChangeOutcome(len(candidates), len(to_notify), len(to_rearm))


@transaction.atomic
def mail_after_cooldown(limit, now=None):
    """The mail worker's chore: the active alerts the cooldown held back whose GPU's price is still at or below
    their target once it is over mail now. Returns how many mailed."""
    now = now or timezone.now()
    alerts = list(
        PriceAlert.objects.select_for_update(skip_locked=True, of=("self",)).select_related("gpu")
        .filter(confirmed_at__isnull=False, state=PriceAlert.State.ACTIVE, last_notified_at__lte=now - cooldown(),
                gpu__price_usd_per_hour__lte=F("target_usd_per_hour"))
        .order_by("last_notified_at", "pk")[:limit]
    )
    if alerts:
        notify([(alert, alert.gpu, alert.gpu.price_usd_per_hour) for alert in alerts], now)
    return len(alerts)


def on_price_changed(sender, changes, **kwargs):
    """The receiver of ``catalog.price_events.price_changed`` (connected in ``apps.py``)."""
    apply_price_changes(changes)


def alert_for_key(key):
    """The alert a mail's delete link names, or None."""
    return PriceAlert.objects.select_related("gpu").filter(unsubscribe_key=key).first()


@transaction.atomic
def delete(key, now=None):
    """Delete the alert, with the admin's history of it; its consent record ends as deleted by its owner and is
    kept. Idempotent."""
    alert = PriceAlert.objects.filter(unsubscribe_key=key)
    consent_records.withdraw(consent_records.records_for(alert), consent_records.Withdrawal.DELETED_BY_OWNER, now)
    delete_with_admin_history(alert)


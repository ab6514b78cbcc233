"""The GPU page's price history, in the active language: the step chart of the best price over the last 90 days
with its texts and its table of prices, and the change over 7 and 30 days. Works on a ``price_history.History``
already read: no queries."""
from dataclasses import dataclass
from datetime import timedelta

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from charts.step_chart import MAX_STEPS, daily_closing, step_chart
from core.formatting import (
    format_date_time,
    format_day_month,
    format_long_date,
    format_signed_share,
    format_signed_usd,
    format_usd,
)

from .models import PriceSource
from .price_freshness import launch_date
from .price_history import HISTORY_DAYS, price_changes


@dataclass(frozen=True)
class PriceRow:
    time_text: str
    iso: str
    price_text: str


@dataclass(frozen=True)
class ChangeText:
    label: str
    text: str
    direction: str  # "down", "up", "none" (no change) or "unknown"


@dataclass(frozen=True)
class PriceHistoryChart:
    key: str
    title: str
    description: str
    rows: tuple  # PriceRow, oldest first
    layout: object  # step_chart.StepChart
    daily: bool  # the chart and rows show each day's last price


@dataclass(frozen=True)
class PriceHistorySection:
    chart: PriceHistoryChart | None
    note: str  # instead of the chart (no price, or only one known), or under it ("" for none)
    changes: tuple  # ChangeText per span of days


def price_text(price):
    return _("no live offer") if price is None else format_usd(price)


def change_text(change, history):
    label = ngettext("Change over %(days)s day", "Change over %(days)s days", change.days) % {"days": change.days}
    if change.current is None:
        return ChangeText(label, _("No live offer now"), "unknown")
    if change.earlier is None:
        known = history.known_at(history.end - timedelta(days=change.days))
        return ChangeText(label, _("No live offer then") if known else _("No earlier price"), "unknown")
    if change.amount == 0:
        return ChangeText(label, _("No change"), "none")
    text = _("%(amount)s (%(share)s)") % {
        "amount": format_signed_usd(change.amount), "share": format_signed_share(change.share)}
    return ChangeText(label, text, "down" if change.amount < 0 else "up")


def price_rows(steps, history):
    """The table's rows: each step with the time its price came in (the first step's may be before the window)."""
    from_before = history.before is not None and not (history.points and history.points[0].time == history.start)
    return tuple(
        PriceRow(format_date_time(came_in), came_in.isoformat(timespec="seconds"), price_text(price))
        for came_in, price in (
            (history.before.time if index == 0 and from_before and moment == history.start else moment, price)
            for index, (moment, price) in enumerate(steps)
        )
    )


def price_history_section(gpu, history):
    """The section of ``gpu``'s page for ``history`` (its last ``HISTORY_DAYS`` days, ending now)."""
    steps = history.levels()
    # Until a second price is known there is nothing to compare or draw: one honest line, no change figures.
    if not steps:
        return PriceHistorySection(None, _("No price has been recorded for this GPU in the last %(days)s days.") % {
            "days": HISTORY_DAYS}, ())
    # The one point known, older than the window: the launch price still in force, or a price unchanged since.
    older = history.before if history.before and not history.points else None
    if len(steps) == 1 and (history.before is None or older):
        moment, price = (older.time, older.price) if older else steps[0]
        # The launch price is dated by the launch data's day, without a time of its own.
        if gpu.price_source == PriceSource.LAUNCH and moment == gpu.price_updated_at:
            return PriceHistorySection(None, _(
                "The price history starts at launch: %(price)s is the launch price of %(date)s.") % {
                "price": price_text(price), "date": format_long_date(launch_date(moment))}, ())
        if older is None:
            return PriceHistorySection(None, _("Only one price is known so far: %(price)s since %(time)s.") % {
                "price": price_text(price), "time": format_date_time(moment)}, ())
    changes = tuple(change_text(change, history) for change in price_changes(history, gpu.price_usd_per_hour))
    daily = len(steps) > MAX_STEPS
    if daily:
        steps = daily_closing(steps)
    prices = [price for _moment, price in steps if price is not None]
    lowest, highest = price_text(min(prices, default=None)), price_text(max(prices, default=None))
    current = steps[-1][1]
    middle = history.start + (history.end - history.start) / 2
    layout = step_chart(
        history.start, history.end, steps,
        _("Highest: %(price)s") % {"price": highest}, _("Lowest: %(price)s") % {"price": lowest},
        [_("Now"), price_text(current)],
        [(moment, format_day_month(moment)) for moment in (history.start, middle, history.end)],
    )
    summary = {"start": format_long_date(history.start.date()), "end": format_long_date(history.end.date()),
               "lowest": lowest, "highest": highest, "current": price_text(current)}
    if current is None:
        description = _("From %(start)s to %(end)s the best price per GPU-hour ranged from %(lowest)s to "
                        "%(highest)s; no offer is live now.") % summary
    else:
        description = _("From %(start)s to %(end)s the best price per GPU-hour ranged from %(lowest)s to "
                        "%(highest)s; it is %(current)s now.") % summary
    chart = PriceHistoryChart(
        key="price-history",
        title=_("Best price of the %(gpu)s per GPU-hour, last %(days)s days") % {"gpu": gpu.name, "days": HISTORY_DAYS},
        description=description, rows=price_rows(steps, history), layout=layout, daily=daily,
    )
    note = _("The price changed many times: the chart and its data show the last price of each day.") if daily else ""
    return PriceHistorySection(chart, note, changes)

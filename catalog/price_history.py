"""A GPU's price history: recording its points (``PricePoint``: a price, or none for an offer withdrawn, at a
time, from a source) and reading them back as a step function, where a price holds until the next point.

Recording: the price import records every row that changes a price and every row older than the current
price (history only) in one ``bulk_create``; an admin edit and the launch content record one point each. A
point equal to one already stored (same GPU, time and price) is not stored again, so a file imported twice
adds nothing.

Reading: the points of a window and the one before it (which sets the level the window starts at), in one
query; the price at a moment, and the change from then to now."""
from bisect import bisect_right
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from operator import attrgetter

from django.db.models import Q, Subquery

from caching.content_version import content_changed

from .models import GPU, PricePoint
from .price_events import price_changed

HISTORY_DAYS = 90
CHANGE_DAYS = (7, 30)


def point_key(gpu_id, moment, price):
    return (gpu_id, moment, None if price is None else Decimal(price))


def record_points(points, source):
    """Store ``points``, each (GPU, price or None, time), skipping those already stored: two queries at most,
    whatever their number. Returns the points stored."""
    points = list(points)
    if not points:
        return []
    stored = {
        point_key(*row) for row in PricePoint.objects.filter(
            gpu_id__in={gpu.pk for gpu, _price, _moment in points},
            time__in={moment for _gpu, _price, moment in points},
        ).values_list("gpu_id", "time", "usd_per_hour")
    }
    new, seen = [], set()
    for gpu, price, moment in points:
        key = point_key(gpu.pk, moment, price)
        if key not in stored and key not in seen:
            seen.add(key)
            new.append(PricePoint(gpu=gpu, usd_per_hour=price, time=moment, source=source))
    return PricePoint.objects.bulk_create(new)


def record_point(gpu, price, moment, source):
    return record_points([(gpu, price, moment)], source)


def record_price_changes(updates, source, history=()):
    """The one writer of current prices, for every source (an editor's edit, a price file, any later feed): each
    of ``updates`` (``CurrentPriceChange``, ``old`` as the price was before) becomes its GPU's current price at its
    time; a changed price is a point of the history, as is each of ``history`` (GPU, price or None, time: rows
    older than the current price); the content version moves if anything was written, and the changed prices are
    sent as ``price_changed``, inside the caller's transaction. Returns the updates whose price changed."""
    updates = list(updates)
    for update in updates:
        update.gpu.price_usd_per_hour, update.gpu.price_updated_at = update.new, update.time
        update.gpu.price_source = source
    if updates:
        GPU.objects.bulk_update([update.gpu for update in updates],
                                ["price_usd_per_hour", "price_updated_at", "price_source"])
    changes = [update for update in updates if update.old != update.new]
    stored = record_points([*((change.gpu, change.new, change.time) for change in changes), *history], source)
    if updates or stored:
        content_changed()
    if changes:
        price_changed.send(sender=GPU, changes=changes)
    return changes


def record_current_price(gpu, moment, source):
    """The GPU's current price as a point at ``moment``, unless its history already ends with that price (no
    point and no price: nothing to record)."""
    last = PricePoint.objects.filter(gpu=gpu).order_by("-time", "-pk").values_list("usd_per_hour", flat=True)[:1]
    if next(iter(last), None) == gpu.price_usd_per_hour:
        return []
    return record_point(gpu, gpu.price_usd_per_hour, moment, source)


@dataclass(frozen=True)
class Point:
    time: datetime
    price: Decimal | None  # None: no live offer from this time on


@dataclass(frozen=True)
class History:
    """The points of a window (``start`` to ``end``), oldest first; ``before`` is the last point before the window
    (its price is the level the window starts at), or None."""
    start: datetime
    end: datetime
    before: Point | None
    points: tuple

    def price_at(self, moment):
        """The price holding at ``moment`` (None: no offer, or no point yet); ``moment`` lies in the window."""
        index = bisect_right(self.points, moment, key=attrgetter("time"))
        if index:
            return self.points[index - 1].price
        return self.before.price if self.before else None

    def known_at(self, moment):
        """Whether any point is at or before ``moment``."""
        return self.before is not None or (bool(self.points) and self.points[0].time <= moment)

    def levels(self):
        """Steps from the window's start: (from, price or None), each holding until the next step or the end;
        the first starts at ``start`` with the level before the window. A point a little after the end (the
        feed's clock may run ahead) counts as at the end; of points at one moment the last holds; consecutive
        equal prices are one step."""
        moments = [(self.start, self.before.price)] if self.before else []
        moments += [(min(point.time, self.end), point.price) for point in self.points]
        steps = []
        for moment, price in moments:
            if steps and steps[-1][0] == moment:
                steps.pop()
            if not steps or steps[-1][1] != price:
                steps.append((moment, price))
        return steps


def price_history(gpu, end, days=HISTORY_DAYS):
    """The GPU's points from ``days`` before ``end`` on, with the last one before them: one query, however many
    points the GPU has."""
    start = end - timedelta(days=days)
    last_before = PricePoint.objects.filter(gpu=gpu, time__lt=start).order_by("-time", "-pk").values("pk")[:1]
    rows = PricePoint.objects.filter(gpu=gpu).filter(Q(time__gte=start) | Q(pk=Subquery(last_before)))
    rows = rows.order_by("time", "pk").values_list("time", "usd_per_hour")
    points = [Point(moment, price) for moment, price in rows]
    before = points.pop(0) if points and points[0].time < start else None
    return History(start=start, end=end, before=before, points=tuple(points))


@dataclass(frozen=True)
class Change:
    """How a price moved over ``days``: ``earlier`` the price then (None: no offer or none known), ``current``
    the price now (None: no live offer)."""
    days: int
    earlier: Decimal | None
    current: Decimal | None

    @property
    def amount(self):
        if self.earlier is None or self.current is None:
            return None
        return self.current - self.earlier

    @property
    def share(self):
        """The change as a share of the earlier price (exact)."""
        amount = self.amount
        return None if amount is None else amount / self.earlier


def price_changes(history, current, days=CHANGE_DAYS):
    """The change of the price to ``current`` (the GPU's price now) over each of ``days``; the days lie within
    the history's window."""
    return [Change(span, history.price_at(history.end - timedelta(days=span)), current) for span in days]

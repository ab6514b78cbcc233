"""Demand, for the founders: counts only, aggregated in the database, never an address.

- Renter signups per week (Monday, UTC) by planned workload, by balance currency and by language, each count
  twice: all signups made that week, and those of them confirmed (double opt-in done). An unsubscribe deletes
  the signup (``signups.unsubscribing``), so its interest leaves the figures. One query per table.
- Renter signups by origin: the page that led to the signup (``via``), the GPU chosen there and the language,
  each with its confirmed count; one query. Only what the signup action's link carried: no cookie, no view.
- Confirmed price alerts per GPU against the GPU's best live price today: how many, how far below today's price
  their targets are (in bands), and the median target. One query for the counts and bands, one for the median.
- Supply beside demand, per GPU model: the GPUs the provider applications offer (every application, whatever its
  status, and those of accepted ones), beside the renter signups that chose the model and its confirmed price
  alerts; GPUs the catalogue does not list by the name the application gave; applications sent before there were
  GPU rows (free text) counted as unstructured. Six queries.

The page and its CSV export (``admin.py``) show the same ``Demand``."""
from dataclasses import dataclass
from decimal import Decimal
from statistics import median

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import TruncWeek
from django.utils.translation import gettext_lazy as _

from alerts.models import PriceAlert
from catalog.models import GPU
from providers.models import OfferedGPU, ProviderApplication
from signups.models import Signup

# The dimensions of the signup tables: (key, the Signup field grouped by, its heading).
SIGNUP_DIMENSIONS = (
    ("workload", "workload__key", _("planned workload")),
    ("currency", "currency", _("balance currency")),
    ("language", "language", _("language")),
)
NO_WORKLOAD = ""  # a signup that named no workload


@dataclass(frozen=True)
class Band:
    """Targets at or above ``low`` × today's price and below ``high`` × it (None: no bound)."""
    key: str
    label: str
    low: Decimal | None
    high: Decimal | None

    def condition(self):
        price = F("gpu__price_usd_per_hour")
        parts = Q()
        if self.low is not None:
            parts &= Q(target_usd_per_hour__gte=price * self.low)
        if self.high is not None:
            parts &= Q(target_usd_per_hour__lt=price * self.high)
        return parts


BANDS = (
    Band("at_or_above", _("at or above today’s price"), Decimal(1), None),
    Band("below_0_10", _("0–10 % below"), Decimal("0.9"), Decimal(1)),
    Band("below_10_25", _("10–25 % below"), Decimal("0.75"), Decimal("0.9")),
    Band("below_25_50", _("25–50 % below"), Decimal("0.5"), Decimal("0.75")),
    Band("below_50", _("more than 50 % below"), None, Decimal("0.5")),
)


@dataclass(frozen=True)
class SignupTable:
    key: str
    heading: str
    groups: list  # the values grouped by, in order ("" for no workload)
    weeks: list  # [(week start date, [(confirmed, all) for each group])], newest first
    totals: list  # [(confirmed, all) for each group]


@dataclass(frozen=True)
class AlertRow:
    gpu_slug: str
    gpu_name: str
    price: Decimal | None  # today's best price; None: no live offer (no bands then)
    confirmed: int
    bands: dict  # {band key: count}; empty without a price
    median_target: Decimal


@dataclass(frozen=True)
class OriginRow:
    via: str  # a key of SIGNUP_VIA_PAGES, or "" (the header, a link from elsewhere, before it was recorded)
    gpu_slug: str  # "" for none chosen
    gpu_name: str
    language: str
    confirmed: int
    total: int


@dataclass(frozen=True)
class SupplyRow:
    gpu_slug: str  # "" for a GPU the catalogue does not list
    gpu_name: str
    offered: int  # GPUs offered, every application
    offered_accepted: int  # of them, in accepted applications
    applications: int
    signups: tuple  # (confirmed, all) renter signups that chose the model
    alerts: int  # confirmed price alerts


@dataclass(frozen=True)
class Supply:
    rows: list  # catalogue GPUs first (most offered first), then other GPUs by name
    unstructured_applications: int  # sent as free text, before GPU rows


@dataclass(frozen=True)
class Demand:
    signup_tables: list
    alert_rows: list
    origin_rows: list
    supply: Supply


def signup_table(key, field, heading):
    rows = (
        Signup.objects.annotate(week=TruncWeek("signed_up_at"))
        .values("week", field)
        .annotate(total=Count("pk"), confirmed=Count("pk", filter=Q(confirmed_at__isnull=False)))
        .order_by("-week", field)
    )
    counts = {}  # {week: {group: (confirmed, all)}}
    for row in rows:
        counts.setdefault(row["week"].date(), {})[row[field] or NO_WORKLOAD] = (row["confirmed"], row["total"])
    groups = sorted({group for week in counts.values() for group in week},
                    key=lambda group: (group == NO_WORKLOAD, group))
    weeks = [(week, [by_group.get(group, (0, 0)) for group in groups]) for week, by_group in counts.items()]
    totals = [tuple(sum(cells[index][part] for _week, cells in weeks) for part in (0, 1))
              for index in range(len(groups))]
    return SignupTable(key, heading, groups, weeks, totals)


def alert_rows():
    confirmed = PriceAlert.objects.filter(confirmed_at__isnull=False)
    counts = (
        confirmed.values("gpu_id", "gpu__slug", "gpu__name", "gpu__price_usd_per_hour")
        .annotate(confirmed=Count("pk"), **{band.key: Count("pk", filter=band.condition()) for band in BANDS})
        .order_by("-confirmed", "gpu__name")
    )
    targets = {}
    for gpu_id, target in confirmed.values_list("gpu_id", "target_usd_per_hour"):
        targets.setdefault(gpu_id, []).append(target)
    return [
        AlertRow(
            gpu_slug=row["gpu__slug"], gpu_name=row["gpu__name"], price=row["gpu__price_usd_per_hour"],
            confirmed=row["confirmed"],
            bands={} if row["gpu__price_usd_per_hour"] is None else {band.key: row[band.key] for band in BANDS},
            median_target=median(targets[row["gpu_id"]]),
        )
        for row in counts
    ]


def origin_rows():
    rows = (
        Signup.objects.values("via", "gpu__slug", "gpu__name", "language")
        .annotate(total=Count("pk"), confirmed=Count("pk", filter=Q(confirmed_at__isnull=False)))
        .order_by("-total", "via", "gpu__name", "language")
    )
    return [OriginRow(row["via"], row["gpu__slug"] or "", row["gpu__name"] or "", row["language"],
                      row["confirmed"], row["total"]) for row in rows]


def offered_counts(rows):
    return rows.annotate(offered=Sum("count"), accepted=Sum("count", filter=Q(
        application__status=ProviderApplication.Status.ACCEPTED)), applications=Count("application", distinct=True))


def supply():
    offered = {row["gpu_id"]: row for row in offered_counts(
        OfferedGPU.objects.filter(gpu__isnull=False).values("gpu_id").order_by("gpu_id"))}
    signups = {row["gpu_id"]: (row["confirmed"], row["total"]) for row in (
        Signup.objects.filter(gpu__isnull=False).values("gpu_id").order_by("gpu_id")
        .annotate(total=Count("pk"), confirmed=Count("pk", filter=Q(confirmed_at__isnull=False))))}
    alerts = dict(PriceAlert.objects.filter(confirmed_at__isnull=False).values("gpu_id").order_by("gpu_id")
                  .annotate(confirmed=Count("pk")).values_list("gpu_id", "confirmed"))
    named = {pk: (slug, name) for pk, slug, name in GPU.objects.filter(
        pk__in={*offered, *signups, *alerts}).values_list("pk", "slug", "name")}
    rows = [SupplyRow(slug, name, (offered.get(pk) or {}).get("offered") or 0,
                      (offered.get(pk) or {}).get("accepted") or 0, (offered.get(pk) or {}).get("applications") or 0,
                      signups.get(pk, (0, 0)), alerts.get(pk, 0)) for pk, (slug, name) in named.items()]
    rows.sort(key=lambda row: (-row.offered, -row.signups[1], -row.alerts, row.gpu_name))
    others = offered_counts(OfferedGPU.objects.filter(gpu__isnull=True).values("name").order_by("name"))
    rows += [SupplyRow("", row["name"], row["offered"], row["accepted"] or 0, row["applications"], (0, 0), 0)
             for row in others]
    unstructured = ProviderApplication.objects.filter(offered_gpus__isnull=True).exclude(gpus="").count()
    return Supply(rows, unstructured)


def demand():
    return Demand([signup_table(*dimension) for dimension in SIGNUP_DIMENSIONS], alert_rows(), origin_rows(),
                  supply())


def csv_rows(figures):
    """The same figures as the page, one per row: (table, week, group, measure, value). No address, nothing
    about a person: counts, prices and medians."""
    yield ("table", "week", "group", "measure", "value")
    for table in figures.signup_tables:
        name = f"signups_by_{table.key}"
        for week, cells in [*((week.isoformat(), cells) for week, cells in table.weeks), ("total", table.totals)]:
            for group, (confirmed, total) in zip(table.groups, cells, strict=True):
                yield (name, week, group or "none", "confirmed", confirmed)
                yield (name, week, group or "none", "all", total)
    for row in figures.alert_rows:
        yield ("price_alerts", "", row.gpu_slug, "confirmed", row.confirmed)
        yield ("price_alerts", "", row.gpu_slug, "price_usd_per_hour_today", "" if row.price is None else row.price)
        for band in BANDS:
            if row.bands:
                yield ("price_alerts", "", row.gpu_slug, f"targets_{band.key}", row.bands[band.key])
        yield ("price_alerts", "", row.gpu_slug, "median_target_usd_per_hour", row.median_target)
    for row in figures.origin_rows:
        group = f"via={row.via or 'none'} gpu={row.gpu_slug or 'none'} language={row.language}"
        yield ("signups_by_origin", "total", group, "confirmed", row.confirmed)
        yield ("signups_by_origin", "total", group, "all", row.total)
    for row in figures.supply.rows:
        group = row.gpu_slug or f"other={row.gpu_name}"
        yield ("supply_by_gpu", "total", group, "gpus_offered", row.offered)
        yield ("supply_by_gpu", "total", group, "gpus_offered_accepted", row.offered_accepted)
        yield ("supply_by_gpu", "total", group, "applications", row.applications)
        yield ("supply_by_gpu", "total", group, "signups_confirmed", row.signups[0])
        yield ("supply_by_gpu", "total", group, "signups_all", row.signups[1])
        yield ("supply_by_gpu", "total", group, "price_alerts_confirmed", row.alerts)
    yield ("supply_by_gpu", "total", "unstructured", "applications", figures.supply.unstructured_applications)

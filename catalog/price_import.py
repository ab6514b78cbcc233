"""Import a price file from the market feed: CSV or JSON rows of (GPU slug, USD per GPU-hour, time).

Every row is validated first; the file is applied all or nothing, in one transaction, and the report
says what changed, what was kept and what was refused.

- A price is more than 0 and at most MAX_PRICE_USD_PER_HOUR. A file only sets prices: "no live offer"
  is an empty price, which an editor sets on the GPU's admin page; an empty price in a file is refused.
- A time has a time zone and lies between EARLIEST_PRICE_TIME and a few minutes from now (the feed's
  clock may run a little ahead of ours); anything else is an error in the file and refuses it.
- A row older than the GPU's current price (its ``price_updated_at``) is not an error: that GPU keeps
  its newer price, the row is recorded in the GPU's price history only, and the report says so; the
  file's other rows apply. A row as old as the current price applies (the same file imported twice gives
  the same prices, and adds no point to the history).
- Every row that changes a price is recorded in the history (``catalog.price_history``), and the changes
  of current prices are sent once, as ``catalog.price_events.price_changed``, inside the transaction.
- A file that cannot be read (not UTF-8, neither CSV nor JSON, or JSON nested too deeply to parse)
  is refused as a whole with a message, never with an error page."""
import csv
import io
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext as _

from core.content_version import content_changed

from .models import CLOCK_DIFFERENCE_ALLOWED, EARLIEST_PRICE_TIME, GPU, PricePoint
from .price_events import CurrentPriceChange, price_changed
from .price_history import record_points

MAX_PRICE_USD_PER_HOUR = Decimal(1000)
FIELDS = ("gpu", "usd_per_hour", "time")


class PriceFileError(ValueError):
    """The file as a whole cannot be read; the message says why, in the active language."""


@dataclass
class PriceChange:
    slug: str
    old: Decimal | None
    new: Decimal
    time: datetime


@dataclass
class KeptRow:
    """A row older than the GPU's current price: not applied, recorded in the history only."""
    number: int
    slug: str
    time: datetime

    @property
    def reason(self):
        return _("older than the current price: recorded as history only")


@dataclass
class ImportReport:
    changes: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    kept: list = field(default_factory=list)  # KeptRow
    refused: list = field(default_factory=list)  # (row number, reason)
    applied: bool = False


def read_rows(content, filename=""):
    """Rows as dicts with the keys gpu, usd_per_hour and time, from CSV or JSON text; PriceFileError
    when the file cannot be read."""
    unreadable = PriceFileError(_("the file is neither valid CSV nor valid JSON"))
    try:
        text = content.decode("utf-8-sig") if isinstance(content, bytes) else content
    except UnicodeDecodeError:
        raise unreadable from None
    if filename.lower().endswith(".json") or text.lstrip().startswith(("[", "{")):
        try:
            data = json.loads(text)
        except RecursionError:
            raise PriceFileError(_("the JSON is nested too deeply: a price file is a list of objects with gpu, "
                                   "usd_per_hour and time")) from None
        except ValueError:  # not JSON, or a number too long to convert
            raise unreadable from None
        if isinstance(data, dict):
            data = data.get("prices", [])
        if not isinstance(data, list):
            raise PriceFileError(_("A JSON price file is a list of objects with gpu, usd_per_hour and time."))
        return [row if isinstance(row, dict) else {} for row in data]
    try:
        reader = csv.DictReader(io.StringIO(text))
        if any(name not in (reader.fieldnames or []) for name in FIELDS):
            raise PriceFileError(_("The CSV header must name the columns gpu, usd_per_hour and time."))
        return list(reader)
    except csv.Error:
        raise unreadable from None


def cell(row, name):
    """A field's text ("" when missing); None when it is neither text nor a number (a JSON list or object,
    which could be nested deep enough to break anything that walks it)."""
    value = row.get(name)
    if value is None:
        return ""
    return str(value).strip() if isinstance(value, (str, int, float)) else None


def parse_time(text):
    """An ISO 8601 time with a time zone, as written (not converted: 0001-01-01T00:00+14:00 has no UTC)."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError
    return moment


def validate(rows, gpus_by_slug, now):
    """Each row's (row number, slug, price, UTC time), or the reason it is refused, with its 1-based row number."""
    valid, refused, seen = [], [], set()
    for number, row in enumerate(rows, start=1):
        slug = cell(row, "gpu") or ""
        if slug not in gpus_by_slug:
            refused.append((number, _("unknown GPU “%(slug)s”") % {"slug": slug}))
            continue
        if slug in seen:
            refused.append((number, _("GPU “%(slug)s” appears twice") % {"slug": slug}))
            continue
        text = cell(row, "usd_per_hour")
        if text == "":
            refused.append((number, _("no price: to withdraw an offer, empty the GPU’s price in the admin")))
            continue
        try:
            price = Decimal(text)
            if not price.is_finite():
                raise InvalidOperation
        except (InvalidOperation, TypeError):
            refused.append((number, _("the price is not a number")))
            continue
        if not 0 < price <= MAX_PRICE_USD_PER_HOUR:
            refused.append((number, _("the price must be more than 0 and at most %(max)s USD per hour") % {
                "max": MAX_PRICE_USD_PER_HOUR}))
            continue
        if price != price.quantize(Decimal("0.01")):
            refused.append((number, _("the price has more than two decimals")))
            continue
        try:
            moment = parse_time(cell(row, "time"))
        except (TypeError, ValueError):
            refused.append((number, _("the time is not an ISO 8601 time with a time zone")))
            continue
        if moment < EARLIEST_PRICE_TIME:
            refused.append((number, _("the time is before %(earliest)s") % {
                "earliest": EARLIEST_PRICE_TIME.date().isoformat()}))
            continue
        if moment > now + CLOCK_DIFFERENCE_ALLOWED:
            refused.append((number, _("the time is more than %(minutes)s minutes in the future") % {
                "minutes": int(CLOCK_DIFFERENCE_ALLOWED.total_seconds() // 60)}))
            continue
        seen.add(slug)
        valid.append((number, slug, price, moment.astimezone(UTC)))
    return valid, refused


def import_prices(content, filename="", *, now=None):
    """Validate the whole file; apply it only if no row is refused (rows older than the current price
    are recorded as history, not applied)."""
    now = now or datetime.now(UTC)
    report = ImportReport()
    try:
        rows = read_rows(content, filename)
    except PriceFileError as error:
        report.refused.append((0, str(error)))
        return report
    if not rows:
        report.refused.append((0, _("the file has no rows")))
        return report
    with transaction.atomic():
        gpus_by_slug = {gpu.slug: gpu for gpu in GPU.objects.select_for_update()}
        valid, report.refused = validate(rows, gpus_by_slug, now)
        if report.refused:
            return report
        changed, points, events = [], [], []
        for number, slug, price, moment in valid:
            gpu = gpus_by_slug[slug]
            if gpu.price_updated_at is not None and moment < gpu.price_updated_at:
                report.kept.append(KeptRow(number, slug, moment))
                points.append((gpu, price, moment))
                continue
            if gpu.price_usd_per_hour == price:
                report.unchanged.append(slug)
            else:
                report.changes.append(PriceChange(slug, gpu.price_usd_per_hour, price, moment))
                events.append(CurrentPriceChange(gpu, gpu.price_usd_per_hour, price, moment, PricePoint.Source.IMPORT))
                points.append((gpu, price, moment))
            gpu.price_usd_per_hour, gpu.price_updated_at = price, moment
            changed.append(gpu)
        if changed:
            GPU.objects.bulk_update(changed, ["price_usd_per_hour", "price_updated_at"])
        if record_points(points, PricePoint.Source.IMPORT) or changed:
            content_changed()
        if events:
            price_changed.send(sender=GPU, changes=events)
        report.applied = True
    return report

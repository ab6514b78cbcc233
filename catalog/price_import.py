"""Import a price file from the market feed: CSV or JSON rows of (GPU slug, USD per GPU-hour, time).

Every row is validated first; the file is applied all or nothing, in one transaction, and the report
says what changed and what was refused."""
import csv
import io
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext as _

from core.content_version import content_changed

from .models import GPU

MAX_PRICE_USD_PER_HOUR = Decimal("1000")
FIELDS = ("gpu", "usd_per_hour", "time")


@dataclass
class PriceChange:
    slug: str
    old: Decimal | None
    new: Decimal
    time: datetime


@dataclass
class ImportReport:
    changes: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    refused: list = field(default_factory=list)  # (row number, reason)
    applied: bool = False


def read_rows(content, filename=""):
    """Rows as dicts with the keys gpu, usd_per_hour and time, from CSV or JSON text."""
    text = content.decode("utf-8-sig") if isinstance(content, bytes) else content
    if filename.lower().endswith(".json") or text.lstrip().startswith(("[", "{")):
        data = json.loads(text)
        if isinstance(data, dict):
            data = data.get("prices", [])
        if not isinstance(data, list):
            raise ValueError(_("A JSON price file is a list of objects with gpu, usd_per_hour and time."))
        return [row if isinstance(row, dict) else {} for row in data]
    reader = csv.DictReader(io.StringIO(text))
    missing = [name for name in FIELDS if name not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(_("The CSV header must name the columns gpu, usd_per_hour and time."))
    return list(reader)


def parse_time(value):
    moment = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError
    return moment.astimezone(timezone.utc)


def validate(rows, gpus_by_slug, now):
    """Each row's (slug, price, time), or the reason it is refused, with its 1-based row number."""
    valid, refused, seen = [], [], set()
    for number, row in enumerate(rows, start=1):
        slug = str(row.get("gpu", "")).strip()
        if slug not in gpus_by_slug:
            refused.append((number, _("unknown GPU “%(slug)s”") % {"slug": slug}))
            continue
        if slug in seen:
            refused.append((number, _("GPU “%(slug)s” appears twice") % {"slug": slug}))
            continue
        try:
            price = Decimal(str(row.get("usd_per_hour", "")).strip())
            if not price.is_finite():
                raise InvalidOperation
        except InvalidOperation:
            refused.append((number, _("the price is not a number")))
            continue
        if price < 0 or price > MAX_PRICE_USD_PER_HOUR:
            refused.append((number, _("the price must be between 0 and %(max)s USD per hour") % {"max": MAX_PRICE_USD_PER_HOUR}))
            continue
        if price != price.quantize(Decimal("0.01")):
            refused.append((number, _("the price has more than two decimals")))
            continue
        try:
            moment = parse_time(row.get("time", ""))
        except (TypeError, ValueError):
            refused.append((number, _("the time is not an ISO 8601 time with a time zone")))
            continue
        if moment > now:
            refused.append((number, _("the time is in the future")))
            continue
        seen.add(slug)
        valid.append((slug, price, moment))
    return valid, refused


def import_prices(content, filename="", *, now=None):
    """Validate the whole file; apply it only if no row is refused."""
    now = now or datetime.now(timezone.utc)
    report = ImportReport()
    try:
        rows = read_rows(content, filename)
    except (json.JSONDecodeError, UnicodeDecodeError, csv.Error):
        report.refused.append((0, _("the file is neither valid CSV nor valid JSON")))
        return report
    except ValueError as error:
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
        changed = []
        for slug, price, moment in valid:
            gpu = gpus_by_slug[slug]
            if gpu.price_usd_per_hour == price:
                report.unchanged.append(slug)
            else:
                report.changes.append(PriceChange(slug, gpu.price_usd_per_hour, price, moment))
            gpu.price_usd_per_hour, gpu.price_updated_at = price, moment
            changed.append(gpu)
        GPU.objects.bulk_update(changed, ["price_usd_per_hour", "price_updated_at"])
        content_changed()
        report.applied = True
    return report

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
  is refused as a whole with a message, never with an error page; so is a file larger than
  ``PRICE_IMPORT_MAX_BYTES`` (``PRICE_IMPORT_MAX_JSON_BYTES`` for JSON), a CSV header with a column other than
  gpu, usd_per_hour and time (named), and a malformed CSV line (named by its line number).

A CSV file is read as a stream: the csv reader runs over the open file, line by line, and the import keeps the
valid rows (at most one per GPU) and the first ``MAX_REFUSALS_LISTED`` refusals, never the file or a list of
its rows, so its peak memory stays below twice the file's size (``make bench-import``). A JSON file is parsed whole,
hence its lower cap."""
import csv
import io
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from catalog.models import CLOCK_DIFFERENCE_ALLOWED, EARLIEST_PRICE_TIME, GPU, PricePoint
from catalog.price_events import CurrentPriceChange
from catalog.price_history import record_price_changes

MAX_PRICE_USD_PER_HOUR = Decimal(1000)
FIELDS = ("gpu", "usd_per_hour", "time")
# A price row is a few dozen characters: a longer line is no price row, and is refused before it is kept.
MAX_LINE_CHARS = 10_000
# Refusals listed one by one; the rest are counted.
MAX_REFUSALS_LISTED = 100


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
    refused: list = field(default_factory=list)  # (row number, reason); 0: the file as a whole
    applied: bool = False
    refusals_not_listed: int = 0

    def refuse(self, number, reason, **values):
        """``reason``: a message marked with ``gettext_noop`` (formatted with ``values``), or a function that
        gives the text. Translated only if the refusal is listed: a file of a million bad rows would otherwise
        spend most of its time translating reasons nobody reads."""
        if len(self.refused) >= MAX_REFUSALS_LISTED:
            self.refusals_not_listed += 1
        elif callable(reason):
            self.refused.append((number, reason()))
        else:
            self.refused.append((number, _(reason) % values if values else _(reason)))

    def close_refusals(self):
        """The count of the refusals beyond the listed ones, as the list's last line."""
        if self.refusals_not_listed:
            count = self.refusals_not_listed
            self.refused.append((0, ngettext("%(count)s more row refused, not listed",
                                             "%(count)s more rows refused, not listed", count) % {"count": count}))
            self.refusals_not_listed = 0


def binary_file(source):
    """The price file as a binary file open for reading, from its bytes, its text or itself (an open file, an
    upload)."""
    if isinstance(source, str):
        source = source.encode()
    return io.BytesIO(source) if isinstance(source, bytes) else source


def file_size(binary):
    position = binary.tell()
    size = binary.seek(0, io.SEEK_END)
    binary.seek(position)
    return size


def too_large(limit, what):
    return PriceFileError(what % {"limit": filesizeformat(limit)})


def looks_like_json(binary, filename):
    """A .json name, or a first character (after a byte order mark and white space) that opens JSON."""
    position = binary.tell()
    head = binary.read(4096)
    binary.seek(position)
    return filename.lower().endswith(".json") or \
        head.decode("utf-8-sig", errors="ignore").lstrip().startswith(("[", "{"))


def read_rows(binary, filename=""):
    """(row number, dict) for each row of a CSV or JSON price file, as they are read; PriceFileError when the
    file cannot be read (raised when the reading gets there, for a CSV file read as a stream)."""
    size = file_size(binary)
    if size > settings.PRICE_IMPORT_MAX_BYTES:
        raise too_large(settings.PRICE_IMPORT_MAX_BYTES, _("the file is larger than %(limit)s, the most an import "
                                                           "reads: split it into smaller files"))
    if looks_like_json(binary, filename):
        if size > settings.PRICE_IMPORT_MAX_JSON_BYTES:
            raise too_large(settings.PRICE_IMPORT_MAX_JSON_BYTES, _(
                "a JSON price file is read whole, so it may have at most %(limit)s: send a larger file as CSV"))
        return enumerate(json_rows(binary), start=1)
    return csv_rows(binary)


def unreadable():
    return PriceFileError(_("the file is neither valid CSV nor valid JSON"))


def json_rows(binary):
    try:
        data = json.loads(binary.read().decode("utf-8-sig"))
    except RecursionError:
        raise PriceFileError(_("the JSON is nested too deeply: a price file is a list of objects with gpu, "
                               "usd_per_hour and time")) from None
    except ValueError:  # not UTF-8, not JSON, or a number too long to convert
        raise unreadable() from None
    if isinstance(data, dict):
        data = data.get("prices", [])
    if not isinstance(data, list):
        raise PriceFileError(_("A JSON price file is a list of objects with gpu, usd_per_hour and time."))
    return [(UnknownKeys(row) if any(key not in FIELDS for key in row) else row) if isinstance(row, dict) else {}
            for row in data]


def bounded_lines(text):
    """The lines of ``text``, none kept longer than ``MAX_LINE_CHARS`` (a file without line breaks is not
    read into memory whole)."""
    number = 0
    while line := text.readline(MAX_LINE_CHARS + 1):
        number += 1
        if len(line) > MAX_LINE_CHARS:
            raise PriceFileError(_("line %(line)s is longer than %(limit)s characters: no price row is") % {
                "line": number, "limit": MAX_LINE_CHARS})
        yield line


def malformed_line(error, line):
    """The message for a line the csv reader refuses (``csv.Error``), naming it."""
    detail = str(error)
    if "expected after" in detail or "end of data" in detail:
        return PriceFileError(_("line %(line)s has a malformed quote (a quoted field that is not closed, or text "
                                "after a closing quote): nothing was imported") % {"line": line})
    return PriceFileError(_("line %(line)s is malformed CSV (%(detail)s): nothing was imported") % {
        "line": line, "detail": detail})


def csv_rows(binary):
    """The rows of a CSV file, read as a stream: the header is checked first (the three columns, nothing
    else), then each row is given as it is read."""
    text = io.TextIOWrapper(binary, encoding="utf-8-sig", newline="")
    reader = csv.reader(bounded_lines(text), strict=True)

    def next_row():
        line = reader.line_num + 1
        try:
            return next(reader)
        except csv.Error as error:
            raise malformed_line(error, line) from None
        except UnicodeDecodeError:
            raise unreadable() from None

    try:
        header = [name.strip() for name in next_row()]
    except StopIteration:
        raise PriceFileError(_("the file has no rows")) from None
    if any(name not in header for name in FIELDS):
        raise PriceFileError(_("The CSV header must name the columns gpu, usd_per_hour and time."))
    unknown = [name for name in header if name not in FIELDS]
    if unknown:
        raise PriceFileError(_("unknown columns: %(names)s (a price file has the columns gpu, usd_per_hour and "
                               "time only)") % {"names": ", ".join(f"“{name}”" for name in unknown)})
    if len(header) != len(FIELDS):
        raise PriceFileError(_("a column appears twice in the CSV header"))
    number = 0
    while True:
        try:
            row = next_row()
        except StopIteration:
            return
        if not row:  # a blank line
            continue
        number += 1
        yield number, dict(zip(header, row, strict=True)) if len(row) == len(header) else FieldCount(len(row))


class FieldCount:
    """A CSV row with more or fewer fields than its header has columns: refused as such."""

    def __init__(self, count):
        self.count = count

    def reason(self):
        return ngettext("the row has %(count)s field, the header %(columns)s columns",
                        "the row has %(count)s fields, the header %(columns)s columns", self.count) % {
            "count": self.count, "columns": len(FIELDS)}


class UnknownKeys:
    """A JSON row with keys other than the three: refused, naming them."""

    def __init__(self, row):
        self.names = sorted(str(key) for key in row if key not in FIELDS)

    def reason(self):
        return _("unknown keys: %(names)s (a price row has gpu, usd_per_hour and time only)") % {
            "names": ", ".join(f"“{name}”" for name in self.names)}


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


def validate(rows, known_slugs, now, report):
    """Each valid row's (row number, slug, price, UTC time), as a list (at most one per GPU); the others are
    refused in ``report`` with their row number. ``rows`` is read once, as a stream."""
    valid, seen = [], set()
    for number, row in rows:
        if not isinstance(row, dict):  # FieldCount, UnknownKeys
            report.refuse(number, row.reason)
            continue
        slug = cell(row, "gpu") or ""
        if slug not in known_slugs:
            report.refuse(number, gettext_noop("unknown GPU “%(slug)s”"), slug=slug)
            continue
        if slug in seen:
            report.refuse(number, gettext_noop("GPU “%(slug)s” appears twice"), slug=slug)
            continue
        text = cell(row, "usd_per_hour")
        if text == "":
            report.refuse(number, gettext_noop("no price: to withdraw an offer, empty the GPU’s price in the admin"))
            continue
        try:
            price = Decimal(text)
            if not price.is_finite():
                raise InvalidOperation
        except (InvalidOperation, TypeError):
            report.refuse(number, gettext_noop("the price is not a number"))
            continue
        if not 0 < price <= MAX_PRICE_USD_PER_HOUR:
            report.refuse(number, gettext_noop("the price must be more than 0 and at most %(max)s USD per hour"),
                          max=MAX_PRICE_USD_PER_HOUR)
            continue
        if price != price.quantize(Decimal("0.01")):
            report.refuse(number, gettext_noop("the price has more than two decimals"))
            continue
        try:
            moment = parse_time(cell(row, "time"))
        except (TypeError, ValueError):
            report.refuse(number, gettext_noop("the time is not an ISO 8601 time with a time zone"))
            continue
        if moment < EARLIEST_PRICE_TIME:
            report.refuse(number, gettext_noop("the time is before %(earliest)s"),
                          earliest=EARLIEST_PRICE_TIME.date().isoformat())
            continue
        if moment > now + CLOCK_DIFFERENCE_ALLOWED:
            report.refuse(number, gettext_noop("the time is more than %(minutes)s minutes in the future"),
                          minutes=int(CLOCK_DIFFERENCE_ALLOWED.total_seconds() // 60))
            continue
        seen.add(slug)
        valid.append((number, slug, price, moment.astimezone(UTC)))
    return valid


def import_prices(source, filename="", *, now=None):
    """Validate the whole file (its bytes, its text, or the binary file itself, read as a stream); apply it
    only if no row is refused (rows older than the current price are recorded as history, not applied). The
    rows are checked before any GPU is locked: the transaction lasts as long as the writes, not the reading."""
    now = now or datetime.now(UTC)
    report = ImportReport()
    known_slugs = set(GPU.objects.values_list("slug", flat=True))
    valid = []
    try:
        valid = validate(read_rows(binary_file(source), filename), known_slugs, now, report)
    except PriceFileError as error:
        report.refused.append((0, str(error)))
    report.close_refusals()
    if not valid and not report.refused:
        report.refused.append((0, _("the file has no rows")))
    if report.refused:
        return report
    with transaction.atomic():
        gpus_by_slug = GPU.objects.select_for_update().in_bulk([slug for _number, slug, _price, _time in valid],
                                                               field_name="slug")
        for number, slug, _price, _time in valid:
            if slug not in gpus_by_slug:  # deleted while the file was read
                report.refused.append((number, _("unknown GPU “%(slug)s”") % {"slug": slug}))
        if report.refused:
            return report
        updates, history = [], []
        for number, slug, price, moment in valid:
            gpu = gpus_by_slug[slug]
            if gpu.price_updated_at is not None and moment < gpu.price_updated_at:
                report.kept.append(KeptRow(number, slug, moment))
                history.append((gpu, price, moment))
                continue
            if gpu.price_usd_per_hour == price:
                report.unchanged.append(slug)
            else:
                report.changes.append(PriceChange(slug, gpu.price_usd_per_hour, price, moment))
            updates.append(CurrentPriceChange(gpu, gpu.price_usd_per_hour, price, moment, PricePoint.Source.IMPORT))
        record_price_changes(updates, PricePoint.Source.IMPORT, history)
        report.applied = True
    return report

"""How fresh a price is, as pages say it: an imported or edited price was "updated" at a time; a launch price
carries the date the launch data gives it ("launch price, as of …"), never the time the data was loaded."""
from dataclasses import dataclass
from datetime import UTC, date, datetime

from .models import PriceSource


@dataclass(frozen=True)
class Freshness:
    updated: datetime | None  # the newest imported or edited price's time
    launch_date: date | None  # the launch data's date, when no price shown was imported or edited


def launch_date(moment):
    """The launch data gives a date; it is stored as midnight UTC."""
    return moment.astimezone(UTC).date()


def prices_freshness(gpus):
    """The freshness of the prices of ``gpus`` (a table's): the newest update, else the launch data's date; None
    when none has a price time."""
    timed = [gpu for gpu in gpus if gpu.price_updated_at is not None]
    updated = [gpu.price_updated_at for gpu in timed if gpu.price_source != PriceSource.LAUNCH]
    if updated:
        return Freshness(updated=max(updated), launch_date=None)
    if timed:
        return Freshness(updated=None, launch_date=launch_date(max(gpu.price_updated_at for gpu in timed)))
    return None

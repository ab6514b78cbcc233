"""The event the apps above the catalogue listen to when a GPU's current price changes (price alerts).

``price_changed`` is sent with ``changes``, a list of ``CurrentPriceChange``, inside the transaction that
saved the new current prices (a receiver's writes, such as mails queued in the outbox, commit or roll back
with the prices). Rows of a price file older than the current price are history only: they change no
current price and are not sent."""
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.dispatch import Signal

price_changed = Signal()


@dataclass(frozen=True)
class CurrentPriceChange:
    gpu: object  # the saved catalog.models.GPU
    old: Decimal | None  # None: there was no live offer
    new: Decimal | None  # None: the offer was withdrawn
    time: datetime
    source: str  # a PricePoint.Source value

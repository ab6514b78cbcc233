"""What a provider's GPUs would earn in a month at today's best offer: pure and exact (``Decimal``), no Django.

gross = best offer (USD per GPU-hour) × GPUs × hours in a month × utilization
energy = maximum power (kW) × GPUs × PUE × hours in a month × utilization, in kWh
energy cost = energy × electricity price (USD per kWh)
margin = gross − energy cost, before the platform's fee

Assumptions, each stated on the page: a month is 8,760 h ÷ 12 = 730 h; a GPU draws its maximum power (its spec,
``max_power_w``) while rented and nothing while idle; the rest of the server and the cooling count only through
the PUE (1 when none is given)."""
from dataclasses import dataclass
from decimal import Decimal

HOURS_PER_YEAR = Decimal(8760)
HOURS_PER_MONTH = HOURS_PER_YEAR / 12  # 730
# Without a PUE, only the GPUs' own power is counted.
DEFAULT_PUE = Decimal(1)
# Utilization when the visitor gives none: every hour rented, a ceiling and labelled as one.
CEILING_UTILIZATION = Decimal(1)
CENT = Decimal("0.01")


@dataclass(frozen=True)
class MonthlyEarnings:
    gpu_hours: Decimal  # GPU-hours rented in a month
    gross_usd: Decimal  # revenue at the offer, before the platform's fee
    energy_kwh: Decimal | None  # None: the GPU's power is not published
    energy_cost_usd: Decimal | None  # None: no electricity price given, or no power
    margin_usd: Decimal | None  # gross − energy cost; None without an energy cost


def monthly_earnings(*, usd_per_gpu_hour, gpu_count, utilization=CEILING_UTILIZATION, max_power_w=None,
                     usd_per_kwh=None, pue=None):
    """A month's figures for ``gpu_count`` GPUs rented ``utilization`` (a share, 0 < u ≤ 1) of the time at
    ``usd_per_gpu_hour``; with the GPU's ``max_power_w`` the energy they draw, and with ``usd_per_kwh`` its cost
    and the margin. Amounts in USD, each rounded to the cent (half up) once."""
    usd_per_gpu_hour, utilization = Decimal(usd_per_gpu_hour), Decimal(utilization)
    if usd_per_gpu_hour <= 0:
        raise ValueError("An offer is above zero.")
    if gpu_count < 1:
        raise ValueError("At least one GPU.")
    if not 0 < utilization <= 1:
        raise ValueError("Utilization is a share above 0 and at most 1.")
    pue = DEFAULT_PUE if pue is None else Decimal(pue)
    if pue < 1:
        raise ValueError("A PUE is at least 1.")
    gpu_hours = HOURS_PER_MONTH * gpu_count * utilization
    gross = usd_per_gpu_hour * gpu_hours
    energy = cost = margin = None
    if max_power_w:
        energy = Decimal(max_power_w) / 1000 * pue * gpu_hours
        if usd_per_kwh is not None:
            if Decimal(usd_per_kwh) < 0:
                raise ValueError("An electricity price is not negative.")
            cost = cents(energy * Decimal(usd_per_kwh))
            margin = cents(gross) - cost  # of the amounts shown: the page's figures add up
    return MonthlyEarnings(gpu_hours=gpu_hours, gross_usd=cents(gross), energy_kwh=energy, energy_cost_usd=cost,
                           margin_usd=margin)


def cents(amount):
    return amount.quantize(CENT, rounding="ROUND_HALF_UP")

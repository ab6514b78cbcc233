"""The provider page's arithmetic (``providers.earnings``), pure and exact: each figure against one worked out
here by hand, the assumptions (730 h a month, utilization as a share, PUE 1 by default, power only while rented),
the rounding to the cent, and the inputs it refuses."""
from decimal import Decimal

import pytest

from providers.earnings import HOURS_PER_MONTH, MonthlyEarnings, monthly_earnings


def test_a_month_is_8760_hours_over_12():
    assert Decimal(730) == HOURS_PER_MONTH


def test_gross_is_offer_times_gpus_times_hours_at_the_ceiling_by_default():
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal("2.88"), gpu_count=8)
    assert earnings == MonthlyEarnings(gpu_hours=Decimal(5840), gross_usd=Decimal("16819.20"), energy_kwh=None,
                                       energy_cost_usd=None, margin_usd=None)


def test_utilization_scales_the_hours_and_the_revenue():
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal("2.88"), gpu_count=8, utilization=Decimal("0.6"))
    assert earnings.gpu_hours == Decimal("3504.0")
    assert earnings.gross_usd == Decimal("10091.52")


def test_energy_is_power_times_gpus_times_pue_times_rented_hours_and_its_cost_the_electricity_price():
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal("2.88"), gpu_count=8, utilization=Decimal("0.6"),
                                max_power_w=700, usd_per_kwh=Decimal("0.15"), pue=Decimal("1.3"))
    # 0.7 kW × 8 × 1.3 × 730 h × 0.6 = 3188.64 kWh; × 0.15 = 478.296 → 478.30
    assert earnings.energy_kwh == Decimal("3188.64")
    assert earnings.energy_cost_usd == Decimal("478.30")
    assert earnings.margin_usd == Decimal("10091.52") - Decimal("478.30")


def test_without_a_pue_only_the_gpus_own_power_counts():
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal(1), gpu_count=1, max_power_w=1000,
                                usd_per_kwh=Decimal("0.10"))
    assert earnings.energy_kwh == Decimal(730)
    assert (earnings.energy_cost_usd, earnings.margin_usd) == (Decimal("73.00"), Decimal("657.00"))


def test_energy_without_an_electricity_price_has_no_cost_and_no_margin():
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal(1), gpu_count=2, max_power_w=350, pue=Decimal("1.5"))
    assert earnings.energy_kwh == Decimal("766.5")
    assert (earnings.energy_cost_usd, earnings.margin_usd) == (None, None)


@pytest.mark.parametrize("max_power_w", [None, 0])
def test_a_gpu_without_a_published_power_has_no_energy_figure(max_power_w):
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal(1), gpu_count=1, max_power_w=max_power_w,
                                usd_per_kwh=Decimal("0.2"))
    assert (earnings.energy_kwh, earnings.energy_cost_usd, earnings.margin_usd) == (None, None, None)


def test_free_electricity_leaves_the_whole_revenue_as_margin():
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal("0.01"), gpu_count=1, max_power_w=450,
                                usd_per_kwh=Decimal(0))
    assert (earnings.energy_cost_usd, earnings.margin_usd) == (Decimal("0.00"), earnings.gross_usd)


def test_amounts_round_half_up_to_the_cent_once_and_the_margin_is_of_the_amounts_shown():
    # 0.01 × 730 × 0.5 = 3.65 exactly; 0.013 × 730 × 0.5 = 4.745 → 4.75 (half up, not to even)
    assert monthly_earnings(usd_per_gpu_hour=Decimal("0.013"), gpu_count=1,
                            utilization=Decimal("0.5")).gross_usd == Decimal("4.75")
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal("0.013"), gpu_count=1, utilization=Decimal("0.5"),
                                max_power_w=1, usd_per_kwh=Decimal("0.013"))
    # 0.001 kW × 365 h = 0.365 kWh × 0.013 = 0.004745 → 0.00
    assert earnings.energy_cost_usd == Decimal("0.00")
    assert earnings.margin_usd == earnings.gross_usd - earnings.energy_cost_usd


def test_exact_for_large_fleets():
    earnings = monthly_earnings(usd_per_gpu_hour=Decimal("8.99"), gpu_count=100_000)
    assert earnings.gross_usd == Decimal("656270000.00")


@pytest.mark.parametrize("arguments", [
    {"usd_per_gpu_hour": Decimal(0), "gpu_count": 1},
    {"usd_per_gpu_hour": Decimal(-1), "gpu_count": 1},
    {"usd_per_gpu_hour": Decimal(1), "gpu_count": 0},
    {"usd_per_gpu_hour": Decimal(1), "gpu_count": 1, "utilization": Decimal(0)},
    {"usd_per_gpu_hour": Decimal(1), "gpu_count": 1, "utilization": Decimal("1.01")},
    {"usd_per_gpu_hour": Decimal(1), "gpu_count": 1, "pue": Decimal("0.9")},
    {"usd_per_gpu_hour": Decimal(1), "gpu_count": 1, "max_power_w": 300, "usd_per_kwh": Decimal("-0.1")},
])
def test_impossible_inputs_are_refused(arguments):
    with pytest.raises(ValueError):
        monthly_earnings(**arguments)

"""What the provider page shows, read and formatted for the active language: the estimate's figures, today's
offers per GPU, and the editors' sections (what qualifies, onboarding, fee and payouts) or, until they are written,
the line saying they are announced before launch."""
from decimal import Decimal

from django.utils.translation import gettext as _

from core.formatting import babel_locale, format_number, format_share, format_usd, number_pattern

from .earnings import CEILING_UTILIZATION, DEFAULT_PUE, HOURS_PER_MONTH, HOURS_PER_YEAR, monthly_earnings
from .models import ProviderPageText


def format_utilization(share):
    """A share as the language writes a percentage, every decimal the visitor typed kept: "62,5 %", "62.5%"."""
    locale = babel_locale()
    places = max(0, -(share * 100).normalize().as_tuple().exponent)
    pattern = locale.percent_formats[None].pattern
    if places:
        pattern = pattern.replace("#,##0", "#,##0." + "0" * places, 1)
    return number_pattern(pattern).apply(share, locale)


def with_unit(value, unit):
    """A number and its unit, kept on one line."""
    return f"{format_number(value)}\u00a0{unit}"


def estimate_figures(chosen, earnings):
    """The estimate's lines, each (label, formatted value), and what it was computed from."""
    gpu = chosen["gpu"]
    utilization = CEILING_UTILIZATION if chosen["utilization"] is None else chosen["utilization"] / 100
    lines = [
        (_("GPU-hours rented per month"), format_number(earnings.gpu_hours)),
        (_("Gross revenue per month, before the platform's fee"), format_usd(earnings.gross_usd)),
    ]
    if earnings.energy_kwh is not None:
        lines.append((_("Energy per month"), with_unit(earnings.energy_kwh.quantize(Decimal(1)), "kWh")))
    if earnings.energy_cost_usd is not None:
        lines += [(_("Energy cost per month"), format_usd(earnings.energy_cost_usd)),
                  (_("Margin per month, before the platform's fee"), format_usd(earnings.margin_usd))]
    return {
        "gpu": gpu, "lines": lines, "gross": format_usd(earnings.gross_usd),
        "count": format_number(chosen["count"]), "offer": format_usd(gpu.price_usd_per_hour),
        "utilization": format_utilization(utilization), "is_ceiling": utilization == CEILING_UTILIZATION,
        "power": None if not gpu.max_power_w else with_unit(gpu.max_power_w, "W"),
        "pue": format_number(DEFAULT_PUE if chosen["pue"] is None else chosen["pue"]),
        "electricity": None if chosen["electricity"] is None else format_usd(chosen["electricity"], places=max(
            2, -chosen["electricity"].as_tuple().exponent)),
    }


def offer_rows(gpus, preset_query):
    """Each GPU with a live offer: the offer, and one GPU's gross revenue in a month rented every hour."""
    return [{"name": gpu.name, "offer": format_usd(gpu.price_usd_per_hour),
             "month": format_usd(monthly_earnings(usd_per_gpu_hour=gpu.price_usd_per_hour, gpu_count=1).gross_usd),
             "query": preset_query(gpu)} for gpu in gpus]


def assumptions():
    return {"hours": format_number(HOURS_PER_MONTH), "year_hours": format_number(HOURS_PER_YEAR),
            "ceiling": format_share(CEILING_UTILIZATION)}


def page_sections():
    """The editors' sections by topic; the topics without one are announced before launch."""
    texts = {}
    for text in ProviderPageText.objects.all():
        texts.setdefault(text.topic, []).append(text)
    Topic = ProviderPageText.Topic
    return {
        "qualifying": texts.get(Topic.REQUIREMENTS, []) + texts.get(Topic.ONBOARDING, []),
        "terms": texts.get(Topic.TERMS, []),
        "assumptions": assumptions(),
    }

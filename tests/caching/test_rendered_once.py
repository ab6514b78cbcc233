"""What a render keeps for the next one (issue 26: cheaper re-renders): formatted figures per language and value,
a workload's table and chart per content version and language, signup actions per language and link. Each kept
text equals what a fresh render writes, in the right language, and a content change renders again."""
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation

from caching.content_version import bump_content_version
from core import formatting
from core.pages import language_codes
from workloads.models import Workload

from ..localized_urls import url_in

# Values equal to each other but not written alike by every function (digits, type), and a few ordinary ones.
VALUES = [Decimal(1), Decimal("1.0"), Decimal("1.50"), 1, Fraction(3, 2), Decimal(6000), Decimal(16000),
          Decimal("0.004"), Decimal("1234567.891")]
REMEMBERED = [formatting.format_number, formatting.format_usd, formatting.format_share, formatting.format_compact,
              formatting.format_usd_estimate, formatting.format_usd_rate, formatting.format_memory,
              formatting.format_duration, formatting.format_scientific, formatting.format_model_size,
              formatting.format_price_per_hour, formatting.format_gpu_hours, formatting.format_signed_share]


@pytest.fixture
def page_cache_off(settings):
    settings.PAGE_CACHE_ENABLED = False


def outcome(function, value):
    """What ``function`` gives for ``value``: its text, or the kind of error it raises (a price per hour is
    never a fraction, for one)."""
    try:
        return function(value)
    except TypeError as error:
        return type(error)


@pytest.mark.parametrize("function", REMEMBERED, ids=lambda function: function.__name__)
def test_a_cached_figure_is_what_the_function_writes_in_each_language(function):
    # Languages in turn, twice: a text kept for one language is never served in another.
    for language in language_codes() * 2:
        with translation.override(language):
            for value in VALUES:
                assert outcome(function, value) == outcome(function.__wrapped__, value), (language, value)


def test_options_are_told_apart_by_name_and_position():
    with translation.override("de"):
        amount = Decimal("2.5")
        assert formatting.format_usd(amount, places=4) == formatting.format_usd(amount, 4) == "2,5000\xa0$"
        assert formatting.format_usd(amount) == "2,50\xa0$"
        assert formatting.format_number(amount, 2) == "2,50" and formatting.format_number(amount) == "2,5"


def rendered_templates(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content, {template.name for template in response.templates}


TABLE = "includes/workloads/workload_table.html"
CHART = "includes/charts/scatter_chart.html"


def test_a_workload_table_and_chart_are_rendered_once_per_content_version_and_language(
        client, launch_content, page_cache_off, recorded_templates):
    workload = Workload.objects.get(key="llm-inference")
    bump_content_version()
    first, templates = rendered_templates(client, workload.get_absolute_url("es"))
    assert {TABLE, CHART} <= templates
    again, templates = rendered_templates(client, workload.get_absolute_url("es"))
    assert again == first and not {TABLE, CHART} & templates
    # Another language renders its own; a content change renders them again.
    _other, templates = rendered_templates(client, workload.get_absolute_url("de"))
    assert {TABLE, CHART} <= templates
    bump_content_version()
    after_change, templates = rendered_templates(client, workload.get_absolute_url("es"))
    assert {TABLE, CHART} <= templates and after_change == first


def test_a_kept_signup_action_is_in_the_pages_language(client, launch_content, page_cache_off):
    for language in ("es", "de", "es"):
        content = client.get(url_in(language, "catalog:gpu_list")).content.decode()
        texts = re.findall(r'class="signup-action" href="[^"]*">([^<]*)</a>', content)
        with translation.override(language):
            assert len(texts) > 1 and set(texts) == {translation.gettext("Create your account")}, language

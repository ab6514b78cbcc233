"""An editor, in real Chromium: logs in, changes a price in the admin (translation tabs working under
the Content Security Policy), and sees it at once on cached pages in two languages."""
import pytest
from django.urls import reverse

from catalog.models import GPU
from workloads.models import Workload

from ..editors import PASSWORD, authenticator_code, create_editor

pytestmark = pytest.mark.browser


@pytest.fixture
def editor(live_launch_content):
    return create_editor()


def squashed_text(page, selector="body"):
    return "".join(page.locator(selector).inner_text().split())


def test_editor_changes_the_h100_price_and_sees_it_on_cached_pages(live_server, editor, page):
    training = Workload.objects.get(key="llm-training")
    es_url = live_server.url + training.get_absolute_url("es")
    de_url = live_server.url + training.get_absolute_url("de")
    csp_errors = []
    page.on("console", lambda message: csp_errors.append(message.text)
            if "Content Security Policy" in message.text else None)

    # Warm the page cache in both languages with the old price.
    page.goto(es_url)
    assert "desde2,88US$" in squashed_text(page, "table.gpu-table")
    page.goto(de_url)
    assert "ab2,88$" in squashed_text(page, "table.gpu-table")

    page.goto(live_server.url + reverse("admin:login"))
    page.fill("#id_username", "editor")
    page.fill("#id_password", PASSWORD)
    page.fill("#id_otp_token", authenticator_code(editor))
    page.click("input[type=submit]")
    h100 = GPU.objects.get(slug="h100-sxm")
    page.goto(live_server.url + reverse("admin:catalog_gpu_change", args=[h100.pk]))
    # modeltranslation's tabs are built by the self-hosted jQuery UI.
    page.wait_for_selector(".ui-tabs")
    page.fill("#id_price_usd_per_hour", "2.50")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success")

    page.goto(es_url)
    assert "desde2,50US$" in squashed_text(page, "table.gpu-table")
    page.goto(de_url)
    assert "ab2,50$" in squashed_text(page, "table.gpu-table")
    assert csp_errors == []


def test_workload_admin_shows_language_tabs(live_server, editor, page):
    page.goto(live_server.url + reverse("admin:login"))
    page.fill("#id_username", "editor")
    page.fill("#id_password", PASSWORD)
    page.fill("#id_otp_token", authenticator_code(editor))
    page.click("input[type=submit]")
    workload = Workload.objects.get(key="fine-tuning")
    page.goto(live_server.url + reverse("admin:workloads_workload_change", args=[workload.pk]))
    page.locator(".ui-tabs-nav").first.wait_for()
    assert page.locator(".ui-tabs-nav").first.locator("li").count() == 4
    # The German title sits in a tab panel that is hidden until its tab is chosen.
    panel = page.evaluate("() => document.querySelector('#id_title_de').closest('.ui-tabs-panel').id")
    assert not page.locator("#id_title_de").is_visible()
    page.click(f"a[href='#{panel}']")
    assert page.locator("#id_title_de").is_visible()
    assert not page.locator("#id_title_es").is_visible()

"""An editor's change in the admin shows in every dependent cell, in every language."""
from decimal import Decimal

import pytest
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from catalog import sizing
from catalog.models import GPU
from catalog.sizing_methods import SIZING_METHODS, method_label
from catalog.specs import SPECS
from core.formatting import format_model_size, format_number
from storefront.models import LandingPage
from workloads.models import Workload

from ..deck import squash
from ..editors import change_form_data
from ..html import Page, parse
from ..languages import LANGUAGES
from ..localized_urls import url_in


@pytest.fixture
def admin_client_logged_in(client, db):
    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "a-long-test-password")
    client.force_login(user)
    return client


def row_cells(client, workload, language, gpu_name):
    page = Page(client.get(workload.get_absolute_url(language)).content.decode())
    return next(row for row in page.table_cells() if squash(row[0]).startswith(squash(gpu_name)))


def test_admin_memory_change_updates_every_dependent_cell_in_every_language(admin_client_logged_in, launch_content):
    client = admin_client_logged_in
    h100 = GPU.objects.get(slug="h100-sxm")
    data = change_form_data(h100)
    data["memory_gb"] = "120"
    response = client.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    h100.refresh_from_db()
    assert h100.memory_gb == Decimal(120)

    expectations = {
        # workload key: column position (after the GPU name) → (bytes per parameter of its method, GPUs)
        "llm-training": {5: (16, 1), 6: (16, 8)},  # full training with Adam
        "fine-tuning": {3: (1, 1), 4: (Decimal("2.5"), 1)},  # QLoRA, LoRA
    }
    for key, fits in expectations.items():
        workload = Workload.objects.get(key=key)
        for language in workload.page_languages():
            cells = row_cells(client, workload, language, "H100 SXM")
            with translation.override(language):
                assert squash(cells[1]) == squash(f"{format_number(120)} GB")
                for position, (bytes_per_parameter, gpus) in fits.items():
                    want = format_model_size(sizing.largest_model_params(120, gpus, bytes_per_parameter))
                    assert squash(cells[position]) == squash(want), (key, language, position)
    # 120 GB × 0.8 ÷ 16 = 6 (was 4 at 80 GB); × 8 GPUs = 48 → 45.
    assert squash(row_cells(client, Workload.objects.get(key="llm-training"), "es", "H100 SXM")[5]) == "≈6milM"
    assert squash(row_cells(client, Workload.objects.get(key="llm-training"), "de", "H100 SXM")[6]) == "≈45Mrd."


def test_admin_rejects_zero_memory_and_keeps_the_stored_value(admin_client_logged_in, launch_content):
    client = admin_client_logged_in
    h100 = GPU.objects.get(slug="h100-sxm")
    data = change_form_data(h100)
    data["memory_gb"] = "0"
    response = client.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data)
    assert response.status_code == 200
    assert "errornote" in response.content.decode()
    h100.refresh_from_db()
    assert h100.memory_gb == Decimal(80)


@pytest.mark.parametrize("price", ["0", "0.00", "-1"])
def test_admin_refuses_a_price_that_is_not_above_zero(admin_client_logged_in, launch_content, price):
    h100 = GPU.objects.get(slug="h100-sxm")
    data = change_form_data(h100)
    data["price_usd_per_hour"] = price
    response = admin_client_logged_in.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data)
    assert response.status_code == 200
    assert "A price must be more than 0. Leave it empty when no offer is live." in response.content.decode()
    h100.refresh_from_db()
    assert h100.price_usd_per_hour == Decimal("2.88")


@pytest.mark.parametrize("day", ["2062-11-30", "1999-12-31"])
def test_admin_refuses_a_price_time_out_of_range(admin_client_logged_in, launch_content, day):
    # A time ahead of now would make every newer price from the feed look older, and keep it out.
    h100 = GPU.objects.get(slug="h100-sxm")
    before = h100.price_updated_at
    data = change_form_data(h100)
    data["price_updated_at_0"] = day
    response = admin_client_logged_in.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data)
    assert response.status_code == 200
    assert "A price’s time must lie between 2000-01-01 and now." in response.content.decode()
    h100.refresh_from_db()
    assert h100.price_updated_at == before


def test_admin_saves_an_empty_price_as_no_live_offer(admin_client_logged_in, launch_content):
    h100 = GPU.objects.get(slug="h100-sxm")
    data = change_form_data(h100)
    data["price_usd_per_hour"] = ""
    response = admin_client_logged_in.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data)
    assert response.status_code == 302
    h100.refresh_from_db()
    assert h100.price_usd_per_hour is None


def test_admin_translation_tabs_load_jquery_ui_from_this_site(admin_client_logged_in, launch_content):
    from workloads.models import Workload

    workload = Workload.objects.get(key="llm-training")
    body = admin_client_logged_in.get(reverse("admin:workloads_workload_change", args=[workload.pk])).content.decode()
    assert "/static/vendor/jquery-ui-1.13.3/jquery-ui.min.js" in body
    assert "googleapis" not in body and "//ajax." not in body
    for language in LANGUAGES:
        assert f'name="title_{language}"' in body
    assert admin_client_logged_in.get("/static/vendor/jquery-ui-1.13.3/jquery-ui.min.js").status_code == 200


def path_segments(view_name, language):
    return [segment for segment in url_in(language, view_name).split("/") if segment]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_gpu_slug_that_is_another_pages_address_is_refused(admin_client_logged_in, launch_content, language):
    # /<language>/gpus/<slug>/ would be the comparison page's address: the GPU's page could not be reached.
    taken = path_segments("catalog:compare", language)[-1]
    h100 = GPU.objects.get(slug="h100-sxm")
    data = change_form_data(h100)
    data["slug"] = taken
    response = admin_client_logged_in.post(reverse("admin:catalog_gpu_change", args=[h100.pk]), data)
    assert response.status_code == 200
    assert "errornote" in response.content.decode()
    h100.refresh_from_db()
    assert h100.slug == "h100-sxm"


def test_a_workload_slug_that_is_another_pages_address_is_refused_in_that_language(launch_content):
    workload = Workload.objects.get(key="fine-tuning")
    workload.slug_de = path_segments("catalog:gpu_list", "de")[-1]
    workload.slug_pt = path_segments("signups:signup", "pt")[-1]
    with pytest.raises(ValidationError) as refused:
        workload.full_clean()
    assert set(refused.value.message_dict) == {"slug_de", "slug_pt"}
    # A word is only taken in the language whose page has it: the Portuguese signup's is free in German.
    workload.refresh_from_db()
    assert path_segments("signups:signup", "pt")[-1] != path_segments("signups:signup", "de")[-1]
    workload.slug_de = path_segments("signups:signup", "pt")[-1]
    workload.full_clean()


@pytest.mark.parametrize("language", ["es", "de"])
def test_a_columns_spec_and_method_come_from_the_registries(admin_client_logged_in, launch_content, language):
    workload = Workload.objects.get(key="llm-training")
    url = reverse("admin:workloads_workload_change", args=[workload.pk])
    document = parse(admin_client_logged_in.get(url, HTTP_ACCEPT_LANGUAGE=language).content)

    def choices(field):
        options = document.find("select", name=f"columns-0-{field}").find_all("option")
        return [(option.attrs["value"], option.squashed_text) for option in options if option.attrs["value"]]

    with translation.override(language):
        assert choices("method") == [(method.key, method_label(method)) for method in SIZING_METHODS]
        assert choices("spec") == [(spec.key, str(spec.label)) for spec in SPECS if spec.table_column]
    # A name and a word of the bytes per parameter, in the admin's language.
    lora = {"es": "LoRA sobre un modelo base de 16 bits (2,5 bytes por parámetro)",
            "de": "LoRA auf einem 16-Bit-Basismodell (2,5 Byte pro Parameter)"}[language]
    assert lora in dict(choices("method")).values()



def test_a_pages_text_blocks_show_their_fields_in_every_language_and_each_formset_is_built_once(
        admin_client_logged_in, launch_content, monkeypatch):
    """The workload's and the landing page's block inlines (``staff.admin_blocks``): the order, the title and the
    text in every language, each inline's formset built once a request (an inline without declared fields builds
    it a second time to learn them)."""
    built, real = [], InlineModelAdmin.get_formset

    def counted(inline, request, obj=None, **kwargs):
        built.append(type(inline).__name__)
        return real(inline, request, obj, **kwargs)

    monkeypatch.setattr(InlineModelAdmin, "get_formset", counted)
    for obj, text in ((Workload.objects.get(key="llm-training"), "body"), (LandingPage.objects.get(), "answer")):
        built.clear()
        url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
        response = admin_client_logged_in.get(url)
        assert response.status_code == 200
        assert built and len(built) == len(set(built)), built
        names = {element.attrs["name"].rsplit("-", 1)[-1] for element in parse(response.content.decode()).iter()
                 if element.tag in ("input", "textarea") and "name" in element.attrs}
        assert {"order", *(f"{text}_{language}" for language in LANGUAGES)} <= names, names

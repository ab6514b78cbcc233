"""The 500 page: in the language of the page asked for, a page of its own that renders with the database
unusable (here a table missing, which also aborts the request's transaction: any query would fail)."""
import pytest
from django.db import connection
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from workloads.models import Workload

from ..html import Page
from ..languages import LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_error_gets_the_localized_500_page(launch_content, language):
    path = Workload.objects.get(key="llm-training").get_absolute_url(language)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE workloads_workload RENAME TO workloads_workload_gone")
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 500
    assert "no-store" in response["Cache-Control"]
    page = Page(response.content.decode())
    with translation.override(language):
        assert page.lang == language
        assert page.h1 == [gettext("Something went wrong")]
        assert page.title.startswith(gettext("Something went wrong"))
        assert f"/{language}/" in page.links
    assert b'<meta name="description" content="' in response.content

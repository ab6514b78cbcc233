"""The Nu HTML Checker (vnu-jar, run with the machine's Java) reports no error on any page."""
import pytest

from ..page_judges import vnu_errors
from .conftest import assert_sitemap_is_complete

pytestmark = pytest.mark.quality


def test_every_sitemap_page_and_the_404_page_are_valid_html(client, launch_content, sitemap_pages, tmp_path):
    assert_sitemap_is_complete(list(sitemap_pages))
    not_found = client.get("/es/no-such-page/")
    assert not_found.status_code == 404
    bodies = {**sitemap_pages, "/es/no-such-page/": not_found.content.decode()}
    assert vnu_errors(bodies, tmp_path) == []

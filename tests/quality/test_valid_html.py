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


def test_the_checker_names_the_page_of_each_error_and_passes_a_valid_one(tmp_path):
    """The judge itself, as the tests above run it: an error is reported against the page's path, a valid page
    has none (a checker that failed to run would give no JSON, and the call would raise)."""
    head = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>'
    errors = vnu_errors({"/en/valid/": head + "<body><p>text</p></body></html>",
                         "/en/broken/": head + "<body><div><p>text</span></body></html>"}, tmp_path)
    assert errors and all(error.startswith("/en/broken/: ") for error in errors), errors
    assert any("“span”" in error for error in errors), errors

import pytest

from ..page_judges import NODE_MODULES  # noqa: F401 (the quality tests import it from here)
from ..servers import collect_static, shared_gunicorn_server
from ..sitemap import assert_sitemap_is_complete, sitemap_paths  # noqa: F401 (the quality tests import them from here)


@pytest.fixture(scope="session")
def static_files_collected():
    collect_static()


@pytest.fixture(scope="session")
def shared_production_server(django_db_setup, django_db_blocker, static_files_collected):
    with shared_gunicorn_server(django_db_blocker, workers=2) as url:
        yield url


@pytest.fixture
def production_server(shared_production_server, live_launch_content):
    """gunicorn with the production settings (whitenoise, compressed static files) on the test data: one server
    for the worker's session (the page weight, Lighthouse and the estimator's budget only read pages)."""
    return shared_production_server

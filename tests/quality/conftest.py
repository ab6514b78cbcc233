import pytest

from ..page_judges import NODE_MODULES  # noqa: F401 (the quality tests import it from here)
from ..servers import collect_static, gunicorn_server
from ..sitemap import assert_sitemap_is_complete, sitemap_paths  # noqa: F401 (the quality tests import them from here)


@pytest.fixture(scope="session")
def static_files_collected():
    collect_static()


@pytest.fixture
def production_server(live_launch_content, static_files_collected):
    """gunicorn with the production settings (whitenoise, compressed static files) on the test data."""
    with gunicorn_server(workers=2) as url:
        yield url

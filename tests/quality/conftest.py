from pathlib import Path

import pytest

from ..servers import collect_static, gunicorn_server
from ..sitemap import assert_sitemap_is_complete, sitemap_paths  # noqa: F401 (the quality tests import them from here)

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
NODE_MODULES = PROJECT_DIR / "node_modules"


@pytest.fixture(scope="session")
def static_files_collected():
    collect_static()


@pytest.fixture
def production_server(live_launch_content, static_files_collected):
    """gunicorn with the production settings (whitenoise, compressed static files) on the test data."""
    with gunicorn_server(workers=2) as url:
        yield url

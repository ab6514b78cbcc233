import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from ..servers import collect_static, gunicorn_server

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
NODE_MODULES = PROJECT_DIR / "node_modules"
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def sitemap_paths(client):
    root = ET.fromstring(client.get("/sitemap.xml").content)
    return [urlsplit(url.find(SITEMAP_NS + "loc").text).path for url in root.iter(SITEMAP_NS + "url")]


@pytest.fixture(scope="session")
def static_files_collected():
    collect_static()


@pytest.fixture
def production_server(live_launch_content, static_files_collected):
    """gunicorn with the production settings (whitenoise, compressed static files) on the test data."""
    with gunicorn_server(workers=2) as url:
        yield url

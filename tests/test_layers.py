"""The apps form layers and imports only point down: a lower app never imports a higher one.

The imports are read from the source (every ``import`` and ``from … import`` anywhere in a module,
including those inside functions), so a lazy import does not slip past.
"""
import ast
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
# Lowest first: infrastructure, the company behind the site (the operator record), GPUs and sizing, the
# open data feed, workload pages, forms, and the composition on top.
LAYERS = ("core", "company", "catalog", "open_data", "estimator", "workloads", "signups", "storefront")


def imported_modules(source):
    """The absolute module names ``source`` imports, with the line of each."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, node.lineno


def upward_imports(app):
    """Each import in ``app`` of an app above it, as "path:line imports module"."""
    above = set(LAYERS[LAYERS.index(app) + 1:])
    found = []
    for path in sorted((PROJECT / app).rglob("*.py")):
        for module, line in imported_modules(path.read_text(encoding="utf-8")):
            if module.split(".")[0] in above:
                found.append(f"{path.relative_to(PROJECT)}:{line} imports {module}")
    return found


@pytest.mark.parametrize("app", LAYERS)
def test_no_app_imports_an_app_above_it(app):
    assert upward_imports(app) == []


def test_the_check_sees_an_upward_import_even_inside_a_function():
    source = "def pages():\n    from storefront.sitemaps import public_pages\n    import workloads.models\n"
    assert list(imported_modules(source)) == [("storefront.sitemaps", 2), ("workloads.models", 3)]


def test_every_app_is_in_a_layer():
    apps = {path.parent.name for path in PROJECT.glob("*/apps.py")}
    assert apps == set(LAYERS)

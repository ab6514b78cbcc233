"""The apps form layers and imports only point down: a lower app never imports a higher one, in Python or in a
template (no URL and no template tag library of a higher app). The layers, lowest first, are ``LAYERS`` of
tests/project_source.py.

The imports are read from the source (every ``import`` and ``from … import`` anywhere in a module,
including those inside functions), so a lazy import does not slip past.
"""
import ast
import re
from pathlib import Path

import pytest
from django.urls import URLResolver, get_resolver

from ..project_source import LAYERS, PROJECT


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
    # A layer may also be a plain package without apps.py (charts/): it is checked all the same.
    assert apps <= set(LAYERS)
    assert all((PROJECT / layer / "__init__.py").is_file() for layer in LAYERS)


# Templates obey the same layers: a template never names a URL or a template tag library of an app above its own
# (a lower page gets such a link or fragment passed in, or through a registry the higher app fills). A template
# belongs to the app whose templates/ folder holds it; in the project's templates/ folder, to the layer its first or
# second folder names (templates/catalog/…, templates/includes/charts/…, templates/admin/catalog/…). Every other
# project template counts as core: base.html is extended by every page, core's own included, and the shared
# includes (includes/*.html) are included from any layer.
URL_TAG = re.compile(r"""\{%-?\s*url\s+(["'])([^"']+)\1""")
LOAD_TAG = re.compile(r"\{%-?\s*load\s+(.+?)\s*-?%\}")


def template_layer(path):
    """The layer of a template, from its path relative to the project."""
    if path.parts[0] != "templates":
        return path.parts[0]
    return next((folder for folder in path.parts[1:-1][:2] if folder in LAYERS), "core")


def template_references(source):
    """("url", name, line) for each URL a template reverses by a literal name, ("library", name, line) for each
    template tag library it loads."""
    def line_of(match):
        return source.count("\n", 0, match.start()) + 1

    for match in URL_TAG.finditer(source):
        yield "url", match.group(2), line_of(match)
    for match in LOAD_TAG.finditer(source):
        words = match.group(1).split()
        for name in words[words.index("from") + 1:] if "from" in words else words:
            yield "library", name, line_of(match)


def url_owners():
    """The app of each URL name ("catalog:compare", "home"): the package of the view it calls."""
    owners = {}

    def walk(patterns, prefix):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix)
            elif pattern.name:
                owners[prefix + pattern.name] = pattern.callback.__module__.split(".")[0]

    walk(get_resolver().url_patterns, "")
    return owners


def library_owners():
    """The app of each template tag library, by the name templates load it with."""
    return {path.stem: layer for layer in LAYERS for path in (PROJECT / layer).glob("templatetags/*.py")
            if path.stem != "__init__"}


def upward_template_references(layer, source, urls, libraries):
    """Each URL or library of an app above ``layer`` that ``source`` names, as "line: kind name (app)"."""
    above = set(LAYERS[LAYERS.index(layer) + 1:])
    return [f"{line}: {kind} {name} ({owner})" for kind, name, line in template_references(source)
            if (owner := (urls if kind == "url" else libraries).get(name)) in above]


def template_files():
    folders = [PROJECT / "templates", *(PROJECT / layer / "templates" for layer in LAYERS)]
    return sorted(path for folder in folders for path in folder.rglob("*") if path.suffix in (".html", ".txt"))


def test_no_template_names_a_url_or_tag_of_an_app_above_it():
    urls, libraries = url_owners(), library_owners()
    found = []
    for path in template_files():
        relative = path.relative_to(PROJECT)
        for reference in upward_template_references(template_layer(relative), path.read_text(encoding="utf-8"),
                                                    urls, libraries):
            found.append(f"{relative}:{reference}")
    assert found == []


def test_the_template_check_sees_a_higher_apps_url_and_tag():
    source = ('{% load i18n navigation %}\n<a href="{% url "data:gpus_json" %}">{% url \'catalog:compare\' %}\n'
              "{% load navigation_bar from navigation %}{% url view_name %}")
    urls = {"data:gpus_json": "open_data", "catalog:compare": "catalog"}
    libraries = {"navigation": "storefront"}
    assert upward_template_references("catalog", source, urls, libraries) == [
        "2: url data:gpus_json (open_data)", "1: library navigation (storefront)", "3: library navigation (storefront)"]
    assert upward_template_references("storefront", source, urls, libraries) == []


def test_a_project_template_counts_as_the_layer_its_folder_names_else_core():
    assert [template_layer(Path(path)) for path in (
        "templates/base.html", "templates/includes/footer.html", "templates/catalog/gpu_list.html",
        "templates/includes/charts/rank_chart.html", "templates/admin/catalog/gpu/change_list.html",
        "open_data/templates/open_data/docs.html",
    )] == ["core", "core", "catalog", "charts", "catalog", "open_data"]

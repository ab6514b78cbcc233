"""The project's source as the tests read it: its folder, the layers its apps form (lowest first) and the modules
beyond the standard library that a source file imports."""
import ast
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
# Lowest first: infrastructure, the company behind the site (the operator record and legal pages), the one
# double opt-in every form that mails builds on (outbox, mail budget, erasure), GPUs and sizing, the open data
# feed, workload pages, the forms (signups and provider applications, then the price alerts built on them),
# the founders' demand figures (which read signups and alerts), and the composition on top.
# Below core, the number input (number_input/, a plain package without Django) that core's formatting and form
# fields build on, then the caching (caching/: pages, fragments and loaded content under the content version, which
# core's page head, regions and social images use too). Just above core, the app server's parts (serving/: gunicorn's
# worker, log redaction, /healthz) and the staff's side (staff/: the admin site every app's admin registers with, its
# login, the Editors role); then the chart drawers (charts/, a plain package fed plain data); prices/ (the import and
# the admin's price edit) just above the catalogue whose models it writes.
LAYERS = ("number_input", "caching", "core", "serving", "staff", "charts", "company", "optin", "catalog", "prices",
          "open_data",
          "estimator", "workloads", "signups", "providers", "alerts", "demand", "storefront")


def project_imports(source):
    """The absolute modules ``source`` imports that are not in the standard library (relative imports are the
    package's own)."""
    for node in ast.walk(ast.parse(source)):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        yield from (name for name in names if name.split(".")[0] not in sys.stdlib_module_names)

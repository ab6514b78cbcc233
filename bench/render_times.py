"""The in-process render time of each kind of page: processor time of this process per request (Django's test
client, the page cache off, no per-client render limit), right after a content change and with the content
loaded, as the fastest of ``RENDER_REPEAT`` requests (40 by default) after a warm-up request.

Processor time, not wall-clock time: a request waiting for the processor while other jobs of a shared host run is
not counted, nor is the database server's own work (another process). Yet a request on a busy or slowed host takes
more processor time too (its caches flushed by the other jobs, the virtual processor shared): that only ever adds,
so the fastest request of each kind is taken (timeit's rule), and the kinds take turns (a change, then a request in
each state), so that a slower spell of the host falls on a few requests of every kind, not on all the requests of
one.

The same script measures any tree of the project, the current one and older ones (``bench/compare_trees.py`` runs
the new tree's copy of it in each tree, from a temporary file): it uses only Django's public API, the project's
``bump_content_version`` command, its models by ``apps.get_model``, its URLs by name and the tree's own
``bench/common.py`` to set Django up, imported from the tree it is run in, its working directory. Run by itself it
prepares the throwaway database (migrate, the launch content), collects the static files and compiles the
translations into a temporary folder (the tree is left as it is), and prints a line per page kind:
``<name> render in-process: <x> ms after a change, <y> ms content loaded``, after a ``project:`` line naming the
folder the project's modules were imported from.

Run from a tree's root: scripts/with-throwaway-postgres.sh .venv/bin/python bench/render_times.py"""
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

REPEAT = int(os.environ.get("RENDER_REPEAT", "40"))


def django_setup():
    """Django on the throwaway database, from the tree in the working directory: that tree's own
    ``bench.common.django_setup`` (the same since the benchmarks began), imported from there."""
    sys.path.insert(0, os.getcwd())
    from bench.common import django_setup as tree_django_setup

    tree_django_setup()


def page_paths():
    """The page of each kind a content change renders again, by name."""
    workload, gpu = apps.get_model("workloads", "Workload"), apps.get_model("catalog", "GPU")
    with translation.override("es"):
        calculator = reverse("estimator:calculator")
        return {
            "workload page": workload.objects.get(key="llm-training").get_absolute_url("es"),
            "GPU page": gpu.objects.get(slug="h100-sxm").get_absolute_url("es"),
            "catalogue": reverse("catalog:gpu_list"),
            "compare": reverse("catalog:compare") + "?workload=llm-training",
            "calculator (fit tab)": calculator,
            "calculator (training tab)": calculator + "?answer=training",
            "calculator (inference tab)": calculator + "?answer=inference",
        }


def answer_paths():
    """A calculator answer of each kind, by name: rendered on every request."""
    with translation.override("es"):
        calculator = reverse("estimator:calculator")
    return {
        "calculator answer (fit)": calculator + "?size=70&method=full_adam",
        "calculator answer (training)": calculator + "?answer=training&size=70&method=full_adam&tokens=15000"
                                                     "&cluster=4096",
        "calculator answer (inference)": calculator + "?answer=inference&size=70&method=weights_8bit"
                                                      "&shape=llama-3-1-70b&context=8192&batch=16",
    }


def render_times(paths, repeat=REPEAT):
    """Milliseconds of processor time of this process for one request of each of ``paths`` ({name: path}): right
    after a content change (the ``bump_content_version`` command before the request, not timed), and with the
    content loaded (the next request, the page's content loaded by the one before); the fastest of ``repeat`` of
    each. The kinds take turns, a change and two requests each, so that a spell of a slower host (seconds long)
    falls on a few requests of every kind and state rather than on all of one. Expects the page cache off and no
    per-client render limit (``settings``). {name: {state: ms}}"""
    clients = {name: Client(HTTP_HOST="127.0.0.1") for name in paths}
    samples = {name: {"after a change": [], "content loaded": []} for name in paths}
    for name in paths:  # a warm-up request of each
        clients[name].get(paths[name])
    for _ in range(repeat):
        for name, path in paths.items():
            call_command("bump_content_version", stdout=io.StringIO())
            for state in ("after a change", "content loaded"):
                start = time.process_time()
                response = clients[name].get(path)
                samples[name][state].append(time.process_time() - start)
                assert response.status_code == 200, (path, response.status_code)
    return {name: {state: min(times) * 1000 for state, times in states.items()} for name, states in samples.items()}


def print_render_times(paths, repeat=REPEAT):
    for name, times in render_times(paths, repeat).items():
        print(f"{name} render in-process: " + ", ".join(f"{ms:.2f} ms {state}" for state, ms in times.items()),
              flush=True)


def compile_translations(folder):
    """The tree's locale/*/LC_MESSAGES/django.po compiled into ``folder`` (as ``make messages`` does in place)."""
    for source in sorted(Path("locale").glob("*/LC_MESSAGES/django.po")):
        target = folder / source.parent
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run(["msgfmt", "--check-format", "-o", str(target / "django.mo"), str(source)], check=True)
    return folder / "locale"


def main():
    if not Path("manage.py").is_file():
        sys.exit("Run this from a tree's root (it measures the tree in its working directory).")
    django_setup()
    from django.test import override_settings

    print(f"project: {Path(apps.get_app_config('workloads').path).resolve().parent}", flush=True)
    with tempfile.TemporaryDirectory(prefix="render-times-") as name:
        folder = Path(name)
        # The tree's static files and translations as in production (the manifest that {% static %} reads, the
        # Spanish catalogue), built outside the tree, before any request or translation is made.
        with override_settings(STATIC_ROOT=folder / "static", LOCALE_PATHS=[compile_translations(folder)]):
            call_command("collectstatic", interactive=False, verbosity=0)
            call_command("migrate", verbosity=0)
            call_command("load_launch_content", stdout=io.StringIO())
            settings.PAGE_CACHE_ENABLED = False  # in this process only: the render, not the page cache
            settings.RENDER_RATE_LIMIT = 0  # else the renders past the per-client limit are timed as 429s
            print_render_times({**page_paths(), **answer_paths()})


if __name__ == "__main__":
    main()

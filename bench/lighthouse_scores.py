"""Lighthouse's performance score of each kind of page, against gunicorn with the production settings: the figure
the quality gate does not assert, because it depends on how busy the host is (tests/quality/test_lighthouse.py
asserts what does not). Three runs per page, one Chromium for them all; prints each score and the best.

Run: make bench-lighthouse"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402

from catalog.models import GPU  # noqa: E402
from tests.localized_urls import url_in  # noqa: E402
from tests.quality.lighthouse import lighthouse_reports  # noqa: E402
from tests.servers import collect_static, gunicorn_server  # noqa: E402
from workloads.models import Workload  # noqa: E402

RUNS = 3


def main():
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("load_launch_content", verbosity=0)
    collect_static()
    gpu = GPU.objects.get(slug="h100-sxm")
    pages = {
        "workload": Workload.objects.get(key="llm-training").get_absolute_url("es"),
        "home": "/de/",
        "gpu": gpu.get_absolute_url("pt"),
        "calculator": url_in("en", "estimator:calculator", {"size": "70", "method": "full_adam"}),
        "training": url_in("de", "estimator:calculator", {"answer": "training", "size": "70", "method": "full_adam",
                                                        "tokens": "15000", "cluster": "4096"}),
        "inference": url_in("es", "estimator:calculator", {"answer": "inference", "size": "70",
                                                         "method": "weights_8bit", "batch": "16"}),
    }
    with gunicorn_server(workers=2) as base, tempfile.TemporaryDirectory() as folder:
        reports = lighthouse_reports({f"{name}-{run}": base + path for name, path in pages.items()
                                      for run in range(RUNS)}, Path(folder))
        for name in pages:
            scores = [reports[f"{name}-{run}"]["categories"]["performance"]["score"] for run in range(RUNS)]
            print(f"{name:12} performance {' '.join(f'{score:.2f}' for score in scores)}  best {max(scores):.2f}")


if __name__ == "__main__":
    main()

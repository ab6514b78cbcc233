"""In-process time of the calculator's answers (Django's test client, production settings, the content already
loaded): the fit, training and inference tabs, each for a few queries, mean milliseconds per answer over
``BENCH_REPEAT`` requests, in this process's processor time (on a shared machine, wall time follows the other jobs'
load; the database's own time is left out, and its queries are the same); and the first answer after a content
change, which also works out the parts kept per content version (the published runs' checks among them).

To compare two trees, run it from each tree's root, alternating, in the same hour; BENCH_TREE names the tree whose
code is measured (default: this script's own):

    scripts/with-throwaway-postgres.sh .venv/bin/python bench/calculator_answers.py
    cd OTHER_TREE && BENCH_TREE=$PWD scripts/with-throwaway-postgres.sh \\
        .venv/bin/python THIS_TREE/bench/calculator_answers.py
"""
import io
import os
import statistics
import sys
import time
from pathlib import Path

TREE = Path(os.environ.get("BENCH_TREE") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(TREE))

from bench.common import django_setup  # noqa: E402

django_setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import translation  # noqa: E402

from caching.content_version import bump_content_version  # noqa: E402
from estimator.forms import InferenceForm  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "20"))


def answers():
    """(name, query) of each answer measured; the inference queries as each tree's form reads them."""
    serving = "weights" in InferenceForm.base_fields
    inference = [
        ("inference 70B 8-bit, batch 16", {"answer": "inference", "size": "70", "batch": "16",
                                           **({"weights": "fp8"} if serving else {"method": "weights_8bit"})}),
        ("inference 8B 16-bit, batch 1", {"answer": "inference", "shape": "llama-3-1-8b", "batch": "1",
                                          **({"weights": "bf16"} if serving else {"method": "weights_16bit"})}),
        ("inference 405B 8-bit, batch 64", {"answer": "inference", "shape": "llama-3-1-405b", "batch": "64",
                                            **({"weights": "fp8"} if serving else {"method": "weights_8bit"})}),
        # No batch: maximum load on this tree, batch 1 on a tree before it.
        ("inference 70B 8-bit, no batch", {"answer": "inference", "size": "70",
                                           **({"weights": "fp8"} if serving else {"method": "weights_8bit"})}),
    ]
    return [
        ("fit 70B 4-bit", {"size": "70", "method": "weights_4bit"}),
        ("fit 70B full training", {"size": "70", "method": "full_adam"}),
        ("training 70B", {"answer": "training", "size": "70", "method": "full_adam", "tokens": "15000"}),
        *inference,
    ]


def mean_ms(client, path, query, repeat):
    client.get(path, query)
    started = time.process_time()
    for _ in range(repeat):
        response = client.get(path, query)
    assert response.status_code == 200
    return (time.process_time() - started) / repeat * 1000


def main():
    call_command("migrate", verbosity=0)
    call_command("load_launch_content", stdout=io.StringIO())
    call_command("collectstatic", interactive=False, verbosity=0)
    client = Client(HTTP_HOST="127.0.0.1")
    with translation.override("es"):
        path = reverse("estimator:calculator")
    print(f"tree {TREE}; {REPEAT} requests each, Spanish, mean processor ms per answer")
    loaded = {}
    for name, query in answers():
        loaded[name] = mean_ms(client, path, query, REPEAT)
        print(f"  {name:34} {loaded[name]:8.1f}")
    print(f"  {'all answers (mean)':34} {statistics.mean(loaded.values()):8.1f}")
    changed = []
    for _ in range(3):
        bump_content_version()
        started = time.process_time()
        client.get(path, {"answer": "inference"})
        changed.append((time.process_time() - started) * 1000)
    print(f"  {'inference tab after a change':34} {statistics.median(changed):8.1f}")


main()

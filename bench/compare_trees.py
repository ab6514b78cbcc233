"""Two trees compared, each measured in turn, OLD then NEW, so that a busier or quieter spell of the host falls on both.

The in-process render time of each page kind (right after a content change, and content loaded) is measured by one
script for both trees: the NEW tree's bench/render_times.py (this one's if NEW has none), copied to a temporary
folder and run in each tree (the tree's root its working directory, so that the tree's own modules are imported; the
script prints which) against the tree's own throwaway PostgreSQL with the launch content loaded: processor time of
the process per request, the fastest of ``RENDER_REPEAT`` requests. OLD, NEW, OLD, NEW… ``BENCH_RENDER_RUNS`` times
(5 by default); printed: the median across runs of each tree, the ratio new ÷ old of those medians (target ≤ 1.1)
and each run's figure.

Then each tree's own bench/page_speed.py, OLD then NEW, ``BENCH_RUNS`` times (3 by default): the wrk ratios of each
run (cached page ÷ static file, target ≥ 0.9; each uncached render ÷ static file) and the catalogue's 1,000 ÷ 100
GPUs (target ≤ 10), their medians and ratio new ÷ old as above. The in-process lines page_speed.py prints are not
used (a tree's own script may time them otherwise). ``BENCH_ONLY_RENDER=1`` skips this part, the slow one.

Run: .venv/bin/python bench/compare_trees.py OLD_TREE NEW_TREE (make bench-compare OLD=… NEW=…; BENCH_ROUNDS=2 for
a quicker look: it is passed on to page_speed.py). Each tree needs its .venv; page_speed.py needs the tree's compiled
messages and collects its static files into the tree (render_times.py builds both in a temporary folder)."""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
RENDER_RUNS = int(os.environ.get("BENCH_RENDER_RUNS", "5"))
ONLY_RENDER = os.environ.get("BENCH_ONLY_RENDER", "") not in ("", "0")
RENDER = re.compile(r"^(.+?) render in-process: ([\d.]+) ms after a change, ([\d.]+) ms content loaded$")
PROJECT = re.compile(r"^project: (.+)$")
RATIO = re.compile(r"^(.+?) / static file: ([\d.]+)×")
CATALOGUE = re.compile(r"^catalogue 1,000 GPUs vs 100: ([\d.]+|inf)×")


def run_in(tree, *command):
    """The output of ``command`` run from ``tree``'s root against its own throwaway PostgreSQL."""
    result = subprocess.run(
        ["scripts/with-throwaway-postgres.sh", ".venv/bin/python", *command],
        cwd=tree, capture_output=True, text=True, check=False,
        # No per-client limit in the process either: a tree whose page_speed.py leaves it would time 429 answers.
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "RENDER_RATE_LIMIT": "0"},
    )
    if result.returncode:
        sys.exit(f"{' '.join(command)} failed in {tree}:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def render_times_once(tree, script):
    """One run of ``script`` (render_times.py) in ``tree``: {figure name: milliseconds}."""
    figures, project = {}, None
    for line in run_in(tree, str(script)).splitlines():
        if match := PROJECT.match(line):
            project = match[1]
        elif match := RENDER.match(line):
            figures[f"{match[1]}, after a change (ms)"] = float(match[2])
            figures[f"{match[1]}, content loaded (ms)"] = float(match[3])
    if project != tree:
        sys.exit(f"render_times.py run in {tree} imported the project from {project}")
    return figures


def page_speed_once(tree):
    """One run of ``tree``'s own page_speed.py: {figure name: value}, its wrk figures."""
    figures = {}
    for line in run_in(tree, "bench/page_speed.py").splitlines():
        if match := RATIO.match(line):
            figures[f"{match[1]} ÷ static file"] = float(match[2])
        elif match := CATALOGUE.match(line):
            figures["catalogue 1,000 ÷ 100 GPUs (time)"] = float(match[1])
    return figures


def alternate(old, new, runs, measure, label):
    """``measure(tree)`` for OLD then NEW, ``runs`` times: the figures of each run, OLD's and NEW's (a tree may be
    compared with itself)."""
    results = ([], [])
    for run in range(1, runs + 1):
        for side, tree in enumerate((old, new)):
            print(f"{label} run {run}: {tree}", file=sys.stderr, flush=True)
            results[side].append(measure(tree))
    return results


def print_table(runs):
    olds, news = runs
    print(f"{'':52}{'old (median)':>14}{'new (median)':>14}{'new ÷ old':>11}   runs old | new")
    for name in [name for name in news[0] if name in olds[0]]:
        before = [figures[name] for figures in olds]
        after = [figures[name] for figures in news]
        ratio = statistics.median(after) / statistics.median(before) if statistics.median(before) else float("inf")
        print(f"{name:52}{statistics.median(before):14.2f}{statistics.median(after):14.2f}{ratio:10.2f}×   "
              + " ".join(f"{value:.2f}" for value in before) + " | " + " ".join(f"{value:.2f}" for value in after))


def main(old, new):
    script = Path(new) / "bench" / "render_times.py"
    if not script.is_file():  # a NEW tree from before the script (two old trees compared): this one's
        script = Path(__file__).resolve().parent / "render_times.py"
    with tempfile.TemporaryDirectory(prefix="compare-trees-") as folder:
        # A copy in a folder of its own: run by path in the new tree's bench/, it would put that folder first on
        # the old tree's sys.path.
        copy = Path(folder) / "render_times.py"
        shutil.copyfile(script, copy)
        renders = alternate(old, new, RENDER_RUNS, lambda tree: render_times_once(tree, copy), "render_times.py")
    print(f"In-process render time, processor ms per request (fastest request of each run; {script} in both trees)")
    print_table(renders)
    if ONLY_RENDER:
        return
    speeds = alternate(old, new, RUNS, page_speed_once, "page_speed.py")
    print("\nwrk against gunicorn (each tree's own bench/page_speed.py)")
    print_table(speeds)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*(str(Path(tree).resolve()) for tree in sys.argv[1:]))

"""``make bench-pages`` on two trees, alternated: each tree's own bench/page_speed.py, run from its root against its
own throwaway PostgreSQL, OLD then NEW, ``BENCH_RUNS`` times (3 by default), so that a busier or quieter spell of
the host falls on both. Prints each page kind's in-process render time (content loaded, and right after a content
change) on both trees with the ratio new ÷ old (target ≤ 1.1), beside the wrk ratios of each run (cached page ÷
static file, target ≥ 0.9; each uncached render ÷ static file) and the catalogue's 1,000 ÷ 100 GPUs (target ≤ 10).

Run: .venv/bin/python bench/compare_trees.py OLD_TREE NEW_TREE (make bench-compare OLD=… NEW=…; BENCH_ROUNDS=2 for
a quicker look: it is passed on to page_speed.py). Each tree needs its .venv and compiled messages."""
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
RENDER = re.compile(r"^(.+?) render in-process: ([\d.]+) ms after a change, ([\d.]+) ms content loaded$")
RATIO = re.compile(r"^(.+?) / static file: ([\d.]+)×")
CATALOGUE = re.compile(r"^catalogue 1,000 GPUs vs 100: ([\d.]+|inf)×")


def run_once(tree):
    """One page_speed.py run in ``tree``: {figure name: value}."""
    output = subprocess.run(
        ["scripts/with-throwaway-postgres.sh", ".venv/bin/python", "bench/page_speed.py"],
        cwd=tree, capture_output=True, text=True, check=True,
        # No per-client limit in the process either: a tree whose page_speed.py leaves it would time 429 answers.
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "RENDER_RATE_LIMIT": "0"},
    ).stdout
    figures = {}
    for line in output.splitlines():
        if match := RENDER.match(line):
            figures[f"{match[1]}, after a change (ms)"] = float(match[2])
            figures[f"{match[1]}, content loaded (ms)"] = float(match[3])
        elif match := RATIO.match(line):
            figures[f"{match[1]} ÷ static file"] = float(match[2])
        elif match := CATALOGUE.match(line):
            figures["catalogue 1,000 ÷ 100 GPUs (time)"] = float(match[1])
    return figures


def main(old, new):
    runs = {old: [], new: []}
    for run in range(1, RUNS + 1):
        for tree in (old, new):
            print(f"run {run}: {tree}", file=sys.stderr, flush=True)
            runs[tree].append(run_once(tree))
    names = [name for name in runs[new][0] if name in runs[old][0]]
    print(f"{'':52}{'old (median)':>14}{'new (median)':>14}{'new ÷ old':>11}   runs old | new")
    for name in names:
        before = [figures[name] for figures in runs[old]]
        after = [figures[name] for figures in runs[new]]
        ratio = statistics.median(after) / statistics.median(before) if statistics.median(before) else float("inf")
        print(f"{name:52}{statistics.median(before):14.2f}{statistics.median(after):14.2f}{ratio:10.2f}×   "
              + " ".join(f"{value:.2f}" for value in before) + " | " + " ".join(f"{value:.2f}" for value in after))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*(str(Path(tree).resolve()) for tree in sys.argv[1:]))

#!/usr/bin/env bash
# The processor-seconds a test run costs the whole machine (every process: pytest's workers, PostgreSQL, servers,
# browsers), read from /proc/stat before and after, with its wall time; for comparing two trees on one host in
# the same hour, alternated. Usage: bench/suite_cost.sh [TREE ...] (default: this tree), each run as
# `make test-fast` runs it; SUITE=test for the whole suite's command; ROUNDS=n (default 1) alternates the trees.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
trees=("${@:-$here}")
target="${SUITE:-test-fast}"
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
for round in $(seq "${ROUNDS:-1}"); do
  for tree in "${trees[@]}"; do
    before=$(busy); start=$(date +%s.%N)
    # A run with failures is measured too (an older tree's tests may fail on a later date): its last line says so.
    out=$(make -s -C "$tree" "$target" PYTEST_ARGS="-q -p no:cacheprovider --durations=0" 2>&1 | tail -1 || true)
    end=$(date +%s.%N); after=$(busy)
    awk -v t="$tree" -v r="$round" -v w="$(echo "$end - $start" | bc)" -v c="$(( after - before ))" \
        -v hz="$(getconf CLK_TCK)" -v o="$out" \
        'BEGIN{printf "round %s  %-24s wall %6.1f s  processor %7.1f s  (%s)\n", r, t, w, c/hz, o}'
  done
done

#!/usr/bin/env bash
# Runs the benchmark suite and prints TSV tables (figures go to docs/benchmarks.md).
#   bench/run.sh rref        F_2 row reduction, ours vs libm4ri (single thread)
#   bench/run.sh milnor      Milnor basis and products
#   bench/run.sh engines     S_2 through stems 60-90, Nassau vs classical, 1 thread (issue 3)
#   bench/run.sh threads     S_2 through (90, 48), 1 vs 2 threads (issue 4)
#   bench/run.sh targets     S_2 at (60,40) (70,38) (80,43) (90,48) (100,53), 2 threads (issue 5)
#   bench/run.sh all
# Builds a Release tree in build-bench first.  Medians of 3 runs (RUNS=... to change).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DADAMS_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j"$(nproc)" >/dev/null
B=build-bench
echo "# $(date -u +%F) $(lscpu | sed -n 's/^Model name: *//p') $(nproc) cores, $(uname -r)"
what=${1:-all}
case $what in rref|all) $B/b-rref ;; esac
case $what in milnor|all) $B/b-milnor ;; esac
case $what in engines|all)
  $B/b-resolve --runs "$RUNS" --algorithm nassau 60 70 80 90
  $B/b-resolve --runs "$RUNS" --algorithm classical 60 70 80 | tail -n +2 ;;
esac
case $what in threads|all)
  $B/b-resolve --runs "$RUNS" --threads 1 90:48
  $B/b-resolve --runs "$RUNS" --threads 2 90:48 | tail -n +2 ;;
esac
case $what in targets|all)
  $B/b-resolve --runs "$RUNS" --threads 2 60:40 70:38 80:43 90:48 100:53 ;;
esac

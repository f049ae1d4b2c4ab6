#!/usr/bin/env bash
# Runs every benchmark: bench/run.sh BUILD_DIR. Each bench_* prints its own
# figures; bench/*.sh scripts (peers such as ffish) run after them.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
for b in "$build"/bench/bench_*; do
  [[ -x $b ]] || continue
  echo "== $(basename "$b")"
  "$b" || echo "($(basename "$b") failed: $?)"
done
for s in "$here"/bench_*.sh; do
  [[ -f $s ]] || continue
  echo "== $(basename "$s")"
  bash "$s" "$build" || echo "($(basename "$s") failed: $?)"
done

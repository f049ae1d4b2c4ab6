#!/usr/bin/env bash
# tools/sanitize.sh [--short] [BUILD_DIR]
#
# Build with AddressSanitizer + UndefinedBehaviorSanitizer (-DXQ_SANITIZE=ON,
# in BUILD_DIR, default build-asan) and run the tests under them, with leak
# detection (tools/lsan.supp: third-party leaks only) and XQ_SANITIZED=1
# (the tests that would widen the verifier's beam keep to the first one).
#
#   (no option)  every test: the recorded run, about 15 minutes on 2 cores
#   --short      every test but those labelled san_long (the longest under
#                the sanitizers, tests/CMakeLists.txt): what
#                `tools/setup.sh test`, and so CI, runs, about 4.5 minutes
#
# Prints CTest's summary and the wall time. Exit status: CTest's.
set -euo pipefail
short=0
if [[ ${1:-} == --short ]]; then short=1; shift; fi
if [[ ${1:-} == -* ]]; then
  echo "usage: tools/sanitize.sh [--short] [BUILD_DIR] (not: $1)" >&2; exit 64
fi
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build-asan}
cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_SANITIZE=ON >/dev/null
cmake --build "$dir" -j"$(nproc)"
args=(--output-on-failure -j2)
if (( short )); then
  args+=(-LE san_long)
  echo "== the tests under AddressSanitizer + UndefinedBehaviorSanitizer," \
       "but the longest (label san_long: tools/sanitize.sh runs them)"
else
  echo "== every test under AddressSanitizer + UndefinedBehaviorSanitizer"
fi
t0=$(date +%s)
set +e
(cd "$dir" && ASAN_OPTIONS=detect_leaks=1 \
   LSAN_OPTIONS=suppressions=$top/tools/lsan.supp \
   XQ_SANITIZED=1 ctest "${args[@]}")
rc=$?
set -e
echo "sanitizer pass: $(( $(date +%s) - t0 )) s wall, exit status $rc"
exit $rc

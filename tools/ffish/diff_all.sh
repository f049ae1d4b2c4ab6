#!/usr/bin/env bash
# Recorded run of the differential test against Fairy-Stockfish (ffish):
# every position of the corpus games plus WALKS random-walk positions per 8
# corpus positions (default 8: one per position, about 470,000 positions in
# all). Usage: tools/ffish/diff_all.sh [BUILD_DIR] [WALKS]
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
t=$build/tests/test_engine_ffish
[[ -x $t ]] || { echo "diff_all.sh: no $t (build first)" >&2; exit 2; }
XQ_FFISH_POSITIONS=-1 XQ_FFISH_WALKS=${2:-8} CMOCKA_MESSAGE_OUTPUT=stdout "$t"

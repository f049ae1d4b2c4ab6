#!/usr/bin/env bash
# tools/notation_roundtrip.sh [BUILD_DIR] - the recorded full run of the
# notation round trip: for EVERY position of EVERY ccpd-dev.pgn game, every
# legal move is written in simplified Chinese, traditional Chinese, WXF and
# ICCS and read back (same move, no warning), and the strings of all legal
# moves of a position are distinct in each notation. CI runs every 25th
# game (tests/test_notation_corpus.c, test_roundtrip).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build-notation}
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build" --target test_notation_corpus -j2 > /dev/null
XQ_ROUNDTRIP_ALL=1 /usr/bin/time -f "%U s user, %M KB max RSS" \
  "$build/tests/test_notation_corpus" 2>&1 | grep -E "round trip|test_roundtrip|user|PASSED|FAILED"

#!/usr/bin/env bash
# blankskip_probe.sh BUILD_DIR [FIRST_LINE...] - the silent-error probe of
# clean sheets with 2-5 blank cells and one skipped move (bench_verify's
# clean+blanks+skip row), 40 corpus games from each first line (default
# 200 400 600 800: the row itself and three held-out stretches), at the
# beam of XQ_BENCH_BEAM (default: the library's). Prints each stretch's
# moves right, flagged and silent errors, and every ply reported sure and
# wrong with its sheet (rerun one with XQ_BENCH_ONLY=blankskip
# XQ_BENCH_SKIP=FIRST XQ_BENCH_LINE=N bench/bench_verify). A recorded
# run, not a CI test: about a minute per stretch.
set -eu
build=${1:?usage: blankskip_probe.sh BUILD_DIR [FIRST_LINE...]}
shift
firsts=("$@")
((${#firsts[@]})) || firsts=(200 400 600 800)
for s in "${firsts[@]}"; do
  echo "== corpus lines $((s + 1))-$((s + 40))"
  XQ_BENCH_ONLY=blankskip XQ_BENCH_SKIP=$s XQ_BENCH_GAMES=20 XQ_BENCH_SPELL=0 \
    XQ_BENCH_SHEETS=1 "$build/bench/bench_verify" 2>&1 |
    awk '/^silent ply/ { held = held $0 "; "; next }
         /sheet \(corpus line/ { if (held != "") print "  " $0 " <- " held; held = ""; next }
         /moves right:|flagged for review:|silent errors:/ { print "  " $0 }'
done

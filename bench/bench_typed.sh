#!/usr/bin/env bash
# bench_typed.sh BUILD_DIR - typed records with one injected error each
# (bench/typed_errors.py: a digit or piece glyph typed wrong, two moves
# swapped, a move left out, an entry typed twice), through `xqscan verify`;
# prints per kind the plies flagged, wrong moves, silent errors and whether
# a finding names the error. Env XQ_BENCH_TYPED_N (default 100 records),
# XQ_BENCH_TYPED_SEED (default 5), XQ_BENCH_TYPED_ERRORS (default 1; 2: two
# errors per record, of two kinds).
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
corpus=${XQ_CORPUS_DIR:-$here/../../shared/corpus}
n=${XQ_BENCH_TYPED_N:-100}
seed=${XQ_BENCH_TYPED_SEED:-5}
nerr=${XQ_BENCH_TYPED_ERRORS:-1}
out="$build/bench-typed/n$n-s$seed"
[[ $nerr == 1 ]] || out="$out-e$nerr"
xq="$build/cli/xqscan"
if [[ ! -x $xq ]]; then echo "xqscan not built in $build"; exit 1; fi
if [[ ! -f $corpus/ccpd-dev.iccs.jsonl ]]; then
  echo "corpus not found in $corpus (set XQ_CORPUS_DIR)"; exit 0
fi
[[ -f $out/records/truth.json ]] ||
  /usr/bin/python3 "$here/typed_errors.py" make "$out/records" "$xq" \
    "$corpus/ccpd-dev.iccs.jsonl" "$n" "$seed" "$nerr"
rm -rf "$out/verified"
"$xq" verify -q -o "$out/verified" "$out/records" >/dev/null 2>&1 || true
/usr/bin/python3 "$here/typed_errors.py" score "$out/records" "$out/verified"

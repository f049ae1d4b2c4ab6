#!/usr/bin/env bash
# CLI test of `xqscan perft`: counts (depth 5 of the start position
# included, as ../shared/corpus/perft.txt), --fen, --divide, exit codes.
# Usage: tests/cli/perft.sh PATH/TO/xqscan   (env XQ_SOURCE_DIR)
set -u
x=${1:?usage: perft.sh XQSCAN}
src=${XQ_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fails=0
check() {   # check NAME WANT GOT
  if [[ "$2" == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: want [$2] got [$3]"; fails=$((fails+1)); fi
}
last() { tail -n 1; }

# reference counts, every depth of every line (depth 5 of the start position too)
while IFS='|' read -r fen counts; do
  [[ $fen == \#* || -z $fen ]] && continue
  fen=$(echo "$fen" | sed 's/ *$//')
  d=0
  for want in $counts; do
    d=$((d+1))
    [[ $want == - ]] && break
    got=$("$x" perft --fen "$fen" "$d" | last)
    check "perft $d ${fen:0:24}..." "nodes $want" "$got"
  done
done < "$src/tests/data/engine/perft.txt"

check "default start position" "nodes 1920" "$("$x" perft 2 | last)"
check "depth 0" "nodes 1" "$("$x" perft 0 | last)"
check "--fen=FEN, r for Red" "nodes 44" \
  "$("$x" perft --fen='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r' 1 | last)"
out=$("$x" perft --divide 2)
check "--divide lines" "45" "$(echo "$out" | wc -l | tr -d ' ')"
check "--divide sum" "nodes 1920" "$(echo "$out" | last)"
check "--divide h2e2" "h2e2: 45" "$(echo "$out" | grep '^h2e2:')"
check "checkmate has no moves" "nodes 0" \
  "$("$x" perft --fen '9/4aP3/2rk1a3/9/9/8p/9/3A5/9/3CK4 b - - 1 71' 3 | last)"

# invalid FEN: exit 1 and a message naming the problem
err=$("$x" perft --fen '4k4/9/9/9/9/9/9/9/9/4K4 w' 2 2>&1 >/dev/null); rc=$?
check "kings facing: exit" 1 "$rc"
check "kings facing: message" 1 "$(echo "$err" | grep -c 'kings face each other')"
"$x" perft --fen 'garbage' 2 >/dev/null 2>&1; check "garbage FEN: exit" 1 $?
"$x" perft --fen '' 1 >/dev/null 2>&1; check "empty FEN: exit" 1 $?

# usage errors: 64
for args in "" "abc" "-1" "13" "2 3" "--bogus 2" "--fen" "2x"; do
  # shellcheck disable=SC2086
  "$x" perft $args >/dev/null 2>&1; check "usage [$args]" 64 $?
done
"$x" perft --help >/dev/null; check "--help" 0 $?

echo "perft.sh: $fails failure(s)"
[[ $fails -eq 0 ]]

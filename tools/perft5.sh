#!/usr/bin/env bash
# Recorded run: every line of perft.txt at every depth, depth 5 of the start
# position included, through the CLI, with timings; then ffish's perft(5)
# when node/ffish are there. Usage:
#   tools/perft5.sh [PATH/TO/xqscan] [PERFT_FILE]
# default binary: build/cli/xqscan; default file: ../shared/corpus/perft.txt
# (else tests/data/engine/perft.txt). For a sanitizer run, pass the binary of
# a -DXQ_SANITIZE=ON build.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
x=${1:-$here/build/cli/xqscan}
file=${2:-$here/../shared/corpus/perft.txt}
[[ -f $file ]] || file=$here/tests/data/engine/perft.txt
[[ -x $x ]] || { echo "perft5.sh: no binary $x (build first)" >&2; exit 2; }
echo "binary: $x"
echo "file:   $file"
fails=0
while IFS='|' read -r fen counts; do
  [[ $fen == \#* || -z $fen ]] && continue
  fen=$(echo "$fen" | sed 's/ *$//')
  d=0
  for want in $counts; do
    d=$((d+1))
    [[ $want == - ]] && break
    t0=$(date +%s.%N)
    got=$("$x" perft --fen "$fen" "$d" | tail -n 1)
    t1=$(date +%s.%N)
    secs=$(echo "$t1 - $t0" | bc)
    if [[ "$got" == "nodes $want" ]]; then s=ok; else s=FAIL; fails=$((fails+1)); fi
    printf '%-4s d%d %12s  %8.3fs  %s\n' "$s" "$d" "${got#nodes }" "$secs" "${fen:0:40}"
  done
done < "$file"
echo "perft5.sh: $fails failure(s)"
[[ $fails -eq 0 ]]

#!/usr/bin/env bash
# perft(5) of the start position by xqscan and by Fairy-Stockfish
# (WebAssembly, npm ffish) in the same run, and the ratio. Process CPU time is
# the figure compared (the machine may be shared); wall time is shown too.
# Usage: bench/bench_ffish.sh [BUILD_DIR] [DEPTH]   (default build, 5)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
depth=${2:-5}
x=$build/cli/xqscan
[[ -x $x ]] || { echo "bench_ffish: no $x (build first)"; exit 2; }

# ours: CPU time of the xqscan process (bash `times` after it finishes)
TIMEFORMAT='%R %U'
ours=$( { time "$x" perft "$depth" >/tmp/xq_bench_perft.$$ ; } 2>&1 )
ours_nodes=$(tail -n 1 /tmp/xq_bench_perft.$$ | cut -d' ' -f2); rm -f /tmp/xq_bench_perft.$$
ours_wall=${ours% *}; ours_cpu=${ours#* }
printf 'xqscan perft(%d): nodes %s  wall %.3f s  cpu %.3f s\n' "$depth" "$ours_nodes" "$ours_wall" "$ours_cpu"

if ! command -v node >/dev/null || [[ ! -f $here/tools/node/node_modules/ffish/ffish.js ]]; then
  echo "bench_ffish: node or ffish absent (tools/node/node_modules/ffish): no comparison"
  exit 0
fi
out=$(node "$here/tools/ffish/perft.js" "$depth" 2>/dev/null)
ff_nodes=$(echo "$out" | sed -n 's/^nodes //p')
ff_wall=$(echo "$out" | sed -n 's/^seconds //p')
ff_cpu=$(echo "$out" | sed -n 's/^cpu //p')
printf 'ffish  perft(%d): nodes %s  wall %.3f s  cpu %.3f s\n' "$depth" "$ff_nodes" "$ff_wall" "$ff_cpu"
[[ "$ff_nodes" == "$ours_nodes" ]] || echo "bench_ffish: NODE COUNTS DIFFER"
awk -v a="$ff_cpu" -v b="$ours_cpu" -v c="$ff_wall" -v d="$ours_wall" 'BEGIN {
  if (b > 0) printf "ratio (ffish / xqscan): %.1fx by cpu time, %.1fx by wall time (target >= 20x)\n", a / b, c / d }'

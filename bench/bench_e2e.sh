#!/usr/bin/env bash
# bench_e2e.sh BUILD_DIR - the verifier's figures end to end (issue 5).
# Renders N sheets (env XQ_BENCH_E2E_N, default 2) per writing style
# (printed, kai, hand) x degradation (none, scan, photo), layouts mixed,
# each with one injected illegal move, one skipped ply and 3% blank cells
# (plus the renderer's default illegible and struck cells); then N sheets
# with 30% blank cells (over the unrecorded threshold) and N Red+Black
# pairs. A second table reads N more sheets per style x degradation as
# players write them: no injected illegal or skipped move, the renderer's
# defaults only (1% blank, 1% scribbled, 0.5% struck and corrected); the
# issue's moves-right and flagged-for-review figures per writing style are
# those of sheets as written, the first table's of sheets full of errors.
# tools/render/render_sheets.py is deterministic by seed; sheets are
# cached in BUILD_DIR/bench-e2e-sheets (delete it to re-render). The truth
# is flattened by bench/e2e_truth.py and bench_e2e runs the real scan path
# (xq_ocr_read_file -> xq_verify_sheet) and prints the figures.
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
corpus=${XQ_CORPUS_DIR:-$src/../shared/corpus}
n=${XQ_BENCH_E2E_N:-2}
seed=${XQ_BENCH_E2E_SEED:-7100}
out="$build/bench-e2e-sheets/n$n-s$seed"
py=/usr/bin/python3
if [[ ! -x "$build/bench/bench_e2e" ]]; then
  echo "bench_e2e not built in $build"; exit 1
fi
if [[ ! -f "$corpus/ccpd-dev.pgn" ]]; then
  echo "corpus not found in $corpus (set XQ_CORPUS_DIR)"; exit 0
fi
R=("$py" "$src/tools/render/render_sheets.py" --games "$corpus/ccpd-dev.pgn"
   --iccs "$corpus/ccpd-dev.iccs.jsonl" --count "$n" --layout mixed)
mkdir -p "$out"
# render_set PREFIX SEED [RENDERER ARGS]: one set per style x degradation
# (PREFIX style-deg, seed SEED + 100 * len(style) + len(deg)), its
# directories appended to made
render_set() {
  local pre=$1 base=$2 style deg d
  shift 2
  for style in printed kai hand; do
    for deg in none scan photo; do
      d="$pre$style-$deg"
      made+=("$d")
      [[ -f "$d/manifest.json" ]] && continue
      "${R[@]}" --out "$d" --seed $((base + ${#style} * 100 + ${#deg})) \
        --style "$style" --degrade "$deg" "$@" >/dev/null
    done
  done
}
made=()
render_set "$out/" "$seed" --inject-illegal 1 --inject-skip 1 --blank-rate 0.03
dirs=("${made[@]}")
d="$out/threshold"; dirs+=("$d")
[[ -f "$d/manifest.json" ]] || "${R[@]}" --out "$d" --seed $((seed + 1)) \
  --style mixed --degrade scan --blank-rate 0.3 >/dev/null
d="$out/pair"; dirs+=("$d")
[[ -f "$d/manifest.json" ]] || "${R[@]}" --out "$d" --seed $((seed + 2)) \
  --style mixed --degrade scan --pair >/dev/null
made=()
render_set "$out/as-written/" $((seed + 5000))
clean=("${made[@]}")
$py "$here/e2e_truth.py" "${dirs[@]}" > "$out/e2e.tsv"
$py "$here/e2e_truth.py" "${clean[@]}" > "$out/e2e-as-written.tsv"
echo "== sheets with injected errors (one illegal and one skipped move per sheet, 3% blank), threshold sheets, pairs"
OMP_THREAD_LIMIT=1 "$build/bench/bench_e2e" "$out/e2e.tsv"
echo
echo "== sheets as written (no injected errors; 1% blank, 1% scribbled, 0.5% struck)"
OMP_THREAD_LIMIT=1 "$build/bench/bench_e2e" "$out/e2e-as-written.tsv"

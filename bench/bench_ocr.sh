#!/usr/bin/env bash
# bench_ocr.sh BUILD_DIR [--geom] - OCR figures on freshly rendered
# scoresheets (--geom: geometry and blank figures only, fast).
# Renders N sheets (default 2, env XQ_BENCH_OCR_N) for every writing style
# (printed, kai, hand) x degradation (none, scan, photo), layouts mixed
# (federation-like ruled tables and xqscan's form), with
# tools/render/render_sheets.py (deterministic by seed), flattens the truth
# with tools/ocr/truth2tsv.py and runs bench_ocr, which prints geometry,
# blank, raw-text and rank-1 figures and CPU seconds per page next to plain
# `tesseract PAGE - -l chi_sim --psm 6`. Rendered sheets are cached in
# BUILD_DIR/bench-ocr-sheets (delete it to re-render).
set -eu
build=${1:-build}
shift || true
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
corpus=${XQ_CORPUS_DIR:-$src/../shared/corpus}
n=${XQ_BENCH_OCR_N:-2}
seed=${XQ_BENCH_OCR_SEED:-4242}
out="$build/bench-ocr-sheets/n$n-s$seed"
py=/usr/bin/python3
if [[ ! -x "$build/bench/bench_ocr" ]]; then
  echo "bench_ocr not built in $build"; exit 1
fi
if [[ ! -f "$corpus/ccpd-dev.pgn" ]]; then
  echo "corpus not found in $corpus (set XQ_CORPUS_DIR)"; exit 0
fi
mkdir -p "$out"
for style in printed kai hand; do
  for deg in none scan photo; do
    d="$out/$style-$deg"
    if [[ ! -f "$d/manifest.json" ]]; then
      s=$((seed + ${#style} * 100 + ${#deg}))
      $py "$src/tools/render/render_sheets.py" --games "$corpus/ccpd-dev.pgn" \
        --iccs "$corpus/ccpd-dev.iccs.jsonl" --out "$d" --count "$n" \
        --seed "$s" --style "$style" --degrade "$deg" --layout mixed >/dev/null
    fi
  done
done
$py "$src/tools/ocr/truth2tsv.py" "$out"/*-* > "$out/truth.tsv"
OMP_THREAD_LIMIT=1 "$build/bench/bench_ocr" "$out/truth.tsv" "$@"

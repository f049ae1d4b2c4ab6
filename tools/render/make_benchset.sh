#!/bin/bash
# make_benchset.sh OUT [N] [SEED]
# A balanced benchmark set of rendered sheets for the OCR and verifier
# benchmarks: N sheets (default 8) for every writing style x degradation
# (layouts mixed: ruled 1-3 blocks and the xqscan form), plus N sheets with
# injected errors (2 illegal moves, 1 skipped ply, 3% blank, 2% illegible) and
# N/2 Red+Black pairs. Deterministic: the same arguments give the same files.
# Each subfolder has manifest.json; every image has NAME.truth.json beside it.
set -eu
OUT=${1:?usage: make_benchset.sh OUT [N] [SEED]}
N=${2:-8}
SEED=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS=${XQ_CORPUS_DIR:-$HERE/../../../shared/corpus}
R=("/usr/bin/python3" "$HERE/render_sheets.py" --games "$CORPUS/ccpd-dev.pgn"
   --iccs "$CORPUS/ccpd-dev.iccs.jsonl")
mkdir -p "$OUT"
k=0
for style in printed kai hand; do
    for deg in none scan photo; do
        k=$((k + 1))
        "${R[@]}" --out "$OUT/$style-$deg" --count "$N" --seed $((SEED * 100 + k)) \
            --style "$style" --degrade "$deg" --layout mixed
    done
done
"${R[@]}" --out "$OUT/errors" --count "$N" --seed $((SEED * 100 + 50)) --inject-illegal 2 \
    --inject-skip 1 --blank-rate 0.03 --illegible-rate 0.02 --strike-rate 0.01
"${R[@]}" --out "$OUT/pairs" --count $(((N + 1) / 2)) --seed $((SEED * 100 + 60)) --pair
echo "benchmark set in $OUT: $(find "$OUT" -name '*.truth.json' | wc -l) truth files"

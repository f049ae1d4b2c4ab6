#!/usr/bin/env bash
# bench_batch.sh BUILD_DIR - batch throughput and worker memory of xqscan.
#
# Prints sheets per second with 1 worker and with N workers (N = cores), the
# peak memory (max RSS) of a worker, and whether worker memory stays flat as
# the batch grows (SMALL vs LARGE inputs through one worker).
#
# Inputs: XQ_BENCH_SHEETS=DIR (rendered scoresheets, e.g. from
# tools/render/make_benchset.sh) - or, by default, generated pages with a
# little ink and no move table, which go through the whole pipeline cheaply
# (good for the memory figure, not for OCR speed).
# XQ_BENCH_SMALL (default 20) and XQ_BENCH_LARGE (default 200) set the two
# batch sizes; the recorded run uses 100 and 1000 (DEVELOPERS.md).
set -euo pipefail
build=${1:-build}
xq=$build/cli/xqscan
[[ -x $xq ]] || { echo "bench_batch: no $xq"; exit 1; }
small=${XQ_BENCH_SMALL:-20}
large=${XQ_BENCH_LARGE:-200}
cores=$(nproc)
work=$(mktemp -d /tmp/xq_bench_batch.XXXXXX)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/pool"
if [[ -n ${XQ_BENCH_SHEETS:-} ]]; then
    find "$XQ_BENCH_SHEETS" -type f \( -name '*.png' -o -name '*.jpg' -o -name '*.tif' \) \
        ! -name '*debug*' | head -n "$large" | while read -r f; do
        cp "$f" "$work/pool/"
    done
    kind="rendered sheets from $XQ_BENCH_SHEETS"
else
    /usr/bin/python3 - "$work/pool" <<'EOF'
import os, random, sys
from PIL import Image, ImageDraw
for i in range(10):
    im = Image.new("L", (1240, 1754), 255)
    dr = ImageDraw.Draw(im)
    rnd = random.Random(i)
    for _ in range(60):
        x, y = rnd.randrange(1100), rnd.randrange(1600)
        dr.line((x, y, x + rnd.randrange(120), y + rnd.randrange(6)), fill=0, width=2)
    im.save(os.path.join(sys.argv[1], "page%02d.png" % i))
EOF
    kind="generated pages without a move table"
fi
pool=("$work"/pool/*)
npool=${#pool[@]}

make_set() {  # make_set DIR N: N inputs, hard links cycling through the pool
    local dir=$1 n=$2 i
    mkdir -p "$dir"
    for ((i = 0; i < n; i++)); do
        local f=${pool[i % npool]}
        ln "$f" "$dir/in$(printf %05d "$i").${f##*.}"
    done
}

run() {  # run DIR JOBS -> "seconds inputs_per_s peak_mb"
    local line
    rm -rf "$work/out"
    set +e
    OMP_THREAD_LIMIT=1 "$xq" -j "$2" -o "$work/out" "$1" 2> "$work/err.txt"
    set -e
    line=$(tail -1 "$work/err.txt")
    echo "$line" | sed -n 's/.*; \([0-9.]*\) s, \([0-9.]*\) inputs\/s, peak worker memory \([0-9]*\) MB.*/\1 \2 \3/p'
}

make_set "$work/small" "$small"
make_set "$work/large" "$large"
echo "bench_batch: $kind; $(nproc) cores"
read -r s1 r1 m1 <<< "$(run "$work/small" 1)"
echo "sheets/s with 1 worker:  $r1  ($small sheets in $s1 s)"
read -r sn rn mn <<< "$(run "$work/small" "$cores")"
echo "sheets/s with $cores workers: $rn  ($small sheets in $sn s)"
echo "peak memory per worker:  $m1 MB (1 worker), $mn MB ($cores workers)"
read -r sl rl ml <<< "$(run "$work/large" 1)"
echo "peak worker memory, $small sheets: $m1 MB; $large sheets: $ml MB (1 worker, $rl sheets/s)"
awk -v a="$m1" -v b="$ml" 'BEGIN { d = b - a; printf "memory growth %+d MB over %s: %s\n", d, "the larger batch", (d <= 0.1 * a + 8) ? "flat" : "GROWS" }'

# Blank pages (a duplex scan's blank backs, a phone photo of one): white,
# scanner-noisy and unevenly lit paper, no ruling; xqscan reads them once,
# not turned four ways (OCR_ORIENT_RULES in ocr/ocr.c). Figure: seconds a
# page, and against the pages above.
mkdir -p "$work/blank"
/usr/bin/python3 - "$work/blank" <<'EOF'
import os, sys
import numpy as np
from PIL import Image
rng = np.random.default_rng(3)
h, w = 1754, 1240
y, x = np.mgrid[0:h, 0:w]
pages = [np.full((h, w), 255.0),
         rng.normal(232, 9, (h, w)),
         200 + 40 * np.exp(-((x - 560) ** 2 + (y - 800) ** 2) / (2 * 560.0 ** 2))
         + rng.normal(0, 6, (h, w)),
         np.full((h, w), 250.0)]
for i, a in enumerate(pages):
    im = Image.fromarray(np.clip(a, 0, 255).astype("uint8"))
    im.save(os.path.join(sys.argv[1], "blank%02d.%s" % (i, "jpg" if i in (1, 2) else "png")))
EOF
read -r sb rb mb <<< "$(run "$work/blank" 1)"
awk -v a="$sb" -v b="$s1" -v n="$small" 'BEGIN { printf "blank pages: %.2f s a page (4 through 1 worker), %.2f times a page above\n", a / 4, (a / 4) / (b / n) }'

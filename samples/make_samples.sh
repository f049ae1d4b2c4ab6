#!/usr/bin/env bash
# samples/make_samples.sh [BUILD_DIR] - regenerate the sample scans and their
# expected outputs (samples/expected/). Deterministic renders
# (tools/render/render_sheets.py, fixed seeds), scaled to ~200 dpi and saved
# as JPEG so each stays a few hundred KB.
#   printed.jpg         printed sheet, a federation-like 2-block table, scanned
#   hand-ruled.jpg      stroke handwriting, a federation-like ruled table
#   kai-form.jpg        brush (kai) handwriting on xqscan's form
#   photo.jpg           a phone photo (perspective, shading) of xqscan's form
#   errors.jpg          2 illegal moves, 1 skipped ply, blank cells
#   threshold.jpg       a third of the moves unrecorded: over the 16-move threshold
#   pair-red.jpg, pair-black.jpg   Red's and Black's sheets of one game
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${1:-$top/build}
corpus=${XQ_CORPUS_DIR:-$top/../shared/corpus}
tmp=$(mktemp -d /tmp/xq_samples.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
R=(/usr/bin/python3 "$top/tools/render/render_sheets.py" --games "$corpus/ccpd-dev.pgn"
   --iccs "$corpus/ccpd-dev.iccs.jsonl" --count 1 --format jpg)
"${R[@]}" --out "$tmp/printed" --seed 301 --style printed --layout ruled-2 --degrade scan
"${R[@]}" --out "$tmp/hand-ruled" --seed 202 --style hand --layout ruled-1 --degrade scan
"${R[@]}" --out "$tmp/kai-form" --seed 103 --style kai --layout form --degrade scan
"${R[@]}" --out "$tmp/photo" --seed 204 --style printed --layout form --degrade photo
"${R[@]}" --out "$tmp/errors" --seed 105 --style printed --layout ruled-2 --degrade scan \
    --inject-illegal 2 --inject-skip 1 --blank-rate 0.03
"${R[@]}" --out "$tmp/threshold" --seed 106 --style kai --layout form --degrade scan --blank-rate 0.3
"${R[@]}" --out "$tmp/pair" --seed 107 --style kai --layout form --degrade scan --pair
/usr/bin/python3 - "$tmp" "$here" <<'PY'
import glob, os, sys
from PIL import Image
tmp, here = sys.argv[1:3]
jobs = [(d, os.path.join(tmp, d, "sheet_00000.jpg")) for d in
        ("printed", "hand-ruled", "kai-form", "photo", "errors", "threshold")]
jobs += [("pair-red", os.path.join(tmp, "pair", "sheet_00000_red.jpg")),
         ("pair-black", os.path.join(tmp, "pair", "sheet_00000_black.jpg"))]
for name, src in jobs:
    im = Image.open(src)
    if im.size[0] > 1760 and name != "photo":  # to ~200 dpi (not the photo)
        f = 1654 / im.size[0]
        im = im.resize((1654, round(im.size[1] * f)), Image.LANCZOS)
    if name != "photo":
        im = im.convert("L")
    im.save(os.path.join(here, name + ".jpg"), quality=65 if name == "printed" else 75,
            optimize=True)
PY
rm -rf "$here/expected"
set +e
"$build/cli/xqscan" -q -j 2 -o "$here/expected" "$here"/*.jpg
echo "xqscan exit status $? (1: sheets for an arbiter)"
# the README's picture: the top of errors.jpg's report (Chromium, if present)
if command -v chromium >/dev/null; then
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1000,1400 --screenshot="$here/expected/report.png" \
        "file://$here/expected/errors.html" 2>/dev/null
fi

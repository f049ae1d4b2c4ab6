#!/bin/bash
# A sheet fed to the scanner upside down or sideways reads as the sheet the
# right way up: renders one kai sheet through a scan (small writing, the
# hardest case to tell: its records fit the glyphs least) and one printed
# sheet, turns each a quarter, a half and three quarters (PIL), runs xqscan
# on all eight and compares every turned sheet's moves with its upright
# one's (ocr/ocr.c, read_upright). Before, a turned page read as hundreds
# of plies, a false threshold error among them.
# $1 = xqscan binary; env XQ_SOURCE_DIR, XQ_CORPUS_DIR.
set -euo pipefail
bin=$1
SRC=${XQ_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CORPUS=${XQ_CORPUS_DIR:-$SRC/../shared/corpus}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=("$PY" "$SRC/tools/render/render_sheets.py" --games "$CORPUS/ccpd-dev.pgn"
   --iccs "$CORPUS/ccpd-dev.iccs.jsonl" --layout ruled --count 1)
# the sanitizer pass (XQ_SANITIZED): the kai sheet only (the same code
# paths; the printed sheet doubled its time there)
styles="kai printed"
[[ -n ${XQ_SANITIZED:-} ]] && styles="kai"
"${R[@]}" --out "$tmp/kai" --seed 9805 --style kai --degrade scan >/dev/null
[[ $styles == *printed* ]] &&
  "${R[@]}" --out "$tmp/printed" --seed 9806 --style printed --degrade none >/dev/null
mkdir "$tmp/in"
"$PY" - "$tmp" $styles <<'PYEOF'
import sys
from PIL import Image
t = sys.argv[1]
for s in sys.argv[2:]:
    im = Image.open(f"{t}/{s}/sheet_00000.png")
    im.save(f"{t}/in/{s}-0.png")
    for a in (90, 180, 270):
        im.rotate(a, expand=True).save(f"{t}/in/{s}-{a}.png")
PYEOF
set +e
"$bin" -q -j 2 -o "$tmp/out" "$tmp"/in/*.png
rc=$?
set -e
[[ $rc -le 1 ]] || { echo "xqscan exit status $rc"; exit 1; }
"$PY" - "$tmp/out" $styles <<'PYEOF'
import json, sys
out = sys.argv[1]
def moves(name):
    d = json.load(open(f"{out}/{name}.json", encoding="utf-8"))
    return [p["move"]["iccs"] if p["move"] else None for p in d["plies"]]
for s in sys.argv[2:]:
    up = moves(f"{s}-0")
    assert len(up) >= 20, (s, len(up))
    for a in (90, 180, 270):
        got = moves(f"{s}-{a}")
        assert got == up, (s, a, len(got), len(up))
print("turned sheets read as upright: ok")
PYEOF

#!/bin/bash
# Scribbled-out records are unreadable, and nothing else is taken for one:
# renders two printed sheets (6% of the records struck through and written
# again above or below, three of whose strikes are not found: two lines of
# ink in one cell that match glyphs badly) and one kai sheet with two
# records scribbled out, runs xqscan and compares with the renderer's truth.
# Every ply reported scribbled over must be an illegible record, and the kai
# sheet's two scribbles must be found (xq_sheet_cell_illegible in
# ocr/ocr.c; before it looked at the ink's height, the struck records of
# plies 81, 11 and 75 were taken for scribbles).
# $1 = xqscan binary; env XQ_SOURCE_DIR, XQ_CORPUS_DIR.
set -euo pipefail
bin=$1
SRC=${XQ_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CORPUS=${XQ_CORPUS_DIR:-$SRC/../shared/corpus}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=("$PY" "$SRC/tools/render/render_sheets.py" --games "$CORPUS/ccpd-dev.pgn"
   --iccs "$CORPUS/ccpd-dev.iccs.jsonl" --layout mixed --strike-rate 0.06 --blank-rate 0.02)
"${R[@]}" --out "$tmp/printed" --count 2 --seed 9804 --style printed --degrade none >/dev/null
"${R[@]}" --out "$tmp/kai" --count 1 --seed 9404 --style kai --degrade none >/dev/null
mkdir "$tmp/in"
for s in printed/sheet_00000 printed/sheet_00001 kai/sheet_00000; do
    cp "$tmp/$s.png" "$tmp/in/${s/\//-}.png"
done
set +e
"$bin" -q -j 2 -o "$tmp/out" "$tmp"/in/*.png
rc=$?
set -e
[[ $rc == 0 || $rc == 1 ]] || { echo "FAIL: xqscan exit status $rc" >&2; exit 1; }
"$PY" - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
bad = found = 0
for s in ("printed/sheet_00000", "printed/sheet_00001", "kai/sheet_00000"):
    truth = json.load(open("%s/%s.truth.json" % (tmp, s), encoding="utf-8"))["pages"][0]
    ill = {p["ply"] for p in truth["plies"] if p["flags"]["illegible"]}
    game = json.load(open("%s/out/%s.json" % (tmp, s.replace("/", "-")), encoding="utf-8"))
    for f in game["findings"]:
        if f["code"] != "unreadable_move" or "scribbled" not in f["message"]:
            continue
        if f["ply"] in ill:
            found += 1
        else:
            bad += 1
            print("FAIL: %s ply %d reported scribbled over, but it is a legible record (%s)"
                  % (s, f["ply"], "struck and rewritten" if truth["plies"][f["ply"] - 1]["flags"]["struck"]
                     else "written"), file=sys.stderr)
    if s.startswith("kai") and len(ill) != 2:
        print("FAIL: the kai sheet has %d scribbles, not 2 (renderer changed?)" % len(ill), file=sys.stderr)
        bad += 1
if found < 2:
    print("FAIL: %d of the kai sheet's 2 scribbles found" % found, file=sys.stderr)
    bad += 1
if bad:
    sys.exit(1)
print("%d scribbled records found, no legible record taken for one" % found)
PY

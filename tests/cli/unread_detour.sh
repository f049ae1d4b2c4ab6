#!/bin/bash
# No sure wrong move where records read as no move at all: renders two kai
# sheets photographed, with 6% of the records struck through and written
# again (some strikes are not found) and scribbled-out records, runs xqscan
# on them and compares every ply with the renderer's truth: a ply whose move
# is wrong must be under review. Sheet 1 (corpus game 2456) once had ply 15
# decoded g1f3 (truth g2f4) and reported sure: its struck record at ply 3 and
# its scribbled one at ply 9 were both decoded as a detour of the same horse,
# and no single alternative ply followed undid it (doubt_forward,
# ply_read_clearly in replay/verify/decode.c).
# $1 = xqscan binary; env XQ_SOURCE_DIR, XQ_CORPUS_DIR.
set -euo pipefail
bin=$1
SRC=${XQ_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CORPUS=${XQ_CORPUS_DIR:-$SRC/../shared/corpus}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PY" "$SRC/tools/render/render_sheets.py" --games "$CORPUS/ccpd-dev.pgn" \
    --iccs "$CORPUS/ccpd-dev.iccs.jsonl" --out "$tmp/sheets" --count 2 --seed 9405 \
    --style kai --degrade photo --layout mixed --strike-rate 0.06 --blank-rate 0.02 >/dev/null
# the sanitizer pass (XQ_SANITIZED): sheet 1 only, the one that had the
# sure wrong move (the same code paths at half the time)
names="sheet_00000 sheet_00001"
[[ -n ${XQ_SANITIZED:-} ]] && names="sheet_00001"
ins=()
for n in $names; do ins+=("$tmp/sheets/$n.png"); done
set +e
"$bin" -q -j 2 -o "$tmp/out" "${ins[@]}"
rc=$?
set -e
[[ $rc == 0 || $rc == 1 ]] || { echo "FAIL: xqscan exit status $rc" >&2; exit 1; }
"$PY" - "$tmp/sheets" "$tmp/out" $names <<'PY'
import json, sys
sheets, out = sys.argv[1:3]
silent = plies = 0
for name in sys.argv[3:]:
    truth = json.load(open("%s/%s.truth.json" % (sheets, name), encoding="utf-8"))["pages"][0]["iccs"]
    game = json.load(open("%s/%s.json" % (out, name), encoding="utf-8"))
    for p in game["plies"]:
        n = p["ply"]
        if n > len(truth):
            continue
        plies += 1
        mv = (p.get("move") or {}).get("iccs")
        if mv != truth[n - 1] and not p["review"]:
            silent += 1
            print("FAIL: %s ply %d: %s decoded, %s played, not under review (confidence %s)"
                  % (name, n, mv, truth[n - 1], p["confidence"]), file=sys.stderr)
if silent:
    sys.exit(1)
print("no sure wrong move in %d plies" % plies)
PY

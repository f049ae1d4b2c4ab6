#!/bin/bash
# Smoke test of the test-sheet renderer (tools/render): renders 2 sheets with a
# fixed seed, checks them with tools/render/check_truth.py (truth parses, every
# written text replays to its ICCS move, injected illegal moves are really
# illegal, skipped plies have no cell, every box lies inside its image), that a
# rerun is byte-identical, that form_geometry.json is what the renderer draws,
# and the renderer's rules engine against perft.
# $1 (the xqscan binary) is not needed. Env: XQ_SOURCE_DIR, XQ_CORPUS_DIR.
set -eu
SRC=${XQ_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CORPUS=${XQ_CORPUS_DIR:-$SRC/../shared/corpus}
PY=/usr/bin/python3
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ARGS=(--games "$CORPUS/ccpd-dev.pgn" --iccs "$CORPUS/ccpd-dev.iccs.jsonl" --count 2 --seed 11
      --style mixed --layout mixed --degrade mixed --blank-rate 0.05 --illegible-rate 0.03
      --inject-illegal 2 --inject-skip 1)
"$PY" "$SRC/tools/render/render_sheets.py" "${ARGS[@]}" --out "$OUT/a"
"$PY" "$SRC/tools/render/render_sheets.py" "${ARGS[@]}" --out "$OUT/b"
for f in "$OUT"/a/*; do
    cmp -s "$f" "$OUT/b/$(basename "$f")" || { echo "not deterministic: $(basename "$f")"; exit 1; }
done
"$PY" "$SRC/tools/render/check_truth.py" "$OUT/a"
"$PY" - "$OUT/a" <<'PYEOF'
import json, os, sys
man = json.load(open(os.path.join(sys.argv[1], "manifest.json"), encoding="utf-8"))
assert len(man["images"]) == 2, man
for ent in man["images"]:
    page = json.load(open(os.path.join(sys.argv[1], ent["truth"]), encoding="utf-8"))["pages"][0]
    c = page["counts"]
    assert c["skipped"] == 1 and c["injected_illegal"] >= 1, c
PYEOF
# xqscan form: the committed geometry is the one the renderer draws, and a
# clean rendered form puts every cell exactly where form_geometry.json says.
"$PY" "$SRC/tools/render/render_sheets.py" --games "$CORPUS/ccpd-dev.pgn" \
    --iccs "$CORPUS/ccpd-dev.iccs.jsonl" --count 1 --seed 3 --layout form --degrade none \
    --style hand --out "$OUT/form"
"$PY" - "$OUT/form" "$SRC/tools/render" "$CORPUS" <<'PYEOF'
import json, os, sys
out, tools, corpus = sys.argv[1:4]
sys.path.insert(0, tools)
import xqform, xqgames
with open(os.path.join(tools, "form_geometry.json"), encoding="utf-8") as f:
    committed = f.read()
assert committed == xqform.dumps(xqform.form_geometry()), "form_geometry.json is stale"
geo = json.loads(committed)
page = json.load(open(os.path.join(out, "sheet_00000.truth.json"), encoding="utf-8"))["pages"][0]
assert page["layout"]["name"] == "xqscan-form"
assert page["size"] == [geo["page"]["width"], geo["page"]["height"]]
assert len(page["cells"]) == len(geo["cells"]) == 240
for c, g in zip(page["cells"], geo["cells"]):
    assert (c["block"], c["row"], c["column"], c["move"]) == (g["block"], g["row"], g["side"], g["move"])
    assert [round(v) for v in c["box"]] == g["rect"], (c, g)
# the renderer's own rules engine (used for truth checks and illegal
# injections) against the corpus perft counts, depth 2
def perft(b, d):
    if d == 0:
        return 1
    n = 0
    for s, t in b.legal_moves():
        c = b.copy(); c.make(s, t); n += perft(c, d - 1)
    return n
for line in open(os.path.join(corpus, "perft.txt"), encoding="utf-8"):
    if line.startswith("#") or "|" not in line:
        continue
    fen, counts = line.split("|")
    want = [int(v) for v in counts.split()[:2]]
    got = [perft(xqgames.Board(fen.strip()), d) for d in (1, 2)]
    assert got == want, (fen, got, want)
print("form geometry and perft ok")
PYEOF
echo "render smoke test passed"

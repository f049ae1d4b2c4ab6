#!/bin/bash
# Smoke test of the test-sheet renderer (tools/render): renders 2 sheets with a
# fixed seed, checks that images and truth files exist, that the truth parses,
# that every box lies inside its image, that injected illegal moves are really
# illegal and skipped plies have no cell, and that a rerun is byte-identical.
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
"$PY" - "$OUT/a" "$SRC/tools/render" <<'PYEOF'
import json, os, sys
from PIL import Image
out, tools = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
import xqgames
man = json.load(open(os.path.join(out, "manifest.json"), encoding="utf-8"))
assert len(man["images"]) == 2, man
for ent in man["images"]:
    img = Image.open(os.path.join(out, ent["image"]))
    doc = json.load(open(os.path.join(out, ent["truth"]), encoding="utf-8"))
    assert doc["format"] == "xqrender-truth" and doc["image"] == ent["image"]
    page = doc["pages"][0]
    W, H = img.size
    assert [W, H] == page["size"], (img.size, page["size"])
    plies = page["plies"]
    assert len(plies) == len(page["iccs"]) > 0
    assert [p["iccs"] for p in plies] == page["iccs"]
    board = xqgames.Board(page["start_fen"])
    n_inj = n_skip = 0
    for p in plies:
        fl = p["flags"]
        if fl["skipped"]:
            assert p["cell"] is None
            n_skip += 1
        else:
            c = p["cell"]
            x, y, w, h = c["box"]
            assert 0 <= x and 0 <= y and x + w <= W and y + h <= H and w > 10 and h > 10, c
            for qx, qy in c["quad"]:
                assert -1 <= qx <= W + 1 and -1 <= qy <= H + 1, c
            if fl["blank"]:
                assert p["text"] == ""
        if fl["injected_illegal"]:
            st, _, _ = xqgames.resolve(board, p["text"])
            assert st != "ok", p
            n_inj += 1
        elif not fl["blank"] and not fl["skipped"]:
            st, m, _ = xqgames.resolve(board, p["text"])
            assert st == "ok" and xqgames.sqs_to_iccs(*m) == p["iccs"], p
        board.make(*xqgames.iccs_to_sqs(p["iccs"]))
    assert n_skip == 1 and n_inj >= 1, (n_skip, n_inj)
    for hd in page["header"]:
        x, y, w, h = hd["box"]
        assert 0 <= x and 0 <= y and x + w <= W and y + h <= H, hd
    print("ok", ent["image"], W, H, page["style"], page["layout"]["name"],
          page["degradation"]["kind"], page["counts"])
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

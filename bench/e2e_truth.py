#!/usr/bin/python3
"""e2e_truth.py DIR... > e2e.tsv

Flattens the renderer's ground truth (tools/render/render_sheets.py,
*.truth.json) into the tab-separated file bench/bench_e2e.c reads (no JSON
library in C):
  P <image> <page> <style> <layout> <degradation> <owner> <pair> <nplies> <fen>
  Y <ply> <iccs> <flag> <cell index or -1>
owner: red, black or - ; pair: "<red image>|<black image>" for the two sheets
of one game, - otherwise (each image then appears twice, once per sheet).
flag: ok, blank, illegible, injected (a written illegal text), skipped (no
cell), struck (crossed out and rewritten). Plies in record order.
"""
import glob
import json
import os
import sys


def flag_of(f):
    for k, name in (("skipped", "skipped"), ("blank", "blank"),
                    ("illegible", "illegible"), ("injected_illegal", "injected"),
                    ("struck", "struck")):
        if f.get(k):
            return name
    return "ok"


def main(dirs):
    for d in dirs:
        for tp in sorted(glob.glob(os.path.join(d, "*.truth.json"))):
            with open(tp, encoding="utf-8") as fh:
                t = json.load(fh)
            img = os.path.join(d, t["image"])
            for p in t["pages"]:
                owner = p.get("owner") or "-"
                pair = "-"
                if p.get("pair"):
                    other = os.path.join(d, p["pair"]["image"])
                    red, black = (img, other) if owner == "red" else (other, img)
                    pair = red + "|" + black
                print("P\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s" % (
                    img, p["page_index"], p["style"], p["layout"]["name"],
                    p["degradation"]["kind"], owner, pair, len(p["plies"]),
                    p["start_fen"]))
                for q in p["plies"]:
                    c = q.get("cell")
                    print("Y\t%d\t%s\t%s\t%d" % (q["ply"], q["iccs"], flag_of(q["flags"]),
                                                 c["index"] if c else -1))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

#!/usr/bin/python3
"""truth2tsv.py DIR... > truth.tsv

Flattens the renderer's ground truth (tools/render/render_sheets.py,
*.truth.json) into a tab-separated file that bench/bench_ocr.c reads
without a JSON library:
  P <image path> <page index> <style> <layout> <degradation> <ncells>
  C <cell index> <blank 0|1> <x> <y> <w> <h> <flag> <text>
flag: ok, illegible, struck, injected (text is what was written; "-" if none).
Cells are in move order (the order xq_ocr reports them).
"""
import glob, json, os, sys

for d in sys.argv[1:]:
    for tp in sorted(glob.glob(os.path.join(d, "*.truth.json"))):
        t = json.load(open(tp, encoding="utf-8"))
        img = os.path.join(d, t["image"])
        for p in t["pages"]:
            plies = {q["ply"]: q for q in p["plies"]}
            cells = sorted(p["cells"], key=lambda c: c["index"])
            print("P\t%s\t%d\t%s\t%s\t%s\t%d" % (img, p["page_index"], p["style"],
                  p["layout"]["name"], p["degradation"]["kind"], len(cells)))
            for c in cells:
                q = plies.get(c["ply"]) if c["ply"] else None
                text = q["text"] if q else ""
                f = q["flags"] if q else {}
                blank = 1 if (not q or f.get("blank") or text == "") else 0
                flag = "ok"
                if f.get("illegible"):
                    flag = "illegible"
                elif f.get("struck"):
                    flag = "struck"
                elif f.get("injected_illegal"):
                    flag = "injected"
                x, y, w, h = c["box"]
                print("C\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s" % (c["index"], blank,
                      round(x), round(y), round(w), round(h), flag, text or "-"))

#!/usr/bin/python3
"""overlay_truth.py IMAGE [OUT.png] [--page K] [--scale F]

Draws the ground truth of a rendered sheet over its image: every cell quad
(green: written, orange: blank, red: illegible / injected / struck, grey:
unused), glyph boxes (cyan), header field quads (blue) and each ply number. For checking the
renderer's truth and for people tuning cell detection.
"""
import json
import os
import sys

from PIL import Image, ImageDraw, ImageSequence


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    img_path = argv[1]
    out = argv[2] if len(argv) > 2 and not argv[2].startswith("--") else None
    page = int(argv[argv.index("--page") + 1]) if "--page" in argv else 0
    scale = float(argv[argv.index("--scale") + 1]) if "--scale" in argv else 0.5
    truth_path = os.path.splitext(img_path)[0] + ".truth.json"
    with open(truth_path, encoding="utf-8") as f:
        doc = json.load(f)
    tr = doc["pages"][page]
    im = Image.open(img_path)
    if page:
        im = ImageSequence.Iterator(im)[page]
    im = im.convert("RGB")
    d = ImageDraw.Draw(im)
    used = set()
    for p in tr["plies"]:
        c = p.get("cell")
        if not c:
            continue
        used.add(c["index"])
        fl = p["flags"]
        col = (0, 170, 0)
        if fl["blank"]:
            col = (255, 140, 0)
        if fl["illegible"] or fl["injected_illegal"] or fl["struck"]:
            col = (230, 0, 0)
        d.polygon([tuple(v) for v in c["quad"]], outline=col)
        x, y, w, h = c["box"]
        d.rectangle([x + 1, y + 1, x + w - 2, y + h - 2], outline=(200, 0, 200))
        d.text((c["quad"][0][0] + 3, c["quad"][0][1] + 2), str(p["ply"]), fill=col)
        for g in p.get("glyphs", []):
            d.polygon([tuple(v) for v in g["quad"]], outline=(0, 170, 220))
    for c in tr["cells"]:
        if c["index"] not in used:
            d.polygon([tuple(v) for v in c["quad"]], outline=(160, 160, 160))
    for h in tr["header"]:
        d.polygon([tuple(v) for v in h["quad"]], outline=(0, 0, 255))
    if scale != 1.0:
        im = im.resize((int(im.width * scale), int(im.height * scale)), Image.BILINEAR)
    im.save(out or os.path.splitext(img_path)[0] + ".overlay.png")


if __name__ == "__main__":
    main(sys.argv)

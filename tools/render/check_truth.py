#!/usr/bin/python3
"""check_truth.py DIR

Validates every rendered sheet in DIR against its ground truth: image size,
one truth ply per ICCS move, every written text replays to its ICCS move with
the renderer's own rules engine, every injected illegal text is really not a
legal move, skipped plies have no cell, blank plies have empty text, every
cell and header box lies inside its image. Prints one line per page and a
summary; exit status 1 on the first failure.
"""
import json
import os
import sys

from PIL import Image, ImageSequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xqgames  # noqa: E402


def check_page(page, W, H):
    assert [W, H] == page["size"], (W, H, page["size"])
    plies = page["plies"]
    assert len(plies) == len(page["iccs"]) > 0
    assert [p["iccs"] for p in plies] == page["iccs"]
    assert [p["ply"] for p in plies] == list(range(1, len(plies) + 1))
    board = xqgames.Board(page["start_fen"])
    used = set()
    for p in plies:
        fl = p["flags"]
        assert p["side"] == ("red" if board.red else "black"), p
        if fl["skipped"]:
            assert p["cell"] is None and p["text"] == "", p
        else:
            c = p["cell"]
            assert c["index"] not in used
            used.add(c["index"])
            x, y, w, h = c["box"]
            assert 0 <= x and 0 <= y and x + w <= W and y + h <= H and w > 5 and h > 5, c
            for qx, qy in c["quad"]:
                assert -1 <= qx <= W + 1 and -1 <= qy <= H + 1, c
            assert page["cells"][c["index"]]["ply"] == p["ply"]
        if fl["blank"]:
            assert p["text"] == "", p
        if fl["injected_illegal"]:
            st, _, why = xqgames.resolve(board, p["text"])
            assert st != "ok", p
        elif not fl["blank"] and not fl["skipped"]:
            st, m, why = xqgames.resolve(board, p["text"])
            assert st == "ok" and xqgames.sqs_to_iccs(*m) == p["iccs"], (p, st, why)
        if fl["struck"]:
            assert p.get("struck_text"), p
        board.make(*xqgames.iccs_to_sqs(p["iccs"]))
    for c in page["cells"]:
        x, y, w, h = c["box"]
        assert 0 <= x and 0 <= y and x + w <= W and y + h <= H, c
    for hd in page["header"]:
        x, y, w, h = hd["box"]
        assert 0 <= x and 0 <= y and x + w <= W and y + h <= H, hd
    cnt = page["counts"]
    for k in ("blank", "illegible", "injected_illegal", "skipped", "struck"):
        assert cnt[k] == sum(p["flags"][k] for p in plies), k


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    d = argv[1]
    n_img = n_page = n_ply = 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".truth.json"):
            continue
        with open(os.path.join(d, name), encoding="utf-8") as f:
            doc = json.load(f)
        assert doc["format"] == "xqrender-truth", name
        im = Image.open(os.path.join(d, doc["image"]))
        frames = [fr.size for fr in ImageSequence.Iterator(im)]
        assert len(frames) == len(doc["pages"]), name
        for page, (W, H) in zip(doc["pages"], frames):
            try:
                check_page(page, W, H)
            except AssertionError as e:
                print("FAIL %s page %d: %s" % (doc["image"], page["page_index"], str(e)[:300]))
                return 1
            n_page += 1
            n_ply += len(page["plies"])
            print("ok %s p%d %dx%d %s %s %s %s" % (doc["image"], page["page_index"], W, H, page["style"],
                                                   page["layout"]["name"], page["degradation"]["kind"],
                                                   json.dumps(page["counts"])))
        n_img += 1
    print("checked %d images, %d pages, %d plies" % (n_img, n_page, n_ply))
    return 0 if n_page else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

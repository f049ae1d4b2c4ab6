#!/usr/bin/python3
"""render_sheets.py - test scoresheets for xqscan, with ground truth.

Draws complete Xiangqi scoresheets filled in with real corpus games, in
several layouts, writing styles and degradations, and writes the ground truth
beside each image. Deterministic: the same arguments give byte-identical
files. Needs only Debian packages (python3-pil, python3-numpy, fonts-noto-cjk,
fonts-arphic-ukai/uming, fonts-cwtex-kai, hershey-fonts-data) and the npm
package hanzi-writer-data in tools/node/node_modules. Run with /usr/bin/python3.

SHEETS
  render_sheets.py --games PGN --iccs TRUTH --out DIR --count N --seed S
      [--style printed|kai|hand|mixed]      writing style (default mixed)
      [--layout ruled|ruled-1|ruled-2|ruled-3|form|mixed]
                                            ruled = random federation-like table
                                            (1-3 blocks, 20-60 rows, header or not,
                                            page A4/Letter/B5/A5; ruled-N forces N
                                            blocks); form = xqscan's own form
                                            (form_geometry.json); mixed = 2:1
      [--degrade none|scan|photo|mixed]     default mixed
      [--blank-rate R]        share of cells left blank (unrecorded), default 0.01
      [--illegible-rate R]    share of moves scribbled over / illegible, default 0.01
      [--strike-rate R]       share of moves struck through and corrected, default 0.005
      [--inject-illegal K]    K written moves per sheet replaced by a wrong,
                              certainly illegal text (wrong file or target digit)
      [--inject-skip K]       K plies per sheet not written at all (later moves
                              shift back by one cell)
      [--pair]                render Red's and Black's sheet of each game
                              (different writers, same header)
      [--format png|jpg|tif]  default png; --tiff-pages K puts K sheets (a pair:
                              2) in one multi-page TIFF
      [--messy-rate R]        share of handwriting writers that are messy (0.2)
      [--game-index I,...]    use these game indices (0-based) instead of random
  TRUTH for PGN files with [CCPDFile] tags is a JSONL keyed by "file"
  (ccpd-dev.iccs.jsonl); otherwise a PGN of ICCS moves in the same game order
  (wukong-15.iccs.pgn). Games whose Chinese text does not replay to the ICCS
  truth with the renderer's own rules engine are skipped (that engine,
  xqgames.Board, matches the corpus perft counts to depth 3; every CCPD game
  but one empty one replays exactly).

CELLS (for OCR experiments)
  render_sheets.py --cells "炮二平五,马8进7" [--cells-file F] --out DIR --seed S
      [--style ...] [--per-string K] [--cell-size 300x66] [--degrade none|scan]
  writes DIR/cell_NNNNN.png and DIR/cells.jsonl (one line per image: file,
  text, style, writer).

FORM GEOMETRY
  render_sheets.py --write-form-geometry FILE   (tools/render/form_geometry.json)
  render_sheets.py --blank-form FILE.png        the empty xqscan form

OUTPUT
  DIR/sheet_NNNNN.png (pairs: sheet_NNNNN_red.png, sheet_NNNNN_black.png) and
  DIR/sheet_NNNNN.truth.json (image name without extension + .truth.json), and
  DIR/manifest.json listing every image with style, layout and degradation.

TRUTH FORMAT (one JSON object per image file)
  {"format": "xqrender-truth", "version": 1, "image": "sheet_00000.png",
   "pages": [PAGE, ...]}            (one PAGE per image page; TIFF may hold more)
  PAGE = {
   "page_index", "size": [w, h] (final image pixels), "dpi",
   "seed", "sheet_seed", "style", "writer": {...per-writer params, spelling},
   "layout": {"name": "ruled"|"xqscan-form", "params": {...}},
   "degradation": {"kind": "none"|"scan"|"photo", ...},
   "page_to_image": 3x3 homography from the 300-dpi page to the image,
   "source": {"pgn", "game_index", "game_key"},
   "owner": "red"|"black"|null,
   "pair": {"image", "page_index"} of the other sheet of the game, or null,
   "start_fen", "iccs": [truth ICCS moves of the plies on this sheet],
   "game_plies": plies in the whole game, "truncated": true if the sheet ran out,
   "header": [{"field": event|round|board|red|black|date|result, "label",
               "value" (as written, "" if empty), "quad", "box"}],
   "plies": [{"ply": 1-based index in the record (when the FEN has Black to
              move, ply 1 is Black's and move 1's Red cell stays empty),
              "side": "red"|"black", "iccs",
              "source_text" (corpus), "text" (as written; "" when blank),
              "flags": {"blank", "illegible", "injected_illegal", "struck",
                        "skipped"},
              "struck_text" (only when struck: the crossed-out text, written
                       small above the correction, which is "text"),
              "injected": {"played_text", "reason"} (only when injected; "text"
                       is then the wrong text on the sheet),
              "cell": null (skipped) or {"block", "row", "column": red|black,
                       "move", "index", "quad": [[x,y] x4, clockwise from
                       top-left], "box": [x, y, w, h]},
              "glyphs": (plainly written plies only) [{"char", "quad", "box"}]:
                       the nominal em box of each written glyph (where the
                       writer aimed it; ink may stray a little)}],
   "cells": every move cell of the sheet in order {"index", "block", "row",
            "column", "move", "quad", "box", "ply": ply written there or null},
   "counts": {"plies" (on this sheet), "written" (plies with ink in a cell,
              illegible included), "blank", "illegible", "injected_illegal",
              "skipped", "struck", "cells" (move cells of the layout)}}
  Boxes and quads are in the FINAL image's pixel coordinates (origin top-left,
  pixel (i, j) covers [i, i+1) x [j, j+1)); box = axis-aligned bounds of quad.
  A ply's side is the side that moved; a cell's column may differ after a
  skipped ply. Illegible plies keep the intended text in "text".

BENCHMARK SET
  /usr/bin/python3 tools/render/render_sheets.py \\
      --games ../shared/corpus/ccpd-dev.pgn --iccs ../shared/corpus/ccpd-dev.iccs.jsonl \\
      --out /tmp/xqbench --count 200 --seed 1 --style mixed --layout mixed --degrade mixed
  or tools/render/make_benchset.sh OUT [N] [SEED]: N sheets per style x
  degradation, N with injected errors, N/2 pairs, one folder each.

TOOLS BESIDE THIS ONE
  overlay_truth.py IMAGE [OUT]   draws the truth cells/header over the image
  check_truth.py DIR             validates every image + truth in DIR
  bench_render.py [--count N]    seconds per sheet per style x degradation
  xqform.py                      the xqscan form geometry (form_geometry.json)
  xqgames.py                     PGN reading, a small rules engine, spelling
  xqdraw.py / xqlayout.py / xqdegrade.py   writing, layouts, degradations
"""
import argparse
import json
import os
import random
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import xqdegrade  # noqa: E402
import xqdraw  # noqa: E402
import xqform  # noqa: E402
import xqgames  # noqa: E402
import xqlayout  # noqa: E402

PINYIN_SURNAMES = ["Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Zhao", "Huang", "Zhou", "Wu",
                   "Xu", "Sun", "Hu", "Zhu", "Gao", "Lin", "He", "Guo", "Ma", "Luo", "Lu", "Xie"]
PINYIN_GIVEN = ["Wei", "Fang", "Min", "Jing", "Qiang", "Lei", "Jun", "Yang", "Yong", "Jie", "Tao",
                "Ming", "Chao", "Xiu", "Hua", "Ping", "Gang", "Hui", "Bin", "Yan", "Rong", "Qin"]
EVENTS_LATIN = ["City Open", "National Championship", "Club Championship", "Team League",
                "Rapid Cup", "Spring Open", "Masters", "Youth Championship", "World Open"]


# ------------------------------------------------------------------ helpers

def quad_box(q, size=None):
    xs = [p[0] for p in q]
    ys = [p[1] for p in q]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    if size:
        x0, y0 = max(0.0, x0), max(0.0, y0)
        x1, y1 = min(float(size[0]), x1), min(float(size[1]), y1)
    return [round(x0, 1), round(y0, 1), round(x1 - x0, 1), round(y1 - y0, 1)]


def rect_quad(Hm, r):
    x, y, w, h = r
    q = xqdegrade.apply_h(Hm, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    return [[round(a, 1), round(b, 1)] for a, b in q]


def pick(rng, value, choices):
    return rng.choice(choices) if value == "mixed" else value


def header_values(game, rng, latin):
    tags = game["tags"]

    def clean(s):
        return (s or "").replace("\u3000", " ").strip()
    ev = clean(tags.get("Event"))
    for sep in (" - ", "(", "（"):
        ev = ev.split(sep)[0].strip()
    ev = " ".join(ev.split()[:1]) if not latin and ev.count(" ") else ev
    red, black = clean(tags.get("Red")), clean(tags.get("Black"))
    has_cjk = any(ord(c) > 0x2E80 for c in ev + red + black)
    if latin and has_cjk:
        def name():
            return "%s %s" % (rng.choice(PINYIN_SURNAMES), rng.choice(PINYIN_GIVEN))
        red, black = name(), name()
        ev = "%s %d" % (rng.choice(EVENTS_LATIN), rng.randint(1995, 2025))
    date = clean(tags.get("Date"))
    if not date or not any(ch.isdigit() for ch in date):
        date = "%d.%d.%d" % (rng.randint(1990, 2025), rng.randint(1, 12), rng.randint(1, 28))
    date = date.rstrip(".")
    rnd = clean(tags.get("Round")) or str(rng.randint(1, 11))
    board = str(rng.randint(1, 40))
    res = clean(tags.get("Result"))
    if not latin and rng.random() < 0.5:
        res = {"1-0": "红胜", "0-1": "黑胜", "1/2-1/2": "和"}.get(res, res)
    if res == "*":
        res = ""
    return {"event": ev[:24], "round": rnd, "board": board, "red": red[:16], "black": black[:16],
            "date": date, "result": res}


def compose(page_size, form_mask, guide_img, ink_mask, ink_rgb, paper_rgb, print_rgb=(20, 20, 20)):
    """Paper * guides/shades, then the form's print, then writer's ink."""
    base = Image.merge("RGB", [guide_img.point([int(v * c / 255.0 + 0.5) for v in range(256)])
                               for c in paper_rgb])
    base.paste(tuple(print_rgb), (0, 0) + tuple(page_size), form_mask)
    base.paste(tuple(ink_rgb), (0, 0) + tuple(page_size), ink_mask)
    return base


# ------------------------------------------------------------------ one sheet

def plan_errors(rng, n_plies, args):
    """Choose skipped and injected plies (indices 0-based)."""
    cand = list(range(2, max(2, n_plies - 1)))
    rng.shuffle(cand)
    skip = set(cand[:args.inject_skip])
    rest = [i for i in cand[args.inject_skip:]]
    illegal = rest[:max(0, args.inject_illegal * 4)]   # candidates; need legal injection
    return skip, illegal


def render_sheet(game, seed_str, args, style, layout_kind, degrade_kind, owner=None,
                 header=None, writer_rng_tag="", page_index=0, layout_seed=None):
    rng = random.Random(seed_str)
    wrng = random.Random(seed_str + ":writer" + writer_rng_tag)
    writer = xqdraw.Writer(wrng, style, messy=(wrng.random() < args.messy_rate) if style == "hand" else None)
    spelling = xqgames.make_spelling(wrng)
    if style == "printed":
        spelling["script"] = wrng.choice(["simplified", "traditional"])
    plies_all = game["moves"]
    red_first = xqgames.Board(game["start_fen"]).red
    offset = 0 if red_first else 1
    if layout_kind == "form":
        L = xqlayout.form_layout()
    else:
        nb = {"ruled-1": 1, "ruled-2": 2, "ruled-3": 3}.get(layout_kind)
        lrng = random.Random(layout_seed or seed_str + ":layout")   # a pair shares its form
        L = xqlayout.random_layout(lrng, min_moves=(len(plies_all) + offset + 1) // 2, blocks=nb)
    W, H = L["size"]
    form_mask = Image.new("L", (W, H), 0)
    guide_img = Image.new("L", (W, H), 255)
    ink = Image.new("L", (W, H), 0)
    xqlayout.draw_layout(L, form_mask, guide_img)
    cells = L["cells"]

    # header
    latin = L["params"].get("labels") == "en" or (rng.random() < 0.15)
    hv = header if header is not None else header_values(game, rng, latin)
    hdr_truth = []
    for hf in L["header"]:
        val = hv.get(hf["field"], "")
        if val and rng.random() < 0.04:
            val = ""      # a field left empty
        if val:
            writer.write(ink, val, hf["rect"], rng, align="left", scale=0.9)
        hdr_truth.append({"field": hf["field"], "label": hf["label"], "value": val, "rect": hf["rect"]})

    # plies
    skip, illegal_cand = plan_errors(rng, len(plies_all), args)
    board = xqgames.Board(game["start_fen"])
    plies_truth = []
    cell_used = {}
    n_skipped = 0
    injected = 0
    truncated = False
    last_ply = len(plies_all)
    for i, src in enumerate(plies_all):
        red = board.red
        side = "red" if red else "black"
        mv = game["iccs"][i]
        flags = {"blank": False, "illegible": False, "injected_illegal": False,
                 "struck": False, "skipped": False}
        rec = {"ply": i + 1, "side": side, "iccs": mv, "source_text": src, "flags": flags}
        text = xqgames.spell(src, red, spelling)
        if i in skip:
            flags["skipped"] = True
            rec["text"] = ""
            rec["cell"] = None
            n_skipped += 1
            plies_truth.append(rec)
            board.make(*xqgames.iccs_to_sqs(mv))
            continue
        ci = i + offset - n_skipped
        if ci >= len(cells):
            truncated = True
            last_ply = i
            break
        cell = cells[ci]
        box = cell["rect"]
        r = rng.random()
        if i in illegal_cand and injected < args.inject_illegal:
            inj = xqgames.inject_illegal(board, text, rng, spelling)
            if inj:
                flags["injected_illegal"] = True
                rec["injected"] = {"played_text": text, "reason": inj[1]}
                text = inj[0]
                injected += 1
        if not flags["injected_illegal"] and r < args.blank_rate:
            flags["blank"] = True
            text = ""
        elif not flags["injected_illegal"] and r < args.blank_rate + args.illegible_rate:
            flags["illegible"] = True
            if rng.random() < 0.5:
                bb = writer.write(ink, text, box, rng, guides=cell["guides"])
                writer.scribble(ink, bb or box, rng)
            else:
                x, y, w, h = box
                writer.scribble(ink, [x + w * 0.1, y + h * 0.15, w * rng.uniform(0.5, 0.85), h * 0.7], rng)
        elif r < args.blank_rate + args.illegible_rate + args.strike_rate:
            flags["struck"] = True
            wrong = xqgames.inject_illegal(board, text, rng, spelling)
            wrong = wrong[0] if wrong else text[:2] + text[3] + text[2] if len(text) == 4 else text
            rec["struck_text"] = wrong
            x, y, w, h = box
            top = [x, y, w, h * 0.5]
            bot = [x, y + h * 0.45, w, h * 0.55]
            bb = writer.write(ink, wrong, top, rng, scale=1.5)
            writer.strike(ink, bb or top, rng)
            writer.write(ink, text, bot, rng, scale=1.5)
        else:
            writer.write(ink, text, box, rng, guides=cell["guides"])
            rec["glyph_rects"] = list(writer.last_glyphs)
        rec["text"] = text
        rec["cell_index"] = ci
        cell_used[ci] = i + 1
        plies_truth.append(rec)
        board.make(*xqgames.iccs_to_sqs(mv))

    if writer.p["ink_density"] < 1.0:
        dens = writer.p["ink_density"]
        ink = ink.point([int(v * dens + 0.5) for v in range(256)])
    paper = tuple(int(v) for v in (rng.uniform(245, 255), rng.uniform(243, 253), rng.uniform(235, 250)))
    page = compose((W, H), form_mask, guide_img, ink, writer.ink, paper,
                   tuple(L["params"].get("print_colour", (20, 20, 20))))
    img, Hm, dparams, dpi = xqdegrade.degrade(page, degrade_kind, rng)
    size = img.size

    def geo(r):
        q = rect_quad(Hm, r)
        return q, quad_box(q, size)
    for h in hdr_truth:
        h["quad"], h["box"] = geo(h.pop("rect"))
    cells_truth = []
    for ci, c in enumerate(cells):
        q, b = geo(c["rect"])
        cells_truth.append({"index": ci, "block": c["block"], "row": c["row"], "column": c["column"],
                            "move": c["move"], "quad": q, "box": b, "ply": cell_used.get(ci)})
    for rec in plies_truth:
        if "cell_index" in rec:
            ci = rec.pop("cell_index")
            ct = cells_truth[ci]
            rec["cell"] = {k: ct[k] for k in ("block", "row", "column", "move", "index", "quad", "box")}
        if "glyph_rects" in rec:
            rec["glyphs"] = []
            for ch, r in rec.pop("glyph_rects"):
                q, b = geo(r)
                rec["glyphs"].append({"char": ch, "quad": q, "box": b})
    counts = {"plies": len(plies_truth),
              "written": sum(1 for p in plies_truth if p.get("cell") and not p["flags"]["blank"]),
              "blank": sum(p["flags"]["blank"] for p in plies_truth),
              "illegible": sum(p["flags"]["illegible"] for p in plies_truth),
              "injected_illegal": sum(p["flags"]["injected_illegal"] for p in plies_truth),
              "skipped": sum(p["flags"]["skipped"] for p in plies_truth),
              "struck": sum(p["flags"]["struck"] for p in plies_truth),
              "cells": len(cells)}
    wp = dict(writer.p)
    wp["spelling"] = spelling
    truth = {"page_index": page_index, "size": list(size), "dpi": dpi,
             "seed": args.seed, "sheet_seed": seed_str, "style": style, "writer": wp,
             "layout": {"name": L["name"], "params": L["params"]},
             "degradation": dparams,
             "page_to_image": [[round(float(v), 8) for v in row] for row in Hm],
             "source": {"pgn": os.path.basename(args.games), "game_index": game["index"],
                        "game_key": game["key"]},
             "owner": owner, "pair": None,
             "start_fen": game["start_fen"], "iccs": game["iccs"][:last_ply],
             "game_plies": len(plies_all), "truncated": truncated,
             "header": hdr_truth, "plies": plies_truth, "cells": cells_truth, "counts": counts}
    return img, truth, hv


# ------------------------------------------------------------------ output

def save_image(imgs, path, fmt, rng):
    if fmt == "png":
        imgs[0].save(path, "PNG", compress_level=1)
    elif fmt == "jpg":
        im = imgs[0]
        if im.mode == "1":
            im = im.convert("L")
        im.save(path, "JPEG", quality=rng.randint(70, 95))
    else:
        ims = [im if im.mode != "RGBA" else im.convert("RGB") for im in imgs]
        comp = "group4" if all(im.mode == "1" for im in ims) else "tiff_lzw"
        ims[0].save(path, "TIFF", save_all=True, append_images=ims[1:], compression=comp,
                    dpi=(300, 300))


def write_truth(path, image_name, pages):
    doc = {"format": "xqrender-truth", "version": 1, "image": image_name, "pages": pages}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


def load_games(args):
    games = xqgames.read_pgn(args.games)
    if args.iccs:
        xqgames.read_iccs_truth(args.iccs, games)
    return games, [g for g in games if "iccs" in g]


_checked = {}


def usable(game):
    """The game's text replays to its ICCS truth (checked once, lazily)."""
    r = _checked.get(game["index"])
    if r is None:
        r = _checked[game["index"]] = xqgames.check_game(game)[0]
    return r


def next_game(order, pos):
    """(game, next pos): the first usable game at or after pos (cyclic)."""
    for k in range(len(order)):
        g = order[(pos + k) % len(order)]
        if usable(g):
            return g, pos + k + 1
    sys.exit("render_sheets: no usable game (need ICCS truth that matches the text)")


def run_sheets(args):
    all_games, games = load_games(args)
    if not games:
        sys.exit("render_sheets: no usable game (need ICCS truth that matches the text)")
    os.makedirs(args.out, exist_ok=True)
    master = random.Random("xqrender:%d" % args.seed)
    if args.game_index:
        idx = [int(v) for v in args.game_index.split(",")]
        by_index = {g["index"]: g for g in games}
        order = [by_index[i] for i in idx if i in by_index]
        if not order:
            sys.exit("render_sheets: none of the requested games is usable")
    else:
        order = list(games)
        master.shuffle(order)
    manifest = []
    ext = {"png": "png", "jpg": "jpg", "tif": "tif"}[args.format]
    pending = []   # for multi-page TIFF
    gpos = 0
    for k in range(args.count):
        game, gpos = next_game(order, gpos)
        seed_str = "xqrender:%d:%d" % (args.seed, k)
        srng = random.Random(seed_str + ":choice")
        style = pick(srng, args.style, ["printed", "kai", "hand", "hand"])
        layout = pick(srng, args.layout, ["ruled", "ruled", "form"])
        degrade = pick(srng, args.degrade, ["none", "scan", "scan", "photo"])
        base = "sheet_%05d" % k
        sheets = []
        if args.pair:
            img, tr, hv = render_sheet(game, seed_str + ":red", args, style, layout, degrade, owner="red",
                                       layout_seed=seed_str + ":layout")
            style2 = pick(srng, args.style, ["printed", "kai", "hand", "hand"])
            degrade2 = pick(srng, args.degrade, ["none", "scan", "scan", "photo"])
            img2, tr2, _ = render_sheet(game, seed_str + ":black", args, style2, layout, degrade2,
                                        layout_seed=seed_str + ":layout",
                                        owner="black", header=hv)
            n1, n2 = base + "_red." + ext, base + "_black." + ext
            tr["pair"], tr2["pair"] = n2, n1
            sheets = [(n1, img, tr), (n2, img2, tr2)]
        else:
            img, tr, _ = render_sheet(game, seed_str, args, style, layout, degrade)
            sheets = [(base + "." + ext, img, tr)]
        for name, im, tr in sheets:
            pending.append((name, im, tr))
            if args.format == "tif" and args.tiff_pages > 1 and len(pending) < args.tiff_pages:
                continue
            flush(args, pending, manifest, random.Random(seed_str + ":save"))
            pending = []
    if pending:
        flush(args, pending, manifest, random.Random("xqrender:%d:save-last" % args.seed))
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"format": "xqrender-manifest", "version": 1, "seed": args.seed,
                   "games": os.path.basename(args.games), "games_checked_ok": sum(_checked.values()),
                   "games_total": len(all_games), "images": manifest},
                  f, ensure_ascii=False, indent=1)
        f.write("\n")


def flush(args, pending, manifest, rng):
    name = pending[0][0]
    if len(pending) > 1:
        stem, ext = os.path.splitext(name)
        for suf in ("_red", "_black"):
            if stem.endswith(suf):
                stem = stem[:-len(suf)]
        name = stem + ext
    where = {n: i for i, (n, _, _) in enumerate(pending)}
    path = os.path.join(args.out, name)
    pages = []
    for i, (_, im, tr) in enumerate(pending):
        tr["page_index"] = i
        other = tr.get("pair")
        if isinstance(other, str):
            tr["pair"] = {"image": name if other in where else other,
                          "page_index": where.get(other, 0)}
        pages.append(tr)
    save_image([im for _, im, _ in pending], path, args.format, rng)
    stem = os.path.splitext(name)[0]
    write_truth(os.path.join(args.out, stem + ".truth.json"), name, pages)
    manifest.append({"image": name, "truth": stem + ".truth.json", "pages": [
        {"style": t["style"], "layout": t["layout"]["name"], "degradation": t["degradation"]["kind"],
         "game_key": t["source"]["game_key"], "owner": t["owner"], "plies": t["counts"]["plies"]}
        for t in pages]})


# ------------------------------------------------------------------ cells

def run_cells(args):
    strings = []
    if args.cells:
        strings += [s.strip() for s in args.cells.split(",") if s.strip()]
    if args.cells_file:
        with open(args.cells_file, encoding="utf-8") as f:
            strings += [ln.strip() for ln in f if ln.strip()]
    if not strings:
        sys.exit("render_sheets: --cells or --cells-file gives no string")
    cw, ch = (int(v) for v in args.cell_size.lower().split("x"))
    os.makedirs(args.out, exist_ok=True)
    lines = []
    n = 0
    for si, s in enumerate(strings):
        for k in range(args.per_string):
            seed_str = "xqrender-cell:%d:%d:%d" % (args.seed, si, k)
            rng = random.Random(seed_str)
            style = pick(rng, args.style, ["printed", "kai", "hand", "hand"])
            w = xqdraw.Writer(rng, style, messy=(rng.random() < args.messy_rate) if style == "hand" else None)
            mask = Image.new("L", (cw, ch), 0)
            w.write(mask, s, [0, 0, cw, ch], rng)
            page = compose((cw, ch), Image.new("L", (cw, ch), 0), Image.new("L", (cw, ch), 255),
                           mask, w.ink, (255, 255, 255))
            deg = {"kind": "none"}
            if args.degrade == "scan":
                page, _, deg, _ = xqdegrade.degrade(page, "scan", rng)
            name = "cell_%05d.png" % n
            page.save(os.path.join(args.out, name), "PNG")
            lines.append(json.dumps({"file": name, "text": s, "style": style, "writer": w.p,
                                     "degradation": deg, "seed": seed_str}, ensure_ascii=False))
            n += 1
    with open(os.path.join(args.out, "cells.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games")
    ap.add_argument("--iccs")
    ap.add_argument("--out")
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--style", default="mixed", choices=["printed", "kai", "hand", "mixed"])
    ap.add_argument("--layout", default="mixed",
                    choices=["ruled", "ruled-1", "ruled-2", "ruled-3", "form", "mixed"])
    ap.add_argument("--degrade", default="mixed", choices=["none", "scan", "photo", "mixed"])
    ap.add_argument("--blank-rate", type=float, default=0.01)
    ap.add_argument("--illegible-rate", type=float, default=0.01)
    ap.add_argument("--strike-rate", type=float, default=0.005)
    ap.add_argument("--inject-illegal", type=int, default=0)
    ap.add_argument("--inject-skip", type=int, default=0)
    ap.add_argument("--messy-rate", type=float, default=0.2)
    ap.add_argument("--pair", action="store_true")
    ap.add_argument("--format", default="png", choices=["png", "jpg", "tif"])
    ap.add_argument("--tiff-pages", type=int, default=1)
    ap.add_argument("--game-index")
    ap.add_argument("--cells")
    ap.add_argument("--cells-file")
    ap.add_argument("--per-string", type=int, default=1)
    ap.add_argument("--cell-size", default="300x66")
    ap.add_argument("--write-form-geometry")
    ap.add_argument("--blank-form")
    ap.add_argument("--font", help="PATH[:INDEX]: every printed and kai "
                    "sheet in this font (a held-out font)")
    args = ap.parse_args(argv)
    if args.font:
        path, _, idx = args.font.partition(":")
        xqdraw.use_only_font(path, int(idx or 0))
    if args.write_form_geometry:
        with open(args.write_form_geometry, "w", encoding="utf-8") as f:
            f.write(xqform.dumps(xqform.form_geometry()))
        return 0
    if args.blank_form:
        L = xqlayout.form_layout()
        fm, gi = Image.new("L", L["size"], 0), Image.new("L", L["size"], 255)
        xqlayout.draw_layout(L, fm, gi)
        compose(L["size"], fm, gi, Image.new("L", L["size"], 0), (0, 0, 0),
                (255, 255, 255)).convert("L").save(args.blank_form, "PNG")
        return 0
    if not args.out:
        ap.error("--out is required")
    if args.cells or args.cells_file:
        run_cells(args)
        return 0
    if not args.games:
        ap.error("--games is required")
    if not args.iccs:
        ap.error("--iccs is required (ICCS truth)")
    run_sheets(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

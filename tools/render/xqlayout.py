"""Scoresheet layouts: random federation-like ruled tables and xqscan's own
form (exact geometry from xqform.py / form_geometry.json).

A layout is a dict:
  name, params, size (W, H) at 300 dpi,
  lines: filled rectangles [x, y, w, h] (black ruling),
  shades: filled rectangles with a grey level (row shading),
  texts: printed text {text, rect, height, align},
  squares: solid black fiducials [x, y, w, h],
  guides: light outline rectangles (grey level, rect),
  cells: move cells in sheet order [{block, row, column: red|black, rect, guides}],
  header: [{field, label, rect}] (rect = where the value is written).
"""
from PIL import ImageDraw

import xqform
from xqdraw import font

PAGES = {"A4": (2480, 3508), "Letter": (2550, 3300), "B5": (2079, 2953), "A5": (1748, 2480)}

LABELS_ZH = {"event": ["赛事", "比赛名称", "比赛"], "round": ["轮次", "第几轮"], "board": ["台次", "台号"],
             "red": ["红方", "红方姓名"], "black": ["黑方", "黑方姓名"], "date": ["日期", "比赛日期"],
             "result": ["结果", "比赛结果"]}
LABELS_EN = {"event": ["Event", "Tournament"], "round": ["Round", "Rd."], "board": ["Board", "Table"],
             "red": ["Red", "Red player"], "black": ["Black", "Black player"], "date": ["Date"],
             "result": ["Result"]}
TITLES = ["中国象棋比赛记录表", "象棋对局记录表", "象棋比赛记录纸", "XIANGQI SCORESHEET",
          "Chinese Chess Score Sheet", "象棋记录表 Xiangqi Score Sheet", None]
COL_LABELS = [("回合", "红方", "黑方"), ("着", "红", "黑"), ("No.", "Red", "Black"),
              ("#", "红方 Red", "黑方 Black"), ("序", "红 方", "黑 方")]
FOOTERS = [["红方签名", "黑方签名", "裁判"], ["Red signature", "Black signature", "Arbiter"], None]

HEADER_ORDER = ["event", "round", "board", "date", "red", "black", "result"]


def _rect_lines(x0, y0, x1, y1, lw):
    h = lw // 2
    return [[x0 - h, y0 - h, x1 - x0 + lw, lw], [x0 - h, y1 - h, x1 - x0 + lw, lw],
            [x0 - h, y0 - h, lw, y1 - y0 + lw], [x1 - h, y0 - h, lw, y1 - y0 + lw]]


def random_layout(rng, min_moves=0, blocks=None):
    """A federation-like ruled table on a random page (blocks: 1-3 or None
    for a random count)."""
    page = rng.choice(["A4", "A4", "A4", "Letter", "B5", "A5"])
    W, H = PAGES[page]
    scale = W / 2480.0
    mx = int(rng.uniform(90, 240) * scale)
    mt = int(rng.uniform(90, 220) * scale)
    mb = int(rng.uniform(90, 220) * scale)
    lw_in = rng.choice([1, 2, 2, 3])
    lw_out = lw_in + rng.choice([0, 1, 2, 3])
    zh = rng.random() < 0.7
    labels = LABELS_ZH if zh else LABELS_EN
    L = {"lines": [], "shades": [], "texts": [], "squares": [], "guides": [],
         "cells": [], "header": []}
    y = mt
    title = rng.choice(TITLES)
    if title:
        th = int(rng.uniform(50, 80) * scale)
        L["texts"].append({"text": title, "rect": [mx, y, W - 2 * mx, th + 10], "height": th,
                           "align": "center"})
        y += th + int(40 * scale)
    header_style = rng.choice(["lines", "boxes", "boxes", "none"])
    fields = list(HEADER_ORDER)
    if rng.random() < 0.3:
        fields.remove("board")
    fh = int(rng.uniform(70, 100) * scale)
    if header_style != "none":
        per_row = rng.choice([2, 3, 4])
        rows = [fields[i:i + per_row] for i in range(0, len(fields), per_row)]
        hgap = int(20 * scale)
        for row in rows:
            x = mx
            wt = W - 2 * mx - hgap * (len(row) - 1)
            weights = [2.0 if f in ("event", "red", "black") else 1.0 for f in row]
            for f, wgt in zip(row, weights):
                fw = int(wt * wgt / sum(weights))
                lab = rng.choice(labels[f])
                lab_h = int(fh * 0.42)
                lab_w = int(font("noto-sans-sc", lab_h).getlength(lab)) + int(24 * scale)
                if header_style == "boxes":
                    L["lines"] += _rect_lines(x, y, x + fw, y + fh, lw_in + 1)
                    L["lines"].append([x + lab_w, y, 1 + lw_in // 2, fh])
                    L["texts"].append({"text": lab, "rect": [x, y, lab_w, fh], "height": lab_h,
                                       "align": "center"})
                    L["header"].append({"field": f, "label": lab,
                                        "rect": [x + lab_w + 6, y + 4, fw - lab_w - 10, fh - 8]})
                else:
                    L["texts"].append({"text": lab + ("：" if zh else ":"), "rect": [x, y, lab_w + 20, fh],
                                       "height": lab_h, "align": "left"})
                    L["lines"].append([x + lab_w + 20, y + fh - 8, fw - lab_w - 20, max(1, lw_in)])
                    L["header"].append({"field": f, "label": lab,
                                        "rect": [x + lab_w + 24, y + 2, fw - lab_w - 28, fh - 12]})
                x += fw + hgap
            y += fh + (hgap if header_style == "boxes" else int(10 * scale))
        y += int(rng.uniform(25, 60) * scale)
    footer = rng.choice(FOOTERS)
    foot_h = int(110 * scale) if footer else 0
    table_top = y
    table_bottom = H - mb - foot_h
    nb = rng.choice([1, 2, 2, 3, 3, 3]) if page != "A5" else rng.choice([1, 2, 2])
    blocks = blocks or nb
    col_labels = rng.choice(COL_LABELS) if rng.random() < 0.85 else None
    label_h = int(rng.uniform(50, 70) * scale) if col_labels else 0
    avail = table_bottom - table_top - label_h
    min_row_h = 44 * scale if blocks < 3 else 42 * scale
    max_rows = max(20, min(60, int(avail / min_row_h)))
    lo = min(max_rows, 20)
    rows = rng.randint(lo, max_rows)
    need_rows = (min_moves + blocks - 1) // blocks
    if min_moves and need_rows > rows:
        rows = min(max_rows, max(rows, need_rows))
    row_h = min(avail / rows, 95 * scale)
    gap = rng.choice([0, int(20 * scale), int(40 * scale), int(60 * scale)]) if blocks > 1 else 0
    tw = W - 2 * mx
    bw = (tw - gap * (blocks - 1)) / blocks
    numf = rng.uniform(0.11, 0.2)
    shade = rng.random() < 0.15
    for b in range(blocks):
        bx = mx + b * (bw + gap)
        xs = [bx, bx + bw * numf, bx + bw * (numf + (1 - numf) / 2), bx + bw]
        xs = [int(round(v)) for v in xs]
        ys = [table_top] + ([table_top + label_h] if col_labels else []) + \
             [int(round(table_top + label_h + (r + 1) * row_h)) for r in range(rows)]
        first_row_y = table_top + label_h
        for i, yy in enumerate(ys):
            lw = lw_out if (i == 0 or i == len(ys) - 1 or (col_labels and i == 1)) else lw_in
            L["lines"].append([xs[0] - lw // 2, yy - lw // 2, xs[-1] - xs[0] + lw, lw])
        if not (gap == 0 and b > 0):
            pass
        for i, xx in enumerate(xs):
            lw = lw_out if i in (0, 3) else lw_in
            L["lines"].append([xx - lw // 2, ys[0] - lw // 2, lw, ys[-1] - ys[0] + lw])
        if col_labels:
            for c in range(3):
                L["texts"].append({"text": col_labels[c], "rect": [xs[c], ys[0], xs[c + 1] - xs[c], label_h],
                                   "height": int(label_h * 0.5), "align": "center"})
        row_ys = [first_row_y] + ys[(2 if col_labels else 1):]
        for r in range(rows):
            y0, y1 = row_ys[r], row_ys[r + 1]
            if shade and r % 2 == 1:
                L["shades"].append({"grey": 235, "rect": [xs[0], y0, xs[-1] - xs[0], y1 - y0]})
            move = b * rows + r + 1
            L["texts"].append({"text": str(move), "rect": [xs[0], y0, xs[1] - xs[0], y1 - y0],
                               "height": int(min(row_h * 0.5, 40 * scale)), "align": "center"})
            for c, col in ((1, "red"), (2, "black")):
                li = lw_out if c == 2 else lw_in
                rect = [xs[c] + (lw_in + 1) // 2 + 1, y0 + (lw_in + 1) // 2 + 1,
                        xs[c + 1] - xs[c] - (lw_in + 1) // 2 - (li + 1) // 2 - 2,
                        y1 - y0 - lw_in - 2]
                L["cells"].append({"block": b, "row": r, "column": col, "move": move,
                                   "rect": rect, "guides": None})
    if footer:
        fy = H - mb - int(50 * scale)
        fw = (W - 2 * mx) // 3
        for i, t in enumerate(footer):
            x = mx + i * fw
            L["texts"].append({"text": t + ":", "rect": [x, fy - 40, fw, 50], "height": int(34 * scale),
                               "align": "left"})
            L["lines"].append([x + int(len(t) * 36 * scale) + 20, fy + 8, fw - int(len(t) * 36 * scale) - 50, 2])
    L["cells"].sort(key=lambda c: (c["move"], c["column"] != "red"))
    L["name"] = "ruled"
    L["size"] = (W, H)
    L["params"] = {"page": page, "blocks": blocks, "rows": rows, "row_height": round(row_h, 2),
                   "header": header_style, "labels": "zh" if zh else "en",
                   "column_labels": list(col_labels) if col_labels else None,
                   "line_width": [lw_in, lw_out], "margins": [mx, mt, mb], "block_gap": gap,
                   "title": title, "shaded_rows": shade, "footer": bool(footer),
                   "print_colour": list(rng.choice([(20, 20, 20)] * 8 + [(80, 80, 80), (160, 35, 35),
                                                                         (35, 60, 140)]))}
    return L


def form_layout():
    """xqscan's own printable form from the exact geometry."""
    g = xqform.form_geometry()
    L = {"lines": [list(r) for r in g["lines"]], "shades": [], "texts": [dict(t) for t in g["texts"]],
         "squares": [f["rect"] for f in g["fiducials"]],
         "guides": [], "cells": [], "header": []}
    for c in g["cells"]:
        L["cells"].append({"block": c["block"], "row": c["row"], "column": c["side"],
                           "move": c["move"], "rect": c["rect"], "guides": c["guides"]})
        for gr in c["guides"]:
            L["guides"].append({"grey": g["guide_grey"], "rect": gr})
    for h in g["header"]:
        L["header"].append({"field": h["field"], "label": h["label_zh"], "rect": h["write_rect"]})
    L["cells"].sort(key=lambda c: (c["move"], c["column"] != "red"))
    L["name"] = "xqscan-form"
    L["size"] = (g["page"]["width"], g["page"]["height"])
    L["params"] = {"page": "A4", "blocks": 3, "rows": 40, "form_version": g["version"],
                   "print_colour": [20, 20, 20]}
    return L


def draw_layout(L, form_mask, guide_img):
    """Draw ruling, text and fiducials into form_mask (L, 255 = black ink);
    shading and guides into guide_img (L, grey levels, 255 = paper)."""
    d = ImageDraw.Draw(form_mask)
    dg = ImageDraw.Draw(guide_img)
    for s in L["shades"]:
        x, y, w, h = s["rect"]
        dg.rectangle([x, y, x + w - 1, y + h - 1], fill=s["grey"])
    for g in L["guides"]:
        x, y, w, h = g["rect"]
        dg.rectangle([x, y, x + w - 1, y + h - 1], outline=g["grey"])
    for x, y, w, h in L["lines"] + L["squares"]:
        d.rectangle([x, y, x + w - 1, y + h - 1], fill=255)
    for t in L["texts"]:
        f = font("noto-sans-sc", max(8, int(t["height"])))
        x, y, w, h = t["rect"]
        if t.get("align") == "left":
            d.text((x + 4, y + h / 2), t["text"], font=f, fill=255, anchor="lm")
        else:
            d.text((x + w / 2, y + h / 2), t["text"], font=f, fill=255, anchor="mm")

"""Exact geometry of xqscan's own printable scoresheet (`xqscan form`).

The geometry is computed here once and written to form_geometry.json
(`render_sheets.py --write-form-geometry tools/render/form_geometry.json`).
The C implementation of `xqscan form` draws the page from the same numbers,
and the OCR stage reads filled forms with them as exact geometry.

Conventions (also written into the JSON under "conventions"):
  * pixel coordinates at 300 dpi, origin top-left, x right, y down;
  * a rectangle is [x, y, w, h] and covers pixels x..x+w-1, y..y+h-1;
  * "lines" are filled black rectangles (ruling); drawing exactly these
    rectangles reproduces the ruling pixel for pixel;
  * a cell rectangle spans from the inner edge of one ruling line to the
    inner edge of the next (ink-free area inside the ruling);
  * fiducials are solid black squares given by centre and side length;
  * glyph guides are 1-px outlines in light grey (guide_grey) inside each
    move cell: 4 boxes, one per notation symbol.
"""

FORM_VERSION = 1
PAGE_W, PAGE_H = 2480, 3508
DPI = 300

FID_SIZE = 90
FID_CENTRES = [("top_left", 120, 120), ("top_right", PAGE_W - 120, 120),
               ("bottom_left", 120, PAGE_H - 120),
               ("bottom_right", PAGE_W - 120, PAGE_H - 120)]

# table
TAB_X0, TAB_X1 = 200, 2280          # outer extent of the 3 blocks
BLOCKS, ROWS = 3, 40
NUM_W, MOVE_W = 90, 290             # column widths between line centres
BLOCK_W = NUM_W + 2 * MOVE_W        # 670
BLOCK_GAP = (TAB_X1 - TAB_X0 - BLOCKS * BLOCK_W) // (BLOCKS - 1)   # 35
TAB_Y0 = 600                        # top line of the column-label row
LABEL_ROW_H = 60
ROW_H = 66
OUTER_LW, INNER_LW = 4, 2           # ruling widths (px)
GUIDE_GREY = 200
GUIDES_PER_CELL = 4
GUIDE_PAD_X, GUIDE_PAD_Y, GUIDE_GAP = 10, 8, 6

HEADER_FIELDS = [
    # field, Chinese label, Latin label, x0, y0, x1, y1 (outer box)
    ("event", "赛事", "Event", 200, 210, 1500, 320),
    ("date", "日期", "Date", 1530, 210, 2280, 320),
    ("red", "红方", "Red", 200, 340, 1225, 450),
    ("black", "黑方", "Black", 1255, 340, 2280, 450),
    ("round", "轮次", "Round", 200, 470, 660, 560),
    ("board", "台次", "Board", 690, 470, 1150, 560),
    ("result", "结果", "Result", 1180, 470, 2280, 560),
]
HEADER_LW = 3
HEADER_LABEL_W = 150


def _hline(x0, x1, y, lw):
    """Horizontal ruling centred on y from x0 to x1 inclusive of line ends."""
    return [x0 - lw // 2, y - lw // 2, x1 - x0 + lw, lw]


def _vline(x, y0, y1, lw):
    return [x - lw // 2, y0 - lw // 2, lw, y1 - y0 + lw]


def _inner(x0, y0, x1, y1, lw_l, lw_t, lw_r, lw_b):
    """Rectangle between ruling lines centred on x0,x1 / y0,y1."""
    xa = x0 - lw_l // 2 + lw_l
    ya = y0 - lw_t // 2 + lw_t
    xb = x1 - lw_r // 2          # first pixel of the right line
    yb = y1 - lw_b // 2
    return [xa, ya, xb - xa, yb - ya]


def form_geometry():
    """Return the whole geometry as a JSON-ready dict."""
    g = {
        "name": "xqscan-form",
        "version": FORM_VERSION,
        "dpi": DPI,
        "page": {"width": PAGE_W, "height": PAGE_H, "paper": "A4"},
        "conventions": {
            "rect": "[x, y, w, h] in pixels, origin top-left, covers x..x+w-1, y..y+h-1",
            "lines": "filled black (0) rectangles; draw them as given",
            "cells": "cell rect = ink-free interior between ruling lines",
            "fiducials": "solid black squares, centre (cx, cy), side size",
            "guides": "1-px outline rectangles in grey guide_grey, inside move cells",
            "text": "optional printed text: string, rect to centre it in, pixel height",
        },
        "fiducials": [{"name": n, "cx": cx, "cy": cy, "size": FID_SIZE,
                       "rect": [cx - FID_SIZE // 2, cy - FID_SIZE // 2,
                                FID_SIZE, FID_SIZE]}
                      for n, cx, cy in FID_CENTRES],
        "guide_grey": GUIDE_GREY,
        "line_widths": {"table_outer": OUTER_LW, "table_inner": INNER_LW,
                        "header": HEADER_LW},
    }
    lines = []
    texts = [{"text": "象棋记录表  Xiangqi scoresheet", "rect": [300, 80, 1880, 100],
              "height": 64, "align": "center"}]
    header = []
    for field, zh, en, x0, y0, x1, y1 in HEADER_FIELDS:
        lw = HEADER_LW
        lines += [_hline(x0, x1, y0, lw), _hline(x0, x1, y1, lw),
                  _vline(x0, y0, y1, lw), _vline(x1, y0, y1, lw),
                  _vline(x0 + HEADER_LABEL_W, y0, y1, 1)]
        label = _inner(x0, y0, x0 + HEADER_LABEL_W, y1, lw, lw, 1, lw)
        write = _inner(x0 + HEADER_LABEL_W, y0, x1, y1, 1, lw, lw, lw)
        header.append({"field": field, "label_zh": zh, "label_en": en,
                       "rect": _inner(x0, y0, x1, y1, lw, lw, lw, lw),
                       "label_rect": label, "write_rect": write})
        texts.append({"text": zh, "rect": [label[0], label[1], label[2], label[3] * 3 // 5],
                      "height": 36, "align": "center"})
        texts.append({"text": en, "rect": [label[0], label[1] + label[3] * 3 // 5,
                                           label[2], label[3] * 2 // 5],
                      "height": 24, "align": "center"})
    g["header"] = header

    tab_y1 = TAB_Y0 + LABEL_ROW_H + ROWS * ROW_H
    blocks, cells = [], []
    for b in range(BLOCKS):
        bx = TAB_X0 + b * (BLOCK_W + BLOCK_GAP)
        xs = [bx, bx + NUM_W, bx + NUM_W + MOVE_W, bx + BLOCK_W]
        ys = [TAB_Y0, TAB_Y0 + LABEL_ROW_H] + \
             [TAB_Y0 + LABEL_ROW_H + (r + 1) * ROW_H for r in range(ROWS)]
        for i, y in enumerate(ys):
            lw = OUTER_LW if i in (0, 1, len(ys) - 1) else INNER_LW
            lines.append(_hline(xs[0], xs[-1], y, lw))
        for i, x in enumerate(xs):
            lw = OUTER_LW if i in (0, len(xs) - 1) else INNER_LW
            lines.append(_vline(x, ys[0], ys[-1], lw))
        blocks.append({"block": b,
                       "rect": [xs[0], ys[0], xs[-1] - xs[0], ys[-1] - ys[0]],
                       "columns": {"number": [xs[0], NUM_W], "red": [xs[1], MOVE_W],
                                   "black": [xs[2], MOVE_W]},
                       "first_move": b * ROWS + 1, "rows": ROWS})
        for ci, (txt, en) in enumerate((("回合", "No."), ("红方", "Red"), ("黑方", "Black"))):
            r = _inner(xs[ci], ys[0], xs[ci + 1], ys[1],
                       OUTER_LW if ci == 0 else INNER_LW, OUTER_LW,
                       OUTER_LW if ci == 2 else INNER_LW, OUTER_LW)
            texts.append({"text": txt if ci == 0 else txt + " " + en, "rect": r,
                          "height": 34, "align": "center"})
        for r in range(ROWS):
            y0, y1 = ys[r + 1], ys[r + 2]
            lwt = OUTER_LW if r == 0 else INNER_LW
            lwb = OUTER_LW if r == ROWS - 1 else INNER_LW
            move = b * ROWS + r + 1
            nr = _inner(xs[0], y0, xs[1], y1, OUTER_LW, lwt, INNER_LW, lwb)
            texts.append({"text": str(move), "rect": nr, "height": 30, "align": "center"})
            for side, c in (("red", 1), ("black", 2)):
                rect = _inner(xs[c], y0, xs[c + 1], y1, INNER_LW, lwt,
                              OUTER_LW if c == 2 else INNER_LW, lwb)
                gw = (rect[2] - 2 * GUIDE_PAD_X - (GUIDES_PER_CELL - 1) * GUIDE_GAP) \
                    // GUIDES_PER_CELL
                gh = rect[3] - 2 * GUIDE_PAD_Y
                guides = [[rect[0] + GUIDE_PAD_X + k * (gw + GUIDE_GAP),
                           rect[1] + GUIDE_PAD_Y, gw, gh]
                          for k in range(GUIDES_PER_CELL)]
                cells.append({"block": b, "row": r, "move": move, "side": side,
                              "ply": 2 * move - 1 if side == "red" else 2 * move,
                              "rect": rect, "guides": guides})
    g["table"] = {"rect": [TAB_X0, TAB_Y0, TAB_X1 - TAB_X0, tab_y1 - TAB_Y0],
                  "blocks": BLOCKS, "rows": ROWS, "label_row_height": LABEL_ROW_H,
                  "row_height": ROW_H, "moves": BLOCKS * ROWS}
    g["blocks"] = blocks
    g["cells"] = cells
    g["lines"] = lines
    g["texts"] = texts
    return g


def dumps(g):
    """Compact but diff-friendly JSON: one cell / line per row."""
    import json
    out = ["{"]
    keys = list(g.keys())
    for i, k in enumerate(keys):
        v = g[k]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(v, list):
            out.append("  %s: [" % json.dumps(k))
            for j, item in enumerate(v):
                out.append("    " + json.dumps(item, ensure_ascii=False)
                           + ("," if j < len(v) - 1 else ""))
            out.append("  ]" + comma)
        else:
            out.append("  %s: %s%s" % (json.dumps(k), json.dumps(v, ensure_ascii=False), comma))
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import sys
    sys.stdout.write(dumps(form_geometry()))

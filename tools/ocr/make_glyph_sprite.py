#!/usr/bin/python3
"""Build ocr/data/glyphs.png: reference glyph images for xqscan's glyph classifier.

Recipe (deterministic, Debian packages + npm hanzi-writer-data only):
  /usr/bin/python3 tools/ocr/make_glyph_sprite.py [repo_root]
Each row of the sprite is one glyph class (order = CLASSES below, which must
equal ocr/glyph.c's table; tests/test_ocr_glyph.c checks ocr/data/glyphs.txt),
each column one rendering: printed fonts (sans, serif, ming, kai) and plain
stroke-median drawings from hanzi-writer-data (no jitter, no slant: these
are skeleton references, not imitations of any handwriting renderer).
Each tile is TILE x TILE 8-bit grey, the glyph's ink box scaled (aspect
kept) so that its longer side is INNER pixels, centred. C computes its own
features from these pixels at start-up, so feature code lives in one place.
"""
import json, os, sys
from PIL import Image, ImageDraw, ImageFont

TILE, INNER = 40, 38
CLASSES = ("帅 帥 将 將 仕 士 相 象 马 傌 馬 车 俥 車 炮 砲 包 兵 卒 "
           "进 進 退 平 前 中 后 後 一 二 三 四 五 六 七 八 九 "
           "1 2 3 4 5 6 7 8 9 K A E B H N R C P + - = .").split()

NOTO = "/usr/share/fonts/opentype/noto/"
FONTS = [  # (path, wanted family substring)
    (NOTO + "NotoSansCJK-Regular.ttc", "Noto Sans CJK SC"),
    (NOTO + "NotoSansCJK-Bold.ttc", "Noto Sans CJK SC"),
    (NOTO + "NotoSerifCJK-Regular.ttc", "Noto Serif CJK SC"),
    (NOTO + "NotoSerifCJK-Bold.ttc", "Noto Serif CJK SC"),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", "AR PL UMing CN"),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", "AR PL UKai CN"),
    ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", None),
]
STROKE_WIDTHS = (35, 60, 90)   # in hanzi-writer's 1024 units
# Single-stroke (Hershey) fonts for digits, Latin letters and signs: pen
# drawings of the ASCII glyphs, as handwriting is, in designs of their own
# (cursive, script, italic, roman), each at a thin and a broad pen.
HERSHEY_DIR = "/usr/share/hershey-fonts"
HERSHEY_FONTS = ("cursive", "scriptc", "timesi", "timesr")
HERSHEY_WIDTHS = (0.07, 0.13)   # of the cap height
NCOL = len(FONTS) + len(STROKE_WIDTHS) + len(HERSHEY_FONTS) * len(HERSHEY_WIDTHS)


def load_font(path, family, size):
    for idx in range(12):
        try:
            f = ImageFont.truetype(path, size, index=idx)
        except OSError:
            break
        if family is None or family in " ".join(f.getname()):
            return f
    return None


def normalise(img):
    """img: L mode, 0 = ink. Crop ink, scale into the tile."""
    inv = Image.eval(img, lambda v: 255 - v)
    box = inv.point(lambda v: 255 if v > 60 else 0).getbbox()
    if not box:
        return None
    g = img.crop(box)
    w, h = g.size
    s = INNER / max(w, h)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    g = g.resize((nw, nh), Image.LANCZOS)
    tile = Image.new("L", (TILE, TILE), 255)
    tile.paste(g, ((TILE - nw) // 2, (TILE - nh) // 2))
    return tile


def render_font(font, ch, notdef):
    img = Image.new("L", (160, 160), 255)
    d = ImageDraw.Draw(img)
    d.text((16, 8), ch, font=font, fill=0)
    if notdef is not None and list(img.getdata()) == notdef:
        return None
    return normalise(img)


def render_strokes(hwdir, ch, width):
    p = os.path.join(hwdir, ch + ".json")
    if not os.path.exists(p):
        return None
    data = json.load(open(p, encoding="utf-8"))
    img = Image.new("L", (1100, 1100), 255)
    d = ImageDraw.Draw(img)
    for med in data["medians"]:
        pts = [(x + 40, 900 - y + 40) for x, y in med]
        d.line(pts, fill=0, width=width, joint="curve")
        r = width // 2
        for x, y in (pts[0], pts[-1]):
            d.ellipse((x - r, y - r, x + r, y + r), fill=0)
    return normalise(img.resize((220, 220), Image.LANCZOS))


def hershey_glyphs(name):
    """ASCII code -> strokes of a .jhf font (records: 5-char id, 3-char
    count, then coordinate pairs offset by 'R'; ' R' lifts the pen)."""
    with open(os.path.join(HERSHEY_DIR, name + ".jhf"), encoding="latin-1") as fh:
        text = fh.read().splitlines()
    recs, cur = [], ""
    for ln in text:
        if len(cur) >= 8 and len(cur) < 8 + 2 * int(cur[5:8]):
            cur += ln
            continue
        if cur:
            recs.append(cur)
        cur = ln
    if cur:
        recs.append(cur)
    out = {}
    for i, rec in enumerate(recs):
        n = int(rec[5:8])
        data = rec[8:8 + 2 * n]
        strokes, st = [], []
        for k in range(2, len(data) - 1, 2):
            if data[k:k + 2] == " R":
                if st:
                    strokes.append(st)
                st = []
            else:
                st.append((ord(data[k]) - 82, ord(data[k + 1]) - 82))
        if st:
            strokes.append(st)
        out[32 + i] = strokes
    return out


def render_hershey(glyphs, ch, width):
    if len(ch) != 1 or ord(ch) >= 128 or not glyphs.get(ord(ch)):
        return None
    sc = 8.0   # Hershey cap height is ~21 units
    img = Image.new("L", (600, 600), 255)
    d = ImageDraw.Draw(img)
    w = max(1, round(width * 21 * sc))
    for st in glyphs[ord(ch)]:
        pts = [(300 + x * sc, 300 + y * sc) for x, y in st]
        if len(pts) == 1:
            pts = pts * 2
        d.line(pts, fill=0, width=w, joint="curve")
        r = w // 2
        for x, y in (pts[0], pts[-1]):
            d.ellipse((x - r, y - r, x + r, y + r), fill=0)
    return normalise(img.resize((150, 150), Image.LANCZOS))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    hwdir = os.path.join(root, "tools/node/node_modules/hanzi-writer-data")
    sprite = Image.new("L", (TILE * NCOL, TILE * len(CLASSES)), 255)
    fonts = []
    for path, fam in FONTS:
        f = load_font(path, fam, 120)
        if f is None:
            sys.exit("font missing: %s %s" % (path, fam))
        nd = Image.new("L", (160, 160), 255)
        ImageDraw.Draw(nd).text((16, 8), "\U0010FFFD", font=f, fill=0)
        fonts.append((f, list(nd.getdata())))
    hershey = [hershey_glyphs(n) for n in HERSHEY_FONTS]
    for r, ch in enumerate(CLASSES):
        tiles = [render_font(f, ch, nd) for f, nd in fonts]
        tiles += [render_strokes(hwdir, ch, w) for w in STROKE_WIDTHS]
        tiles += [render_hershey(hg, ch, w) for hg in hershey
                  for w in HERSHEY_WIDTHS]
        for c, t in enumerate(tiles):
            if t is not None:
                sprite.paste(t, (c * TILE, r * TILE))
    out = os.path.join(root, "ocr/data")
    os.makedirs(out, exist_ok=True)
    # 16 grey levels keep the file small (the classifier blurs anyway)
    sprite = sprite.point(lambda v: (v // 16) * 17)
    sprite.save(os.path.join(out, "glyphs.png"), optimize=True)
    with open(os.path.join(out, "glyphs.txt"), "w", encoding="utf-8") as f:
        f.write("%d %d\n" % (TILE, NCOL))
        f.write("\n".join(CLASSES) + "\n")


if __name__ == "__main__":
    main()

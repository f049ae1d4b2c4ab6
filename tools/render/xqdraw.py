"""Writing styles: printed fonts, kai fonts and handwriting-like strokes
(hanzi-writer-data stroke medians, Hershey single-stroke digits and Latin).

Everything draws into an 8-bit ink-coverage mask (PIL "L", 255 = full ink);
the page composes masks with ink colours later.
"""
import json
import math
import os

from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
HANZI_DIR = os.path.join(HERE, "..", "node", "node_modules", "hanzi-writer-data")
HERSHEY_DIR = "/usr/share/hershey-fonts"

FONTS = {
    # name: (path, face index, family kind)
    "noto-sans-sc": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2, "printed"),
    "noto-sans-tc": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 3, "printed"),
    "noto-serif-sc": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2, "printed"),
    "noto-serif-tc": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 3, "printed"),
    "ar-pl-uming": ("/usr/share/fonts/truetype/arphic/uming.ttc", 0, "printed"),
    "ar-pl-ukai": ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0, "kai"),
    "cwtex-kai": ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", 0, "kai"),
}
PRINTED_FONTS = [k for k, v in FONTS.items() if v[2] == "printed"]
KAI_FONTS = [k for k, v in FONTS.items() if v[2] == "kai"]



def use_only_font(path, index=0):
    """Write every printed and kai sheet in the font at path (face index),
    instead of the fonts above: sheets in a font the glyph references were
    not made from (bench/bench_fonts.sh). A glyph the font lacks falls back
    as usual."""
    FONTS["only"] = (path, index, "kai")
    PRINTED_FONTS[:] = ["only"]
    KAI_FONTS[:] = ["only"]


INK_COLOURS = {"black": (25, 25, 30), "blue": (30, 50, 150), "darkblue": (20, 30, 95)}

_font_cache = {}
_cover_cache = {}


def font(name, px):
    key = (name, px)
    f = _font_cache.get(key)
    if f is None:
        path, idx, _ = FONTS[name]
        f = ImageFont.truetype(path, px, index=idx)
        _font_cache[key] = f
    return f


def font_has(name, ch):
    """True when the font has a real glyph for ch (not .notdef)."""
    key = (name, ch)
    r = _cover_cache.get(key)
    if r is None:
        f = font(name, 40)
        m1 = f.getmask(ch)
        m2 = f.getmask("\U0010FFFD")
        r = not (m1.size == m2.size and bytes(m1) == bytes(m2))
        _cover_cache[key] = r
    return r


# ------------------------------------------------------------ hanzi medians

_hanzi_cache = {}


def _compose_radical(left, right):
    """Median strokes of a left-right compound built from two characters'
    data: 亻 taken as the first two strokes of `left`, `right` squeezed."""
    a = hanzi_medians(left)
    b = hanzi_medians(right)
    if a is None or b is None:
        return None
    out = []
    for st in a[:2]:
        out.append([(x * 0.55 + 20, y) for x, y in st])
    for st in b:
        out.append([(x * 0.66 + 340, y) for x, y in st])
    return out


COMPOSED = {"俥": ("仕", "車"), "傌": ("仕", "馬")}


def hanzi_medians(ch):
    """Stroke medians of ch in a 1024 box, y down (0 top), or None."""
    if ch in _hanzi_cache:
        return _hanzi_cache[ch]
    res = None
    if ch in COMPOSED:
        l, r = COMPOSED[ch]
        res = _compose_radical(l, r)
    else:
        p = os.path.join(HANZI_DIR, ch + ".json")
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                d = json.load(f)
            res = [[(x, 900 - y) for x, y in st] for st in d["medians"]]
    _hanzi_cache[ch] = res
    return res


# ------------------------------------------------------------ hershey

_hershey_cache = {}


def hershey_font(name):
    """Glyphs of a .jhf font indexed by ASCII code: (left, right, strokes)."""
    f = _hershey_cache.get(name)
    if f is not None:
        return f
    glyphs = {}
    with open(os.path.join(HERSHEY_DIR, name + ".jhf"), encoding="latin-1") as fh:
        lines = fh.read().splitlines()
    # join continuation lines (a record is 5-char id + 3-char count + pairs)
    recs, cur = [], ""
    for ln in lines:
        if cur and len(cur) >= 8:
            need = 8 + 2 * int(cur[5:8])
            if len(cur) < need:
                cur += ln
                continue
            recs.append(cur)
            cur = ln
        else:
            cur += ln
    if cur:
        recs.append(cur)
    for i, rec in enumerate(recs):
        n = int(rec[5:8])
        data = rec[8:8 + 2 * n]
        left = ord(data[0]) - 82
        right = ord(data[1]) - 82
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
        glyphs[32 + i] = (left, right, strokes)
    _hershey_cache[name] = glyphs
    return glyphs


# ------------------------------------------------------------ glyph model

FW_DIGITS = {chr(0xFF10 + i): str(i) for i in range(10)}


def glyph_advance(ch):
    """Relative advance (em) of a glyph as people write it."""
    if ch in FW_DIGITS:
        return 0.9
    if ord(ch) < 128:
        return 0.62 if ch != " " else 0.4
    return 1.0


def _smooth(pts, it=1):
    """Chaikin corner cutting (keeps end points)."""
    for _ in range(it):
        if len(pts) < 3:
            return pts
        out = [pts[0]]
        for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:]):
            out.append((0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1))
            out.append((0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1))
        out.append(pts[-1])
        pts = out
    return pts


class Writer:
    """A person (or a printer) filling in a sheet. All randomness is drawn
    from the rng passed at creation or per call, so output is deterministic."""

    def __init__(self, rng, style, messy=None):
        self.style = style
        self.p = p = {"style": style}
        if style == "printed":
            p["font"] = rng.choice(PRINTED_FONTS)
            p["ink"] = "black"
            p["size"] = rng.uniform(0.50, 0.70)
            p["spacing"] = rng.uniform(0.95, 1.15)
            p["pos_jitter"] = rng.uniform(0.0, 0.04)
            p["align"] = rng.choice(["left", "center", "center"])
            p["messy"] = False
        else:
            messy = (rng.random() < 0.2) if messy is None else messy
            p["messy"] = messy
            m = 1.7 if messy else 1.0
            p["ink"] = rng.choice(["blue", "blue", "black", "darkblue"])
            p["size"] = rng.uniform(0.55, 0.85)
            p["spacing"] = rng.uniform(0.85, 1.2)
            p["slant"] = rng.uniform(-0.12, 0.25) * (1.3 if messy else 1.0)
            p["rotation"] = rng.uniform(0.5, 3.0) * m        # degrees, per glyph sd
            p["size_jitter"] = rng.uniform(0.03, 0.08) * m   # per glyph
            p["baseline_wobble"] = rng.uniform(0.02, 0.06) * m
            p["pos_jitter"] = rng.uniform(0.03, 0.10) * m    # cell placement sd
            p["align"] = rng.choice(["left", "left", "center", "center", "right"])
            p["x_bias"] = rng.uniform(-0.08, 0.08)
            p["y_bias"] = rng.uniform(-0.10, 0.10)
            if style == "kai":
                p["font"] = rng.choice(KAI_FONTS)
                p["weight"] = rng.choice([0, 0, 0, 1])          # dilation steps
            else:
                p["stroke_width"] = rng.uniform(0.035, 0.075)  # of glyph height
                p["stroke_jitter"] = rng.uniform(0.015, 0.04) * m   # of glyph size
                p["point_jitter"] = rng.uniform(0.005, 0.015) * m
                p["hershey"] = rng.choice(["futural", "rowmans", "scripts"])
                p["pressure"] = rng.uniform(0.0, 0.3)
                # cursive joins: chance that a stroke's end runs into the next
                p["connect"] = rng.uniform(0.15, 0.45) if messy else rng.uniform(0.0, 0.12)
        self.ink = INK_COLOURS[p["ink"]]
        # pen pressure / ink load: how dark full coverage gets (1 = solid)
        p["ink_density"] = 1.0 if style == "printed" else round(rng.uniform(0.7, 1.0), 3)

    # ---------------------------------------------------------- primitives
    def _font_glyph(self, mask, ch, cx, cy, h, rng, fontname=None):
        """Draw ch from a font centred at (cx, cy), glyph height h."""
        p = self.p
        name = fontname or p.get("font") or "ar-pl-ukai"
        if ord(ch) > 127 and not font_has(name, ch):
            alts = ("ar-pl-ukai", "noto-sans-tc") if FONTS[name][2] == "kai" else \
                ("noto-sans-sc", "noto-sans-tc", "ar-pl-uming")
            for alt in alts:
                if font_has(alt, ch):
                    name = alt
                    break
        px = max(6, int(round(h)))
        f = font(name, px)
        pad = 4 + px // 6
        if ord(ch) < 128:
            # Latin: keep the baseline (the tile's centre is 0.35 em above it)
            bb = f.getbbox(ch, anchor="ls")
            w = max(1, bb[2] - bb[0])
            tile = Image.new("L", (w + 2 * pad, int(px * 1.3) + 2 * pad), 0)
            ImageDraw.Draw(tile).text((pad - bb[0], pad + int(px * 1.0)), ch, font=f, fill=255,
                                      anchor="ls")
        else:
            bb = f.getbbox(ch)
            w, hh = max(1, bb[2] - bb[0]), max(1, bb[3] - bb[1])
            tile = Image.new("L", (w + 2 * pad, hh + 2 * pad), 0)
            ImageDraw.Draw(tile).text((pad - bb[0], pad - bb[1]), ch, font=f, fill=255)
        if self.style != "printed":
            rot = rng.gauss(0, p["rotation"])
            sh = p["slant"]
            tile = _affine_tile(tile, rot, sh)
            if p.get("weight"):
                from PIL import ImageFilter
                tile = tile.filter(ImageFilter.MaxFilter(3))
        # place the glyph's ink centre; fonts put ascii digits lower, centre on bbox
        x0 = int(round(cx - tile.width / 2))
        y0 = int(round(cy - tile.height / 2))
        _paste_max(mask, tile, x0, y0)

    def _stroke_glyph(self, mask, ch, cx, cy, h, rng):
        """Handwriting-like glyph from medians (CJK) or Hershey (ASCII)."""
        p = self.p
        key = FW_DIGITS.get(ch, ch)
        if ord(key) < 128:
            g = hershey_font(p["hershey"]).get(ord(key))
            if g is None:
                return
            left, right, strokes = g
            # hershey: cap height ~21 units from y=-12 to 9; centre ~ -1.5
            sc = h * 0.66 / 21.0
            ox, oy = (left + right) / 2.0, -1.5
            strokes = [[((x - ox) * sc, (y - oy) * sc) for x, y in st] for st in strokes]
            strokes = [_smooth(st, 1) for st in strokes]
        else:
            med = hanzi_medians(ch)
            if med is None:
                return self._font_glyph(mask, ch, cx, cy, h, rng, fontname="ar-pl-ukai")
            sc = h / 1024.0 * 1.15
            strokes = [[((x - 512) * sc, (y - 450) * sc) for x, y in st] for st in med]
        rot = math.radians(rng.gauss(0, p["rotation"]))
        cr, sr = math.cos(rot), math.sin(rot)
        sj = p["stroke_jitter"] * h
        pj = p["point_jitter"] * h
        lw = max(1.0, p["stroke_width"] * h)
        ss = 2  # supersampling
        pad = int(h * 0.35 + lw * 2 + 4)
        size = int(h * 1.2) + 2 * pad
        tile = Image.new("L", (size * ss, size * ss), 0)
        d = ImageDraw.Draw(tile)
        c = size * ss / 2.0
        prev_end = None
        for st in strokes:
            dx, dy = rng.gauss(0, sj), rng.gauss(0, sj)
            pts = []
            for x, y in st:
                x += dx + rng.gauss(0, pj)
                y += dy + rng.gauss(0, pj)
                x -= y * p["slant"]
                x, y = x * cr - y * sr, x * sr + y * cr
                pts.append((c + x * ss, c + y * ss))
            pts = _smooth(pts, 2)
            w = lw * (1.0 - p["pressure"] * rng.random()) * ss
            wi = max(1, int(round(w)))
            if len(pts) == 1:
                pts = pts * 2
            d.line(pts, fill=255, width=wi, joint="curve")
            if prev_end is not None and rng.random() < p["connect"]:
                # a thin connecting trail, as in fast writing
                mx = (prev_end[0] + pts[0][0]) / 2 + rng.gauss(0, h * 0.05 * ss)
                my = (prev_end[1] + pts[0][1]) / 2 + rng.gauss(0, h * 0.05 * ss)
                d.line(_smooth([prev_end, (mx, my), pts[0]], 2), fill=255,
                       width=max(1, int(wi * 0.55)), joint="curve")
            prev_end = pts[-1]
            r = wi / 2.0
            for (x, y) in (pts[0], pts[-1]):
                d.ellipse([x - r, y - r, x + r, y + r], fill=255)
        tile = tile.resize((size, size), Image.BOX)
        _paste_max(mask, tile, int(round(cx - size / 2)), int(round(cy - size / 2)))

    def advance(self, ch):
        """Advance of ch in em units as this writer writes it."""
        key = FW_DIGITS.get(ch, ch)
        if ord(key) >= 128 or ch in FW_DIGITS:
            return glyph_advance(ch)
        if ch == " ":
            return 0.35
        if self.style == "hand":
            g = hershey_font(self.p["hershey"]).get(ord(key))
            if g is None:
                return 0.6
            return max(0.3, (g[1] - g[0]) * 0.66 / 21.0)
        name = self.p.get("font") or "ar-pl-ukai"
        return max(0.25, font(name, 100).getlength(ch) / 100.0)

    def glyph(self, mask, ch, cx, cy, h, rng):
        if ch == " ":
            return
        if self.style == "hand":
            self._stroke_glyph(mask, ch, cx, cy, h, rng)
        else:
            self._font_glyph(mask, ch, cx, cy, h, rng)

    # ---------------------------------------------------------- text in a box
    def write(self, mask, text, box, rng, guides=None, scale=1.0, align=None):
        """Write text inside box [x, y, w, h]; returns the ink bbox estimate
        [x, y, w, h]. With guides (list of boxes), one glyph per guide."""
        p = self.p
        x, y, w, h = box
        self.last_glyphs = []
        if not text:
            return None
        if guides and len(guides) >= len(text):     # one glyph per guide box
            gh = min(g[3] for g in guides)
            size = gh * min(0.92, p["size"] + 0.12) * scale
            xs = []
            for ch, g in zip(text, guides):
                j = p["pos_jitter"] * 0.5
                cx = g[0] + g[2] / 2 + rng.gauss(0, j) * g[2]
                cy = g[1] + g[3] / 2 + rng.gauss(0, j) * g[3]
                gs = size * (1 + rng.gauss(0, p.get("size_jitter", 0.0)))
                self.glyph(mask, ch, cx, cy, gs, rng)
                xs.append((cx - gs / 2, cx + gs / 2))
                self.last_glyphs.append((ch, [cx - gs / 2, cy - gs / 2, gs, gs]))
            return [int(xs[0][0]), int(y + (h - size) / 2), int(xs[-1][1] - xs[0][0]), int(size)]
        if self.style != "printed":   # people keep a little off the ruling
            x, y, w, h = x + w * 0.03, y + h * 0.06, w * 0.94, h * 0.88
        size = min(h * p["size"] * scale, h * 0.95)
        adv = [self.advance(c) for c in text]
        total = sum(a * (p["spacing"] if ord(c) >= 128 else 1.0 + (p["spacing"] - 1.0) * 0.3)
                    for a, c in zip(adv, text)) * size
        if total > w * 0.94:
            f = w * 0.94 / total
            size *= f
            total *= f
        slack = max(0.0, w - total)
        al = align or p["align"]
        frac = {"left": 0.08, "center": 0.5, "right": 0.92}[al]
        frac += p.get("x_bias", 0.0) + rng.gauss(0, p["pos_jitter"])
        frac = min(1.0, max(0.0, frac))
        x0 = x + slack * frac
        yc = y + h / 2 + (p.get("y_bias", 0.0) + rng.gauss(0, p["pos_jitter"])) * (h - size) * 0.8
        cur = x0
        for ch, a in zip(text, adv):
            sp = p["spacing"] if ord(ch) >= 128 else 1.0 + (p["spacing"] - 1.0) * 0.3
            gw = a * size * sp
            cx = cur + gw / 2
            wob = rng.gauss(0, p.get("baseline_wobble", 0.0)) * size
            gs = size * (1 + rng.gauss(0, p.get("size_jitter", 0.0)))
            self.glyph(mask, ch, cx, yc + wob, gs, rng)
            gwi = a * gs
            self.last_glyphs.append((ch, [cx - gwi / 2, yc + wob - gs / 2, gwi, gs]))
            cur += gw
        return [int(x0), int(yc - size / 2), int(total), int(size)]

    def scribble(self, mask, box, rng, width=None):
        """Illegible overstrike: a dense zigzag / loop tangle over box."""
        x, y, w, h = box
        lw = width or max(2, int(h * 0.06))
        d = ImageDraw.Draw(mask)
        n = rng.randint(6, 14)
        pts = []
        for i in range(n * 3):
            t = i / (n * 3 - 1)
            px = x + w * (0.05 + 0.9 * t) + rng.gauss(0, w * 0.03)
            py = y + h * (0.2 + 0.6 * ((i % 2) if rng.random() < 0.8 else rng.random())) \
                + rng.gauss(0, h * 0.06)
            pts.append((px, py))
        d.line(_smooth(pts, 2), fill=255, width=lw, joint="curve")
        if rng.random() < 0.5:   # a second pass back
            pts2 = [(px + rng.gauss(0, w * 0.04), py + rng.gauss(0, h * 0.1)) for px, py in pts[::-1]]
            d.line(_smooth(pts2, 2), fill=255, width=lw, joint="curve")

    def strike(self, mask, bbox, rng):
        """One or two strike-through lines over bbox."""
        x, y, w, h = bbox
        d = ImageDraw.Draw(mask)
        lw = max(2, int(h * 0.07))
        for k in range(rng.choice([1, 1, 2])):
            yy = y + h * (0.45 + 0.15 * k) + rng.gauss(0, h * 0.05)
            d.line([(x - w * 0.03, yy + rng.gauss(0, h * 0.05)),
                    (x + w * 1.03, yy + rng.gauss(0, h * 0.08))], fill=255, width=lw)


def _affine_tile(tile, rot_deg, shear):
    """Rotate and shear a glyph tile about its centre (expanding as needed)."""
    w, h = tile.size
    a = math.radians(rot_deg)
    ca, sa = math.cos(a), math.sin(a)
    # forward: x' = R * Shear * (x - c) + c'; shear x -= y*shear (lean right for >0)
    m = [[ca, -ca * shear - sa], [sa, -sa * shear + ca]]
    det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
    inv = [[m[1][1] / det, -m[0][1] / det], [-m[1][0] / det, m[0][0] / det]]
    W = int(w + abs(shear) * h + 4)
    H = h + 4
    cx, cy = w / 2, h / 2
    cX, cY = W / 2, H / 2
    # input = inv * (out - cOut) + cIn
    a0, a1 = inv[0][0], inv[0][1]
    b0, b1 = inv[1][0], inv[1][1]
    coeffs = (a0, a1, cx - a0 * cX - a1 * cY, b0, b1, cy - b0 * cX - b1 * cY)
    return tile.transform((W, H), Image.AFFINE, coeffs, Image.BILINEAR)


def _paste_max(mask, tile, x0, y0):
    """mask = max(mask, tile) at (x0, y0), clipped."""
    from PIL import ImageChops
    W, H = mask.size
    tx0, ty0 = max(0, -x0), max(0, -y0)
    tx1, ty1 = min(tile.width, W - x0), min(tile.height, H - y0)
    if tx1 <= tx0 or ty1 <= ty0:
        return
    t = tile.crop((tx0, ty0, tx1, ty1))
    region = (x0 + tx0, y0 + ty0, x0 + tx1, y0 + ty1)
    mask.paste(ImageChops.lighter(mask.crop(region), t), region[:2])

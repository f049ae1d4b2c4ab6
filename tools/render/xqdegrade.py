"""Scan and phone-photo degradations with an exact page -> image homography,
so that ground-truth boxes can be mapped into the final image."""
import io
import math

import numpy as np
from PIL import Image, ImageChops, ImageFilter


def homography(src, dst):
    """3x3 matrix mapping 4 src points to 4 dst points."""
    A, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b += [u, v]
    h = np.linalg.solve(np.array(A, float), np.array(b, float))
    return np.append(h, 1.0).reshape(3, 3)


def apply_h(Hm, pts):
    out = []
    for x, y in pts:
        v = Hm @ np.array([x, y, 1.0])
        out.append((float(v[0] / v[2]), float(v[1] / v[2])))
    return out


def _warp(img, Hm, size, fill):
    """Warp img by Hm into size; box-reduce first when shrinking a lot, to
    avoid aliasing of thin ruling (the truth keeps using Hm on page coords)."""
    scale = math.sqrt(abs(np.linalg.det(Hm[:2, :2] / Hm[2, 2])))
    f = int(1.0 / scale / 0.8) if scale < 0.8 else 1
    if f >= 2:
        img = img.reduce(f)
        Hm = Hm @ np.array([[f, 0, 0], [0, f, 0], [0, 0, 1.0]])
    return _warp1(img, Hm, size, fill)


def _warp1(img, Hm, size, fill):
    # continuous coordinates, pixel (i, j) covers [i, i+1) x [j, j+1)
    m = np.linalg.inv(Hm)
    m = m / m[2, 2]
    coeffs = tuple(m.flatten()[:8])
    return img.transform(size, Image.PERSPECTIVE, coeffs, Image.BILINEAR, fillcolor=fill)


def _jpeg_roundtrip(img, q):
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=q)
    buf.seek(0)
    return Image.open(buf).convert(img.mode)


def _noise(img, rng_np, sd):
    """Add grey Gaussian noise (a seeded 1024x1024 tile, shifted and tiled)."""
    arr = np.asarray(img)
    h, w = arr.shape[:2]
    tile = np.round(rng_np.standard_normal((1024, 1024)).astype(np.float32) * sd)
    tile = np.clip(tile, -127, 127).astype(np.int16)
    oy, ox = rng_np.randint(0, 1024, 2)
    tile = np.roll(tile, (oy, ox), axis=(0, 1))
    n = np.tile(tile, ((h + 1023) // 1024, (w + 1023) // 1024))[:h, :w]
    if arr.ndim == 3:
        n = n[:, :, None]
    out = arr.astype(np.int16)
    out += n
    np.clip(out, 0, 255, out=out)
    return Image.fromarray(out.astype(np.uint8), img.mode)


def _lut(f):
    return [int(min(255, max(0, round(f(v))))) for v in range(256)]


def _lineart(img, thr, dpi):
    """A scanner's bilevel (line-art) mode: the grey capture is thresholded
    against the paper around each pixel, as scanner drivers' text
    enhancement / dynamic threshold does by default, not against one fixed
    level: a thin pen stroke or hairline that area sampling left light (a
    0.1-mm line covers half a 150-dpi pixel) still reads dark where it is
    clearly darker than the paper beside it, while flat shading, paper tint
    and grain stay white. The paper level is the bright end of the grey
    within about 4 mm (90th percentile of each 1.5-mm tile, the most of
    3 x 3 tiles, interpolated; the very brightest grain would set it so
    high that grain itself turns to specks); a pixel is ink
    when darker than thr, or than that paper level by the share k (the
    driver's sensitivity, 14-30%, following the threshold setting thr so
    that no random draw is added). Returns the 1-bit image and k."""
    k = round(0.14 + 0.16 * (thr - 140) / 50.0, 3)
    a = np.asarray(img, dtype=np.uint8)
    h, w = a.shape
    t = max(2, int(round(dpi * 1.5 / 25.4)))
    th_, tw_ = (h + t - 1) // t, (w + t - 1) // t
    pad = np.pad(a, ((0, th_ * t - h), (0, tw_ * t - w)), mode="edge")
    blk = pad.reshape(th_, t, tw_, t).transpose(0, 2, 1, 3).reshape(th_, tw_, t * t)
    q = int(0.9 * (t * t - 1))
    tiles = np.partition(blk, q, axis=2)[:, :, q]
    p = np.pad(tiles, 1, mode="edge")
    m = np.max([p[dy:dy + th_, dx:dx + tw_] for dy in range(3) for dx in range(3)], axis=0)
    bg = np.asarray(Image.fromarray(m).resize((tw_ * t, th_ * t), Image.BILINEAR),
                    dtype=np.float32)[:h, :w]
    ink = (a <= thr) | (a < bg * (1.0 - k))
    out = np.where(ink, 0, 255).astype(np.uint8)
    return Image.fromarray(out, "L").convert("1"), k


def degrade(page, kind, rng):
    """page: RGB PIL image at 300 dpi. Returns (image, H, params, dpi)."""
    W, H = page.size
    rng_np = np.random.RandomState(rng.randrange(2 ** 31))
    if kind == "none":
        return page, np.eye(3), {"kind": "none"}, 300
    if kind == "scan":
        dpi = rng.choice([150, 200, 200, 200, 300, 300, 300, 300, 400, 400, 600])
        mode = rng.choice(["grey", "grey", "colour", "colour", "bilevel"])
        if dpi == 600 and mode == "colour":
            mode = "grey"
        s = dpi / 300.0
        ang = math.radians(rng.uniform(-1.5, 1.5))
        dx, dy = rng.uniform(-15, 15) * s, rng.uniform(-15, 15) * s
        size = (int(round(W * s)), int(round(H * s)))
        c, si = math.cos(ang), math.sin(ang)
        cx, cy = W / 2, H / 2
        Hm = np.array([[1, 0, size[0] / 2 + dx], [0, 1, size[1] / 2 + dy], [0, 0, 1]]) @ \
            np.array([[c * s, -si * s, 0], [si * s, c * s, 0], [0, 0, 1]]) @ \
            np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
        src = page.convert("L") if mode != "colour" else page
        fill = 255 if mode != "colour" else (255, 255, 255)
        img = _warp(src, Hm, size, fill)
        blur = rng.uniform(0.2, 0.9) * s
        img = img.filter(ImageFilter.BoxBlur(blur))
        tint = rng.uniform(0.9, 1.0)
        contrast = rng.uniform(0.85, 1.0)
        if mode == "colour":
            gains = [tint, tint * rng.uniform(0.97, 1.0), tint * rng.uniform(0.9, 1.0)]
            img = Image.merge("RGB", [b.point(_lut(lambda v, g=g: 255 - (255 - v * g) * contrast))
                                      for b, g in zip(img.split(), gains)])
        else:
            img = img.point(_lut(lambda v: 255 - (255 - v * tint) * contrast))
        noise = rng.uniform(1.5, 7.0)
        img = _noise(img, rng_np, noise)
        params = {"kind": "scan", "dpi": dpi, "mode": mode, "rotation_deg": round(math.degrees(ang), 3),
                  "blur": round(blur, 3), "noise_sd": round(noise, 2), "paper_tint": round(tint, 3),
                  "contrast": round(contrast, 3)}
        if mode == "bilevel":
            thr = rng.randint(140, 190)
            img, k = _lineart(img, thr, dpi)
            params["threshold"] = thr
            params["dynamic_threshold"] = k
        elif rng.random() < 0.35:
            q = rng.randint(35, 85)
            img = _jpeg_roundtrip(img, q)
            params["jpeg_quality"] = q
        return img, Hm, params, dpi
    # phone photo
    long_side = rng.choice([2016, 2592, 3024, 3264])
    cw, ch = int(long_side * 3 / 4), long_side
    fill_frac = rng.uniform(0.80, 0.95)
    sc = min(cw * fill_frac / W, ch * fill_frac / H)
    pw, ph = W * sc, H * sc
    ang = math.radians(rng.uniform(-10, 10))
    kt = rng.uniform(-0.10, 0.10)   # top/bottom keystone (tilt forward/back)
    ks = rng.uniform(-0.06, 0.06)   # left/right keystone
    corners = [(-pw / 2, -ph / 2), (pw / 2, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)]
    q = []
    for x, y in corners:
        x *= 1 + (kt / 2 if y > 0 else -kt / 2)
        y *= 1 + (ks / 2 if x > 0 else -ks / 2)
        q.append((x, y))
    # shrink if rotation pushes the page out of the canvas
    ca, sa = math.cos(ang), math.sin(ang)
    q = [(x * ca - y * sa, x * sa + y * ca) for x, y in q]
    ext_x = max(abs(x) for x, _ in q) * 2
    ext_y = max(abs(y) for _, y in q) * 2
    shrink = min(1.0, cw * 0.98 / ext_x, ch * 0.98 / ext_y)
    ox = cw / 2 + rng.uniform(-0.5, 0.5) * max(0.0, cw - ext_x * shrink) * 0.8
    oy = ch / 2 + rng.uniform(-0.5, 0.5) * max(0.0, ch - ext_y * shrink) * 0.8
    dst = [(ox + x * shrink, oy + y * shrink) for x, y in q]
    Hm = homography([(0, 0), (W, 0), (W, H), (0, H)], dst)
    grey = rng.random() < 0.2
    src = page.convert("L") if grey else page
    img = _warp(src, Hm, (cw, ch), 0 if grey else (0, 0, 0))
    mask = _warp(Image.new("L", page.size, 255), Hm, (cw, ch), 0)
    bgc = rng.choice([(120, 88, 60), (70, 70, 72), (190, 188, 180), (40, 70, 50), (150, 130, 110)])
    if grey:
        bg = Image.new("L", (cw, ch), int(sum(bgc) / 3))
    else:
        bg = Image.new("RGB", (cw, ch), bgc)
    bg.paste(img, (0, 0), mask)
    img = bg
    # lighting: gradient + vignette + optional soft shadow, at low resolution
    lw_, lh_ = 64, int(64 * ch / cw)
    yy, xx = np.mgrid[0:lh_, 0:lw_].astype(np.float32)
    xx /= lw_
    yy /= lh_
    gx, gy = rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)
    light = 1.0 + gx * (xx - 0.5) + gy * (yy - 0.5)
    vig = rng.uniform(0.1, 0.35)
    light -= vig * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2) * 2
    shadow = rng.random() < 0.5
    if shadow:
        a, b, c0 = rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.3, 0.3)
        sd = a * (xx - 0.5) + b * (yy - 0.5) + c0
        light *= 1 - rng.uniform(0.15, 0.35) * (1 / (1 + np.exp(-sd * 25)))
    light = np.clip(light * rng.uniform(0.8, 1.05), 0.25, 1.2)
    lim = Image.fromarray((light / 1.2 * 255).astype(np.uint8)).resize((cw, ch), Image.BILINEAR)
    gain = rng.uniform(1.0, 1.2)
    if grey:
        img = ImageChops.multiply(img, lim).point(_lut(lambda v: v * gain))
    else:
        cast = [1.0, rng.uniform(0.95, 1.0), rng.uniform(0.82, 0.98)]
        img = ImageChops.multiply(img, Image.merge("RGB", [lim] * 3))
        img = Image.merge("RGB", [b.point(_lut(lambda v, c=c: v * gain * c))
                                  for b, c in zip(img.split(), cast)])
    noise = rng.uniform(2.0, 8.0)
    img = _noise(img, rng_np, noise)
    blur = rng.uniform(0.4, 1.5)
    img = img.filter(ImageFilter.BoxBlur(blur))
    qj = rng.randint(60, 92)
    img = _jpeg_roundtrip(img, qj)
    dpi = int(round(300 * sc * shrink))
    params = {"kind": "photo", "canvas": [cw, ch], "rotation_deg": round(math.degrees(ang), 3),
              "keystone_tb": round(kt, 4), "keystone_lr": round(ks, 4), "page_scale": round(sc * shrink, 4),
              "grey": grey, "background": list(bgc), "gradient": [round(gx, 3), round(gy, 3)],
              "vignette": round(vig, 3), "shadow": shadow, "noise_sd": round(noise, 2),
              "blur": round(blur, 3), "jpeg_quality": qj}
    return img, Hm, params, dpi

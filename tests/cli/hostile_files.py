#!/usr/bin/python3
"""Write a folder of hostile inputs for xqscan's batch tests.

usage: hostile_files.py DIR [GOOD_IMAGE...]

DIR receives >= 40 hostile files (zero bytes, truncated PNG/JPEG/TIFF,
images declaring 50,000 x 50,000 pixels, text named .png, random bytes named
.jpg, symlink loops, non-UTF-8 names, a folder named like an image, names
with "..", ...) plus good images under hostile names: the GOOD_IMAGE files
(rendered scoresheets) once each, the rest small blank PNG/JPEG/TIFF pages
(a name is read the same whatever the page holds; decoding a whole sheet
under each name only made the test slow).

Prints, one per line, "bad<TAB>name" for every input that must be named on
stderr as an error and "good<TAB>name" for inputs that must be processed
(names relative to DIR, as bytes escaped the way xqscan escapes them:
invalid UTF-8, control characters and '%' as %XX), and "skip<TAB>name" for
files that are not inputs. Deterministic (fixed random seed).
"""
import io
import os
import random
import struct
import sys
import zlib

from PIL import Image


def esc(name: bytes) -> str:
    out = []
    i = 0
    while i < len(name):
        # longest valid UTF-8 sequence at i
        for k in (1, 2, 3, 4):
            try:
                ch = name[i:i + k].decode("utf-8")
                break
            except UnicodeDecodeError:
                ch = None
        c = name[i]
        if ch is None or c < 0x20 or c == 0x7F or c in b"%\\":
            out.append("%%%02X" % c)
            i += 1
        else:
            out.append(ch)
            i += len(ch.encode("utf-8"))
    return "".join(out)


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def page(w=420, h=560, seed=0, fmt="PNG", pages=1) -> bytes:
    rnd = random.Random(seed)
    ims = []
    for p in range(pages):
        im = Image.new("L", (w, h), 255)
        px = im.load()
        for _ in range(400):  # a little ink so that it is not uniform
            x, y = rnd.randrange(w), rnd.randrange(h)
            px[x, y] = 0
        ims.append(im)
    buf = io.BytesIO()
    if fmt == "TIFF" and pages > 1:
        ims[0].save(buf, format="TIFF", save_all=True, append_images=ims[1:])
    else:
        ims[0].save(buf, format=fmt)
    return buf.getvalue()


def main():
    top = sys.argv[1].encode()
    goods = [open(p, "rb").read() for p in sys.argv[2:]]
    os.makedirs(top, exist_ok=True)
    rnd = random.Random(20261130)
    listing = []

    def put(kind, rel: bytes, data: bytes):
        path = os.path.join(top, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        listing.append((kind, esc(rel)))

    def good(i):
        return goods[i] if i < len(goods) else page(seed=i)

    png, jpg = page(seed=1), page(seed=2, fmt="JPEG")
    tif, tif3 = page(seed=3, fmt="TIFF"), page(seed=4, fmt="TIFF", pages=3)

    # good inputs
    put("good", b"good/sheet01.png", good(0))
    put("good", b"good/sheet02.png", good(1))
    put("good", b"good/photo.jpg", jpg)
    put("good", b"good/scan.tif", tif)
    put("good", b"good/multipage.tiff", tif3)
    put("good", b"folder.png/inside.png", good(2))       # folder named like an image
    put("good", b"names/caf\xe9.png", good(3))            # Latin-1 name, not UTF-8
    put("good", b"names/bad\xff\xfe.png", good(4))
    put("good", b"names/a..b.png", good(5))
    put("good", b"names/..dots.png", good(6))
    put("good", b"names/new\nline.png", good(7))
    put("good", b"names/100%.png", good(8))
    put("good", b"names/<script>alert(1)</script>.png", good(9))
    put("good", b"names/\xe8\xb1\xa1\xe6\xa3\x8b.png", good(10))  # 象棋
    put("good", b"collide/a.png", good(11))               # a.png beside a.jpg
    put("good", b"collide/a.jpg", jpg)
    put("good", b"noext/scan_without_extension", png)      # image by content
    put("good", b"noext/wrong_extension.txt", png)
    put("good", b"deep/" + b"d/" * 30 + b"leaf.png", good(12))
    put("good", b"long/" + b"x" * 200 + b".png", good(13))

    # zero bytes
    for ext in (b"png", b"jpg", b"jpeg", b"tif", b"tiff"):
        put("bad", b"bad/empty." + ext, b"")
    put("skip", b"bad/empty_no_extension", b"")
    # truncated PNG
    for i, cut in enumerate((8, 20, 33, 60, len(png) // 2, len(png) - 12)):
        put("bad", b"bad/truncated_png_%d.png" % i, png[:cut])
    put("bad", b"bad/png_header_only_no_ext", png[:40])
    # truncated JPEG
    for i, cut in enumerate((3, 20, 200, len(jpg) // 2, len(jpg) - 2)):
        put("bad", b"bad/truncated_jpeg_%d.jpg" % i, jpg[:cut])
    # truncated TIFF
    for i, cut in enumerate((4, 7, len(tif) // 3, len(tif) - 10)):
        put("bad", b"bad/truncated_tiff_%d.tif" % i, tif[:cut])
    put("bad", b"bad/truncated_multipage.tiff", tif3[:len(tif3) * 2 // 3])
    # images declaring 50,000 x 50,000 pixels
    ihdr = struct.pack(">IIBBBBB", 50000, 50000, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\0" * 1000)
    put("bad", b"bad/huge.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) +
        png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b""))
    j = bytearray(jpg)
    k = 2
    while k < len(j):  # patch the frame header (SOF0) to 50000 x 50000
        if j[k] == 0xFF and j[k + 1] in (0xC0, 0xC1, 0xC2):
            struct.pack_into(">HH", j, k + 5, 50000, 50000)
            break
        k += 2 + struct.unpack(">H", bytes(j[k + 2:k + 4]))[0]
    put("bad", b"bad/huge.jpg", bytes(j))
    # a TIFF header, one page of 50000 x 50000, 1 strip (little endian)
    entries = [(256, 4, 1, 50000), (257, 4, 1, 50000), (258, 3, 1, 8),
               (259, 3, 1, 1), (262, 3, 1, 1), (273, 4, 1, 8 + 2 + 12 * 7 + 4),
               (279, 4, 1, 16)]
    ifd = struct.pack("<H", len(entries)) + b"".join(
        struct.pack("<HHII", t, ty, c, v) for t, ty, c, v in entries) + struct.pack("<I", 0)
    put("bad", b"bad/huge.tif", b"II*\0" + struct.pack("<I", 8) + ifd + b"\0" * 16)
    # text and random bytes under image names
    put("bad", b"bad/text.png", b"This is a shopping list, not a scoresheet.\n" * 20)
    put("bad", b"bad/text.jpg", "棋谱：炮二平五 马８进７\n".encode() * 10)
    put("bad", b"bad/text.tif", b"II*\0 but then plain text follows...\n")
    for i in range(4):
        put("bad", b"bad/random_%d.jpg" % i, bytes(rnd.randrange(256) for _ in range(3000 + i)))
    put("bad", b"bad/random_magic.png", b"\x89PNG\r\n\x1a\n" + bytes(rnd.randrange(256) for _ in range(2000)))
    put("bad", b"bad/random_magic.jpg", b"\xff\xd8\xff" + bytes(rnd.randrange(256) for _ in range(2000)))
    put("bad", b"bad/gif_named.png", b"GIF89a" + bytes(100))
    put("bad", b"bad/pdf_named.jpg", b"%PDF-1.4\n" + bytes(100))
    put("bad", b"bad/\xff\xfe_truncated.png", png[:100])  # non-UTF-8 and bad
    # well-formed headers, broken content
    put("bad", b"bad/zero_size.png", b"\x89PNG\r\n\x1a\n" +
        png_chunk(b"IHDR", struct.pack(">IIBBBBB", 0, 0, 8, 0, 0, 0, 0)) +
        png_chunk(b"IDAT", zlib.compress(b"")) + png_chunk(b"IEND", b""))
    put("bad", b"bad/garbage_idat.png", b"\x89PNG\r\n\x1a\n" +
        png_chunk(b"IHDR", struct.pack(">IIBBBBB", 400, 300, 8, 0, 0, 0, 0)) +
        png_chunk(b"IDAT", bytes(rnd.randrange(256) for _ in range(5000))) + png_chunk(b"IEND", b""))
    put("bad", b"bad/wide_120mp.png", b"\x89PNG\r\n\x1a\n" +
        png_chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 6000, 8, 0, 0, 0, 0)) +
        png_chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + png_chunk(b"IEND", b""))
    put("bad", b"bad/tiff_ifd_past_end.tif", b"II*\0" + struct.pack("<I", 0x7FFFFF00) + bytes(64))
    put("bad", b"bad/bmp_named.png", b"BM" + bytes(30))
    put("bad", b"bad/webp_named.jpg", b"RIFF" + struct.pack("<I", 200) + b"WEBPVP8 " + bytes(200))
    # symlink loops and dangling links
    os.makedirs(os.path.join(top, b"links/sub"), exist_ok=True)
    os.symlink(b"loop.png", os.path.join(top, b"links/loop.png"))
    listing.append(("bad", "links/loop.png"))
    os.symlink(b"..", os.path.join(top, b"links/sub/up"))           # folder loop
    os.symlink(b"nowhere.png", os.path.join(top, b"links/dangling.png"))
    listing.append(("bad", "links/dangling.png"))
    # files that are not inputs
    put("skip", b"notes/README.txt", b"round 3 scans\n")
    put("skip", b"notes/.DS_Store", bytes(rnd.randrange(256) for _ in range(500)))
    put("skip", b"notes/data.bin", bytes(rnd.randrange(256) for _ in range(500)))
    os.mkfifo(os.path.join(top, b"notes/pipe.png"))                   # never opened
    listing.append(("skip", "notes/pipe.png"))
    for kind, name in listing:
        print("%s\t%s" % (kind, name))


if __name__ == "__main__":
    main()

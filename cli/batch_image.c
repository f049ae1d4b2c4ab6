/* batch_image.c - sniffing and structural checks of input images (no pixel
 * decoding): catches zero-byte, truncated, mislabelled and absurdly large
 * images before the OCR stage spends memory on them. */
#include "batch.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "utf8.h"
#include "xq_core.h"

#define DEFAULT_MAX_PIXELS 100000000L

static bool has_image_ext(const char *name)
{
    static const char *const exts[] = { ".png", ".jpg", ".jpeg", ".tif", ".tiff" };
    size_t i, n = name ? strlen(name) : 0;
    for (i = 0; i < XQ_ARRAY_LEN(exts); i++) {
        size_t k = strlen(exts[i]);
        if (n > k && !strcasecmp(name + n - k, exts[i]))
            return true;
    }
    return false;
}

static int magic(const uint8_t *h, size_t n)
{
    if (n >= 8 && !memcmp(h, "\x89PNG\r\n\x1a\n", 8))
        return 'P';
    if (n >= 3 && h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF)
        return 'J';
    if (n >= 4 && (!memcmp(h, "II*\0", 4) || !memcmp(h, "MM\0*", 4)))
        return 'T';
    if (n >= 4 && (!memcmp(h, "II+\0", 4) || !memcmp(h, "MM\0+", 4)))
        return 'B'; /* BigTIFF */
    return 0;
}

bool xq_batch_sniff_image(const uint8_t *head, size_t n, const char *name)
{
    return magic(head, n) != 0 || has_image_ext(name);
}

static bool text_utf8(const uint8_t *h, size_t n)
{
    size_t cut;
    /* the head may end inside a character */
    for (cut = 0; cut < 4 && cut < n; cut++)
        if (xq_utf8_valid((const char *)h, n - cut))
            return true;
    return false;
}

static void describe_other(const uint8_t *h, size_t n, char *err, size_t errlen)
{
    size_t i, printable = 0;
    for (i = 0; i < n; i++)
        if (h[i] == '\n' || h[i] == '\r' || h[i] == '\t' || h[i] >= 0x20)
            printable += h[i] != 0x7f;
    if (n >= 4 && !memcmp(h, "GIF8", 4))
        snprintf(err, errlen, "GIF images are not supported (PNG, JPEG or TIFF)");
    else if (n >= 4 && !memcmp(h, "%PDF", 4))
        snprintf(err, errlen, "a PDF, not an image (convert pages to PNG first)");
    else if (n >= 12 && !memcmp(h, "RIFF", 4) && !memcmp(h + 8, "WEBP", 4))
        snprintf(err, errlen, "WebP images are not supported (PNG, JPEG or TIFF)");
    else if (printable == n && text_utf8(h, n))
        snprintf(err, errlen, "not an image: the file holds text");
    else
        snprintf(err, errlen, "not an image: unknown binary content");
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static xq_status check_png(FILE *f, long size, int *pw, int *ph, char *err,
                           size_t errlen)
{
    uint8_t hd[8], ihdr[13];
    long pos = 8;
    bool seen_idat = false, first = true;
    for (;;) {
        uint32_t len;
        if (size - pos < 12 || fseek(f, pos, SEEK_SET) || fread(hd, 1, 8, f) != 8) {
            snprintf(err, errlen, "truncated PNG: the file ends before the image end (IEND)");
            return XQ_EIMAGE;
        }
        len = be32(hd);
        if (len > 0x7fffffffu || (long)len > size - pos - 12) {
            snprintf(err, errlen, "truncated PNG: chunk %.4s runs past the end of the file",
                     isalpha(hd[4]) && isalpha(hd[5]) && isalpha(hd[6]) && isalpha(hd[7])
                         ? (const char *)hd + 4 : "data");
            return XQ_EIMAGE;
        }
        if (first) {
            if (memcmp(hd + 4, "IHDR", 4) || len != 13 || fread(ihdr, 1, 13, f) != 13) {
                snprintf(err, errlen, "corrupt PNG: no image header (IHDR)");
                return XQ_EIMAGE;
            }
            *pw = (int)(be32(ihdr) > 0x7fffffff ? 0x7fffffff : be32(ihdr));
            *ph = (int)(be32(ihdr + 4) > 0x7fffffff ? 0x7fffffff : be32(ihdr + 4));
            first = false;
        } else if (!memcmp(hd + 4, "IDAT", 4)) {
            seen_idat = true;
        } else if (!memcmp(hd + 4, "IEND", 4)) {
            if (!seen_idat) {
                snprintf(err, errlen, "corrupt PNG: no image data (IDAT)");
                return XQ_EIMAGE;
            }
            return XQ_OK;
        }
        pos += 12 + (long)len;
    }
}

static xq_status check_jpeg(FILE *f, int *pw, int *ph, char *err, size_t errlen)
{
    int c, m;
    bool in_scan = false, seen_sof = false;
    if (fseek(f, 2, SEEK_SET))
        return XQ_EIO;
    for (;;) {
        c = getc(f);
        if (c == EOF)
            break;
        if (c != 0xFF) {
            if (in_scan)
                continue;
            snprintf(err, errlen, "corrupt JPEG: garbage between segments");
            return XQ_EIMAGE;
        }
        do
            m = getc(f);
        while (m == 0xFF);
        if (m == EOF)
            break;
        if (m == 0x00 || (m >= 0xD0 && m <= 0xD7))
            continue; /* stuffed byte or restart marker inside a scan */
        if (m == 0xD9) {
            if (!seen_sof) {
                snprintf(err, errlen, "corrupt JPEG: no frame header");
                return XQ_EIMAGE;
            }
            if (!in_scan) {
                snprintf(err, errlen, "corrupt JPEG: no image data");
                return XQ_EIMAGE;
            }
            return XQ_OK;
        }
        in_scan = false;
        {
            uint8_t lb[2];
            long len;
            if (fread(lb, 1, 2, f) != 2)
                break;
            len = (long)lb[0] << 8 | lb[1];
            if (len < 2) {
                snprintf(err, errlen, "corrupt JPEG: bad segment length");
                return XQ_EIMAGE;
            }
            if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
                uint8_t sof[5];
                if (len < 7 || fread(sof, 1, 5, f) != 5)
                    break;
                *ph = sof[1] << 8 | sof[2];
                *pw = sof[3] << 8 | sof[4];
                seen_sof = true;
                len -= 5;
            }
            if (fseek(f, len - 2, SEEK_CUR))
                break;
            if (m == 0xDA)
                in_scan = true;
        }
    }
    snprintf(err, errlen, "truncated JPEG: the file ends before the image end (EOI)");
    return XQ_EIMAGE;
}

typedef struct {
    FILE *f;
    long size;
    bool le;
} tiff;

static int tread(tiff *t, long off, uint8_t *buf, size_t n)
{
    if (off < 0 || off > t->size || (long)n > t->size - off)
        return -1;
    if (fseek(t->f, off, SEEK_SET) || fread(buf, 1, n, t->f) != n)
        return -1;
    return 0;
}

static uint32_t tu16(const tiff *t, const uint8_t *p)
{
    return t->le ? (uint32_t)(p[0] | p[1] << 8) : (uint32_t)(p[0] << 8 | p[1]);
}

static uint32_t tu32(const tiff *t, const uint8_t *p)
{
    return t->le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                       (uint32_t)p[3] << 24
                 : be32(p);
}

/* Value i of an entry of type SHORT (3) or LONG (4). */
static int entry_value(tiff *t, const uint8_t *e, uint32_t i, uint32_t *pv)
{
    uint32_t type = tu16(t, e + 2), count = tu32(t, e + 4);
    uint32_t sz = type == 3 ? 2 : type == 4 ? 4 : 0;
    uint8_t b[4];
    if (!sz || i >= count)
        return -1;
    if ((uint64_t)count * sz <= 4) {
        memcpy(b, e + 8 + i * sz, sz);
    } else if (tread(t, (long)tu32(t, e + 8) + (long)(i * sz), b, sz)) {
        return -1;
    }
    *pv = sz == 2 ? tu16(t, b) : tu32(t, b);
    return 0;
}

static xq_status check_tiff(FILE *f, long size, const uint8_t *head, int *ppages,
                            int *pw, int *ph, long max_pixels, char *err,
                            size_t errlen)
{
    tiff t = { f, size, head[0] == 'I' };
    uint32_t off = tu32(&t, head + 4);
    uint32_t seen[64];
    int pages = 0, k;
    while (off) {
        uint8_t cnt[2], e[12];
        uint32_t n, i, w = 0, h = 0;
        const uint8_t *offs = NULL, *lens = NULL;
        uint8_t offs_e[12], lens_e[12];
        for (k = 0; k < pages && k < 64; k++)
            if (seen[k] == off) {
                snprintf(err, errlen, "corrupt TIFF: the page list loops");
                return XQ_EIMAGE;
            }
        if (pages < 64)
            seen[pages] = off;
        if (pages >= 10000) {
            snprintf(err, errlen, "TIFF with more than 10000 pages");
            return XQ_EIMAGE;
        }
        if (tread(&t, off, cnt, 2)) {
            snprintf(err, errlen, "truncated TIFF: page %d's directory lies past the end of the file", pages + 1);
            return XQ_EIMAGE;
        }
        n = tu16(&t, cnt);
        for (i = 0; i < n; i++) {
            uint32_t tag;
            if (tread(&t, (long)off + 2 + 12 * (long)i, e, 12)) {
                snprintf(err, errlen, "truncated TIFF: page %d's directory is cut short", pages + 1);
                return XQ_EIMAGE;
            }
            tag = tu16(&t, e);
            if (tag == 256) entry_value(&t, e, 0, &w);
            else if (tag == 257) entry_value(&t, e, 0, &h);
            else if (tag == 273 || tag == 324) { memcpy(offs_e, e, 12); offs = offs_e; }
            else if (tag == 279 || tag == 325) { memcpy(lens_e, e, 12); lens = lens_e; }
        }
        if (!w || !h || !offs || !lens) {
            snprintf(err, errlen, "corrupt TIFF: page %d lacks its size or image data", pages + 1);
            return XQ_EIMAGE;
        }
        if (max_pixels > 0 && (double)w * h > (double)max_pixels) {
            snprintf(err, errlen, "image too large: page %d is %u x %u pixels (limit %ld megapixels)",
                     pages + 1, w, h, max_pixels / 1000000);
            return XQ_EIMAGE;
        }
        {
            uint32_t ns = tu32(&t, offs + 4), j, o, l;
            if (ns == 0 || ns != tu32(&t, lens + 4) || ns > 10000000) {
                snprintf(err, errlen, "corrupt TIFF: page %d's strip tables disagree", pages + 1);
                return XQ_EIMAGE;
            }
            for (j = 0; j < ns; j++) {
                if (entry_value(&t, offs, j, &o) || entry_value(&t, lens, j, &l) ||
                    (uint64_t)o + l > (uint64_t)size) {
                    snprintf(err, errlen, "truncated TIFF: page %d's image data runs past the end of the file", pages + 1);
                    return XQ_EIMAGE;
                }
            }
        }
        if (pages == 0) {
            *pw = (int)(w > 0x7fffffff ? 0x7fffffff : w);
            *ph = (int)(h > 0x7fffffff ? 0x7fffffff : h);
        }
        pages++;
        if (tread(&t, (long)off + 2 + 12 * (long)n, e, 4)) {
            snprintf(err, errlen, "truncated TIFF: page %d's directory is cut short", pages);
            return XQ_EIMAGE;
        }
        off = tu32(&t, e);
    }
    if (!pages) {
        snprintf(err, errlen, "corrupt TIFF: no pages");
        return XQ_EIMAGE;
    }
    *ppages = pages;
    return XQ_OK;
}

xq_status xq_batch_image_check(const char *path, long max_pixels, int *ppages,
                               int *pw, int *ph, char *err, size_t errlen)
{
    uint8_t head[512];
    size_t n;
    int kind, pages = 1, w = 0, h = 0;
    xq_status st;
    struct stat sb;
    FILE *f;
    if (ppages) *ppages = 0;
    if (pw) *pw = 0;
    if (ph) *ph = 0;
    if (err && errlen) err[0] = '\0';
    XQ_FAIL_IF(!path || !err || !errlen, XQ_EINVAL, "image_check: NULL argument");
    if (max_pixels <= 0)
        max_pixels = DEFAULT_MAX_PIXELS;
    f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return XQ_EIO;
    }
    if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "not a regular file");
        fclose(f);
        return XQ_EIO;
    }
    n = fread(head, 1, sizeof head, f);
    if (n == 0) {
        bool failed = ferror(f) != 0;
        snprintf(err, errlen, failed ? "cannot read: %s" : "empty file (0 bytes)",
                 strerror(errno));
        fclose(f);
        return failed ? XQ_EIO : XQ_EIMAGE;
    }
    kind = magic(head, n);
    switch (kind) {
    case 'P': st = check_png(f, (long)sb.st_size, &w, &h, err, errlen); break;
    case 'J': st = check_jpeg(f, &w, &h, err, errlen); break;
    case 'T':
        if (n < 8) {
            snprintf(err, errlen, "truncated TIFF: no header");
            st = XQ_EIMAGE;
        } else {
            st = check_tiff(f, (long)sb.st_size, head, &pages, &w, &h, max_pixels,
                            err, errlen);
        }
        break;
    case 'B':
        st = XQ_OK; /* BigTIFF: left to the decoder */
        break;
    default:
        describe_other(head, n, err, errlen);
        st = XQ_EIMAGE;
    }
    fclose(f);
    if (st)
        return st;
    if (kind != 'B' && (w <= 0 || h <= 0)) {
        snprintf(err, errlen, "corrupt image: it declares a size of %d x %d pixels", w, h);
        return XQ_EIMAGE;
    }
    if ((double)w * h > (double)max_pixels) {
        snprintf(err, errlen, "image too large: %d x %d pixels (limit %ld megapixels)",
                 w, h, max_pixels / 1000000);
        return XQ_EIMAGE;
    }
    if (ppages) *ppages = pages;
    if (pw) *pw = w;
    if (ph) *ph = h;
    return XQ_OK;
}

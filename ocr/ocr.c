/* ocr.c - the xq_ocr engine: create/destroy, reading image files into
 * sheets, and the sheet accessors of xq_ocr.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <png.h>
#include <tiffio.h>

#include "ocr_internal.h"

#define OCR_DEFAULT_MAX_PIXELS 100000000L

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Leptonica reports through its own stderr handler; the library prints
 * nothing, so messages are dropped (errors come back as return values). */
static void lept_quiet(const char *msg) { (void)msg; }

/* PNG through libpng's simplified API, which reports problems in a
 * message instead of printing them (Leptonica's reader lets libpng print).
 * Returns NULL on any error. */
static PIX *read_png_quiet(const char *path, bool *poom)
{
    png_image im;
    png_color white = { 255, 255, 255 };
    png_bytep buf;
    PIX *pix;
    bool colour;
    int x, y, wpl;
    l_uint32 *data;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path))
        return NULL;
    colour = (im.format & PNG_FORMAT_FLAG_COLOR) != 0;
    im.format = colour ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    buf = xq_malloc(PNG_IMAGE_SIZE(im));
    if (!buf) {
        png_image_free(&im);
        *poom = true;
        return NULL;
    }
    if (!png_image_finish_read(&im, &white, buf, 0, NULL)) {
        png_image_free(&im);
        xq_free(buf);
        return NULL;
    }
    pix = pixCreate((l_int32)im.width, (l_int32)im.height, colour ? 32 : 8);
    if (pix) {
        data = pixGetData(pix);
        wpl = pixGetWpl(pix);
        for (y = 0; y < (int)im.height; y++) {
            l_uint32 *line = data + (size_t)y * wpl;
            const png_byte *src = buf + (size_t)y * PNG_IMAGE_ROW_STRIDE(im);
            for (x = 0; x < (int)im.width; x++) {
                if (colour)
                    composeRGBPixel(src[3 * x], src[3 * x + 1], src[3 * x + 2],
                                    line + x);
                else
                    SET_DATA_BYTE(line, x, src[x]);
            }
        }
    }
    png_image_free(&im);
    xq_free(buf);
    return pix;
}

xq_status xq_ocr_create(xq_ocr **pocr, const xq_ocr_options *opts)
{
    xq_ocr *ocr;
    xq_status st;
    if (pocr)
        *pocr = NULL;
    if (!pocr)
        return XQ_EINVAL;
    leptSetStderrHandler(lept_quiet);
    TIFFSetWarningHandler(NULL);
    TIFFSetErrorHandler(NULL);
    ocr = xq_calloc(1, sizeof *ocr);
    if (!ocr)
        return XQ_ENOMEM;
    if (opts)
        ocr->opts = *opts;
    if ((opts && opts->tessdata && !(ocr->tessdata = xq_strdup(opts->tessdata)))
        || (opts && opts->languages
            && !(ocr->languages = xq_strdup(opts->languages)))
        || (opts && opts->debug_png
            && !(ocr->debug_png = xq_strdup(opts->debug_png)))) {
        xq_ocr_destroy(&ocr);
        return XQ_ENOMEM;
    }
    ocr->opts.tessdata = ocr->tessdata;
    ocr->opts.languages = ocr->languages;
    ocr->opts.debug_png = ocr->debug_png;
    /* Each glyph Tesseract read differently from a candidate costs this
     * much log-score: measured on rendered sheets, rank-1 of the true
     * string rose from 91.5% to 94.5% (handwriting) and 99.3% to 99.8%
     * (printed/kai) between 0 and 2.5; flat from 2.5 to 7. */
    ocr->tess_weight = ocr->opts.no_tesseract ? 0.0 : 3.0;
    if (ocr->opts.max_pixels <= 0)
        ocr->opts.max_pixels = OCR_DEFAULT_MAX_PIXELS;
    st = ocr_glyph_model_load(&ocr->model);
    if (st == XQ_OK && !ocr->opts.no_tesseract)
        st = ocr_tess_init(&ocr->tess, ocr->tessdata,
                           ocr->languages ? ocr->languages : "chi_sim+chi_tra");
    if (st != XQ_OK) {
        xq_ocr_destroy(&ocr);
        return st;
    }
    *pocr = ocr;
    return XQ_OK;
}

void xq_ocr_destroy(xq_ocr **pocr)
{
    xq_ocr *ocr;
    if (!pocr || !*pocr)
        return;
    ocr = *pocr;
    ocr_tess_end(&ocr->tess);
    ocr_glyph_model_free(&ocr->model);
    xq_free(ocr->tessdata);
    xq_free(ocr->languages);
    xq_free(ocr->debug_png);
    xq_free(ocr);
    *pocr = NULL;
}

int xq_ocr_tess_init_count(const xq_ocr *ocr)
{
    return ocr ? ocr->tess.inits : 0;
}

/* ---- sheets ---- */

void xq_sheet_destroy(xq_sheet **psheet)
{
    xq_sheet *sh;
    size_t i;
    if (!psheet || !*psheet)
        return;
    sh = *psheet;
    for (i = 0; i < sh->ncells; i++) {
        ocr_cell_free(&sh->cells[i]);
    }
    xq_free(sh->cells);
    for (i = 0; i < XQ_HDR_COUNT; i++)
        xq_free(sh->hdr[i]);
    pixDestroy(&sh->pixg);
    pixDestroy(&sh->pixb);
    pixDestroy(&sh->pixlines);
    xq_free(sh);
    *psheet = NULL;
}

void xq_ocr_sheets_free(xq_sheet ***psheets, size_t n)
{
    size_t i;
    if (!psheets || !*psheets)
        return;
    for (i = 0; i < n; i++)
        xq_sheet_destroy(&(*psheets)[i]);
    xq_free(*psheets);
    *psheets = NULL;
}

static char *debug_name(const char *base, int page)
{
    size_t n = strlen(base);
    char *s = xq_malloc(n + 24);
    const char *dot;
    if (!s)
        return NULL;
    if (page == 0) {
        memcpy(s, base, n + 1);
        return s;
    }
    dot = strrchr(base, '.');
    if (!dot || strchr(dot, '/'))
        dot = base + n;
    snprintf(s, n + 24, "%.*s-p%d%s", (int)(dot - base), base, page + 1, dot);
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The page pix turned quads quarter turns clockwise, normalised, its
 * table and cells found (no header yet) into *psh (NULL on error). */
static xq_status read_turned(xq_ocr *ocr, PIX *pix, int page, int quads,
                             xq_sheet **psh)
{
    xq_sheet *sh;
    xq_status st;
    PIX *t = quads ? pixRotateOrth(pix, quads) : pixClone(pix);
    *psh = NULL;
    if (!t)
        return XQ_ENOMEM;
    sh = xq_calloc(1, sizeof *sh);
    if (!sh) {
        pixDestroy(&t);
        return XQ_ENOMEM;
    }
    sh->page = page;
    sh->table_top = -1;
    st = ocr_page_normalise(ocr, t, sh);
    pixDestroy(&t);
    sh->orient = quads;
    sh->w = pixGetWidth(pix);
    sh->h = pixGetHeight(pix);
    if (st == XQ_OK)
        st = ocr_grid_find(ocr, sh);
    if (st == XQ_OK)
        st = ocr_cells_extract(sh);
    if (st == XQ_OK)
        st = ocr_cells_drop_label_rows(ocr, sh);
    if (st != XQ_OK) {
        xq_sheet_destroy(&sh);
        return st;
    }
    *psh = sh;
    return XQ_OK;
}

/* Orientation. A sheet scanned upside down or photographed sideways has a
 * table all the same (a turned table is a table, and a half-turned one
 * has its cells in reverse order), but its records match the move
 * alphabet's glyphs badly (glyph fit: about 0.77 upside down where the
 * right way up gives 0.93-0.99 on printed, kai and handwriting-like
 * sheets) or split into no glyphs at all (sideways). The page is read as
 * it comes; where its records fit worse than OCR_ORIENT_SURE it is read
 * half turned too, and where they do not fit at all (or no table is
 * found) also turned a quarter either way; the turn whose
 * records fit best, by OCR_ORIENT_GAIN, is kept, if they fit at all
 * (OCR_ORIENT_FLOOR). */
#define OCR_ORIENT_SURE  0.9
#define OCR_ORIENT_GAIN  0.03
#define OCR_ORIENT_FLOOR 0.72 /* ... and fit at least this: records the
                                 right way up do (0.75 and more); ink that
                                 is no writing either way (a page whose
                                 blank cells were taken for written) does
                                 not */
#define OCR_ORIENT_RULES 2    /* a page with no table and fewer ruling
                                 lines than this across or down is not
                                 turned: a table needs several both ways,
                                 and turned it has the same few (a blank
                                 page, a duplex scan's blank back, a photo
                                 of one whose shading gives lines one way
                                 only: read four ways, 2.8 s each) */
#define OCR_ORIENT_CELLS 48   /* written cells sampled, evenly */
#define OCR_ORIENT_MIN   8    /* fewer written cells tell nothing: -1 */

/* The median glyph fit of (a sample of) the sheet's written cells into
 * *pfit, a cell whose ink splits into no glyphs counting -1; -2 for too
 * few written cells (no evidence). */
static xq_status orient_fit(xq_ocr *ocr, xq_sheet *sh, double *pfit)
{
    double f[OCR_ORIENT_CELLS];
    size_t i, j = 0, nw = 0, step;
    int k = 0;
    *pfit = -2;
    for (i = 0; i < sh->ncells; i++)
        nw += !sh->cells[i].blank;
    if (nw < OCR_ORIENT_MIN)
        return XQ_OK;
    step = (nw + OCR_ORIENT_CELLS - 1) / OCR_ORIENT_CELLS;
    for (i = 0; i < sh->ncells && k < OCR_ORIENT_CELLS; i++) {
        ocr_cell *c = &sh->cells[i];
        xq_status st;
        if (c->blank || j++ % step != 0)
            continue;
        st = ocr_cell_lattice(ocr, c);
        if (st == XQ_ENOMEM)
            return st;
        f[k++] = st == XQ_OK ? c->lat.fit : -1;
    }
    qsort(f, (size_t)k, sizeof *f, cmp_double);
    *pfit = f[k / 2];
    return XQ_OK;
}

/* Read the page pix the right way up into *psh (see Orientation). */
static xq_status read_upright(xq_ocr *ocr, PIX *pix, int page,
                              xq_sheet **psh)
{
    static const int turns[3] = { 2, 1, 3 };
    xq_sheet *best = NULL;
    double fb, f0;
    int i;
    xq_status st;
    XQ_TRY(read_turned(ocr, pix, page, 0, &best));
    st = orient_fit(ocr, best, &f0);
    fb = f0;
    /* xqscan's own form with (nearly) nothing written in it tells no
     * turn: it stays as it is (half turned it is found as the form too,
     * its guides then read as writing). Any other table that shows
     * (nearly) no writing may be a sideways page's table read across
     * (a scan of small kai writing turned a quarter: 2 of 128 cells
     * written): it is tried turned */
    if (f0 == -2 && best->ncells > 0 && best->form)
        f0 = 1;
    if (best->ncells == 0 && (best->nrules[0] < OCR_ORIENT_RULES ||
                              best->nrules[1] < OCR_ORIENT_RULES))
        f0 = 1;
    for (i = 0; st == XQ_OK && i < 3 && f0 < OCR_ORIENT_SURE; i++) {
        xq_sheet *sh = NULL;
        double f;
        if (turns[i] != 2 && f0 >= 0)
            break;                 /* its records are glyphs: not sideways */
        st = read_turned(ocr, pix, page, turns[i], &sh);
        if (st != XQ_OK && st != XQ_ENOMEM) {
            st = XQ_OK;
            continue;              /* turned, the page has no table */
        }
        if (st == XQ_OK)
            st = orient_fit(ocr, sh, &f);
        if (st != XQ_OK) {
            xq_sheet_destroy(&sh);
            break;
        }
        if (f > fb + OCR_ORIENT_GAIN && f >= OCR_ORIENT_FLOOR) {
            xq_sheet_destroy(&best);
            best = sh;
            fb = f;
        } else {
            xq_sheet_destroy(&sh);
        }
    }
    if (st != XQ_OK) {
        xq_sheet_destroy(&best);
        return st;
    }
    *psh = best;
    return XQ_OK;
}

xq_status xq_ocr_read_pix(xq_ocr *ocr, PIX *pix, int page,
                          xq_sheet **psheet, char *err, size_t errlen)
{
    xq_sheet *sh = NULL;
    xq_status st;
    if (psheet)
        *psheet = NULL;
    if (err && errlen)
        err[0] = '\0';
    if (!ocr || !pix || !psheet)
        return XQ_EINVAL;
    if ((double)pixGetWidth(pix) * pixGetHeight(pix)
        > (double)ocr->opts.max_pixels) {
        set_err(err, errlen, "image too large (%d x %d pixels, limit %ld)",
                pixGetWidth(pix), pixGetHeight(pix), ocr->opts.max_pixels);
        return XQ_EIMAGE;
    }
    st = read_upright(ocr, pix, page, &sh);
    if (st == XQ_OK && !ocr->opts.no_tesseract)
        st = ocr_header_read(ocr, sh);
    if (st == XQ_OK && ocr->debug_png) {
        char *name = debug_name(ocr->debug_png, page);
        st = name ? ocr_debug_write(sh, name) : XQ_ENOMEM;
        if (st != XQ_OK)
            set_err(err, errlen, "cannot write debug image %s",
                    name ? name : ocr->debug_png);
        xq_free(name);
    }
    if (st != XQ_OK) {
        if (err && errlen && !err[0])
            set_err(err, errlen, "%s", xq_status_str(st));
        xq_sheet_destroy(&sh);
        return st;
    }
    *psheet = sh;
    return XQ_OK;
}

static const char *format_name(int fmt)
{
    switch (fmt) {
    case IFF_PNG: return "PNG";
    case IFF_JFIF_JPEG: return "JPEG";
    case IFF_TIFF: case IFF_TIFF_PACKBITS: case IFF_TIFF_RLE:
    case IFF_TIFF_G3: case IFF_TIFF_G4: case IFF_TIFF_LZW:
    case IFF_TIFF_ZIP: case IFF_TIFF_JPEG: return "TIFF";
    default: return "image";
    }
}

static bool is_tiff(int fmt)
{
    return fmt == IFF_TIFF || fmt == IFF_TIFF_PACKBITS || fmt == IFF_TIFF_RLE
        || fmt == IFF_TIFF_G3 || fmt == IFF_TIFF_G4 || fmt == IFF_TIFF_LZW
        || fmt == IFF_TIFF_ZIP || fmt == IFF_TIFF_JPEG;
}

xq_status xq_ocr_read_file(xq_ocr *ocr, const char *path,
                           xq_sheet ***psheets, size_t *pn,
                           char *err, size_t errlen)
{
    struct stat stt;
    l_int32 fmt = IFF_UNKNOWN, w = 0, h = 0, bps = 0, spp = 0, cmap = 0;
    l_int32 npages = 1, i;
    xq_sheet **sheets = NULL;
    xq_status st = XQ_OK;

    if (psheets)
        *psheets = NULL;
    if (pn)
        *pn = 0;
    if (err && errlen)
        err[0] = '\0';
    if (!ocr || !path || !psheets || !pn)
        return XQ_EINVAL;
    if (stat(path, &stt) != 0) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return XQ_EIO;
    }
    if (!S_ISREG(stt.st_mode)) {
        set_err(err, errlen, "%s is not a regular file", path);
        return XQ_EIO;
    }
    if (stt.st_size == 0) {
        set_err(err, errlen, "%s is empty (zero bytes)", path);
        return XQ_EIMAGE;
    }
    if (findFileFormat(path, &fmt) != 0 || fmt == IFF_UNKNOWN
        || !(fmt == IFF_PNG || fmt == IFF_JFIF_JPEG || is_tiff(fmt)
             || fmt == IFF_BMP || fmt == IFF_PNM || fmt == IFF_WEBP
             || fmt == IFF_GIF || fmt == IFF_JP2)) {
        set_err(err, errlen, "%s is not a supported image (PNG, JPEG, TIFF)",
                path);
        return XQ_EIMAGE;
    }
    if (is_tiff(fmt)) {
        FILE *fp = fopen(path, "rb");
        if (!fp) {
            set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
            return XQ_EIO;
        }
        if (tiffGetCount(fp, &npages) != 0 || npages < 1) {
            fclose(fp);
            set_err(err, errlen, "%s: corrupt TIFF (no readable page)", path);
            return XQ_EIMAGE;
        }
        fclose(fp);
    }
    /* Sizes from the headers, before decoding anything. */
    for (i = 0; i < npages; i++) {
        l_int32 ok = is_tiff(fmt)
            ? readHeaderTiff(path, i, &w, &h, &bps, &spp, NULL, &cmap, NULL)
            : pixReadHeader(path, NULL, &w, &h, &bps, &spp, &cmap);
        if (ok != 0 || w <= 0 || h <= 0) {
            set_err(err, errlen, "%s: corrupt %s header", path,
                    format_name(fmt));
            return XQ_EIMAGE;
        }
        if ((double)w * h > (double)ocr->opts.max_pixels) {
            set_err(err, errlen,
                    "%s: image too large (%d x %d = %.0f megapixels, limit %.0f)",
                    path, w, h, (double)w * h / 1e6,
                    (double)ocr->opts.max_pixels / 1e6);
            return XQ_EIMAGE;
        }
    }
    sheets = xq_calloc((size_t)npages, sizeof *sheets);
    if (!sheets)
        return XQ_ENOMEM;
    for (i = 0; i < npages && st == XQ_OK; i++) {
        bool oom = false;
        PIX *pix = is_tiff(fmt) ? pixReadTiff(path, i)
                   : fmt == IFF_PNG ? read_png_quiet(path, &oom) : pixRead(path);
        if (!pix && oom) {
            set_err(err, errlen, "%s: out of memory", path);
            st = XQ_ENOMEM;
            break;
        }
        if (!pix) {
            set_err(err, errlen, "%s: corrupt or truncated %s data%s", path,
                    format_name(fmt), npages > 1 ? " (a page)" : "");
            st = XQ_EIMAGE;
            break;
        }
        st = xq_ocr_read_pix(ocr, pix, i, &sheets[i], err, errlen);
        pixDestroy(&pix);
    }
    if (st != XQ_OK) {
        xq_ocr_sheets_free(&sheets, (size_t)npages);
        return st;
    }
    *psheets = sheets;
    *pn = (size_t)npages;
    return XQ_OK;
}

/* ---- accessors ---- */

const char *xq_sheet_header(const xq_sheet *sheet, xq_header_field f)
{
    if (!sheet || (int)f < 0 || f >= XQ_HDR_COUNT)
        return NULL;
    return sheet->hdr[f];
}

int xq_sheet_page(const xq_sheet *sheet) { return sheet ? sheet->page : 0; }
size_t xq_sheet_nrows(const xq_sheet *sheet) { return sheet ? sheet->nrows : 0; }
size_t xq_sheet_nblocks(const xq_sheet *sheet) { return sheet ? sheet->nblocks : 0; }
size_t xq_sheet_ncells(const xq_sheet *sheet) { return sheet ? sheet->ncells : 0; }

void xq_sheet_size(const xq_sheet *sheet, int *pw, int *ph)
{
    if (pw)
        *pw = 0;
    if (ph)
        *ph = 0;
    if (!sheet)
        return;
    if (pw)
        *pw = sheet->w;
    if (ph)
        *ph = sheet->h;
}

bool xq_sheet_cell_blank(const xq_sheet *sheet, size_t cell)
{
    return sheet && cell < sheet->ncells ? sheet->cells[cell].blank : true;
}

bool xq_sheet_cell_struck(const xq_sheet *sheet, size_t cell)
{
    return sheet && cell < sheet->ncells ? sheet->cells[cell].struck : false;
}

const char *xq_sheet_cell_text(xq_ocr *ocr, xq_sheet *sheet, size_t cell)
{
    ocr_cell *c;
    if (!sheet || cell >= sheet->ncells)
        return "";
    c = &sheet->cells[cell];
    if (!c->text && ocr && !c->blank && !ocr->opts.no_tesseract)
        (void)ocr_cell_text(ocr, c);
    return c->text ? c->text : "";
}

const char *xq_sheet_cell_read(xq_ocr *ocr, xq_sheet *sheet, size_t cell)
{
    ocr_cell *c;
    if (!ocr || !sheet || cell >= sheet->ncells)
        return "";
    c = &sheet->cells[cell];
    if (!c->read)
        (void)ocr_cell_read(ocr, c);
    return c->read ? c->read : "";
}

double xq_sheet_cell_glyph_fit(xq_ocr *ocr, xq_sheet *sheet, size_t cell)
{
    ocr_cell *c;
    if (!ocr || !sheet || cell >= sheet->ncells)
        return -1;
    c = &sheet->cells[cell];
    if (c->blank || ocr_cell_lattice(ocr, c) != XQ_OK)
        return -1;
    return c->lat.fit;
}

/* Below the sheet's median fit by this much, a cell's ink is no writing. */
#define OCR_FIT_DROP 0.2
/* Ink taller than this times the sheet's median ink height is two lines of
 * writing (a record rewritten above or below a struck one), not a scribble,
 * which keeps to the line. (Measured on the three bench sets: scribbles
 * reach at most 1.21 times, a little above and below their record, where
 * 1.2 had let two of them count as two lines; struck records rewritten
 * beside them that the strike finder missed stand 1.28 times and more.) */
#define OCR_FIT_TALL 1.25
/* Writing whose median height is under this many pixels (of the normalised
 * page) is too small for its shapes to tell a tangle from glyphs: a phone
 * photo of a whole sheet at 1.5 megapixels split legible records into no
 * three to six glyphs. */
#define OCR_FIT_MIN_H 15

/* Ink joined in one piece across more than OCR_JOIN_W ink heights (two
 * glyphs side by side), as dense as OCR_JOIN_FILL, is cursive, glyphs
 * merged in writing too small for the scan, or a tangle scribbled over
 * the record. Where under OCR_JOIN_SHARE of a sheet's written cells are
 * joined and fit glyphs well (the writer's records stand apart), a joined
 * cell that fits OCR_JOIN_DROP below the median is such a tangle.
 * (Measured on rendered sheets: the end-to-end bench, two held-out seeds,
 * a fresh set with 6% scribbles, samples/: about 50 scribbled records
 * that the fit drop alone missed, and none of some 9,000 legible ones.
 * Without the sheet's share, samples/hand-ruled.jpg lost two legible
 * records (small writing, a sixth of its records joined); without the
 * density bar, three legible cursive records of the bench.) */
#define OCR_JOIN_W 2.0
#define OCR_JOIN_FILL 0.3
#define OCR_JOIN_DROP 0.12
#define OCR_JOIN_SHARE 0.1
/* A joined cell of any density whose fit falls OCR_JOIN_Z times the
 * sheet's own spread of fits (median absolute deviation) below the median,
 * and at least OCR_JOIN_ZDROP, is a tangle too: a zigzag scribbled over
 * print is thin (a fill of 0.25) and fits 0.15-0.2 below records that fit
 * within 0.004 of each other. (Measured on the three bench sets and 40
 * held-out photos, 8,556 cells: legible joined records fall at most 5.7
 * spreads below the median, these scribbles 39 and 49; the 61 scribbles
 * found already stay found.) */
#define OCR_JOIN_Z 12.0
#define OCR_JOIN_ZDROP 0.08
/* A cell that fits glyphs OCR_FILL_DROP below the sheet's median and
 * whose ink fills its box OCR_FILL_RATIO times as densely as the sheet's
 * median cell is a record scribbled over: the strokes over it add ink
 * where its glyphs fit worse, though they need not join it in one piece.
 * (Measured on the three bench sets, 8,108 written cells: records that
 * fit 0.1 below the median fill their box at most 1.23 times the median,
 * records filling 1.5 times fit within 0.02 of it; 9 of the 12 scribbles
 * the rules above missed fall at 1.40 to 2.14, 0.10 to 0.19 below.) */
#define OCR_FILL_DROP 0.1
#define OCR_FILL_RATIO 1.35

/* Is cell c's ink joined in one piece across more than OCR_JOIN_W ink
 * heights (any density)? */
static bool ink_wide(const ocr_cell *c)
{
    /* a struck record's wide stroke is the strike (cells.c reads it) */
    return !c->blank && c->lat.done && !c->struck && c->lat.join_w > OCR_JOIN_W;
}

static bool ink_joined(const ocr_cell *c)
{
    return ink_wide(c) && c->lat.join_fill >= OCR_JOIN_FILL;
}

/* Is cell c's ink a tangle on sheet sh (its fit statistics computed)? */
static bool fit_tangled(const xq_sheet *sh, const ocr_cell *c)
{
    double drop = sh->fit_med - c->lat.fit;
    if (c->blank || !c->lat.done || c->lat.ink_h > OCR_FIT_TALL * sh->fit_hmed)
        return false;
    /* ink in no piece wider than a glyph (OCR_GLYPH_W) stands in
     * glyph-sized pieces: writing, however badly its split into glyphs
     * fits (tiny kai print on a scan, 16 pixels high, split into no three
     * to six glyphs); a tangle of strokes joins the glyphs it crosses */
    if (c->lat.fit < 0)
        return c->lat.join_w > OCR_GLYPH_W;
    if (drop >= OCR_FIT_DROP)
        return true;
    if (!c->struck && drop >= OCR_FILL_DROP && sh->fill_med > 0 &&
        c->lat.ink_fill >= OCR_FILL_RATIO * sh->fill_med)
        return true;
    if (!sh->join_use || !ink_wide(c))
        return false;
    return (drop >= OCR_JOIN_ZDROP && drop >= OCR_JOIN_Z * sh->fit_mad) ||
           (ink_joined(c) && drop >= OCR_JOIN_DROP);
}

static void sheet_fit_stats(xq_ocr *ocr, xq_sheet *sh)
{
    double *f, *h, *fl;
    size_t i, n = 0, nok = 0, ntangled = 0, njoined = 0;
    size_t cap = sh->ncells ? sh->ncells : 1;
    if (sh->fit_done)
        return;
    sh->fit_done = true;
    sh->fit_use = false;
    /* fits, then ink heights, then ink fills */
    f = xq_malloc(3 * cap * sizeof *f);
    if (!f)
        return;
    h = f + cap;
    fl = h + cap;
    for (i = 0; i < sh->ncells; i++)
        if (!sh->cells[i].blank) {
            f[n] = xq_sheet_cell_glyph_fit(ocr, sh, i);
            h[n] = sh->cells[i].lat.ink_h;
            fl[n] = sh->cells[i].lat.ink_fill;
            nok += f[n] >= 0;
            n++;
        }
    if (nok > 0) {
        qsort(f, n, sizeof *f, cmp_double);
        qsort(h, n, sizeof *h, cmp_double);
        qsort(fl, n, sizeof *fl, cmp_double);
        sh->fit_med = f[n - nok + nok / 2];     /* median of the fits >= 0 */
        sh->fit_hmed = h[n / 2];
        sh->fill_med = fl[n / 2];
        /* their median absolute deviation (the deviations overwrite the
         * sorted fits) */
        for (i = n - nok; i < n; i++)
            f[i] = fabs(f[i] - sh->fit_med);
        qsort(f + (n - nok), nok, sizeof *f, cmp_double);
        sh->fit_mad = f[n - nok + nok / 2];
        for (i = 0; i < sh->ncells; i++)
            njoined += ink_joined(&sh->cells[i]) && sh->cells[i].lat.fit >= 0
                       && sh->fit_med - sh->cells[i].lat.fit < OCR_JOIN_DROP;
        sh->join_use = njoined < OCR_JOIN_SHARE * n;
        for (i = 0; i < sh->ncells; i++)
            ntangled += fit_tangled(sh, &sh->cells[i]);
        sh->fit_use = 4 * ntangled < n && sh->fit_hmed >= OCR_FIT_MIN_H;
    }
    xq_free(f);
}

bool xq_sheet_cell_illegible(xq_ocr *ocr, xq_sheet *sheet, size_t cell)
{
    if (!ocr || !sheet || cell >= sheet->ncells || sheet->cells[cell].blank)
        return false;
    sheet_fit_stats(ocr, sheet);
    return sheet->fit_use && fit_tangled(sheet, &sheet->cells[cell]);
}

xq_status xq_sheet_cell_box(const xq_sheet *sheet, size_t cell, int pbox[4])
{
    if (pbox)
        pbox[0] = pbox[1] = pbox[2] = pbox[3] = 0;
    if (!sheet || !pbox)
        return XQ_EINVAL;
    if (cell >= sheet->ncells)
        return XQ_ERANGE;
    memcpy(pbox, sheet->cells[cell].box, 4 * sizeof(int));
    return XQ_OK;
}

xq_status xq_sheet_cell_crop(const xq_sheet *sheet, size_t cell,
                             xq_crop *pcrop)
{
    const ocr_img *g;
    if (pcrop) {
        pcrop->w = pcrop->h = 0;
        pcrop->px = NULL;
    }
    if (!sheet || !pcrop)
        return XQ_EINVAL;
    if (cell >= sheet->ncells)
        return XQ_ERANGE;
    g = &sheet->cells[cell].grey;
    if (!g->px || g->w <= 0 || g->h <= 0)
        return XQ_ENOTFOUND;
    pcrop->px = xq_malloc((size_t)g->w * g->h);
    if (!pcrop->px)
        return XQ_ENOMEM;
    memcpy(pcrop->px, g->px, (size_t)g->w * g->h);
    pcrop->w = g->w;
    pcrop->h = g->h;
    return XQ_OK;
}

double xq_sheet_cell_score(xq_ocr *ocr, xq_sheet *sheet, size_t cell,
                           const char *utf8)
{
    if (!ocr || !sheet || cell >= sheet->ncells || !utf8)
        return -1e9;
    return ocr_cell_score(ocr, &sheet->cells[cell], utf8);
}

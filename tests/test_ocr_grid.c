/* Tests of ocr/grid.c and the fiducial path of ocr/form.c on photo-like
 * pages: a ruled table (no fiducials) and xqscan's own form, each drawn,
 * written in, and warped by a known rotation + keystone onto a dark
 * background with uneven light. The cells must be found where the known
 * map puts them (boxes in the photo's own pixel coordinates), in move
 * order, and blank cells told from written ones. Before perspective
 * rectification these pages lost most of their columns. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <leptonica/allheaders.h>

#include "test_shard.h"
#include "../ocr/ocr_internal.h"

static xq_ocr *g_ocr;

static int setup(void **state)
{
    xq_ocr_options o;
    (void)state;
    memset(&o, 0, sizeof o);
    o.no_tesseract = true;          /* geometry only */
    return xq_ocr_create(&g_ocr, &o) == XQ_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    xq_ocr_destroy(&g_ocr);
    return 0;
}

/* A photo of page (8 bpp): the page's corners go to quad (x, y pairs:
 * tl, tr, br, bl) of a canvas of the same size, background grey 70, light
 * falling from 100% at the left to 70% at the right. fwd receives the
 * page -> photo map (Leptonica's 8 coefficients). */
static PIX *photograph(PIX *page, const double quad[8], l_float32 **fwd)
{
    int w = pixGetWidth(page), h = pixGetHeight(page), x, y, i;
    PTA *src = ptaCreate(4), *dst = ptaCreate(4);
    l_float32 *back = NULL;
    PIX *out;
    l_uint32 *data;
    int wpl;
    const double pc[8] = { 0, 0, w, 0, w, h, 0, h };
    for (i = 0; i < 4; i++) {
        ptaAddPt(src, (l_float32)pc[2 * i], (l_float32)pc[2 * i + 1]);
        ptaAddPt(dst, (l_float32)quad[2 * i], (l_float32)quad[2 * i + 1]);
    }
    assert_int_equal(getProjectiveXformCoeffs(dst, src, &back), 0);
    assert_int_equal(getProjectiveXformCoeffs(src, dst, fwd), 0);
    out = pixProjectiveGray(page, back, 70);
    assert_non_null(out);
    data = pixGetData(out);
    wpl = pixGetWpl(out);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            l_uint32 *line = data + (size_t)y * wpl;
            int v = GET_DATA_BYTE(line, x);
            SET_DATA_BYTE(line, x, (int)(v * (1.0 - 0.3 * x / w)));
        }
    ptaDestroy(&src);
    ptaDestroy(&dst);
    LEPT_FREE(back);
    return out;
}

/* Axis-aligned box of a page rectangle's corners in the photo. */
static void photo_box(l_float32 *fwd, double x0, double y0, double x1,
                      double y1, int box[4])
{
    double xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    double a = 1e9, b = 1e9, c = -1e9, d = -1e9;
    int i;
    for (i = 0; i < 4; i++) {
        l_float32 px, py;
        projectiveXformPt(fwd, (l_int32)xs[i], (l_int32)ys[i], &px, &py);
        a = fmin(a, px); b = fmin(b, py); c = fmax(c, px); d = fmax(d, py);
    }
    box[0] = (int)a;
    box[1] = (int)b;
    box[2] = (int)(c - a);
    box[3] = (int)(d - b);
}

static double iou(const int *a, const int *b)
{
    double x0 = fmax(a[0], b[0]), y0 = fmax(a[1], b[1]);
    double x1 = fmin(a[0] + a[2], b[0] + b[2]);
    double y1 = fmin(a[1] + a[3], b[1] + b[3]);
    double in = (x1 > x0 && y1 > y0) ? (x1 - x0) * (y1 - y0) : 0;
    double un = (double)a[2] * a[3] + (double)b[2] * b[3] - in;
    return un > 0 ? in / un : 0;
}

/* "Writing": a few dark strokes across the middle of a cell. */
static void scribble_w(PIX *p, int x, int y, int w, int h, int sw)
{
    int k, op = pixGetDepth(p) == 1 ? L_SET_PIXELS : L_CLEAR_PIXELS;
    for (k = 0; k < 4; k++) {
        int gx = x + w / 8 + k * w / 5, gw = w / 7;
        pixRenderLine(p, gx, y + h / 4, gx + gw, y + h / 4, sw, op);
        pixRenderLine(p, gx + gw / 2, y + h / 5, gx + gw / 2, y + 4 * h / 5,
                      sw, op);
        pixRenderLine(p, gx, y + 3 * h / 4, gx + gw, y + 2 * h / 3, sw, op);
    }
}

static void scribble(PIX *p, int x, int y, int w, int h)
{
    scribble_w(p, x, y, w, h, 4);
}

static const double keystone[8] = { 330, 420, 2150, 270, 2290, 3240, 170, 3100 };

/* A federation-like table, 2 blocks of (number, Red, Black) x 30 rows,
 * thick outer rules and hairlines inside, a title above. The column-label
 * row is LROW high (shorter than a move row) and blank, unless the page is
 * drawn with `labels': then it is as high as a move row and every block
 * prints the same two labels in it. `struck': some moves struck through
 * by a long stroke across both of the row's cells. */
enum { NB = 2, NR = 30, TX = 200, TY = 500, NUMW = 90, MW = 420, GAP = 100,
       RH = 80, LROW = 60 };

static int g_lrow = LROW;
/* grey of the inner hairlines (0: black, like the outer rules) */
static int g_hair = 0;
/* row rules lost above the bottom rule (a faint end of a photographed
 * table): the column rules still run through */
static int g_lost = 0;
/* inner row rules a faint copy lost, most of them (1: in both blocks,
 * rules 1 and 3 of every five, so two-row gaps outnumber one-row ones;
 * 2: in the first block only, all but every third) */
static int g_broken = 0;
/* grey of every other move row's paper (0: no shading) */
static int g_shade = 0;
/* faint moves in thin strokes (0: as thick as the dark ones), the lighter
 * half of them in this grey */
static int g_thin = 0, g_thin_grey = 0;
/* hairlines drawn as dashes (a scanner's threshold kept a part of them) */
static bool g_dash = false;
/* every g_aligned-th row written as a line of thin strokes across both
 * cells at the same height (writing that lines up like a rule); 0: none */
static int g_aligned = 0;
/* how far (px) each of those strokes may stray from the row's middle, as
 * handwriting does */
static int g_wobble = 0;

/* An axis-parallel 1-px line as dashes 20-90 px long with gaps of 12-60 px
 * (longer than any closing of a solid line's breaks), drawn from a fixed
 * pseudo-random sequence. */
static void dashed_line(PIX *p, int x0, int y0, int x1, int y1,
                        unsigned *seed)
{
    bool vert = x0 == x1;
    int t = vert ? y0 : x0, end = vert ? y1 : x1, on = 1;
    while (t < end) {
        int len;
        *seed = *seed * 1103515245u + 12345u;
        len = on ? 20 + (int)((*seed >> 16) % 71) : 12 + (int)((*seed >> 16) % 49);
        if (len > end - t)
            len = end - t;
        if (on)
            pixRenderLine(p, vert ? x0 : t, vert ? t : y0,
                          vert ? x0 : t + len - 1, vert ? t + len - 1 : y0,
                          1, L_SET_PIXELS);
        t += len;
        on = !on;
    }
}

/* A printed label: a small glyph-like box, different for Red and Black. */
static void label_glyph(PIX *p, int x, int y, int w, int h, int side)
{
    int cx = x + w / 2, cy = y + h / 2, k;
    pixRenderLine(p, cx - 20, cy - 22, cx + 20, cy - 22, 5, L_SET_PIXELS);
    pixRenderLine(p, cx - 20, cy + 22, cx + 20, cy + 22, 5, L_SET_PIXELS);
    pixRenderLine(p, cx - 20, cy - 22, cx - 20, cy + 22, 5, L_SET_PIXELS);
    for (k = 0; k <= side; k++)
        pixRenderLine(p, cx - 12 + 12 * k, cy - 16, cx + 14, cy + 16 - 8 * k,
                      5, L_SET_PIXELS);
}

/* A printed move number: "1" a stroke, any other a wider "2"-like
 * figure; word: a label such as "No.", wider than both. */
static void number_glyph(PIX *p, int x, int y, int w, int h, int n, bool word)
{
    int cx = x + w / 2, y0 = y + h / 4, y1 = y + 3 * h / 4;
    if (word) {
        pixRenderLine(p, cx - 30, y0, cx - 30, y1, 4, L_SET_PIXELS);
        pixRenderLine(p, cx - 30, y0, cx - 10, y1, 4, L_SET_PIXELS);
        pixRenderLine(p, cx - 10, y0, cx - 10, y1, 4, L_SET_PIXELS);
        pixRenderLine(p, cx, y1 - 12, cx + 16, y1 - 12, 4, L_SET_PIXELS);
        pixRenderLine(p, cx, y1, cx + 16, y1, 4, L_SET_PIXELS);
        pixRenderLine(p, cx + 26, y1 - 3, cx + 30, y1 - 3, 4, L_SET_PIXELS);
    } else if (n == 1) {
        pixRenderLine(p, cx, y0, cx, y1, 4, L_SET_PIXELS);
    } else {
        pixRenderLine(p, cx - 10, y0, cx + 10, y0, 4, L_SET_PIXELS);
        pixRenderLine(p, cx + 10, y0, cx - 10, y1, 4, L_SET_PIXELS);
        pixRenderLine(p, cx - 10, y1, cx + 12, y1, 4, L_SET_PIXELS);
    }
}

static PIX *ruled_page_ex(bool labels, bool struck, bool boxes, bool faint,
                          bool numbers)
{
    PIX *p = pixCreate(2480, 3508, 1), *g;
    PIX *m[2] = { pixCreate(2480, 3508, 1), pixCreate(2480, 3508, 1) };
    PIX *hair = pixCreate(2480, 3508, 1);
    int b, r, c;
    unsigned seed = 2718;
    assert_non_null(p);
    assert_non_null(hair);
    g_lrow = labels ? RH : LROW;
    for (b = 0; b < NB; b++) {
        int x0 = TX + b * (NUMW + 2 * MW + GAP), x1 = x0 + NUMW + 2 * MW;
        int ybot = TY + g_lrow + NR * RH;
        for (r = 0; r <= NR + 1; r++) {
            int y = r == 0 ? TY : TY + g_lrow + (r - 1) * RH;
            int lw = (r <= 1 || r == NR + 1) ? 4 : 1;
            if (r > NR - g_lost && r <= NR)
                continue;
            if (r > 1 && r <= NR
                && ((g_broken == 1 && (r % 5 == 1 || r % 5 == 3))
                    || (g_broken == 2 && b == 0 && r % 3 != 0)))
                continue;
            if (lw == 1 && g_dash)
                dashed_line(g_hair ? hair : p, x0, y, x1, y, &seed);
            else
                pixRenderLine(lw == 1 && g_hair ? hair : p, x0, y, x1, y, lw,
                              L_SET_PIXELS);
        }
        for (c = 0; c < 4; c++) {
            int x = x0 + (c == 0 ? 0 : NUMW + (c - 1) * MW);
            bool thin = c == 1 || c == 2;
            if (thin && g_dash)
                dashed_line(g_hair ? hair : p, x, TY, x, ybot, &seed);
            else
                pixRenderLine(thin && g_hair ? hair : p, x, TY, x, ybot,
                              thin ? 1 : 4, L_SET_PIXELS);
        }
        if (labels)
            for (c = 0; c < 2; c++)
                label_glyph(p, x0 + NUMW + c * MW, TY, MW, RH,
                            numbers ? c + 2 * b : c);
        if (numbers) {
            number_glyph(p, x0, TY, NUMW, g_lrow, 0, true);
            for (r = 0; r < NR; r++)
                number_glyph(p, x0, TY + g_lrow + r * RH, NUMW, RH,
                             b * NR + r + 1, false);
        }
        for (r = 0; r < NR; r++) {
            int y = TY + g_lrow + r * RH;
            for (c = 0; c < 2; c++) {
                int cell = (b * NR + r) * 2 + c;
                if (cell % 7 == 3 || cell > 110)
                    continue;                     /* blank */
                if (g_aligned && r % g_aligned == 2 % g_aligned) {
                    /* twelve short thin strokes (as in 一一一), each at
                     * the row's middle give or take g_wobble px */
                    int k, gx = x0 + NUMW + c * MW;
                    for (k = 0; k < 12; k++) {
                        int dy = 0;
                        seed = seed * 1103515245u + 12345u;
                        if (g_wobble)
                            dy = (int)((seed >> 16) % (2 * g_wobble + 1))
                                 - g_wobble;
                        pixRenderLine(p, gx + MW / 8 + k * MW / 15,
                                      y + RH / 2 + dy,
                                      gx + MW / 8 + k * MW / 15 + MW / 20,
                                      y + RH / 2 + dy, 2, L_SET_PIXELS);
                    }
                    continue;
                }
                scribble_w(faint ? m[cell % 2] : p, x0 + NUMW + c * MW, y,
                           MW, RH, faint && g_thin ? g_thin : 4);
            }
            if (struck && r % 9 == 4)
                pixRenderLine(p, x0 + NUMW + 12, y + RH / 2 + 3,
                              x1 - 12, y + RH / 2 - 3, 4, L_SET_PIXELS);
        }
    }
    if (boxes) {
        /* header boxes above the last block, on its column rules */
        int x0 = TX + (NB - 1) * (NUMW + 2 * MW + GAP) + NUMW, y0 = TY - 300;
        int y1 = TY - 40;
        pixRenderLine(p, x0, y0, x0 + 2 * MW, y0, 2, L_SET_PIXELS);
        pixRenderLine(p, x0, TY - 170, x0 + 2 * MW, TY - 170, 2, L_SET_PIXELS);
        pixRenderLine(p, x0, y1, x0 + 2 * MW, y1, 2, L_SET_PIXELS);
        for (c = 0; c < 3; c++)
            pixRenderLine(p, x0 + c * MW, y0, x0 + c * MW, y1, 2,
                          L_SET_PIXELS);
        scribble(p, x0 + MW, TY - 170, MW, 130);
    }
    pixRenderLine(p, 700, 250, 1700, 250, 30, L_SET_PIXELS);   /* title */
    g = pixConvertTo8(p, 0);
    pixDestroy(&p);
    assert_non_null(g);
    if (faint) {
        /* light pen pressure: every other move in a grey about 70% of
         * paper's darkness away, the rest in a grey about 80% */
        pixSetMasked(g, m[0], 178);
        pixSetMasked(g, m[1], g_thin ? (l_uint32)g_thin_grey : 204);
    }
    pixSetMasked(g, hair, (l_uint32)g_hair);
    if (g_shade)                  /* odd rows printed on a grey ground */
        for (b = 0; b < NB; b++)
            for (r = 1; r < NR; r += 2) {
                int x0 = TX + b * (NUMW + 2 * MW + GAP), x, y;
                int y0 = TY + g_lrow + r * RH;
                for (y = y0; y < y0 + RH; y++)
                    for (x = x0; x < x0 + NUMW + 2 * MW; x++) {
                        l_uint32 v;
                        pixGetPixel(g, x, y, &v);
                        pixSetPixel(g, x, y, v * (l_uint32)g_shade / 255);
                    }
            }
    pixDestroy(&hair);
    pixDestroy(&m[0]);
    pixDestroy(&m[1]);
    return g;
}

static PIX *ruled_page(void)
{
    return ruled_page_ex(false, false, false, false, false);
}

static void cell_rect(int cell, double *x0, double *y0, double *x1,
                      double *y1)
{
    int b = cell / (2 * NR), r = (cell / 2) % NR, c = cell % 2;
    int bx = TX + b * (NUMW + 2 * MW + GAP);
    *x0 = bx + NUMW + c * MW;
    *x1 = *x0 + MW;
    *y0 = TY + g_lrow + r * RH;
    *y1 = *y0 + RH;
}

static void test_rectify_map(void **state)
{
    PIX *page = ruled_page(), *photo, *bin;
    l_float32 *fwd = NULL;
    double m[9], inv[9], det, xs[4], ys[4];
    bool warp = false;
    int i;
    (void)state;
    photo = photograph(page, keystone, &fwd);
    bin = ocr_page_binarise(photo, 128);
    assert_non_null(bin);
    assert_int_equal(ocr_grid_rectify(photo, bin, m, &warp), XQ_OK);
    assert_true(warp);
    /* the table's outer corners, taken back through m, form an
     * axis-aligned rectangle (one round, at half resolution: within 0.5%
     * of the table's size; the page's second round takes the rest) */
    det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
        + m[2] * (m[3] * m[7] - m[4] * m[6]);
    inv[0] = (m[4] * m[8] - m[5] * m[7]) / det;
    inv[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    inv[2] = (m[1] * m[5] - m[2] * m[4]) / det;
    inv[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    inv[4] = (m[0] * m[8] - m[2] * m[6]) / det;
    inv[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    inv[6] = (m[3] * m[7] - m[4] * m[6]) / det;
    inv[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    inv[8] = (m[0] * m[4] - m[1] * m[3]) / det;
    for (i = 0; i < 4; i++) {
        double tx = (i == 1 || i == 2) ? TX + NB * (NUMW + 2 * MW) + GAP : TX;
        double ty = i >= 2 ? TY + LROW + NR * RH : TY;
        l_float32 px, py;
        projectiveXformPt(fwd, (l_int32)tx, (l_int32)ty, &px, &py);
        ocr_form_map(inv, px, py, &xs[i], &ys[i]);
    }
    assert_true(fabs(ys[0] - ys[1]) < 10);      /* top edge level */
    assert_true(fabs(ys[2] - ys[3]) < 10);      /* bottom edge level */
    assert_true(fabs(xs[0] - xs[3]) < 10);      /* left edge upright */
    assert_true(fabs(xs[1] - xs[2]) < 10);      /* right edge upright */
    /* and it was far from that before */
    {
        l_float32 ax, ay, bx, by;
        projectiveXformPt(fwd, TX, TY + LROW + NR * RH, &ax, &ay);
        projectiveXformPt(fwd, TX, TY, &bx, &by);
        assert_true(fabs(ax - bx) > 60);
    }
    /* a flat page needs no warp */
    pixDestroy(&bin);
    bin = ocr_page_binarise(page, 128);
    assert_int_equal(ocr_grid_rectify(page, bin, m, &warp), XQ_OK);
    assert_false(warp);
    assert_true(m[0] == 1 && m[4] == 1 && m[8] == 1 && m[1] == 0);
    pixDestroy(&bin);
    pixDestroy(&photo);
    pixDestroy(&page);
    LEPT_FREE(fwd);
}

/* The table ruled_page draws, found in sheet sh: NB blocks, every cell's
 * box where the page put it (through the photo's transform fwd; NULL: the
 * page itself) and every cell told blank or written right. */
static void check_table_cells(const xq_sheet *sh, l_float32 *fwd)
{
    int i, n = NB * NR * 2, blank_ok = 0;
    assert_int_equal(xq_sheet_nblocks(sh), NB);
    assert_int_equal(xq_sheet_ncells(sh), (size_t)n);
    for (i = 0; i < n; i++) {
        int box[4], want[4];
        double x0, y0, x1, y1;
        bool written = !(i % 7 == 3 || i > 110);
        cell_rect(i, &x0, &y0, &x1, &y1);
        if (fwd) {
            photo_box(fwd, x0, y0, x1, y1, want);
        } else {
            want[0] = (int)x0;
            want[1] = (int)y0;
            want[2] = (int)(x1 - x0);
            want[3] = (int)(y1 - y0);
        }
        assert_int_equal(xq_sheet_cell_box(sh, (size_t)i, box), XQ_OK);
        assert_true(iou(box, want) > 0.75);
        blank_ok += xq_sheet_cell_blank(sh, (size_t)i) == !written;
    }
    assert_int_equal(blank_ok, n);
}

/* soft: the photo taken at this fraction of the page's resolution (a
 * sheet small in the picture) and brought back to full size; 0: sharp */
static double g_soft = 0;

static void check_ruled_photo(bool labels, bool struck, bool boxes,
                              bool faint, bool numbers)
{
    PIX *page = ruled_page_ex(labels, struck, boxes, faint, numbers), *photo;
    l_float32 *fwd = NULL;
    xq_sheet *sh = NULL;
    char err[128];
    photo = photograph(page, keystone, &fwd);
    if (g_soft > 0) {
        PIX *lo = pixScaleAreaMap(photo, (l_float32)g_soft, (l_float32)g_soft);
        PIX *up;
        assert_non_null(lo);
        up = pixScaleGrayLI(lo, (l_float32)(pixGetWidth(photo)
                                             / (double)pixGetWidth(lo)),
                            (l_float32)(pixGetHeight(photo)
                                        / (double)pixGetHeight(lo)));
        assert_non_null(up);
        pixDestroy(&lo);
        pixDestroy(&photo);
        photo = up;
    }
    assert_int_equal(xq_ocr_read_pix(g_ocr, photo, 0, &sh, err, sizeof err),
                     XQ_OK);
    check_table_cells(sh, fwd);
    xq_sheet_destroy(&sh);
    pixDestroy(&photo);
    pixDestroy(&page);
    LEPT_FREE(fwd);
}

static void test_ruled_photo(void **state)
{
    (void)state;
    check_ruled_photo(false, false, false, false, false);
}

/* Page drawing options back to their defaults (a failed check leaves
 * its test early). */
static int reset_page(void **state)
{
    (void)state;
    g_hair = 0;
    g_lost = 0;
    g_broken = 0;
    g_shade = 0;
    g_thin = g_thin_grey = 0;
    g_soft = 0;
    g_dash = false;
    g_aligned = g_wobble = 0;
    return 0;
}

/* The last ten row rules of every block lost: eleven rows between two
 * rules, the column rules running through them. The old code took more
 * than eight rows between two rules for a gap and lost them all. */
static void test_lost_row_rules_at_the_end(void **state)
{
    (void)state;
    g_lost = 10;
    check_ruled_photo(false, false, false, false, false);
}

/* Every block's first row prints the same labels, in a row as high as the
 * move rows (so only the repeated ink tells it; no Tesseract here). */
static void test_label_row_repeated(void **state)
{
    (void)state;
    check_ruled_photo(true, false, false, false, false);
}

/* Most inner row rules lost (a faint copy): in both blocks two gaps of
 * two rows for every gap of one, so the median gap between the rules
 * found is two rows. Every row is still a row of its own: the pitch is
 * the one-row gap the others are multiples of (the old code took the
 * median and made one cell of every two rows). */
static void test_broken_rules_pitch(void **state)
{
    (void)state;
    g_broken = 1;
    check_ruled_photo(false, false, false, false, false);
}

/* The first block kept one row rule in three, the second all of them:
 * the blocks of one table are ruled alike, the first block's three-row
 * gaps are three rows (the old code: ten cells of three rows each). */
static void test_broken_rules_other_block(void **state)
{
    (void)state;
    g_broken = 2;
    check_ruled_photo(false, false, false, false, false);
}

/* The label row as high as a move row and its labels different in every
 * block (no repeated ink; no Tesseract here): the move-number column
 * tells it, a word above the numbers 1, 2, ... */
static void test_label_row_by_numbers(void **state)
{
    (void)state;
    check_ruled_photo(true, false, false, false, true);
}

/* Moves struck through by strokes across both cells of the row: the
 * strokes are no rules, the rows are not split. */
static void test_struck_rows_not_split(void **state)
{
    (void)state;
    check_ruled_photo(false, true, false, false, false);
}

/* Faint ink on a clean photo (light pen pressure: the lighter moves'
 * strokes are lighter than any fixed "pens are dark" level): every move
 * is writing, every blank cell blank. */
static void test_faint_ink_is_writing(void **state)
{
    (void)state;
    check_ruled_photo(false, false, false, true, false);
}

/* The same faint ink on a form whose every other row is shaded (paper
 * grey 225 there): measured against one paper level for the page, the
 * shading passed for paper noise and the faint moves for blank cells
 * (fails on the old code); each cell's ink is taken against its own
 * paper. */
static void test_faint_ink_on_shaded_rows(void **state)
{
    (void)state;
    g_shade = 225;
    check_ruled_photo(false, false, false, true, false);
}

/* Faint ink in thin strokes on a soft photo (a light pen, the sheet small
 * in the picture, taken at half the page's resolution): every move in
 * 2-px strokes, half in grey 178 and half in grey 220 on white paper,
 * which the blur spreads into traces nowhere as dark as the page's other
 * ink. Judged by darkness alone the light half were blank cells (74 of
 * 120 right on the old code); their strokes hang together over a glyph's
 * size, which paper grain does not. */
static void test_faint_thin_strokes_are_writing(void **state)
{
    (void)state;
    g_thin = 2;
    g_thin_grey = 220;
    g_soft = 0.5;
    check_ruled_photo(false, false, false, true, false);
}

/* Two rows of header boxes drawn on the last block's column rules, a
 * little above the table: not rows of that block (the blocks start
 * level). */
static void test_header_boxes_on_block_rules(void **state)
{
    (void)state;
    check_ruled_photo(false, false, true, false, false);
}

/* A bilevel scan of a table whose inner hairlines are printed light
 * (grey 165): the scanner's fixed threshold (128) keeps the thick outer
 * rules, the numbers and the writing, and of each hairline only the
 * specks where the sensor's noise (sd 20) took it under the threshold,
 * about one pixel in twenty. The page is 1 bpp as a scanner writes it.
 * No ruling line is left for the line finder: the old code found no
 * table at all. */
/* Page g (taken) through a scanner: sensor noise (sd noise, none at 0),
 * then the fixed threshold 128; 1 bpp. */
static PIX *threshold_scan(PIX *g, double noise)
{
    PIX *n, *b;
    srand(4711);                   /* pixAddGaussianNoise draws from rand */
    n = noise > 0 ? pixAddGaussianNoise(g, (l_float32)noise) : pixClone(g);
    assert_non_null(n);
    b = pixThresholdToBinary(n, 128);
    assert_non_null(b);
    pixDestroy(&n);
    pixDestroy(&g);
    return b;
}

/* Read scan (taken): every cell of the ruled page where it is. */
static void check_scan_cells(PIX *scan)
{
    xq_sheet *sh = NULL;
    char err[128];
    assert_int_equal(xq_ocr_read_pix(g_ocr, scan, 0, &sh, err, sizeof err),
                     XQ_OK);
    check_table_cells(sh, NULL);
    xq_sheet_destroy(&sh);
    pixDestroy(&scan);
}

static PIX *bilevel_scan(double noise, bool labels)
{
    PIX *g;
    g_hair = 165;
    g = ruled_page_ex(labels, false, false, false, true);
    g_hair = 0;
    return threshold_scan(g, noise);
}

static void check_bilevel(double noise, bool labels)
{
    PIX *scan = bilevel_scan(noise, labels);
    assert_int_equal(pixGetDepth(scan), 1);
    check_scan_cells(scan);
}

static void test_bilevel_lost_hairlines(void **state)
{
    (void)state;
    check_bilevel(20.0, false);
}

/* Hairlines a bilevel scan kept as dashes 20-90 px long with gaps up to
 * 60 px (grey 110 under the scanner's threshold 128, sensor noise sd 8),
 * and rows written as lines of thin strokes across both cells (writing
 * that lines up like a broken rule): every aligned-th row, each stroke
 * within wobble px of the row's middle. The dashes are joined into rules
 * and every cell is found where it is; the writing makes no row. */
static void check_dashed_rules(int aligned, int wobble)
{
    g_hair = 110;
    g_dash = true;
    g_aligned = aligned;
    g_wobble = wobble;
    check_scan_cells(threshold_scan(
        ruled_page_ex(false, false, false, false, true), 8.0));
}

/* Every fifth row's strokes exactly at one height: joined like a rule,
 * but a line through the middle of rows is no rule (fails on the old
 * code: no table; no line long enough, and too much long thin ink in the
 * frames to take the dashes for specks). */
static void test_bilevel_dashed_rules(void **state)
{
    (void)state;
    check_dashed_rules(5, 0);
}

/* Every row so written, the strokes straying 2 px as a hand does: their
 * pieces do not lie on one line (fails on the old code: no table). */
static void test_bilevel_dashed_rules_aligned_writing(void **state)
{
    (void)state;
    check_dashed_rules(1, 2);
}

/* No trace of the hairlines, but a label row over every column (number,
 * Red, Black): columns stand under their labels, rows where no glyph
 * crosses, one move number in each (fails on the old code: no table). */
static void test_bilevel_no_trace_labels(void **state)
{
    (void)state;
    check_bilevel(0, true);
}

/* The same scan without noise: the hairlines are gone without a trace,
 * and the label row says "No." only. Columns are not invented in the
 * empty frames. */
static void test_bilevel_no_trace_no_rows(void **state)
{
    PIX *scan = bilevel_scan(0, false);
    xq_sheet *sh = NULL;
    char err[128];
    (void)state;
    assert_int_equal(xq_ocr_read_pix(g_ocr, scan, 0, &sh, err, sizeof err),
                     XQ_OK);
    assert_int_equal(xq_sheet_ncells(sh), 0);
    xq_sheet_destroy(&sh);
    pixDestroy(&scan);
}

static void test_form_photo_exact(void **state)
{
    PIX *page = NULL, *photo, *pb;
    l_float32 *fwd = NULL;
    xq_sheet *sh = NULL;
    ocr_rect cells[240];
    char err[128];
    double fh[9];
    bool found = true;
    int i, blank_ok = 0;
    (void)state;
    assert_int_equal(xq_form_render(&page), XQ_OK);
    assert_int_equal(ocr_form_cells(cells, NULL, 240), 240);
    for (i = 0; i < 240; i += 3)            /* every third cell written */
        scribble(page, cells[i].x, cells[i].y, cells[i].w, cells[i].h);
    /* a page without fiducials is not the form */
    pb = pixCreate(1200, 1600, 8);
    pixSetAll(pb);
    assert_int_equal(ocr_form_locate(pb, fh, &found), XQ_OK);
    assert_false(found);
    assert_true(fh[0] == 1 && fh[4] == 1 && fh[8] == 1 && fh[2] == 0);
    pixDestroy(&pb);
    photo = photograph(page, keystone, &fwd);
    assert_int_equal(xq_ocr_read_pix(g_ocr, photo, 0, &sh, err, sizeof err),
                     XQ_OK);
    assert_true(sh->form);
    assert_int_equal(xq_sheet_nblocks(sh), 3);
    assert_int_equal(xq_sheet_ncells(sh), 240);
    for (i = 0; i < 240; i++) {
        int box[4], want[4];
        photo_box(fwd, cells[i].x, cells[i].y, cells[i].x + cells[i].w - 1,
                  cells[i].y + cells[i].h - 1, want);
        assert_int_equal(xq_sheet_cell_box(sh, (size_t)i, box), XQ_OK);
        /* exact geometry: within a few pixels of the true corners */
        assert_true(abs(box[0] - want[0]) <= 4 && abs(box[1] - want[1]) <= 4);
        assert_true(abs(box[2] - want[2]) <= 5 && abs(box[3] - want[3]) <= 5);
        blank_ok += xq_sheet_cell_blank(sh, (size_t)i) == (i % 3 != 0);
    }
    assert_int_equal(blank_ok, 240);
    xq_sheet_destroy(&sh);
    pixDestroy(&photo);
    pixDestroy(&page);
    LEPT_FREE(fwd);
}

/* xqscan's form copied faint (contrast turned down: black prints as
 * grey 157, paper 237): still the form, every cell told blank or written
 * right. Before, background normalisation took the grey corner squares
 * for paper, the form was not found and its printed guides were read as
 * writing in every cell. */
static void test_form_faded(void **state)
{
    PIX *page = NULL;
    xq_sheet *sh = NULL;
    ocr_rect cells[240];
    char err[128];
    int i, x, y, w, h, wpl, blank_ok = 0;
    l_uint32 *data;
    (void)state;
    assert_int_equal(xq_form_render(&page), XQ_OK);
    assert_int_equal(pixGetDepth(page), 8);
    assert_int_equal(ocr_form_cells(cells, NULL, 240), 240);
    for (i = 0; i < 240; i += 3)
        scribble(page, cells[i].x, cells[i].y, cells[i].w, cells[i].h);
    w = pixGetWidth(page);
    h = pixGetHeight(page);
    wpl = pixGetWpl(page);
    data = pixGetData(page);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            l_uint32 *line = data + (size_t)y * wpl;
            SET_DATA_BYTE(line, x, 157 + GET_DATA_BYTE(line, x) * 80 / 255);
        }
    assert_int_equal(xq_ocr_read_pix(g_ocr, page, 0, &sh, err, sizeof err),
                     XQ_OK);
    assert_true(sh->form);
    assert_int_equal(xq_sheet_ncells(sh), 240);
    for (i = 0; i < 240; i++)
        blank_ok += xq_sheet_cell_blank(sh, (size_t)i) == (i % 3 != 0);
    assert_int_equal(blank_ok, 240);
    xq_sheet_destroy(&sh);
    pixDestroy(&page);
}

static void test_form_map(void **state)
{
    const double h[9] = { 2, 0, 10, 0, 3, -5, 0, 0, 1 };
    double x, y;
    (void)state;
    ocr_form_map(h, 4, 5, &x, &y);
    assert_true(fabs(x - 18) < 1e-9 && fabs(y - 10) < 1e-9);
    assert_true(ocr_form_table_top() > 0 && ocr_form_table_top() < 3508 / 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_form_map),
        cmocka_unit_test(test_rectify_map),
        cmocka_unit_test(test_ruled_photo),
        cmocka_unit_test(test_label_row_repeated),
        cmocka_unit_test(test_label_row_by_numbers),
        cmocka_unit_test(test_struck_rows_not_split),
        cmocka_unit_test_teardown(test_broken_rules_pitch, reset_page),
        cmocka_unit_test_teardown(test_broken_rules_other_block, reset_page),
        cmocka_unit_test(test_header_boxes_on_block_rules),
        cmocka_unit_test(test_faint_ink_is_writing),
        cmocka_unit_test_teardown(test_faint_ink_on_shaded_rows, reset_page),
        cmocka_unit_test_teardown(test_faint_thin_strokes_are_writing,
                                  reset_page),
        cmocka_unit_test_teardown(test_lost_row_rules_at_the_end,
                                  reset_page),
        cmocka_unit_test_teardown(test_bilevel_lost_hairlines, reset_page),
        cmocka_unit_test_teardown(test_bilevel_no_trace_labels, reset_page),
        cmocka_unit_test_teardown(test_bilevel_dashed_rules, reset_page),
        cmocka_unit_test_teardown(test_bilevel_dashed_rules_aligned_writing,
                                  reset_page),
        cmocka_unit_test(test_bilevel_no_trace_no_rows),
        cmocka_unit_test(test_form_photo_exact),
        cmocka_unit_test(test_form_faded),
    };
    return xq_run_group("test_ocr_grid", tests, sizeof tests / sizeof tests[0],
                        setup, teardown);
}

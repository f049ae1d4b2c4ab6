/* form.c - xqscan's own printable scoresheet (`xqscan form`).
 *
 * The geometry is the one of tools/render/form_geometry.json (written by
 * tools/render/xqform.py), computed here from the same constants;
 * tests/test_ocr_form.c checks that both agree rectangle for rectangle.
 * Conventions: A4 at 300 dpi, [x, y, w, h] rectangles covering x..x+w-1;
 * ruling lines are filled black rectangles; cells are the ink-free
 * interiors between ruling lines; glyph guides are 1-px grey outlines.
 * The printed words are pre-rendered tiles (ocr/data/form_text.png,
 * tools/ocr/make_form_text.py), so no font engine is needed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ocr_internal.h"
#include "form_text.h"

enum {
    PAGE_W = 2480, PAGE_H = 3508, DPI = 300,
    FID_SIZE = 90,
    TAB_X0 = 200, TAB_X1 = 2280, BLOCKS = 3, ROWS = 40,
    NUM_W = 90, MOVE_W = 290, BLOCK_W = NUM_W + 2 * MOVE_W,
    BLOCK_GAP = (TAB_X1 - TAB_X0 - BLOCKS * BLOCK_W) / (BLOCKS - 1),
    TAB_Y0 = 600, LABEL_ROW_H = 60, ROW_H = 66,
    OUTER_LW = 4, INNER_LW = 2, GUIDE_GREY = 200, GUIDES_PER_CELL = 4,
    GUIDE_PAD_X = 10, GUIDE_PAD_Y = 8, GUIDE_GAP = 6,
    HEADER_LW = 3, HEADER_LABEL_W = 150
};

static const struct {
    const char *field, *zh, *en;
    int x0, y0, x1, y1;
} header_fields[] = {
    { "event", "赛事", "Event", 200, 210, 1500, 320 },
    { "date", "日期", "Date", 1530, 210, 2280, 320 },
    { "red", "红方", "Red", 200, 340, 1225, 450 },
    { "black", "黑方", "Black", 1255, 340, 2280, 450 },
    { "round", "轮次", "Round", 200, 470, 660, 560 },
    { "board", "台次", "Board", 690, 470, 1150, 560 },
    { "result", "结果", "Result", 1180, 470, 2280, 560 },
};
#define NHEADER ((int)XQ_ARRAY_LEN(header_fields))

static ocr_rect rect(int x, int y, int w, int h)
{
    ocr_rect r = { x, y, w, h };
    return r;
}

static ocr_rect hline(int x0, int x1, int y, int lw)
{
    return rect(x0 - lw / 2, y - lw / 2, x1 - x0 + lw, lw);
}

static ocr_rect vline(int x, int y0, int y1, int lw)
{
    return rect(x - lw / 2, y0 - lw / 2, lw, y1 - y0 + lw);
}

static ocr_rect inner(int x0, int y0, int x1, int y1, int lwl, int lwt,
                      int lwr, int lwb)
{
    int xa = x0 - lwl / 2 + lwl, ya = y0 - lwt / 2 + lwt;
    int xb = x1 - lwr / 2, yb = y1 - lwb / 2;
    return rect(xa, ya, xb - xa, yb - ya);
}

/* The whole geometry in the JSON's order. Any output may be NULL. */
static void geometry(ocr_rect *lines, int *pnl, ocr_rect *cells,
                     ocr_rect *guides, int *pnc, ocr_form_text *texts,
                     int *pnt)
{
    int nl = 0, nc = 0, nt = 0, i, b, r;
#define LINE(x) do { if (lines) lines[nl] = (x); nl++; } while (0)
#define TEXT(s, rr, hh) do { if (texts) { \
        snprintf(texts[nt].text, sizeof texts[nt].text, "%s", (s)); \
        texts[nt].r = (rr); texts[nt].height = (hh); } nt++; } while (0)
    TEXT("象棋记录表  Xiangqi scoresheet", rect(300, 80, 1880, 100), 64);
    for (i = 0; i < NHEADER; i++) {
        int x0 = header_fields[i].x0, y0 = header_fields[i].y0;
        int x1 = header_fields[i].x1, y1 = header_fields[i].y1, lw = HEADER_LW;
        ocr_rect label;
        LINE(hline(x0, x1, y0, lw));
        LINE(hline(x0, x1, y1, lw));
        LINE(vline(x0, y0, y1, lw));
        LINE(vline(x1, y0, y1, lw));
        LINE(vline(x0 + HEADER_LABEL_W, y0, y1, 1));
        label = inner(x0, y0, x0 + HEADER_LABEL_W, y1, lw, lw, 1, lw);
        TEXT(header_fields[i].zh,
             rect(label.x, label.y, label.w, label.h * 3 / 5), 36);
        TEXT(header_fields[i].en,
             rect(label.x, label.y + label.h * 3 / 5, label.w, label.h * 2 / 5), 24);
    }
    for (b = 0; b < BLOCKS; b++) {
        int bx = TAB_X0 + b * (BLOCK_W + BLOCK_GAP);
        int xs[4] = { bx, bx + NUM_W, bx + NUM_W + MOVE_W, bx + BLOCK_W };
        int ys[ROWS + 2], ci;
        static const char *const col_zh[3] = { "回合", "红方 Red", "黑方 Black" };
        ys[0] = TAB_Y0;
        ys[1] = TAB_Y0 + LABEL_ROW_H;
        for (r = 0; r < ROWS; r++)
            ys[r + 2] = TAB_Y0 + LABEL_ROW_H + (r + 1) * ROW_H;
        for (i = 0; i < ROWS + 2; i++) {
            int lw = (i == 0 || i == 1 || i == ROWS + 1) ? OUTER_LW : INNER_LW;
            LINE(hline(xs[0], xs[3], ys[i], lw));
        }
        for (i = 0; i < 4; i++) {
            int lw = (i == 0 || i == 3) ? OUTER_LW : INNER_LW;
            LINE(vline(xs[i], ys[0], ys[ROWS + 1], lw));
        }
        for (ci = 0; ci < 3; ci++)
            TEXT(col_zh[ci],
                 inner(xs[ci], ys[0], xs[ci + 1], ys[1],
                       ci == 0 ? OUTER_LW : INNER_LW, OUTER_LW,
                       ci == 2 ? OUTER_LW : INNER_LW, OUTER_LW), 34);
        for (r = 0; r < ROWS; r++) {
            int y0 = ys[r + 1], y1 = ys[r + 2], c;
            int lwt = r == 0 ? OUTER_LW : INNER_LW;
            int lwb = r == ROWS - 1 ? OUTER_LW : INNER_LW;
            char num[8];
            snprintf(num, sizeof num, "%d", b * ROWS + r + 1);
            TEXT(num, inner(xs[0], y0, xs[1], y1, OUTER_LW, lwt, INNER_LW, lwb), 30);
            for (c = 1; c <= 2; c++) {
                ocr_rect cr = inner(xs[c], y0, xs[c + 1], y1, INNER_LW, lwt,
                                    c == 2 ? OUTER_LW : INNER_LW, lwb);
                int gw = (cr.w - 2 * GUIDE_PAD_X
                          - (GUIDES_PER_CELL - 1) * GUIDE_GAP) / GUIDES_PER_CELL;
                int gh = cr.h - 2 * GUIDE_PAD_Y, k;
                if (cells)
                    cells[nc] = cr;
                if (guides)
                    for (k = 0; k < GUIDES_PER_CELL; k++)
                        guides[nc * GUIDES_PER_CELL + k] =
                            rect(cr.x + GUIDE_PAD_X + k * (gw + GUIDE_GAP),
                                 cr.y + GUIDE_PAD_Y, gw, gh);
                nc++;
            }
        }
    }
#undef LINE
#undef TEXT
    if (pnl) *pnl = nl;
    if (pnc) *pnc = nc;
    if (pnt) *pnt = nt;
}

int ocr_form_lines(ocr_rect *out, int max)
{
    int n;
    geometry(NULL, &n, NULL, NULL, NULL, NULL, NULL);
    if (out && max >= n)
        geometry(out, NULL, NULL, NULL, NULL, NULL, NULL);
    return n;
}

int ocr_form_cells(ocr_rect *cells, ocr_rect *guides, int max)
{
    int n;
    geometry(NULL, NULL, NULL, NULL, &n, NULL, NULL);
    if ((cells || guides) && max >= n)
        geometry(NULL, NULL, cells, guides, NULL, NULL, NULL);
    return n;
}

int ocr_form_texts(ocr_form_text *out, int max)
{
    int n;
    geometry(NULL, NULL, NULL, NULL, NULL, NULL, &n);
    if (out && max >= n)
        geometry(NULL, NULL, NULL, NULL, NULL, out, NULL);
    return n;
}

int ocr_form_table_top(void)
{
    return TAB_Y0 - OUTER_LW / 2;
}

int ocr_form_fiducials(ocr_rect *out, int max)
{
    static const int c[4][2] = { { 120, 120 }, { PAGE_W - 120, 120 },
                                 { 120, PAGE_H - 120 },
                                 { PAGE_W - 120, PAGE_H - 120 } };
    int i;
    if (out && max >= 4)
        for (i = 0; i < 4; i++)
            out[i] = rect(c[i][0] - FID_SIZE / 2, c[i][1] - FID_SIZE / 2,
                          FID_SIZE, FID_SIZE);
    return 4;
}

int ocr_form_header(ocr_rect *box, ocr_rect *label, ocr_rect *write,
                    const char **fields, int max)
{
    int i;
    if (max < NHEADER)
        return NHEADER;
    for (i = 0; i < NHEADER; i++) {
        int x0 = header_fields[i].x0, y0 = header_fields[i].y0;
        int x1 = header_fields[i].x1, y1 = header_fields[i].y1, lw = HEADER_LW;
        if (box)
            box[i] = inner(x0, y0, x1, y1, lw, lw, lw, lw);
        if (label)
            label[i] = inner(x0, y0, x0 + HEADER_LABEL_W, y1, lw, lw, 1, lw);
        if (write)
            write[i] = inner(x0 + HEADER_LABEL_W, y0, x1, y1, 1, lw, lw, lw);
        if (fields)
            fields[i] = header_fields[i].field;
    }
    return NHEADER;
}

extern const unsigned char ocr_form_text_png[];
extern const size_t ocr_form_text_png_len;

static void fill(l_uint32 *data, int wpl, ocr_rect r, int v)
{
    int x, y;
    for (y = r.y; y < r.y + r.h; y++)
        for (x = r.x; x < r.x + r.w; x++)
            if (x >= 0 && y >= 0 && x < PAGE_W && y < PAGE_H)
                SET_DATA_BYTE(data + (size_t)y * wpl, x, v);
}

xq_status xq_form_render(PIX **ppix)
{
    ocr_rect *lines = NULL, *cells = NULL, *guides = NULL, fid[4];
    ocr_form_text *texts = NULL;
    int nl, nc, nt, i, k;
    PIX *pix = NULL, *tiles = NULL, *t8 = NULL;
    l_uint32 *data;
    int wpl;
    xq_status st = XQ_OK;

    if (ppix)
        *ppix = NULL;
    if (!ppix)
        return XQ_EINVAL;
    geometry(NULL, &nl, NULL, NULL, &nc, NULL, &nt);
    lines = xq_malloc((size_t)nl * sizeof *lines);
    cells = xq_malloc((size_t)nc * sizeof *cells);
    guides = xq_malloc((size_t)nc * GUIDES_PER_CELL * sizeof *guides);
    texts = xq_malloc((size_t)nt * sizeof *texts);
    pix = pixCreate(PAGE_W, PAGE_H, 8);
    tiles = pixReadMem(ocr_form_text_png, ocr_form_text_png_len);
    t8 = tiles ? pixConvertTo8(tiles, 0) : NULL;
    if (!lines || !cells || !guides || !texts || !pix || !t8) {
        st = tiles || !pix ? XQ_ENOMEM : XQ_EIMAGE;
        goto out;
    }
    geometry(lines, NULL, cells, guides, NULL, texts, NULL);
    pixSetAll(pix);                                  /* white */
    pixSetResolution(pix, DPI, DPI);
    data = pixGetData(pix);
    wpl = pixGetWpl(pix);
    for (i = 0; i < nc * GUIDES_PER_CELL; i++) {
        ocr_rect g = guides[i];
        fill(data, wpl, rect(g.x, g.y, g.w, 1), GUIDE_GREY);
        fill(data, wpl, rect(g.x, g.y + g.h - 1, g.w, 1), GUIDE_GREY);
        fill(data, wpl, rect(g.x, g.y, 1, g.h), GUIDE_GREY);
        fill(data, wpl, rect(g.x + g.w - 1, g.y, 1, g.h), GUIDE_GREY);
    }
    for (i = 0; i < nl; i++)
        fill(data, wpl, lines[i], 0);
    ocr_form_fiducials(fid, 4);
    for (i = 0; i < 4; i++)
        fill(data, wpl, fid[i], 0);
    for (i = 0; i < nt; i++) {
        const ocr_form_text *t = &texts[i];
        for (k = 0; k < (int)XQ_ARRAY_LEN(form_text_tiles); k++) {
            int x, y, ox, oy;
            if (strcmp(form_text_tiles[k].text, t->text)
                || form_text_tiles[k].height != t->height)
                continue;
            ox = t->r.x + (t->r.w - form_text_tiles[k].w) / 2;
            oy = t->r.y + (t->r.h - form_text_tiles[k].h) / 2;
            for (y = 0; y < form_text_tiles[k].h; y++)
                for (x = 0; x < form_text_tiles[k].w; x++) {
                    l_uint32 v, d;
                    int px = ox + x, py = oy + y;
                    if (px < 0 || py < 0 || px >= PAGE_W || py >= PAGE_H)
                        continue;
                    pixGetPixel(t8, x, form_text_tiles[k].y + y, &v);
                    d = GET_DATA_BYTE(data + (size_t)py * wpl, px);
                    if (v < d)
                        SET_DATA_BYTE(data + (size_t)py * wpl, px, v);
                }
            break;
        }
    }
    *ppix = pix;
    pix = NULL;
out:
    pixDestroy(&pix);
    pixDestroy(&tiles);
    pixDestroy(&t8);
    xq_free(lines);
    xq_free(cells);
    xq_free(guides);
    xq_free(texts);
    return st;
}

xq_status xq_form_write_png(const char *path)
{
    PIX *pix = NULL;
    xq_status st;
    if (!path)
        return XQ_EINVAL;
    st = xq_form_render(&pix);
    if (st != XQ_OK)
        return st;
    st = pixWrite(path, pix, IFF_PNG) == 0 ? XQ_OK : XQ_EIO;
    pixDestroy(&pix);
    return st;
}

/* ---- finding the form on a page ---- */

/* Homography h (row-major, h[8] = 1) taking the 4 points src to dst
 * (x, y pairs); false when the points are degenerate. */
static bool homography4(const double src[8], const double dst[8], double h[9])
{
    double a[8][9];
    int i, j, k;
    for (i = 0; i < 4; i++) {
        double x = src[2 * i], y = src[2 * i + 1];
        double u = dst[2 * i], v = dst[2 * i + 1];
        double r0[9] = { x, y, 1, 0, 0, 0, -u * x, -u * y, u };
        double r1[9] = { 0, 0, 0, x, y, 1, -v * x, -v * y, v };
        memcpy(a[2 * i], r0, sizeof r0);
        memcpy(a[2 * i + 1], r1, sizeof r1);
    }
    for (i = 0; i < 8; i++) {                 /* Gauss-Jordan, pivoting */
        int p = i;
        for (j = i + 1; j < 8; j++)
            if (fabs(a[j][i]) > fabs(a[p][i]))
                p = j;
        if (fabs(a[p][i]) < 1e-12)
            return false;
        if (p != i)
            for (k = 0; k < 9; k++) {
                double t = a[i][k];
                a[i][k] = a[p][k];
                a[p][k] = t;
            }
        for (j = 0; j < 8; j++) {
            double f;
            if (j == i)
                continue;
            f = a[j][i] / a[i][i];
            for (k = i; k < 9; k++)
                a[j][k] -= f * a[i][k];
        }
    }
    for (i = 0; i < 8; i++)
        h[i] = a[i][8] / a[i][i];
    h[8] = 1;
    return true;
}

void ocr_form_map(const double h[9], double x, double y, double *px,
                  double *py)
{
    double w = h[6] * x + h[7] * y + h[8];
    if (fabs(w) < 1e-12)
        w = 1e-12;
    *px = (h[0] * x + h[1] * y + h[2]) / w;
    *py = (h[3] * x + h[4] * y + h[5]) / w;
}

/* Darkest grey in a (2r+1)^2 window, 255 outside the page. */
static int dark_at(PIX *grey, double x, double y, int r)
{
    l_uint32 *data = pixGetData(grey);
    int wpl = pixGetWpl(grey), w = pixGetWidth(grey), hh = pixGetHeight(grey);
    int cx = (int)floor(x + 0.5), cy = (int)floor(y + 0.5), i, j, mn = 255;
    for (j = cy - r; j <= cy + r; j++)
        for (i = cx - r; i <= cx + r; i++)
            if (i >= 0 && j >= 0 && i < w && j < hh) {
                int v = GET_DATA_BYTE(data + (size_t)j * wpl, i);
                if (v < mn)
                    mn = v;
            }
    return mn;
}

/* 255 minus the lightest grey in a 3x3 window (0 outside the page). */
static int dark_at_inv(PIX *grey, double x, double y)
{
    l_uint32 *data = pixGetData(grey);
    int wpl = pixGetWpl(grey), w = pixGetWidth(grey), hh = pixGetHeight(grey);
    int cx = (int)floor(x + 0.5), cy = (int)floor(y + 0.5), i, j, mx = 0;
    for (j = cy - 1; j <= cy + 1; j++)
        for (i = cx - 1; i <= cx + 1; i++)
            if (i >= 0 && j >= 0 && i < w && j < hh) {
                int v = GET_DATA_BYTE(data + (size_t)j * wpl, i);
                if (v > mx)
                    mx = v;
            }
    return 255 - mx;
}

xq_status ocr_form_locate(PIX *grey, double h[9], bool *pfound)
{
    int W = pixGetWidth(grey), H = pixGetHeight(grey), i, k, n;
    PIX *dark = NULL, *solid = NULL;
    BOXA *boxa = NULL;
    ocr_rect fid[4], *lines = NULL;
    double best[4][3], src[8], dst[8];   /* per corner: x, y, distance */
    int nl, hit = 0, tot = 0;
    xq_status st = XQ_OK;

    *pfound = false;
    for (i = 0; i < 9; i++)
        h[i] = i % 4 == 0;
    /* solid dark squares: dark pixels surviving an opening wider than any
     * pen stroke or rule, smaller than a fiducial at the lowest resolution
     * a page is normalised to */
    dark = pixThresholdToBinary(grey, 110);
    solid = dark ? pixOpenBrick(NULL, dark, 19, 19) : NULL;
    boxa = solid ? pixConnCompBB(solid, 8) : NULL;
    if (!boxa) {
        st = XQ_ENOMEM;
        goto out;
    }
    for (k = 0; k < 4; k++)
        best[k][2] = 1e18;
    n = boxaGetCount(boxa);
    for (i = 0; i < n; i++) {
        l_int32 bx, by, bw, bh, cnt = 0;
        double cx, cy, d;
        BOX *b;
        PIX *c;
        boxaGetBoxGeometry(boxa, i, &bx, &by, &bw, &bh);
        /* a fiducial is 90 of 2480 px wide on the form: allow 1/70 to 1/12
         * of the page's short side, square-ish, touching no border */
        if (bw < (W < H ? W : H) / 70 || bw > (W < H ? W : H) / 12
            || bh < 0.7 * bw || bh > 1.4 * bw || bx == 0 || by == 0
            || bx + bw >= W || by + bh >= H)
            continue;
        b = boxCreate(bx, by, bw, bh);
        c = b ? pixClipRectangle(solid, b, NULL) : NULL;
        boxDestroy(&b);
        if (!c) {
            st = XQ_ENOMEM;
            goto out;
        }
        pixCountPixels(c, &cnt, NULL);
        pixDestroy(&c);
        if (cnt < 0.8 * bw * bh)
            continue;
        cx = bx + bw / 2.0;
        cy = by + bh / 2.0;
        k = (cx > W / 2.0) + 2 * (cy > H / 2.0);   /* tl, tr, bl, br */
        d = hypot(cx - (k & 1 ? W : 0), cy - (k & 2 ? H : 0));
        if (d < best[k][2]) {
            best[k][0] = cx;
            best[k][1] = cy;
            best[k][2] = d;
        }
    }
    for (k = 0; k < 4; k++)
        if (best[k][2] > 1e17)
            goto out;
    ocr_form_fiducials(fid, 4);
    for (k = 0; k < 4; k++) {
        src[2 * k] = fid[k].x + fid[k].w / 2.0;
        src[2 * k + 1] = fid[k].y + fid[k].h / 2.0;
        dst[2 * k] = best[k][0];
        dst[2 * k + 1] = best[k][1];
    }
    if (!homography4(src, dst, h))
        goto out;
    /* the form's ruling must be where the map puts it */
    nl = ocr_form_lines(NULL, 0);
    lines = xq_malloc((size_t)nl * sizeof *lines);
    if (!lines) {
        st = XQ_ENOMEM;
        goto out;
    }
    ocr_form_lines(lines, nl);
    for (i = 0; i < nl; i++) {
        const ocr_rect *r = &lines[i];
        bool horiz = r->w > r->h;
        double len = horiz ? r->w : r->h, t;
        if ((horiz ? r->h : r->w) < 2)
            continue;                     /* hairlines: too faint to test */
        for (t = 4; t < len - 4; t += 24) {
            double fx = horiz ? r->x + t : r->x + r->w / 2.0;
            double fy = horiz ? r->y + r->h / 2.0 : r->y + t, x, y;
            double x2, y2, x3, y3;
            int d, p2, p3;
            ocr_form_map(h, fx, fy, &x, &y);
            /* darker than the paper beside it (8 form px off the line) */
            ocr_form_map(h, horiz ? fx : fx - 8 - r->w, horiz ? fy - 8 - r->h : fy,
                         &x2, &y2);
            ocr_form_map(h, horiz ? fx : fx + 8 + r->w, horiz ? fy + 8 + r->h : fy,
                         &x3, &y3);
            d = dark_at(grey, x, y, 1);
            p2 = 255 - dark_at_inv(grey, x2, y2);
            p3 = 255 - dark_at_inv(grey, x3, y3);
            tot++;
            hit += (p2 > p3 ? p2 : p3) - d >= 30;
        }
    }
    *pfound = tot > 0 && hit >= 0.9 * tot;
out:
    if (!*pfound)
        for (i = 0; i < 9; i++)
            h[i] = i % 4 == 0;
    xq_free(lines);
    boxaDestroy(&boxa);
    pixDestroy(&solid);
    pixDestroy(&dark);
    return st;
}

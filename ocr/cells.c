/* cells.c - per-cell work: crop, clean ink, blank test, glyph lattice,
 * candidate scoring, Tesseract text.
 *
 * The lattice: the cell's ink is cut into elementary segments in two
 * ways: by connected components grouped while they overlap in x (slanted
 * writing, long strokes reaching under a neighbour), and by inked column
 * runs; in both, pieces much wider than a glyph are split at projection
 * minima. Every run of consecutive segments that is not much wider than
 * the ink is high is classified once (cached), from that run's own ink.
 * A candidate string is scored by a small dynamic programme aligning its
 * glyphs to segment runs: the best sum of glyph log-probabilities, with
 * penalties for a glyph without ink and for ink left unexplained, best
 * over the two segmentations. This is independent of the writer's spacing
 * and of the number of glyphs (4, 5 for 前兵九平八 forms, WXF's 4 ASCII).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ocr_internal.h"
#include "utf8.h"
#include <stdio.h>

#define INK_T 128        /* ink in the cleaned 0/255 cell image */

void ocr_img_free(ocr_img *im)
{
    if (!im)
        return;
    xq_free(im->px);
    im->px = NULL;
    im->w = im->h = 0;
}

xq_status ocr_img_from_pix(PIX *pix8, ocr_img *im)
{
    int x, y, wpl;
    l_uint32 *data, *line;
    im->w = im->h = 0;
    im->px = NULL;
    if (!pix8 || pixGetDepth(pix8) != 8)
        return XQ_EINVAL;
    im->w = pixGetWidth(pix8);
    im->h = pixGetHeight(pix8);
    im->px = xq_malloc((size_t)im->w * im->h + 1);
    if (!im->px)
        return XQ_ENOMEM;
    data = pixGetData(pix8);
    wpl = pixGetWpl(pix8);
    for (y = 0; y < im->h; y++) {
        line = data + (size_t)y * wpl;
        for (x = 0; x < im->w; x++)
            im->px[(size_t)y * im->w + x] = (uint8_t)GET_DATA_BYTE(line, x);
    }
    return XQ_OK;
}

PIX *ocr_img_to_pix(const ocr_img *im)
{
    PIX *p;
    int x, y, wpl;
    l_uint32 *data;
    if (!im || !im->px || im->w <= 0 || im->h <= 0)
        return NULL;
    p = pixCreate(im->w, im->h, 8);
    if (!p)
        return NULL;
    data = pixGetData(p);
    wpl = pixGetWpl(p);
    for (y = 0; y < im->h; y++)
        for (x = 0; x < im->w; x++)
            SET_DATA_BYTE(data + (size_t)y * wpl, x, im->px[(size_t)y * im->w + x]);
    return p;
}

/* Connected components of ink (8-connected) with simple statistics. */
typedef struct {
    int x0, y0, x1, y1, area, dark;   /* dark: darkest grey in it */
    bool faint;                       /* dropped for its lightness only */
    bool light;                       /* dropped, not as ruling */
} comp;

/* Label ink pixels of a 0/1 mask; comps grown in *pc (count *pn). */
static xq_status components(const uint8_t *mask, const uint8_t *grey,
                            int w, int h, int *label, comp **pc, int *pn)
{
    int *stack = NULL, cap = 0, n = 0, ccap = 0, i;
    comp *cs = NULL;
    *pc = NULL;
    *pn = 0;
    for (i = 0; i < w * h; i++)
        label[i] = -1;
    stack = xq_malloc((size_t)(w * h + 1) * sizeof *stack);
    if (!stack)
        return XQ_ENOMEM;
    cap = w * h + 1;
    for (i = 0; i < w * h; i++) {
        int sp = 0;
        comp c;
        if (!mask[i] || label[i] >= 0)
            continue;
        if (n == ccap) {
            int nc = ccap ? 2 * ccap : 32;
            comp *p = xq_realloc(cs, (size_t)nc * sizeof *p);
            if (!p) {
                xq_free(cs);
                xq_free(stack);
                return XQ_ENOMEM;
            }
            cs = p;
            ccap = nc;
        }
        c.x0 = c.x1 = i % w;
        c.y0 = c.y1 = i / w;
        c.area = 0;
        c.dark = 255;
        c.faint = c.light = false;
        label[i] = n;
        stack[sp++] = i;
        while (sp > 0) {
            int p = stack[--sp], px = p % w, py = p / w, dx, dy;
            c.area++;
            if (grey[p] < c.dark) c.dark = grey[p];
            if (px < c.x0) c.x0 = px;
            if (px > c.x1) c.x1 = px;
            if (py < c.y0) c.y0 = py;
            if (py > c.y1) c.y1 = py;
            for (dy = -1; dy <= 1; dy++)
                for (dx = -1; dx <= 1; dx++) {
                    int qx = px + dx, qy = py + dy, q;
                    if (qx < 0 || qy < 0 || qx >= w || qy >= h)
                        continue;
                    q = qy * w + qx;
                    if (mask[q] && label[q] < 0 && sp < cap) {
                        label[q] = n;
                        stack[sp++] = q;
                    }
                }
        }
        cs[n++] = c;
    }
    xq_free(stack);
    *pc = cs;
    *pn = n;
    return XQ_OK;
}

/* The straight line best covered by component li's ink from its left
 * end to its right end (rows ya at x0 and yb at x1, ink within 1 pixel of
 * the line counted): *pcov gets the share of its columns covered. */
static void best_line(const int *label, int w, const comp *k, int li,
                      int *pya, int *pyb, double *pcov)
{
    int ya, yb, x, cw = k->x1 - k->x0 + 1;
    *pcov = 0;
    *pya = *pyb = k->y0;
    for (ya = k->y0; ya <= k->y1; ya++)
        for (yb = k->y0; yb <= k->y1; yb++) {
            int hit = 0;
            for (x = k->x0; x <= k->x1; x++) {
                int y = ya + (int)lround((double)(yb - ya) * (x - k->x0) /
                                         (cw > 1 ? cw - 1 : 1)), dy;
                for (dy = -1; dy <= 1; dy++)
                    if (y + dy >= k->y0 && y + dy <= k->y1 &&
                        label[(y + dy) * w + x] == li) {
                        hit++;
                        break;
                    }
            }
            if ((double)hit / cw > *pcov) {
                *pcov = (double)hit / cw;
                *pya = ya;
                *pyb = yb;
            }
        }
}

/* The height of a written glyph: the tallest piece of ink no wider than
 * two of its heights (a glyph's main stroke group spans it). */
static int glyph_height(const comp *cs, int n)
{
    int i, gh = 0;
    for (i = 0; i < n; i++)
        if (cs[i].area > 0 && cs[i].x1 - cs[i].x0 < 2 * (cs[i].y1 - cs[i].y0 + 1)
            && cs[i].y1 - cs[i].y0 + 1 > gh)
            gh = cs[i].y1 - cs[i].y0 + 1;
    return gh;
}

/* The line of a strike-through: from row ya at column x0, slope rows per
 * column. */
typedef struct {
    int    x0, ya;
    double slope;
} sline;

static int line_y(const sline *l, int x)
{
    return (int)lround(l->ya + l->slope * (x - l->x0));
}

/* The widest piece of ink that is a stroke across a record: a glyph and a
 * quarter wide at least (the stroke may be broken in two; whole, it must
 * cross two glyphs and a half: a record is four), no taller than a glyph
 * and a half, covered by a straight line nearly all along, and near level
 * (rising less than a glyph over its length). -1 none; *pl its line. */
static int find_stroke(const comp *cs, int n, const int *label, int w, int gh,
                       sline *pl)
{
    int i, best = -1;
    for (i = 0; i < n; i++) {
        const comp *k = &cs[i];
        int cw = k->x1 - k->x0 + 1, ya, yb;
        double cov;
        if (k->area <= 0 || 4 * cw < 5 * gh || k->y1 - k->y0 + 1 > 3 * gh / 2 + 2)
            continue;
        best_line(label, w, k, i, &ya, &yb, &cov);
        if (cov < 0.9 || abs(yb - ya) > gh)
            continue;
        if (best < 0 || cw > cs[best].x1 - cs[best].x0 + 1) {
            best = i;
            pl->x0 = k->x0;
            pl->ya = ya;
            pl->slope = (double)(yb - ya) / (k->x1 > k->x0 ? k->x1 - k->x0 : 1);
        }
    }
    return best;
}

/* The stroke may be broken: pieces of ink along its line as wide as a
 * stroke candidate, next to the struck span [*psx0, *psx1], lengthen it
 * (they are marked gone). */
static void grow_stroke(const comp *cs, int n, const int *label, int w, int h,
                        int gh, const sline *l, bool *gone, int *psx0, int *psx1)
{
    bool grown = true;
    int i, x, y;
    while (grown) {
        grown = false;
        for (i = 0; i < n; i++) {
            const comp *k = &cs[i];
            int kw = k->x1 - k->x0 + 1, on = 0, dy;
            if (gone[i] || k->area <= 0 || 4 * kw < 5 * gh ||
                (k->x1 >= *psx0 && k->x0 <= *psx1) ||
                k->x0 > *psx1 + gh || k->x1 < *psx0 - gh)
                continue;
            for (x = k->x0; x <= k->x1; x++)
                for (dy = -1; dy <= 1; dy++) {
                    y = line_y(l, x) + dy;
                    if (y >= 0 && y < h && label[y * w + x] == i) {
                        on++;
                        break;
                    }
                }
            if (10 * on < 6 * kw)
                continue;
            gone[i] = grown = true;
            if (k->x0 < *psx0) *psx0 = k->x0;
            if (k->x1 > *psx1) *psx1 = k->x1;
        }
    }
}

/* The struck glyphs: every piece over the span [sx0, sx1] the stroke
 * passes through or all but touches, or centred within half a glyph of it
 * (a stroke of a struck glyph it missed), is marked gone. */
static void mark_struck(const comp *cs, int n, int gh, const sline *l,
                        int sx0, int sx1, bool *gone)
{
    int i;
    for (i = 0; i < n; i++) {
        const comp *k = &cs[i];
        int xc = (k->x0 + k->x1) / 2, yl = line_y(l, xc);
        if (gone[i] || k->area <= 0 || xc < sx0 || xc > sx1)
            continue;
        if ((yl >= k->y0 - 2 && yl <= k->y1 + 2) ||
            abs((k->y0 + k->y1) / 2 - yl) * 2 <= gh)
            gone[i] = true;
    }
}

/* Whether the stroke goes through the middle of what it strikes: ink of
 * the gone pieces both above and below it, as much in all as the stroke
 * is long (not a frame's edge or an underline). */
static bool strikes_through(const int *label, int w, int h, const sline *l,
                            const bool *gone, int sx0, int sx1)
{
    int x, y, above = 0, below = 0;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int lb = label[y * w + x], yl;
            if (lb < 0 || !gone[lb])
                continue;
            yl = line_y(l, x);
            if (y < yl - 2)
                above++;
            else if (y > yl + 2)
                below++;
        }
    return above + below >= sx1 - sx0 + 1 && above >= (above + below) / 10 &&
           below >= (above + below) / 10;
}

/* The ink of a record written again on one side of the struck one (above,
 * below, before or after it): nearly all the glyph-sized ink left on that
 * side (the rest, leftovers of the struck glyphs, is marked gone with
 * them), as wide as a record (two glyphs and a half). Specks do not
 * count. Its area, 0 when there is no such side; -1 out of memory. */
static int rewritten_ink(const comp *cs, int n, int gh, const sline *l,
                         int sx0, bool *gone)
{
    int side_area[4] = { 0, 0, 0, 0 }, total = 0, where = -1, left = 0;
    int lx0 = 0, lx1 = -1, i, pass;
    signed char *at = xq_malloc((size_t)n);
    if (!at)
        return -1;
    for (i = 0; i < n; i++) {
        const comp *k = &cs[i];
        int xc = (k->x0 + k->x1) / 2, yc = (k->y0 + k->y1) / 2;
        at[i] = -1;
        if (k->area <= 0 || gone[i] ||
            (3 * (k->y1 - k->y0 + 1) < gh && 3 * (k->x1 - k->x0 + 1) < gh))
            continue;
        if (2 * abs(yc - line_y(l, xc)) > gh)
            at[i] = yc < line_y(l, xc) ? 2 : 3;
        else
            at[i] = xc < sx0 ? 0 : 1;
        side_area[(int)at[i]] += k->area;
        total += k->area;
    }
    for (pass = 0; pass < 4; pass++)
        if (where < 0 || side_area[pass] > side_area[where])
            where = pass;
    if (total == 0 || 20 * side_area[where] < 17 * total) {
        xq_free(at);
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (at[i] < 0)
            continue;
        if (at[i] != where) {
            gone[i] = true;
            continue;
        }
        left += cs[i].area;
        if (lx1 < 0 || cs[i].x0 < lx0) lx0 = cs[i].x0;
        if (cs[i].x1 > lx1) lx1 = cs[i].x1;
    }
    xq_free(at);
    return left > 0 && 2 * (lx1 - lx0 + 1) >= 5 * gh ? left : 0;
}

/* A strike-through the pieces of ink do not show as a stroke: too light
 * to be ink (a thin pen line on a scan, under the weak level, left as
 * specks), or a pen line wavering through the glyphs it crosses, broken
 * into them, across one of two lines of writing, one above the other (a
 * record struck through and written again below or above it). The
 * straight, near level line across that line of writing, from its first
 * ink to its last, darkest against the paper 5 and 6 rows either side of
 * it (within 2 rows of it) where it crosses the gaps between glyphs
 * (columns with no ink 3 or 4 rows either side of it). Found where that
 * contrast is 15 levels at least and 2.5 times the paper's noise, nearly
 * all along a glyph's width of gaps at least. True and *pl, [*psx0,
 * *psx1] the line where found. */
static bool find_light_stroke(const ocr_cell *c, const comp *cs, int n,
                              const int *label, int gh, sline *pl, int *psx0,
                              int *psx1)
{
    int w = c->grey.w, h = c->grey.h, i, band, nb = 0, split = -1;
    int by0[2] = { h, h }, by1[2] = { -1, -1 }, bx0[2] = { w, w };
    int bx1[2] = { -1, -1 };
    double best = 0;
    bool found = false;
    const uint8_t *g = c->grey.px;
    if (!g || w != c->ink.w || h != c->ink.h || gh < 6)
        return false;
    /* two lines of writing: the glyph-sized pieces' centres fall into two
     * bands, 0.6 of a glyph's height apart at least (split: the row
     * between) */
    {
        int lo = h, hi = -1, y, gap = 0, run = 0;
        bool *row = xq_calloc((size_t)h, sizeof *row);
        if (!row)
            return false;
        for (i = 0; i < n; i++)
            if (cs[i].area > 0 && 2 * (cs[i].y1 - cs[i].y0 + 1) >= gh) {
                int yc = (cs[i].y0 + cs[i].y1) / 2;
                row[yc] = true;
                if (yc < lo) lo = yc;
                if (yc > hi) hi = yc;
            }
        for (y = lo; y <= hi; y++) {
            run = row[y] ? 0 : run + 1;
            if (run > gap) {
                gap = run;
                split = y - run / 2;
            }
        }
        xq_free(row);
        if (hi < 0 || 5 * (gap + 1) < 3 * gh)
            return false;
    }
    for (i = 0; i < n; i++) {
        int b;
        if (cs[i].area <= 0 || 3 * (cs[i].y1 - cs[i].y0 + 1) < gh)
            continue;
        b = (cs[i].y0 + cs[i].y1) / 2 > split;
        if (cs[i].y0 < by0[b]) by0[b] = cs[i].y0;
        if (cs[i].y1 > by1[b]) by1[b] = cs[i].y1;
        if (cs[i].x0 < bx0[b]) bx0[b] = cs[i].x0;
        if (cs[i].x1 > bx1[b]) bx1[b] = cs[i].x1;
    }
    for (band = 0; band < 2; band++)
        nb += bx1[band] >= 0 && 2 * (bx1[band] - bx0[band] + 1) >= 5 * gh;
    if (nb < 2)
        return false;
    for (band = 0; band < 2; band++) {
        int ya, dy, span = bx1[band] - bx0[band];
        for (ya = by0[band]; ya <= by1[band]; ya++)
            for (dy = -gh / 4; dy <= gh / 4; dy++) {
                double sum = 0, noise = 0;
                int x, ngap = 0, dark = 0;
                for (x = bx0[band]; x <= bx1[band]; x++) {
                    int yl = ya + (int)lround((double)dy * (x - bx0[band]) /
                                              (span > 0 ? span : 1));
                    int y, v = 255, d, e;
                    bool ink = false;
                    if (yl < 6 || yl + 6 >= h)
                        break;
                    for (y = yl - 4; y <= yl + 4 && !ink; y++)
                        ink = (y < yl - 2 || y > yl + 2) &&
                              label[y * w + x] >= 0 &&
                              cs[label[y * w + x]].area > 0;
                    if (ink)
                        continue;
                    for (y = yl - 2; y <= yl + 2; y++)
                        if (g[y * w + x] < v)
                            v = g[y * w + x];
                    d = (g[(yl - 5) * w + x] + g[(yl + 5) * w + x] +
                         g[(yl - 6) * w + x] + g[(yl + 6) * w + x]) / 4 - v;
                    e = g[(yl - 6) * w + x] - g[(yl + 6) * w + x];
                    sum += d;
                    dark += d > 0;
                    noise += (double)e * e;
                    ngap++;
                }
                if (x <= bx1[band] || ngap < gh || 10 * dark < 9 * ngap)
                    continue;
                sum /= ngap;
                noise = sqrt(noise / (2.0 * ngap));
                if (sum >= 15 && sum >= 2.5 * noise && sum > best) {
                    best = sum;
                    found = true;
                    pl->x0 = bx0[band];
                    pl->ya = ya;
                    pl->slope = (double)dy / (span > 0 ? span : 1);
                    *psx0 = bx0[band];
                    *psx1 = bx1[band];
                }
            }
    }
    return found;
}

/* A record struck through and written again (beside it, above or below):
 * a straight stroke across a word-wide stretch of ink, near level, with
 * ink elsewhere in the cell that it does not cross. The struck word (the
 * stroke and every piece of ink it passes through) is taken out of the
 * cell's ink, so that the rewritten record is what is read. Nothing is
 * changed when the rest is too little to be a record (a record struck
 * out and not written again stays as written, for the reader to find it
 * unreadable): the rewritten record must be a quarter of the cell's ink
 * at least. Returns whether the cell was struck and rewritten. */
static bool strike_rewrite(ocr_cell *c, comp *cs, int n, const int *label,
                           int ink, int minink)
{
    int w = c->ink.w, h = c->ink.h, gh = glyph_height(cs, n), best, sx0, sx1;
    int left = 0, x, y, pass;
    sline line = { 0, 0, 0.0 };
    bool *gone;
    if (gh < 4)
        return false;
    gone = xq_calloc((size_t)n, sizeof *gone);
    if (!gone)
        return false;
    /* the stroke as a piece of ink; else (none, or too short: a pen line
     * broken into the glyphs it crosses) as a line darker than the paper
     * across the gaps between them (find_light_stroke) */
    for (pass = 0; pass < 2 && left == 0; pass++) {
        memset(gone, 0, (size_t)n * sizeof *gone);
        if (pass == 0) {
            best = find_stroke(cs, n, label, w, gh, &line);
            if (best < 0)
                continue;
            gone[best] = true;
            sx0 = cs[best].x0;
            sx1 = cs[best].x1;
            grow_stroke(cs, n, label, w, h, gh, &line, gone, &sx0, &sx1);
        } else if (!find_light_stroke(c, cs, n, label, gh, &line, &sx0,
                                      &sx1)) {
            break;
        }
        if (2 * (sx1 - sx0 + 1) >= 5 * gh) {
            mark_struck(cs, n, gh, &line, sx0, sx1, gone);
            if (strikes_through(label, w, h, &line, gone, sx0, sx1))
                left = rewritten_ink(cs, n, gh, &line, sx0, gone);
        }
    }
    if (left < minink || left >= ink || 4 * left < ink) {
        xq_free(gone);
        return false;
    }
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int l = label[y * w + x];
            if (l >= 0 && gone[l])
                c->ink.px[y * w + x] = 255;
        }
    xq_free(gone);
    return true;
}

/* A cell whose largest piece of ink is shorter, both ways, than a quarter
 * of the cell's height is blank: dust, specks of toner or grain scattered
 * over it, however many, are not writing (a scan with a few specks in each
 * cell had every blank cell read as a record: 246 plies, a false WXF 3.1.F
 * finding). Writing has a stroke at least that long: over the three bench
 * sets and 40 held-out photos (9,924 written cells) the largest piece is
 * 0.41 of the cell's height at the least. */
#define BLANK_EXT 4

/* Crop, clean and classify one cell as blank or written. */
static xq_status cell_extract(xq_sheet *sh, ocr_cell *c, int weak, int strong)
{
    int x0, y0, x1, y1, w, h, x, y, i, n = 0, ink = 0, minink;
    uint8_t *mask = NULL;
    int *label = NULL;
    comp *cs = NULL;
    PIX *crop;
    BOX *box;
    xq_status st;

    x0 = (int)ceil(fmax(c->q[0], c->q[6])) + 2;
    x1 = (int)floor(fmin(c->q[2], c->q[4])) - 2;
    y0 = (int)ceil(fmax(c->q[1], c->q[3])) + 2;
    y1 = (int)floor(fmin(c->q[5], c->q[7])) - 2;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > sh->nw) x1 = sh->nw;
    if (y1 > sh->nh) y1 = sh->nh;
    w = x1 - x0;
    h = y1 - y0;
    c->ibox[0] = x0;
    c->ibox[1] = y0;
    c->ibox[2] = w;
    c->ibox[3] = h;
    c->blank = true;
    if (w < 8 || h < 8)
        return XQ_OK;
    box = boxCreate(x0, y0, w, h);
    if (!box)
        return XQ_ENOMEM;
    crop = pixClipRectangle(sh->pixg, box, NULL);
    boxDestroy(&box);
    if (!crop)
        return XQ_ENOMEM;
    st = ocr_img_from_pix(crop, &c->grey);
    pixDestroy(&crop);
    if (st != XQ_OK)
        return st;
    mask = xq_malloc((size_t)w * h);
    label = xq_malloc((size_t)w * h * sizeof *label);
    c->ink.px = xq_malloc((size_t)w * h);
    if (!mask || !label || !c->ink.px) {
        xq_free(mask);
        xq_free(label);
        return XQ_ENOMEM;
    }
    c->ink.w = w;
    c->ink.h = h;
    /* hysteresis: pixels darker than INK_WEAK form strokes, kept when
     * some pixel of the stroke is darker than INK_STRONG (light or blurred
     * ink survives; printed grey guides and paper texture do not) */
    for (i = 0; i < w * h; i++)
        mask[i] = c->grey.px[i] < weak;
    st = components(mask, c->grey.px, w, h, label, &cs, &n);
    if (st != XQ_OK) {
        xq_free(mask);
        xq_free(label);
        return st;
    }
    {
        int speck = h * h / 600 > 4 ? h * h / 600 : 4;
        for (i = 0; i < n; i++) {
            comp *k = &cs[i];
            int cw = k->x1 - k->x0 + 1, ch = k->y1 - k->y0 + 1;
            bool border = k->x0 == 0 || k->y0 == 0 || k->x1 == w - 1
                          || k->y1 == h - 1;
            bool drop = k->area < speck || k->dark >= strong;
            bool rule = false;
            /* leftovers of the ruling along the border */
            if (border && ch <= h / 8 + 2 && cw >= w / 3)
                rule = true;
            if (border && cw <= 5 && ch >= h * 2 / 3)
                rule = true;
            /* dropped for its lightness alone, yet maybe a faint stroke
             * (see below): no speck of grain (a speck's area, 3 px at
             * least both ways, a pixel a quarter of the way from the weak
             * level to the strong one), no line (a lost hairline, a
             * guide: four times longer than thick and longer than the
             * cell is high, or half as high upright) and no blurred
             * leftover of the ruling flat along the border */
            k->faint = drop && !rule && k->area >= speck
                       && k->dark <= weak - (weak - strong) / 4
                       && cw >= 3 && ch >= 3
                       && !(cw >= 4 * ch && cw > h)
                       && !(ch >= 4 * cw && ch > h / 2)
                       && !(border && cw >= w / 3 && ch <= h / 4);
            k->light = drop && !rule;
            if (drop || rule)
                k->area = -k->area;   /* mark dropped */
        }
    }
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int l = label[y * w + x];
            bool on = l >= 0 && cs[l].area > 0;
            c->ink.px[y * w + x] = on ? 0 : 255;
            ink += on;
        }
    minink = (int)(0.003 * w * h);
    if (minink < 25)
        minink = 25;
    {
        /* a second look at a cell that seems blank: thin strokes of faint
         * ink (a light pen, blurred to a few pixels) may nowhere reach the
         * strong level, yet they hang together in pieces of stroke size
         * that paper grain does not make. When such pieces hold as much
         * ink as a written cell they are its writing; lines (ruling
         * leftovers, a lost hairline across the cell) are not counted.
         * Cells with ink enough of the strong kind are left as they are. */
        if (ink < minink) {
            int sink = 0;
            for (i = 0; i < n; i++)
                if (cs[i].faint)
                    sink += -cs[i].area;
            if (ink + sink >= minink) {
                for (y = 0; y < h; y++)
                    for (x = 0; x < w; x++) {
                        int l = label[y * w + x];
                        if (l >= 0 && cs[l].faint) {
                            c->ink.px[y * w + x] = 0;
                            ink++;
                        }
                    }
            }
        }
        /* the longer side of the largest piece of ink */
        int ext = 0;
        for (i = 0; i < n; i++) {
            int cw = cs[i].x1 - cs[i].x0 + 1, ch = cs[i].y1 - cs[i].y0 + 1;
            int side = cw > ch ? cw : ch;
            if ((cs[i].area > 0 || (cs[i].faint && ink >= minink)) && side > ext)
                ext = side;
        }
        c->blank = ink < minink || BLANK_EXT * ext < h;
    }
    /* strike-through: one component far wider than tall crossing most of
     * the written ink, with other ink around it; or a record struck
     * through and written again, whose struck part strike_rewrite takes
     * out of the ink (the reading is then the rewritten record's) */
    c->struck = false;
    if (!c->blank) {
        int ix0 = w, ix1 = -1;
        for (i = 0; i < n; i++)
            if (cs[i].area > 0) {
                if (cs[i].x0 < ix0) ix0 = cs[i].x0;
                if (cs[i].x1 > ix1) ix1 = cs[i].x1;
            }
        for (i = 0; i < n; i++) {
            comp *k = &cs[i];
            int cw = k->x1 - k->x0 + 1, ch = k->y1 - k->y0 + 1;
            if (k->area > 0 && cw >= 0.8 * (ix1 - ix0 + 1) && cw > 4 * ch
                && cw > 2 * h && k->area < 0.5 * ink)
                c->struck = true;
        }
        if (strike_rewrite(c, cs, n, label, ink, minink))
            c->struck = true;
    }
    /* Light strokes left out of written ink: a thin pen, or a thin
     * typeface blurred by a low-resolution scan, loses strokes or parts
     * of strokes to the cleaning (三 read as 一, 2 as 1, 进 as 退). The
     * cell keeps a second ink with them added, pieces of stroke size
     * (4 pixels or more, not a single pixel thick both ways) lighter
     * than the strong level but not paper grain's lightest, within the
     * box of the ink kept; ocr_cell_score reads both. */
    if (!c->blank && !c->struck) {
        int bx0 = w, by0 = h, bx1 = -1, by1 = -1, nl = 0;
        int lim = weak - (weak - strong) / 4;
        for (i = 0; i < n; i++)
            if (cs[i].area > 0) {
                if (cs[i].x0 < bx0) bx0 = cs[i].x0;
                if (cs[i].y0 < by0) by0 = cs[i].y0;
                if (cs[i].x1 > bx1) bx1 = cs[i].x1;
                if (cs[i].y1 > by1) by1 = cs[i].y1;
            }
        for (i = 0; i < n; i++) {
            comp *k = &cs[i];
            k->light = k->light && k->area <= -4 && k->dark <= lim
                       && k->x0 >= bx0 && k->x1 <= bx1 && k->y0 >= by0
                       && k->y1 <= by1
                       && (k->x1 - k->x0 >= 2 || k->y1 - k->y0 >= 2);
            nl += k->light;
        }
        if (nl > 0) {
            c->faint.px = xq_malloc((size_t)w * h);
            if (!c->faint.px) {
                st = XQ_ENOMEM;
            } else {
                c->faint.w = w;
                c->faint.h = h;
                for (i = 0; i < w * h; i++) {
                    int l = label[i];
                    c->faint.px[i] = l >= 0 && cs[l].light ? 0 : c->ink.px[i];
                }
            }
        }
    }
    xq_free(cs);
    xq_free(mask);
    xq_free(label);
    return st;
}

/* Interior of a cell, 3 px inside its quad, clipped to the page. */
static void cell_inner(const xq_sheet *sh, const ocr_cell *c, int *px0,
                       int *py0, int *px1, int *py1)
{
    *px0 = (int)fmax(c->q[0], c->q[6]) + 3;
    *px1 = (int)fmin(c->q[2], c->q[4]) - 3;
    *py0 = (int)fmax(c->q[1], c->q[3]) + 3;
    *py1 = (int)fmin(c->q[5], c->q[7]) - 3;
    if (*px0 < 0) *px0 = 0;
    if (*py0 < 0) *py0 = 0;
    if (*px1 > sh->nw) *px1 = sh->nw;
    if (*py1 > sh->nh) *py1 = sh->nh;
}

/* Paper level of each cell (its commonest grey: the median, writing
 * covering less than half of a cell) into med[]. */
static void cell_paper(const xq_sheet *sh, int *med)
{
    l_uint32 *data = pixGetData(sh->pixg);
    int wpl = pixGetWpl(sh->pixg);
    size_t i;
    for (i = 0; i < sh->ncells; i++) {
        long hist[256] = {0}, total = 0, acc = 0;
        int x0, y0, x1, y1, x, y, v;
        cell_inner(sh, &sh->cells[i], &x0, &y0, &x1, &y1);
        med[i] = 200;
        for (y = y0; y < y1; y += 2)
            for (x = x0; x < x1; x += 2) {
                hist[GET_DATA_BYTE(data + (size_t)y * wpl, x)]++;
                total++;
            }
        for (v = 0; v < 256 && total > 0; v++) {
            acc += hist[v];
            if (acc * 2 >= total) {
                med[i] = v;
                break;
            }
        }
    }
}

/* Ink thresholds for the page's cells, from the grey levels inside them
 * taken against each cell's own paper level med[] (shaded rows, light
 * falling unevenly: every cell's paper reads 200): paper is the commonest
 * level, ink the darker tail. A stroke is made of pixels darker than
 * weak and holds at least one darker than strong (hysteresis): light or
 * blurred ink survives, printed grey guides and paper texture do not.
 * The levels returned are for paper at 200. */
static void ink_levels(const xq_sheet *sh, const int *med, int *pweak,
                       int *pstrong)
{
    long hist[256] = {0}, total = 0, acc, dark = 0;
    int paper = 200, ink = 40, v;
    /* ink is what is clearly darker than paper; on xqscan's form, with its
     * guides painted out, any darker trace is writing */
    int tail = sh->form ? 20 : 40;
    size_t i;
    l_uint32 *data = pixGetData(sh->pixg);
    int wpl = pixGetWpl(sh->pixg);
    for (i = 0; i < sh->ncells; i++) {
        int x0, y0, x1, y1, x, y;
        cell_inner(sh, &sh->cells[i], &x0, &y0, &x1, &y1);
        for (y = y0; y < y1; y += 2)
            for (x = x0; x < x1; x += 2) {
                v = GET_DATA_BYTE(data + (size_t)y * wpl, x) - med[i] + 200;
                hist[v < 0 ? 0 : v > 255 ? 255 : v]++;
                total++;
            }
    }
    if (total > 0) {
        for (acc = 0, v = 0; v < 256; v++) {
            acc += hist[v];
            if (acc * 2 >= total) {
                paper = v;
                break;
            }
        }
        for (v = 0; v < paper - tail; v++)
            dark += hist[v];
        if (dark > 200) {
            for (acc = 0, v = 0; v < paper - tail; v++) {
                acc += hist[v];
                if (acc * 5 >= dark) {
                    ink = v;
                    break;
                }
            }
        }
    }
    /* pens are dark: a "darkest tail" lighter than this is printed grey
     * (guides, shading) on a page with little or no writing. How light
     * it may be follows the paper's own noise: a stroke must hold a pixel
     * that no paper grain reaches (6 sigma, at least 25 levels, below
     * paper), so faint blurred ink on a clean low-resolution photo keeps
     * its strokes while grey print stays out. On xqscan's form the guides
     * are painted out (grid.c), so what is left is writing, however faint
     * a blurred photo made it. */
    if (!sh->form) {
        double sigma = 1, c;
        int cap;
        if (total > 0) {
            for (acc = 0, v = 0; v < 256; v++) {
                acc += hist[v];
                if (acc * 4 >= total)
                    break;
            }
            sigma = (paper - v) / 0.674;
        }
        c = fmax(6 * sigma, 25);
        cap = (int)(paper - c / 0.55);
        if (cap < 118)
            cap = 118;
        if (ink > cap)
            ink = cap;
    }
    if (ink > paper - 50)
        ink = paper - 50;
    *pstrong = ink + (paper - ink) * 45 / 100;
    *pweak = ink + (paper - ink) * 75 / 100;
}

xq_status ocr_cells_extract(xq_sheet *sh)
{
    size_t i;
    int weak, strong, *med;
    xq_status st = XQ_OK;
    if (sh->ncells == 0)
        return XQ_OK;
    med = xq_malloc(sh->ncells * sizeof *med);
    if (!med)
        return XQ_ENOMEM;
    cell_paper(sh, med);
    ink_levels(sh, med, &weak, &strong);
    /* each cell's levels follow its own paper */
    for (i = 0; i < sh->ncells && st == XQ_OK; i++)
        st = cell_extract(sh, &sh->cells[i], weak + med[i] - 200,
                          strong + med[i] - 200);
    xq_free(med);
    return st;
}

static bool label_text(const char *t)
{
    static const char *const words[] = {
        "红", "紅", "黑", "方", "Red", "RED", "red", "Black", "BLACK", "black",
        "回合", "着法", "Move", "MOVE", "No."
    };
    size_t i;
    for (i = 0; i < XQ_ARRAY_LEN(words); i++)
        if (strstr(t, words[i]))
            return true;
    return false;
}

void ocr_cell_free(ocr_cell *c)
{
    ocr_img_free(&c->ink);
    ocr_img_free(&c->faint);
    ocr_img_free(&c->grey);
    xq_free(c->text);
    xq_free(c->read);
    xq_free(c->lat.ll);
    xq_free(c->flat.ll);
}

static void cell_clear(ocr_cell *c)
{
    ocr_cell_free(c);
    memset(c, 0, sizeof *c);
}

static double cell_height(const ocr_cell *c)
{
    return (c->q[7] + c->q[5] - c->q[1] - c->q[3]) / 2;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Is the first row of block b a row of column labels? Printed words such
 * as 红方 / Black read by Tesseract, or a row clearly lower than the move
 * rows below it. */
static xq_status block_label_row(xq_ocr *ocr, xq_sheet *sh, size_t b,
                                 bool *plabel)
{
    size_t first = sh->blk_first[b], end, k, n = 0;
    double *hs, med;
    *plabel = false;
    end = b + 1 < sh->nblocks ? sh->blk_first[b + 1] : sh->ncells;
    if (end <= first + 2)
        return XQ_OK;
    hs = xq_malloc((end - first) / 2 * sizeof *hs);
    if (!hs)
        return XQ_ENOMEM;
    for (k = first + 2; k < end; k += 2)
        hs[n++] = cell_height(&sh->cells[k]);
    qsort(hs, n, sizeof *hs, cmp_dbl);
    med = hs[n / 2];
    xq_free(hs);
    if (cell_height(&sh->cells[first]) < 0.8 * med) {
        *plabel = true;
        return XQ_OK;
    }
    if (!ocr->tess.api)
        return XQ_OK;
    for (k = first; k < first + 2 && !*plabel; k++) {
        ocr_cell *c = &sh->cells[k];
        if (c->blank)
            continue;
        XQ_TRY(ocr_cell_text(ocr, c));
        *plabel = c->text && label_text(c->text);
    }
    return XQ_OK;
}

/* Ink of a cell of the move-number column (quad q on the binarised page):
 * the union box of its pieces of ink at least a sixth of the row high
 * (specks and the ruling's edges left out); *pw 0 when it has none. */
static void num_ink(PIX *grey, const double q[8], int *pw, int *ph)
{
    double x0 = fmax(q[0], q[6]), x1 = fmin(q[2], q[4]);
    double y0 = fmax(q[1], q[3]), y1 = fmin(q[5], q[7]);
    double rh = y1 - y0, mx = 0.06 * (x1 - x0) + 2, my = 0.1 * rh + 2;
    int bx0 = 1 << 30, by0 = 1 << 30, bx1 = -1, by1 = -1, i, n;
    BOX *box;
    PIX *sub;
    BOXA *ba;
    *pw = *ph = 0;
    if (!grey || x1 - x0 < 2 * mx + 4 || rh < 2 * my + 4)
        return;
    box = boxCreate((int)(x0 + mx), (int)(y0 + my), (int)(x1 - x0 - 2 * mx),
                    (int)(rh - 2 * my));
    sub = box ? pixClipRectangle(grey, box, NULL) : NULL;
    boxDestroy(&box);
    /* ink: clearly darker than the cell's own paper (printed numbers
     * may be lighter than any fixed level on a photo) */
    if (sub) {
        NUMA *hist = pixGetGrayHistogram(sub, 1);
        l_float32 paper = 0;
        PIX *ib = NULL;
        if (hist && numaHistogramGetValFromRank(hist, 0.7f, &paper) == 0
            && paper > 60)
            ib = pixThresholdToBinary(sub, (int)paper - 45);
        numaDestroy(&hist);
        pixDestroy(&sub);
        sub = ib;
    }
    ba = sub ? pixConnCompBB(sub, 8) : NULL;
    pixDestroy(&sub);
    if (!ba)
        return;
    n = boxaGetCount(ba);
    for (i = 0; i < n; i++) {
        l_int32 x, y, w, h;
        boxaGetBoxGeometry(ba, i, &x, &y, &w, &h);
        if (h < rh / 6 && w < rh / 6)
            continue;
        if (x < bx0) bx0 = x;
        if (y < by0) by0 = y;
        if (x + w > bx1) bx1 = x + w;
        if (y + h > by1) by1 = y + h;
    }
    boxaDestroy(&ba);
    if (bx1 > bx0) {
        *pw = bx1 - bx0;
        *ph = by1 - by0;
    }
}

/* Is the first row of block b a label row by its move-number column? The
 * next two rows hold numbers (ink of about one height) and the first row
 * none, or ink much wider than theirs (a word such as No. or 回合 above a
 * column whose first number is 1). */
static bool number_label_row(const xq_sheet *sh, size_t b)
{
    int w[3], h[3], r;
    if (!sh->num_found[b])
        return false;
    for (r = 0; r < 3; r++)
        num_ink(sh->pixg, sh->num_q[b][r], &w[r], &h[r]);
    if (!w[1] || !w[2] || h[1] > 1.4 * h[2] || h[2] > 1.4 * h[1])
        return false;
    return !w[0] || w[0] > 1.5 * (w[1] > w[2] ? w[1] : w[2]);
}

/* Ink box of a cleaned cell image; false when it has no ink. */
static bool ink_box(const ocr_img *im, int *px0, int *py0, int *px1,
                    int *py1, int *pn)
{
    int x, y, n = 0;
    *px0 = im->w, *py0 = im->h, *px1 = -1, *py1 = -1;
    for (y = 0; y < im->h; y++)
        for (x = 0; x < im->w; x++)
            if (im->px[y * im->w + x] < INK_T) {
                n++;
                if (x < *px0) *px0 = x;
                if (x > *px1) *px1 = x;
                if (y < *py0) *py0 = y;
                if (y > *py1) *py1 = y;
            }
    *pn = n;
    return n > 0;
}

/* Ink pixels of a (box origin ax, ay, size aw x ah) that are ink in b
 * too, a's box placed at b's origin (bx, by) shifted by dx, dy. */
static int ink_overlap(const ocr_img *a, int ax, int ay, int aw, int ah,
                       const ocr_img *b, int bx, int by, int dx, int dy)
{
    int x, y, hit = 0;
    for (y = 0; y < ah; y++)
        for (x = 0; x < aw; x++) {
            int u = bx + x + dx, v = by + y + dy;
            if (a->px[(ay + y) * a->w + ax + x] < INK_T && u >= 0 && v >= 0
                && u < b->w && v < b->h && b->px[v * b->w + u] < INK_T)
                hit++;
        }
    return hit;
}

/* Do two cells hold the same ink, as a printed label repeated over every
 * block does (and two different handwritten or printed moves do not)?
 * Boxes of the same size, and each one's ink within a pixel of the
 * other's at the best small shift. */
static bool ink_same(const ocr_cell *a, const ocr_cell *b)
{
    int ax0, ay0, ax1, ay1, na, bx0, by0, bx1, by1, nb, aw, ah, bw, bh;
    int dx, dy;
    double best = 0;
    if (a->blank || b->blank || !a->ink.px || !b->ink.px)
        return false;
    if (!ink_box(&a->ink, &ax0, &ay0, &ax1, &ay1, &na)
        || !ink_box(&b->ink, &bx0, &by0, &bx1, &by1, &nb))
        return false;
    aw = ax1 - ax0 + 1, ah = ay1 - ay0 + 1;
    bw = bx1 - bx0 + 1, bh = by1 - by0 + 1;
    if (abs(aw - bw) > 0.15 * (aw > bw ? aw : bw) + 2
        || abs(ah - bh) > 0.15 * (ah > bh ? ah : bh) + 2
        || na > 2 * nb || nb > 2 * na)
        return false;
    /* Jaccard index of the two ink masks at the best small shift */
    for (dy = -2; dy <= 2; dy++)
        for (dx = -2; dx <= 2; dx++) {
            int both = ink_overlap(&a->ink, ax0, ay0, aw, ah, &b->ink, bx0,
                                   by0, dx + (bw - aw) / 2, dy + (bh - ah) / 2);
            double j = (double)both / (na + nb - both);
            if (j > best)
                best = j;
        }
    return best >= 0.8;
}

xq_status ocr_cells_drop_label_rows(xq_ocr *ocr, xq_sheet *sh)
{
    size_t b, k, nb = sh->nblocks < 16 ? sh->nblocks : 16;
    bool any = false;
    /* forms print the same labels over every block: the first rows of two
     * blocks holding the same ink in both columns, or one block that shows
     * them (a word over the numbers of its move-number column, a shorter
     * row, or words read), is enough to drop the first row of all */
    for (b = 1; b < nb && !any; b++) {
        size_t f0 = sh->blk_first[0], fb = sh->blk_first[b];
        any = fb + 1 < sh->ncells && f0 + 1 < fb
              && ink_same(&sh->cells[f0], &sh->cells[fb])
              && ink_same(&sh->cells[f0 + 1], &sh->cells[fb + 1]);
    }
    for (b = 0; b < nb && !any; b++)
        any = number_label_row(sh, b);
    for (b = 0; b < nb && !any; b++)
        XQ_TRY(block_label_row(ocr, sh, b, &any));
    if (!any)
        return XQ_OK;
    for (b = nb; b-- > 0;) {
        size_t first = sh->blk_first[b];
        if (first + 1 >= sh->ncells)
            continue;
        cell_clear(&sh->cells[first]);
        cell_clear(&sh->cells[first + 1]);
        memmove(&sh->cells[first], &sh->cells[first + 2],
                (sh->ncells - first - 2) * sizeof *sh->cells);
        sh->ncells -= 2;
        sh->nrows--;
        memset(&sh->cells[sh->ncells], 0, 2 * sizeof *sh->cells);
        for (k = b + 1; k < nb; k++)
            sh->blk_first[k] -= 2;
    }
    return XQ_OK;
}

/* ---- lattice ---- */

static int range_index(int i, int j, int nseg)
{
    /* ranges (i..j), i <= j < nseg, row-major over i */
    return i * nseg - i * (i - 1) / 2 + (j - i);
}

/* A piece of ink: a connected component, or the columns x0..x1-1 of one
 * when the component spans several glyphs (joined writing). */
typedef struct {
    int comp, x0, x1, seg;
} ink_piece;

static int cmp_piece(const void *a, const void *b)
{
    const ink_piece *p = a, *q = b;
    return p->x0 != q->x0 ? (p->x0 > q->x0) - (p->x0 < q->x0)
                          : (p->x1 > q->x1) - (p->x1 < q->x1);
}

/* Cut columns a..b-1 of a projection into pieces no wider than about
 * 1.2 glyph heights, at the weakest column of the middle part. */
static int split_wide(const int *proj, int a, int b, int ink_h, int *cuts,
                      int ncut, int max)
{
    int x, best = -1, bv = 1 << 30;
    if (b - a <= OCR_GLYPH_W * ink_h || ncut >= max)
        return ncut;
    for (x = a + (b - a) / 5; x < b - (b - a) / 5; x++)
        if (proj[x] < bv) {
            bv = proj[x];
            best = x;
        }
    if (best <= a || best >= b)
        return ncut;
    ncut = split_wide(proj, a, best, ink_h, cuts, ncut, max);
    if (ncut < max)
        cuts[ncut++] = best;
    return split_wide(proj, best, b, ink_h, cuts, ncut, max);
}

#define OCR_MAX_PIECES 96

/* Class log-probabilities of every admissible range of consecutive
 * segments of one segmentation: segof gives each ink pixel's segment,
 * segx the segments' x extents; results in range_ok / llbase, and each
 * range's best glyph similarity in sim (may be NULL). */
static void classify_ranges(xq_ocr *ocr, const ocr_lattice *L,
                            const signed char *segof, const int *segx,
                            int ns, int w, int h, ocr_img *sub,
                            float *range_ok, float *sim, float *llbase)
{
    int i, j, k, x, y, nclass = ocr->model.nclass;
    float feat[OCR_FEAT_DIM], mx;
    for (i = 0; i < ns; i++)
        for (j = i; j < ns; j++) {
            int r = range_index(i, j, ns), a = w, b = 0, s, by0 = h, by1 = -1;
            float *ll = &llbase[(size_t)r * nclass];
            float relw, relh;
            range_ok[r] = -1;
            for (s = i; s <= j; s++) {
                if (segx[2 * s] < a) a = segx[2 * s];
                if (segx[2 * s + 1] > b) b = segx[2 * s + 1];
            }
            relw = (float)(b - a) / L->ink_h;
            if (j > i && relw > 1.5f)
                continue;
            /* the range's own ink, on white */
            sub->w = b - a;
            sub->h = h;
            for (y = 0; y < h; y++)
                for (x = a; x < b; x++) {
                    int sg = segof[y * w + x];
                    bool on = sg >= i && sg <= j;
                    sub->px[y * sub->w + x - a] = on ? 0 : 255;
                    if (on) {
                        if (y < by0) by0 = y;
                        if (y > by1) by1 = y;
                    }
                }
            if (!ocr_glyph_features(sub, 0, 0, sub->w, sub->h, feat))
                continue;
            mx = ocr_glyph_classify(&ocr->model, feat, ll);
            if (sim)
                sim[r] = mx;
            /* size prior: Chinese glyphs are about as wide as the writing
             * is high; digits and signs narrower */
            relh = (float)(by1 - by0 + 1) / L->ink_h;
            for (k = 0; k < nclass; k++) {
                const char *g = ocr_glyph_classes[k];
                bool ascii = (unsigned char)g[0] < 0x80;
                bool flat = !strcmp(g, "一") || !strcmp(g, "二")
                            || !strcmp(g, "三") || !strcmp(g, "四")
                            || !strcmp(g, "六") || !strcmp(g, "八")
                            || !strcmp(g, "七") || !strcmp(g, "五")
                            || !strcmp(g, "-") || !strcmp(g, "=")
                            || !strcmp(g, "+") || !strcmp(g, ".");
                if (!ascii && relw < 0.45f)
                    ll[k] -= 12.0f * (0.45f - relw) / 0.45f;
                if (!ascii && !flat && relh < 0.6f)
                    ll[k] -= 10.0f * (0.6f - relh) / 0.6f;
                if (ascii && relw > 1.0f)
                    ll[k] -= 8.0f * (relw - 1.0f);
                if (relw > 1.25f)
                    ll[k] -= 6.0f * (relw - 1.25f);
            }
            /* every class gets the best of its variant group */
            for (k = 0; k < nclass; k++) {
                int gk = ocr->model.group[k];
                if (gk != k && ll[k] > ll[gk])
                    ll[gk] = ll[k];
            }
            for (k = 0; k < nclass; k++)
                ll[k] = ll[ocr->model.group[k]];
            range_ok[r] = 0;
        }
}

/* How much the ink looks like writing of the move alphabet: over the
 * splits of the first segmentation into 3 to 6 admissible ranges (a
 * record's glyphs), the best mean of the ranges' glyph similarity; -1
 * when there is no such split (ink in many pieces, each too wide to join:
 * a tangle of strokes). */
static float glyph_fit(const ocr_lattice *L)
{
    enum { KMIN = 3, KMAX = 6 };
    float best[KMAX + 1][OCR_MAX_SEG + 1], fit = -1;
    int ns = L->nseg, k, i, j;
    for (k = 0; k <= KMAX; k++)
        for (j = 0; j <= ns; j++)
            best[k][j] = -1e9f;
    best[0][0] = 0;
    for (k = 1; k <= KMAX; k++)
        for (j = 1; j <= ns; j++)
            for (i = 0; i < j; i++) {
                int r = range_index(i, j - 1, ns);
                float v;
                if (L->range_ok[r] != 0 || best[k - 1][i] < -1e8f)
                    continue;
                v = best[k - 1][i] + L->sim[r];
                if (v > best[k][j])
                    best[k][j] = v;
            }
    for (k = KMIN; k <= KMAX; k++)
        if (best[k][ns] > -1e8f && best[k][ns] / k > fit)
            fit = best[k][ns] / k;
    return fit;
}

/* Merge neighbouring segments (narrowest union first) down to max;
 * renumbers the pieces' segments when pc is given. */
static int cap_segments(int *segx, int ns, int max, ink_piece *pc, int np)
{
    int i, k;
    while (ns > max) {
        int bi = 0, bw = 1 << 30;
        for (i = 0; i + 1 < ns; i++) {
            int a = segx[2 * i] < segx[2 * i + 2] ? segx[2 * i] : segx[2 * i + 2];
            int b = segx[2 * i + 1] > segx[2 * i + 3] ? segx[2 * i + 1] : segx[2 * i + 3];
            if (b - a < bw) {
                bw = b - a;
                bi = i;
            }
        }
        if (segx[2 * bi + 2] < segx[2 * bi])
            segx[2 * bi] = segx[2 * bi + 2];
        if (segx[2 * bi + 3] > segx[2 * bi + 1])
            segx[2 * bi + 1] = segx[2 * bi + 3];
        memmove(&segx[2 * (bi + 1)], &segx[2 * (bi + 2)],
                (size_t)(ns - bi - 2) * 2 * sizeof(int));
        for (k = 0; pc && k < np; k++)
            if (pc[k].seg > bi)
                pc[k].seg--;
        ns--;
    }
    return ns;
}

/* The widest connected piece of a cell's ink (L->join_w, L->join_fill):
 * a record's glyphs stand apart or touch a neighbour; ink joined across
 * more than two is cursive, or a tangle scribbled over the record. */
static void join_piece(const comp *cs, int n, ocr_lattice *L)
{
    int i, wi = -1, ww = 0;
    L->join_w = L->join_fill = 0;
    for (i = 0; i < n; i++)
        if (cs[i].x1 - cs[i].x0 + 1 > ww) {
            ww = cs[i].x1 - cs[i].x0 + 1;
            wi = i;
        }
    if (wi < 0)
        return;
    L->join_w = (float)ww / L->ink_h;
    L->join_fill = (float)cs[wi].area /
                   ((float)ww * (cs[wi].y1 - cs[wi].y0 + 1));
}

/* Lattice L of a cell's ink im (its ink or its faint ink; NULL: a blank
 * cell, no ink to read). */
static xq_status lattice_build(xq_ocr *ocr, const ocr_img *im,
                               ocr_lattice *L)
{
    int w = im ? im->w : 0, h = im ? im->h : 0, x, y, iy0 = h, iy1 = -1;
    int ix0 = w, ix1 = -1;
    long nink = 0;
    int ns = 0, np = 0, ncomp = 0, i, k, nclass = ocr->model.nclass;
    int *label = NULL, *proj = NULL, segx[2 * OCR_MAX_PIECES];
    uint8_t *mask = NULL;
    signed char *segof = NULL;
    comp *cs = NULL;
    ink_piece pc[OCR_MAX_PIECES];
    ocr_img sub = {0};
    xq_status st = XQ_OK;

    if (L->done)
        return XQ_OK;
    L->nseg = L->nseg2 = 0;
    L->fit = -1;
    L->ink_fill = 0;
    if (!im || !im->px) {
        L->done = true;
        return XQ_OK;
    }
    mask = xq_malloc((size_t)w * h);
    label = xq_malloc((size_t)w * h * sizeof *label);
    proj = xq_calloc((size_t)w + 1, sizeof *proj);
    segof = xq_malloc((size_t)w * h);
    sub.px = xq_malloc((size_t)w * h);
    if (!mask || !label || !proj || !segof || !sub.px) {
        st = XQ_ENOMEM;
        goto done;
    }
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            mask[y * w + x] = im->px[y * w + x] < INK_T;
            if (mask[y * w + x]) {
                if (y < iy0) iy0 = y;
                if (y > iy1) iy1 = y;
                if (x < ix0) ix0 = x;
                if (x > ix1) ix1 = x;
                nink++;
            }
        }
    L->ink_h = iy1 >= iy0 ? iy1 - iy0 + 1 : 1;
    /* the share of the ink's box that is ink: a scribble over a record
     * adds ink within the record's box */
    L->ink_fill = ix1 >= ix0 ? (float)nink / ((float)(ix1 - ix0 + 1) * L->ink_h)
                             : 0;
    st = components(mask, im->px, w, h, label, &cs, &ncomp);
    if (st != XQ_OK)
        goto done;
    join_piece(cs, ncomp, L);
    xq_free(L->ll);
    L->ll = xq_malloc((size_t)OCR_MAX_LATS * OCR_MAX_RANGES * nclass
                      * sizeof(float));
    if (!L->ll) {
        st = XQ_ENOMEM;
        goto done;
    }

    /* Segmentation 1, by components: pieces are components, wide ones
     * cut at their own weakest columns; pieces grouped into elementary
     * segments while they overlap in x by half the narrower (a glyph's
     * parts overlap; a slanted or long stroke reaching under its
     * neighbour overlaps that neighbour only a little). */
    for (i = 0; i < ncomp && np < OCR_MAX_PIECES; i++) {
        int cuts[16], nc = 0, a = cs[i].x0, b = cs[i].x1 + 1;
        if (b - a > OCR_GLYPH_W * L->ink_h) {
            memset(proj + a, 0, (size_t)(b - a) * sizeof *proj);
            for (y = cs[i].y0; y <= cs[i].y1; y++)
                for (x = a; x < b; x++)
                    proj[x] += label[y * w + x] == i;
            nc = split_wide(proj, a, b, L->ink_h, cuts, 0, 16);
        }
        for (k = 0; k <= nc && np < OCR_MAX_PIECES; k++) {
            pc[np].comp = i;
            pc[np].x0 = k == 0 ? a : cuts[k - 1];
            pc[np].x1 = k == nc ? b : cuts[k];
            np++;
        }
    }
    qsort(pc, (size_t)np, sizeof *pc, cmp_piece);
    for (i = 0; i < np; i++) {
        int pw = pc[i].x1 - pc[i].x0;
        if (ns > 0) {
            int sx0 = segx[2 * (ns - 1)], sx1 = segx[2 * ns - 1];
            int ov = (pc[i].x1 < sx1 ? pc[i].x1 : sx1)
                   - (pc[i].x0 > sx0 ? pc[i].x0 : sx0);
            int mn = pw < sx1 - sx0 ? pw : sx1 - sx0;
            if (ov > 0 && 2 * ov >= mn) {
                pc[i].seg = ns - 1;
                if (pc[i].x1 > sx1)
                    segx[2 * ns - 1] = pc[i].x1;
                continue;
            }
        }
        pc[i].seg = ns;
        segx[2 * ns] = pc[i].x0;
        segx[2 * ns + 1] = pc[i].x1;
        ns++;
    }
    ns = cap_segments(segx, ns, OCR_MAX_SEG, pc, np);
    for (i = 0; i < w * h; i++) {
        segof[i] = -1;
        if (mask[i] && label[i] >= 0) {
            int px = i % w;
            for (k = 0; k < np; k++)
                if (pc[k].comp == label[i] && px >= pc[k].x0 && px < pc[k].x1) {
                    segof[i] = (signed char)pc[k].seg;
                    break;
                }
        }
    }
    L->nseg = ns;
    memcpy(L->segx, segx, (size_t)ns * 2 * sizeof *segx);
    classify_ranges(ocr, L, segof, segx, ns, w, h, &sub, L->range_ok,
                    L->sim, L->ll);
    L->fit = glyph_fit(L);

    /* Segmentation 2, by columns: runs of inked columns, runs much wider
     * than a glyph cut at their weakest column. */
    memset(proj, 0, (size_t)w * sizeof *proj);
    for (i = 0; i < w * h; i++)
        proj[i % w] += mask[i];
    ns = 0;
    for (x = 0; x < w && ns < OCR_MAX_PIECES / 2; x++) {
        if (proj[x] && (x == 0 || !proj[x - 1]))
            segx[2 * ns] = x;
        if (proj[x] && (x == w - 1 || !proj[x + 1])) {
            int cuts[16], nc = split_wide(proj, segx[2 * ns], x + 1,
                                          L->ink_h, cuts, 0, 16);
            for (k = 0; k < nc && ns < OCR_MAX_PIECES / 2 - 1; k++) {
                segx[2 * ns + 1] = cuts[k];
                ns++;
                segx[2 * ns] = cuts[k];
            }
            segx[2 * ns + 1] = x + 1;
            ns++;
        }
    }
    ns = cap_segments(segx, ns, OCR_MAX_SEG, NULL, 0);
    for (i = 0; i < w * h; i++) {
        int px = i % w;
        segof[i] = -1;
        if (mask[i])
            for (k = 0; k < ns; k++)
                if (px >= segx[2 * k] && px < segx[2 * k + 1]) {
                    segof[i] = (signed char)k;
                    break;
                }
    }
    L->nseg2 = ns;
    memcpy(L->segx2, segx, (size_t)ns * 2 * sizeof *segx);
    classify_ranges(ocr, L, segof, segx, ns, w, h, &sub, L->range_ok2,
                    NULL, L->ll + (size_t)OCR_MAX_RANGES * nclass);
    L->done = true;
done:
    xq_free(cs);
    xq_free(mask);
    xq_free(label);
    xq_free(proj);
    xq_free(segof);
    xq_free(sub.px);
    return st;
}

xq_status ocr_cell_lattice(xq_ocr *ocr, ocr_cell *c)
{
    return lattice_build(ocr, c->blank ? NULL : &c->ink, &c->lat);
}

/* Scores are scaled so that a softmax over candidate strings is about
 * calibrated (bench_ocr prints the table): raw sums were over-confident. */
#define OCR_SCORE_SCALE 0.6
#define PEN_MISSING  (-18.0)   /* a candidate glyph with no ink for it */
#define PEN_EXTRA    (-10.0)   /* a segment of ink no glyph explains */
#define PEN_UNKNOWN  (-14.0)   /* a glyph outside the model's alphabet */
#define PEN_BLANK    (-40.0)   /* text against a blank cell and vice versa */

/* One segmentation of a cell's lattice. */
typedef struct {
    int          nseg;
    const float *range_ok;
    const float *ll;
} lat_view;

static lat_view lat_get(const xq_ocr *ocr, const ocr_lattice *L, int v)
{
    lat_view lv;
    lv.nseg = v ? L->nseg2 : L->nseg;
    lv.range_ok = v ? L->range_ok2 : L->range_ok;
    lv.ll = L->ll ? L->ll + (size_t)v * OCR_MAX_RANGES * ocr->model.nclass
                  : NULL;
    return lv;
}

/* Log-probability of glyph group grp for range r (max over variants). */
static float range_glyph(const ocr_glyph_model *m, const lat_view *L,
                         int r, int grp)
{
    return L->ll[(size_t)r * m->nclass + grp];
}

/* Variant groups of the glyphs of s (unknown glyphs: -2 - code point). */
static int groups_of(const xq_ocr *ocr, const char *s, int *g, int max)
{
    size_t len = strlen(s), off = 0;
    int n = 0, k;
    while (off < len && n < max) {
        uint32_t cp;
        int cls = -1;
        off += xq_utf8_decode(s + off, len - off, &cp);
        cp = xq_utf8_halfwidth(cp);
        if (cp == ' ' || cp == '\t')
            continue;
        if (cp >= 'a' && cp <= 'z')
            cp -= 'a' - 'A';
        for (k = 0; k < ocr->model.nclass; k++)
            if (ocr->model.cp[k] == cp) {
                cls = ocr->model.group[k];
                break;
            }
        if (cls < 0)
            cls = ocr_glyph_class_of(cp);
        g[n++] = cls >= 0 ? ocr_glyph_group(cls) : -2 - (int)(cp & 0xffff);
    }
    return n;
}

static int edit_distance(const int *a, int na, const int *b, int nb)
{
    int d[17][17], i, j;
    for (i = 0; i <= na; i++)
        d[i][0] = i;
    for (j = 0; j <= nb; j++)
        d[0][j] = j;
    for (i = 1; i <= na; i++)
        for (j = 1; j <= nb; j++) {
            int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            d[i][j] = v;
        }
    return d[na][nb];
}

/* The best alignment of glyph groups groups[0..n) to the segment ranges of
 * lattice L, over both its segmentations (raw units). */
static double lattice_best(const xq_ocr *ocr, const ocr_lattice *L,
                           const int *groups, int n)
{
    double best[17][OCR_MAX_SEG + 1], top = -1e18;
    int k, i, j, v;
    /* the best alignment over both segmentations of the ink */
    for (v = 0; v < OCR_MAX_LATS; v++) {
        lat_view V = lat_get(ocr, L, v);
        if (V.nseg == 0)
            continue;
        for (k = 0; k <= n; k++)
            for (j = 0; j <= V.nseg; j++)
                best[k][j] = -1e18;
        best[0][0] = 0;
        for (k = 0; k <= n; k++)
            for (j = 0; j <= V.nseg; j++) {
                double b = best[k][j];
                if (b <= -1e17)
                    continue;
                /* extra ink segment j */
                if (j < V.nseg && b + PEN_EXTRA > best[k][j + 1])
                    best[k][j + 1] = b + PEN_EXTRA;
                if (k == n)
                    continue;
                /* glyph k with no ink */
                if (b + PEN_MISSING > best[k + 1][j])
                    best[k + 1][j] = b + PEN_MISSING;
                /* glyph k on segments j..i */
                for (i = j; i < V.nseg; i++) {
                    int r = range_index(j, i, V.nseg);
                    double sv;
                    if (V.range_ok[r] != 0)
                        continue;
                    sv = groups[k] < 0 ? PEN_UNKNOWN
                                       : range_glyph(&ocr->model, &V, r, groups[k]);
                    if (b + sv > best[k + 1][i + 1])
                        best[k + 1][i + 1] = b + sv;
                }
            }
        if (best[n][V.nseg] > top)
            top = best[n][V.nseg];
    }
    return top;
}

double ocr_cell_score(xq_ocr *ocr, ocr_cell *c, const char *utf8)
{
    int groups[16], n, k;
    double top;
    ocr_lattice *L = &c->lat;

    n = groups_of(ocr, utf8, groups, 16);
    for (k = 0; k < n; k++)
        if (groups[k] < 0)
            groups[k] = -1;   /* a glyph outside the alphabet: PEN_UNKNOWN,
                                 never the same as Tesseract's */
    if (c->blank)
        return n == 0 ? 0.0 : PEN_BLANK * n;
    if (n == 0)
        return PEN_BLANK * 4;
    if (ocr_cell_lattice(ocr, c) != XQ_OK || L->nseg == 0)
        return PEN_MISSING * n;
    top = lattice_best(ocr, L, groups, n);
    /* the light strokes the cleaning left out, read too: the better
     * reading of the two counts (a candidate read only with them has
     * them to explain; pieces of grain it does not explain cost as any
     * unexplained ink) */
    if (c->faint.px && lattice_build(ocr, &c->faint, &c->flat) == XQ_OK
        && c->flat.nseg > 0) {
        double tf = lattice_best(ocr, &c->flat, groups, n);
        if (tf > top)
            top = tf;
    }
    {
        double sc = top;
        double w = ocr->tess_weight;
        /* Tesseract's reading, where it has one: each glyph it read
         * differently from the candidate costs w, times the share of
         * its glyphs that are in the move alphabet */
        if (w > 0 && ocr->tess.api) {
            int tg[16], nt;
            if (!c->text)
                (void)ocr_cell_text(ocr, c);
            if (c->text && c->text[0]) {
                nt = groups_of(ocr, c->text, tg, 16);
                if (nt > 0) {
                    /* a reading made mostly of glyphs outside the move
                     * alphabet says Tesseract could not read the cell:
                     * its in-alphabet glyphs are then weak evidence too */
                    int in = 0, q;
                    double f;
                    for (q = 0; q < nt; q++)
                        in += tg[q] >= 0;
                    f = (double)in / (nt > n ? nt : n);
                    sc -= w * f * edit_distance(groups, n, tg, nt);
                }
            }
        }
        return sc * OCR_SCORE_SCALE;
    }
}

/* ---- Tesseract on one cell ---- */

xq_status ocr_cell_text(xq_ocr *ocr, ocr_cell *c)
{
    const ocr_img *ink = &c->ink, *g = &c->grey;
    int x0 = ink->w, y0 = ink->h, x1 = -1, y1 = -1, x, y, pad, w, h;
    ocr_img out = {0};
    PIX *pix, *sc;
    double s;
    xq_status st;
    char *text = NULL;

    xq_free(c->text);
    c->text = NULL;
    if (c->blank || !ink->px || !ocr->tess.api) {
        c->text = xq_strdup("");
        return c->text ? XQ_OK : XQ_ENOMEM;
    }
    for (y = 0; y < ink->h; y++)
        for (x = 0; x < ink->w; x++)
            if (ink->px[y * ink->w + x] < INK_T) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
    if (x1 < x0) {
        c->text = xq_strdup("");
        return c->text ? XQ_OK : XQ_ENOMEM;
    }
    /* the ink's own grey levels on white paper, ink box plus a margin */
    w = x1 - x0 + 1;
    h = y1 - y0 + 1;
    pad = h / 3 + 2;
    out.w = w + 2 * pad;
    out.h = h + 2 * pad;
    out.px = xq_malloc((size_t)out.w * out.h);
    if (!out.px)
        return XQ_ENOMEM;
    memset(out.px, 255, (size_t)out.w * out.h);
    for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++) {
            bool near = false;
            int dx, dy;
            for (dy = -1; dy <= 1 && !near; dy++)
                for (dx = -1; dx <= 1 && !near; dx++) {
                    int qx = x + dx, qy = y + dy;
                    if (qx >= 0 && qy >= 0 && qx < ink->w && qy < ink->h
                        && ink->px[qy * ink->w + qx] < INK_T)
                        near = true;
                }
            if (near)
                out.px[(y - y0 + pad) * out.w + (x - x0 + pad)] =
                    g->px[y * g->w + x];
        }
    pix = ocr_img_to_pix(&out);
    ocr_img_free(&out);
    if (!pix)
        return XQ_ENOMEM;
    s = 36.0 / h;
    sc = (s > 0.9 && s < 1.1) ? pixClone(pix)
         : s < 1 ? pixScaleAreaMap(pix, (l_float32)s, (l_float32)s)
                 : pixScaleGrayLI(pix, (l_float32)s, (l_float32)s);
    pixDestroy(&pix);
    if (!sc)
        return XQ_ENOMEM;
    st = ocr_tess_line(&ocr->tess, sc, &text);
    pixDestroy(&sc);
    if (st != XQ_OK)
        return st;
    c->text = text;
    return XQ_OK;
}

/* ---- best reading: the lattice decoded under the shape of a move ---- */

static const char *const slot_pieces[] = {
    "帅", "将", "仕", "士", "相", "象", "马", "车", "炮", "兵", "卒"
};
static const char *const slot_pos[] = { "前", "中", "后" };
static const char *const slot_dir[] = { "进", "退", "平" };
static const char *const slot_cn[] = {
    "一", "二", "三", "四", "五", "六", "七", "八", "九"
};
static const char *const slot_dg[] = {
    "1", "2", "3", "4", "5", "6", "7", "8", "9"
};

typedef struct {
    const char *const *g;
    int n;
} slot_set;

#define SET(a) { a, (int)XQ_ARRAY_LEN(a) }

static int group_of_str(const char *s)
{
    uint32_t cp = 0;
    int cls;
    xq_utf8_decode(s, strlen(s), &cp);
    cls = ocr_glyph_class_of(cp);
    return cls >= 0 ? ocr_glyph_group(cls) : -1;
}

xq_status ocr_cell_read(xq_ocr *ocr, ocr_cell *c)
{
    static const slot_set shapes[3][4] = {
        { SET(slot_pieces), SET(slot_cn), SET(slot_dir), SET(slot_cn) },
        { SET(slot_pieces), SET(slot_dg), SET(slot_dir), SET(slot_dg) },
        { SET(slot_pos), SET(slot_pieces), SET(slot_dir), SET(slot_cn) },
    };
    ocr_lattice *L = &c->lat;
    double bestsc = -1e18;
    char out[64] = "";
    int sh, k, i, j, lv;
    xq_free(c->read);
    c->read = NULL;
    if (!c->blank)
        XQ_TRY(ocr_cell_lattice(ocr, c));
    if (c->blank || L->nseg == 0) {
        c->read = xq_strdup("");
        return c->read ? XQ_OK : XQ_ENOMEM;
    }
    for (lv = 0; lv < 3 * OCR_MAX_LATS; lv++) {
        lat_view V = lat_get(ocr, L, lv / 3);
        double best[5][OCR_MAX_SEG + 1] = { { 0 } };
        int from[5][OCR_MAX_SEG + 1], pick[5][OCR_MAX_SEG + 1];
        sh = lv % 3;
        if (V.nseg == 0)
            continue;
        for (k = 0; k <= 4; k++)
            for (j = 0; j <= V.nseg; j++)
                best[k][j] = -1e18;
        best[0][0] = 0;
        for (k = 0; k < 4; k++)
            for (j = 0; j < V.nseg; j++) {
                if (best[k][j] <= -1e17)
                    continue;
                /* unexplained ink before the next glyph */
                if (best[k][j] + PEN_EXTRA > best[k][j + 1]) {
                    best[k][j + 1] = best[k][j] + PEN_EXTRA;
                    from[k][j + 1] = -1;
                }
                for (i = j; i < V.nseg; i++) {
                    int r = range_index(j, i, V.nseg), m;
                    if (V.range_ok[r] != 0)
                        continue;
                    for (m = 0; m < shapes[sh][k].n; m++) {
                        int g = group_of_str(shapes[sh][k].g[m]);
                        double v = best[k][j] + range_glyph(&ocr->model, &V, r, g);
                        if (v > best[k + 1][i + 1]) {
                            best[k + 1][i + 1] = v;
                            from[k + 1][i + 1] = j;
                            pick[k + 1][i + 1] = m;
                        }
                    }
                }
            }
        /* trailing unexplained ink */
        for (j = 0; j < V.nseg; j++)
            if (best[4][j] + PEN_EXTRA * (V.nseg - j) > best[4][V.nseg]) {
                best[4][V.nseg] = best[4][j] + PEN_EXTRA * (V.nseg - j);
                from[4][V.nseg] = -2 - j;
            }
        if (best[4][V.nseg] > bestsc) {
            const char *gl[4];
            int pos = V.nseg, kk = 4;
            bool ok = true;
            bestsc = best[4][V.nseg];
            if (from[4][pos] <= -2)
                pos = -2 - from[4][pos];
            while (kk > 0 && ok) {
                if (from[kk][pos] == -1) {      /* skipped ink segment */
                    pos--;
                    continue;
                }
                if (from[kk][pos] < 0) {
                    ok = false;
                    break;
                }
                gl[kk - 1] = shapes[sh][kk - 1].g[pick[kk][pos]];
                pos = from[kk][pos];
                kk--;
            }
            if (ok)
                snprintf(out, sizeof out, "%s%s%s%s", gl[0], gl[1], gl[2], gl[3]);
        }
    }
    c->read = xq_strdup(out);
    return c->read ? XQ_OK : XQ_ENOMEM;
}

/* grid.c - find the move table from its ruling.
 *
 * 1. Long horizontal strokes: the binary page, dilated a little across the
 *    line direction (so slightly tilted lines keep long runs), opened with a
 *    long horizontal brick. Each connected piece is sampled every few pixels
 *    and fitted with a straight line y = a + b x; collinear pieces are
 *    merged. The same for vertical lines, whose minimum length comes from
 *    the row pitch. Fitting each line separately absorbs residual skew and
 *    keystone without warping the page.
 * 2. Columns: two neighbouring vertical lines with many horizontal lines
 *    crossing the space between them.
 * 3. Blocks: two adjacent wide columns (Red, Black) sharing a vertical line;
 *    narrower columns (move numbers) are ignored. 1 to 3 (or more) blocks,
 *    read left to right; any number of rows.
 * 4. Rows: consecutive horizontal lines crossing the block; a row twice the
 *    usual height (a ruling line lost in the scan) is split evenly.
 * A frame whose inner hairlines a bilevel scan lost (only specks left) gets
 * them back from the specks first (recover_lost_rules). A page where no
 * table is found so is read again with broken hairlines joined from their
 * dashes (dashed_lines).
 * Nothing here is specific to one form layout.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ocr_internal.h"

typedef struct {
    double a, b;       /* horizontal: y = a + b x; vertical: x = a + b y */
    double lo, hi;     /* extent along the line */
    double thick;      /* ink thickness across the line */
    double ink;        /* median darkness (paper 200 minus grey) */
    float *s;          /* samples (t, v) pairs */
    int    ns, cap;
    bool   dead;
    bool   dashed;     /* joined from the dashes of a broken hairline */
} gline;

typedef struct {
    gline *v;
    int    n, cap;
} glines;

static void glines_free(glines *L)
{
    int i;
    for (i = 0; i < L->n; i++)
        xq_free(L->v[i].s);
    xq_free(L->v);
    L->v = NULL;
    L->n = L->cap = 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double gl_at(const gline *l, double t) { return l->a + l->b * t; }

static bool fit(gline *l)
{
    int iter, i;
    for (iter = 0; iter < 2; iter++) {
        double st = 0, sv = 0, stt = 0, stv = 0, n = 0;
        for (i = 0; i < l->ns; i++) {
            double t = l->s[2 * i], v = l->s[2 * i + 1];
            if (iter > 0 && fabs(v - gl_at(l, t)) > 3.0)
                continue;
            st += t; sv += v; stt += t * t; stv += t * v; n += 1;
        }
        if (n < 2)
            return false;
        {
            double den = n * stt - st * st;
            if (fabs(den) < 1e-9) {
                l->b = 0;
                l->a = sv / n;
            } else {
                l->b = (n * stv - st * sv) / den;
                l->a = (sv - l->b * st) / n;
            }
        }
    }
    l->lo = 1e9;
    l->hi = -1e9;
    for (i = 0; i < l->ns; i++) {
        double t = l->s[2 * i];
        if (fabs(l->s[2 * i + 1] - gl_at(l, t)) > 3.0)
            continue;
        if (t < l->lo) l->lo = t;
        if (t > l->hi) l->hi = t;
    }
    return l->hi > l->lo;
}

static xq_status add_sample(gline *l, double t, double v)
{
    if (l->ns == l->cap) {
        int nc = l->cap ? 2 * l->cap : 64;
        float *p = xq_realloc(l->s, (size_t)nc * 2 * sizeof(float));
        if (!p)
            return XQ_ENOMEM;
        l->s = p;
        l->cap = nc;
    }
    l->s[2 * l->ns] = (float)t;
    l->s[2 * l->ns + 1] = (float)v;
    l->ns++;
    return XQ_OK;
}

static xq_status glines_push(glines *L, gline *l)
{
    if (L->n == L->cap) {
        int nc = L->cap ? 2 * L->cap : 64;
        gline *p = xq_realloc(L->v, (size_t)nc * sizeof *p);
        if (!p)
            return XQ_ENOMEM;
        L->v = p;
        L->cap = nc;
    }
    L->v[L->n++] = *l;
    return XQ_OK;
}

/* Pixel of a 1 bpp pix as 0/1 (no bounds check). */
#define PIXBIT(data, wpl, x, y) GET_DATA_BIT((data) + (size_t)(y) * (wpl), (x))

/* Lines of one orientation in the opened image op (1 bpp). */
static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

typedef struct {
    gline  l;
    double thick_sum, last;
    int    nthick, last_t;
    int   *dk, ndk, cdk;     /* darkness samples */
} gtrack;

#define MAX_TRACKS 8

/* Lines of one orientation in the opened image op (1 bpp). A connected
 * piece may hold several parallel lines (close double rulings merged by the
 * dilation): each run across the piece is followed as its own track. */
/* Darkest grey level across a line at t (along the page), within r px
 * of its position c (255 where all of it lies outside the page). */
static int grey_min_across(PIX *grey, bool vertical, int t, int c, int r)
{
    l_uint32 *data = pixGetData(grey);
    int wpl = pixGetWpl(grey), w = pixGetWidth(grey), h = pixGetHeight(grey);
    int u, mn = 255;
    for (u = c - r; u <= c + r; u++) {
        int x = vertical ? u : t, y = vertical ? t : u, v;
        if (x < 0 || y < 0 || x >= w || y >= h)
            continue;
        v = GET_DATA_BYTE(data + (size_t)y * wpl, x);
        if (v < mn)
            mn = v;
    }
    return mn;
}

static xq_status find_lines(PIX *op, PIX *grey, bool vertical, int minlen,
                            int widen, glines *out)
{
    BOXA *boxa = pixConnCompBB(op, 8);
    l_uint32 *data = pixGetData(op);
    int wpl = pixGetWpl(op), i, nb, k;
    gtrack tr[MAX_TRACKS];
    xq_status st = XQ_OK;
    if (!boxa)
        return XQ_ENOMEM;
    nb = boxaGetCount(boxa);
    for (i = 0; i < nb && st == XQ_OK; i++) {
        l_int32 bx, by, bw, bh, t, len, t0, t1;
        int ntr = 0;
        boxaGetBoxGeometry(boxa, i, &bx, &by, &bw, &bh);
        len = vertical ? bh : bw;
        if (len < minlen)
            continue;
        memset(tr, 0, sizeof tr);
        t0 = vertical ? by : bx;
        t1 = t0 + len;
        for (t = t0; t < t1 && st == XQ_OK; t += 3) {
            /* runs across the line direction at position t */
            int u0 = vertical ? bx : by, u1 = u0 + (vertical ? bw : bh), u;
            int cur = -1;
            for (u = u0; u <= u1 && st == XQ_OK; u++) {
                int on = u < u1 && (vertical ? PIXBIT(data, wpl, u, t)
                                             : PIXBIT(data, wpl, t, u));
                int rs, re, best = -1, mn = 255;
                double c, bd = 6;
                gtrack *g;
                if (on && cur < 0)
                    cur = u;
                if (on || cur < 0)
                    continue;
                rs = cur;
                re = u;
                cur = -1;
                c = (rs + re - 1) / 2.0;
                for (k = 0; k < ntr; k++)
                    if (t - tr[k].last_t <= 90 && fabs(tr[k].last - c) < bd) {
                        bd = fabs(tr[k].last - c);
                        best = k;
                    }
                if (best < 0) {
                    if (ntr == MAX_TRACKS)
                        continue;
                    best = ntr++;
                }
                g = &tr[best];
                g->last = c;
                g->last_t = t;
                st = add_sample(&g->l, t, c);
                g->thick_sum += re - rs;
                g->nthick++;
                mn = grey_min_across(grey, vertical, t, (int)c, 3);
                if (g->ndk == g->cdk) {
                    int nc = g->cdk ? 2 * g->cdk : 256;
                    int *p = xq_realloc(g->dk, (size_t)nc * sizeof *p);
                    if (!p) {
                        st = XQ_ENOMEM;
                        break;
                    }
                    g->dk = p;
                    g->cdk = nc;
                }
                g->dk[g->ndk++] = 200 - mn;
            }
        }
        for (k = 0; k < ntr; k++) {
            gtrack *g = &tr[k];
            if (st == XQ_OK && g->l.ns >= 4 && fit(&g->l)
                && g->l.hi - g->l.lo >= minlen * 0.8) {
                qsort(g->dk, (size_t)g->ndk, sizeof *g->dk, cmp_int);
                g->l.ink = g->ndk ? g->dk[g->ndk / 2] : 0;
                g->l.thick = g->nthick ? g->thick_sum / g->nthick - widen : 1;
                if (g->l.thick < 1)
                    g->l.thick = 1;
                st = glines_push(out, &g->l);
                if (st != XQ_OK)
                    xq_free(g->l.s);
            } else
                xq_free(g->l.s);
            xq_free(g->dk);
        }
    }
    boxaDestroy(&boxa);
    return st;
}

/* Drop lines much fainter than the page's ruling (printed guides, shading,
 * text that lines up): the ruling is the darkest long structure. Forms mix
 * thick outer rules with hairlines, which a photo blurs to a third of the
 * thick ones' darkness; such a faint line stays when it is as long as the
 * dark ones and no darker line runs beside it closer than near (guides
 * drawn just inside a cell's ruling). */
static void drop_faint(glines *L, double near)
{
    double ref, *v, maxlen = 0;
    int i, j, m = 0;
    if (L->n < 4)
        return;
    v = xq_malloc((size_t)L->n * sizeof *v);
    if (!v)
        return;
    for (i = 0; i < L->n; i++)
        v[i] = L->v[i].ink;
    qsort(v, (size_t)L->n, sizeof *v, cmp_double);
    ref = v[L->n * 9 / 10];
    xq_free(v);
    for (i = 0; i < L->n; i++)
        if (L->v[i].ink >= 0.33 * ref && L->v[i].hi - L->v[i].lo > maxlen)
            maxlen = L->v[i].hi - L->v[i].lo;
    for (i = 0; i < L->n; i++) {
        gline *l = &L->v[i];
        bool drop = false;
        if (l->ink < 0.33 * ref) {
            drop = l->ink < 0.15 * ref || l->hi - l->lo < 0.6 * maxlen;
            for (j = 0; j < L->n && !drop; j++) {
                const gline *o = &L->v[j];
                double t0 = fmax(l->lo, o->lo), t1 = fmin(l->hi, o->hi);
                if (j == i || o->ink < 2 * l->ink || t1 <= t0)
                    continue;
                drop = fabs(gl_at(o, (t0 + t1) / 2) - gl_at(l, (t0 + t1) / 2))
                       < near;
            }
        }
        L->v[i].dead = drop;
    }
    for (i = 0; i < L->n; i++) {
        if (L->v[i].dead) {
            xq_free(L->v[i].s);
            continue;
        }
        L->v[m++] = L->v[i];
    }
    L->n = m;
}

/* Merge pieces of one ruling line (collinear, gap or overlap). */
static xq_status merge_lines(glines *L, double tol)
{
    int i, j, changed = 1;
    while (changed) {
        changed = 0;
        for (i = 0; i < L->n; i++) {
            gline *p = &L->v[i];
            if (p->dead)
                continue;
            for (j = i + 1; j < L->n; j++) {
                gline *q = &L->v[j];
                double tm, k;
                if (q->dead)
                    continue;
                /* compare at the middle between the two pieces */
                tm = (fmax(p->lo, q->lo) + fmin(p->hi, q->hi)) / 2.0;
                if (fabs(gl_at(p, tm) - gl_at(q, tm)) > tol)
                    continue;
                /* also near their far ends, so crossing lines do not merge */
                if (fabs(gl_at(p, q->lo) - gl_at(q, q->lo)) > 2 * tol
                    || fabs(gl_at(p, q->hi) - gl_at(q, q->hi)) > 2 * tol
                    || fabs(gl_at(q, p->lo) - gl_at(p, p->lo)) > 2 * tol
                    || fabs(gl_at(q, p->hi) - gl_at(p, p->hi)) > 2 * tol)
                    continue;
                for (k = 0; k < q->ns; k++)
                    XQ_TRY(add_sample(p, q->s[2 * (int)k], q->s[2 * (int)k + 1]));
                p->thick = (p->thick + q->thick) / 2;
                p->ink = (p->ink + q->ink) / 2;
                p->dashed = p->dashed || q->dashed;
                q->dead = true;
                (void)fit(p);
                changed = 1;
            }
        }
    }
    /* compact */
    for (i = j = 0; i < L->n; i++) {
        if (L->v[i].dead) {
            xq_free(L->v[i].s);
            continue;
        }
        L->v[j++] = L->v[i];
    }
    L->n = j;
    return XQ_OK;
}


/* Intersection of horizontal line h and vertical line v. */
static void cross(const gline *h, double hoff, const gline *v, double voff,
                  double *px, double *py)
{
    /* y = ah + hoff + bh x ; x = av + voff + bv y */
    double ah = h->a + hoff, av = v->a + voff;
    double x = (av + v->b * ah) / (1.0 - v->b * h->b);
    *px = x;
    *py = ah + h->b * x;
}

typedef struct {
    int     l, r;         /* vertical line indices */
    int    *rows;         /* horizontal line indices, by y */
    int     nrows;
    double  xmid, width, ymid;
} gcol;

static int g_sort_key_cmp(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

#define LINE_CONTRAST 24
/* longest gap bridged between the dashes of a broken hairline: about 6 mm
 * on a sheet filling the page */
#define DASH_GAP(w, h) ((w) > (h) ? (w) / 30 : (h) / 30)

/* Thin dark structures across the given direction, as a 1 bpp mask. */
static PIX *line_mask(PIX *grey, PIX *bin, bool vertical)
{
    PIX *th = vertical ? pixTophat(grey, 15, 1, L_TOPHAT_BLACK)
                       : pixTophat(grey, 1, 15, L_TOPHAT_BLACK);
    PIX *inv, *m;
    if (!th)
        return NULL;
    inv = pixInvert(NULL, th);
    pixDestroy(&th);
    if (!inv)
        return NULL;
    m = pixThresholdToBinary(inv, 256 - LINE_CONTRAST);
    pixDestroy(&inv);
    /* where a line crosses a thick line the top-hat is blind: the plain
     * binarisation keeps dark rulings continuous there */
    if (m)
        pixOr(m, m, bin);
    return m;
}

/* Share of a line's extent along which the page is dark on the line
 * (within 2 px across): near 1 for a ruling line, well below for a "line"
 * strung through a column of written or printed glyphs. */
static double dark_cover_in(const gline *l, PIX *grey, bool vertical,
                            double t0, double t1)
{
    double t, need = 0.5 * l->ink;
    long n = 0, dark = 0;
    for (t = t0; t <= t1; t += 2) {
        int mn = grey_min_across(grey, vertical, (int)t,
                                 (int)floor(gl_at(l, t) + 0.5), 2);
        n++;
        dark += 200 - mn >= need;
    }
    return n ? (double)dark / n : 0;
}

static double dark_cover(const gline *l, PIX *grey, bool vertical)
{
    return dark_cover_in(l, grey, vertical, l->lo, l->hi);
}

/* Grow a line's extent along the page while it stays dark (gaps up to
 * 12 px): faint hairlines are often found over part of their length. */
static void extend_line(gline *l, PIX *grey, bool vertical)
{
    int w = pixGetWidth(grey), h = pixGetHeight(grey);
    int dir, lim = vertical ? h : w;
    double need = 0.5 * l->ink;
    for (dir = -1; dir <= 1; dir += 2) {
        double t = dir < 0 ? l->lo : l->hi, last = t;
        while (t >= 0 && t < lim && fabs(t - last) <= 12) {
            int mn = grey_min_across(grey, vertical, (int)t,
                                     (int)floor(gl_at(l, t) + 0.5), 2);
            if (200 - mn >= need)
                last = t;
            t += dir;
        }
        if (dir < 0)
            l->lo = last;
        else
            l->hi = last;
    }
}

/* Dashed rules: a hairline that a bilevel scanner kept only in part is a
 * row of thin dashes and specks (at most 3 px across, nothing attached)
 * on one straight line, with gaps longer than line_mask's closing bridges.
 * (Strokes across the direction are taken out first, so that a dash
 * crossing a dash of the other family stays one.)
 * Such pieces are joined across gaps up to gap px into lines at least
 * minlen long, and a joined line is kept only where no line was found and
 * it looks like a rule, not like writing that happens to line up: its
 * dashes cover a third of its length and every eighth of it, and lie on
 * the line itself, within 1 px of it, with hardly any thin ink 3-5 px to
 * either side (broken strokes of writing scatter about the line, and a
 * glyph's other strokes stand beside it). Lines found are pushed to out,
 * marked dashed. */
static xq_status dashed_lines(PIX *grey, bool vertical, int minlen, int gap,
                              glines *out)
{
    PIX *m = pixThresholdToBinary(grey, 200 - LINE_CONTRAST), *dm = NULL;
    PIX *c = NULL, *op = NULL;
    PIXA *pa = NULL;
    BOXA *ba = NULL;
    glines C = {0};
    int n0 = out->n, i, k;
    xq_status st = XQ_OK;
    if (!m)
        return XQ_ENOMEM;
    /* strokes across the direction taken out first: a dash crossing a
     * dash of the other family stays a dash */
    {
        PIX *o = vertical ? pixOpenBrick(NULL, m, 4, 1)
                          : pixOpenBrick(NULL, m, 1, 4);
        if (!o) {
            pixDestroy(&m);
            return XQ_ENOMEM;
        }
        pixSubtract(m, m, o);
        pixDestroy(&o);
    }
    ba = pixConnComp(m, &pa, 8);
    dm = ba ? pixCreateTemplate(m) : NULL;
    if (!dm) {
        st = XQ_ENOMEM;
        goto out;
    }
    for (i = 0; i < boxaGetCount(ba); i++) {
        l_int32 x, y, w, h;
        PIX *p;
        boxaGetBoxGeometry(ba, i, &x, &y, &w, &h);
        if ((vertical ? w : h) > 3 || (vertical ? h : w) < (vertical ? w : h))
            continue;
        p = pixaGetPix(pa, i, L_CLONE);
        if (p) {
            pixRasterop(dm, x, y, w, h, PIX_SRC | PIX_DST, p, 0, 0);
            pixDestroy(&p);
        }
    }
    c = vertical ? pixCloseBrick(NULL, dm, 1, gap)
                 : pixCloseBrick(NULL, dm, gap, 1);
    if (c)
        pixDilateBrick(c, c, vertical ? 3 : 1, vertical ? 1 : 3);
    op = c ? (vertical ? pixOpenBrick(NULL, c, 1, minlen)
                       : pixOpenBrick(NULL, c, minlen, 1)) : NULL;
    if (!op) {
        st = XQ_ENOMEM;
        goto out;
    }
    st = find_lines(op, grey, vertical, minlen, 2, &C);
    if (st == XQ_OK)
        st = merge_lines(&C, 3.0);
    {
        l_uint32 *d = pixGetData(dm);
        int wpl = pixGetWpl(dm), W = pixGetWidth(dm), Hh = pixGetHeight(dm);
        for (k = 0; k < C.n && st == XQ_OK; k++) {
            gline *l = &C.v[k];
            double len = l->hi - l->lo, tm = (l->lo + l->hi) / 2;
            int t, on = 0, side = 0, bins[8] = { 0 }, nb = 0, *dk, ndk = 0;
            bool dup = false;
            for (i = 0; i < n0 && !dup; i++) {
                const gline *o = &out->v[i];
                double ov = fmin(o->hi, l->hi) - fmax(o->lo, l->lo);
                dup = ov >= 0.5 * len && fabs(gl_at(o, tm) - gl_at(l, tm)) < 5;
            }
            if (dup || len < minlen)
                continue;
            dk = xq_malloc(((size_t)len + 2) * sizeof *dk);
            if (!dk) {
                st = XQ_ENOMEM;
                break;
            }
            for (t = (int)ceil(l->lo); t <= (int)floor(l->hi); t++) {
                int u0 = (int)floor(gl_at(l, t) + 0.5), u, hit = 0, aside = 0;
                for (u = u0 - 5; u <= u0 + 5; u++) {
                    int x = vertical ? u : t, y = vertical ? t : u;
                    if (x < 0 || y < 0 || x >= W || y >= Hh
                        || !PIXBIT(d, wpl, x, y))
                        continue;
                    if (abs(u - u0) <= 1)
                        hit = 1;
                    else if (abs(u - u0) >= 3)
                        aside = 1;
                }
                if (hit) {
                    on++;
                    bins[(int)(8 * (t - l->lo) / (len + 1))] = 1;
                    dk[ndk++] = 200 - grey_min_across(grey, vertical, t, u0, 1);
                }
                side += aside;
            }
            for (i = 0; i < 8; i++)
                nb += bins[i];
            if (on >= 0.15 * len && side <= 0.25 * on && nb == 8) {
                gline g = *l;
                qsort(dk, (size_t)ndk, sizeof *dk, cmp_int);
                g.ink = dk[ndk / 2];
                g.thick = 1;
                g.dashed = true;
                st = glines_push(out, &g);
                if (st == XQ_OK)
                    l->s = NULL;          /* now owned by out */
            }
            xq_free(dk);
        }
    }
out:
    glines_free(&C);
    pixDestroy(&op);
    pixDestroy(&c);
    pixDestroy(&dm);
    boxaDestroy(&ba);
    pixaDestroy(&pa);
    pixDestroy(&m);
    return st;
}

/* Ruling lines of a page: horizontal lines into *H, vertical ones into *V,
 * with the opened line images (may be NULL). across: dilation across the
 * line direction before the long opening; 5 keeps lines within about 1
 * degree of the axes, 15 catches lines tilted by a few degrees (keystone
 * before rectification). Returns XQ_OK with H->n < 4 or V->n < 3 when there
 * is no ruled table (V is looked for from two horizontal lines on). */
static xq_status detect_lines(PIX *grey, PIX *bin, int across, bool dashes,
                              glines *H, glines *V, PIX **phop, PIX **pvop)
{
    PIX *d = NULL, *hop = NULL, *vop = NULL, *lb = NULL, *cl = NULL;
    int W = pixGetWidth(grey), Hh = pixGetHeight(grey);
    int lh = W / 14 > 80 ? W / 14 : 80, lv;
    /* about 2 mm on a sheet filling the picture: closer than any row */
    double pitch = 0, near = (W > Hh ? W : Hh) / 150.0;
    xq_status st = XQ_OK;

    /* Ruling may be thin and light (photos, JPEG, 1-px lines): a black
     * top-hat across the line direction measures how much darker a thin
     * structure is than its surroundings, independent of the paper level;
     * small gaps are then closed along the line. */
    lb = line_mask(grey, bin, false);
    if (!lb)
        return XQ_ENOMEM;
    /* horizontal */
    cl = pixCloseBrick(NULL, lb, 9, 1);
    d = cl ? pixDilateBrick(NULL, cl, 1, across) : NULL;
    pixDestroy(&cl);
    pixDestroy(&lb);
    if (!d)
        return XQ_ENOMEM;
    hop = pixOpenBrick(NULL, d, lh, 1);
    pixDestroy(&d);
    if (!hop)
        return XQ_ENOMEM;
    st = find_lines(hop, grey, false, lh, across - 1, H);
    if (st == XQ_OK && dashes)
        st = dashed_lines(grey, false, lh, DASH_GAP(W, Hh), H);
    if (st == XQ_OK)
        st = merge_lines(H, 5.0);
    drop_faint(H, near);
    /* two or three rules may still frame a table whose hairlines a
     * bilevel scan lost (recover_lost_rules): look for its sides */
    if (st != XQ_OK || H->n < 2)
        goto done;
    /* row pitch: median gap between distinct line positions */
    {
        double *ys = xq_malloc((size_t)H->n * sizeof *ys);
        double *gaps;
        int ng = 0, k;
        if (!ys) { st = XQ_ENOMEM; goto done; }
        gaps = xq_malloc((size_t)H->n * sizeof *gaps);
        if (!gaps) { xq_free(ys); st = XQ_ENOMEM; goto done; }
        for (k = 0; k < H->n; k++)
            ys[k] = gl_at(&H->v[k], (H->v[k].lo + H->v[k].hi) / 2);
        qsort(ys, (size_t)H->n, sizeof *ys, cmp_double);
        for (k = 1; k < H->n; k++)
            if (ys[k] - ys[k - 1] > 8)
                gaps[ng++] = ys[k] - ys[k - 1];
        if (ng > 0) {
            qsort(gaps, (size_t)ng, sizeof *gaps, cmp_double);
            pitch = gaps[ng / 2];
        }
        xq_free(ys);
        xq_free(gaps);
    }
    lv = pitch > 0 ? (int)(2.5 * pitch) : Hh / 10;
    if (lv < Hh / 40) lv = Hh / 40;
    if (lv > Hh / 6) lv = Hh / 6;
    if (lv < 40) lv = 40;
    lb = line_mask(grey, bin, true);
    cl = lb ? pixCloseBrick(NULL, lb, 1, 7) : NULL;
    d = cl ? pixDilateBrick(NULL, cl, across, 1) : NULL;
    pixDestroy(&cl);
    pixDestroy(&lb);
    if (!d) { st = XQ_ENOMEM; goto done; }
    vop = pixOpenBrick(NULL, d, 1, lv);
    pixDestroy(&d);
    if (!vop) { st = XQ_ENOMEM; goto done; }
    st = find_lines(vop, grey, true, lv, across - 1, V);
    if (st == XQ_OK && dashes)
        st = dashed_lines(grey, true, lv, DASH_GAP(W, Hh), V);
    if (st == XQ_OK)
        st = merge_lines(V, 5.0);
    drop_faint(V, near);
    if (st != XQ_OK || V->n < 3)
        goto done;
    /* ruling spans the table: drop short or fat pieces (stacked writing) */
    {
        double maxlen = 0, *th = xq_malloc((size_t)V->n * sizeof *th), mth;
        int k, m = 0;
        if (!th) { st = XQ_ENOMEM; goto done; }
        for (k = 0; k < V->n; k++) {
            if (V->v[k].hi - V->v[k].lo > maxlen)
                maxlen = V->v[k].hi - V->v[k].lo;
            th[k] = V->v[k].thick;
        }
        qsort(th, (size_t)V->n, sizeof *th, cmp_double);
        mth = th[V->n / 2];
        xq_free(th);
        for (k = 0; k < V->n; k++) {
            if (V->v[k].hi - V->v[k].lo < 0.4 * maxlen
                || V->v[k].thick > 3 * mth + 5
                || (!V->v[k].dashed
                    && dark_cover(&V->v[k], grey, true) < 0.8)) {
                xq_free(V->v[k].s);
                continue;
            }
            if (!V->v[k].dashed)
                extend_line(&V->v[k], grey, true);
            V->v[m++] = V->v[k];
        }
        V->n = m;
    }
done:
    if (st == XQ_OK && phop) {
        *phop = hop;
        hop = NULL;
    }
    if (st == XQ_OK && pvop) {
        *pvop = vop;
        vop = NULL;
    }
    pixDestroy(&hop);
    pixDestroy(&vop);
    return st;
}

/* ---- rules a bilevel scan lost ----
 * A light hairline under a bilevel scanner's threshold leaves a trail of
 * specks (or nothing), while the thick frame round each block survives.
 * Inside such a frame (two neighbouring vertical rules with at most three
 * horizontal rules across them, too few for rows) the lost rules are
 * looked for in the thin ink: specks far smaller than any glyph.
 * Columns: positions where specks pile up along the frame's height and no
 * glyph crosses. Rows: the finest even division of each gap between
 * surviving horizontal rules (ruled rows are regular) whose lines nearly
 * all hold specks. The lines found are added to H and V, and the table
 * pass reads them as any other rule. Where the hairlines left no trace,
 * nothing is invented. */

/* Specks of page ink (darker than paper by LINE_CONTRAST) no larger than
 * s x s, or slivers at most 2 px thick and 4 s long, into *pthin; all of
 * that ink into *pall. */
static xq_status thin_ink(PIX *grey, int s, PIX **pthin, PIX **pall)
{
    PIX *m = pixThresholdToBinary(grey, 200 - LINE_CONTRAST), *t = NULL;
    PIXA *pa = NULL;
    BOXA *ba;
    int i, n;
    *pthin = *pall = NULL;
    if (!m)
        return XQ_ENOMEM;
    ba = pixConnComp(m, &pa, 8);
    t = ba ? pixCreateTemplate(m) : NULL;
    if (!t) {
        boxaDestroy(&ba);
        pixaDestroy(&pa);
        pixDestroy(&m);
        return XQ_ENOMEM;
    }
    n = boxaGetCount(ba);
    for (i = 0; i < n; i++) {
        l_int32 x, y, w, h;
        PIX *c;
        boxaGetBoxGeometry(ba, i, &x, &y, &w, &h);
        if (!((w <= s && h <= s)
              || ((w <= 2 || h <= 2) && w <= 4 * s && h <= 4 * s)))
            continue;
        c = pixaGetPix(pa, i, L_CLONE);
        if (c) {
            pixRasterop(t, x, y, w, h, PIX_SRC | PIX_DST, c, 0, 0);
            pixDestroy(&c);
        }
    }
    boxaDestroy(&ba);
    pixaDestroy(&pa);
    *pthin = t;
    *pall = m;
    return XQ_OK;
}

/* Count of set pixels of p along a line: horizontal (y = a + b x over
 * x in [t0, t1)) or vertical (x = a + b y over y in [t0, t1)). */
static int count_along(PIX *p, bool vertical, double a, double b, int t0,
                       int t1)
{
    l_uint32 *data = pixGetData(p);
    int wpl = pixGetWpl(p), w = pixGetWidth(p), h = pixGetHeight(p), t, n = 0;
    for (t = t0; t < t1; t++) {
        int u = (int)floor(a + b * t + 0.5);
        int x = vertical ? u : t, y = vertical ? t : u;
        if (x >= 0 && y >= 0 && x < w && y < h)
            n += PIXBIT(data, wpl, x, y);
    }
    return n;
}

/* Most specks in a 3-px band within +-2 px of position u of profile e
 * (n entries, one per pixel across the lines). */
static int band_max(const int *e, int n, double pos)
{
    int u = (int)floor(pos + 0.5), d, best = 0;
    for (d = -2; d <= 2; d++) {
        int c = u + d, v = 0, t;
        for (t = c - 1; t <= c + 1; t++)
            if (t >= 0 && t < n)
                v += e[t];
        if (v > best)
            best = v;
    }
    return best;
}

static xq_status push_synthetic(glines *L, double a, double b, double lo,
                                double hi, double ink)
{
    gline g;
    memset(&g, 0, sizeof g);
    g.a = a;
    g.b = b;
    g.lo = lo;
    g.hi = hi;
    g.thick = 1;
    g.ink = ink;
    return glines_push(L, &g);
}

/* Rows and columns of one frame (vertical rules lv, rv; horizontal rules
 * across it at indices hx[0..nh-1] of H, top to bottom), added to H and
 * V. s: largest speck; minp: smallest row pitch. */
static xq_status recover_frame(PIX *thin, PIX *all, int s, double minp,
                               gline lv, gline rv, glines *H,
                               const int *hx, int nh, glines *V)
{
    /* copies: pushing lines may move H->v and V->v */
    gline tl = H->v[hx[0]], bl_ = H->v[hx[nh - 1]];
    const gline *l = &lv, *r = &rv, *top = &tl, *bot = &bl_;
    double xl, xr, yt, yb, span, width;
    int x0, x1, y0, y1, x, i, k, nv = 0, *F = NULL, *G = NULL;
    double cand[16];
    xq_status st = XQ_OK;

    xl = gl_at(l, (gl_at(top, 0) + gl_at(bot, 0)) / 2);
    xr = gl_at(r, (gl_at(top, 0) + gl_at(bot, 0)) / 2);
    yt = gl_at(top, (xl + xr) / 2);
    yb = gl_at(bot, (xl + xr) / 2);
    span = yb - yt;
    width = xr - xl;
    if (span < 6 * minp || width < 4 * s)
        return XQ_OK;
    /* columns: specks piled up along the height where no glyph crosses */
    x0 = (int)ceil(xl + l->thick / 2 + s);
    x1 = (int)floor(xr - r->thick / 2 - s);
    y0 = (int)ceil(yt + top->thick / 2 + 2);
    y1 = (int)floor(yb - bot->thick / 2 - 2);
    if (x1 - x0 < 3 * s || y1 <= y0)
        return XQ_OK;
    F = xq_calloc((size_t)(x1 - x0), sizeof *F);
    G = xq_calloc((size_t)(x1 - x0), sizeof *G);
    if (!F || !G) {
        st = XQ_ENOMEM;
        goto out;
    }
    for (x = x0; x < x1; x++) {
        double f = (x - xl) / width;
        double a = l->a + f * (r->a - l->a), b = l->b + f * (r->b - l->b);
        F[x - x0] = count_along(thin, true, a, b, y0, y1);
        G[x - x0] = count_along(all, true, a, b, y0, y1) - F[x - x0];
    }
    {
        int n = x1 - x0, *tmp = xq_malloc((size_t)n * sizeof *tmp), med;
        if (!tmp) {
            st = XQ_ENOMEM;
            goto out;
        }
        for (i = 0; i < n; i++)
            tmp[i] = F[i];
        qsort(tmp, (size_t)n, sizeof *tmp, cmp_int);
        med = tmp[n / 2];
        xq_free(tmp);
        for (i = 1; i + 1 < n && nv < 16; i++) {
            int f3 = F[i - 1] + F[i] + F[i + 1], g3 = G[i - 1] + G[i] + G[i + 1];
            int j, w = (int)(minp / 2), peak = 1;
            if (f3 < 0.015 * (y1 - y0) || f3 < 9 * (med + 1)
                || g3 > 0.03 * (y1 - y0))
                continue;
            /* a rule's specks lie on one line: a few pixels aside they
             * are gone (broken writing spreads its specks wide) */
            for (j = -1; j <= 1 && peak; j += 2) {
                int a6 = i + 6 * j;
                peak = a6 < 1 || a6 + 1 >= n
                       || 3 * (F[a6 - 1] + F[a6] + F[a6 + 1]) <= f3;
            }
            if (!peak)
                continue;
            for (j = i - w; j <= i + w && peak; j++) {
                int v;
                if (j < 1 || j + 1 >= n || j == i)
                    continue;
                v = F[j - 1] + F[j] + F[j + 1];
                peak = v < f3 || (v == f3 && j > i);
            }
            if (peak)
                cand[nv++] = x0 + i;
        }
    }
    /* no trail of specks: the column labels (a label row between the top
     * rule and the next) stand centred over their columns, a rule in the
     * space between neighbouring labels; number, Red and Black must all
     * show, else no column is invented */
    if (nv == 0 && nh == 3) {
        const gline *lab = &H->v[hx[1]];
        int ly0 = y0, ly1 = (int)floor(gl_at(lab, (xl + xr) / 2)
                                       - lab->thick / 2 - 2);
        int lh = ly1 - ly0, nc = 0, cs[4], ce[4], last = -1000000;
        for (x = x0; x < x1 && lh >= 4 && nc <= 3; x++) {
            double f = (x - xl) / width;
            if (count_along(all, true, l->a + f * (r->a - l->a),
                            l->b + f * (r->b - l->b), ly0, ly1) == 0)
                continue;
            if (x - last > lh) {          /* a new label */
                if (nc < 4)
                    cs[nc] = x;
                nc++;
            }
            if (nc <= 4)
                ce[nc - 1] = x;
            last = x;
        }
        if (nc == 3) {
            /* Red and Black as wide as each other where the labels allow
             * (a short number label says little of its column's width) */
            double rb = (ce[1] + cs[2]) / 2.0, nr = 2 * rb - xr;
            cand[nv++] = nr > ce[0] && nr < cs[1] ? nr : (ce[0] + cs[1]) / 2.0;
            cand[nv++] = rb;
        }
    }
    for (i = 0; i < nv && st == XQ_OK; i++) {
        double f = (cand[i] - xl) / width;
        st = push_synthetic(V, l->a + f * (r->a - l->a),
                            l->b + f * (r->b - l->b), yt, yb,
                            (l->ink + r->ink) / 2);
    }
    /* rows: the finest even division of each gap whose lines nearly all
     * hold specks, more than twice those half-way to the next lines (a
     * coarser division also lands on rules; a finer one half on rows) */
    for (k = 0; k + 1 < nh && st == XQ_OK; k++) {
        gline ca = H->v[hx[k]], cb = H->v[hx[k + 1]];
        const gline *ta = &ca, *tb = &cb;
        double g = gl_at(tb, (xl + xr) / 2) - gl_at(ta, (xl + xr) / 2);
        int n, bn = 0, xa = (int)ceil(xl + s), xb = (int)floor(xr - s);
        int nmax = (int)(g / minp), *ev, *e, ne = (int)ceil(g) + 1;
        if (nmax < 2)
            continue;
        ev = xq_malloc((size_t)(2 * nmax + 1) * sizeof *ev);
        e = xq_malloc((size_t)ne * sizeof *e);
        if (!ev || !e) {
            xq_free(ev);
            xq_free(e);
            st = XQ_ENOMEM;
            break;
        }
        /* specks along each line between the two rules, a pixel apart */
        for (n = 0; n < ne; n++) {
            double f = n / g;
            e[n] = count_along(thin, false, ta->a + f * (tb->a - ta->a),
                               ta->b + f * (tb->b - ta->b), xa, xb);
        }
        for (n = 2; n <= nmax; n++) {
            int j, hits = 0;
            for (j = 0; j <= 2 * n; j++)      /* lines at even j, mids odd */
                ev[j] = band_max(e, ne, j * g / (2.0 * n));
            for (j = 1; j < n; j++) {
                int v = ev[2 * j], mid = ev[2 * j - 1] > ev[2 * j + 1]
                                         ? ev[2 * j - 1] : ev[2 * j + 1];
                hits += v >= 0.015 * (xb - xa) && v >= 2 * mid;
            }
            if (hits >= 0.8 * (n - 1))
                bn = n;
        }
        /* no trail of specks: rules lie where no glyph crosses, and the
         * finest division whose lines nearly all run clear has ink (the
         * move numbers, the moves) half-way in most rows */
        if (bn == 0) {
            for (n = 0; n < ne; n++) {
                double f = n / g;
                e[n] = count_along(all, false, ta->a + f * (tb->a - ta->a),
                                   ta->b + f * (tb->b - ta->b), xa, xb)
                       - e[n];
            }
            for (n = 2; n <= nmax; n++) {
                int j, clear = 0, inked = 0;
                for (j = 1; j < n; j++) {
                    int u = (int)floor(j * g / n + 0.5), d, lo = 1 << 30;
                    for (d = -2; d <= 2; d++)
                        if (u + d >= 1 && u + d + 1 < ne
                            && e[u + d - 1] + e[u + d] + e[u + d + 1] < lo)
                            lo = e[u + d - 1] + e[u + d] + e[u + d + 1];
                    clear += lo == 0;
                }
                for (j = 0; j < n; j++) {
                    int u = (int)floor((j + 0.5) * g / n + 0.5), d, sum = 0;
                    for (d = -(int)(g / n / 4); d <= (int)(g / n / 4); d++)
                        if (u + d >= 0 && u + d < ne)
                            sum += e[u + d];
                    inked += sum > 0;
                }
                if (clear >= 0.8 * (n - 1) && inked >= 0.5 * n)
                    bn = n;
            }
        }
        xq_free(e);
        xq_free(ev);
        for (n = 1; n < bn && st == XQ_OK; n++) {
            double f = (double)n / bn;
            st = push_synthetic(H, ta->a + f * (tb->a - ta->a),
                                ta->b + f * (tb->b - ta->b), xl, xr,
                                (ta->ink + tb->ink) / 2);
        }
    }
out:
    xq_free(F);
    xq_free(G);
    return st;
}

/* Frames whose inner ruling was lost: neighbouring vertical rules that
 * overlap along most of their length, with two or three horizontal rules
 * across them (top, bottom, maybe a header rule) and a height of several
 * rows at least. Their rows and columns are recovered from the thin ink. */
static xq_status recover_lost_rules(PIX *grey, glines *H, glines *V)
{
    int W = pixGetWidth(grey), Hh = pixGetHeight(grey), nv0 = V->n, i, j;
    int s = (W > Hh ? W : Hh) / 300;
    double minp = (W > Hh ? W : Hh) / 120.0;
    PIX *thin = NULL, *all = NULL;
    int *order = NULL, *hx = NULL;
    xq_status st = XQ_OK;
    if (s < 6)
        s = 6;
    if (nv0 < 2 || H->n < 2)
        return XQ_OK;
    order = xq_malloc((size_t)nv0 * sizeof *order);
    hx = xq_malloc((size_t)H->n * sizeof *hx);
    if (!order || !hx) {
        st = XQ_ENOMEM;
        goto out;
    }
    for (i = 0; i < nv0; i++)
        order[i] = i;
    for (i = 1; i < nv0; i++)        /* by x at the middle: few lines */
        for (j = i; j > 0; j--) {
            const gline *p = &V->v[order[j - 1]], *q = &V->v[order[j]];
            if (gl_at(p, (p->lo + p->hi) / 2) <= gl_at(q, (q->lo + q->hi) / 2))
                break;
            {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        }
    for (i = 0; i < nv0 && st == XQ_OK; i++) {
        const gline *a = &V->v[order[i]];
        for (j = i + 1; j < nv0; j++) {
            const gline *b = &V->v[order[j]];
            double y0 = fmax(a->lo, b->lo), y1 = fmin(a->hi, b->hi);
            double xa, xb, ym;
            int nh = 0, k, m;
            if (y1 - y0 < 0.8 * fmin(a->hi - a->lo, b->hi - b->lo))
                continue;
            ym = (y0 + y1) / 2;
            xa = gl_at(a, ym);
            xb = gl_at(b, ym);
            /* horizontal rules across: top to bottom, one per position */
            for (k = 0; k < H->n; k++) {
                const gline *h = &H->v[k];
                double px0, py0, px1, py1;
                cross(h, 0, a, 0, &px0, &py0);
                cross(h, 0, b, 0, &px1, &py1);
                if (fmin(h->hi, px1 + 6) - fmax(h->lo, px0 - 6)
                        < 0.9 * (px1 - px0)
                    || py0 < y0 - 8 || py0 > y1 + 8)
                    continue;
                hx[nh++] = k;
            }
            for (k = 1; k < nh; k++)
                for (m = k; m > 0; m--) {
                    double ya = gl_at(&H->v[hx[m - 1]], (xa + xb) / 2);
                    double yb = gl_at(&H->v[hx[m]], (xa + xb) / 2);
                    int t;
                    if (ya <= yb)
                        break;
                    t = hx[m];
                    hx[m] = hx[m - 1];
                    hx[m - 1] = t;
                }
            for (k = m = 0; k < nh; k++)
                if (m == 0 || gl_at(&H->v[hx[k]], (xa + xb) / 2)
                                  - gl_at(&H->v[hx[m - 1]], (xa + xb) / 2) >= 8)
                    hx[m++] = hx[k];
            nh = m;
            if (nh >= 2 && nh <= 3) {
                if (!thin)
                    st = thin_ink(grey, s, &thin, &all);
                if (st == XQ_OK)
                    st = recover_frame(thin, all, s, minp, *a, *b, H, hx, nh,
                                       V);
            }
            break;                   /* only the nearest partner */
        }
    }
out:
    pixDestroy(&thin);
    pixDestroy(&all);
    xq_free(order);
    xq_free(hx);
    return st;
}

/* Eigenvector of the smallest eigenvalue of a symmetric 3x3 matrix
 * (cyclic Jacobi rotations). */
static void eig_min3(double a[3][3], double v[3])
{
    double e[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    int it, p, q, k, best = 0;
    for (it = 0; it < 50; it++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        if (off < 1e-15)
            break;
        for (p = 0; p < 2; p++)
            for (q = p + 1; q < 3; q++) {
                double th, t, c, sn;
                if (fabs(a[p][q]) < 1e-18)
                    continue;
                th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1));
                c = 1 / sqrt(t * t + 1);
                sn = t * c;
                for (k = 0; k < 3; k++) {        /* a = J^T a J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - sn * akq;
                    a[k][q] = sn * akp + c * akq;
                }
                for (k = 0; k < 3; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - sn * aqk;
                    a[q][k] = sn * apk + c * aqk;
                }
                for (k = 0; k < 3; k++) {
                    double ekp = e[k][p], ekq = e[k][q];
                    e[k][p] = c * ekp - sn * ekq;
                    e[k][q] = sn * ekp + c * ekq;
                }
            }
    }
    for (k = 1; k < 3; k++)
        if (a[k][k] < a[best][best])
            best = k;
    for (k = 0; k < 3; k++)
        v[k] = e[k][best];
}

/* Vanishing point of a family of lines (least squares over the lines as
 * homogeneous vectors in coordinates centred on (cx, cy) and scaled by 1/S,
 * weighted by length; lines far from the common point are dropped once).
 * Returns false with fewer than 3 usable lines. */
static bool vanishing(const glines *L, bool vertical, double cx, double cy,
                      double S, double vp[3])
{
    double (*l)[4], *res = NULL;
    int i, n = 0, pass;
    bool ok = false;
    if (L->n < 3)
        return false;
    l = xq_malloc((size_t)L->n * sizeof *l);
    res = xq_malloc((size_t)L->n * sizeof *res);
    if (!l || !res)
        goto out;
    for (i = 0; i < L->n; i++) {
        const gline *g = &L->v[i];
        double a = g->a, b = g->b, nn;
        if (g->dead || g->hi - g->lo < 2)
            continue;
        /* horizontal y = a + b x: b X - Y + (a + b cx - cy) / S = 0
         * vertical   x = a + b y: X - b Y - (a + b cy - cx) / S = 0 */
        if (vertical) {
            l[n][0] = 1; l[n][1] = -b; l[n][2] = -(a + b * cy - cx) / S;
        } else {
            l[n][0] = b; l[n][1] = -1; l[n][2] = (a + b * cx - cy) / S;
        }
        nn = hypot(l[n][0], l[n][1]);
        l[n][0] /= nn; l[n][1] /= nn; l[n][2] /= nn;
        l[n][3] = (g->hi - g->lo) / S;        /* weight: length */
        n++;
    }
    if (n < 3)
        goto out;
    for (pass = 0; pass < 2; pass++) {
        double m[3][3] = { { 0 } }, med;
        int j, k, used = 0;
        for (i = 0; i < n; i++) {
            if (l[i][3] <= 0)
                continue;
            used++;
            for (j = 0; j < 3; j++)
                for (k = 0; k < 3; k++)
                    m[j][k] += l[i][3] * l[i][j] * l[i][k];
        }
        if (used < 3)
            goto out;
        eig_min3(m, vp);
        if (pass == 1)
            break;
        /* residual: distance of the line to the point, in the direction
         * space (|l . v| with |v| = 1) */
        for (i = 0; i < n; i++)
            res[i] = fabs(l[i][0] * vp[0] + l[i][1] * vp[1] + l[i][2] * vp[2]);
        {
            double *tmp = xq_malloc((size_t)n * sizeof *tmp);
            if (!tmp)
                goto out;
            memcpy(tmp, res, (size_t)n * sizeof *tmp);
            qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
            med = tmp[n / 2];
            xq_free(tmp);
        }
        for (i = 0; i < n; i++)
            if (res[i] > 4 * med + 1e-4)
                l[i][3] = 0;
    }
    ok = true;
out:
    xq_free(l);
    xq_free(res);
    return ok;
}

static void map_pt(const double m[9], double x, double y, double *px,
                   double *py)
{
    double w = m[6] * x + m[7] * y + m[8];
    *px = (m[0] * x + m[1] * y + m[2]) / w;
    *py = (m[3] * x + m[4] * y + m[5]) / w;
}

xq_status ocr_grid_rectify(PIX *grey, PIX *bin, double m[9], bool *pwarp)
{
    glines H = {0}, V = {0};
    PIX *g2 = NULL, *b2 = NULL;
    int W = pixGetWidth(grey), Hh = pixGetHeight(grey), i, f = 1;
    double cx, cy, S, vh[3] = { 1, 0, 0 }, vv[3] = { 0, 1, 0 };
    double c1[3], c2[3], s1, s2, dn, wmin = 1e9, smin = 1e9, smax = 0, dmax = 0;
    bool okh, okv;
    xq_status st;

    for (i = 0; i < 9; i++)
        m[i] = i % 4 == 0;
    *pwarp = false;
    /* half resolution is plenty for the directions of long lines */
    if (W > 1600 && Hh > 1600) {
        g2 = pixScaleAreaMap2(grey);
        b2 = g2 ? ocr_page_binarise(g2, 128) : NULL;
        if (!g2 || !b2) {
            pixDestroy(&g2);
            pixDestroy(&b2);
            return XQ_ENOMEM;
        }
        f = 2;
    } else {
        g2 = pixClone(grey);
        b2 = pixClone(bin);
    }
    st = detect_lines(g2, b2, 11, false, &H, &V, NULL, NULL);
    pixDestroy(&g2);
    pixDestroy(&b2);
    if (st != XQ_OK)
        goto out;
    cx = W / 2.0 / f;
    cy = Hh / 2.0 / f;
    S = (W > Hh ? W : Hh) / 2.0 / f;
    okh = H.n >= 4 && vanishing(&H, false, cx, cy, S, vh);
    okv = okh && V.n >= 3 && vanishing(&V, true, cx, cy, S, vv);
    if (!okh)
        goto out;
    if (!okv) {
        /* columns unknown: keep their direction perpendicular to rows at
         * the centre (no keystone correction across) */
        vv[0] = -vh[1];
        vv[1] = vh[0];
        vv[2] = 0;
    }
    /* in full-resolution pixel coordinates (centre C = (cx, cy, 1)) */
    cx *= f;
    cy *= f;
    S *= f;
    c1[0] = S * vh[0] + cx * vh[2]; c1[1] = S * vh[1] + cy * vh[2]; c1[2] = vh[2];
    c2[0] = S * vv[0] + cx * vv[2]; c2[1] = S * vv[1] + cy * vv[2]; c2[2] = vv[2];
    /* unit steps at the centre: one pixel along each family */
    s1 = 1.0 / (S * hypot(vh[0], vh[1]));
    s2 = 1.0 / (S * hypot(vv[0], vv[1]));
    if (vh[0] < 0) s1 = -s1;
    if (vv[1] < 0) s2 = -s2;
    if (fabs(vh[0]) < 0.5 * hypot(vh[0], vh[1])
        || fabs(vv[1]) < 0.5 * hypot(vv[0], vv[1]))
        goto out;                 /* not rows and columns of a table */
    {
        double t[9];
        t[0] = s1 * c1[0]; t[1] = s2 * c2[0];
        t[3] = s1 * c1[1]; t[4] = s2 * c2[1];
        t[6] = s1 * c1[2]; t[7] = s2 * c2[2];
        t[2] = cx - cx * t[0] - cy * t[1];
        t[5] = cy - cx * t[3] - cy * t[4];
        t[8] = 1 - cx * t[6] - cy * t[7];
        if (fabs(t[8]) < 1e-12)
            goto out;
        dn = t[8];
        for (i = 0; i < 9; i++)
            t[i] /= dn;
        /* sanity over the page: positive denominators, local scale within
         * reason, and a warp only when it moves something */
        for (i = 0; i < 9; i++) {
            double x = (i % 3) * (W - 1) / 2.0, y = (i / 3) * (Hh - 1) / 2.0;
            double w = t[6] * x + t[7] * y + t[8], px, py, sc;
            if (w < wmin)
                wmin = w;
            if (w <= 0)
                break;
            map_pt(t, x, y, &px, &py);
            sc = fabs(t[0] * (t[4] * t[8] - t[5] * t[7])
                      - t[1] * (t[3] * t[8] - t[5] * t[6])
                      + t[2] * (t[3] * t[7] - t[4] * t[6])) / (w * w * w);
            if (sc < smin) smin = sc;
            if (sc > smax) smax = sc;
            if (hypot(px - x, py - y) > dmax)
                dmax = hypot(px - x, py - y);
        }
        if (wmin <= 0.3 || smin < 0.5 || smax > 2.0)
            goto out;
        if (dmax >= 1.5) {
            memcpy(m, t, sizeof t);
            *pwarp = true;
        }
    }
out:
    glines_free(&H);
    glines_free(&V);
    return st;
}

/* Cells of xqscan's own form, placed exactly through the homography fh
 * from form coordinates to the page (ocr_form_locate). */
static xq_status form_cells(xq_sheet *sh, const double fh[9])
{
    int n = ocr_form_cells(NULL, NULL, 0), nl = ocr_form_lines(NULL, 0), i;
    ocr_rect *r = xq_malloc((size_t)n * sizeof *r);
    ocr_rect *g = xq_malloc((size_t)n * 4 * sizeof *g);
    ocr_rect *lines = xq_malloc((size_t)nl * sizeof *lines);
    double x0, y0, x1, y1, sc;
    xq_status st = XQ_OK;
    sh->cells = xq_calloc((size_t)n, sizeof *sh->cells);
    sh->pixlines = pixCreate(sh->nw, sh->nh, 1);
    if (!r || !g || !lines || !sh->cells || !sh->pixlines) {
        st = XQ_ENOMEM;
        goto out;
    }
    ocr_form_cells(r, g, n);
    ocr_form_lines(lines, nl);
    sh->nblocks = 0;
    for (i = 0; i < n; i++) {
        ocr_cell *c = &sh->cells[i];
        const ocr_rect *k = &r[i];
        /* cells run block by block, row by row, Red then Black: a block
         * starts where the rows go back up */
        if (i % 2 == 0 && (i == 0 || k->y < r[i - 2].y) && sh->nblocks < 16)
            sh->blk_first[sh->nblocks++] = (size_t)i;
        ocr_form_map(fh, k->x, k->y, &c->q[0], &c->q[1]);
        ocr_form_map(fh, k->x + k->w - 1, k->y, &c->q[2], &c->q[3]);
        ocr_form_map(fh, k->x + k->w - 1, k->y + k->h - 1, &c->q[4], &c->q[5]);
        ocr_form_map(fh, k->x, k->y + k->h - 1, &c->q[6], &c->q[7]);
    }
    sh->ncells = (size_t)n;
    sh->nrows = (size_t)n / 2;
    ocr_form_map(fh, r[0].x, ocr_form_table_top(), &x0, &y0);
    ocr_form_map(fh, r[n - 1].x, ocr_form_table_top(), &x1, &y1);
    sh->table_top = (int)floor(fmin(y0, y1));
    sh->form = true;
    /* the ruling, for header reading to take out */
    ocr_form_map(fh, 0, 0, &x0, &y0);
    ocr_form_map(fh, 1000, 0, &x1, &y1);
    sc = hypot(x1 - x0, y1 - y0) / 1000;
    for (i = 0; i < nl; i++) {
        const ocr_rect *k = &lines[i];
        bool horiz = k->w > k->h;
        int lw = (int)ceil((horiz ? k->h : k->w) * sc) + 2;
        if (horiz) {
            ocr_form_map(fh, k->x, k->y + k->h / 2.0, &x0, &y0);
            ocr_form_map(fh, k->x + k->w, k->y + k->h / 2.0, &x1, &y1);
        } else {
            ocr_form_map(fh, k->x + k->w / 2.0, k->y, &x0, &y0);
            ocr_form_map(fh, k->x + k->w / 2.0, k->y + k->h, &x1, &y1);
        }
        pixRenderLine(sh->pixlines, (int)x0, (int)y0, (int)x1, (int)y1, lw,
                      L_SET_PIXELS);
    }
    /* the printed glyph guides (1-px grey boxes) are known exactly: paint
     * them out of the page, so that only writing is left in the cells
     * (faint ink in a blurred photo is no darker than a clean guide) */
    for (i = 0; i < 4 * n; i++) {
        const ocr_rect *k = &g[i];
        double xa = k->x, ya = k->y, xb = k->x + k->w - 1, yb = k->y + k->h - 1;
        double cx[4] = { xa, xb, xb, xa }, cy[4] = { ya, ya, yb, yb };
        double px[4], py[4];
        int e, lw = (int)ceil(sc) + 2;
        for (e = 0; e < 4; e++)
            ocr_form_map(fh, cx[e], cy[e], &px[e], &py[e]);
        for (e = 0; e < 4; e++)
            pixRenderLine(sh->pixg, (int)floor(px[e] + 0.5),
                          (int)floor(py[e] + 0.5),
                          (int)floor(px[(e + 1) % 4] + 0.5),
                          (int)floor(py[(e + 1) % 4] + 0.5), lw, L_SET_PIXELS);
    }
out:
    xq_free(g);
    xq_free(r);
    xq_free(lines);
    return st;
}

/* The table from the page's ruling (dashes: broken hairlines joined too). */
/* The row pitch of a ruled column from the heights between its rules
 * found, in order down the column (n of them): the median, unless a
 * smaller height repeats in at least a fifth of them (3 or more), nearly
 * all the others are whole multiples of it, and at least two of its runs
 * (gaps of that height one after another) are odd in length. A bilevel
 * scan or a faint copy can break most hairlines, leaving two- and
 * three-row gaps that outnumber the one-row ones: read as the pitch, two
 * rows would become one cell. A stroke through the middle of a row (a
 * move struck out, writing that lines up like a rule) cuts it into two
 * halves: the smaller height then comes in pairs only. 0 for no heights;
 * s: room for n heights (sorted there). */
#define PITCH_TOL 0.12
static bool pitch_multiple(double h, double p, int *k)
{
    double r = h / p, q = floor(r + 0.5);
    *k = (int)q;
    return q >= 1 && fabs(r - q) < PITCH_TOL * q;
}

static double row_pitch(const double *hts, int n, double *s)
{
    double med;
    int i, j;
    if (n <= 0)
        return 0;
    memcpy(s, hts, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    med = s[n / 2];
    for (i = 0; i < n && s[i] < 0.9 * med; i++) {
        double p = s[i], sum = 0;
        int ones = 0, fit = 0, odd = 0, run = 0, k;
        if (p < 0.25 * med)
            continue;
        for (j = 0; j <= n; j++) {
            bool one = false;
            if (j < n && pitch_multiple(hts[j], p, &k)) {
                fit++;
                if (k == 1) {
                    one = true;
                    ones++;
                    sum += hts[j];
                }
            }
            if (one) {
                run++;
            } else {
                odd += run % 2;
                run = 0;
            }
        }
        if (ones >= 3 && 5 * ones >= n && 10 * fit >= 9 * n && odd >= 2)
            return sum / ones;
    }
    return med;
}

static xq_status find_table(xq_sheet *sh, bool dashes)
{
    PIX *hop = NULL, *vop = NULL;
    glines H = {0}, V = {0};
    gcol *cols = NULL;
    int ncols = 0, i, j;
    xq_status st = XQ_OK;

    sh->nrows = sh->nblocks = sh->ncells = 0;
    memset(sh->num_found, 0, sizeof sh->num_found);
    st = detect_lines(sh->pixg, sh->pixb, 5, dashes, &H, &V, &hop, &vop);
    if (st == XQ_OK)
        st = recover_lost_rules(sh->pixg, &H, &V);
    if (st == XQ_OK && H.n > sh->nrules[0])
        sh->nrules[0] = H.n;
    if (st == XQ_OK && V.n > sh->nrules[1])
        sh->nrules[1] = V.n;
    if (st != XQ_OK || H.n < 4 || V.n < 3)
        goto done;
    sh->pixlines = pixOr(NULL, hop, vop);

    /* sort vertical lines by x at their middle */
    {
        double (*key)[2] = xq_malloc((size_t)V.n * sizeof *key);
        gline *sorted = xq_malloc((size_t)V.n * sizeof *sorted);
        if (!key || !sorted) {
            xq_free(key);
            xq_free(sorted);
            st = XQ_ENOMEM;
            goto done;
        }
        for (i = 0; i < V.n; i++) {
            key[i][0] = gl_at(&V.v[i], (V.v[i].lo + V.v[i].hi) / 2);
            key[i][1] = i;
        }
        qsort(key, (size_t)V.n, sizeof *key, g_sort_key_cmp);
        for (i = 0; i < V.n; i++)
            sorted[i] = V.v[(int)key[i][1]];
        memcpy(V.v, sorted, (size_t)V.n * sizeof *sorted);
        xq_free(key);
        xq_free(sorted);
    }

    /* columns */
    cols = xq_calloc((size_t)V.n, sizeof *cols);
    if (!cols) { st = XQ_ENOMEM; goto done; }
    for (i = 0; i < V.n; i++) {
        const gline *a = &V.v[i];
        for (j = i + 1; j < V.n; j++) {
            const gline *b = &V.v[j];
            double y0 = fmax(a->lo, b->lo), y1 = fmin(a->hi, b->hi);
            double ym = (y0 + y1) / 2, xa, xb, minlen;
            int k, nr = 0;
            int *rows;
            double (*ry)[2];
            minlen = fmin(a->hi - a->lo, b->hi - b->lo);
            if (y1 - y0 < 0.5 * minlen)
                continue;            /* not side by side: try the next one */
            xa = gl_at(a, ym);
            xb = gl_at(b, ym);
            if (xb - xa < 12)
                break;
            /* rows anywhere along either side (a faint hairline may be
             * found over part of its length only) */
            y0 = fmin(a->lo, b->lo);
            y1 = fmax(a->hi, b->hi);
            /* ... or along the table's other rules beside them (inner
             * hairlines can both miss the same end); not a frame round
             * header and table together */
            {
                double u0 = y0, u1 = y1;
                for (k = 0; k < V.n; k++) {
                    const gline *c = &V.v[k];
                    double ov = fmin(u1, c->hi) - fmax(u0, c->lo);
                    if (ov >= 0.5 * (u1 - u0) && ov >= 0.9 * (c->hi - c->lo)) {
                        y0 = fmin(y0, c->lo);
                        y1 = fmax(y1, c->hi);
                    }
                }
            }
            ry = xq_malloc((size_t)H.n * sizeof *ry);
            rows = xq_malloc((size_t)(H.n + 1) * sizeof *rows);
            if (!ry || !rows) {
                xq_free(ry);
                xq_free(rows);
                st = XQ_ENOMEM;
                goto done;
            }
            for (k = 0; k < H.n; k++) {
                const gline *h = &H.v[k];
                double px0, py0, px1, py1;
                cross(h, 0, a, 0, &px0, &py0);
                cross(h, 0, b, 0, &px1, &py1);
                /* the line crosses the column: all of it, or most of it
                 * for a line much longer than the column is wide (faint
                 * hairlines may stop short of a thick border; strokes of
                 * writing are shorter) */
                {
                    double cov = fmin(h->hi, px1 + 6) - fmax(h->lo, px0 - 6);
                    if (cov < 0.9 * (px1 - px0)
                        && (cov < 0.7 * (px1 - px0)
                            || h->hi - h->lo < 2 * (px1 - px0)))
                        continue;
                }
                if (py0 < y0 - 8 || py0 > y1 + 8)
                    continue;
                ry[nr][0] = (py0 + py1) / 2;
                ry[nr][1] = k;
                nr++;
            }
            if (nr >= 4) {
                int m = 0;
                qsort(ry, (size_t)nr, sizeof *ry, g_sort_key_cmp);
                for (k = 0; k < nr; k++) {
                    if (m > 0 && ry[k][0] - H.v[rows[m - 1]].a
                                  - H.v[rows[m - 1]].b * (xa + xb) / 2 < 8)
                        continue;    /* same line twice */
                    rows[m++] = (int)ry[k][1];
                }
                /* a bottom ruling lost in the image (shadow, crop): the
                 * column's side lines still say where the last row ends */
                if (m >= 4) {
                    double xm = (xa + xb) / 2;
                    double yl = gl_at(&H.v[rows[m - 1]], xm);
                    double pc = (yl - gl_at(&H.v[rows[0]], xm)) / (m - 1);
                    double yend = fmin(a->hi, b->hi);
                    if (yend - yl > 0.75 * pc && yend - yl < 1.4 * pc) {
                        gline syn = H.v[rows[m - 1]];
                        syn.s = NULL;
                        syn.ns = syn.cap = 0;
                        syn.a += yend - yl;
                        if (glines_push(&H, &syn) == XQ_OK)
                            rows[m++] = H.n - 1;
                    }
                }
                cols[ncols].l = i;
                cols[ncols].r = j;
                cols[ncols].rows = rows;
                cols[ncols].nrows = m;
                cols[ncols].xmid = (xa + xb) / 2;
                cols[ncols].width = xb - xa;
                cols[ncols].ymid = ym;
                ncols++;
                rows = NULL;
            }
            xq_free(rows);
            xq_free(ry);
            break;                   /* only the nearest partner */
        }
    }
    if (ncols < 2)
        goto done;

    /* blocks: adjacent wide column pairs */
    {
        double maxw = 0, pitch[16];
        int nb = 0, total_rows = 0, b;
        double common_top;
        int (*blk)[2] = xq_malloc((size_t)ncols * sizeof *blk);
        double *rowy = NULL;
        size_t ci = 0, cap;
        if (!blk) { st = XQ_ENOMEM; goto done; }
        for (i = 0; i < ncols; i++)
            if (cols[i].width > maxw && cols[i].nrows >= 4)
                maxw = cols[i].width;
        for (i = 0; i + 1 < ncols; i++) {
            gcol *a = &cols[i], *c = &cols[i + 1];
            if (a->width < 0.6 * maxw || c->width < 0.6 * maxw)
                continue;
            if (a->r != c->l || a->nrows < 4 || c->nrows < 4)
                continue;
            blk[nb][0] = i;
            blk[nb][1] = i + 1;
            nb++;
            i++;
        }
        if (nb > 16)
            nb = 16;
        if (nb == 0) {
            xq_free(blk);
            goto done;
        }
        /* rows of each block from the Red column's lines */
        for (b = 0; b < nb; b++)
            total_rows += cols[blk[b][0]].nrows * 2;   /* upper bound */
        cap = (size_t)total_rows * 2;
        sh->cells = xq_calloc(cap, sizeof *sh->cells);
        rowy = xq_malloc((size_t)total_rows * sizeof *rowy);
        if (!sh->cells || !rowy) {
            xq_free(blk);
            xq_free(rowy);
            st = XQ_ENOMEM;
            goto done;
        }
        /* the blocks of one table start level: header boxes that share a
         * block's column rules are not rows of it. The common top is the
         * median of the blocks' first rules (the lower one of two). */
        {
            double tops[16], t;
            int nt = 0, a, c;
            for (b = 0; b < nb; b++) {
                gcol *rc = &cols[blk[b][0]];
                tops[nt++] = gl_at(&H.v[rc->rows[0]], rc->xmid);
            }
            for (a = 1; a < nt; a++)
                for (c = a; c > 0 && tops[c - 1] > tops[c]; c--) {
                    t = tops[c];
                    tops[c] = tops[c - 1];
                    tops[c - 1] = t;
                }
            common_top = nt >= 2 ? tops[nt / 2] : -1e9;
        }
        /* the row pitch of each block, then of the table: the blocks of
         * one table are ruled alike, so a block whose pitch is a whole
         * multiple of another's lost every other rule (or more) */
        {
            double pmin = 0;
            for (b = 0; b < nb; b++) {
                gcol *rc = &cols[blk[b][0]];
                double *hts = xq_malloc(2 * (size_t)rc->nrows * sizeof *hts);
                int k, nh = 0;
                if (!hts) { xq_free(blk); xq_free(rowy); st = XQ_ENOMEM; goto done; }
                for (k = 0; k + 1 < rc->nrows; k++)
                    hts[nh++] = gl_at(&H.v[rc->rows[k + 1]], rc->xmid)
                              - gl_at(&H.v[rc->rows[k]], rc->xmid);
                pitch[b] = row_pitch(hts, nh, hts + rc->nrows);
                xq_free(hts);
                if (pitch[b] > 0 && (pmin == 0 || pitch[b] < pmin))
                    pmin = pitch[b];
            }
            for (b = 0; b < nb && pmin > 0; b++) {
                int k;
                if (pitch_multiple(pitch[b], pmin, &k) && k >= 2)
                    pitch[b] = pmin;
            }
        }
        sh->table_top = sh->nh;
        for (b = 0; b < nb; b++) {
            gcol *rc = &cols[blk[b][0]], *bc = &cols[blk[b][1]];
            const gline *vl[3] = { &V.v[rc->l], &V.v[rc->r], &V.v[bc->r] };
            double med = pitch[b];
            int k;
            /* a stroke of writing across a row (a move struck through) is
             * no rule: a line that cuts one row of the usual height into
             * two clearly shorter ones is dropped (the pitch of a ruled
             * table is regular) */
            {
                int m = 1;
                for (k = 1; k < rc->nrows; k++) {
                    if (k + 1 < rc->nrows && med > 0) {
                        double yp = gl_at(&H.v[rc->rows[m - 1]], rc->xmid);
                        double yk = gl_at(&H.v[rc->rows[k]], rc->xmid);
                        double yn = gl_at(&H.v[rc->rows[k + 1]], rc->xmid);
                        double h1 = yk - yp, h2 = yn - yk;
                        if (h1 < 0.8 * med && h2 < 0.8 * med
                            && h1 > 0.15 * med && h2 > 0.15 * med
                            && h1 + h2 > 0.8 * med && h1 + h2 < 1.25 * med)
                            continue;
                    }
                    rc->rows[m++] = rc->rows[k];
                }
                rc->nrows = m;
            }
            while (nb >= 2 && rc->nrows > 4 && med > 0
                   && gl_at(&H.v[rc->rows[1]], rc->xmid)
                      < common_top + 0.25 * med) {
                memmove(rc->rows, rc->rows + 1,
                        (size_t)(rc->nrows - 1) * sizeof *rc->rows);
                rc->nrows--;
            }
            if (b < 16)
                sh->blk_first[b] = ci;
            {
                double ty = gl_at(&H.v[rc->rows[0]], rc->xmid);
                if (ty < sh->table_top)
                    sh->table_top = (int)ty;
            }
            for (k = 0; k + 1 < rc->nrows; k++) {
                const gline *top = &H.v[rc->rows[k]], *bot = &H.v[rc->rows[k + 1]];
                double h = gl_at(bot, rc->xmid) - gl_at(top, rc->xmid);
                int split = 1, s;
                if (h < 0.45 * med)
                    continue;                 /* sliver between double lines */
                if (h > 1.6 * med)
                    split = (int)floor(h / med + 0.5);
                if (split > 8) {
                    /* many rows whose rules were all lost (a faint end of
                     * a photographed table) or a gap between two tables:
                     * rows only while the block's three column rules run
                     * dark through it and it holds whole rows */
                    bool rows = fabs(h / med - split) < 0.25;
                    int e;
                    for (e = 0; e < 3 && rows; e++) {
                        double xt, yt, xb, yb;
                        cross(top, 0, vl[e], 0, &xt, &yt);
                        cross(bot, 0, vl[e], 0, &xb, &yb);
                        rows = dark_cover_in(vl[e], sh->pixg, true, yt, yb)
                               >= 0.8;
                    }
                    if (!rows)
                        continue;             /* not a row: a gap */
                }
                for (s = 0; s < split; s++) {
                    int side;
                    if (ci + 2 > cap) {
                        size_t nc = cap * 2 + 16;
                        ocr_cell *pc = xq_realloc(sh->cells, nc * sizeof *pc);
                        if (!pc) {
                            xq_free(blk);
                            xq_free(rowy);
                            sh->ncells = ci;
                            st = XQ_ENOMEM;
                            goto done;
                        }
                        memset(pc + cap, 0, (nc - cap) * sizeof *pc);
                        sh->cells = pc;
                        cap = nc;
                    }
                    for (side = 0; side < 2; side++) {
                        ocr_cell *c = &sh->cells[ci++];
                        const gline *lv_ = vl[side], *rv = vl[side + 1];
                        double off0, off1, tl = top->thick / 2 + 0.5,
                               bl = bot->thick / 2 + 0.5;
                        double lt = lv_->thick / 2 + 0.5, rt = rv->thick / 2 + 0.5;
                        double dy = (gl_at(bot, rc->xmid) - gl_at(top, rc->xmid));
                        /* interpolated offsets for split rows */
                        off0 = dy * s / split + (s == 0 ? tl : 0);
                        off1 = -dy * (split - 1 - s) / split
                               - (s == split - 1 ? bl : 0);
                        cross(top, off0, lv_, lt, &c->q[0], &c->q[1]);
                        cross(top, off0, rv, -rt, &c->q[2], &c->q[3]);
                        cross(bot, off1, rv, -rt, &c->q[4], &c->q[5]);
                        cross(bot, off1, lv_, lt, &c->q[6], &c->q[7]);
                    }
                    sh->nrows++;
                }
            }
        }
        /* the move-number column beside each block (a narrower column
         * whose right rule is the Red column's left one): its first
         * cells tell a label row from the first move row */
        for (b = 0; b < nb; b++) {
            gcol *rc = &cols[blk[b][0]];
            size_t first = sh->blk_first[b];
            int r;
            for (i = 0; i < ncols; i++)
                if (cols[i].r == rc->l && cols[i].width < 0.6 * rc->width
                    && cols[i].nrows >= 4)
                    break;
            if (i == ncols || first + 6 > ci)
                continue;
            for (r = 0; r < 3; r++) {
                const ocr_cell *c = &sh->cells[first + 2 * (size_t)r];
                const gline *nl = &V.v[cols[i].l], *rl = &V.v[rc->l];
                double in = nl->thick / 2 + 0.5, rin = rl->thick / 2 + 0.5;
                double *q = sh->num_q[b][r];
                q[0] = gl_at(nl, c->q[1]) + in;
                q[1] = c->q[1];
                q[2] = gl_at(rl, c->q[3]) - rin;
                q[3] = c->q[1];
                q[4] = gl_at(rl, c->q[5]) - rin;
                q[5] = c->q[7];
                q[6] = gl_at(nl, c->q[7]) + in;
                q[7] = c->q[7];
            }
            sh->num_found[b] = true;
        }
        xq_free(rowy);
        xq_free(blk);
        sh->nblocks = (size_t)nb;
        sh->ncells = ci;
    }

done:
    if (cols) {
        for (i = 0; i < ncols; i++)
            xq_free(cols[i].rows);
        xq_free(cols);
    }
    glines_free(&H);
    glines_free(&V);
    pixDestroy(&hop);
    pixDestroy(&vop);
    return st;
}

/* Cell boxes in input coordinates. */
static void boxes_to_input(xq_sheet *sh)
{
    {
        size_t k;
        for (k = 0; k < sh->ncells; k++) {
            ocr_cell *c = &sh->cells[k];
            double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
            int m;
            for (m = 0; m < 4; m++) {
                double x, y;
                ocr_page_to_input(sh, c->q[2 * m], c->q[2 * m + 1], &x, &y);
                x0 = fmin(x0, x); y0 = fmin(y0, y);
                x1 = fmax(x1, x); y1 = fmax(y1, y);
            }
            c->box[0] = (int)floor(x0 + 0.5);
            c->box[1] = (int)floor(y0 + 0.5);
            c->box[2] = (int)floor(x1 + 0.5) - c->box[0] + 1;
            c->box[3] = (int)floor(y1 + 0.5) - c->box[1] + 1;
        }
    }
}

xq_status ocr_grid_find(xq_ocr *ocr, xq_sheet *sh)
{
    xq_status st;
    (void)ocr;
    sh->nrows = sh->nblocks = sh->ncells = 0;
    sh->nrules[0] = sh->nrules[1] = 0;
    memset(sh->num_found, 0, sizeof sh->num_found);
    /* xqscan's own form: exact geometry from its fiducials */
    {
        double fh[9];
        bool isform = false;
        st = ocr_form_locate(sh->pixg, fh, &isform);
        if (st == XQ_OK && isform)
            st = form_cells(sh, fh);
        if (st == XQ_OK && isform)
            boxes_to_input(sh);
        if (st != XQ_OK || isform)
            return st;
    }
    st = find_table(sh, false);
    /* no table from whole lines: a bilevel scan may have kept its
     * hairlines as dashes only; they are joined on a second pass (only
     * then: on a page whose ruling was found, broken text and aligned
     * writing are not to be read as rules) */
    if (st == XQ_OK && sh->ncells == 0) {
        xq_free(sh->cells);
        sh->cells = NULL;
        pixDestroy(&sh->pixlines);
        st = find_table(sh, true);
    }
    if (st == XQ_OK)
        boxes_to_input(sh);
    return st;
}

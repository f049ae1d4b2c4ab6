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
static xq_status find_lines(PIX *op, PIX *grey, bool vertical, int minlen,
                            int widen, glines *out)
{
    l_uint32 *gdata = pixGetData(grey);
    int gwpl = pixGetWpl(grey), gw = pixGetWidth(grey), gh = pixGetHeight(grey);
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
                int rs, re, best = -1, u2, mn = 255;
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
                for (u2 = (int)c - 3; u2 <= (int)c + 3; u2++) {
                    int x = vertical ? u2 : t, y = vertical ? t : u2, gv;
                    if (x < 0 || y < 0 || x >= gw || y >= gh)
                        continue;
                    gv = GET_DATA_BYTE(gdata + (size_t)y * gwpl, x);
                    if (gv < mn)
                        mn = gv;
                }
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
 * text that lines up): the ruling is the darkest long structure. */
static void drop_faint(glines *L)
{
    double ref, *v;
    int i, m = 0;
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
    for (i = 0; i < L->n; i++) {
        if (L->v[i].ink < 0.33 * ref) {
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

xq_status ocr_grid_find(xq_ocr *ocr, xq_sheet *sh)
{
    PIX *d = NULL, *hop = NULL, *vop = NULL, *lb = NULL, *cl = NULL;
    glines H = {0}, V = {0};
    gcol *cols = NULL;
    int ncols = 0, i, j;
    int W = sh->nw, Hh = sh->nh;
    int lh = W / 14 > 80 ? W / 14 : 80, lv;
    double pitch = 0;
    xq_status st = XQ_OK;
    (void)ocr;

    sh->nrows = sh->nblocks = sh->ncells = 0;
    /* Ruling may be thin and light (photos, JPEG, 1-px lines): a black
     * top-hat across the line direction measures how much darker a thin
     * structure is than its surroundings, independent of the paper level;
     * small gaps are then closed along the line. */
    lb = line_mask(sh->pixg, sh->pixb, false);
    if (!lb)
        return XQ_ENOMEM;
    /* horizontal */
    cl = pixCloseBrick(NULL, lb, 9, 1);
    d = cl ? pixDilateBrick(NULL, cl, 1, 5) : NULL;
    pixDestroy(&cl);
    pixDestroy(&lb);
    if (!d)
        return XQ_ENOMEM;
    hop = pixOpenBrick(NULL, d, lh, 1);
    pixDestroy(&d);
    if (!hop)
        return XQ_ENOMEM;
    st = find_lines(hop, sh->pixg, false, lh, 4, &H);
    if (st == XQ_OK)
        st = merge_lines(&H, 5.0);
    drop_faint(&H);
    if (st != XQ_OK || H.n < 4)
        goto done;
    /* row pitch: median gap between distinct line positions */
    {
        double *ys = xq_malloc((size_t)H.n * sizeof *ys);
        double *gaps;
        int ng = 0, k;
        if (!ys) { st = XQ_ENOMEM; goto done; }
        gaps = xq_malloc((size_t)H.n * sizeof *gaps);
        if (!gaps) { xq_free(ys); st = XQ_ENOMEM; goto done; }
        for (k = 0; k < H.n; k++)
            ys[k] = gl_at(&H.v[k], (H.v[k].lo + H.v[k].hi) / 2);
        qsort(ys, (size_t)H.n, sizeof *ys, cmp_double);
        for (k = 1; k < H.n; k++)
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
    lb = line_mask(sh->pixg, sh->pixb, true);
    cl = lb ? pixCloseBrick(NULL, lb, 1, 7) : NULL;
    d = cl ? pixDilateBrick(NULL, cl, 5, 1) : NULL;
    pixDestroy(&cl);
    if (!d) { st = XQ_ENOMEM; goto done; }
    vop = pixOpenBrick(NULL, d, 1, lv);
    pixDestroy(&d);
    if (!vop) { st = XQ_ENOMEM; goto done; }
    st = find_lines(vop, sh->pixg, true, lv, 4, &V);
    if (st == XQ_OK)
        st = merge_lines(&V, 5.0);
    drop_faint(&V);
    if (st != XQ_OK || V.n < 3)
        goto done;
    /* ruling spans the table: drop short or fat pieces (stacked writing) */
    {
        double maxlen = 0, *th = xq_malloc((size_t)V.n * sizeof *th), mth;
        int k, m = 0;
        if (!th) { st = XQ_ENOMEM; goto done; }
        for (k = 0; k < V.n; k++) {
            if (V.v[k].hi - V.v[k].lo > maxlen)
                maxlen = V.v[k].hi - V.v[k].lo;
            th[k] = V.v[k].thick;
        }
        qsort(th, (size_t)V.n, sizeof *th, cmp_double);
        mth = th[V.n / 2];
        xq_free(th);
        for (k = 0; k < V.n; k++) {
            if (V.v[k].hi - V.v[k].lo < 0.4 * maxlen
                || V.v[k].thick > 3 * mth + 5) {
                xq_free(V.v[k].s);
                continue;
            }
            V.v[m++] = V.v[k];
        }
        V.n = m;
        if (V.n < 3)
            goto done;
    }
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
                if (h->lo > px0 + 6 || h->hi < px1 - 6)
                    continue;
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
        double maxw = 0;
        int nb = 0, total_rows = 0, b;
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
        sh->table_top = sh->nh;
        for (b = 0; b < nb; b++) {
            gcol *rc = &cols[blk[b][0]], *bc = &cols[blk[b][1]];
            const gline *vl[3] = { &V.v[rc->l], &V.v[rc->r], &V.v[bc->r] };
            double *hts = xq_malloc((size_t)rc->nrows * sizeof *hts);
            double med;
            int k, nh = 0;
            if (!hts) { xq_free(blk); xq_free(rowy); st = XQ_ENOMEM; goto done; }
            for (k = 0; k + 1 < rc->nrows; k++)
                hts[nh++] = gl_at(&H.v[rc->rows[k + 1]], rc->xmid)
                          - gl_at(&H.v[rc->rows[k]], rc->xmid);
            qsort(hts, (size_t)nh, sizeof *hts, cmp_double);
            med = nh ? hts[nh / 2] : 0;
            xq_free(hts);
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
                if (split > 8)
                    continue;                 /* not a row: a gap */
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
    pixDestroy(&lb);
    /* boxes in input coordinates */
    if (st == XQ_OK) {
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
    return st;
}

/* page.c - page normalisation: grey, resolution, background, skew.
 *
 * The normalised page is the input converted to 8-bit grey (darkest
 * channel, so blue, red or black ink all read dark), scaled so that its long
 * side lies in [OCR_MIN_LONG, OCR_MAX_LONG], background-normalised and
 * rotated by the skew angle around its centre. Every step is invertible so
 * cell boxes can be reported in the input's own pixel coordinates
 * (ocr_page_to_input). Perspective (phone photos) is then taken out by a
 * projective warp measured on the table's own ruling (ocr_grid_rectify:
 * the vanishing points of the row lines and of the column lines): rotation
 * and rectification make one map from the normalised page back to the
 * scaled input (sh->map), applied in a single resampling.
 */
#include <math.h>
#include <string.h>

#include "ocr_internal.h"

#define OCR_MIN_LONG 2400
#define OCR_MAX_LONG 3600
#define OCR_INK_THRESH 128   /* after background normalisation (bg = 200) */

static PIX *to_grey(PIX *pix)
{
    int d = pixGetDepth(pix);
    if (d == 32)
        return pixConvertRGBToGrayMinMax(pix, L_CHOOSE_MIN);
    if (pixGetColormap(pix)) {
        PIX *t = pixRemoveColormap(pix, REMOVE_CMAP_BASED_ON_SRC);
        PIX *g;
        if (!t)
            return NULL;
        g = pixGetDepth(t) == 32 ? pixConvertRGBToGrayMinMax(t, L_CHOOSE_MIN)
                                 : pixConvertTo8(t, 0);
        pixDestroy(&t);
        return g;
    }
    return pixConvertTo8(pix, 0);
}

/* Ink of the normalised page. Solid dark areas (the table or floor around a
 * photographed sheet, fiducial squares) are not ink: whatever survives an
 * opening with a brick wider than any pen stroke is taken out. */
PIX *ocr_page_binarise(PIX *n, int thresh)
{
    PIX *b = pixThresholdToBinary(n, thresh), *solid, *grown;
    if (!b)
        return NULL;
    solid = pixOpenBrick(NULL, b, 31, 31);
    if (!solid)
        return b;
    grown = pixDilateBrick(NULL, solid, 7, 7);
    pixDestroy(&solid);
    if (grown) {
        pixSubtract(b, b, grown);
        pixDestroy(&grown);
    }
    return b;
}

/* Median slope (radians, y down) of the long horizontal strokes of b, or
 * 0 when there are too few: the ruling tells the page's skew best. */
static double ruling_slope(PIX *b)
{
    int w = pixGetWidth(b), lh = w / 16 > 60 ? w / 16 : 60, i, n, ns = 0;
    PIX *d = pixDilateBrick(NULL, b, 1, 11), *o;
    BOXA *boxa;
    double sl[512], tmp;
    if (!d)
        return 0;
    o = pixOpenBrick(NULL, d, lh, 1);
    pixDestroy(&d);
    if (!o)
        return 0;
    boxa = pixConnCompBB(o, 8);
    n = boxa ? boxaGetCount(boxa) : 0;
    for (i = 0; i < n && ns < 512; i++) {
        l_int32 bx, by, bw, bh, k, y;
        double yc[2];
        int ok = 1;
        boxaGetBoxGeometry(boxa, i, &bx, &by, &bw, &bh);
        if (bw < 3 * lh)
            continue;
        for (k = 0; k < 2 && ok; k++) {
            int x = bx + (k ? bw * 9 / 10 : bw / 10), first = -1, last = -1;
            for (y = by; y < by + bh; y++) {
                l_uint32 v;
                pixGetPixel(o, x, y, &v);
                if (v) {
                    if (first < 0)
                        first = y;
                    last = y;
                }
            }
            if (first < 0 || last - first > 40)
                ok = 0;
            else
                yc[k] = (first + last) / 2.0;
        }
        if (ok)
            sl[ns++] = (yc[1] - yc[0]) / (bw * 0.8);
    }
    boxaDestroy(&boxa);
    pixDestroy(&o);
    if (ns < 3)
        return 0;
    for (i = 1; i < ns; i++)            /* insertion sort: ns is small */
        for (n = i; n > 0 && sl[n - 1] > sl[n]; n--) {
            tmp = sl[n];
            sl[n] = sl[n - 1];
            sl[n - 1] = tmp;
        }
    return atan(sl[ns / 2]);
}

void ocr_page_to_input(const xq_sheet *sh, double x, double y,
                       double *px, double *py)
{
    const double *m = sh->map;
    double w = m[6] * x + m[7] * y + m[8], rx, ry;
    if (fabs(w) < 1e-12)
        w = 1e-12;
    rx = (m[0] * x + m[1] * y + m[2]) / w / sh->scale;
    ry = (m[3] * x + m[4] * y + m[5]) / w / sh->scale;
    /* the turned input back to the input as it came (sh->w x sh->h):
     * a clockwise quarter turn takes (x, y) to (h - y, x) */
    switch (sh->orient) {
    case 1:  *px = ry;         *py = sh->h - rx; break;
    case 2:  *px = sh->w - rx; *py = sh->h - ry; break;
    case 3:  *px = sh->w - ry; *py = rx;         break;
    default: *px = rx;         *py = ry;         break;
    }
}

/* pixRotateAMGray's map from destination to source, as a matrix:
 *   xs = xc + (x - xc) cos a + (y - yc) sin a
 *   ys = yc - (x - xc) sin a + (y - yc) cos a   (xc = w/2, yc = h/2) */
static void rotation_map(double a, int w, int h, double m[9])
{
    double xc = w / 2.0, yc = h / 2.0, c = cos(a), s = sin(a);
    m[0] = c;  m[1] = s; m[2] = xc - xc * c - yc * s;
    m[3] = -s; m[4] = c; m[5] = yc + xc * s - yc * c;
    m[6] = 0;  m[7] = 0; m[8] = 1;
}

static void mat_mul(const double a[9], const double b[9], double out[9])
{
    double t[9];
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j]
                         + a[3 * i + 2] * b[6 + j];
    memcpy(out, t, sizeof t);
}

/* The page src resampled through m (destination -> source), same size. */
static PIX *warp(PIX *src, const double m[9])
{
    l_float32 vc[8];
    int i;
    for (i = 0; i < 8; i++)
        vc[i] = (l_float32)(m[i] / m[8]);
    return pixProjectiveGray(src, vc, 255);
}

/* Take the perspective of the ruling out of the deskewed page *pn (binary
 * *pb), resampling n0 (the same page before rotation) through map, which
 * on entry holds the rotation and on return the whole map. Two rounds: the
 * second measures what the first left. */
static xq_status rectify(PIX *n0, PIX **pn, PIX **pb, double map[9])
{
    int round;
    for (round = 0; round < 2; round++) {
        double m[9], t[9];
        bool warped = false;
        PIX *r, *rb;
        XQ_TRY(ocr_grid_rectify(*pn, *pb, m, &warped));
        if (!warped)
            break;
        mat_mul(map, m, t);
        r = warp(n0, t);
        if (!r)
            return XQ_ENOMEM;
        rb = ocr_page_binarise(r, OCR_INK_THRESH);
        if (!rb) {
            pixDestroy(&r);
            return XQ_ENOMEM;
        }
        pixDestroy(pn);
        pixDestroy(pb);
        *pn = r;
        *pb = rb;
        memcpy(map, t, sizeof t);
    }
    return XQ_OK;
}

/* A faded copy or a scan with its contrast turned down has no black: its
 * darkest print is a mid grey. Background normalisation takes grey that
 * light over a large area for paper (the solid corner squares of
 * xqscan's form came out hollow, the form unfound, its printed guides
 * read as writing in every cell: 210 of 240 cells "written" where 59
 * are). Where even the darkest 0.05% of the page is lighter than
 * FADED_DARK, the greys are stretched linearly so that it lands at 20
 * (paper stays the lightest); any other page is left as it is (the
 * darkest of the rendered bench pages, sparse grey handwriting on a
 * bilevel-like scan, is 113 there; the faded copy 157). */
#define FADED_DARK 135
static PIX *stretch_faded(PIX *g)
{
    NUMA *na = pixGetGrayHistogram(g, 4);
    l_float32 *v;
    double total = 0, acc = 0;
    int i, n, low = 0;
    if (!na)
        return NULL;
    n = numaGetCount(na);
    v = numaGetFArray(na, L_NOCOPY);
    for (i = 0; i < n; i++)
        total += v[i];
    for (i = 0; i < n; i++) {
        acc += v[i];
        if (acc >= 0.0005 * total) {
            low = i;
            break;
        }
    }
    numaDestroy(&na);
    if (low <= FADED_DARK || low >= 235)
        return pixClone(g);
    /* low -> 20, 255 -> 255 */
    return pixGammaTRC(NULL, g, 1.0f, low - 20 * (255 - low) / 235, 255);
}

xq_status ocr_page_normalise(const xq_ocr *ocr, PIX *pix, xq_sheet *sh)
{
    PIX *g = NULL, *s = NULL, *n = NULL, *b = NULL, *n0 = NULL;
    xq_status st;
    l_float32 angle = 0.0f, conf = 0.0f;
    int w, h, lng;
    double scale = 1.0;
    (void)ocr;

    w = pixGetWidth(pix);
    h = pixGetHeight(pix);
    sh->w = w;
    sh->h = h;
    lng = w > h ? w : h;
    if (lng < 64)
        return XQ_EIMAGE;
    g = to_grey(pix);
    if (!g)
        return XQ_EIMAGE;
    if (lng > OCR_MAX_LONG)
        scale = (double)OCR_MAX_LONG / lng;
    else if (lng < OCR_MIN_LONG)
        scale = (double)OCR_MIN_LONG / lng;
    if (scale != 1.0) {
        s = scale < 1.0 ? pixScaleAreaMap(g, (l_float32)scale, (l_float32)scale)
                        : pixScaleGrayLI(g, (l_float32)scale, (l_float32)scale);
        pixDestroy(&g);
        if (!s)
            return XQ_ENOMEM;
        /* the exact factor after rounding of the output size */
        scale = (double)pixGetWidth(s) / w;
        g = s;
    }
    sh->scale = scale;
    {
        PIX *t = stretch_faded(g);
        pixDestroy(&g);
        if (!t)
            return XQ_ENOMEM;
        g = t;
    }
    n = pixBackgroundNormSimple(g, NULL, NULL);
    pixDestroy(&g);
    if (!n)
        return XQ_ENOMEM;
    b = ocr_page_binarise(n, OCR_INK_THRESH);
    if (!b) {
        pixDestroy(&n);
        return XQ_ENOMEM;
    }
    if (pixFindSkewSweepAndSearch(b, &angle, &conf, 4, 2, 12.0f, 0.5f,
                                  0.01f) != 0 || conf < 0.5f)
        angle = 0.0f;
    sh->angle = 0.0;
    {
        /* deskew by the text/ruling projection, then refine by the slope of
         * the ruling lines themselves (photos: projections are unsure) */
        double rad = fabsf(angle) > 0.04f ? angle * M_PI / 180.0 : 0.0;
        int iter;
        for (iter = 0; iter < 3; iter++) {
            PIX *r, *rb;
            double res;
            if (fabs(rad) < 1e-4)
                r = pixClone(n);
            else
                r = pixRotateAMGray(n, (l_float32)rad, 255);
            if (!r)
                break;
            rb = ocr_page_binarise(r, OCR_INK_THRESH);
            if (!rb) {
                pixDestroy(&r);
                break;
            }
            res = ruling_slope(rb);
            if (fabs(res) < 0.0015 || iter == 2) {
                pixDestroy(&b);
                n0 = n;
                n = r;
                b = rb;
                sh->angle = rad;
                break;
            }
            pixDestroy(&r);
            pixDestroy(&rb);
            rad -= res;
        }
    }
    if (!n0)
        n0 = pixClone(n);
    sh->nw = pixGetWidth(n);
    sh->nh = pixGetHeight(n);
    rotation_map(sh->angle, sh->nw, sh->nh, sh->map);
    st = n0 ? rectify(n0, &n, &b, sh->map) : XQ_ENOMEM;
    pixDestroy(&n0);
    if (st != XQ_OK) {
        pixDestroy(&n);
        pixDestroy(&b);
        return st;
    }
    sh->pixg = n;
    sh->pixb = b;
    return XQ_OK;
}

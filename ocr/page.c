/* page.c - page normalisation: grey, resolution, background, skew.
 *
 * The normalised page is the input converted to 8-bit grey (darkest
 * channel, so blue, red or black ink all read dark), scaled so that its long
 * side lies in [OCR_MIN_LONG, OCR_MAX_LONG], background-normalised and
 * rotated by the skew angle around its centre. Every step is invertible so
 * cell boxes can be reported in the input's own pixel coordinates
 * (ocr_page_to_input). Keystone is not warped away: grid.c fits each ruling
 * line separately, which absorbs perspective.
 */
#include <math.h>

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
    /* pixRotateAMGray maps destination (x, y) to source
     *   xs = xc + (x - xc) cos a + (y - yc) sin a
     *   ys = yc - (x - xc) sin a + (y - yc) cos a   (xc = w/2, yc = h/2) */
    double xc = sh->nw / 2.0, yc = sh->nh / 2.0;
    double c = cos(sh->angle), s = sin(sh->angle);
    double xs = xc + (x - xc) * c + (y - yc) * s;
    double ys = yc - (x - xc) * s + (y - yc) * c;
    *px = xs / sh->scale;
    *py = ys / sh->scale;
}

xq_status ocr_page_normalise(const xq_ocr *ocr, PIX *pix, xq_sheet *sh)
{
    PIX *g = NULL, *s = NULL, *n = NULL, *b = NULL;
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
                pixDestroy(&n);
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
    sh->nw = pixGetWidth(n);
    sh->nh = pixGetHeight(n);
    sh->pixg = n;
    sh->pixb = b;
    return XQ_OK;
}

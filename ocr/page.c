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
static PIX *binarise(PIX *n)
{
    PIX *b = pixThresholdToBinary(n, OCR_INK_THRESH), *solid, *grown;
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
    b = binarise(n);
    if (!b) {
        pixDestroy(&n);
        return XQ_ENOMEM;
    }
    if (pixFindSkewSweepAndSearch(b, &angle, &conf, 4, 2, 12.0f, 0.5f,
                                  0.01f) != 0 || conf < 0.5f)
        angle = 0.0f;
    sh->angle = 0.0;
    if (fabsf(angle) > 0.04f) {
        /* Leptonica: a positive angle rotates clockwise; pixFindSkew gives
         * the angle that deskews. */
        double rad = angle * M_PI / 180.0;
        PIX *r = pixRotateAMGray(n, (l_float32)rad, 255);
        if (r) {
            pixDestroy(&n);
            pixDestroy(&b);
            n = r;
            b = binarise(n);
            if (!b) {
                pixDestroy(&n);
                return XQ_ENOMEM;
            }
            sh->angle = rad;
        }
    }
    sh->nw = pixGetWidth(n);
    sh->nh = pixGetHeight(n);
    sh->pixg = n;
    sh->pixb = b;
    return XQ_OK;
}

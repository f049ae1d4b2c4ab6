/* debug.c - the detected table and cells drawn over the page (PNG). */
#include "ocr_internal.h"

xq_status ocr_debug_write(const xq_sheet *sh, const char *path)
{
    PIX *rgb = pixConvertTo32(sh->pixg);
    size_t i;
    int ok;
    if (!rgb)
        return XQ_ENOMEM;
    for (i = 0; i < sh->ncells; i++) {
        const ocr_cell *c = &sh->cells[i];
        PTA *pta = ptaCreate(4);
        int k, side = (int)(i % 2);
        l_uint8 r = side ? 0 : 220, g = c->blank ? 170 : 0, b = side ? 220 : 0;
        if (!pta) {
            pixDestroy(&rgb);
            return XQ_ENOMEM;
        }
        for (k = 0; k < 4; k++)
            ptaAddPt(pta, (l_float32)c->q[2 * k], (l_float32)c->q[2 * k + 1]);
        pixRenderPolylineArb(rgb, pta, c->blank ? 1 : 3, r, g, b, 1);
        ptaDestroy(&pta);
        if (c->struck)
            pixRenderLineArb(rgb, (int)c->q[0], (int)c->q[1], (int)c->q[4],
                             (int)c->q[5], 2, 255, 128, 0);
    }
    if (sh->table_top >= 0)
        pixRenderLineArb(rgb, 0, sh->table_top, sh->nw - 1, sh->table_top, 2,
                         0, 160, 0);
    ok = pixWrite(path, rgb, IFF_PNG);
    pixDestroy(&rgb);
    return ok == 0 ? XQ_OK : XQ_EIO;
}

/* sheet_source.c - an OCR'd sheet (xq_ocr.h) as a verifier cell source. */
#include <string.h>

#include "verify_internal.h"
#include "xqscan/xq_ocr.h"

static int sh_blank(void *ud, size_t i)
{
    xq_sheet_cells *c = ud;
    return xq_sheet_cell_blank(c->sheet, i) ? 1 : 0;
}

/* The cell's best reading: the glyph models' own best move-shaped reading
 * (a reference every legal move is measured against: a move that reads
 * worse than it is not what the cell shows), else Tesseract's raw text. */
static const char *sh_text(void *ud, size_t i)
{
    xq_sheet_cells *c = ud;
    const char *r = xq_sheet_cell_read(c->ocr, c->sheet, i);
    if (r && r[0])
        return r;
    return xq_sheet_cell_text(c->ocr, c->sheet, i);
}

static double sh_score(void *ud, size_t i, const char *utf8)
{
    xq_sheet_cells *c = ud;
    return xq_sheet_cell_score(c->ocr, c->sheet, i, utf8);
}

static int sh_box(void *ud, size_t i, int *ppage, int box[4])
{
    xq_sheet_cells *c = ud;
    if (xq_sheet_cell_box(c->sheet, i, box) != XQ_OK)
        return 0;
    *ppage = xq_sheet_page(c->sheet);
    return 1;
}

static int sh_illegible(void *ud, size_t i)
{
    xq_sheet_cells *c = ud;
    return xq_sheet_cell_illegible(c->ocr, c->sheet, i) ? 1 : 0;
}

void xq_verify_source_from_sheet(xq_sheet_cells *cells, xq_cell_source *psrc)
{
    if (!psrc)
        return;
    memset(psrc, 0, sizeof *psrc);
    if (!cells || !cells->sheet)
        return;
    psrc->ncells = xq_sheet_ncells(cells->sheet);
    psrc->ud = cells;
    psrc->is_blank = sh_blank;
    psrc->text = sh_text;
    psrc->score = sh_score;
    psrc->box = sh_box;
    psrc->illegible = sh_illegible;
}

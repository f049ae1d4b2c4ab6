/* xq_ocr.h - stage "ocr": scoresheet images -> sheets of move cells.
 *
 * An xq_ocr engine holds one Tesseract instance (chi_sim+chi_tra, loaded
 * once in xq_ocr_create) and the built-in glyph models. Make one per
 * worker process; it is not thread-safe.
 *
 * xq_ocr_read_file() turns an image file (PNG, JPEG, TIFF; every page of a
 * multi-page TIFF is one sheet) into xq_sheet objects. A sheet knows its
 * header fields and its move cells IN MOVE ORDER:
 *     cell index i = 2 * (move_number - 1) + side   (side 0 Red, 1 Black)
 * continuing from one column block to the next.
 *
 * The verifier asks xq_sheet_cell_score(ocr, sheet, i, "马8进7") for every
 * candidate spelling of every legal move; the score is a log-probability-
 * like value (<= 0, higher is better) comparable across candidate strings
 * for the same cell. Per-cell features are computed on first use and cached
 * in the sheet, after which a call costs about a microsecond.
 */
#ifndef XQ_OCR_H
#define XQ_OCR_H

#include <stdbool.h>
#include <stddef.h>
#include "xq_status.h"
#include "xq_game.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_ocr xq_ocr;
typedef struct xq_sheet xq_sheet;

/* Forward declaration so callers need not include Leptonica. */
struct Pix;

typedef struct {
    const char *tessdata;     /* Tesseract data path; NULL: system default */
    const char *languages;    /* NULL: "chi_sim+chi_tra" */
    bool        no_tesseract; /* true: glyph models only (no raw text) */
    const char *debug_png;    /* non-NULL: write the detected table and
                                 cells drawn over the page to this PNG
                                 (page k > 0 of a multi-page input gets
                                 "-p<k+1>" inserted before ".png") */
    long        max_pixels;   /* refuse larger images; 0: 100 megapixels */
    void      (*log_fn)(void *ud, int level, const char *msg); /* optional */
    void       *log_ud;
} xq_ocr_options;

/* Initialise Tesseract once plus the glyph models. opts may be NULL.
 * XQ_EOCR when Tesseract cannot be initialised. */
xq_status xq_ocr_create(xq_ocr **pocr, const xq_ocr_options *opts);
void      xq_ocr_destroy(xq_ocr **pocr);

/* How many times this engine initialised Tesseract (1 after create unless
 * no_tesseract; it never re-initialises). For tests. */
int xq_ocr_tess_init_count(const xq_ocr *ocr);

/* Read every page of an image file. On success *psheets is an array of *pn
 * sheets (free each with xq_sheet_destroy and the array with
 * xq_ocr_sheets_free). Errors: XQ_EIO (cannot open), XQ_EIMAGE (not an
 * image, corrupt, truncated, zero bytes, larger than max_pixels - checked
 * from the header before decoding); err gets a one-line message. A page on
 * which no move table is found is still returned, with 0 cells. */
xq_status xq_ocr_read_file(xq_ocr *ocr, const char *path,
                           xq_sheet ***psheets, size_t *pn,
                           char *err, size_t errlen);

/* The same for a page already in memory (any depth; the pix is not taken,
 * a reference is cloned). page is stored as the sheet's page index. */
xq_status xq_ocr_read_pix(xq_ocr *ocr, struct Pix *pix, int page,
                          xq_sheet **psheet, char *err, size_t errlen);

/* Destroys all sheets of an array from xq_ocr_read_file and the array. */
void xq_ocr_sheets_free(xq_sheet ***psheets, size_t n);
void xq_sheet_destroy(xq_sheet **psheet);

/* ---- sheet ---- */
typedef enum {
    XQ_HDR_EVENT = 0, XQ_HDR_ROUND, XQ_HDR_BOARD, XQ_HDR_RED, XQ_HDR_BLACK,
    XQ_HDR_DATE, XQ_HDR_RESULT, XQ_HDR_COUNT
} xq_header_field;

/* Raw header value as read (UTF-8), NULL when absent. Borrowed. */
const char *xq_sheet_header(const xq_sheet *sheet, xq_header_field f);
int    xq_sheet_page(const xq_sheet *sheet);
size_t xq_sheet_nrows(const xq_sheet *sheet);   /* move rows, all blocks */
size_t xq_sheet_nblocks(const xq_sheet *sheet);
size_t xq_sheet_ncells(const xq_sheet *sheet);  /* = 2 * nrows */
/* Width and height of the input page in pixels. */
void   xq_sheet_size(const xq_sheet *sheet, int *pw, int *ph);

/* ---- cells (index in move order, see above) ---- */
bool xq_sheet_cell_blank(const xq_sheet *sheet, size_t cell);
/* Ink struck through: a stroke across the written record. Where the
 * record was written again beside, above or below it, the struck part is
 * left out of the cell's readings (text, read, score): they are the
 * rewritten record's. */
bool xq_sheet_cell_struck(const xq_sheet *sheet, size_t cell);
/* Raw Tesseract text of the cell ("" when blank or not read); borrowed,
 * valid while the sheet lives. The text is read lazily on first call. */
const char *xq_sheet_cell_text(xq_ocr *ocr, xq_sheet *sheet, size_t cell);
/* The glyph models' own best reading of the cell as a move (4 glyphs in
 * the shape piece-file-direction-file, Chinese numerals or digits, or
 * 前/中/后 + piece), without Tesseract and without any rule of the game;
 * "" when blank. Borrowed, valid while the sheet lives; computed lazily. */
const char *xq_sheet_cell_read(xq_ocr *ocr, xq_sheet *sheet, size_t cell);
/* How much the cell's ink looks like writing of the move alphabet: the
 * best mean, over splits of the ink into 3 to 6 glyphs, of each glyph's
 * cosine similarity to the nearest reference glyph (about 0.9 or more for
 * a written record); -1 when the ink splits into no 3 to 6 glyphs (many
 * pieces, each too wide to join) or the cell is blank or out of range.
 * Computed lazily. */
double xq_sheet_cell_glyph_fit(xq_ocr *ocr, xq_sheet *sheet, size_t cell);
/* Ink that is no writing: a cell scribbled over or out, whose ink splits
 * into no 3 to 6 glyphs, or fits glyphs much worse (by 0.2) than the
 * sheet's records do in the middle (median), and keeps to one line (ink
 * no taller than 1.2 times the records' median: taller ink is a record
 * rewritten above or below a struck one); or, scribbled over with the
 * glyphs still showing, whose ink is joined in one dense piece across
 * more than two glyphs and fits 0.12 worse than the median, on a sheet
 * where fewer than one in ten legible records are joined so (cursive, or
 * writing too small for the scan, joins legible records too). Measured
 * against the sheet's own writing, so a poor scan or an unusual hand does
 * not make its records illegible; and not at all on a sheet where a
 * quarter of the written cells would be (then the ink is not the problem,
 * the reading is) or whose writing is under 15 pixels high (too small to
 * tell). The first call computes every written cell's fit. */
bool xq_sheet_cell_illegible(xq_ocr *ocr, xq_sheet *sheet, size_t cell);
/* Axis-aligned box [x, y, w, h] of the cell in the INPUT image's own pixel
 * coordinates (before deskew or warp). XQ_ERANGE for a bad index. */
xq_status xq_sheet_cell_box(const xq_sheet *sheet, size_t cell, int pbox[4]);
/* Fill *pcrop with a grey (0 = black) copy of the cell as normalised
 * (owned by the caller: free crop->px with xq_free). */
xq_status xq_sheet_cell_crop(const xq_sheet *sheet, size_t cell,
                             xq_crop *pcrop);

/* Log-probability-like score (<= 0, higher = better) of the cell showing
 * the UTF-8 string utf8 (any spelling: 马8进7, 馬８進７, 傌八進七 ...;
 * WXF/ASCII strings score by their glyphs too). Blank cells score the
 * empty string high and any text low. Returns -INFINITY-like very low
 * values (-1e9) for a bad index. Thread-unsafe (fills the cell cache). */
double xq_sheet_cell_score(xq_ocr *ocr, xq_sheet *sheet, size_t cell,
                           const char *utf8);

/* ---- xqscan's own printable form (A4, 300 dpi, 3 blocks x 40 rows;
 * geometry = tools/render/form_geometry.json) ---- */
/* A new 8 bpp page (free with pixDestroy). */
xq_status xq_form_render(struct Pix **ppix);
/* Write it as PNG. XQ_EIO when the file cannot be written. */
xq_status xq_form_write_png(const char *path);

#ifdef __cplusplus
}
#endif
#endif

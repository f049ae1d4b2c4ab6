/* ocr_internal.h - layouts private to the ocr stage (not public API). */
#ifndef XQ_OCR_INTERNAL_H
#define XQ_OCR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

#include "xqscan/xq_ocr.h"
#include "xq_core.h"

/* ---- glyph model (glyph.c) ---- */
#define OCR_FEAT_GRID 8                       /* 8 x 8 cells */
#define OCR_FEAT_DIRS 8                       /* gradient directions */
#define OCR_FEAT_DIM (OCR_FEAT_GRID * OCR_FEAT_GRID * OCR_FEAT_DIRS)
#define OCR_NORM 40                           /* normalised glyph tile */
#define OCR_MAX_SEG 12                        /* elementary segments per cell */
#define OCR_GLYPH_W 1.2   /* ink wider than this many ink heights is more
                             than one glyph */
#define OCR_MAX_RANGES (OCR_MAX_SEG * (OCR_MAX_SEG + 1) / 2)
#define OCR_MAX_CLASSES 64

typedef struct {
    int     nclass;          /* glyph classes */
    int     group[OCR_MAX_CLASSES];   /* variant group of each class */
    uint32_t cp[OCR_MAX_CLASSES];     /* code point of each class */
    int     nproto;          /* prototypes */
    float  *proto;           /* nproto x OCR_FEAT_DIM, L2-normalised */
    int    *proto_class;     /* class of each prototype */
} ocr_glyph_model;

/* Class list (UTF-8 strings, one glyph each) and its size. */
extern const char *const ocr_glyph_classes[];
int ocr_glyph_class_count(void);
/* Class index of a code point (full-width folded), -1 if none. */
int ocr_glyph_class_of(uint32_t cp);
/* Variant group of a class (classes in one group are the same symbol). */
int ocr_glyph_group(int cls);

xq_status ocr_glyph_model_load(ocr_glyph_model *m);
void      ocr_glyph_model_free(ocr_glyph_model *m);

/* A grey image (0 = ink, 255 = paper), row-major, owned. */
typedef struct {
    int      w, h;
    uint8_t *px;
} ocr_img;

/* Feature vector of a grey glyph image region (x0..x1-1, y0..y1-1 of img;
 * the ink box is found inside). Returns false when the region has no ink. */
bool ocr_glyph_features(const ocr_img *img, int x0, int y0, int x1, int y1,
                        float *feat);
/* Log-probabilities over classes for a feature vector; returns the best
 * class's cosine similarity (how much like some glyph of the alphabet the
 * ink is: 1 = the same). */
float ocr_glyph_classify(const ocr_glyph_model *m, const float *feat,
                         float *logp);

/* Per-cell lattice (cached): elementary segments of the ink, and for every
 * admissible range of consecutive segments the class log-probabilities. */
typedef struct {
    bool   done;
    int    nseg;
    int    ink_h;                      /* height of the cell's ink */
    float  join_w;                     /* width of the widest connected
                                          piece of ink, in ink heights */
    float  join_fill;                  /* share of that piece's box that
                                          is ink */
    float  ink_fill;                   /* share of the box of all the
                                          cell's ink that is ink */
    int    segx[2 * OCR_MAX_SEG];      /* x0, x1 (exclusive) per segment */
    float  range_ok[OCR_MAX_RANGES];   /* 0 admissible, else unused */
    float  sim[OCR_MAX_RANGES];        /* best glyph similarity per range */
    float  fit;                        /* glyph fit of the ink (glyph_fit
                                          in cells.c), -1 none */
    float *ll;                         /* OCR_MAX_LATS x OCR_MAX_RANGES x
                                          nclass, already maxed over each
                                          variant group */
    /* second segmentation of the same ink (ll after the first's) */
    int    nseg2;
    int    segx2[2 * OCR_MAX_SEG];
    float  range_ok2[OCR_MAX_RANGES];
} ocr_lattice;
#define OCR_MAX_LATS 2

/* ---- Tesseract wrapper (tess.c) ---- */
typedef struct {
    TessBaseAPI *api;
    int          inits;
} ocr_tess;

xq_status ocr_tess_init(ocr_tess *t, const char *datapath, const char *langs);
void      ocr_tess_end(ocr_tess *t);
/* Read one text line from an 8-bit grey image; *ptext owned (xq_free). */
xq_status ocr_tess_line(ocr_tess *t, PIX *pix8, char **ptext);
/* Read a block of text (psm 6). */
xq_status ocr_tess_block(ocr_tess *t, PIX *pix8, char **ptext);

/* ---- engine ---- */
struct xq_ocr {
    xq_ocr_options  opts;
    char           *tessdata, *languages, *debug_png;
    ocr_tess        tess;
    ocr_glyph_model model;
    double          tess_weight;   /* weight of Tesseract's reading in scores */
};

/* ---- sheet ---- */
typedef struct {
    double q[8];          /* quad tl, tr, br, bl in normalised page coords */
    int    box[4];        /* axis-aligned box in input image coords */
    int    ibox[4];       /* interior box used for the crop (normalised) */
    bool   blank, struck;
    ocr_img ink;          /* cleaned ink of the interior (0 ink, 255 paper) */
    ocr_img faint;        /* ink with the light strokes the cleaning left
                             out added (px NULL: there were none) */
    ocr_img grey;         /* grey crop of the interior */
    char  *text;          /* Tesseract text, NULL until read */
    char  *read;          /* best lattice reading, NULL until asked */
    ocr_lattice lat;
    ocr_lattice flat;     /* lattice of the faint ink, built when a
                             candidate is first scored */
} ocr_cell;

/* Free what cell c holds (not c itself). */
void ocr_cell_free(ocr_cell *c);

struct xq_sheet {
    int     page;
    int     w, h;         /* input image size */
    int     orient;       /* quarter turns clockwise the input was turned
                             before it was read (a page scanned upside
                             down or sideways: xq_ocr_read_pix) */
    double  scale;        /* normalised = input * scale (before rotation) */
    double  angle;        /* radians, rotation applied by pixRotateAMGray */
    double  map[9];       /* normalised page (x, y, 1) -> scaled input
                             (homogeneous, row-major): rotation and
                             perspective rectification together */
    bool    form;         /* cells placed from xqscan's form fiducials */
    int     nw, nh;       /* normalised page size */
    PIX    *pixg;         /* normalised grey page (8 bpp) */
    PIX    *pixb;         /* its binarisation (1 bpp) */
    PIX    *pixlines;     /* detected ruling (1 bpp), may be NULL */
    int     nrules[2];    /* ruling lines found across and down (the most
                             of ocr_grid_find's passes; 0 for xqscan's
                             form) */
    char   *hdr[XQ_HDR_COUNT];
    size_t  nrows, nblocks;
    size_t  blk_first[16];    /* cell index of each block's first row */
    size_t  ncells;
    ocr_cell *cells;
    int     table_top;    /* normalised y of the table's top, -1 none */
    /* the move-number column left of each block's Red column, where the
     * ruling shows one: quads (as ocr_cell.q) of its cells in the block's
     * first three rows */
    bool    num_found[16];
    double  num_q[16][3][8];
    /* glyph fit of the written cells (xq_sheet_cell_illegible): computed
     * once; the median fit, its median absolute deviation, ink height and
     * ink fill (ocr_lattice.ink_fill), whether the cue is used on this
     * sheet, and whether ink joined across glyphs is (join_use: the
     * writer's records stand apart) */
    bool    fit_done, fit_use, join_use;
    double  fit_med, fit_mad, fit_hmed, fill_med;
};

/* page.c */
xq_status ocr_page_normalise(const xq_ocr *ocr, PIX *pix, xq_sheet *sh);
/* Binarise a normalised page at thresh, without solid dark areas. */
PIX *ocr_page_binarise(PIX *n, int thresh);
/* Map a point of the normalised page back to input image coordinates. */
void ocr_page_to_input(const xq_sheet *sh, double x, double y,
                       double *px, double *py);

/* grid.c: find the move table; fills sh->cells (q only), nrows, nblocks. */
xq_status ocr_grid_find(xq_ocr *ocr, xq_sheet *sh);
/* Perspective of a page's ruling: m (row-major 3x3) maps rectified page
 * coordinates to grey's, so that the row lines come out horizontal and the
 * column lines vertical, scale 1 at the page centre. *pwarp false (m the
 * identity) when there is no table, no measurable perspective, or an
 * implausible one. */
xq_status ocr_grid_rectify(PIX *grey, PIX *bin, double m[9], bool *pwarp);

/* Drop each block's first row when it holds column labels (红方/Red ...). */
xq_status ocr_cells_drop_label_rows(xq_ocr *ocr, xq_sheet *sh);

/* cells.c */
xq_status ocr_cells_extract(xq_sheet *sh);
xq_status ocr_cell_lattice(xq_ocr *ocr, ocr_cell *c);
double    ocr_cell_score(xq_ocr *ocr, ocr_cell *c, const char *utf8);
xq_status ocr_cell_read(xq_ocr *ocr, ocr_cell *c);
void      ocr_img_free(ocr_img *im);
xq_status ocr_img_from_pix(PIX *pix8, ocr_img *im);
PIX      *ocr_img_to_pix(const ocr_img *im);
xq_status ocr_cell_text(xq_ocr *ocr, ocr_cell *c);

/* header.c */
xq_status ocr_header_read(xq_ocr *ocr, xq_sheet *sh);

/* form.c: geometry of xqscan's form, in form_geometry.json's order. */
typedef struct { int x, y, w, h; } ocr_rect;
typedef struct { char text[48]; ocr_rect r; int height; } ocr_form_text;
int ocr_form_lines(ocr_rect *out, int max);            /* returns count */
int ocr_form_cells(ocr_rect *cells, ocr_rect *guides, int max); /* 4 guides
                                                          per cell */
int ocr_form_texts(ocr_form_text *out, int max);
int ocr_form_fiducials(ocr_rect *out, int max);
int ocr_form_table_top(void);          /* y of the move table's top rule */
int ocr_form_header(ocr_rect *box, ocr_rect *label, ocr_rect *write,
                    const char **fields, int max);
/* xqscan's form on a normalised page: its four corner fiducials (solid
 * squares, one per page quadrant) give h, the homography from form
 * coordinates to the page's; *pfound only when the form's ruling lies
 * where h puts it (h the identity otherwise). */
xq_status ocr_form_locate(PIX *grey, double h[9], bool *pfound);
/* Apply such a homography to a point. */
void ocr_form_map(const double h[9], double x, double y, double *px,
                  double *py);

/* debug.c */
xq_status ocr_debug_write(const xq_sheet *sh, const char *path);

#endif

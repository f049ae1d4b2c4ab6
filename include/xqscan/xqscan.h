/* xqscan.h - the umbrella API: one scoresheet image in, verified reports out.
 *
 *   xq_scanner *sc;
 *   xq_scanner_create(&sc, &opts, err, sizeof err);    once per process
 *   xq_scan_file(sc, "round3/board07.png", &input, emit, ud, &flags, err, n);
 *   xq_scanner_destroy(&sc);
 *
 * xq_scan_file runs the stages in order: xq_ocr_read_file (every page of the
 * image is one sheet) -> xq_verify_sheet (through the sheet's cell source)
 * -> xq_report_pgn / xq_report_json / xq_report_html, and hands each report
 * to emit() as text; it writes no file itself (the batch in cli/ writes them
 * atomically). The stage headers (xq_ocr.h, xq_verify.h, xq_report.h) stay
 * usable on their own.
 */
#ifndef XQSCAN_H
#define XQSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include "xq_game.h"
#include "xq_report.h"
#include "xq_status.h"
#include "xq_verify.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_scanner xq_scanner;

typedef struct {
    int         threshold;     /* unrecorded-move threshold; <= 0: 16 */
    const char *notation;      /* moves in the PGN: chinese, traditional,
                                  wxf, iccs; NULL: chinese */
    const char *corrections;   /* an arbiter's corrections file, or NULL */
    bool        corrections_any_sheet; /* apply corrections that name no
                                  sheet (no source, no input_sha256); else
                                  they apply only to the sheet they name */
    const char *tessdata;      /* Tesseract data folder; NULL: default */
    long        max_pixels;    /* refuse larger images; 0: 100 megapixels */
} xq_scan_options;

void xq_scan_options_init(xq_scan_options *opts);

/* What the JSON records about the input (all may be NULL). */
typedef struct {
    const char *source;        /* path relative to the folder given */
    const char *input_sha256;
    const char *options_json;  /* a JSON object */
    const char *index_href;    /* link from each HTML report to the index */
    const char *owner;         /* whose scoresheet: "red", "black" or NULL
                                  (unknown; e.g. from the file name) */
} xq_scan_input;

/* One report of one sheet: page 1, 2, ... of the input; ext ".pgn",
 * ".json" or ".html". A non-OK return stops xq_scan_file with that status. */
typedef xq_status (*xq_scan_emit_fn)(void *ud, int page, const char *ext,
                                     const char *data, size_t len);

#define XQ_SCAN_NEEDS_ARBITER 1   /* some sheet has an error or warning
                                     finding, or a ply under review */

/* Start the engines (Tesseract with chi_sim+chi_tra, glyph models) and read
 * the corrections file. XQ_EOCR / XQ_EIO / XQ_EINVAL with a message in err. */
xq_status xq_scanner_create(xq_scanner **psc, const xq_scan_options *opts,
                            char *err, size_t errlen);
void xq_scanner_destroy(xq_scanner **psc);

/* Read, verify and report every sheet of one image file. Errors (XQ_EIO,
 * XQ_EIMAGE: unreadable, not an image, truncated, too large) come with a
 * one-line reason in err; problems ON the sheet are findings, not errors.
 * *pflags gets XQ_SCAN_NEEDS_ARBITER; *pnsheets the number of sheets. */
xq_status xq_scan_file(xq_scanner *sc, const char *path,
                       const xq_scan_input *in, xq_scan_emit_fn emit, void *ud,
                       int *pflags, size_t *pnsheets, char *err, size_t errlen);

/* Two sheets of one game (Red's and Black's scoresheets; in[k].owner says
 * which when known, either order is fine): page 1 of each file is read and
 * both are decoded jointly (xq_verify_pair) into one reconciled record,
 * handed to emit() as page 1 ".pgn", ".html", ".json". That JSON is the
 * schema's object for the game (owner null; "source", "input_sha256" and
 * "options" from *pin; header fields from whichever sheet has them) plus
 * a member "pair": { "by": by (how the sheets were paired, e.g. "file name"
 *   or "header"; null when by is NULL),
 *   "sheets": [ { "source", "owner", "input_sha256", "unrecorded":
 *   { "red", "black", "total", "longest_run", "exceeded" }, "review": n,
 *   "findings": n, "plies_alone": n, "review_alone": n } x2 ]
 *   (review: plies under review in the sheet's own record of the joint
 *   decoding; *_alone: the sheet decoded on its own),
 *   "ply_sheet": [ 0 | 1 | null per ply: the sheet whose cell the ply's
 *   "cell" is ], "review_added": n }
 * A reconciled ply is left unflagged (review false) only when the joint
 * decoding also leaves the same move unflagged in one sheet's own record,
 * and one sheet decoded alone (xq_verify_sheet) has the same move at that
 * ply, and not at all when neither sheet alone leaves 1 ply in 5
 * unflagged (finding sheets_unreadable); review_added counts the plies
 * flagged by these rules.
 * Each sheet's unrecorded counts are its own (as read jointly with the
 * other sheet); disagreements are sheets_disagree findings, and recorded
 * results that differ are a sheets_disagree finding with ply null.
 * Errors as xq_scan_file's ("sheet 1: ..." / "sheet 2: ..." in err). */
xq_status xq_scan_pair(xq_scanner *sc, const char *const path[2],
                       const xq_scan_input in[2], const xq_scan_input *pin,
                       const char *by, xq_scan_emit_fn emit, void *ud, int *pflags,
                       char *err, size_t errlen);

/* "0.1.0" */
const char *xq_version(void);

/* An arbiter's corrections file (xq_corrections_read) as the verifier's
 * list: *pvc gets c->nplies entries (free with xq_free) whose move strings
 * stay owned by c; NULL when c has no plies. Used by scan and verify. */
xq_status xq_corrections_to_verify(const xq_corrections *c,
                                   xq_verify_correction **pvc);

#ifdef __cplusplus
}
#endif
#endif

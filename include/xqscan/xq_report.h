/* xq_report.h - stage 4: a verified game (xq_game.h) -> PGN, JSON, HTML,
 * and the batch outputs (index.html, summary.csv).
 *
 * report/ formats; it decides nothing. Every writer appends to an xq_strbuf
 * (core/strbuf.h) and never touches the file system; writing files, atomic
 * replacement included, is the caller's business (a small helper,
 * xq_report_write_file_atomic, is provided for it).
 *
 * What the writers expect of the record (the verifier's side of the deal):
 *   - a ply with a move (mv != XQ_MOVE_NONE) has iccs, chinese (simplified,
 *     Black's files as full-width digits) and wxf filled in;
 *   - candidates have iccs and chinese filled in.
 * The PGN and the board diagrams use the stored strings and mv; nothing is
 * re-resolved here.
 *
 * Corrections file (saved by the HTML report's review mode, read by
 * xq_corrections_read, applied by `xqscan --corrections FILE`):
 *
 *   { "schema": "xqscan-corrections/1",
 *     "source": "round3/board07.png",      the sheet's "source" (may be "")
 *     "input_sha256": "ab12...",            the sheet's input hash (may be "")
 *     "plies": [ { "ply": 23, "move": "h2e2" },
 *                { "ply": 24, "move": "马８进７" } ] }
 *
 *   ply  - the ply number as in the sheet's JSON (1 = Red's first move);
 *   move - what the arbiter says was played: an ICCS move (a0..i9, four
 *          characters, as "h2e2") or move text in any notation the notation
 *          reader accepts (Chinese, WXF); never empty.
 *   Each ply is listed at most once, in any order; plies not
 *   listed keep what xqscan decided. Unknown keys are ignored (forward
 *   compatibility); a different "schema" value is rejected.
 */
#ifndef XQ_REPORT_H
#define XQ_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "strbuf.h"
#include "xq_game.h"
#include "xq_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- PGN ----------------------------------------------------------------
 * xqbase conventions: [Game "Chinese Chess"] first, then Event, Site, Date
 * (yyyy.mm.dd, '?' for unknown parts), Round, Red, Black, Result, [FEN]
 * when the start is not the standard position, [Format] when the moves are
 * not Chinese ("WXF" or "ICCS"), then [Board] when known. Moves one pair a
 * line. A ply under review carries a comment with what was read and the
 * candidates; a ply without any move ends the move text with a comment
 * (nothing after it can be replayed). */
typedef enum {
    XQ_PGN_CHINESE = 0,   /* simplified: 炮二平五 马８进７ */
    XQ_PGN_TRADITIONAL,   /* traditional glyphs: 炮二平五 馬８進７ */
    XQ_PGN_WXF,           /* C2.5 / as stored in the record's wxf field */
    XQ_PGN_ICCS           /* xqbase ICCS: H2-E2 */
} xq_pgn_notation;

/* "chinese", "simplified", "traditional", "wxf", "iccs" (any case). */
xq_status xq_pgn_notation_parse(const char *name, xq_pgn_notation *pnot);

/* Append the game as PGN to out. */
xq_status xq_report_pgn(const xq_game *game, xq_pgn_notation notation,
                        xq_strbuf *out);

/* ---- JSON (schema "xqscan/1", ../shared/INTERFACE.md) ------------------- */

/* Append the game as one JSON object (UTF-8, newline-terminated). Invalid
 * UTF-8 in the record's strings is replaced by U+FFFD. options_json, when
 * set, must be a JSON object (XQ_EINVAL otherwise). */
xq_status xq_report_json(const xq_game *game, xq_strbuf *out);

/* Read a JSON object of schema "xqscan/1" back into a new game (crops are
 * not stored in JSON and come back empty). XQ_EINVAL on malformed input. */
xq_status xq_report_read_json(const char *text, size_t len, xq_game **pgame);
xq_status xq_report_read_json_file(const char *path, xq_game **pgame);

/* ---- HTML arbiter report ------------------------------------------------ */
typedef struct {
    const char *index_href;   /* link back to the batch index, or NULL */
    const char *corrections_name; /* download name of the corrections file;
                                     NULL: "<basename of source>.corrections.json" */
} xq_html_options;

/* Append a self-contained HTML page (inline CSS, SVG boards, PNG data-URI
 * cell crops, inline review script). opts may be NULL. */
xq_status xq_report_html(const xq_game *game, const xq_html_options *opts,
                         xq_strbuf *out);

/* ---- Batch: summary rows, summary.csv, index.html ----------------------- */
typedef enum {
    XQ_SUMMARY_OK = 0,    /* nothing for an arbiter */
    XQ_SUMMARY_REVIEW,    /* an error or warning finding, or a ply under review */
    XQ_SUMMARY_FAILED     /* the sheet could not be processed (JSON status error) */
} xq_summary_status;

typedef struct {
    char *name;           /* NAME of the outputs (link: NAME.html) */
    char *file;           /* the sheet's source */
    char *event, *round, *board, *red, *black;   /* never NULL ("" unknown) */
    int   plies;
    int   unrec_red, unrec_black, unrec_total, threshold;
    bool  exceeded;
    int   illegal;        /* plies with status illegal */
    int   review;         /* plies under review */
    int   errors, warnings;
    char *result;         /* recorded result, "" when none */
    bool  consistent;
    xq_summary_status status;
    char *error;          /* message when FAILED, else "" */
} xq_summary_row;

/* Fill *prow (cleared first) from a game; name is the output NAME (may be
 * NULL: the game's source is used). Free with xq_summary_row_clear. */
xq_status xq_summary_row_from_game(const xq_game *game, const char *name,
                                   xq_summary_row *prow);
void xq_summary_row_clear(xq_summary_row *row);
/* The same from a sheet's JSON file (for `xqscan merge`): XQ_EIO when the
 * file cannot be read, XQ_EINVAL when it is not an "xqscan/1" object. */
xq_status xq_summary_row_read_json(const char *path, const char *name,
                                   xq_summary_row *prow);
const char *xq_summary_status_name(xq_summary_status st);

/* summary.csv: a header line then one row per entry, in the order given
 * (the batch sorts by NAME). RFC 4180 quoting; text cells starting with
 * = + - @ TAB or CR are prefixed with ' so spreadsheets do not run them. */
xq_status xq_report_summary_csv(const xq_summary_row *rows, size_t n,
                                xq_strbuf *out);

/* index.html: one row per sheet, worst first (failed, then threshold
 * exceeded, illegal moves, errors, plies under review), each linking to
 * NAME.html; headers sort the table when clicked (inline script). */
xq_status xq_report_index_html(const xq_summary_row *rows, size_t n,
                               xq_strbuf *out);

/* ---- Corrections -------------------------------------------------------- */
typedef struct {
    int   ply;
    char *move;
} xq_correction;

typedef struct {
    char          *source;        /* "" when absent */
    char          *input_sha256;  /* "" when absent */
    xq_correction *plies;
    size_t         nplies;
} xq_corrections;

/* Parse a corrections file held in memory / read one from path.
 * XQ_EINVAL: not JSON, wrong schema, a ply < 1, a missing or empty move,
 * a ply listed twice. XQ_EIO: path unreadable. */
xq_status xq_corrections_parse(const char *text, size_t len,
                               xq_corrections **pcorr);
xq_status xq_corrections_read(const char *path, xq_corrections **pcorr);
void xq_corrections_destroy(xq_corrections **pcorr);
/* The move for ply, or NULL when the arbiter left it alone. */
const char *xq_corrections_find(const xq_corrections *corr, int ply);

/* ---- Files -------------------------------------------------------------- */

/* Write data to path so that the file appears complete or not at all:
 * write "<path>.tmp.<pid>", flush, fsync, rename over path. */
xq_status xq_report_write_file_atomic(const char *path, const void *data,
                                      size_t len);

#ifdef __cplusplus
}
#endif
#endif

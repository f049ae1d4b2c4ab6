/* xq_verify.h - stage "verify": cells of a scoresheet (or a typed record)
 * -> a verified game (xq_game.h) with per-ply status, confidence, review
 * flags, candidates and an arbiter's findings.
 *
 * The verifier never looks at images. It reads a sheet through an abstract
 * cell source (xq_cell_source): cells in move order
 *     cell i = 2 * (row) + column      (column 0 Red, 1 Black)
 * each either blank or holding ink, with a best reading (text) and a
 * score(candidate) = log-probability-like match (<= 0, higher is better,
 * comparable across candidates of one cell) of any candidate spelling.
 * xq_ocr's sheets are one such source (xq_verify_source_from_sheet); tests
 * use synthetic sources.
 *
 * Decoding: a beam of game prefixes over plies. At each ply every legal
 * move is scored against the cell by all the ways a player could have
 * written it (notation enumerator, max over spellings); a cell may also be
 * unreadable (a floor score), blank (missing move), or absent (a move
 * skipped without a cell: that column continues one move out of step).
 * Confidence is the posterior probability of the chosen move over the
 * surviving prefixes. review is false only where that posterior is high
 * AND the cell itself supports the move.
 */
#ifndef XQ_VERIFY_H
#define XQ_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include "xq_game.h"
#include "xq_status.h"
#include "xq_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An abstract sheet: ncells cells in move order. Every callback gets ud.
 * is_blank: 1 when the cell holds no ink.
 * text:     best reading of the cell ("" when blank or unknown); borrowed,
 *           valid until the next call for another cell (copy it).
 * score:    log-probability-like match of utf8 against the cell (<= 0).
 * box:      1 and fills *ppage, box[4] (x, y, w, h in input pixels) when
 *           the cell has a location, 0 otherwise. May be NULL.
 * illegible: 1 when the cell's ink is no writing (scribbled over or out):
 *           its ply is unreadable (WXF 7.6), whatever it reads as, and its
 *           move reconstructed. May be NULL (never). */
typedef struct {
    size_t ncells;
    void  *ud;
    int         (*is_blank)(void *ud, size_t i);
    const char *(*text)(void *ud, size_t i);
    double      (*score)(void *ud, size_t i, const char *utf8);
    int         (*box)(void *ud, size_t i, int *ppage, int box[4]);
    int         (*illegible)(void *ud, size_t i);
} xq_cell_source;

/* An arbiter's correction: ply (1 = Red's first) was move (ICCS "h2e2" or
 * any move text the notation reader accepts). */
typedef struct {
    int         ply;
    const char *move;
} xq_verify_correction;

typedef struct {
    const char *start_fen;        /* NULL: standard start */
    int         threshold;        /* unrecorded-move threshold; <= 0: 16 */
    int         beam;             /* max prefixes kept per ply; <= 0: 256,
                                     and a game whose records read poorly
                                     as its moves (3 or more) is decoded
                                     again at 1024, the likelier kept, and
                                     one with a skip it may have made up
                                     again keeping the histories without
                                     it; > 0: that beam only */
    const char *recorded_result;  /* "1-0" "0-1" "1/2-1/2" "*" or NULL */
    int         owner;            /* -1 unknown, XQ_RED, XQ_BLACK */
    const xq_verify_correction *corrections;
    size_t      ncorrections;
    /* Scale applied to the source's scores before they are treated as
     * natural-log likelihoods (calibration of the OCR scorer); <= 0: 1. */
    double      score_scale;
    /* A ply is left unflagged (review false) only when its confidence is
     * at least this; <= 0: 0.995. */
    double      review_below;
    /* Spellings tried per move (XQ_VARIANTS_* of xq_notation.h); 0: Chinese
     * for sheets, every notation for typed records. */
    unsigned    variants;
} xq_verify_options;

/* The cell source of an OCR'd sheet (xq_ocr.h; only in builds with the
 * ocr stage, XQ_HAVE_OCR). cells is the caller's: fill ocr and sheet, keep
 * it alive while *psrc is used. Scores are xq_sheet_cell_score's. */
struct xq_ocr;
struct xq_sheet;
typedef struct {
    struct xq_ocr   *ocr;
    struct xq_sheet *sheet;
} xq_sheet_cells;
void xq_verify_source_from_sheet(xq_sheet_cells *cells, xq_cell_source *psrc);

/* Fill opts with the defaults above. */
void xq_verify_options_init(xq_verify_options *opts);

/* Decode one sheet into game (created by the caller with xq_game_create;
 * plies, unrecorded counts, findings and end-of-game are filled; header
 * and source are left to the caller except header.result / end
 * .recorded_result, copied from opts->recorded_result when set).
 * Only bad arguments (XQ_EINVAL: bad start FEN, game already has plies)
 * and XQ_ENOMEM are errors; everything wrong on the sheet is a finding. */
xq_status xq_verify_sheet(const xq_cell_source *src,
                          const xq_verify_options *opts, xq_game *game);

/* Two sheets of one game (src[0] Red's, src[1] Black's, either order is
 * fine: owner is taken from pgame[k]->owner when set). Decodes both
 * jointly (one game, each sheet its own alignment), then fills:
 * pair (the reconciled record: a ply's status/cell come from the sheet
 * that supports the move best; disagreements are sheets_disagree
 * findings) and sheet[0], sheet[1] (each sheet's own record of the same
 * moves, with its own unrecorded counts). Any of the three may be NULL. */
xq_status xq_verify_pair(const xq_cell_source *const src[2],
                         const xq_verify_options *opts, xq_game *pair,
                         xq_game *sheet0, xq_game *sheet1);

/* A typed record: move texts in order (any notation the notation reader
 * knows). Moves are resolved on the board; an illegal one (even one glyph
 * off a legal move: a typed text is no reading) is status
 * illegal with the resolver's/engine's reason, and the game goes on with
 * the legal move nearest the written text that keeps the rest of the
 * record playable (move_source "assumed"); when none fits, replay stops
 * there with an error finding (the remaining texts become plies with no
 * move). An entry that is no move of the game (typed twice, a stray one)
 * is an extra_record finding and the list goes on with the next entry.
 * Two moves of one side that make every record legal in each other's
 * place are a swapped_records finding, the plies where that game differs
 * under review; where that exchange is the only one and no single edit
 * below makes the record legal, the game is the exchanged record (the two
 * plies corrected). Where the game chosen is one that a single edit of the
 * record (a record typed as another move, a move left out, an entry typed
 * twice) makes legal, a ply's confidence is the share of such games that
 * agree on it (weighed by the edit's cost).
 * Then the same end-of-game findings as for sheets. */
xq_status xq_verify_typed(const char *const *moves, size_t nmoves,
                          const xq_verify_options *opts, xq_game *game);

/* Recompute the unrecorded counts, the threshold finding and the
 * end-of-game findings (mate/stalemate vs result, natural move limit,
 * repetition, perpetual check) of a game whose plies are filled. Used by
 * the functions above; public so that a record edited afterwards (e.g. by
 * corrections) can be re-checked. Adds findings; does not remove old ones. */
xq_status xq_verify_finish(xq_game *game, int threshold);

#ifdef __cplusplus
}
#endif
#endif

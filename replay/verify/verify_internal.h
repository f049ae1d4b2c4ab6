/* verify_internal.h - the verifier's private types (replay/verify/ only).
 *
 * decode.c   beam decoder: cell sources -> best game + posteriors (vd_result)
 * sheet.c    vd_result -> xq_game per sheet / reconciled pair
 * findings.c unrecorded counts, threshold, end-of-game findings
 * typed.c    typed records (move texts) through the same machinery
 * spell.c    the notation glue: spellings, canonical writing, readings
 */
#ifndef VERIFY_INTERNAL_H
#define VERIFY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xqscan/xq_board.h"
#include "xqscan/xq_game.h"
#include "xqscan/xq_notation.h"
#include "xqscan/xq_verify.h"

#define VD_MAXSRC 2        /* sheets decoded jointly */
#define VD_NCAND  6        /* posterior alternatives kept per ply */

/* How a sheet accounts for one ply. */
enum {
    VK_NONE = 0,   /* the sheet has no cell for it (past its last record) */
    VK_READ,       /* a cell with ink was read for this ply */
    VK_BLANK,      /* the ply's cell is blank */
    VK_SKIP,       /* skipped without a cell: this column shifts by one */
    VK_EXTRA       /* the ply's cell held something else (junk, a repeated
                      move); the move is read from the next cell of the
                      column, which shifts back by one */
};

/* Model constants (natural-log units after opts->score_scale). */
#define VD_FLOOR      8.0   /* a cell explains no legal move better than this */
#define VD_SLIP       6.0   /* a record naming no legal move, read as a
                               slip of the pen of a move one numeral off
                               it (slip_score): e2e n4-s7100 moves right
                               88.06 -> 89.04% (blank and illegible
                               rebuilt 70 -> 77 of 206), under review
                               67.98 -> 68.06%; n2-s9700 92.51 -> 91.93%
                               (one handwriting sheet lost in any case:
                               4 plies), review 67.05 -> 67.89%, skips
                               found 14 -> 16 of 18; silent 0 in both.
                               7.0 (1 nat under VD_FLOOR): 88.27% and
                               92.38%, review 67.95 / 66.99%; any glyph
                               (not only numerals) at 6.0: 89.01 / 92.25%,
                               but four plies sure and wrong on
                               test_sure_among_doubt's sheet */
#define VD_SKIP       9.0   /* penalty of a move skipped without a cell */
#define VD_EXTRA      9.0   /* penalty of a junk / repeated cell */
#define VD_SKIP_GATE  -1e9  /* skips only where the best move reads this badly */
#define VD_SSKIP_GATE -1e9  /* ... for a skip that moves the whole record */
#define VD_SHIFT_WINDOW 6   /* plies before a skip / junk cell put under review
                               (and plies after one an earlier place of it
                               must still fit, shift_doubt) */
#define VD_SHIFT_REACH 40   /* how far back an earlier place is looked for */
#define VD_SHIFT_SPAN  48   /* plies an alternative place is compared on */
#define VD_SHIFT_CONF 0.9   /* ... by capping their confidence at this */
#define VD_SHIFT_DEPTH 2    /* records nothing clean tells played by every
                               move in turn, one within another (shift_follow) */
#define VD_SHIFT_BUDGET 200000 /* plies shift_follow plays for one place's
                               alternatives; past it: cannot tell */
#define VD_ALT_RANGE  8.0   /* a bad record's alternatives count only when
                               they score within this of the record as read
                               (one unexplained cell, VD_FLOOR) */
#define VD_BEAM       256   /* prefixes kept per ply (xq_verify_options.beam):
                               64 lost the true game on kai sheets where a
                               misread put it a few nats behind (2.0 points
                               of moves right, 12 of plies flagged) */
#define VD_MISFIT     (VD_FLOOR / 2)   /* a cell reading its move this far
                               below its own best reading is a misfit (it
                               does not tell the move: ply_told) ... */
#define VD_RETRY_MISFITS 3  /* ... and a decoded game with this many is
                               decoded again with a beam VD_RETRY_WIDEN
                               times wider (default beam only): the better
                               scoring history is kept. 1 was tried: e2e
                               n4-s7100 moves right 87.65 -> 87.92%, the
                               verifier 35% slower, but printed+stress
                               91.8 -> 91.0% and skips found 37 -> 35 of
                               41: the wider beam finds better scoring
                               histories that are wrong (the score, not
                               the search, loses those games). 2 was
                               tried too: moves right 88.06 -> 88.01%
                               (printed 95.72 -> 96.08, a printed photo
                               whose true history a beam of 256 lost at
                               a skip now right; kai 79.77 -> 79.09),
                               under review 67.98 -> 68.36%, the verifier
                               8.0 -> 9.7 s a sheet */
#define VD_RETRY_WIDEN 4
#define VD_WINDOW_WIDEN 16  /* a game that still has VD_RETRY_MISFITS
                               misfits after the retry and the repairs,
                               or a misfit within VD_WINDOW_BACK plies
                               after a cell that told nothing (blank,
                               scribbled), is decoded once more with a
                               beam this many times VD_BEAM wide on the
                               plies from VD_WINDOW_BACK before each
                               misfit to 2 after it (VD_BEAM elsewhere) */
#define VD_WINDOW_BACK 12
#define VD_FAR_MISFIT (VD_FLOOR + VD_MISFIT)   /* a record reading its move
                               worse than an unexplained cell and a misfit
                               together is no misread of that move (one
                               misread character costs about VD_FLOOR):
                               two in one column, or one in the other
                               column near a skip, shift_doubt */
#define VD_FLOOR_KEEP 12    /* unsupported moves kept per prefix and ply
                               (all of them at a scribbled cell) */
#define VD_BEAM_DROP  12.0
#define VD_SHIFT_DROP 24.0  /* ... for a skip / junk cell (see expand) */
#define VD_LOST_READ  3.0   /* cut children reading this well count as lost mass */
#define VD_LOST_RANGE 5.0   /* ... when within this of the best prefix */
#define VD_DOUBT_CUT  0.005 /* cut mass (share of the posterior) that puts a
                               ply's squares in doubt (doubt_forward) */
#define VD_DOUBT      0.9   /* ... a ply read from a cell: only when this unsure */
#define VD_DOUBT_CONF 0.9   /* confidence cap of a move from or to a square
                               in doubt */
#define VD_UNTOLD_ALT 1e-4  /* posterior share of an alternative of a ply no
                               cell tells that doubt_forward follows (some
                               9 nats: a skip's or a floor's penalty) */
#define VD_CUT_KEEP   64    /* cut histories followed per ply (cut_doubt) */
#define VD_SCUT_KEEP  64    /* prefixes whose cut realignments are kept per ply */
#define VD_REPAIR_KEEP 16  /* histories with a skip fewer decoded again
                               (find_repairs) ... */
#define VD_REPAIR_ROUNDS 4  /* ... as long as the decoding gets better */
#define VD_FAR_REACH  120   /* plies back an untold ply is played otherwise
                               for a record left unplayable (far_repairs) */
#define VD_FAR_TRIES  16    /* ... for the first this many such records */
#define VD_SEA_REACH  10    /* plies either side of a sure one (sea_doubt) ... */
#define VD_SEA_SHARE  0.9   /* ... nearly all in doubt: it goes under review */
#define VD_OK_GAP     1.0   /* text and move agree within this: status ok */
#define VD_ILL_GAP    4.0   /* the cell reads its own text this much better
                               than any legal move: a clear (illegal) reading */
#define VD_NEAR_READ  (-VD_FLOOR + 2.0)   /* a cell whose match with a move
                               (scale * (score - ref)) is above this reads
                               nearly as it: corrected, not unreadable */

/* One cell as the decoder saw it. */
typedef struct {
    bool   blank;
    bool   illegible;    /* ink that is no writing (source's illegible) */
    bool   touched;      /* ref is set */
    uint8_t names;       /* the piece and file its reading names, for the
                            look-ahead at blank cells (cell_names in
                            decode.c): 0 not yet lexed, 1 names_piece /
                            names_file set, 2 names none */
    uint8_t names_piece; /* XQ_KING..XQ_PAWN */
    uint8_t names_file;  /* 1..9 from its writer's right */
    char  *text;         /* owned copy of the reading ("" none) */
    double text_score;   /* score of text (raw units), -1e30 if none */
    double ref;          /* reference score (raw): max(text, best legal) */
} vd_cell;

typedef struct {
    xq_move mv;
    double  p;
} vd_alt;

/* One ply of the decoded game. */
typedef struct {
    xq_move mv;
    uint8_t kind[VD_MAXSRC];
    int32_t slot[VD_MAXSRC];     /* cell used (-1 none) */
    float   sc[VD_MAXSRC];       /* raw score of the move's best spelling
                                    (no spelling prior) */
    double  conf;                /* posterior of mv */
    int     nalt;
    vd_alt  alt[VD_NCAND];       /* posterior alternatives, best first
                                    (mv itself included) */
    bool    forced;              /* given by an arbiter's correction */
    bool    misfit;              /* read from a cell that reads poorly as
                                    its move (VD_MISFIT; not forced) */
    /* a clear record of no legal move that is one on another board: the
     * nearest earlier ply (0 none) where another move, its record still
     * reading as it, makes it legal, and that move (illegal_doubt in
     * decode.c) */
    int     ill_alt_ply;
    xq_move ill_alt_mv;
    char    ill_alt_text[32];    /* ill_alt_mv in Chinese, on its board */
} vd_ply;

typedef struct {
    int      nsrc;
    vd_ply  *plies;
    size_t   nplies;
    vd_cell *cells[VD_MAXSRC];
    size_t   ncells[VD_MAXSRC];
    int      lastnb[VD_MAXSRC][2]; /* last non-blank slot per column, -1 */
    int      after_end[VD_MAXSRC]; /* non-blank cells left unexplained */
    bool     no_moves_left;        /* the decoded game ended in mate/stalemate
                                      with cells still unexplained */
    double   lost;                 /* plies where close alternatives were cut */
    int      bad_corrections;      /* corrections that named no legal move */
    double   score;                /* log score of the decoded history */
    int      misfits;              /* plies read from a cell that reads
                                      poorly as their move (VD_MISFIT) */
    bool     exact;                /* texts are typed records, not readings:
                                      any difference from a move is clear */
    /* histories without one of the decoded game's skips that play every
     * clean record to the end (find_repairs in decode.c): nrepair games
     * of repair_len plies each, moves in order; vd_decode decodes again
     * keeping them in the beam */
    xq_move *repair;
    size_t   nrepair, repair_len;
    /* histories with an untold ply further back played otherwise
     * (far_repairs): nfar games of repair_len plies; vd_decode decodes
     * again keeping them in the beam once the near repairs are done */
    xq_move *far;
    size_t   nfar;
    /* vd_decode_traced: where the true game it was given left this
     * decoding's beam. trace_ply: the first ply after which no prefix
     * kept stands on its position, having read its moves from its cells
     * where those were given (0: one did to the end, or no game was
     * given; a prefix merged with it, by another history, counts: the
     * beam keeps positions and alignments); there, how its
     * first child in the beam's order accounted for the ply (VK_READ,
     * VK_BLANK, ...; VK_NONE: no child played the true move, it fell more
     * than VD_BEAM_DROP below the best), whether the cell was illegible,
     * the child's rank among the ply's children (how many the beam takes
     * before it: group_kids' groups, then score and look-ahead), how
     * many children there
     * were and how many prefixes were kept, and how far (nats) it scored
     * below the best child. */
    int      trace_ply;
    uint8_t  trace_kind;
    bool     trace_illegible;
    size_t   trace_rank, trace_kids, trace_kept;
    double   trace_gap;
} vd_result;

/* The confidence below which a ply is put under review (opts->review_below,
 * 0.995 by default). */
static inline double vd_review_below(const xq_verify_options *o)
{
    return o && o->review_below > 0 ? o->review_below : 0.995;
}

/* decode.c. exact: the cells' texts are the records themselves (typed),
 * not readings of them (res->exact). */
xq_status vd_decode(const xq_cell_source *const *src, int nsrc,
                    const xq_verify_options *opts, bool exact,
                    const xq_board *start, vd_result *res);
/* vd_decode, following the true game truth[0, ntruth) (a bench's
 * renderer's; cells: the cell of sheet 0 each move was written in, -1
 * skipped, or NULL for its moves in any alignment): each decoding records
 * where it left the beam (the result's trace_* fields; the decoding kept
 * carries its own). The decoding is vd_decode's, move for move. */
xq_status vd_decode_traced(const xq_cell_source *const *src, int nsrc,
                           const xq_verify_options *opts, bool exact,
                           const xq_board *start, const xq_move *truth,
                           const int *cells, size_t ntruth, vd_result *res);
/* Decode again keeping the given games in the beam (typed.c); replaces
 * *res where that scores better. */
xq_status vd_decode_guided(const xq_cell_source *const *src, int nsrc,
                           const xq_verify_options *opts, bool exact,
                           const xq_board *start, const xq_move *games,
                           size_t ngames, size_t len, vd_result *res,
                           bool *preplaced);
void vd_result_free(vd_result *res);
/* Nominal cell slot of ply (1-based) on a sheet: ply - 1 (+1 when Black
 * moved first). */
int vd_nominal_slot(int ply, int black_first);

/* sheet.c: fill game from a decoding, as seen by sheet k (k < 0: the
 * reconciled record of all sheets). */
xq_status vs_fill_game(const vd_result *res, const xq_cell_source *const *src,
                       int k, const xq_verify_options *opts,
                       const xq_board *start, xq_game *game);

/* spell.c */
#define VS_MAX_VARIANTS 64
typedef struct {
    size_t n;
    xq_notation_variant v[VS_MAX_VARIANTS];
} vs_spellings;
/* Every plausible spelling of legal mv on b (kinds: XQ_VARIANTS_*). */
xq_status vs_spellings_get(xq_board *b, xq_move mv, unsigned kinds,
                           vs_spellings *out);
/* Canonical simplified Chinese, WXF and ICCS of legal mv; on failure the
 * strings fall back to the ICCS text. */
void vs_write_all(xq_board *b, xq_move mv, char chinese[32], char wxf[16],
                  char iccs[8]);
/* Read text on b: returns XQ_RES_* (XQ_RES_OK with *pmv for a legal move);
 * for other codes msg gets an English reason and rule the article. */
xq_resolve_code vs_read(xq_board *b, const char *text, xq_move *pmv,
                        char *msg, size_t msglen, char *rule, size_t rulelen);
/* Correction text (ICCS or any notation) -> legal move, XQ_MOVE_NONE if
 * it names none on b. */
xq_move vs_correction_move(xq_board *b, const char *text);

/* sheet.c: add legal move mv (probability p) to q's candidates on b
 * unless it is there; when they are full, only with evict (in place of
 * the last). */
void vs_add_candidate(xq_ply *q, xq_board *b, xq_move mv, double p,
                      bool evict);

/* findings.c */
xq_status vf_finish(xq_game *game, int threshold);

#endif

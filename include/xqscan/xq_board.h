/* xq_board.h - the Xiangqi rules engine: board value, FEN, legal moves,
 * check, game state (Zobrist hash, repetition, perpetual check, Art. 8
 * counters), ICCS moves and perft.
 *
 * Glossary (as in xq_types.h):
 *   sq  square 0..89 = file * 10 + rank (ICCS a..i = files 0..8, ranks 0..9
 *       from Red's side); pc piece (0 empty, Red 1..7, Black 9..15);
 *   mv  move (from << 7) | to; sd side 0 = Red, 1 = Black; ply one move of
 *       one side.
 *
 * xq_board is a plain fixed-size value: put it on the stack, copy it with
 * `=`, memcpy or xq_board_copy (the copy carries its whole history; the
 * last copies only the moves made, not the 16 KB stack). Its fields are
 * PRIVATE: read them only through the functions below; their layout may
 * change. The history stack holds XQ_BOARD_MAX_PLIES moves made since the
 * position was set (by xq_board_init_start / xq_board_from_fen). When it is
 * full, xq_board_make_move refuses every move (returns false, board
 * unchanged, *pflags = XQ_MV_NOROOM); real games are far shorter.
 *
 * Nothing here allocates or prints. Functions taking a non-const board may
 * make and unmake moves on it internally but always leave it as it was.
 */
#ifndef XQ_BOARD_H
#define XQ_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xq_game.h"     /* xq_end_position */
#include "xq_status.h"
#include "xq_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define XQ_BOARD_MAX_PLIES 1024
#define XQ_START_FEN \
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
/* Longest FEN xq_board_to_fen writes, with its NUL (buffers of 128 are ok). */
#define XQ_FEN_MAX 100

/* One made move, kept for unmake and the repetition rules (private). */
typedef struct {
    uint64_t key;       /* Zobrist key of the position BEFORE the move */
    xq_move  mv;
    uint8_t  captured;  /* internal piece id captured, 0 none */
    uint8_t  check;     /* the move gave check */
    uint16_t rule50;    /* plies since capture BEFORE the move */
    uint16_t pad_;
} xq_board_undo;

typedef struct xq_board {
    /* PRIVATE. Padded mailbox: index ((rank + 3) << 4) | (file + 3). */
    uint8_t       sq_[256];     /* internal piece id per square, 0 empty */
    uint8_t       pos_[48];     /* square of each internal piece id, 0 gone */
    uint64_t      key_;         /* Zobrist key (side to move included) */
    uint8_t       side_;        /* side to move */
    uint8_t       in_check_;    /* side to move is in check (cached) */
    uint16_t      nhist_;       /* moves on the history stack */
    uint16_t      rule50_;      /* plies since last capture (FEN clock included) */
    uint16_t      fullmove0_;   /* FEN full-move number of the start position */
    uint8_t       side0_;       /* side to move of the start position */
    xq_board_undo hist_[XQ_BOARD_MAX_PLIES];
} xq_board;

/* Why a move is not legal (xq_board_check_move). */
typedef enum {
    XQ_LEGAL = 0,
    XQ_ILL_BAD_SQUARE,       /* from/to is not a square 0..89, or from == to */
    XQ_ILL_NO_PIECE,         /* no piece on the from-square */
    XQ_ILL_NOT_OWN,          /* the piece belongs to the side not to move */
    XQ_ILL_OWN_CAPTURE,      /* destination holds one's own piece */
    XQ_ILL_KING_PALACE,      /* king step leaves the palace */
    XQ_ILL_KING_STEP,        /* king not moving one point orthogonally */
    XQ_ILL_ADVISOR_PALACE,   /* advisor leaves the palace */
    XQ_ILL_ADVISOR_STEP,     /* advisor not moving one point diagonally */
    XQ_ILL_ELEPHANT_RIVER,   /* elephant crossing the river */
    XQ_ILL_ELEPHANT_STEP,    /* elephant not moving two points diagonally */
    XQ_ILL_ELEPHANT_EYE,     /* elephant eye blocked */
    XQ_ILL_HORSE_STEP,       /* not a horse move geometrically */
    XQ_ILL_HORSE_LEG,        /* horse leg blocked */
    XQ_ILL_ROOK_LINE,        /* rook not moving along a rank or file */
    XQ_ILL_ROOK_BLOCKED,     /* a piece stands in the rook's path */
    XQ_ILL_CANNON_LINE,      /* cannon not moving along a rank or file */
    XQ_ILL_CANNON_BLOCKED,   /* non-capturing cannon move with a piece in between */
    XQ_ILL_CANNON_SCREEN,    /* cannon capture without exactly one screen */
    XQ_ILL_PAWN_BACKWARD,    /* pawn moving backwards */
    XQ_ILL_PAWN_SIDEWAYS,    /* pawn moving sideways before crossing the river */
    XQ_ILL_PAWN_STEP,        /* pawn not moving one point */
    XQ_ILL_SELF_CHECK,       /* leaves or puts one's own king in check */
    XQ_ILL_KINGS_FACE,       /* the kings would face each other (flying general) */
    XQ_ILL_NOROOM            /* history stack full (XQ_BOARD_MAX_PLIES) */
} xq_illegal;

/* Flags from xq_board_make_move (bit set). */
#define XQ_MV_CAPTURE    0x01u  /* the move captured a piece */
#define XQ_MV_CHECK      0x02u  /* the opponent is now in check */
#define XQ_MV_MATE       0x04u  /* the opponent has no legal move (checkmate
                                   if XQ_MV_CHECK, else stalemate: also a win) */
#define XQ_MV_REPETITION 0x08u  /* the new position occurred before */
#define XQ_MV_PERPETUAL  0x10u  /* ... and the mover checked on every one of
                                   its moves since that occurrence (Art. 20.1) */
#define XQ_MV_ILLEGAL    0x100u /* the move was refused (not legal) */
#define XQ_MV_NOROOM     0x200u /* the move was refused (history stack full) */

/* --- setting up ------------------------------------------------------- */

/* The standard start position, Red to move, empty history. */
void xq_board_init_start(xq_board *b);

/* Set up from a Xiangqi FEN: ranks 9..0 (Black's back rank first), uppercase
 * Red (K A B/E N/H R C P), then side `w`/`r` (Red) or `b` (Black); the
 * "- - halfmove fullmove" fields may be missing. The position is fully
 * validated; on error *b is the start position, err (if errlen > 0) holds a
 * one-line English reason and XQ_EINVAL is returned. */
xq_status xq_board_from_fen(xq_board *b, const char *fen, char *err,
                            size_t errlen);

/* Write the current position as FEN ("... w - - halfmove fullmove"); buf of
 * XQ_FEN_MAX bytes is always enough; truncated (still NUL-ended) if shorter. */
void xq_board_to_fen(const xq_board *b, char *buf, size_t len);

/* *dst = *src, position and history, copying only the history in use: what
 * to use where boards are copied by the thousand (a search's beam). The
 * stack above the history is left as it was; nothing reads it. */
void xq_board_copy(xq_board *dst, const xq_board *src);

/* The position alone, without the history: about 330 bytes against the
 * board's 16 KB, for a search that keeps positions by the thousand (a
 * beam) and works on one board at a time. PRIVATE bytes: only the two
 * functions below read them. */
typedef struct {
    unsigned char bytes_[offsetof(xq_board, hist_)];
} xq_board_pos;
/* Store b's position: pieces, side to move, capture clock, move number. */
void xq_board_save_pos(xq_board_pos *p, const xq_board *b);
/* Set b to a stored position with an empty history, as if set up from its
 * FEN: xq_board_to_fen writes what it wrote for the stored board, but the
 * history functions (repetitions, checks of Art. 8) count from here on. */
void xq_board_load_pos(xq_board *b, const xq_board_pos *p);

/* --- reading ---------------------------------------------------------- */

/* Piece on sq (0..89), XQ_EMPTY for an empty or invalid square. */
xq_piece xq_board_piece_at(const xq_board *b, xq_sq sq);
/* Side to move: XQ_RED or XQ_BLACK. */
int xq_board_side(const xq_board *b);
/* Square of sd's king (there always is one). */
xq_sq xq_board_king_sq(const xq_board *b, int sd);

/* --- moves ------------------------------------------------------------ */

/* All legal moves of the side to move into out[XQ_MAX_MOVES]; returns the
 * count (0: checkmated or stalemated). */
int xq_board_legal_moves(xq_board *b, xq_move *out);

/* XQ_LEGAL or the first reason the move is not legal. */
xq_illegal xq_board_check_move(xq_board *b, xq_move mv);
/* English message ("the horse's leg is blocked"). Never NULL. */
const char *xq_illegal_str(xq_illegal why);
/* The WXF article the reason falls under ("WXF 2.4", "WXF 4.5"); "" for none. */
const char *xq_illegal_rule(xq_illegal why);

/* Make a legal move. Returns false and leaves the board unchanged if it is
 * not legal (or the history is full). pflags (may be NULL) gets XQ_MV_*. */
bool xq_board_make_move(xq_board *b, xq_move mv, unsigned *pflags);
/* The same for a move known to be legal (one of xq_board_legal_moves(b)),
 * without checking it and without the flags: the board, its key, check
 * state and history end as xq_board_make_move leaves them, at a fraction of
 * the cost (a search that makes every move it generated). A move that is
 * not legal there leaves the board in no defined state; NULL b or a full
 * history: false, board unchanged. */
bool xq_board_play_legal(xq_board *b, xq_move mv);
/* Take back the last move made; no-op on an empty history. */
void xq_board_unmake_move(xq_board *b);

/* --- state ------------------------------------------------------------ */

/* Is the side to move in check? */
bool xq_board_in_check(xq_board *b);
/* normal / in check / checkmate / stalemate, for the side to move.
 * Checkmate and stalemate are both losses for the side to move (Art. 2.11). */
xq_end_position xq_board_status(xq_board *b);

/* Zobrist key of the position and side to move (static keys: equal
 * positions give equal keys in every run). */
uint64_t xq_board_hash(const xq_board *b);
/* Moves on the history stack (made since the position was set). */
int xq_board_ply_count(const xq_board *b);
/* The i-th move made (0 = first); XQ_MOVE_NONE if out of range. */
xq_move xq_board_move_at(const xq_board *b, int i);
/* How many times the current position (same side to move) has occurred,
 * this time included, as far as the history knows (>= 1). */
int xq_board_repetitions(const xq_board *b);

/* Natural move limit (Art. 8, 3.2.D). */
typedef struct {
    int  plies;        /* plies since the last capture (FEN clock included) */
    int  checks[2];    /* checks given by Red / Black in that span (only moves
                          on the history stack are known) */
    int  known_plies;  /* how many of those plies are on the history stack */
    bool limit[2];     /* the 100-ply limit holds for a claim by Red / Black:
                          plies - max(0, checks[claimant] - 10) >= 100 */
} xq_move_limit;
void xq_board_move_limit(const xq_board *b, xq_move_limit *plim);

/* Repetition and perpetual check of the current position (Art. 20.1). The
 * cycle is the span since the most recent earlier occurrence of the current
 * position. */
typedef struct {
    int  repetitions;  /* as xq_board_repetitions */
    int  cycle_start;  /* history index of the cycle's first move (moves
                          cycle_start .. ply_count-1 form the cycle); -1 none */
    int  cycle_len;    /* plies in the cycle; 0 if no repetition */
    bool checking[2];  /* Red / Black gave check on every one of its moves
                          in the cycle */
    int  first_start;  /* history index after which the position first
                          occurred (the whole repeating span); -1 none */
} xq_repetition;
void xq_board_repetition(const xq_board *b, xq_repetition *prep);
/* Convenience: -1 no perpetual check, XQ_RED / XQ_BLACK that side checks
 * perpetually (it loses, Art. 20.1), 2 both do (draw). */
int xq_board_perpetual_check(const xq_board *b);

/* --- ICCS moves ------------------------------------------------------- */

/* "h2e2", also "H2-E2", "h2-e2" (case-insensitive, optional '-').
 * XQ_EINVAL (and *pmv = XQ_MOVE_NONE) if malformed. */
xq_status xq_move_from_iccs(const char *s, xq_move *pmv);
/* out gets "h2e2" and a NUL; "0000" for XQ_MOVE_NONE or an invalid move. */
void xq_move_to_iccs(xq_move mv, char out[5]);

/* --- perft ------------------------------------------------------------ */

/* Leaf count of the legal move tree to depth (no repetition rules);
 * depth <= 0 gives 1. */
uint64_t xq_board_perft(xq_board *b, int depth);

#ifdef __cplusplus
}
#endif
#endif

/* replay_internal.h - the rules engine's private representation.
 *
 * Board: padded 16x16 mailbox, index i = ((rank + 3) << 4) | (file + 3);
 * points off the 9x10 board hold ID_OFF so that sliding stops there and a
 * horse or elephant step never leaves the array. Red moves "up" (+16).
 *
 * Pieces are internal ids (ElephantEye style): Red 16..31, Black 32..47;
 * within a side: 0 king, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 rooks,
 * 9-10 cannons, 11-15 pawns. sq_[i] holds the id on point i (0 empty),
 * pos_[id] the point of the id (0 captured / absent).
 */
#ifndef REPLAY_INTERNAL_H
#define REPLAY_INTERNAL_H

#include <stdint.h>
#include "xqscan/xq_board.h"

#define ID_OFF       0x40u
#define SIDE_BASE(sd) (16 + ((sd) << 4))        /* first id of side sd */
#define OWN_BIT(sd)   (0x10u << (sd))            /* id & OWN_BIT: sd's piece */
#define OPP_BIT(sd)   (0x20u >> (sd))            /* id & OPP_BIT: sd's enemy */
#define ID_TYPE(id)   (ID_TYPES[(id) & 15])
#define ID_SIDE(id)   (((id) >> 5) & 1)
#define FORWARD(sd)   ((sd) ? -16 : 16)
#define IDX_FILE(i)   (((i) & 15) - 3)
#define IDX_RANK(i)   (((i) >> 4) - 3)

/* Piece type of an id's slot within its side. */
static const uint8_t ID_TYPES[16] = {
    XQ_KING, XQ_ADVISOR, XQ_ADVISOR, XQ_ELEPHANT, XQ_ELEPHANT, XQ_HORSE,
    XQ_HORSE, XQ_ROOK, XQ_ROOK, XQ_CANNON, XQ_CANNON, XQ_PAWN, XQ_PAWN,
    XQ_PAWN, XQ_PAWN, XQ_PAWN
};

/* An internal (padded-index) move: from << 8 | to. */
typedef uint16_t imove;
#define IMOVE(f, t)  ((imove)(((f) << 8) | (t)))
#define IM_FROM(m)   ((m) >> 8)
#define IM_TO(m)     ((m) & 255)

/* movegen.c */
/* Is point k attacked by side `by` (k is normally a king's point)? Also true
 * when k is a king facing the other king on an open file. */
int  eng_attacked(const xq_board *b, int k, int by);
/* Is side sd's king attacked? */
int  eng_king_attacked(const xq_board *b, int sd);
/* Pseudo-legal moves of the side to move into out (>= 128 slots... the
 * pseudo-legal count is bounded by 16 pieces: use ENG_MAX_PSEUDO). */
#define ENG_MAX_PSEUDO 192
int  eng_gen_pseudo(const xq_board *b, imove *out);
/* Legal moves of the side to move (internal form). */
int  eng_gen_legal(xq_board *b, imove *out);
/* Fast make/unmake: no hash, no history (perft, legality tests). */
static inline int eng_do(xq_board *b, imove m)
{
    int f = IM_FROM(m), t = IM_TO(m);
    int id = b->sq_[f], cap = b->sq_[t];
    b->sq_[t] = (uint8_t)id;
    b->sq_[f] = 0;
    b->pos_[id] = (uint8_t)t;
    b->pos_[cap] = 0;           /* pos_[0] is scratch */
    b->side_ ^= 1;
    return cap;
}
static inline void eng_undo(xq_board *b, imove m, int cap)
{
    int f = IM_FROM(m), t = IM_TO(m);
    int id = b->sq_[t];
    b->sq_[f] = (uint8_t)id;
    b->pos_[id] = (uint8_t)f;
    b->sq_[t] = (uint8_t)cap;
    b->pos_[cap] = (uint8_t)t;
    b->pos_[0] = 0;
    b->side_ ^= 1;
}

/* movegen.c: the generated tables (tables.inc) behind functions. */
int      eng_idx_of(xq_sq sq);           /* 0..89 -> padded index (0 if bad) */
int      eng_sq_of(int idx);             /* padded index -> 0..89, 255 off */
uint64_t eng_zobrist(xq_piece pc, int idx);
uint64_t eng_zobrist_side(void);
int      eng_palace(int idx);            /* 1 Red palace, 2 Black, 0 no */
int      eng_half(int idx);              /* 1 Red half, 2 Black half, 0 off */

/* board.c */
/* xq_piece of an id (0 for 0 / ID_OFF). */
xq_piece eng_piece_of(int id);
uint64_t eng_compute_key(const xq_board *b);

#endif

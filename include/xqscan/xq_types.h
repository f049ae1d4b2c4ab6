/* xq_types.h - plain values shared by every stage.
 *
 * Glossary (as in ElephantEye's position.h):
 *   sq  square 0..89, sq = file * 10 + rank; file 0..8 is ICCS a..i (from
 *       Red's left), rank 0..9 is ICCS 0..9 (from Red's side).
 *   pc  piece: 0 empty; Red 1..7, Black 9..15 (XQ_BLACK_BIT | type).
 *   pt  piece type 1..7 (king, advisor, elephant, horse, rook, cannon, pawn).
 *   mv  move: (from << 7) | to; 0 is "no move".
 *   sd  side: 0 = Red, 1 = Black.
 */
#ifndef XQ_TYPES_H
#define XQ_TYPES_H

#include <stdint.h>

typedef uint8_t  xq_sq;
typedef uint16_t xq_move;
typedef uint8_t  xq_piece;

enum { XQ_RED = 0, XQ_BLACK = 1 };

enum {
    XQ_EMPTY = 0,
    XQ_KING = 1, XQ_ADVISOR = 2, XQ_ELEPHANT = 3, XQ_HORSE = 4,
    XQ_ROOK = 5, XQ_CANNON = 6, XQ_PAWN = 7
};
#define XQ_BLACK_BIT 8

#define XQ_NSQ 90
#define XQ_SQ(file, rank)   ((xq_sq)((file) * 10 + (rank)))
#define XQ_SQ_FILE(sq)      ((sq) / 10)
#define XQ_SQ_RANK(sq)      ((sq) % 10)

#define XQ_PIECE(sd, pt)    ((xq_piece)(((sd) ? XQ_BLACK_BIT : 0) | (pt)))
#define XQ_PIECE_TYPE(pc)   ((pc) & 7)
#define XQ_PIECE_SIDE(pc)   (((pc) & XQ_BLACK_BIT) ? XQ_BLACK : XQ_RED)

#define XQ_MOVE(from, to)   ((xq_move)(((from) << 7) | (to)))
#define XQ_MOVE_FROM(mv)    ((xq_sq)((mv) >> 7))
#define XQ_MOVE_TO(mv)      ((xq_sq)((mv) & 127))
#define XQ_MOVE_NONE        ((xq_move)0)

/* Upper bound on legal moves in any Xiangqi position. */
#define XQ_MAX_MOVES 128

#endif

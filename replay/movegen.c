/* movegen.c - pseudo-legal generation, attack/check detection, legal move
 * filtering and perft.
 *
 * Legality is decided by make-then-test (eng_do, eng_king_attacked,
 * eng_undo), except for moves that provably cannot expose the own king.
 * When the side to move is not in check and a non-king piece moves from f
 * to t, the king on k can only become attacked by:
 *  - a rook, or the facing enemy king, on a line L (k's rank or file):
 *    its path to k only opens if f is on L (a piece arriving on L, even by
 *    capture, still blocks), so it needs f on L and such a piece on L;
 *  - a cannon on L: its screen count only changes if f or t is on L (t: a
 *    new screen, or a captured screen replaced by ours), so it needs f or t
 *    on L and an enemy cannon on L;
 *  - a horse: a leg point of k (diagonally next to k) must empty, so f is
 *    one, and an enemy horse stands within two files and ranks of k;
 *  - a pawn: pawns do not move, and a capture only removes enemies.
 * Any other move is legal without a test (danger_init / risky below).
 */
#include "replay_internal.h"

static const int ORTH[4] = { -16, 16, -1, 1 };
static const int DIAG[4] = { -17, -15, 15, 17 };
/* Horse moves, and the leg point (relative to the horse) for each. */
static const int HORSE_TO[8]  = { -33, -31, -18, -14, 14, 18, 31, 33 };
static const int HORSE_LEG[8] = { -16, -16, -1, 1, -1, 1, 16, 16 };

#include "tables.inc"

int eng_idx_of(xq_sq sq) { return sq < XQ_NSQ ? IDX_OF[sq] : 0; }
int eng_sq_of(int idx) { return SQ90_OF[idx & 255]; }
uint64_t eng_zobrist(xq_piece pc, int idx)
{
    int s = SQ90_OF[idx & 255];
    return s < XQ_NSQ ? ZOBRIST[(pc & 15) * 90 + s] : 0;
}
uint64_t eng_zobrist_side(void) { return ZOBRIST_SIDE; }
int eng_palace(int idx) { return PALACE[idx & 255]; }
int eng_half(int idx) { return HALF[idx & 255]; }

int eng_attacked(const xq_board *b, int k, int by)
{
    const uint8_t *sq = b->sq_;
    int base = SIDE_BASE(by);
    int i, d;

    /* Rooks, facing king, cannons: along the four lines. */
    for (d = 0; d < 4; d++) {
        int step = ORTH[d], s = k + step, id;
        while ((id = sq[s]) == 0)
            s += step;
        if (id == ID_OFF)
            continue;
        if (id >= base && id < base + 16) {
            int t = ID_TYPE(id);
            if (t == XQ_ROOK || (t == XQ_KING && (step == 16 || step == -16)))
                return 1;
        }
        s += step;
        while ((id = sq[s]) == 0)
            s += step;
        if (id != ID_OFF && id >= base && id < base + 16 &&
            ID_TYPE(id) == XQ_CANNON)
            return 1;
    }
    /* Horses: the leg of a horse attacking k is diagonally next to k. */
    for (i = 0; i < 2; i++) {
        int h = b->pos_[base + 5 + i], diff, leg;
        if (!h)
            continue;
        diff = h - k;
        /* the horse's leg is the point next to the horse toward k */
        switch (diff) {
        case 33: case 31:  leg = h - 16; break;
        case -33: case -31: leg = h + 16; break;
        case 18: case -14: leg = h - 1; break;
        case -18: case 14: leg = h + 1; break;
        default: continue;
        }
        if (sq[leg] == 0)
            return 1;
    }
    /* Pawns: in front of k (from by's view, behind) or beside it. */
    {
        int fwd = FORWARD(by);
        int id;
        id = sq[k - fwd];
        if (id >= base + 11 && id < base + 16)
            return 1;
        id = sq[k - 1];
        if (id >= base + 11 && id < base + 16 && HALF[k] == (unsigned)(2 - by))
            return 1;
        id = sq[k + 1];
        if (id >= base + 11 && id < base + 16 && HALF[k] == (unsigned)(2 - by))
            return 1;
    }
    return 0;
}

int eng_king_attacked(const xq_board *b, int sd)
{
    return eng_attacked(b, b->pos_[SIDE_BASE(sd)], sd ^ 1);
}

static inline int add_if(const uint8_t *sq, int own, int f, int t,
                         imove *out, int n)
{
    int id = sq[t];
    if (id != ID_OFF && !(id & own))
        out[n++] = IMOVE(f, t);
    return n;
}

int eng_gen_pseudo(const xq_board *b, imove *out)
{
    const uint8_t *sq = b->sq_;
    int sd = b->side_, base = SIDE_BASE(sd), own = OWN_BIT(sd);
    int opp = OPP_BIT(sd), n = 0, i, d, f;

    /* King */
    f = b->pos_[base];
    for (d = 0; d < 4; d++) {
        int t = f + ORTH[d];
        if (PALACE[t])
            n = add_if(sq, own, f, t, out, n);
    }
    /* Advisors */
    for (i = 1; i <= 2; i++) {
        if (!(f = b->pos_[base + i]))
            continue;
        for (d = 0; d < 4; d++) {
            int t = f + DIAG[d];
            if (PALACE[t])
                n = add_if(sq, own, f, t, out, n);
        }
    }
    /* Elephants */
    for (i = 3; i <= 4; i++) {
        if (!(f = b->pos_[base + i]))
            continue;
        for (d = 0; d < 4; d++) {
            int t = f + 2 * DIAG[d];
            if (HALF[t] == (unsigned)(sd + 1) && sq[f + DIAG[d]] == 0)
                n = add_if(sq, own, f, t, out, n);
        }
    }
    /* Horses */
    for (i = 5; i <= 6; i++) {
        if (!(f = b->pos_[base + i]))
            continue;
        for (d = 0; d < 8; d++) {
            if (sq[f + HORSE_LEG[d]] == 0)
                n = add_if(sq, own, f, f + HORSE_TO[d], out, n);
        }
    }
    /* Rooks */
    for (i = 7; i <= 8; i++) {
        if (!(f = b->pos_[base + i]))
            continue;
        for (d = 0; d < 4; d++) {
            int step = ORTH[d], t = f + step, id;
            while ((id = sq[t]) == 0) {
                out[n++] = IMOVE(f, t);
                t += step;
            }
            if (id & opp)
                out[n++] = IMOVE(f, t);
        }
    }
    /* Cannons */
    for (i = 9; i <= 10; i++) {
        if (!(f = b->pos_[base + i]))
            continue;
        for (d = 0; d < 4; d++) {
            int step = ORTH[d], t = f + step, id;
            while ((id = sq[t]) == 0) {
                out[n++] = IMOVE(f, t);
                t += step;
            }
            if (id == ID_OFF)
                continue;
            t += step;
            while ((id = sq[t]) == 0)
                t += step;
            if (id & opp)
                out[n++] = IMOVE(f, t);
        }
    }
    /* Pawns */
    for (i = 11; i <= 15; i++) {
        if (!(f = b->pos_[base + i]))
            continue;
        n = add_if(sq, own, f, f + FORWARD(sd), out, n);
        if (HALF[f] != (unsigned)(sd + 1)) {
            n = add_if(sq, own, f, f - 1, out, n);
            n = add_if(sq, own, f, f + 1, out, n);
        }
    }
    return n;
}

/* Which moves of a non-king piece can expose the own king on point k when
 * it is not in check (see the proof at the top): one leaving a line through
 * k that holds an enemy rook, cannon or king; one arriving on a line through
 * k that holds an enemy cannon (a new screen, or a capture that removes one);
 * one leaving a horse-leg point of k while an enemy horse is near. */
typedef struct {
    int k;
    int from_file, from_rank;   /* leaving k's file / rank can expose it */
    int to_file, to_rank;       /* arriving on k's file / rank can expose it */
    int legs;                   /* leaving a leg point can expose it */
} danger;

static void danger_init(const xq_board *b, int sd, danger *dg)
{
    int k = b->pos_[SIDE_BASE(sd)], eb = SIDE_BASE(sd ^ 1), i, p;
    dg->k = k;
    dg->from_file = dg->from_rank = dg->to_file = dg->to_rank = dg->legs = 0;
    p = b->pos_[eb];                               /* enemy king: file only */
    if (((p ^ k) & 0x0F) == 0)
        dg->from_file = 1;
    for (i = 7; i <= 10; i++) {                    /* rooks 7-8, cannons 9-10 */
        if (!(p = b->pos_[eb + i]))
            continue;
        if (((p ^ k) & 0x0F) == 0) {
            dg->from_file = 1;
            if (i >= 9)
                dg->to_file = 1;
        }
        if (((p ^ k) & 0xF0) == 0) {
            dg->from_rank = 1;
            if (i >= 9)
                dg->to_rank = 1;
        }
    }
    for (i = 5; i <= 6; i++) {                     /* horses */
        int df, dr;
        if (!(p = b->pos_[eb + i]))
            continue;
        df = (p & 15) - (k & 15);
        dr = (p >> 4) - (k >> 4);
        if (df >= -2 && df <= 2 && dr >= -2 && dr <= 2)
            dg->legs = 1;
    }
}

static inline int risky(const danger *dg, int f, int t)
{
    int k = dg->k, df = f - k;
    return (dg->from_file && ((f ^ k) & 0x0F) == 0) ||
           (dg->from_rank && ((f ^ k) & 0xF0) == 0) ||
           (dg->to_file && ((t ^ k) & 0x0F) == 0) ||
           (dg->to_rank && ((t ^ k) & 0xF0) == 0) ||
           (dg->legs && (df == 15 || df == 17 || df == -15 || df == -17));
}

static int filter_legal(xq_board *b, const imove *ps, int np, imove *out)
{
    int sd = b->side_, n = 0, i;
    int k = b->pos_[SIDE_BASE(sd)];
    int check = eng_attacked(b, k, sd ^ 1);
    danger dg;

    danger_init(b, sd, &dg);
    for (i = 0; i < np; i++) {
        imove m = ps[i];
        int f = IM_FROM(m);
        if (check || f == k || risky(&dg, f, IM_TO(m))) {
            int cap = eng_do(b, m), bad;
            bad = eng_king_attacked(b, sd);
            eng_undo(b, m, cap);
            if (bad)
                continue;
        }
        out[n++] = m;
    }
    return n;
}

int eng_gen_legal(xq_board *b, imove *out)
{
    imove ps[ENG_MAX_PSEUDO];
    int np = eng_gen_pseudo(b, ps);
    return filter_legal(b, ps, np, out);
}

static uint64_t perft_rec(xq_board *b, int depth)
{
    imove ms[ENG_MAX_PSEUDO];
    int n = eng_gen_legal(b, ms), i;
    uint64_t total = 0;

    if (depth == 1)
        return (uint64_t)n;
    for (i = 0; i < n; i++) {
        int cap = eng_do(b, ms[i]);
        total += perft_rec(b, depth - 1);
        eng_undo(b, ms[i], cap);
    }
    return total;
}

uint64_t xq_board_perft(xq_board *b, int depth)
{
    if (!b || depth <= 0)
        return 1;
    return perft_rec(b, depth);
}

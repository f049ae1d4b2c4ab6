/* state.c - legal moves at the API, typed legality reasons, make/unmake
 * with history, check and end status. */
#include <string.h>

#include "replay_internal.h"
#include "xq_core.h"

static const struct {
    const char *msg, *rule;
} ILLEGAL_TEXT[] = {
    [XQ_LEGAL]              = { "legal move", "" },
    [XQ_ILL_BAD_SQUARE]     = { "not a move between two different points of the board", "WXF 1" },
    [XQ_ILL_NO_PIECE]       = { "there is no piece on the starting point", "WXF 2" },
    [XQ_ILL_NOT_OWN]        = { "the piece belongs to the side not to move", "WXF 2" },
    [XQ_ILL_OWN_CAPTURE]    = { "the destination holds one's own piece", "WXF 2" },
    [XQ_ILL_KING_PALACE]    = { "the king may not leave the palace", "WXF 2" },
    [XQ_ILL_KING_STEP]      = { "the king moves one point orthogonally", "WXF 2" },
    [XQ_ILL_ADVISOR_PALACE] = { "the advisor may not leave the palace", "WXF 2" },
    [XQ_ILL_ADVISOR_STEP]   = { "the advisor moves one point diagonally", "WXF 2" },
    [XQ_ILL_ELEPHANT_RIVER] = { "the elephant may not cross the river", "WXF 2" },
    [XQ_ILL_ELEPHANT_STEP]  = { "the elephant moves exactly two points diagonally", "WXF 2" },
    [XQ_ILL_ELEPHANT_EYE]   = { "the elephant's eye is blocked", "WXF 2" },
    [XQ_ILL_HORSE_STEP]     = { "not a horse move (one point straight, then one diagonally outward)", "WXF 2" },
    [XQ_ILL_HORSE_LEG]      = { "the horse's leg is blocked", "WXF 2" },
    [XQ_ILL_ROOK_LINE]      = { "the rook moves along a rank or a file", "WXF 2" },
    [XQ_ILL_ROOK_BLOCKED]   = { "a piece stands in the rook's path", "WXF 2" },
    [XQ_ILL_CANNON_LINE]    = { "the cannon moves along a rank or a file", "WXF 2" },
    [XQ_ILL_CANNON_BLOCKED] = { "a piece stands in the cannon's path (it only jumps to capture)", "WXF 2" },
    [XQ_ILL_CANNON_SCREEN]  = { "a cannon captures by jumping exactly one piece", "WXF 2" },
    [XQ_ILL_PAWN_BACKWARD]  = { "a pawn never moves backwards", "WXF 2" },
    [XQ_ILL_PAWN_SIDEWAYS]  = { "a pawn moves sideways only after crossing the river", "WXF 2" },
    [XQ_ILL_PAWN_STEP]      = { "a pawn moves one point", "WXF 2" },
    [XQ_ILL_SELF_CHECK]     = { "the move leaves or puts one's own king in check", "WXF 4.5" },
    [XQ_ILL_KINGS_FACE]     = { "the kings would face each other on an open file", "WXF 2.9, 4.5" },
    [XQ_ILL_NOROOM]         = { "the board's move history is full", "" },
};

const char *xq_illegal_str(xq_illegal why)
{
    if ((unsigned)why >= XQ_ARRAY_LEN(ILLEGAL_TEXT))
        return "unknown reason";
    return ILLEGAL_TEXT[why].msg;
}

const char *xq_illegal_rule(xq_illegal why)
{
    if ((unsigned)why >= XQ_ARRAY_LEN(ILLEGAL_TEXT))
        return "";
    return ILLEGAL_TEXT[why].rule;
}

static imove to_imove(xq_move mv)
{
    return IMOVE(eng_idx_of(XQ_MOVE_FROM(mv)), eng_idx_of(XQ_MOVE_TO(mv)));
}

static xq_move to_xq(imove m)
{
    return XQ_MOVE(eng_sq_of(IM_FROM(m)), eng_sq_of(IM_TO(m)));
}

int xq_board_legal_moves(xq_board *b, xq_move *out)
{
    imove ms[ENG_MAX_PSEUDO];
    int n, i;
    if (!b || !out)
        return 0;
    n = eng_gen_legal(b, ms);
    for (i = 0; i < n; i++)
        out[i] = to_xq(ms[i]);
    return n;
}

/* Pieces strictly between f and t on one line (step s). */
static int between(const xq_board *b, int f, int t, int s)
{
    int n = 0, i;
    for (i = f + s; i != t; i += s)
        n += b->sq_[i] != 0;
    return n;
}

static int kings_face(const xq_board *b)
{
    int rk = b->pos_[SIDE_BASE(XQ_RED)], bk = b->pos_[SIDE_BASE(XQ_BLACK)];
    return ((rk ^ bk) & 15) == 0 && between(b, rk, bk, 16) == 0;
}

static xq_illegal geometry(const xq_board *b, int f, int t, int sd, int type)
{
    int d = t - f, fwd = FORWARD(sd);
    switch (type) {
    case XQ_KING:
        if (d != 1 && d != -1 && d != 16 && d != -16)
            return XQ_ILL_KING_STEP;
        return eng_palace(t) == sd + 1 ? XQ_LEGAL : XQ_ILL_KING_PALACE;
    case XQ_ADVISOR:
        if (d != 15 && d != -15 && d != 17 && d != -17)
            return XQ_ILL_ADVISOR_STEP;
        return eng_palace(t) == sd + 1 ? XQ_LEGAL : XQ_ILL_ADVISOR_PALACE;
    case XQ_ELEPHANT:
        if (d != 30 && d != -30 && d != 34 && d != -34)
            return XQ_ILL_ELEPHANT_STEP;
        if (eng_half(t) != sd + 1)
            return XQ_ILL_ELEPHANT_RIVER;
        return b->sq_[f + d / 2] ? XQ_ILL_ELEPHANT_EYE : XQ_LEGAL;
    case XQ_HORSE: {
        int leg;
        switch (d) {
        case 33: case 31: leg = f + 16; break;
        case -33: case -31: leg = f - 16; break;
        case 18: case -14: leg = f + 1; break;
        case -18: case 14: leg = f - 1; break;
        default: return XQ_ILL_HORSE_STEP;
        }
        return b->sq_[leg] ? XQ_ILL_HORSE_LEG : XQ_LEGAL;
    }
    case XQ_ROOK:
    case XQ_CANNON: {
        int s, n;
        if (((f ^ t) & 0xF0) == 0)
            s = d > 0 ? 1 : -1;
        else if (((f ^ t) & 0x0F) == 0)
            s = d > 0 ? 16 : -16;
        else
            return type == XQ_ROOK ? XQ_ILL_ROOK_LINE : XQ_ILL_CANNON_LINE;
        n = between(b, f, t, s);
        if (type == XQ_ROOK)
            return n ? XQ_ILL_ROOK_BLOCKED : XQ_LEGAL;
        if (b->sq_[t] == 0)
            return n ? XQ_ILL_CANNON_BLOCKED : XQ_LEGAL;
        return n == 1 ? XQ_LEGAL : XQ_ILL_CANNON_SCREEN;
    }
    case XQ_PAWN: {
        int dr = (IDX_RANK(t) - IDX_RANK(f)) * (sd ? -1 : 1);
        if (d == fwd)
            return XQ_LEGAL;
        if (d == 1 || d == -1)
            return eng_half(f) != sd + 1 ? XQ_LEGAL : XQ_ILL_PAWN_SIDEWAYS;
        return dr < 0 ? XQ_ILL_PAWN_BACKWARD : XQ_ILL_PAWN_STEP;
    }
    default:
        return XQ_ILL_NO_PIECE;
    }
}

xq_illegal xq_board_check_move(xq_board *b, xq_move mv)
{
    int fs = XQ_MOVE_FROM(mv), ts = XQ_MOVE_TO(mv), f, t, id, cap, sd;
    xq_illegal why;
    imove m;

    if (!b || fs >= XQ_NSQ || ts >= XQ_NSQ || fs == ts)
        return XQ_ILL_BAD_SQUARE;
    f = eng_idx_of((xq_sq)fs);
    t = eng_idx_of((xq_sq)ts);
    sd = b->side_;
    id = b->sq_[f];
    if (!id)
        return XQ_ILL_NO_PIECE;
    if (!(id & OWN_BIT(sd)))
        return XQ_ILL_NOT_OWN;
    if (b->sq_[t] & OWN_BIT(sd))
        return XQ_ILL_OWN_CAPTURE;
    why = geometry(b, f, t, sd, ID_TYPE(id));
    if (why != XQ_LEGAL)
        return why;
    m = IMOVE(f, t);
    cap = eng_do(b, m);
    if (kings_face(b))
        why = XQ_ILL_KINGS_FACE;
    else if (eng_king_attacked(b, sd))
        why = XQ_ILL_SELF_CHECK;
    eng_undo(b, m, cap);
    return why;
}

bool xq_board_play_legal(xq_board *b, xq_move mv)
{
    xq_board_undo *u;
    xq_piece pc;
    imove m;
    int cap, sd;
    if (!b || b->nhist_ >= XQ_BOARD_MAX_PLIES ||
        XQ_MOVE_FROM(mv) >= XQ_NSQ || XQ_MOVE_TO(mv) >= XQ_NSQ)
        return false;
    m = to_imove(mv);
    sd = b->side_;
    pc = eng_piece_of(b->sq_[IM_FROM(m)]);
    u = &b->hist_[b->nhist_];
    u->key = b->key_;
    u->mv = mv;
    u->rule50 = b->rule50_;
    u->pad_ = 0;
    cap = eng_do(b, m);
    u->captured = (uint8_t)cap;
    b->key_ ^= eng_zobrist(pc, IM_FROM(m)) ^ eng_zobrist(pc, IM_TO(m)) ^
               eng_zobrist_side();
    if (cap) {
        b->key_ ^= eng_zobrist(eng_piece_of(cap), IM_TO(m));
        b->rule50_ = 0;
    } else if (b->rule50_ < UINT16_MAX) {
        b->rule50_++;
    }
    b->in_check_ = (uint8_t)eng_king_attacked(b, sd ^ 1);
    u->check = b->in_check_;
    b->nhist_++;
    return true;
}

bool xq_board_make_move(xq_board *b, xq_move mv, unsigned *pflags)
{
    int cap, sd, n;
    unsigned flags = 0;
    imove ms[ENG_MAX_PSEUDO];

    if (pflags)
        *pflags = 0;
    if (!b)
        return false;
    if (b->nhist_ >= XQ_BOARD_MAX_PLIES) {
        if (pflags)
            *pflags = XQ_MV_NOROOM;
        return false;
    }
    if (xq_board_check_move(b, mv) != XQ_LEGAL) {
        if (pflags)
            *pflags = XQ_MV_ILLEGAL;
        return false;
    }
    sd = b->side_;
    if (!xq_board_play_legal(b, mv))
        return false;
    cap = b->hist_[b->nhist_ - 1].captured;
    if (cap)
        flags |= XQ_MV_CAPTURE;
    if (b->in_check_)
        flags |= XQ_MV_CHECK;
    n = eng_gen_legal(b, ms);
    if (n == 0)
        flags |= XQ_MV_MATE;
    if (!cap) {
        xq_repetition rep;
        xq_board_repetition(b, &rep);
        if (rep.repetitions > 1) {
            flags |= XQ_MV_REPETITION;
            if (rep.checking[sd])
                flags |= XQ_MV_PERPETUAL;
        }
    }
    if (pflags)
        *pflags = flags;
    return true;
}

void xq_board_unmake_move(xq_board *b)
{
    const xq_board_undo *u;
    imove m;
    if (!b || b->nhist_ == 0)
        return;
    u = &b->hist_[--b->nhist_];
    m = to_imove(u->mv);
    eng_undo(b, m, u->captured);
    b->key_ = u->key;
    b->rule50_ = u->rule50;
    b->in_check_ = (uint8_t)eng_king_attacked(b, b->side_);
}

bool xq_board_in_check(xq_board *b)
{
    return b && eng_king_attacked(b, b->side_);
}

xq_end_position xq_board_status(xq_board *b)
{
    imove ms[ENG_MAX_PSEUDO];
    int check, n;
    if (!b)
        return XQ_END_NORMAL;
    check = eng_king_attacked(b, b->side_);
    n = eng_gen_legal(b, ms);
    if (n == 0)
        return check ? XQ_END_CHECKMATE : XQ_END_STALEMATE;
    return check ? XQ_END_IN_CHECK : XQ_END_NORMAL;
}

int xq_board_ply_count(const xq_board *b)
{
    return b ? b->nhist_ : 0;
}

xq_move xq_board_move_at(const xq_board *b, int i)
{
    if (!b || i < 0 || i >= b->nhist_)
        return XQ_MOVE_NONE;
    return b->hist_[i].mv;
}

/* Side that made history move j. */
static int mover(const xq_board *b, int j)
{
    return b->side0_ ^ (j & 1);
}

void xq_board_repetition(const xq_board *b, xq_repetition *prep)
{
    int i, j, n;
    if (!prep)
        return;
    memset(prep, 0, sizeof *prep);
    prep->repetitions = 1;
    prep->cycle_start = -1;
    prep->first_start = -1;
    if (!b)
        return;
    n = b->nhist_;
    /* hist_[i].key is the position before move i; same side to move as now
     * when n - i is even. A capture makes every earlier position different. */
    for (i = n - 1; i >= 0; i--) {
        if (b->hist_[i].captured)
            break;
        if (((n - i) & 1) == 0 && b->hist_[i].key == b->key_) {
            prep->repetitions++;
            if (prep->cycle_start < 0)
                prep->cycle_start = i;
            prep->first_start = i;
        }
    }
    if (prep->cycle_start < 0)
        return;
    prep->cycle_len = n - prep->cycle_start;
    prep->checking[0] = prep->checking[1] = true;
    for (j = prep->cycle_start; j < n; j++)
        if (!b->hist_[j].check)
            prep->checking[mover(b, j)] = false;
}

int xq_board_repetitions(const xq_board *b)
{
    xq_repetition rep;
    xq_board_repetition(b, &rep);
    return rep.repetitions;
}

int xq_board_perpetual_check(const xq_board *b)
{
    xq_repetition rep;
    xq_board_repetition(b, &rep);
    if (rep.repetitions < 2)
        return -1;
    if (rep.checking[0] && rep.checking[1])
        return 2;
    if (rep.checking[0])
        return XQ_RED;
    if (rep.checking[1])
        return XQ_BLACK;
    return -1;
}

void xq_board_move_limit(const xq_board *b, xq_move_limit *plim)
{
    int j, n, sd;
    if (!plim)
        return;
    memset(plim, 0, sizeof *plim);
    if (!b)
        return;
    n = b->nhist_;
    plim->plies = b->rule50_;
    plim->known_plies = b->rule50_ < n ? b->rule50_ : n;
    for (j = n - plim->known_plies; j < n; j++)
        if (b->hist_[j].check)
            plim->checks[mover(b, j)]++;
    for (sd = 0; sd < 2; sd++) {
        int extra = plim->checks[sd] > 10 ? plim->checks[sd] - 10 : 0;
        plim->limit[sd] = plim->plies - extra >= 100;
    }
}

/* board.c - xq_board set-up: FEN in (with full validation) and out, and the
 * plain readers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "replay_internal.h"

/* Most pieces of each type a side may have (index: type 1..7). */
static const int MAX_COUNT[8] = { 0, 1, 2, 2, 2, 2, 2, 5 };
/* First id slot of each type within a side. */
static const int FIRST_SLOT[8] = { 0, 0, 1, 3, 5, 7, 9, 11 };
static const char *const TYPE_NAME[8] = {
    "", "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"
};
static const char *const TYPE_PLURAL[8] = {
    "", "kings", "advisors", "elephants", "horses", "rooks", "cannons", "pawns"
};
static const char *const SIDE_NAME[2] = { "Red", "Black" };
/* FEN letter of each type (Red upper case). */
static const char FEN_LETTER[8] = { 0, 'K', 'A', 'B', 'N', 'R', 'C', 'P' };

xq_piece eng_piece_of(int id)
{
    if (id < 16 || id >= 48)
        return XQ_EMPTY;
    return XQ_PIECE(ID_SIDE(id), ID_TYPE(id));
}

uint64_t eng_compute_key(const xq_board *b)
{
    uint64_t key = b->side_ ? eng_zobrist_side() : 0;
    int id;
    for (id = 16; id < 48; id++)
        if (b->pos_[id])
            key ^= eng_zobrist(eng_piece_of(id), b->pos_[id]);
    return key;
}

static void clear(xq_board *b)
{
    int i;
    memset(b->sq_, ID_OFF, sizeof b->sq_);
    for (i = 0; i < XQ_NSQ; i++)
        b->sq_[eng_idx_of((xq_sq)i)] = 0;
    memset(b->pos_, 0, sizeof b->pos_);
    b->key_ = 0;
    b->side_ = XQ_RED;
    b->in_check_ = 0;
    b->nhist_ = 0;
    b->rule50_ = 0;
    b->fullmove0_ = 1;
    b->side0_ = XQ_RED;
}

static int type_of_letter(char c)
{
    switch (c | 0x20) {
    case 'k': return XQ_KING;
    case 'a': return XQ_ADVISOR;
    case 'b': case 'e': return XQ_ELEPHANT;
    case 'n': case 'h': return XQ_HORSE;
    case 'r': return XQ_ROOK;
    case 'c': return XQ_CANNON;
    case 'p': return XQ_PAWN;
    default: return 0;
    }
}

static xq_status fen_error(xq_board *b, char *err, size_t errlen,
                           const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static xq_status fen_error(xq_board *b, char *err, size_t errlen,
                           const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    xq_board_init_start(b);
    return XQ_EINVAL;
}

static void sq_name(int idx, char out[3])
{
    out[0] = (char)('a' + IDX_FILE(idx));
    out[1] = (char)('0' + IDX_RANK(idx));
    out[2] = 0;
}

/* Is the point one a piece of this type and side can ever stand on? */
static const char *placement_error(int sd, int type, int idx)
{
    int f = IDX_FILE(idx), r = IDX_RANK(idx);
    int rr = sd ? 9 - r : r;                     /* rank from its own side */
    switch (type) {
    case XQ_KING:
        return eng_palace(idx) == sd + 1 ? NULL : "outside its palace";
    case XQ_ADVISOR:
        return (eng_palace(idx) == sd + 1 && ((f + rr) & 1)) ? NULL
               : "off the five advisor points";
    case XQ_ELEPHANT:
        return (rr <= 4 && !(f & 1) && !(rr & 1) && (((f >> 1) + (rr >> 1)) & 1))
               ? NULL : "off the seven elephant points";
    case XQ_PAWN:
        if (rr < 3)
            return "behind its starting rank";
        if (rr <= 4 && (f & 1))
            return "before the river off the five pawn files";
        return NULL;
    default:
        return NULL;
    }
}

static int skip_spaces(const char *s, int i)
{
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')
        i++;
    return i;
}

/* Read the next space-separated token into tok (up to 31 chars). */
static int next_token(const char *s, int i, char tok[32])
{
    int n = 0;
    i = skip_spaces(s, i);
    while (s[i] && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') {
        if (n < 31)
            tok[n++] = s[i];
        i++;
    }
    tok[n] = 0;
    return i;
}

static int parse_count(const char *tok, long *pv)
{
    long v = 0;
    int i;
    *pv = 0;
    if (!tok[0])
        return 0;
    for (i = 0; tok[i]; i++) {
        if (tok[i] < '0' || tok[i] > '9' || v > 100000)
            return 0;
        v = v * 10 + (tok[i] - '0');
    }
    *pv = v;
    return 1;
}

xq_status xq_board_from_fen(xq_board *b, const char *fen, char *err,
                            size_t errlen)
{
    int count[2][8] = { { 0 } };
    int i = 0, rank = 9, file = 0, sd, t;
    char tok[32], nm[3];
    long half = 0, full = 1;

    if (err && errlen > 0)
        err[0] = 0;
    if (!b)
        return XQ_EINVAL;
    if (!fen)
        return fen_error(b, err, errlen, "no FEN given");
    clear(b);
    i = skip_spaces(fen, 0);
    if (!fen[i])
        return fen_error(b, err, errlen, "empty FEN");
    for (;; i++) {
        char c = fen[i];
        if (c == '/') {
            if (file != 9)
                return fen_error(b, err, errlen,
                                 "rank %d of the FEN has %d points, not 9",
                                 10 - rank, file);
            if (rank == 0)
                return fen_error(b, err, errlen, "the FEN has more than 10 ranks");
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
            if (file > 9)
                return fen_error(b, err, errlen,
                                 "rank %d of the FEN has more than 9 points",
                                 10 - rank);
        } else if ((t = type_of_letter(c)) != 0) {
            int idx, id;
            if (file >= 9)
                return fen_error(b, err, errlen,
                                 "rank %d of the FEN has more than 9 points",
                                 10 - rank);
            sd = (c >= 'a') ? XQ_BLACK : XQ_RED;
            if (++count[sd][t] > MAX_COUNT[t])
                return fen_error(b, err, errlen,
                                 "%s has more than %d %s",
                                 SIDE_NAME[sd], MAX_COUNT[t],
                                 MAX_COUNT[t] == 1 ? TYPE_NAME[t] : TYPE_PLURAL[t]);
            idx = eng_idx_of(XQ_SQ(file, rank));
            id = SIDE_BASE(sd) + FIRST_SLOT[t] + count[sd][t] - 1;
            b->sq_[idx] = (uint8_t)id;
            b->pos_[id] = (uint8_t)idx;
            file++;
        } else if (c == 0 || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            break;
        } else {
            return fen_error(b, err, errlen,
                             "unexpected character '%c' in the FEN board",
                             (c >= 32 && c < 127) ? c : '?');
        }
    }
    if (rank != 0 || file != 9)
        return fen_error(b, err, errlen,
                         "the FEN board is incomplete (needs 10 ranks of 9 points)");

    /* Side to move and the optional trailing fields. */
    i = next_token(fen, i, tok);
    if (!tok[0] || !strcmp(tok, "w") || !strcmp(tok, "r") ||
        !strcmp(tok, "W") || !strcmp(tok, "R"))
        b->side_ = XQ_RED;
    else if (!strcmp(tok, "b") || !strcmp(tok, "B"))
        b->side_ = XQ_BLACK;
    else
        return fen_error(b, err, errlen,
                         "side to move must be w, r or b, not \"%s\"", tok);
    i = next_token(fen, i, tok);
    if (tok[0] && strcmp(tok, "-"))
        return fen_error(b, err, errlen,
                         "expected \"-\" after the side to move, not \"%s\"", tok);
    i = next_token(fen, i, tok);
    if (tok[0] && strcmp(tok, "-"))
        return fen_error(b, err, errlen,
                         "expected \"- -\" after the side to move, not \"%s\"", tok);
    i = next_token(fen, i, tok);
    if (tok[0] && (!parse_count(tok, &half) || half > 60000))
        return fen_error(b, err, errlen, "bad half-move clock \"%s\"", tok);
    i = next_token(fen, i, tok);
    if (tok[0] && (!parse_count(tok, &full) || full > 60000))
        return fen_error(b, err, errlen, "bad move number \"%s\"", tok);
    if (full == 0)
        full = 1; /* "- - 0 0" is common in Xiangqi software: move number unknown */
    i = next_token(fen, i, tok);
    if (tok[0])
        return fen_error(b, err, errlen, "unexpected \"%s\" after the FEN", tok);

    /* Position validation. */
    for (sd = 0; sd < 2; sd++) {
        if (count[sd][XQ_KING] == 0)
            return fen_error(b, err, errlen, "%s has no king", SIDE_NAME[sd]);
        for (t = XQ_KING; t <= XQ_PAWN; t++) {
            int k;
            for (k = 0; k < count[sd][t]; k++) {
                int id = SIDE_BASE(sd) + FIRST_SLOT[t] + k;
                const char *why = placement_error(sd, t, b->pos_[id]);
                if (why) {
                    sq_name(b->pos_[id], nm);
                    return fen_error(b, err, errlen, "%s %s on %s is %s",
                                     SIDE_NAME[sd], TYPE_NAME[t], nm, why);
                }
            }
        }
    }
    {
        int rk = b->pos_[SIDE_BASE(XQ_RED)], bk = b->pos_[SIDE_BASE(XQ_BLACK)];
        if (((rk ^ bk) & 15) == 0) {
            int s = rk + 16;
            while (b->sq_[s] == 0)
                s += 16;
            if (s == bk)
                return fen_error(b, err, errlen,
                                 "the kings face each other on file %c",
                                 'a' + IDX_FILE(rk));
        }
    }
    if (eng_king_attacked(b, b->side_ ^ 1))
        return fen_error(b, err, errlen,
                         "%s is in check but it is %s's turn to move",
                         SIDE_NAME[b->side_ ^ 1], SIDE_NAME[b->side_]);
    b->in_check_ = (uint8_t)eng_king_attacked(b, b->side_);
    b->rule50_ = (uint16_t)half;
    b->fullmove0_ = (uint16_t)full;
    b->side0_ = b->side_;
    b->key_ = eng_compute_key(b);
    return XQ_OK;
}

void xq_board_copy(xq_board *dst, const xq_board *src)
{
    if (!dst || !src || dst == src)
        return;
    memcpy(dst, src, offsetof(xq_board, hist_));
    memcpy(dst->hist_, src->hist_, (size_t)src->nhist_ * sizeof src->hist_[0]);
}

void xq_board_save_pos(xq_board_pos *p, const xq_board *b)
{
    if (p && b)
        memcpy(p->bytes_, b, sizeof p->bytes_);
}

void xq_board_load_pos(xq_board *b, const xq_board_pos *p)
{
    unsigned fullmove;
    if (!b || !p)
        return;
    memcpy(b, p->bytes_, sizeof p->bytes_);
    /* the move number of the stored board, now counted from no history */
    fullmove = b->fullmove0_ + (b->nhist_ + b->side0_) / 2u;
    b->fullmove0_ = (uint16_t)(fullmove > UINT16_MAX ? UINT16_MAX : fullmove);
    b->side0_ = b->side_;
    b->nhist_ = 0;
}

void xq_board_init_start(xq_board *b)
{
    static const char *const start = XQ_START_FEN;
    int f, r, k;
    if (!b)
        return;
    /* Built directly (not through the FEN reader, which falls back here). */
    clear(b);
    r = 9;
    f = 0;
    {
        int n[2][8] = { { 0 } };
        for (k = 0; start[k] && start[k] != ' '; k++) {
            char c = start[k];
            int t, sd, id, idx;
            if (c == '/') { r--; f = 0; continue; }
            if (c >= '1' && c <= '9') { f += c - '0'; continue; }
            t = type_of_letter(c);
            sd = c >= 'a';
            id = SIDE_BASE(sd) + FIRST_SLOT[t] + n[sd][t]++;
            idx = eng_idx_of(XQ_SQ(f, r));
            b->sq_[idx] = (uint8_t)id;
            b->pos_[id] = (uint8_t)idx;
            f++;
        }
    }
    b->key_ = eng_compute_key(b);
}

void xq_board_to_fen(const xq_board *b, char *buf, size_t len)
{
    char tmp[XQ_FEN_MAX + 32];
    int n = 0, r, f;
    if (!buf || len == 0)
        return;
    if (!b) {
        buf[0] = 0;
        return;
    }
    for (r = 9; r >= 0; r--) {
        int empty = 0;
        for (f = 0; f < 9; f++) {
            int id = b->sq_[eng_idx_of(XQ_SQ(f, r))];
            if (!id) {
                empty++;
                continue;
            }
            if (empty)
                tmp[n++] = (char)('0' + empty);
            empty = 0;
            tmp[n++] = (char)(FEN_LETTER[ID_TYPE(id)] | (ID_SIDE(id) ? 0x20 : 0));
        }
        if (empty)
            tmp[n++] = (char)('0' + empty);
        if (r)
            tmp[n++] = '/';
    }
    snprintf(tmp + n, sizeof tmp - (size_t)n, " %c - - %u %u",
             b->side_ ? 'b' : 'w', (unsigned)b->rule50_,
             (unsigned)(b->fullmove0_ + (b->nhist_ + b->side0_) / 2));
    snprintf(buf, len, "%s", tmp);
}

xq_piece xq_board_piece_at(const xq_board *b, xq_sq sq)
{
    if (!b || sq >= XQ_NSQ)
        return XQ_EMPTY;
    return eng_piece_of(b->sq_[eng_idx_of(sq)]);
}

int xq_board_side(const xq_board *b)
{
    return b ? b->side_ : XQ_RED;
}

xq_sq xq_board_king_sq(const xq_board *b, int sd)
{
    if (!b)
        return 0;
    return (xq_sq)eng_sq_of(b->pos_[SIDE_BASE(sd & 1)]);
}

uint64_t xq_board_hash(const xq_board *b)
{
    return b ? b->key_ : 0;
}

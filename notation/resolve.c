/* resolve.c - xq_token + board -> exactly one legal move or a typed reason
 * (ElephantEye's File2Move step, with every 前/中/后/一..五 pawn form). */
#include <stdio.h>
#include <string.h>

#include "notation_internal.h"
#include "xq_core.h"

static const char *const code_text[] = {
    "ok",
    "not a move in any notation",
    "no such piece on that file",
    "ambiguous: several pieces fit",
    "destination impossible for that piece",
    "leaves own king in check",
    "the kings would face each other",
    "game too long for the board history",
};

const char *xq_resolve_code_str(xq_resolve_code code)
{
    if ((unsigned)code >= XQ_ARRAY_LEN(code_text))
        return "unknown resolution";
    return code_text[code];
}

int xq_nt_file_pieces(const xq_board *b, int sd, int pt, int fidx, xq_sq *out)
{
    int n = 0, r, i;
    xq_piece want = XQ_PIECE(sd, pt);
    if (fidx < 0 || fidx > 8)
        return 0;
    /* Front first: Red's front is the highest rank, Black's the lowest. */
    for (i = 0; i < 10; i++) {
        r = sd == XQ_RED ? 9 - i : i;
        if (xq_board_piece_at(b, XQ_SQ(fidx, r)) == want && n < 5)
            out[n++] = XQ_SQ(fidx, r);
    }
    return n;
}

void xq_nt_file_counts(const xq_board *b, int sd, int pt, int cnt[9])
{
    int f, r;
    xq_piece want = XQ_PIECE(sd, pt);
    for (f = 0; f < 9; f++) {
        cnt[f] = 0;
        for (r = 0; r < 10; r++)
            if (xq_board_piece_at(b, XQ_SQ(f, r)) == want)
                cnt[f]++;
    }
}

/* Destination of a descriptive move from sq, or -1 if off the board or
 * not a geometry the piece can have. */
static int destination(int sd, int pt, xq_sq from, char dir, int target)
{
    int f = XQ_SQ_FILE(from), r = XQ_SQ_RANK(from);
    int fwd = sd == XQ_RED ? 1 : -1;
    int tf, tr, df, dr;
    if (pt == XQ_ADVISOR || pt == XQ_ELEPHANT || pt == XQ_HORSE) {
        if (dir == '=')
            return -1;
        tf = xq_nt_file_index(sd, target);
        df = tf - f < 0 ? f - tf : tf - f;
        if (pt == XQ_ADVISOR && df == 1)
            dr = 1;
        else if (pt == XQ_ELEPHANT && df == 2)
            dr = 2;
        else if (pt == XQ_HORSE && (df == 1 || df == 2))
            dr = 3 - df;
        else
            return -1;
        tr = r + (dir == '+' ? fwd : -fwd) * dr;
    } else if (dir == '=') {
        tf = xq_nt_file_index(sd, target);
        tr = r;
        if (tf == f)
            return -1;
    } else {
        tf = f;
        tr = r + (dir == '+' ? fwd : -fwd) * target;
    }
    if (tf < 0 || tf > 8 || tr < 0 || tr > 9)
        return -1;
    return XQ_SQ(tf, tr);
}

/* Candidate from-squares of a descriptive token; returns count. */
static int candidates(const xq_board *b, int sd, const xq_token *t,
                      xq_sq *out, unsigned *pwarn)
{
    int pt = t->piece ? t->piece : XQ_PAWN;
    int n = 0, f, k, cnt[9], nmulti = 0;
    xq_sq on[5];
    if (t->pos == XQ_POS_NONE) {
        if (!t->file)
            return 0;
        return xq_nt_file_pieces(b, sd, pt, xq_nt_file_index(sd, t->file), out);
    }
    if (t->file) {
        /* Position word plus file: 前六平五, 前兵九平八, 15=6. */
        k = xq_nt_file_pieces(b, sd, pt, xq_nt_file_index(sd, t->file), on);
        if (k < 2)
            return 0;
        switch (t->pos) {
        case XQ_POS_FRONT: out[0] = on[0]; return 1;
        case XQ_POS_REAR: out[0] = on[k - 1]; return 1;
        case XQ_POS_MIDDLE:
            if (k != 3)
                return 0;
            out[0] = on[1];
            return 1;
        case XQ_POS_NTH:
            if (t->nth > k)
                return 0;
            out[0] = on[t->nth - 1];
            return 1;
        default:
            return 0;
        }
    }
    /* Position word without a file: the files holding several. */
    xq_nt_file_counts(b, sd, pt, cnt);
    for (f = 0; f < 9; f++)
        if (cnt[f] >= 2)
            nmulti++;
    if (nmulti == 0)
        return 0;
    if (nmulti == 1) {
        for (f = 0; f < 9; f++)
            if (cnt[f] >= 2)
                break;
        k = xq_nt_file_pieces(b, sd, pt, f, on);
        switch (t->pos) {
        case XQ_POS_FRONT: out[0] = on[0]; return 1;
        case XQ_POS_REAR: out[0] = on[k - 1]; return 1;
        case XQ_POS_MIDDLE:
            if (k != 3)
                return 0;
            out[0] = on[1];
            return 1;
        case XQ_POS_NTH:
            if (t->nth > k)
                return 0;
            out[0] = on[t->nth - 1];
            return 1;
        default:
            return 0;
        }
    }
    /* Several files hold several pieces (pawns). NTH: ElephantEye's pooled
     * order (files from the mover's right, each front to back). 前/中/后:
     * every file's piece in that position; the board decides. */
    if (t->pos == XQ_POS_NTH) {
        int idx = 0, num;
        for (num = 1; num <= 9; num++) {
            f = xq_nt_file_index(sd, num);
            if (cnt[f] < 2)
                continue;
            k = xq_nt_file_pieces(b, sd, pt, f, on);
            if (t->nth - 1 < idx + k) {
                out[0] = on[t->nth - 1 - idx];
                *pwarn |= XQ_RWARN_NONCANONICAL;
                return 1;
            }
            idx += k;
        }
        return 0;
    }
    for (f = 0; f < 9; f++) {
        if (cnt[f] < 2)
            continue;
        k = xq_nt_file_pieces(b, sd, pt, f, on);
        if (t->pos == XQ_POS_FRONT)
            out[n++] = on[0];
        else if (t->pos == XQ_POS_REAR)
            out[n++] = on[k - 1];
        else if (t->pos == XQ_POS_MIDDLE && k == 3)
            out[n++] = on[1];
    }
    *pwarn |= XQ_RWARN_UNDISAMBIGUATED;
    return n;
}

static xq_resolve_code code_of_illegal(xq_illegal why)
{
    switch (why) {
    case XQ_LEGAL: return XQ_RES_OK;
    case XQ_ILL_NO_PIECE: case XQ_ILL_NOT_OWN: return XQ_RES_NO_PIECE;
    case XQ_ILL_SELF_CHECK: return XQ_RES_SELF_CHECK;
    case XQ_ILL_KINGS_FACE: return XQ_RES_KINGS_FACE;
    case XQ_ILL_NOROOM: return XQ_RES_NOROOM;
    default: return XQ_RES_BAD_DESTINATION;
    }
}

/* Rank of failure codes: the most specific reason wins when no candidate
 * is legal. */
static int code_rank(xq_resolve_code c)
{
    switch (c) {
    case XQ_RES_SELF_CHECK: case XQ_RES_KINGS_FACE: return 3;
    case XQ_RES_NOROOM: return 3;
    case XQ_RES_BAD_DESTINATION: return 2;
    default: return 1;
    }
}

/* A descriptive token as the lexer makes them (callers may build their
 * own): anything else reads as unparseable. */
static int token_valid(const xq_token *t)
{
    if (t->piece > XQ_PAWN || t->file > 9 || t->target < 1 || t->target > 9)
        return 0;
    if (t->dir != '+' && t->dir != '-' && t->dir != '=')
        return 0;
    if (t->pos > XQ_POS_NTH || (t->pos == XQ_POS_NTH && (t->nth < 1 || t->nth > 5)))
        return 0;
    if (t->pos == XQ_POS_NONE && (!t->file || !t->piece))
        return 0;
    return 1;
}

static void warn_side(const xq_token *t, int sd, xq_resolution *res)
{
    unsigned own = sd == XQ_RED ? XQ_HINT_RED : XQ_HINT_BLACK;
    if (t->num_hint && !(t->num_hint & own))
        res->warnings |= XQ_RWARN_SIDE_NUMERALS;
    if (t->glyph_hint && !(t->glyph_hint & own))
        res->warnings |= XQ_RWARN_SIDE_GLYPH;
}

xq_status xq_notation_resolve(xq_board *b, const xq_token *t,
                              xq_resolution *pres)
{
    int sd, i, nc, nlegal = 0, nfail = 0;
    xq_sq from[8];
    xq_move legal_mv = XQ_MOVE_NONE, fail_mv = XQ_MOVE_NONE;
    xq_illegal fail_why = XQ_LEGAL;
    xq_resolve_code fail_code = XQ_RES_NO_PIECE;
    if (pres) {
        memset(pres, 0, sizeof *pres);
        pres->code = XQ_RES_UNPARSEABLE;
        pres->mv = XQ_MOVE_NONE;
        pres->why = XQ_LEGAL;
    }
    if (!b || !t || !pres)
        return XQ_EINVAL;
    sd = xq_board_side(b);
    if (t->form == XQ_TOK_COORD) {
        xq_move mv = XQ_MOVE(t->from, t->to);
        xq_illegal why;
        xq_piece pc = xq_board_piece_at(b, t->from);
        if (t->from >= XQ_NSQ || t->to >= XQ_NSQ) {
            pres->code = XQ_RES_BAD_DESTINATION;
            return XQ_OK;
        }
        why = xq_board_check_move(b, mv);
        pres->code = code_of_illegal(why);
        if (pres->code == XQ_RES_OK) {
            pres->mv = mv;
            pres->nfit = 1;
        } else if (pres->code != XQ_RES_NO_PIECE) {
            pres->mv = mv;
            pres->why = why;
        } else if (pc != XQ_EMPTY) {
            pres->why = why;   /* a piece of the side not to move */
        }
        return XQ_OK;
    }
    if (t->form != XQ_TOK_FILE || !token_valid(t))
        return XQ_OK;
    warn_side(t, sd, pres);
    nc = candidates(b, sd, t, from, &pres->warnings);
    for (i = 0; i < nc; i++) {
        int pt = XQ_PIECE_TYPE(xq_board_piece_at(b, from[i]));
        int to = destination(sd, pt, from[i], t->dir, t->target);
        xq_illegal why;
        xq_resolve_code c;
        if (to < 0) {
            if (code_rank(XQ_RES_BAD_DESTINATION) > code_rank(fail_code) ||
                nfail == 0) {
                fail_code = XQ_RES_BAD_DESTINATION;
                fail_why = XQ_LEGAL;
                fail_mv = XQ_MOVE_NONE;
            }
            nfail++;
            continue;
        }
        why = xq_board_check_move(b, XQ_MOVE(from[i], to));
        c = code_of_illegal(why);
        if (c == XQ_RES_OK) {
            nlegal++;
            legal_mv = XQ_MOVE(from[i], to);
            continue;
        }
        if (nfail == 0 || code_rank(c) > code_rank(fail_code)) {
            fail_code = c;
            fail_why = why;
            fail_mv = XQ_MOVE(from[i], to);
        }
        nfail++;
    }
    pres->nfit = nlegal;
    if (nlegal == 1) {
        pres->code = XQ_RES_OK;
        pres->mv = legal_mv;
        {
            int pt = XQ_PIECE_TYPE(xq_board_piece_at(b, XQ_MOVE_FROM(legal_mv)));
            /* Advisors and elephants are never disambiguated: the
             * direction tells which one moves. */
            if (nc > 1 && pt != XQ_ADVISOR && pt != XQ_ELEPHANT)
                pres->warnings |= XQ_RWARN_UNDISAMBIGUATED;
            else
                pres->warnings &= ~XQ_RWARN_UNDISAMBIGUATED;
        }
        return XQ_OK;
    }
    if (nlegal > 1) {
        pres->code = XQ_RES_AMBIGUOUS;
        return XQ_OK;
    }
    pres->warnings &= ~XQ_RWARN_UNDISAMBIGUATED;
    if (nc == 0) {
        pres->code = XQ_RES_NO_PIECE;
        return XQ_OK;
    }
    pres->code = fail_code;
    if (nfail == 1) {
        pres->mv = fail_mv;
        pres->why = fail_why;
    }
    return XQ_OK;
}

xq_status xq_notation_read(xq_board *b, const char *text, unsigned flags,
                           xq_resolution *pres)
{
    xq_token t;
    if (pres) {
        memset(pres, 0, sizeof *pres);
        pres->code = XQ_RES_UNPARSEABLE;
    }
    if (!b || !text || !pres)
        return XQ_EINVAL;
    if (xq_notation_lex(text, flags, &t) != XQ_OK)
        return XQ_OK;
    return xq_notation_resolve(b, &t, pres);
}

void xq_resolution_describe(const xq_resolution *res, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    if (!res)
        return;
    if (res->code == XQ_RES_AMBIGUOUS)
        snprintf(buf, len, "ambiguous: %d pieces fit", res->nfit);
    else if (res->why != XQ_LEGAL && res->code != XQ_RES_NO_PIECE)
        snprintf(buf, len, "%s (%s)", xq_resolve_code_str(res->code),
                 xq_illegal_str(res->why));
    else if (res->code == XQ_RES_NO_PIECE && res->why == XQ_ILL_NOT_OWN)
        snprintf(buf, len, "%s (the piece belongs to the side not to move)",
                 xq_resolve_code_str(res->code));
    else
        snprintf(buf, len, "%s", xq_resolve_code_str(res->code));
}

/* position.c - piece placement for board diagrams.
 *
 * The diagrams only draw what the verifier recorded: the moves were already
 * checked (or flagged) by the rules engine, so here a move just lifts a
 * piece and puts it down. No legality is decided in report/.
 */
#include <string.h>
#include "report_internal.h"
#include "xq_core.h"

static const char START_PLACEMENT[] =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

static int piece_of(char c)
{
    static const char T[] = "kabnrcp";   /* FEN letters by type 1..7 */
    const char *p;
    char l = (char)(c | 0x20);
    if (l == 'e')
        l = 'b';            /* elephant: some writers use e */
    if (l == 'h')
        l = 'n';            /* horse: some writers use h */
    p = strchr(T, l);
    if (!p || !*p)
        return 0;
    return XQ_PIECE(c >= 'a' ? XQ_BLACK : XQ_RED, (int)(p - T) + 1);
}

xq_status rep_pos_from_fen(rep_pos *pos, const char *fen)
{
    int rank = 9, file = 0;
    const char *s;
    XQ_FAIL_IF(!pos || !fen, XQ_EINVAL, "fen");
    memset(pos, 0, sizeof *pos);
    pos->fullmove = 1;
    for (s = fen; *s && *s != ' '; s++) {
        if (*s == '/') {
            XQ_FAIL_IF(file != 9 || rank == 0, XQ_EINVAL, "fen rank");
            rank--;
            file = 0;
        } else if (*s >= '1' && *s <= '9') {
            file += *s - '0';
            XQ_FAIL_IF(file > 9, XQ_EINVAL, "fen file");
        } else {
            int pc = piece_of(*s);
            XQ_FAIL_IF(!pc || file > 8, XQ_EINVAL, "fen piece");
            pos->sq[XQ_SQ(file, rank)] = (xq_piece)pc;
            file++;
        }
    }
    XQ_FAIL_IF(rank != 0 || file != 9, XQ_EINVAL, "fen size");
    while (*s == ' ')
        s++;
    pos->side = (*s == 'b') ? XQ_BLACK : XQ_RED;
    /* fields: side castling ep halfmove fullmove */
    {
        int field = 0, v = 0, have = 0;
        for (; *s; s++) {
            if (*s == ' ') {
                if (have && field == 4)
                    break;
                field++;
                v = 0;
                have = 0;
                while (s[1] == ' ')
                    s++;
            } else if (field == 4 && *s >= '0' && *s <= '9' && v < 100000) {
                v = v * 10 + (*s - '0');
                have = 1;
            }
        }
        if (field == 4 && have && v > 0)
            pos->fullmove = v;
    }
    return XQ_OK;
}

int rep_fen_is_standard(const char *fen)
{
    size_t n = sizeof START_PLACEMENT - 1;
    const char *s;
    if (!fen || !*fen)
        return 1;
    if (strncmp(fen, START_PLACEMENT, n) != 0 || (fen[n] && fen[n] != ' '))
        return 0;
    s = fen + n;
    while (*s == ' ')
        s++;
    return *s != 'b';
}

xq_status rep_pos_apply(rep_pos *pos, xq_move mv)
{
    int from = XQ_MOVE_FROM(mv), to = XQ_MOVE_TO(mv);
    XQ_FAIL_IF(!pos || mv == XQ_MOVE_NONE, XQ_EINVAL, "move");
    XQ_FAIL_IF(from >= XQ_NSQ || to >= XQ_NSQ || from == to, XQ_EINVAL,
               "square");
    XQ_FAIL_IF(!pos->sq[from], XQ_EINVAL, "no piece on from-square");
    pos->sq[to] = pos->sq[from];
    pos->sq[from] = XQ_EMPTY;
    if (pos->side == XQ_BLACK)
        pos->fullmove++;
    pos->side ^= 1;
    return XQ_OK;
}

xq_move rep_iccs_parse(const char *s)
{
    int f1, r1, f2, r2;
    if (!s || strlen(s) != 4)
        return XQ_MOVE_NONE;
    f1 = (s[0] | 0x20) - 'a';
    r1 = s[1] - '0';
    f2 = (s[2] | 0x20) - 'a';
    r2 = s[3] - '0';
    if (f1 < 0 || f1 > 8 || f2 < 0 || f2 > 8 || r1 < 0 || r1 > 9 || r2 < 0 ||
        r2 > 9 || (f1 == f2 && r1 == r2))
        return XQ_MOVE_NONE;
    return XQ_MOVE(XQ_SQ(f1, r1), XQ_SQ(f2, r2));
}

xq_move rep_ply_move(const xq_ply *p)
{
    if (p->mv != XQ_MOVE_NONE)
        return p->mv;
    return rep_iccs_parse(p->iccs);
}

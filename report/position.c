/* position.c - positions for the board diagrams, replayed with the rules
 * engine (xq_board.h) from the record's start FEN; and the few FEN facts
 * the PGN header needs. report/ decides nothing: a move the engine refuses
 * simply ends the diagrams there. */
#include <string.h>
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_board.h"

static const char START_PLACEMENT[] =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

void rep_fen_counters(const char *fen, int *pside, int *pfullmove)
{
    int field = 0, v = 0, have = 0;
    const char *s;
    *pside = XQ_RED;
    *pfullmove = 1;
    if (!fen)
        return;
    for (s = fen; *s == ' '; s++)
        ;
    for (; *s; s++) {
        if (*s == ' ') {
            while (s[1] == ' ')
                s++;
            field++;
            continue;
        }
        if (field == 1 && (*s == 'b' || *s == 'B'))
            *pside = XQ_BLACK;
        if (field == 5 && *s >= '0' && *s <= '9' && v < 100000) {
            v = v * 10 + (*s - '0');
            have = 1;
        }
    }
    if (have && v > 0)
        *pfullmove = v;
}

int rep_fen_is_standard(const char *fen)
{
    size_t n = sizeof START_PLACEMENT - 1;
    int side, fullmove;
    if (!fen || !*fen)
        return 1;
    if (strncmp(fen, START_PLACEMENT, n) != 0 || (fen[n] && fen[n] != ' '))
        return 0;
    rep_fen_counters(fen, &side, &fullmove);
    return side == XQ_RED;
}

static void snapshot(const xq_board *b, rep_pos *pos)
{
    int sq;
    for (sq = 0; sq < XQ_NSQ; sq++)
        pos->sq[sq] = xq_board_piece_at(b, (xq_sq)sq);
    pos->side = xq_board_side(b);
}

xq_status rep_replay(const xq_game *g, rep_pos **ppos, long *pknown)
{
    xq_board *b;
    rep_pos *pos;
    size_t i;
    *ppos = NULL;
    *pknown = -1;
    pos = xq_calloc(g->nplies + 1, sizeof *pos);
    XQ_FAIL_IF(!pos, XQ_ENOMEM, "positions");
    b = xq_malloc(sizeof *b);
    if (!b) {
        xq_free(pos);
        return XQ_ENOMEM;
    }
    if (xq_board_from_fen(b, g->start_fen, NULL, 0) == XQ_OK) {
        snapshot(b, &pos[0]);
        *pknown = 0;
        for (i = 0; i < g->nplies; i++) {
            xq_move mv = rep_ply_move(&g->plies[i]);
            if (mv == XQ_MOVE_NONE || !xq_board_make_move(b, mv, NULL))
                break;
            snapshot(b, &pos[i + 1]);
            *pknown = (long)i + 1;
        }
    }
    xq_free(b);
    *ppos = pos;
    return XQ_OK;
}

xq_move rep_iccs_parse(const char *s)
{
    xq_move mv;
    if (!s || strlen(s) != 4 || xq_move_from_iccs(s, &mv) != XQ_OK)
        return XQ_MOVE_NONE;
    return mv;
}

xq_move rep_ply_move(const xq_ply *p)
{
    if (p->mv != XQ_MOVE_NONE)
        return p->mv;
    return rep_iccs_parse(p->iccs);
}

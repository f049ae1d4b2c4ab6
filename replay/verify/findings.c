/* findings.c - sheet-wide checks of a filled game record: unrecorded-move
 * counts and the threshold (WXF 7.6, 3.1.F), the end of the game against
 * the recorded result, the natural move limit (Art. 8), repetitions and
 * perpetual check (Art. 20.1). */
#include <stdio.h>
#include <string.h>

#include "verify_internal.h"
#include "xq_core.h"

static const char *side_name(int sd)
{
    return sd == XQ_BLACK ? "Black" : "Red";
}

static xq_status count_unrecorded(xq_game *g, int threshold)
{
    size_t i, last = 0;
    int run = 0;
    bool any = false;
    g->unrecorded.red = g->unrecorded.black = g->unrecorded.total = 0;
    g->unrecorded.longest_run = 0;
    g->unrecorded.threshold = threshold;
    /* within the game as far as known: up to the last ply with a move or a
     * record (blank rows after the end do not count) */
    for (i = 0; i < g->nplies; i++)
        if (g->plies[i].mv != XQ_MOVE_NONE || g->plies[i].read[0]) {
            last = i + 1;
            any = true;
        }
    for (i = 0; any && i < last; i++) {
        const xq_ply *p = &g->plies[i];
        if (p->status == XQ_PLY_MISSING || p->status == XQ_PLY_UNREADABLE) {
            if (p->side == XQ_BLACK)
                g->unrecorded.black++;
            else
                g->unrecorded.red++;
            run++;
            if (run > g->unrecorded.longest_run)
                g->unrecorded.longest_run = run;
        } else {
            run = 0;
        }
    }
    g->unrecorded.total = g->unrecorded.red + g->unrecorded.black;
    g->unrecorded.exceeded = g->unrecorded.total >= threshold;
    if (g->unrecorded.exceeded)
        XQ_TRY(xq_game_add_finding(g, 0, XQ_SEV_ERROR, "unrecorded_threshold",
            "WXF 7.6, 3.1.F",
            "%d moves not recorded or illegible (Red %d, Black %d; longest "
            "run %d plies): the threshold of %d is reached",
            g->unrecorded.total, g->unrecorded.red, g->unrecorded.black,
            g->unrecorded.longest_run, threshold));
    return XQ_OK;
}

/* "1-0" when sd lost is "0-1" ... */
static const char *win_for(int winner)
{
    return winner == XQ_RED ? "1-0" : "0-1";
}

static xq_status end_of_game(xq_game *g)
{
    xq_board b;
    size_t i, nmade = 0;
    bool stopped = false;
    char err[128];
    int ml_span = -100000, last_rep_ply = -1000;
    unsigned ml_flags = 0;
    const char *rr = g->end.recorded_result ? g->end.recorded_result
                                            : g->header.result;

    if (xq_board_from_fen(&b, g->start_fen, err, sizeof err) != XQ_OK)
        return XQ_EINVAL;
    if (rr && !g->end.recorded_result)
        XQ_TRY(xq_game_set_str(&g->end.recorded_result, rr));
    for (i = 0; i < g->nplies; i++) {
        const xq_ply *p = &g->plies[i];
        unsigned fl = 0;
        int plyno = p->ply;
        xq_move_limit lim;
        xq_repetition rep;
        if (p->mv == XQ_MOVE_NONE || !xq_board_make_move(&b, p->mv, &fl)) {
            stopped = true;
            break;
        }
        nmade++;
        xq_board_move_limit(&b, &lim);
        /* natural move limit: report a span when it reaches 100 plies and
         * again when a side's claim newly holds inside it */
        if (lim.plies >= 100) {
            int span_start = plyno - lim.plies + 1;
            unsigned flags = (lim.limit[0] ? 1u : 0u) | (lim.limit[1] ? 2u : 0u);
            if (span_start != ml_span || (flags & ~ml_flags)) {
                ml_span = span_start;
                ml_flags = flags;
                XQ_TRY(xq_game_add_finding(g, plyno, XQ_SEV_INFO,
                    "natural_move_limit", "WXF 8, 3.2.D",
                    "%d plies without a capture (plies %d-%d; checks: Red "
                    "%d, Black %d%s); the limit holds for a claim by Red: "
                    "%s, by Black: %s", lim.plies,
                    span_start > 1 ? span_start : 1, plyno,
                    lim.checks[0], lim.checks[1],
                    lim.known_plies < lim.plies
                        ? ", counted on the recorded part" : "",
                    lim.limit[0] ? "yes" : "no", lim.limit[1] ? "yes" : "no"));
            }
        }
        if (fl & XQ_MV_REPETITION) {
            xq_board_repetition(&b, &rep);
            if (rep.repetitions >= 3 && plyno - last_rep_ply > 2) {
                int c0 = rep.cycle_start + 1;
                last_rep_ply = plyno;
                XQ_TRY(xq_game_add_finding(g, plyno, XQ_SEV_INFO, "repetition",
                    "WXF 17.3.G, 20",
                    "the position after ply %d occurs for the %d%s time "
                    "(cycle plies %d-%d, first occurrence after ply %d)",
                    plyno, rep.repetitions,
                    rep.repetitions == 3 ? "rd" : "th", c0, plyno,
                    rep.first_start + 1));
                if (rep.checking[0] && rep.checking[1]) {
                    XQ_TRY(xq_game_add_finding(g, plyno, XQ_SEV_WARNING,
                        "perpetual_check", "WXF 20.1",
                        "both sides check on every move of the repeating "
                        "cycle (plies %d-%d): a draw", c0, plyno));
                } else if (rep.checking[0] || rep.checking[1]) {
                    XQ_TRY(xq_game_add_finding(g, plyno, XQ_SEV_WARNING,
                        "perpetual_check", "WXF 20.1",
                        "%s checks on every move of the repeating cycle "
                        "(plies %d-%d): perpetual check loses",
                        side_name(rep.checking[0] ? XQ_RED : XQ_BLACK), c0,
                        plyno));
                }
            }
        }
    }
    g->end.position = xq_board_status(&b);
    g->end.consistent = true;
    if (stopped)
        return XQ_OK;   /* the game could not be replayed to its end */
    (void)nmade;
    if (g->end.position == XQ_END_CHECKMATE || g->end.position == XQ_END_STALEMATE) {
        int loser = xq_board_side(&b), winner = 1 - loser;
        bool mate = g->end.position == XQ_END_CHECKMATE;
        XQ_TRY(xq_game_add_finding(g, (int)g->nplies, XQ_SEV_INFO,
            mate ? "checkmate" : "stalemate", mate ? "WXF 3.1.A" : "WXF 2.11, 3.1.A",
            "%s is %s after ply %zu: %s wins", side_name(loser),
            mate ? "checkmated" : "stalemated (no legal move)", g->nplies,
            side_name(winner)));
        if (rr && strcmp(rr, "*") && strcmp(rr, win_for(winner))) {
            g->end.consistent = false;
            XQ_TRY(xq_game_add_finding(g, 0, XQ_SEV_ERROR, "result_mismatch",
                "WXF 3.1.A",
                "the recorded result is %s but %s is %s on the board after "
                "ply %zu (%s)", rr, side_name(loser),
                mate ? "checkmated" : "stalemated", g->nplies, win_for(winner)));
        }
    }
    return XQ_OK;
}

xq_status vf_finish(xq_game *game, int threshold)
{
    XQ_FAIL_IF(!game, XQ_EINVAL, "game is NULL");
    if (threshold <= 0)
        threshold = 16;
    XQ_TRY(count_unrecorded(game, threshold));
    return end_of_game(game);
}

xq_status xq_verify_finish(xq_game *game, int threshold)
{
    return vf_finish(game, threshold);
}

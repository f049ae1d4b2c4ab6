/* pgn.c - xq_game -> PGN (xqbase conventions). */
#include <ctype.h>
#include <string.h>
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_report.h"

xq_status xq_pgn_notation_parse(const char *name, xq_pgn_notation *pnot)
{
    static const struct { const char *name; xq_pgn_notation nt; } N[] = {
        { "chinese", XQ_PGN_CHINESE },  { "simplified", XQ_PGN_CHINESE },
        { "traditional", XQ_PGN_TRADITIONAL }, { "wxf", XQ_PGN_WXF },
        { "iccs", XQ_PGN_ICCS },
    };
    size_t i;
    if (pnot)
        *pnot = XQ_PGN_CHINESE;
    XQ_FAIL_IF(!name || !pnot, XQ_EINVAL, "notation");
    for (i = 0; i < XQ_ARRAY_LEN(N); i++)
        if (strcasecmp(name, N[i].name) == 0) {
            *pnot = N[i].nt;
            return XQ_OK;
        }
    return XQ_EINVAL;
}

static xq_status tag(xq_strbuf *sb, const char *name, const char *val)
{
    XQ_TRY(xq_strbuf_printf(sb, "[%s \"", name));
    XQ_TRY(rep_pgn_tag(sb, val && *val ? val : "?"));
    return xq_strbuf_puts(sb, "\"]\n");
}

/* "2024-3-5", "2024/03/05", "2024.03.05", "2024年3月5日" -> "2024.03.05";
 * unknown parts '?'; text without a 4-digit year is kept as it is. */
static xq_status date_tag(xq_strbuf *sb, const char *d)
{
    int part[3] = { -1, -1, -1 }, np = 0, ndig[3] = { 0, 0, 0 };
    const char *s;
    if (!d || !*d)
        return tag(sb, "Date", "????.??.??");
    for (s = d; *s && np < 3;) {
        if (isdigit((unsigned char)*s)) {
            int v = 0, k = 0;
            while (isdigit((unsigned char)*s) && k < 5) {
                v = v * 10 + (*s - '0');
                s++;
                k++;
            }
            part[np] = v;
            ndig[np++] = k;
        } else {
            s++;
        }
    }
    if (np == 0 || ndig[0] != 4 || (np > 1 && (part[1] < 1 || part[1] > 12)) ||
        (np > 2 && (part[2] < 1 || part[2] > 31)))
        return tag(sb, "Date", d);
    XQ_TRY(xq_strbuf_printf(sb, "[Date \"%04d.", part[0]));
    if (np > 1)
        XQ_TRY(xq_strbuf_printf(sb, "%02d.", part[1]));
    else
        XQ_TRY(xq_strbuf_puts(sb, "??."));
    if (np > 2)
        XQ_TRY(xq_strbuf_printf(sb, "%02d\"]\n", part[2]));
    else
        XQ_TRY(xq_strbuf_puts(sb, "??\"]\n"));
    return XQ_OK;
}

static xq_status iccs_upper(xq_strbuf *sb, const char *iccs)
{
    char m[6];
    if (strlen(iccs) != 4)
        return xq_strbuf_puts(sb, iccs);
    m[0] = (char)toupper((unsigned char)iccs[0]);
    m[1] = iccs[1];
    m[2] = '-';
    m[3] = (char)toupper((unsigned char)iccs[2]);
    m[4] = iccs[3];
    m[5] = '\0';
    return xq_strbuf_puts(sb, m);
}

/* A move in the chosen notation (candidate moves use the same function with
 * wxf = NULL: WXF output then names candidates in ICCS). When the record
 * lacks the text of that notation, the move is written in ICCS, which every
 * reader of the notation stage accepts in any game, rather than nothing. */
static xq_status move_text(xq_strbuf *sb, xq_pgn_notation nt,
                           const char *iccs, const char *chinese,
                           const char *wxf)
{
    switch (nt) {
    case XQ_PGN_CHINESE:
        if (chinese && *chinese)
            return rep_pgn_comment(sb, chinese);
        break;
    case XQ_PGN_TRADITIONAL:
        if (chinese && *chinese)
            return rep_traditional(sb, chinese);
        break;
    case XQ_PGN_WXF:
        if (wxf && *wxf)
            return rep_pgn_comment(sb, wxf);
        break;
    case XQ_PGN_ICCS:
        break;
    }
    return iccs_upper(sb, iccs);
}

static xq_status review_comment(xq_strbuf *sb, const xq_ply *p,
                                xq_pgn_notation nt)
{
    int i;
    XQ_TRY(xq_strbuf_printf(sb, " {review ply %d: %s, read \"", p->ply,
                            xq_ply_status_name(p->status)));
    XQ_TRY(rep_pgn_comment(sb, p->read));
    XQ_TRY(xq_strbuf_printf(sb, "\", confidence %.2f", p->confidence));
    for (i = 0; i < p->ncand && i < XQ_MAX_CANDIDATES; i++) {
        XQ_TRY(xq_strbuf_puts(sb, i ? ", " : "; candidates "));
        XQ_TRY(move_text(sb, nt, p->cand[i].iccs, p->cand[i].chinese, NULL));
        XQ_TRY(xq_strbuf_printf(sb, " %.2f", p->cand[i].score));
    }
    return xq_strbuf_puts(sb, "}");
}

xq_status xq_report_pgn(const xq_game *g, xq_pgn_notation nt, xq_strbuf *out)
{
    const char *result;
    size_t i;
    int side0, movenum, line_has = 0;
    XQ_FAIL_IF(!g || !out, XQ_EINVAL, "pgn arguments");
    XQ_FAIL_IF((unsigned)nt > XQ_PGN_ICCS, XQ_EINVAL, "notation");
    result = g->header.result && *g->header.result ? g->header.result : "*";

    XQ_TRY(tag(out, "Game", "Chinese Chess"));
    XQ_TRY(tag(out, "Event", g->header.event));
    XQ_TRY(tag(out, "Site", NULL));
    XQ_TRY(date_tag(out, g->header.date));
    XQ_TRY(tag(out, "Round", g->header.round));
    XQ_TRY(tag(out, "Red", g->header.red));
    XQ_TRY(tag(out, "Black", g->header.black));
    XQ_TRY(tag(out, "Result", result));
    if (!rep_fen_is_standard(g->start_fen))
        XQ_TRY(tag(out, "FEN", g->start_fen));
    if (nt == XQ_PGN_WXF)
        XQ_TRY(tag(out, "Format", "WXF"));
    else if (nt == XQ_PGN_ICCS)
        XQ_TRY(tag(out, "Format", "ICCS"));
    if (g->header.board && *g->header.board)
        XQ_TRY(tag(out, "Board", g->header.board));
    XQ_TRY(xq_strbuf_putc(out, '\n'));

    rep_fen_counters(g->start_fen, &side0, &movenum);
    (void)side0;   /* the plies carry their own side */
    if (g->is_error) {
        XQ_TRY(xq_strbuf_puts(out, "{xqscan could not read this sheet: "));
        XQ_TRY(rep_pgn_comment(out, g->error));
        XQ_TRY(xq_strbuf_puts(out, "}\n"));
    }
    for (i = 0; i < g->nplies; i++) {
        const xq_ply *p = &g->plies[i];
        if (rep_ply_move(p) == XQ_MOVE_NONE) {
            size_t j;
            if (line_has)
                XQ_TRY(xq_strbuf_putc(out, '\n'));
            XQ_TRY(xq_strbuf_printf(out,
                "{ply %d (%s) %s: no move could be reconstructed; the moves "
                "after it cannot be replayed. Read from the sheet:",
                p->ply, p->side == XQ_BLACK ? "black" : "red",
                xq_ply_status_name(p->status)));
            for (j = i; j < g->nplies; j++) {
                XQ_TRY(xq_strbuf_printf(out, " %d. \"", g->plies[j].ply));
                XQ_TRY(rep_pgn_comment(out, g->plies[j].read));
                XQ_TRY(xq_strbuf_putc(out, '"'));
            }
            XQ_TRY(xq_strbuf_puts(out, "}\n"));
            line_has = 0;
            break;
        }
        if (p->side == XQ_RED) {
            if (line_has)
                XQ_TRY(xq_strbuf_putc(out, '\n'));
            XQ_TRY(xq_strbuf_printf(out, "%d. ", movenum));
        } else if (!line_has) {
            /* Black opens a line (start position with Black to move) */
            XQ_TRY(xq_strbuf_printf(out, "%d. ... ", movenum));
        } else {
            XQ_TRY(xq_strbuf_putc(out, ' '));
        }
        XQ_TRY(move_text(out, nt, p->iccs, p->chinese, p->wxf));
        line_has = 1;
        /* Black's move after a comment is not renumbered ("1. ... "):
         * import-format PGN allows it and some readers take a second
         * "1." for the start of another game. */
        if (p->review)
            XQ_TRY(review_comment(out, p, nt));
        if (p->side == XQ_BLACK) {
            movenum++;
            XQ_TRY(xq_strbuf_putc(out, '\n'));
            line_has = 0;
        }
    }
    if (line_has)
        XQ_TRY(xq_strbuf_putc(out, '\n'));
    return xq_strbuf_printf(out, "%s\n", result);
}

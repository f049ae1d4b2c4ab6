/* convert.c - replay a typed game record and write it as PGN in any
 * notation (xqbase conventions). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "notation_internal.h"
#include "strbuf.h"
#include "xq_core.h"

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) {
        strncpy(err, msg, errlen - 1);
        err[errlen - 1] = '\0';
    }
}

static xq_status setup(const xq_record_game *g, xq_board *b, char *err,
                       size_t errlen)
{
    char why[160];
    if (!g->fen) {
        xq_board_init_start(b);
        return XQ_OK;
    }
    if (xq_board_from_fen(b, g->fen, why, sizeof why) != XQ_OK) {
        char msg[256], twofields[128];
        const char *sp = strchr(g->fen, ' ');
        /* Some writers put counters the engine refuses ("... 0 0"): the
         * placement and the side to move are what matter. */
        if (sp && (sp = strchr(sp + 1, ' ')) != NULL &&
            (size_t)(sp - g->fen) < sizeof twofields) {
            memcpy(twofields, g->fen, (size_t)(sp - g->fen));
            twofields[sp - g->fen] = '\0';
            if (xq_board_from_fen(b, twofields, NULL, 0) == XQ_OK)
                return XQ_OK;
        }
        snprintf(msg, sizeof msg, "invalid FEN \"%.60s\": %s", g->fen, why);
        set_err(err, errlen, msg);
        return XQ_EINVAL;
    }
    return XQ_OK;
}

/* "ply 17 (move 9, black, line 131) '马8进7': no such piece on that file" */
static void ply_error(const xq_record_game *g, size_t i, int side0,
                      int fullmove0, const xq_resolution *res, char *err,
                      size_t errlen)
{
    char why[160], msg[512];
    int idx = (int)i + side0;   /* half-moves since Red's move of fullmove0 */
    xq_resolution_describe(res, why, sizeof why);
    snprintf(msg, sizeof msg, "ply %d (move %d, %s, line %d) '%.80s': %s",
             (int)i + 1, fullmove0 + idx / 2, idx % 2 ? "black" : "red",
             g->moves[i].line, g->moves[i].text, why);
    set_err(err, errlen, msg);
}

static int fen_fullmove(const char *fen)
{
    /* last field of a FEN, 1 when absent */
    int fields = 0, num = 1;
    const char *p = fen;
    if (!fen)
        return 1;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        fields++;
        if (fields == 6) {
            num = 0;
            while (*p >= '0' && *p <= '9' && num < 100000)
                num = num * 10 + (*p++ - '0');
            return num > 0 ? num : 1;
        }
        while (*p && *p != ' ')
            p++;
    }
    return 1;
}

xq_status xq_record_game_replay(const xq_record_game *g, xq_board *b,
                                long *pbad, xq_resolution *pres,
                                char *err, size_t errlen)
{
    size_t i;
    unsigned flags;
    xq_resolution res;
    if (pbad)
        *pbad = -1;
    if (pres)
        memset(pres, 0, sizeof *pres);
    if (err && errlen)
        err[0] = '\0';
    if (!g || !b || !pbad)
        return XQ_EINVAL;
    XQ_TRY(setup(g, b, err, errlen));
    flags = xq_record_game_lex_flags(g);
    for (i = 0; i < g->nmoves; i++) {
        xq_notation_read(b, g->moves[i].text, flags, &res);
        if (res.code == XQ_RES_OK && !xq_board_make_move(b, res.mv, NULL)) {
            res.code = XQ_RES_NOROOM;
            res.mv = XQ_MOVE_NONE;
        }
        if (res.code != XQ_RES_OK) {
            *pbad = (long)i;
            if (pres)
                *pres = res;
            {
                xq_board b0;
                int side0 = 0;
                if (setup(g, &b0, NULL, 0) == XQ_OK)
                    side0 = xq_board_side(&b0);
                ply_error(g, i, side0, fen_fullmove(g->fen), &res, err, errlen);
            }
            return XQ_OK;
        }
        if (pres)
            *pres = res;
    }
    return XQ_OK;
}

static xq_status put_tag(xq_strbuf *sb, const char *name, const char *value)
{
    const char *p;
    XQ_TRY(xq_strbuf_printf(sb, "[%s \"", name));
    for (p = value ? value : ""; *p; p++) {
        if (*p == '"' || *p == '\\')
            XQ_TRY(xq_strbuf_putc(sb, '\\'));
        if (*p == '\n' || *p == '\r')
            continue;
        XQ_TRY(xq_strbuf_putc(sb, *p));
    }
    return xq_strbuf_puts(sb, "\"]\n");
}

static const char *const std_tags[] = {
    "Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result",
    "FEN", "Format"
};

static int is_std_tag(const char *name)
{
    size_t i;
    for (i = 0; i < XQ_ARRAY_LEN(std_tags); i++)
        if (!strcasecmp(name, std_tags[i]))
            return 1;
    return 0;
}

static xq_status write_pgn(const xq_record_game *g, xq_notation_kind kind,
                           xq_strbuf *sb, xq_board *b, char *err, size_t errlen)
{
    size_t i;
    unsigned flags = xq_record_game_lex_flags(g);
    const char *result = g->result && *g->result ? g->result : "*";
    char fen[XQ_FEN_MAX], text[XQ_NOTATION_MAX];
    int side0, fullmove, nonstd;
    XQ_TRY(setup(g, b, err, errlen));
    xq_board_to_fen(b, fen, sizeof fen);
    side0 = xq_board_side(b);
    /* Standard start: same placement and side as XQ_START_FEN. */
    {
        size_t k = strlen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        nonstd = strncmp(fen, XQ_START_FEN, k) != 0;
    }
    fullmove = fen_fullmove(g->fen);
    XQ_TRY(put_tag(sb, "Game", "Chinese Chess"));
    XQ_TRY(put_tag(sb, "Event", g->event));
    XQ_TRY(put_tag(sb, "Site", g->site));
    XQ_TRY(put_tag(sb, "Date", g->date));
    XQ_TRY(put_tag(sb, "Round", g->round));
    XQ_TRY(put_tag(sb, "Red", g->red));
    XQ_TRY(put_tag(sb, "Black", g->black));
    XQ_TRY(put_tag(sb, "Result", result));
    if (nonstd)
        XQ_TRY(put_tag(sb, "FEN", fen));
    if (kind == XQ_NOTATION_WXF)
        XQ_TRY(put_tag(sb, "Format", "WXF"));
    else if (kind == XQ_NOTATION_ICCS)
        XQ_TRY(put_tag(sb, "Format", "ICCS"));
    else if (kind == XQ_NOTATION_UCI)
        XQ_TRY(put_tag(sb, "Format", "UCI"));
    for (i = 0; i < g->ntags; i++)
        if (!is_std_tag(g->tags[i].name))
            XQ_TRY(put_tag(sb, g->tags[i].name, g->tags[i].value));
    XQ_TRY(xq_strbuf_putc(sb, '\n'));
    for (i = 0; i < g->nmoves; i++) {
        xq_resolution res;
        int idx = (int)i + side0;
        xq_notation_read(b, g->moves[i].text, flags, &res);
        if (res.code != XQ_RES_OK) {
            ply_error(g, i, side0, fullmove, &res, err, errlen);
            return XQ_EINVAL;
        }
        XQ_TRY(xq_notation_write(b, res.mv, kind, text, sizeof text));
        if (idx % 2 == 0)
            XQ_TRY(xq_strbuf_printf(sb, "%d. %s", fullmove + idx / 2, text));
        else if (i == 0)
            XQ_TRY(xq_strbuf_printf(sb, "%d... %s", fullmove + idx / 2, text));
        else
            XQ_TRY(xq_strbuf_printf(sb, " %s", text));
        if (idx % 2 == 1 || i + 1 == g->nmoves)
            XQ_TRY(xq_strbuf_putc(sb, '\n'));
        if (!xq_board_make_move(b, res.mv, NULL)) {
            res.code = XQ_RES_NOROOM;
            res.why = XQ_LEGAL;
            ply_error(g, i, side0, fullmove, &res, err, errlen);
            return XQ_EINVAL;
        }
    }
    XQ_TRY(xq_strbuf_printf(sb, "%s\n", result));
    return XQ_OK;
}

xq_status xq_record_game_to_pgn(const xq_record_game *g, xq_notation_kind kind,
                                char **ppgn, char *err, size_t errlen)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_board *b;
    xq_status st;
    if (ppgn)
        *ppgn = NULL;
    if (err && errlen)
        err[0] = '\0';
    if (!g || !ppgn || !xq_notation_kind_name(kind))
        return XQ_EINVAL;
    b = xq_malloc(sizeof *b);
    if (!b)
        return XQ_ENOMEM;
    st = write_pgn(g, kind, &sb, b, err, errlen);
    xq_free(b);
    if (st != XQ_OK) {
        if (st == XQ_ENOMEM)
            set_err(err, errlen, "out of memory");
        xq_strbuf_free(&sb);
        return st;
    }
    *ppgn = xq_strbuf_take(&sb);
    if (!*ppgn)
        return XQ_ENOMEM;
    return XQ_OK;
}

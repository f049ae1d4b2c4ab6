#include "xqscan/xq_game.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "strbuf.h"
#include "xq_core.h"

static const char START_FEN[] =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

xq_status xq_game_create(xq_game **pgame)
{
    xq_game *g;
    if (pgame)
        *pgame = NULL;
    XQ_FAIL_IF(!pgame, XQ_EINVAL, "pgame is NULL");
    g = xq_calloc(1, sizeof *g);
    XQ_FAIL_IF(!g, XQ_ENOMEM, "game");
    g->owner = -1;
    g->unrecorded.threshold = 16;
    memcpy(g->start_fen, START_FEN, sizeof START_FEN);
    *pgame = g;
    return XQ_OK;
}

void xq_game_destroy(xq_game **pgame)
{
    xq_game *g;
    size_t i;
    if (!pgame || !*pgame)
        return;
    g = *pgame;
    xq_free(g->version);
    xq_free(g->input_sha256);
    xq_free(g->options_json);
    xq_free(g->source);
    xq_free(g->error);
    xq_free(g->header.event);
    xq_free(g->header.round);
    xq_free(g->header.board);
    xq_free(g->header.red);
    xq_free(g->header.black);
    xq_free(g->header.date);
    xq_free(g->header.result);
    for (i = 0; i < g->nplies; i++) {
        xq_free(g->plies[i].read);
        xq_free(g->plies[i].crop.px);
    }
    xq_free(g->plies);
    for (i = 0; i < g->nfindings; i++) {
        xq_free(g->findings[i].code);
        xq_free(g->findings[i].rule);
        xq_free(g->findings[i].message);
    }
    xq_free(g->findings);
    xq_free(g->end.recorded_result);
    xq_free(g);
    *pgame = NULL;
}

static xq_status grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    size_t ncap;
    void *p;
    if (n < *cap)
        return XQ_OK;
    ncap = *cap ? *cap * 2 : 64;
    p = xq_realloc(*arr, ncap * elem);
    if (!p)
        return XQ_ENOMEM;
    *arr = p;
    *cap = ncap;
    return XQ_OK;
}

xq_status xq_game_add_ply(xq_game *game, xq_ply **pply)
{
    xq_ply *p;
    if (pply)
        *pply = NULL;
    XQ_FAIL_IF(!game, XQ_EINVAL, "game is NULL");
    XQ_TRY(grow((void **)&game->plies, &game->cap_plies, game->nplies,
                sizeof *game->plies));
    p = &game->plies[game->nplies];
    memset(p, 0, sizeof *p);
    p->ply = (int)game->nplies + 1;
    p->side = (p->ply - 1) % 2;
    p->read = xq_strdup("");
    XQ_FAIL_IF(!p->read, XQ_ENOMEM, "ply text");
    game->nplies++;
    if (pply)
        *pply = p;
    return XQ_OK;
}

bool xq_game_needs_arbiter(const xq_game *game)
{
    size_t i;
    if (!game)
        return false;
    for (i = 0; i < game->nfindings; i++)
        if (game->findings[i].severity != XQ_SEV_INFO)
            return true;
    for (i = 0; i < game->nplies; i++)
        if (game->plies[i].review)
            return true;
    return false;
}

const xq_finding *xq_game_find_finding(const xq_game *game, const char *code,
                                       int ply)
{
    size_t i;
    if (!game || !code)
        return NULL;
    for (i = 0; i < game->nfindings; i++)
        if (game->findings[i].code && !strcmp(game->findings[i].code, code) &&
            (ply < 0 || game->findings[i].ply == ply))
            return &game->findings[i];
    return NULL;
}

xq_status xq_game_add_finding(xq_game *game, int ply, xq_severity sev,
                              const char *code, const char *rule,
                              const char *fmt, ...)
{
    xq_finding f;
    xq_strbuf sb = XQ_STRBUF_INIT;
    va_list ap;
    xq_status st;
    XQ_FAIL_IF(!game || !code || !fmt, XQ_EINVAL, "finding arguments");
    va_start(ap, fmt);
    st = xq_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    if (st != XQ_OK) {
        xq_strbuf_free(&sb);
        return st;
    }
    f.ply = ply;
    f.severity = sev;
    f.code = xq_strdup(code);
    f.rule = xq_strdup(rule ? rule : "");
    f.message = xq_strbuf_take(&sb);
    if (!f.code || !f.rule || !f.message ||
        grow((void **)&game->findings, &game->cap_findings, game->nfindings,
             sizeof *game->findings) != XQ_OK) {
        xq_free(f.code);
        xq_free(f.rule);
        xq_free(f.message);
        return XQ_ENOMEM;
    }
    game->findings[game->nfindings++] = f;
    return XQ_OK;
}

xq_status xq_game_set_str(char **field, const char *s)
{
    char *d = NULL;
    XQ_FAIL_IF(!field, XQ_EINVAL, "field is NULL");
    if (s) {
        d = xq_strdup(s);
        XQ_FAIL_IF(!d, XQ_ENOMEM, "string copy");
    }
    xq_free(*field);
    *field = d;
    return XQ_OK;
}

const char *xq_ply_status_name(xq_ply_status st)
{
    static const char *const names[] = { "ok", "corrected", "unreadable",
                                         "illegal", "missing" };
    return (unsigned)st < XQ_ARRAY_LEN(names) ? names[st] : "unknown";
}

const char *xq_move_source_name(xq_move_source src)
{
    static const char *const names[] = { "none", "read", "corrected",
                                         "reconstructed", "assumed" };
    return (unsigned)src < XQ_ARRAY_LEN(names) ? names[src] : "unknown";
}

const char *xq_severity_name(xq_severity sev)
{
    static const char *const names[] = { "info", "warning", "error" };
    return (unsigned)sev < XQ_ARRAY_LEN(names) ? names[sev] : "unknown";
}

const char *xq_end_position_name(xq_end_position pos)
{
    static const char *const names[] = { "normal", "in_check", "checkmate",
                                         "stalemate" };
    return (unsigned)pos < XQ_ARRAY_LEN(names) ? names[pos] : "unknown";
}

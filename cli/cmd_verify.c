/* cmd_verify.c - `xqscan verify [OPTIONS] FILE...`: typed game records
 * (PGN in Chinese, WXF or ICCS; plain numbered move lists) through the same
 * verification and reports as scanned sheets, with the batch machinery of
 * batch.h (walk, workers, atomic outputs, resume, shards, summary).
 *
 * Each game of a record file is one output set: NAME.* for the first game,
 * NAME-g<k>.* for game k > 1. Every move is resolved on the board; an
 * illegal one is reported (status illegal, finding illegal_move with the
 * reason and the article) and the game goes on with the legal move nearest
 * to the written text that keeps the rest of the record playable. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "cli.h"
#include "strbuf.h"
#include "xq_core.h"
#include "xqscan/xq_notation.h"
#include "xqscan/xq_report.h"
#include "xqscan/xq_verify.h"
#include "xqscan/xqscan.h"

typedef struct {
    const xq_batch_opts *opts;
    xq_corrections      *corr;
    xq_pgn_notation      notation;
} verify_state;

/* A file inside a walked folder is a record when it is named like one or
 * its first bytes look like PGN tags or a numbered move list. */
static bool sniff_record(const uint8_t *head, size_t n, const char *name)
{
    size_t len = name ? strlen(name) : 0, i;
    static const char *const exts[] = { ".pgn", ".txt", ".xqp" };
    for (i = 0; i < XQ_ARRAY_LEN(exts); i++) {
        size_t el = strlen(exts[i]), j;
        bool same = len > el;
        for (j = 0; same && j < el; j++)
            if (tolower((unsigned char)name[len - el + j]) != exts[i][j])
                same = false;
        if (same)
            return true;
    }
    for (i = 0; i + 6 < n; i++) {
        if (head[i] == '[' && (!memcmp(head + i + 1, "Game ", 5) ||
                               !memcmp(head + i + 1, "Event", 5)))
            return true;
        if (head[i] == '1' && head[i + 1] == '.' && (i == 0 || head[i - 1] == '\n'))
            return true;
    }
    return false;
}

static xq_status verify_init(void *ud, void **pstate, char *err, size_t errlen)
{
    const xq_batch_opts *opts = ud;
    verify_state *vs = xq_calloc(1, sizeof *vs);
    xq_status st;
    *pstate = NULL;
    XQ_FAIL_IF(!vs, XQ_ENOMEM, "verify state");
    vs->opts = opts;
    if (xq_pgn_notation_parse(opts->notation ? opts->notation : "chinese",
                              &vs->notation) != XQ_OK) {
        snprintf(err, errlen, "unknown notation \"%s\"", opts->notation);
        xq_free(vs);
        return XQ_EINVAL;
    }
    if (opts->corrections) {
        st = xq_corrections_read(opts->corrections, &vs->corr);
        if (st) {
            snprintf(err, errlen, "corrections file %s: %s", opts->corrections,
                     st == XQ_EIO ? "cannot be read" : "not a corrections file");
            xq_free(vs);
            return st;
        }
    }
    *pstate = vs;
    return XQ_OK;
}

static void verify_fini(void *state)
{
    verify_state *vs = state;
    if (!vs)
        return;
    xq_corrections_destroy(&vs->corr);
    xq_free(vs);
}

static const char *norm_result(const char *s)
{
    if (!s || !*s)
        return NULL;
    if (!strcmp(s, "1-0") || !strcmp(s, "0-1") || !strcmp(s, "1/2-1/2") ||
        !strcmp(s, "*"))
        return s;
    if (strstr(s, "1/2") || strstr(s, "和"))
        return "1/2-1/2";
    if (strstr(s, "1-0") || strstr(s, "红胜") || strstr(s, "紅勝"))
        return "1-0";
    if (strstr(s, "0-1") || strstr(s, "黑胜") || strstr(s, "黑勝"))
        return "0-1";
    return NULL;
}

static bool corrections_match(const verify_state *vs, const xq_batch_info *info)
{
    const xq_corrections *c = vs->corr;
    if (!c)
        return false;
    if (c->input_sha256 && *c->input_sha256)
        return !strcmp(c->input_sha256, info->sha256);
    if (c->source && *c->source)
        return !strcmp(c->source, info->in->source);
    return true;
}

/* Verify and report game k (1-based) of a record. */
static xq_status one_game(verify_state *vs, xq_batch_job *job,
                          const xq_record_game *rg, size_t k, bool *pflag)
{
    const xq_batch_info *info = xq_batch_job_info(job);
    xq_game *g = NULL;
    xq_verify_options vo;
    xq_verify_correction *vc = NULL;
    const char **moves = NULL;
    xq_strbuf sb = XQ_STRBUF_INIT, href = XQ_STRBUF_INIT;
    xq_html_options ho;
    char part[32] = "";
    xq_status st;
    size_t i;

    if (k > 1)
        snprintf(part, sizeof part, "-g%zu", k);
    XQ_TRY(xq_game_create(&g));
    st = xq_game_set_str(&g->version, info->version);
    if (!st) st = xq_game_set_str(&g->input_sha256, info->sha256);
    if (!st) st = xq_game_set_str(&g->options_json, info->options_json);
    if (!st) st = xq_game_set_str(&g->source, info->in->source);
    if (!st) st = xq_game_set_str(&g->header.event, rg->event);
    if (!st) st = xq_game_set_str(&g->header.round, rg->round);
    if (!st) st = xq_game_set_str(&g->header.red, rg->red);
    if (!st) st = xq_game_set_str(&g->header.black, rg->black);
    if (!st) st = xq_game_set_str(&g->header.date, rg->date);
    if (!st) st = xq_game_set_str(&g->header.board, xq_record_game_tag(rg, "Board"));
    if (st)
        goto out;

    xq_verify_options_init(&vo);
    vo.threshold = vs->opts->threshold;
    vo.start_fen = rg->fen;
    vo.recorded_result = norm_result(rg->result);
    if (rg->nmoves) {
        moves = xq_calloc(rg->nmoves, sizeof *moves);
        if (!moves) {
            st = XQ_ENOMEM;
            goto out;
        }
        for (i = 0; i < rg->nmoves; i++)
            moves[i] = rg->moves[i].text;
    }
    if (k == 1 && corrections_match(vs, info) && vs->corr->nplies) {
        st = xq_corrections_to_verify(vs->corr, &vc);
        if (st)
            goto out;
        vo.corrections = vc;
        vo.ncorrections = vs->corr->nplies;
    }
    st = xq_verify_typed(moves, rg->nmoves, &vo, g);
    if (st == XQ_EINVAL && rg->fen) {
        /* the record's FEN is not a position: the game cannot be checked */
        g->is_error = true;
        st = xq_game_set_str(&g->error, "the record's FEN is not a valid position");
    }
    if (st)
        goto out;
    if (xq_game_needs_arbiter(g))
        *pflag = true;
    memset(&ho, 0, sizeof ho);
    st = xq_batch_index_href(info->in->name, &href);
    ho.index_href = xq_strbuf_cstr(&href);
    if (!st) st = xq_report_pgn(g, vs->notation, &sb);
    if (!st) st = xq_batch_emit(job, part, ".pgn", xq_strbuf_cstr(&sb), sb.len);
    xq_strbuf_reset(&sb);
    if (!st) st = xq_report_html(g, &ho, &sb);
    if (!st) st = xq_batch_emit(job, part, ".html", xq_strbuf_cstr(&sb), sb.len);
    xq_strbuf_reset(&sb);
    if (!st) st = xq_report_json(g, &sb);
    if (!st) st = xq_batch_emit(job, part, ".json", xq_strbuf_cstr(&sb), sb.len);
out:
    xq_strbuf_free(&sb);
    xq_strbuf_free(&href);
    xq_free(moves);
    xq_free(vc);
    xq_game_destroy(&g);
    return st;
}

static xq_status verify_run(void *state, xq_batch_job *job, char *err,
                            size_t errlen)
{
    verify_state *vs = state;
    const xq_batch_info *info = xq_batch_job_info(job);
    xq_record *rec = NULL;
    xq_status st;
    size_t n, k;
    bool flag = false;
    st = xq_record_read_file(info->in->path, &rec);
    if (st) {
        snprintf(err, errlen, "%s", st == XQ_EIO ? "cannot be read"
                                                 : xq_status_str(st));
        return st;
    }
    n = xq_record_count(rec);
    {   /* a record has at least one readable move or a PGN tag */
        size_t any = 0, m;
        for (k = 0; k < n && !any; k++) {
            const xq_record_game *rg = xq_record_game_at(rec, k);
            xq_token tok;
            any += rg->ntags;
            for (m = 0; m < rg->nmoves && !any; m++)
                any += xq_notation_lex(rg->moves[m].text, 0, &tok) == XQ_OK;
        }
        if (n == 0 || !any) {
            snprintf(err, errlen, "not a game record (no tags, no readable move)");
            xq_record_destroy(&rec);
            return XQ_EINVAL;
        }
    }
    /* later games first: the first game's JSON marks the input done */
    for (k = n; k-- > 0 && !st;) {
        st = one_game(vs, job, xq_record_game_at(rec, k), k + 1, &flag);
        if (st)
            snprintf(err, errlen, "game %zu: %s", k + 1, xq_status_str(st));
    }
    xq_record_destroy(&rec);
    if (!st && flag)
        xq_batch_job_flag_findings(job);
    return st;
}

int cli_verify(int argc, char **argv)
{
    xq_batch_opts opts;
    xq_batch_proc proc = { verify_init, verify_run, verify_fini, NULL };
    char **paths;
    int npaths, rc;
    xq_batch_opts_init(&opts, "verify");
    rc = xq_batch_parse_args(argc, argv, &opts, &paths, &npaths);
    if (rc || npaths == 0)
        return rc;
    proc.ud = &opts;
    return xq_batch_run(&opts, paths, npaths, sniff_record, &proc, NULL);
}

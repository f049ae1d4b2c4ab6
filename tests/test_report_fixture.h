/* test_report_fixture.h - hand-built verified games for the report tests,
 * and the golden-file helper (XQ_REGEN=1 rewrites tests/data/report/). */
#ifndef TEST_REPORT_FIXTURE_H
#define TEST_REPORT_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "strbuf.h"
#include "xq_alloc.h"
#include "xqscan/xq_game.h"
#include "xqscan/xq_report.h"

#define EVIL_EVENT "全国象棋锦标赛 <script>alert(1)</script> & \"co\""
#define EVIL_BLACK "=cmd|' /C calc'!A0"

static inline void fx_move(xq_ply *p, const char *iccs, const char *cn, const char *wxf)
{
    int f1 = iccs[0] - 'a', r1 = iccs[1] - '0', f2 = iccs[2] - 'a', r2 = iccs[3] - '0';
    p->mv = XQ_MOVE(XQ_SQ(f1, r1), XQ_SQ(f2, r2));
    snprintf(p->iccs, sizeof p->iccs, "%s", iccs);
    snprintf(p->chinese, sizeof p->chinese, "%s", cn);
    snprintf(p->wxf, sizeof p->wxf, "%s", wxf);
}

static inline void fx_cand(xq_ply *p, const char *iccs, const char *cn, double score)
{
    xq_candidate *c = &p->cand[p->ncand++];
    int f1 = iccs[0] - 'a', r1 = iccs[1] - '0', f2 = iccs[2] - 'a', r2 = iccs[3] - '0';
    c->mv = XQ_MOVE(XQ_SQ(f1, r1), XQ_SQ(f2, r2));
    snprintf(c->iccs, sizeof c->iccs, "%s", iccs);
    snprintf(c->chinese, sizeof c->chinese, "%s", cn);
    c->score = score;
}

/* A synthetic cell image: light paper with a dark diagonal stroke. */
static inline void fx_crop(xq_ply *p, int seed)
{
    int x, y, w = 60, h = 24;
    p->crop.w = w;
    p->crop.h = h;
    p->crop.px = xq_malloc((size_t)w * h);
    assert_non_null(p->crop.px);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            p->crop.px[y * w + x] =
                (abs((x + seed * 7) % 20 - y) < 2 || y == 0 || y == h - 1) ? 20 : 235;
}

static inline void fx_cell(xq_ply *p, int row)
{
    p->has_cell = true;
    p->cell_page = 0;
    p->cell_box[0] = p->side == 0 ? 120 : 420;
    p->cell_box[1] = 300 + 40 * row;
    p->cell_box[2] = 280;
    p->cell_box[3] = 38;
}

/* Plies of every status, findings of every severity, an odd header. */
static inline xq_game *fx_game(void)
{
    xq_game *g;
    xq_ply *p;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->version, "0.1.0-test"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->input_sha256,
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->options_json,
        "{\"threshold\":16,\"notation\":\"chinese\"}"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->source, "round3/board07.png"), XQ_OK);
    g->owner = XQ_RED;
    assert_int_equal(xq_game_set_str(&g->header.event, EVIL_EVENT), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.round, "3"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.board, "7"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.red, "王天一"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.black, EVIL_BLACK), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.date, "2024-03-05"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.result, "1-0"), XQ_OK);

    /* 1 ok */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "炮二平五"), XQ_OK);
    fx_move(p, "h2e2", "炮二平五", "C2.5");
    p->status = XQ_PLY_OK; p->source = XQ_SRC_READ; p->confidence = 0.98;
    fx_cand(p, "h2e2", "炮二平五", 0.98);
    fx_cell(p, 0); fx_crop(p, 1);
    /* 2 corrected (a misreading fixed) */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "马8进1"), XQ_OK);
    fx_move(p, "h9g7", "马８进７", "H8+7");
    p->status = XQ_PLY_CORRECTED; p->source = XQ_SRC_CORRECTED; p->confidence = 0.91;
    fx_cand(p, "h9g7", "马８进７", 0.91);
    fx_cand(p, "h9i7", "马８进９", 0.06);
    fx_cell(p, 0); fx_crop(p, 2);
    /* 3 unreadable, reconstructed, under review */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "马二?三"), XQ_OK);
    fx_move(p, "h0g2", "马二进三", "H2+3");
    p->status = XQ_PLY_UNREADABLE; p->source = XQ_SRC_RECONSTRUCTED;
    p->confidence = 0.55; p->review = true;
    fx_cand(p, "h0g2", "马二进三", 0.55);
    fx_cand(p, "b0c2", "马八进七", 0.30);
    fx_cell(p, 1); fx_crop(p, 3);
    /* 4 missing: blank cell, reconstructed */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    fx_move(p, "i9h9", "车９平８", "R9.8");
    p->status = XQ_PLY_MISSING; p->source = XQ_SRC_RECONSTRUCTED;
    p->confidence = 0.4; p->review = true;
    fx_cand(p, "i9h9", "车９平８", 0.40);
    fx_cand(p, "b9c7", "马２进３", 0.30);
    fx_cell(p, 1); fx_crop(p, 4);
    /* 5 illegal: a clear reading that is not legal; move assumed */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "炮八进八"), XQ_OK);
    fx_move(p, "b0c2", "马八进七", "H8+7");
    p->status = XQ_PLY_ILLEGAL; p->source = XQ_SRC_ASSUMED;
    p->confidence = 0.3; p->review = true;
    fx_cand(p, "b0c2", "马八进七", 0.30);
    fx_cand(p, "b2c2", "炮八平七", 0.20);
    fx_cell(p, 2); fx_crop(p, 5);
    /* 6 ok */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "马2进3"), XQ_OK);
    fx_move(p, "b9c7", "马２进３", "H2+3");
    p->status = XQ_PLY_OK; p->source = XQ_SRC_READ; p->confidence = 0.95;
    fx_cand(p, "b9c7", "马２进３", 0.95);
    fx_cell(p, 2);   /* a cell without an image */
    /* 7 missing: skipped altogether (no cell), reconstructed */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    fx_move(p, "a0b0", "车九平八", "R9.8");
    p->status = XQ_PLY_MISSING; p->source = XQ_SRC_RECONSTRUCTED;
    p->confidence = 0.6; p->review = true;
    fx_cand(p, "a0b0", "车九平八", 0.60);
    /* 8 ok, with a cell text holding markup */
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "卒3进1<b>}"), XQ_OK);
    fx_move(p, "c6c5", "卒３进１", "P3+1");
    p->status = XQ_PLY_OK; p->source = XQ_SRC_READ; p->confidence = 0.88;
    fx_cand(p, "c6c5", "卒３进１", 0.88);
    fx_cell(p, 3); fx_crop(p, 8);

    g->unrecorded.red = 2;
    g->unrecorded.black = 1;
    g->unrecorded.total = 3;
    g->unrecorded.longest_run = 2;
    g->unrecorded.threshold = 16;
    g->unrecorded.exceeded = false;
    assert_int_equal(xq_game_add_finding(g, 3, XQ_SEV_INFO, "unreadable_move",
                     "WXF 7.6", "ply %d could not be read; move reconstructed", 3), XQ_OK);
    assert_int_equal(xq_game_add_finding(g, 4, XQ_SEV_WARNING, "unrecorded_move",
                     "WXF 7.6", "%s", "blank cell"), XQ_OK);
    assert_int_equal(xq_game_add_finding(g, 5, XQ_SEV_ERROR, "illegal_move",
                     "WXF 7.1, 7.7", "%s", "炮八进八 is not a legal move here"), XQ_OK);
    assert_int_equal(xq_game_add_finding(g, 7, XQ_SEV_WARNING, "skipped_move",
                     "WXF 7.6", "%s", "no row for this ply"), XQ_OK);
    assert_int_equal(xq_game_add_finding(g, 0, XQ_SEV_ERROR, "result_mismatch",
                     "WXF 3.1", "%s", "recorded 1-0 but the final position is not decisive"), XQ_OK);
    g->end.position = XQ_END_NORMAL;
    assert_int_equal(xq_game_set_str(&g->end.recorded_result, "1-0"), XQ_OK);
    g->end.consistent = false;
    return g;
}

/* An endgame study: Black to move from a FEN, a clean record. */
static inline xq_game *fx_fen_game(void)
{
    xq_game *g;
    xq_ply *p;
    static const struct { const char *iccs, *cn, *wxf; } M[] = {
        { "d9d8", "将４进１", "K4+1" }, { "g0g8", "车三进八", "R3+8" },
        { "d8d9", "将４退１", "K4-1" }, { "g8g9", "车三进一", "R3+1" },
    };
    size_t i;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->version, "0.1.0-test"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->source, "study/ending 1.pgn"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.event, "Study"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.result, "1-0"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.date, "1999"), XQ_OK);
    snprintf(g->start_fen, sizeof g->start_fen, "%s",
             "3k5/9/9/9/9/9/9/9/9/4K1R2 b - - 0 30");
    for (i = 0; i < 4; i++) {
        assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
        p->side = (int)((i + 1) % 2);   /* Black first */
        assert_int_equal(xq_game_set_str(&p->read, M[i].cn), XQ_OK);
        fx_move(p, M[i].iccs, M[i].cn, M[i].wxf);
        p->source = XQ_SRC_READ;
        p->confidence = 1.0;
        fx_cand(p, M[i].iccs, M[i].cn, 1.0);
    }
    g->end.position = XQ_END_IN_CHECK;
    assert_int_equal(xq_game_set_str(&g->end.recorded_result, "1-0"), XQ_OK);
    g->end.consistent = true;
    return g;
}

/* A record that breaks off: ply 3 has no move at all. */
static inline xq_game *fx_broken_game(void)
{
    xq_game *g;
    xq_ply *p;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->version, "0.1.0-test"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->source, "b.png"), XQ_OK);
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    fx_move(p, "h2e2", "炮二平五", "C2.5");
    p->source = XQ_SRC_READ;
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    fx_move(p, "h9g7", "马８进７", "H8+7");
    p->source = XQ_SRC_READ;
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "?"), XQ_OK);
    p->status = XQ_PLY_UNREADABLE;
    p->review = true;
    p->has_cell = true;
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(xq_game_set_str(&p->read, "车９平８"), XQ_OK);
    p->status = XQ_PLY_UNREADABLE;
    p->review = true;
    p->has_cell = true;
    g->unrecorded.red = 1;
    g->unrecorded.black = 1;
    g->unrecorded.total = 2;
    g->unrecorded.longest_run = 2;
    return g;
}

static inline char *fx_slurp(const char *path, size_t *plen)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (plen)
            *plen = (size_t)n;
    }
    return buf;
}

/* Compare text with tests/data/report/<name>; XQ_REGEN=1 writes it. */
static inline void fx_golden(const char *name, const char *text)
{
    char path[512];
    char *want;
    const char *regen = getenv("XQ_REGEN");
    snprintf(path, sizeof path, "%s/report/%s", XQ_TEST_DATA, name);
    if (regen && strcmp(regen, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
        return;
    }
    want = fx_slurp(path, NULL);
    if (!want)
        fail_msg("golden file %s missing (run with XQ_REGEN=1)", path);
    if (strcmp(want, text) != 0) {
        char out[600];
        FILE *f;
        snprintf(out, sizeof out, "%s/%s.actual", XQ_BINARY_DIR, name);
        f = fopen(out, "wb");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
        free(want);
        fail_msg("%s differs from the golden file (actual output in %s)", name, out);
    }
    free(want);
}

#endif

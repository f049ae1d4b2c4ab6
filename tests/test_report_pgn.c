/* test_report_pgn.c - PGN writer: golden files in every notation, tag
 * order and escaping, FEN start with Black to move, broken records, OOM. */
#include "test_report_fixture.h"
#include "xqscan/xq_board.h"
#include "xqscan/xq_notation.h"

static char *pgn_of(const xq_game *g, xq_pgn_notation nt)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    assert_int_equal(xq_report_pgn(g, nt, &sb), XQ_OK);
    return xq_strbuf_take(&sb);
}

static void test_golden_all_notations(void **state)
{
    static const struct { xq_pgn_notation nt; const char *file; } C[] = {
        { XQ_PGN_CHINESE, "game.chinese.pgn" },
        { XQ_PGN_TRADITIONAL, "game.traditional.pgn" },
        { XQ_PGN_WXF, "game.wxf.pgn" },
        { XQ_PGN_ICCS, "game.iccs.pgn" },
    };
    xq_game *g = fx_game();
    size_t i;
    (void)state;
    for (i = 0; i < sizeof C / sizeof C[0]; i++) {
        char *t = pgn_of(g, C[i].nt);
        fx_golden(C[i].file, t);
        xq_free(t);
    }
    xq_game_destroy(&g);
}

static void test_tags_and_comments(void **state)
{
    xq_game *g = fx_game();
    char *t = pgn_of(g, XQ_PGN_CHINESE);
    (void)state;
    /* [Game] first, the roster in order, no FEN or Format for this game */
    assert_memory_equal(t, "[Game \"Chinese Chess\"]\n[Event \"", 30);
    assert_true(strstr(t, "[Event") < strstr(t, "[Site") &&
                strstr(t, "[Site") < strstr(t, "[Date") &&
                strstr(t, "[Date") < strstr(t, "[Round") &&
                strstr(t, "[Round") < strstr(t, "[Red") &&
                strstr(t, "[Red") < strstr(t, "[Black") &&
                strstr(t, "[Black") < strstr(t, "[Result"));
    assert_non_null(strstr(t, "[Date \"2024.03.05\"]"));
    assert_non_null(strstr(t, "& \\\"co\\\"\"]"));   /* quotes escaped */
    assert_null(strstr(t, "[FEN"));
    assert_null(strstr(t, "[Format"));
    assert_non_null(strstr(t, "[Board \"7\"]"));
    /* review comment with candidates on ply 3, none on ply 1 */
    assert_non_null(strstr(t, "马二进三 {review ply 3: unreadable"));
    assert_non_null(strstr(t, "candidates 马二进三 0.55, 马八进七 0.30}"));
    assert_null(strstr(t, "炮二平五 {"));
    /* ply 8's read text is not in a comment, so its '}' cannot break one */
    assert_non_null(strstr(t, "1-0\n"));
    xq_free(t);
    /* a '}' in a read text that does go into a comment is neutralised */
    assert_int_equal(xq_game_set_str(&g->plies[2].read, "马}二"), XQ_OK);
    t = pgn_of(g, XQ_PGN_CHINESE);
    assert_non_null(strstr(t, "read \"马）二\""));
    xq_free(t);
    t = pgn_of(g, XQ_PGN_ICCS);
    assert_non_null(strstr(t, "[Format \"ICCS\"]"));
    assert_non_null(strstr(t, "1. H2-E2 H9-G7\n"));
    xq_free(t);
    t = pgn_of(g, XQ_PGN_TRADITIONAL);
    assert_non_null(strstr(t, "馬８進７"));
    xq_free(t);
    /* a move whose text in the chosen notation is missing: ICCS instead */
    g->plies[0].chinese[0] = '\0';
    g->plies[0].wxf[0] = '\0';
    t = pgn_of(g, XQ_PGN_CHINESE);
    assert_non_null(strstr(t, "1. H2-E2 马８进７\n"));
    xq_free(t);
    t = pgn_of(g, XQ_PGN_WXF);
    assert_non_null(strstr(t, "1. H2-E2 H8+7\n"));
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_fen_start_black(void **state)
{
    xq_game *g = fx_fen_game();
    char *t = pgn_of(g, XQ_PGN_CHINESE);
    (void)state;
    fx_golden("fen.chinese.pgn", t);
    assert_non_null(strstr(t, "[FEN \"3k5/9/9/9/9/9/9/9/9/4K1R2 b - - 0 30\"]"));
    assert_non_null(strstr(t, "30. ... 将４进１\n31. 车三进八 将４退１\n32. 车三进一\n1-0\n"));
    assert_non_null(strstr(t, "[Date \"1999.??.??\"]"));
    assert_non_null(strstr(t, "[Round \"?\"]"));
    xq_free(t);
    t = pgn_of(g, XQ_PGN_WXF);
    assert_non_null(strstr(t, "[Format \"WXF\"]"));
    assert_non_null(strstr(t, "30. ... K4+1\n"));
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_broken_record(void **state)
{
    xq_game *g = fx_broken_game();
    char *t = pgn_of(g, XQ_PGN_CHINESE);
    (void)state;
    fx_golden("broken.chinese.pgn", t);
    assert_non_null(strstr(t, "1. 炮二平五 马８进７\n{ply 3 (red) unreadable: no move"));
    assert_non_null(strstr(t, "3. \"?\" 4. \"车９平８\"}\n*\n"));
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_notation_parse(void **state)
{
    xq_pgn_notation nt;
    (void)state;
    assert_int_equal(xq_pgn_notation_parse("WXF", &nt), XQ_OK);
    assert_int_equal(nt, XQ_PGN_WXF);
    assert_int_equal(xq_pgn_notation_parse("traditional", &nt), XQ_OK);
    assert_int_equal(nt, XQ_PGN_TRADITIONAL);
    assert_int_equal(xq_pgn_notation_parse("iccs", &nt), XQ_OK);
    assert_int_equal(nt, XQ_PGN_ICCS);
    assert_int_equal(xq_pgn_notation_parse("simplified", &nt), XQ_OK);
    assert_int_equal(nt, XQ_PGN_CHINESE);
    assert_int_equal(xq_pgn_notation_parse("klingon", &nt), XQ_EINVAL);
    assert_int_equal(xq_pgn_notation_parse(NULL, &nt), XQ_EINVAL);
    assert_int_equal(xq_report_pgn(NULL, XQ_PGN_CHINESE, NULL), XQ_EINVAL);
}

static void test_dates(void **state)
{
    static const struct { const char *in, *out; } D[] = {
        { "2024/3/5", "[Date \"2024.03.05\"]" },
        { "2024年3月5日", "[Date \"2024.03.05\"]" },
        { "2024.11", "[Date \"2024.11.??\"]" },
        { "", "[Date \"????.??.??\"]" },
        { "March 5th", "[Date \"March 5th\"]" },
        { "2024-13-01", "[Date \"2024-13-01\"]" },
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof D / sizeof D[0]; i++) {
        xq_game *g;
        char *t;
        assert_int_equal(xq_game_create(&g), XQ_OK);
        assert_int_equal(xq_game_set_str(&g->header.date, D[i].in), XQ_OK);
        t = pgn_of(g, XQ_PGN_CHINESE);
        if (!strstr(t, D[i].out))
            fail_msg("date %s: %s", D[i].in, t);
        xq_free(t);
        xq_game_destroy(&g);
    }
}

/* xqscan's own record reader reads every PGN written here: the moves of
 * the fixtures come back, in every notation, review comments and all
 * (a record that breaks off reads back up to the break). */
static void expect_readback(const xq_game *g, xq_pgn_notation nt, size_t nmoves)
{
    char *t = pgn_of(g, nt);
    xq_record *rec = NULL;
    const xq_record_game *rg;
    xq_board b;
    long bad = 0;
    size_t i;
    assert_int_equal(xq_record_read_mem(t, strlen(t), &rec), XQ_OK);
    if (xq_record_count(rec) != 1)
        fail_msg("%zu games read back from:\n%s", xq_record_count(rec), t);
    rg = xq_record_game_at(rec, 0);
    assert_int_equal(rg->nmoves, nmoves);
    assert_int_equal(xq_record_game_replay(rg, &b, &bad, NULL, NULL, 0), XQ_OK);
    assert_int_equal(bad, -1);
    for (i = 0; i < nmoves; i++)
        assert_int_equal(xq_board_move_at(&b, (int)i), g->plies[i].mv);
    xq_record_destroy(&rec);
    xq_free(t);
}

static void test_read_back(void **state)
{
    xq_game *g[3];
    size_t k;
    int nt;
    (void)state;
    g[0] = fx_game();
    g[1] = fx_fen_game();
    g[2] = fx_broken_game();
    /* every ply under review, the first ones included */
    for (k = 0; k < g[0]->nplies; k++)
        g[0]->plies[k].review = true;
    for (nt = XQ_PGN_CHINESE; nt <= XQ_PGN_ICCS; nt++) {
        expect_readback(g[0], (xq_pgn_notation)nt, g[0]->nplies);
        expect_readback(g[1], (xq_pgn_notation)nt, g[1]->nplies);
        expect_readback(g[2], (xq_pgn_notation)nt, 2);
    }
    g[1]->plies[0].review = true;
    expect_readback(g[1], XQ_PGN_CHINESE, g[1]->nplies);
    for (k = 0; k < 3; k++)
        xq_game_destroy(&g[k]);
}

static void test_oom(void **state)
{
    xq_game *g = fx_game();
    long n;
    int ok = 0;
    (void)state;
    for (n = 0; n < 2000 && !ok; n++) {
        xq_strbuf sb = XQ_STRBUF_INIT;
        xq_status st;
        xq_alloc_fail_after(n);
        st = xq_report_pgn(g, XQ_PGN_TRADITIONAL, &sb);
        xq_alloc_fail_after(-1);
        assert_true(st == XQ_OK || st == XQ_ENOMEM);
        ok = st == XQ_OK;
        xq_strbuf_free(&sb);
    }
    assert_true(ok);
    xq_game_destroy(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_all_notations),
        cmocka_unit_test(test_tags_and_comments),
        cmocka_unit_test(test_fen_start_black),
        cmocka_unit_test(test_broken_record),
        cmocka_unit_test(test_notation_parse),
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_read_back),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

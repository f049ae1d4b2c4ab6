/* test_report_typed.c - end to end from the verifier: typed records
 * (xq_verify_typed) -> PGN / JSON / HTML. The verifier's records must be
 * what report/ expects (move texts in every notation filled in), and the
 * PGN of a record with a move under review must read back with the moves
 * the verifier chose. Needs xq_verify.
 * With XQ_REPORT_SAMPLE_DIR set it writes typed.html there; with
 * XQ_TYPED_CORRECTIONS (a file saved by that page's review mode in the
 * browser test) and XQ_TYPED_EXPECT ("ply:iccs;..."), it applies the file
 * the way `xqscan --corrections` does (xq_corrections_read ->
 * xq_verify_options.corrections -> xq_verify_typed) and checks that the
 * final record plays the arbiter's moves. */
#include "test_report_fixture.h"
#include "xqscan/xq_board.h"
#include "xqscan/xq_notation.h"
#include "xqscan/xq_verify.h"

static const char *const MV[] = { "炮二平五", "马8进7", "马二进三", "车9平8",
                                  "车一平二", "马2进3", "兵七进一", "卒7进1",
                                  "车二进六", "炮8平9", "车二平三", "炮9退9",
                                  "马八进七", "士4进5", "马七进六", "炮9平7",
                                  "车三平四", "马7进8", "炮八进八" };

static xq_game *typed_corr(const char *const *mv, size_t n,
                           const xq_verify_correction *corr, size_t ncorr)
{
    xq_game *g;
    xq_verify_options o;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    xq_verify_options_init(&o);
    o.recorded_result = "1-0";
    o.corrections = corr;
    o.ncorrections = ncorr;
    assert_int_equal(xq_verify_typed(mv, n, &o, g), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->source, "typed/game1.pgn"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->input_sha256, "00ff"), XQ_OK);
    return g;
}

static xq_game *typed(const char *const *mv, size_t n)
{
    return typed_corr(mv, n, NULL, 0);
}

static void readback(const xq_game *g, xq_pgn_notation nt)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_record *rec = NULL;
    const xq_record_game *rg;
    xq_board b;
    long bad = 0;
    size_t i, n = 0;
    assert_int_equal(xq_report_pgn(g, nt, &sb), XQ_OK);
    assert_int_equal(xq_record_read_mem(sb.data, sb.len, &rec), XQ_OK);
    assert_int_equal(xq_record_count(rec), 1);
    rg = xq_record_game_at(rec, 0);
    assert_int_equal(xq_record_game_replay(rg, &b, &bad, NULL, NULL, 0), XQ_OK);
    if (bad != -1)
        fail_msg("notation %d: ply %ld does not replay:\n%s", (int)nt, bad + 1, sb.data);
    for (i = 0; i < g->nplies && g->plies[i].mv != XQ_MOVE_NONE; i++, n++)
        assert_int_equal(xq_board_move_at(&b, (int)i), g->plies[i].mv);
    assert_int_equal(rg->nmoves, n);
    xq_record_destroy(&rec);
    xq_strbuf_free(&sb);
}

static void test_illegal_move_end_to_end(void **state)
{
    /* a real opening; "炮9退9" (ply 12) and the last move "炮八进八" would
     * leave the board (the verifier decides what was played and flags
     * them; two slips, so that no one edit tells the rest: the browser
     * check reviews two flagged plies) */
    xq_game *g = typed(MV, sizeof MV / sizeof MV[0]);
    xq_strbuf sb = XQ_STRBUF_INIT;
    size_t i;
    int nt;
    (void)state;
    assert_int_equal(g->nplies, sizeof MV / sizeof MV[0]);
    for (i = 0; i < g->nplies; i++) {
        const xq_ply *p = &g->plies[i];
        if (p->mv == XQ_MOVE_NONE)
            continue;
        /* what report/ relies on */
        assert_int_equal(strlen(p->iccs), 4);
        assert_true(p->chinese[0] != '\0');
        assert_true(p->wxf[0] != '\0');
    }
    for (nt = XQ_PGN_CHINESE; nt <= XQ_PGN_ICCS; nt++)
        readback(g, (xq_pgn_notation)nt);
    assert_int_equal(xq_report_json(g, &sb), XQ_OK);
    {
        xq_game *h = NULL;
        xq_strbuf sb2 = XQ_STRBUF_INIT;
        assert_int_equal(xq_report_read_json(sb.data, sb.len, &h), XQ_OK);
        assert_int_equal(xq_report_json(h, &sb2), XQ_OK);
        assert_string_equal(sb.data, sb2.data);
        xq_strbuf_free(&sb2);
        xq_game_destroy(&h);
    }
    xq_strbuf_reset(&sb);
    {
        xq_html_options ho = { NULL, "typed.corrections.json" };
        assert_int_equal(xq_report_html(g, &ho, &sb), XQ_OK);
    }
    {
        const char *dir = getenv("XQ_REPORT_SAMPLE_DIR");
        if (dir && *dir) {
            char path[600];
            snprintf(path, sizeof path, "%s/typed.html", dir);
            assert_int_equal(xq_report_write_file_atomic(path, sb.data, sb.len), XQ_OK);
        }
    }
    xq_strbuf_free(&sb);
    xq_game_destroy(&g);
}

/* The arbiter's corrections from the browser, applied by the verifier. */
static void test_browser_corrections_applied(void **state)
{
    const char *path = getenv("XQ_TYPED_CORRECTIONS");
    const char *expect = getenv("XQ_TYPED_EXPECT");
    xq_corrections *c = NULL;
    xq_verify_correction vc[64];
    xq_game *g;
    char buf[512], *tok, *save = NULL;
    size_t i, n = 0;
    (void)state;
    if (!path || !expect)
        skip();
    assert_int_equal(xq_corrections_read(path, &c), XQ_OK);
    assert_string_equal(c->source, "typed/game1.pgn");
    assert_string_equal(c->input_sha256, "00ff");
    assert_true(c->nplies > 0 && c->nplies <= 64);
    for (i = 0; i < c->nplies; i++) {
        vc[i].ply = c->plies[i].ply;
        vc[i].move = c->plies[i].move;
    }
    g = typed_corr(MV, sizeof MV / sizeof MV[0], vc, c->nplies);
    snprintf(buf, sizeof buf, "%s", expect);
    for (tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(tok, ':');
        int ply;
        assert_non_null(colon);
        *colon = '\0';
        ply = atoi(tok);
        assert_true(ply >= 1 && (size_t)ply <= g->nplies);
        if (strcmp(g->plies[ply - 1].iccs, colon + 1) != 0)
            fail_msg("ply %d: the arbiter said %s, the record has %s", ply, colon + 1,
                     g->plies[ply - 1].iccs);
        printf("ply %d: %s (%s), status %s, source %s, review %d\n", ply,
               g->plies[ply - 1].chinese, g->plies[ply - 1].iccs,
               xq_ply_status_name(g->plies[ply - 1].status),
               xq_move_source_name(g->plies[ply - 1].source), g->plies[ply - 1].review);
        n++;
    }
    assert_int_equal(n, c->nplies);
    /* the final record is still a PGN that reads back */
    readback(g, XQ_PGN_CHINESE);
    xq_game_destroy(&g);
    xq_corrections_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_illegal_move_end_to_end),
        cmocka_unit_test(test_browser_corrections_applied),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

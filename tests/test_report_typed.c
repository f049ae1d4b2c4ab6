/* test_report_typed.c - end to end from the verifier: typed records
 * (xq_verify_typed) -> PGN / JSON / HTML. The verifier's records must be
 * what report/ expects (move texts in every notation filled in), and the
 * PGN of a record with an illegal move, assumed and under review, must
 * read back with the moves the verifier chose. Needs xq_verify. */
#include "test_report_fixture.h"
#include "xqscan/xq_board.h"
#include "xqscan/xq_notation.h"
#include "xqscan/xq_verify.h"

static xq_game *typed(const char *const *mv, size_t n)
{
    xq_game *g;
    xq_verify_options o;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    xq_verify_options_init(&o);
    o.recorded_result = "1-0";
    assert_int_equal(xq_verify_typed(mv, n, &o, g), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->source, "typed/game1.pgn"), XQ_OK);
    return g;
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
    /* a real opening; the last move "炮八进八" would leave the board (the
     * verifier decides what was played and flags it) */
    static const char *const MV[] = { "炮二平五", "马8进7", "马二进三", "车9平8",
                                      "车一平二", "马2进3", "兵七进一", "卒7进1",
                                      "车二进六", "炮8平9", "车二平三", "炮9退1",
                                      "马八进七", "士4进5", "马七进六", "炮9平7",
                                      "车三平四", "马7进8", "炮八进八" };
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
    assert_int_equal(xq_report_html(g, NULL, &sb), XQ_OK);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_illegal_move_end_to_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_report_corpus.c - PGN written by report/ is read back by xqscan's
 * own record reader (notation/) with the same moves, for every game of the
 * corpus (ccpd-dev.iccs.jsonl), in all four notations. Each game is built
 * as a verified record from its ICCS moves (Chinese and WXF from the
 * notation writer); every seventh game also gets a ply under review (one of
 * plies 1-5), so the comments with candidates must not disturb the reader. */
#include <cjson/cJSON.h>
#include "test_report_fixture.h"
#include "xqscan/xq_board.h"
#include "xqscan/xq_notation.h"

typedef struct {
    size_t games, plies, truncated, readback[4];
} tally;

/* Build a game from a jsonl line; NULL when the start FEN is invalid. */
static xq_game *game_from_line(const cJSON *j, size_t idx, tally *t)
{
    xq_game *g;
    xq_board b;
    const char *fen = cJSON_GetStringValue(cJSON_GetObjectItem(j, "start_fen"));
    const char *moves = cJSON_GetStringValue(cJSON_GetObjectItem(j, "iccs"));
    const char *res = cJSON_GetStringValue(cJSON_GetObjectItem(j, "result"));
    const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(j, "file"));
    char err[128], buf[8];
    const char *s;
    assert_non_null(moves);
    if (xq_board_from_fen(&b, fen ? fen : XQ_START_FEN, err, sizeof err) != XQ_OK)
        return NULL;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    snprintf(g->start_fen, sizeof g->start_fen, "%s", fen ? fen : XQ_START_FEN);
    assert_int_equal(xq_game_set_str(&g->header.event, file), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.result, res), XQ_OK);
    for (s = moves; *s;) {
        xq_ply *p;
        xq_move mv;
        size_t n = strcspn(s, " ");
        if (n != 4) {
            s += n + (s[n] == ' ');
            continue;
        }
        memcpy(buf, s, 4);
        buf[4] = '\0';
        s += n + (s[n] == ' ');
        if (xq_move_from_iccs(buf, &mv) != XQ_OK ||
            xq_board_check_move(&b, mv) != XQ_LEGAL) {
            t->truncated++;   /* a recorded illegal move ends the record */
            break;
        }
        assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
        p->side = xq_board_side(&b);
        p->mv = mv;
        p->source = XQ_SRC_READ;
        p->confidence = 1.0;
        snprintf(p->iccs, sizeof p->iccs, "%s", buf);
        assert_int_equal(xq_notation_write(&b, mv, XQ_NOTATION_CHINESE, p->chinese,
                                           sizeof p->chinese), XQ_OK);
        assert_int_equal(xq_notation_write(&b, mv, XQ_NOTATION_WXF, p->wxf,
                                           sizeof p->wxf), XQ_OK);
        assert_int_equal(xq_game_set_str(&p->read, p->chinese), XQ_OK);
        p->ncand = 1;
        p->cand[0].mv = mv;
        memcpy(p->cand[0].iccs, p->iccs, sizeof p->iccs);
        memcpy(p->cand[0].chinese, p->chinese, sizeof p->chinese);
        p->cand[0].score = 1.0;
        assert_true(xq_board_make_move(&b, mv, NULL));
    }
    if (idx % 7 == 0 && g->nplies > 4) {
        xq_ply *p = &g->plies[idx % 5];   /* Red's and Black's, ply 1 too */
        p->review = true;
        p->status = XQ_PLY_CORRECTED;
        assert_int_equal(xq_game_set_str(&p->read, "车}{;1-0 (x"), XQ_OK);
        p->ncand = 2;
        p->cand[1] = p->cand[0];
        p->cand[1].score = 0.1;
    }
    t->plies += g->nplies;
    return g;
}

static void check_readback(const xq_game *g, xq_pgn_notation nt, tally *t)
{
    static const xq_notation_kind KIND[] = { XQ_NOTATION_CHINESE, XQ_NOTATION_TRADITIONAL,
                                             XQ_NOTATION_WXF, XQ_NOTATION_ICCS };
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_record *rec = NULL;
    const xq_record_game *rg;
    xq_board b;
    xq_resolution res;
    long bad = 0;
    char err[128];
    size_t i;
    (void)KIND;
    assert_int_equal(xq_report_pgn(g, nt, &sb), XQ_OK);
    assert_int_equal(xq_record_read_mem(sb.data, sb.len, &rec), XQ_OK);
    if (xq_record_count(rec) != 1)
        fail_msg("%s: %zu games read back from\n%s", g->header.event,
                 xq_record_count(rec), sb.data);
    rg = xq_record_game_at(rec, 0);
    if (rg->nmoves != g->nplies)
        fail_msg("%s (notation %d): %zu moves read, %zu written\n%s", g->header.event,
                 (int)nt, rg->nmoves, g->nplies, sb.data);
    assert_int_equal(xq_record_game_replay(rg, &b, &bad, &res, err, sizeof err), XQ_OK);
    if (bad != -1)
        fail_msg("%s (notation %d): ply %ld \"%s\" does not replay\n%s", g->header.event,
                 (int)nt, bad + 1, rg->moves[bad].text, sb.data);
    for (i = 0; i < g->nplies; i++)
        if (xq_board_move_at(&b, (int)i) != g->plies[i].mv)
            fail_msg("%s (notation %d): ply %zu differs", g->header.event, (int)nt, i + 1);
    if (g->header.result && *g->header.result)
        assert_string_equal(rg->result, g->header.result);
    t->readback[nt]++;
    xq_record_destroy(&rec);
    xq_strbuf_free(&sb);
}

static void test_corpus_round_trip(void **state)
{
    char path[512], *line = NULL;
    size_t cap = 0, idx = 0;
    FILE *f;
    tally t;
    int nt;
    (void)state;
    memset(&t, 0, sizeof t);
    snprintf(path, sizeof path, "%s/ccpd-dev.iccs.jsonl", XQ_CORPUS_DIR);
    f = fopen(path, "r");
    if (!f)
        fail_msg("corpus missing: %s", path);
    while (getline(&line, &cap, f) > 0) {
        cJSON *j = cJSON_Parse(line);
        xq_game *g;
        assert_non_null(j);
        g = game_from_line(j, idx++, &t);
        cJSON_Delete(j);
        if (!g)
            continue;
        t.games++;
        for (nt = XQ_PGN_CHINESE; nt <= XQ_PGN_ICCS; nt++)
            check_readback(g, (xq_pgn_notation)nt, &t);
        xq_game_destroy(&g);
    }
    free(line);
    fclose(f);
    printf("corpus: %zu games, %zu plies (%zu records end at an illegal move); "
           "read back: chinese %zu, traditional %zu, wxf %zu, iccs %zu\n",
           t.games, t.plies, t.truncated, t.readback[0], t.readback[1],
           t.readback[2], t.readback[3]);
    assert_true(t.games >= 2600);
    for (nt = 0; nt < 4; nt++)
        assert_int_equal(t.readback[nt], t.games);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

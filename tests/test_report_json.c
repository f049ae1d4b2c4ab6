/* test_report_json.c - JSON "xqscan/1": golden file, the exact key set of
 * ../shared/INTERFACE.md, an independent parser (python3 json), escaping,
 * read-back round trip, malformed input, OOM. */
#include <cjson/cJSON.h>
#include <unistd.h>
#include "test_report_fixture.h"

static char *json_of(const xq_game *g)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    assert_int_equal(xq_report_json(g, &sb), XQ_OK);
    return xq_strbuf_take(&sb);
}

/* keys: comma-separated, exactly the object's keys (any order) */
static void expect_keys(const cJSON *o, const char *keys, const char *where)
{
    const cJSON *it;
    char buf[512], *tok, *save = NULL;
    int n = 0, m = 0;
    assert_true(cJSON_IsObject(o));
    snprintf(buf, sizeof buf, "%s", keys);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!cJSON_GetObjectItemCaseSensitive(o, tok))
            fail_msg("%s: key \"%s\" missing", where, tok);
        n++;
    }
    cJSON_ArrayForEach(it, o) m++;
    if (m != n)
        fail_msg("%s: %d keys, expected %d (%s)", where, m, n, keys);
}

static void test_keys_of_interface(void **state)
{
    xq_game *g = fx_game();
    char *t = json_of(g);
    cJSON *root = cJSON_Parse(t), *it;
    int nmove = 0, nnull = 0;
    (void)state;
    assert_non_null(root);
    expect_keys(root, "schema,xqscan,source,status,owner,header,start_fen,plies,"
                      "unrecorded,findings,end", "top");
    assert_string_equal(cJSON_GetObjectItem(root, "schema")->valuestring, "xqscan/1");
    expect_keys(cJSON_GetObjectItem(root, "xqscan"), "version,input_sha256,options", "xqscan");
    expect_keys(cJSON_GetObjectItem(root, "header"),
                "event,round,board,red,black,date,result", "header");
    expect_keys(cJSON_GetObjectItem(root, "unrecorded"),
                "red,black,total,longest_run,threshold,exceeded,rule", "unrecorded");
    expect_keys(cJSON_GetObjectItem(root, "end"), "position,recorded_result,consistent", "end");
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(root, "plies")) {
        const cJSON *c, *mv = cJSON_GetObjectItem(it, "move"), *cell;
        expect_keys(it, "ply,side,status,read,move,move_source,confidence,review,"
                        "candidates,cell", "ply");
        assert_true(cJSON_IsNumber(cJSON_GetObjectItem(it, "ply")));
        assert_true(cJSON_IsNumber(cJSON_GetObjectItem(it, "confidence")));
        assert_true(cJSON_IsBool(cJSON_GetObjectItem(it, "review")));
        if (cJSON_IsObject(mv)) {
            expect_keys(mv, "iccs,chinese,wxf", "move");
            nmove++;
        }
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(it, "candidates"))
            expect_keys(c, "iccs,chinese,score", "candidate");
        cell = cJSON_GetObjectItem(it, "cell");
        if (cJSON_IsNull(cell)) {
            nnull++;
        } else {
            expect_keys(cell, "page,box", "cell");
            assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cell, "box")), 4);
        }
    }
    assert_int_equal(nmove, 8);
    assert_int_equal(nnull, 1);   /* the skipped ply 7 */
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(root, "findings"))
        expect_keys(it, "ply,severity,code,rule,message", "finding");
    /* the whole-sheet finding has ply null */
    it = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "findings"), 4);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(it, "ply")));
    cJSON_Delete(root);
    xq_free(t);

    /* an error sheet adds "error"; owner and results become null */
    g->is_error = true;
    g->owner = -1;
    assert_int_equal(xq_game_set_str(&g->error, "not an image"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.result, NULL), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->end.recorded_result, NULL), XQ_OK);
    t = json_of(g);
    root = cJSON_Parse(t);
    expect_keys(root, "schema,xqscan,source,status,error,owner,header,start_fen,"
                      "plies,unrecorded,findings,end", "top (error)");
    assert_string_equal(cJSON_GetObjectItem(root, "status")->valuestring, "error");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(root, "owner")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "header"), "result")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "end"),
                                                 "recorded_result")));
    cJSON_Delete(root);
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_golden(void **state)
{
    xq_game *g = fx_game();
    char *t = json_of(g);
    (void)state;
    fx_golden("game.json", t);
    xq_free(t);
    xq_game_destroy(&g);
    g = fx_broken_game();
    t = json_of(g);
    fx_golden("broken.json", t);
    /* a ply without a move: move and move_source are null */
    assert_non_null(strstr(t, "\"move\":\tnull"));
    assert_non_null(strstr(t, "\"move_source\":\tnull"));
    xq_free(t);
    xq_game_destroy(&g);
}

/* python3's json module is an independent parser: it must accept the file,
 * and find the same escaped strings. */
static void test_python_parses(void **state)
{
    xq_game *g = fx_game();
    char *t;
    char path[512], cmd[1400];
    FILE *f;
    int rc;
    (void)state;
    /* invalid UTF-8 and control characters in a string */
    assert_int_equal(xq_game_set_str(&g->header.red, "bad\xff\xfe utf8 \x01 tab\t"), XQ_OK);
    t = json_of(g);
    snprintf(path, sizeof path, "%s/test_report_json.%ld.json", XQ_BINARY_DIR, (long)getpid());
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs(t, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 -m json.tool %s > /dev/null", path);
    rc = system(cmd);
    assert_int_equal(rc, 0);
    snprintf(cmd, sizeof cmd,
        "/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1],encoding=\"utf-8\"));"
        "assert d[\"header\"][\"event\"]==sys.argv[2], d[\"header\"][\"event\"];"
        "assert d[\"header\"][\"black\"]==sys.argv[3];"
        "assert d[\"header\"][\"red\"]==\"bad\\ufffd\\ufffd utf8 \\x01 tab\\t\", repr(d[\"header\"][\"red\"]);"
        "assert d[\"plies\"][7][\"read\"]==\"卒3进1<b>}\";"
        "assert d[\"plies\"][0][\"confidence\"]==0.98;"
        "assert d[\"xqscan\"][\"options\"]=={\"threshold\":16,\"notation\":\"chinese\"}' "
        "%s \"$(printf '%%s' '%s')\" '=cmd|'\"'\"' /C calc'\"'\"'!A0'",
        path, "全国象棋锦标赛 <script>alert(1)</script> & \"co\"");
    /* the event contains a double quote: pass it through printf safely */
    rc = system(cmd);
    assert_int_equal(rc, 0);
    unlink(path);
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_round_trip(void **state)
{
    xq_game *g = fx_game(), *h = NULL;
    char *t = json_of(g), *t2;
    size_t i;
    (void)state;
    assert_int_equal(xq_report_read_json(t, strlen(t), &h), XQ_OK);
    assert_non_null(h);
    t2 = json_of(h);
    assert_string_equal(t, t2);
    assert_int_equal(h->nplies, g->nplies);
    for (i = 0; i < g->nplies; i++) {
        assert_int_equal(h->plies[i].mv, g->plies[i].mv);
        assert_int_equal(h->plies[i].status, g->plies[i].status);
        assert_int_equal(h->plies[i].cand[0].mv, g->plies[i].cand[0].mv);
    }
    assert_int_equal(h->owner, XQ_RED);
    xq_free(t2);
    xq_game_destroy(&h);
    /* from a file */
    {
        char path[512];
        snprintf(path, sizeof path, "%s/test_report_rt.%ld.json", XQ_BINARY_DIR, (long)getpid());
        assert_int_equal(xq_report_write_file_atomic(path, t, strlen(t)), XQ_OK);
        assert_int_equal(xq_report_read_json_file(path, &h), XQ_OK);
        t2 = json_of(h);
        assert_string_equal(t, t2);
        xq_free(t2);
        xq_game_destroy(&h);
        unlink(path);
        assert_int_equal(xq_report_read_json_file(path, &h), XQ_EIO);
        assert_null(h);
    }
    xq_free(t);
    xq_game_destroy(&g);
    /* a move without a source: the move is kept, move_source null */
    g = fx_game();
    g->plies[0].source = XQ_SRC_NONE;
    t = json_of(g);
    assert_non_null(strstr(t, "\"wxf\":\t\"C2.5\"\n\t\t\t},\n\t\t\t\"move_source\":\tnull"));
    assert_int_equal(xq_report_read_json(t, strlen(t), &h), XQ_OK);
    assert_int_equal(h->plies[0].source, XQ_SRC_NONE);
    assert_int_equal(h->plies[0].mv, g->plies[0].mv);
    t2 = json_of(h);
    assert_string_equal(t, t2);
    xq_free(t);
    xq_free(t2);
    xq_game_destroy(&g);
    xq_game_destroy(&h);
    /* the broken game too (null moves) */
    g = fx_broken_game();
    t = json_of(g);
    assert_int_equal(xq_report_read_json(t, strlen(t), &h), XQ_OK);
    t2 = json_of(h);
    assert_string_equal(t, t2);
    xq_free(t);
    xq_free(t2);
    xq_game_destroy(&g);
    xq_game_destroy(&h);
}

static void test_bad_input(void **state)
{
    static const char *const BAD[] = {
        "", "{", "[]", "{\"schema\":\"xqscan/2\"}",
        "{\"schema\":\"xqscan/1\",\"plies\":[{\"status\":\"weird\"}]}",
        "{\"schema\":\"xqscan/1\",\"plies\":[7]}",
        "{\"schema\":\"xqscan/1\",\"findings\":[{\"severity\":\"error\"}]}",
    };
    xq_game *g = (xq_game *)1;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        g = (xq_game *)1;
        assert_int_equal(xq_report_read_json(BAD[i], strlen(BAD[i]), &g), XQ_EINVAL);
        assert_null(g);
    }
    assert_int_equal(xq_report_read_json(NULL, 0, &g), XQ_EINVAL);
    /* minimal object: defaults */
    assert_int_equal(xq_report_read_json("{\"schema\":\"xqscan/1\"}", 21, &g), XQ_OK);
    assert_int_equal(g->nplies, 0);
    assert_int_equal(g->owner, -1);
    xq_game_destroy(&g);
    /* options must be a JSON object */
    g = fx_game();
    assert_int_equal(xq_game_set_str(&g->options_json, "[1,2]"), XQ_OK);
    {
        xq_strbuf sb = XQ_STRBUF_INIT;
        assert_int_equal(xq_report_json(g, &sb), XQ_EINVAL);
        xq_strbuf_free(&sb);
    }
    xq_game_destroy(&g);
}

/* Mutated JSON (bytes flipped, cut short, numbers made huge) must give
 * XQ_OK or XQ_EINVAL, never a crash (run under ASan/UBSan in CI). */
static void test_mutations(void **state)
{
    static const char MUT[] = "{}[]\",:0123456789e-+.tfn\x80\xff";
    xq_game *g = fx_game();
    char *t = json_of(g), *m;
    size_t n = strlen(t), i;
    unsigned long seed = 12345;
    int ok = 0, bad = 0;
    (void)state;
    m = malloc(n + 1);
    for (i = 0; i < 3000; i++) {
        size_t k, cut = n, pos;
        xq_game *h = NULL;
        xq_status st;
        memcpy(m, t, n + 1);
        for (k = 0; k < 1 + i % 4; k++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            pos = (size_t)(seed >> 33) % n;
            m[pos] = MUT[(seed >> 20) % (sizeof MUT - 1)];
        }
        if (i % 5 == 0)
            cut = (size_t)(seed >> 40) % n;
        st = xq_report_read_json(m, cut, &h);
        assert_true(st == XQ_OK || st == XQ_EINVAL);
        if (st == XQ_OK) {
            xq_strbuf sb = XQ_STRBUF_INIT;
            /* whatever was read can be written again */
            st = xq_report_json(h, &sb);
            assert_true(st == XQ_OK || st == XQ_EINVAL);
            assert_int_equal(xq_report_html(h, NULL, &sb), XQ_OK);
            assert_int_equal(xq_report_pgn(h, XQ_PGN_CHINESE, &sb), XQ_OK);
            xq_strbuf_free(&sb);
            ok++;
        } else {
            bad++;
        }
        xq_game_destroy(&h);
    }
    /* huge numbers are clamped, not cast */
    {
        const char *big = "{\"schema\":\"xqscan/1\",\"plies\":[{\"ply\":1e300,"
                          "\"status\":\"ok\",\"cell\":{\"page\":-1e300,\"box\":[1e300,2,3,4]}}],"
                          "\"unrecorded\":{\"total\":1e99}}";
        xq_game *h = NULL;
        assert_int_equal(xq_report_read_json(big, strlen(big), &h), XQ_OK);
        assert_int_equal(h->plies[0].ply, 1000000000);
        assert_int_equal(h->plies[0].cell_page, -1000000000);
        assert_int_equal(h->plies[0].cell_box[0], 1000000000);
        assert_int_equal(h->unrecorded.total, 1000000000);
        xq_game_destroy(&h);
    }
    printf("mutations: %d read, %d rejected\n", ok, bad);
    assert_true(ok > 0 && bad > 0);
    free(m);
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_oom(void **state)
{
    xq_game *g = fx_game();
    char *t = json_of(g);
    long n;
    int ok = 0;
    (void)state;
    for (n = 0; n < 5000 && !ok; n++) {
        xq_game *h = NULL;
        xq_status st;
        xq_alloc_fail_after(n);
        st = xq_report_read_json(t, strlen(t), &h);
        xq_alloc_fail_after(-1);
        assert_true(st == XQ_OK || st == XQ_ENOMEM);
        if (st != XQ_OK)
            assert_null(h);
        ok = st == XQ_OK;
        xq_game_destroy(&h);
    }
    assert_true(ok);
    xq_free(t);
    xq_game_destroy(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_of_interface),
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_python_parses),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

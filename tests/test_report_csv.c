/* test_report_csv.c - summary rows, summary.csv (golden, formula
 * neutralising, quoting) and index.html (worst first, links, escaping,
 * sort script). */
#include <unistd.h>
#include "test_report_fixture.h"

#define CSV_HEADER                                                          \
    "file,event,round,board,red,black,plies,unrecorded_red,"                \
    "unrecorded_black,unrecorded_total,threshold_exceeded,illegal_moves,"   \
    "plies_under_review,result_recorded,result_consistent,status\r\n"

static void rows3(xq_summary_row r[3])
{
    xq_game *a = fx_game(), *b = fx_fen_game(), *c;
    assert_int_equal(xq_summary_row_from_game(a, "round3/board07", &r[0]), XQ_OK);
    assert_int_equal(xq_summary_row_from_game(b, NULL, &r[1]), XQ_OK);
    assert_int_equal(xq_game_create(&c), XQ_OK);
    assert_int_equal(xq_game_set_str(&c->source, "round3/scan,\"odd\".tif"), XQ_OK);
    c->is_error = true;
    assert_int_equal(xq_game_set_str(&c->error, "not an image: <bad>"), XQ_OK);
    assert_int_equal(xq_summary_row_from_game(c, "round3/scan,\"odd\"", &r[2]), XQ_OK);
    xq_game_destroy(&a);
    xq_game_destroy(&b);
    xq_game_destroy(&c);
}

static void test_row_fields(void **state)
{
    xq_summary_row r[3];
    int i;
    (void)state;
    rows3(r);
    assert_string_equal(r[0].name, "round3/board07");
    assert_string_equal(r[0].file, "round3/board07.png");
    assert_int_equal(r[0].plies, 8);
    assert_int_equal(r[0].unrec_red, 2);
    assert_int_equal(r[0].unrec_black, 1);
    assert_int_equal(r[0].unrec_total, 3);
    assert_false(r[0].exceeded);
    assert_int_equal(r[0].illegal, 1);
    assert_int_equal(r[0].review, 4);
    assert_int_equal(r[0].errors, 2);
    assert_int_equal(r[0].warnings, 2);
    assert_string_equal(r[0].result, "1-0");
    assert_false(r[0].consistent);
    assert_int_equal(r[0].status, XQ_SUMMARY_REVIEW);
    assert_string_equal(r[1].name, "study/ending 1.pgn");
    assert_int_equal(r[1].status, XQ_SUMMARY_OK);
    assert_string_equal(r[1].red, "");
    assert_int_equal(r[2].status, XQ_SUMMARY_FAILED);
    assert_string_equal(r[2].error, "not an image: <bad>");
    assert_string_equal(xq_summary_status_name(XQ_SUMMARY_FAILED), "failed");
    for (i = 0; i < 3; i++)
        xq_summary_row_clear(&r[i]);
    assert_null(r[0].name);
    xq_summary_row_clear(NULL);
    assert_int_equal(xq_summary_row_from_game(NULL, NULL, &r[0]), XQ_EINVAL);
}

static void test_csv_golden(void **state)
{
    xq_summary_row r[3];
    xq_strbuf sb = XQ_STRBUF_INIT;
    int i;
    (void)state;
    rows3(r);
    assert_int_equal(xq_report_summary_csv(r, 3, &sb), XQ_OK);
    fx_golden("summary.csv", xq_strbuf_cstr(&sb));
    assert_memory_equal(sb.data, CSV_HEADER, strlen(CSV_HEADER));
    /* the formula is neutralised and its quote kept literal */
    assert_non_null(strstr(sb.data, ",\"'=cmd|' /C calc'!A0\","));
    /* quotes doubled, comma kept inside the quoted cell */
    assert_non_null(strstr(sb.data, "\"round3/scan,\"\"odd\"\".tif\""));
    assert_non_null(strstr(sb.data, ",8,2,1,3,false,1,4,\"1-0\",false,review\r\n"));
    xq_strbuf_free(&sb);
    for (i = 0; i < 3; i++)
        xq_summary_row_clear(&r[i]);
    /* empty list: the header only */
    assert_int_equal(xq_report_summary_csv(NULL, 0, &sb), XQ_OK);
    assert_string_equal(sb.data, CSV_HEADER);
    xq_strbuf_free(&sb);
    assert_int_equal(xq_report_summary_csv(NULL, 1, &sb), XQ_EINVAL);
}

static void test_csv_neutralise(void **state)
{
    static const char *const EVIL[] = { "=1+2", "+1", "-1", "@SUM(A1)", "\tx",
                                        "\rx", "plain", "a\nb" };
    static const char *const WANT[] = { "\"'=1+2\"", "\"'+1\"", "\"'-1\"",
                                        "\"'@SUM(A1)\"", "\"'\tx\"", "\"' x\"",
                                        "\"plain\"", "\"a b\"" };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof EVIL / sizeof EVIL[0]; i++) {
        xq_summary_row r;
        xq_game *g;
        xq_strbuf sb = XQ_STRBUF_INIT;
        char want[64];
        assert_int_equal(xq_game_create(&g), XQ_OK);
        assert_int_equal(xq_game_set_str(&g->header.red, EVIL[i]), XQ_OK);
        assert_int_equal(xq_summary_row_from_game(g, "x", &r), XQ_OK);
        assert_int_equal(xq_report_summary_csv(&r, 1, &sb), XQ_OK);
        snprintf(want, sizeof want, ",\"\",%s,\"\",", WANT[i]);
        if (!strstr(sb.data, want))
            fail_msg("cell %zu: want %s in %s", i, want, sb.data);
        xq_strbuf_free(&sb);
        xq_summary_row_clear(&r);
        xq_game_destroy(&g);
    }
}

static void test_index(void **state)
{
    xq_summary_row r[3];
    xq_strbuf sb = XQ_STRBUF_INIT;
    const char *failed, *review, *ok;
    int i;
    (void)state;
    rows3(r);
    assert_int_equal(xq_report_index_html(r, 3, &sb), XQ_OK);
    /* worst first: failed, then the sheet needing review, then the clean one */
    failed = strstr(sb.data, "href=\"round3/scan%2C%22odd%22.html\"");
    review = strstr(sb.data, "href=\"round3/board07.html\"");
    ok = strstr(sb.data, "href=\"study/ending%201.pgn.html\"");
    assert_non_null(failed);
    assert_non_null(review);
    assert_non_null(ok);
    assert_true(failed < review && review < ok);
    /* escaping: no live markup from names, events or errors */
    assert_null(strstr(sb.data, "<script>alert"));
    assert_non_null(strstr(sb.data, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;"));
    assert_non_null(strstr(sb.data, "not an image: &lt;bad&gt;"));
    /* one row per sheet, sortable headers with the script inline */
    assert_non_null(strstr(sb.data, "<table id=\"sheets\">"));
    assert_non_null(strstr(sb.data, "addEventListener('click'"));
    assert_non_null(strstr(sb.data, "3 sheets"));
    assert_null(strstr(sb.data, "src=\"http"));
    {
        const char *s = sb.data;
        int n = 0;
        while ((s = strstr(s, "<tr class=\"st-")) != NULL) {
            n++;
            s++;
        }
        assert_int_equal(n, 3);
    }
    xq_strbuf_free(&sb);
    for (i = 0; i < 3; i++)
        xq_summary_row_clear(&r[i]);
    assert_int_equal(xq_report_index_html(NULL, 0, &sb), XQ_OK);
    assert_non_null(strstr(sb.data, "0 sheets"));
    xq_strbuf_free(&sb);
}

/* a sheet name cannot become a javascript: link or break out of href */
static void test_index_links(void **state)
{
    xq_game *g;
    xq_summary_row r;
    xq_strbuf sb = XQ_STRBUF_INIT;
    (void)state;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    assert_int_equal(xq_summary_row_from_game(g, "javascript:alert(1)//\"><b>#?%中", &r), XQ_OK);
    assert_int_equal(xq_report_index_html(&r, 1, &sb), XQ_OK);
    assert_non_null(strstr(sb.data,
        "href=\"javascript%3Aalert%281%29//%22%3E%3Cb%3E%23%3F%25%E4%B8%AD.html\""));
    assert_null(strstr(sb.data, "href=\"javascript:"));
    assert_null(strstr(sb.data, "<b>#"));
    xq_strbuf_free(&sb);
    xq_summary_row_clear(&r);
    xq_game_destroy(&g);
}

/* merge: rebuild rows from JSON files written by xq_report_json */
static void test_rows_from_json(void **state)
{
    xq_game *g = fx_game(), *h;
    xq_strbuf sb = XQ_STRBUF_INIT, c1 = XQ_STRBUF_INIT, c2 = XQ_STRBUF_INIT;
    xq_summary_row a, b;
    (void)state;
    assert_int_equal(xq_report_json(g, &sb), XQ_OK);
    assert_int_equal(xq_report_read_json(sb.data, sb.len, &h), XQ_OK);
    assert_int_equal(xq_summary_row_from_game(g, "n", &a), XQ_OK);
    assert_int_equal(xq_summary_row_from_game(h, "n", &b), XQ_OK);
    assert_int_equal(xq_report_summary_csv(&a, 1, &c1), XQ_OK);
    assert_int_equal(xq_report_summary_csv(&b, 1, &c2), XQ_OK);
    assert_string_equal(c1.data, c2.data);
    xq_strbuf_free(&sb);
    xq_strbuf_free(&c1);
    xq_strbuf_free(&c2);
    xq_summary_row_clear(&a);
    xq_summary_row_clear(&b);
    /* straight from a file */
    {
        char path[512];
        xq_strbuf j = XQ_STRBUF_INIT;
        snprintf(path, sizeof path, "%s/test_report_row.%ld.json", XQ_BINARY_DIR,
                 (long)getpid());
        assert_int_equal(xq_report_json(g, &j), XQ_OK);
        assert_int_equal(xq_report_write_file_atomic(path, j.data, j.len), XQ_OK);
        assert_int_equal(xq_summary_row_read_json(path, "round3/board07", &a), XQ_OK);
        assert_string_equal(a.name, "round3/board07");
        assert_int_equal(a.review, 4);
        assert_int_equal(a.status, XQ_SUMMARY_REVIEW);
        xq_summary_row_clear(&a);
        assert_int_equal(xq_report_write_file_atomic(path, "{}", 2), XQ_OK);
        assert_int_equal(xq_summary_row_read_json(path, "x", &a), XQ_EINVAL);
        unlink(path);
        assert_int_equal(xq_summary_row_read_json(path, "x", &a), XQ_EIO);
        assert_null(a.name);
        xq_strbuf_free(&j);
    }
    xq_game_destroy(&g);
    xq_game_destroy(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_fields),
        cmocka_unit_test(test_csv_golden),
        cmocka_unit_test(test_csv_neutralise),
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_index_links),
        cmocka_unit_test(test_rows_from_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

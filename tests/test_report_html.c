/* test_report_html.c - the arbiter report: structure (verdict first, move
 * table, boards at findings, review mode), escaping of names, events and
 * cell text (also in attributes and in <script> JSON), crops as PNG data
 * URIs that decode to the same pixels, self-containment, OOM; escape
 * helpers. With XQ_REPORT_SAMPLE_DIR set, also writes sample.html,
 * sample.json, broken.html and index.html there for the browser test
 * (tests/cli/report_html.sh). */
#include <png.h>
#include <sys/stat.h>
#include "../report/report_internal.h"
#include "test_report_fixture.h"

static char *html_of(const xq_game *g, const xq_html_options *o)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    assert_int_equal(xq_report_html(g, o, &sb), XQ_OK);
    return xq_strbuf_take(&sb);
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    while ((s = strstr(s, needle)) != NULL) {
        n++;
        s += strlen(needle);
    }
    return n;
}

/* occurrences of needle in [s, end) */
static int count_in(const char *s, const char *end, const char *needle)
{
    int n = 0;
    while ((s = strstr(s, needle)) != NULL && s < end) {
        n++;
        s += strlen(needle);
    }
    return n;
}

/* A doubtful illegal move (no legal move as reconstructed, one if an
 * earlier record is wrong) is listed in the verdict, not counted. */
static void test_doubtful_illegal(void **state)
{
    xq_game *g = fx_game();
    char *t, *verdict, *end;
    (void)state;
    assert_int_equal(xq_game_add_finding(g, 6, XQ_SEV_WARNING, "doubtful_illegal_move",
                                         "WXF 7.7", "ply 6 (Black): no legal move as "
                                         "reconstructed, but it is one if ply 4 was ..."),
                     XQ_OK);
    t = html_of(g, NULL);
    verdict = strstr(t, "<section id=\"verdict\"");
    assert_non_null(verdict);
    end = strstr(verdict, "</section>");
    assert_non_null(end);
    *end = '\0';
    assert_non_null(strstr(verdict, "<b>Illegal moves:</b> 1 (<a href=\"#ply-5\">ply 5</a>)"
                                    "; doubtful 1 (<a href=\"#ply-6\">ply 6</a>)"));
    free(t);
    xq_game_destroy(&g);
}

static void test_structure(void **state)
{
    xq_game *g = fx_game();
    char *t = html_of(g, NULL);
    const char *verdict, *findings, *moves, *review;
    (void)state;
    assert_memory_equal(t, "<!DOCTYPE html>", 15);
    assert_non_null(strstr(t, "<meta name=\"viewport\" content=\"width=device-width"));
    verdict = strstr(t, "<section id=\"verdict\"");
    findings = strstr(t, "<section id=\"findings\"");
    moves = strstr(t, "<section id=\"moves\"");
    review = strstr(t, "<section id=\"review\"");
    assert_true(verdict && findings && moves && review);
    assert_true(verdict < findings && findings < moves && moves < review);
    /* the verdict names each item with its rule */
    assert_non_null(strstr(verdict, "<b>Unrecorded moves:</b> 3 (threshold 16; Red 2, Black 1; longest run 2)"));
    assert_non_null(strstr(verdict, "<span class=\"rule\">WXF 7.6, 3.1.F</span>"));
    assert_non_null(strstr(verdict, "<b>Illegal moves:</b> 1 (<a href=\"#ply-5\">ply 5</a>)"
                                    " <span class=\"rule\">WXF 7.1, 7.7</span>"));
    assert_non_null(strstr(verdict, "<b>Result:</b> recorded 1-0; final position normal"));
    assert_non_null(strstr(verdict, "<b>not consistent</b> <span class=\"rule\">WXF 3.1</span>"));
    assert_non_null(strstr(verdict, "Needs an arbiter: 4 plies under review, 2 errors, 2 warnings."));
    /* one row per ply, status classes, a crop per ply with an image */
    assert_int_equal(count(moves, "<tr id=\"ply-"), 8);
    assert_int_equal(count(t, "class=\"s-illegal review\""), 1);
    assert_int_equal(count(t, "class=\"s-missing review\""), 2);
    assert_int_equal(count(t, "class=\"s-corrected\""), 1);
    assert_int_equal(count_in(moves, review, "<img class=\"crop\""), 6);
    assert_int_equal(count_in(moves, review, "(no cell)"), 1);
    assert_int_equal(count_in(moves, review, "(no image)"), 1);
    /* boards: 4 ply findings + 1 whole-sheet + 4 review plies */
    assert_int_equal(count(t, "<svg class=\"board\""), 9);
    assert_non_null(strstr(t, "楚 河"));
    assert_non_null(strstr(t, "漢 界"));
    assert_int_equal(count(t, "class=\"arrow\""), 9);
    assert_true(count(t, "class=\"arrow cand\"") >= 4);
    /* every board at the start has 32 pieces; the first finding (ply 3)
     * shows the position after two moves: still 32 */
    {
        const char *b = strstr(findings, "<svg class=\"board\"");
        const char *e = strstr(b, "</svg>");
        int n = 0;
        const char *s = b;
        while ((s = strstr(s, "<g class=\"pc ")) != NULL && s < e) {
            n++;
            s++;
        }
        assert_int_equal(n, 32);
    }
    /* review mode: one fieldset per flagged ply, candidates as radios */
    assert_int_equal(count(review, "<fieldset class=\"rv\""), 4);
    assert_non_null(strstr(review, "data-ply=\"5\""));
    assert_non_null(strstr(review, "name=\"rv-5\" value=\"b2c2\""));
    assert_non_null(strstr(review, "<button type=\"button\" id=\"save\">"));
    assert_non_null(strstr(t, "\"file\":\"board07.corrections.json\""));
    assert_non_null(strstr(t, "xqscan-corrections/1"));
    /* self-contained: nothing fetched from elsewhere */
    assert_null(strstr(t, "src=\"http"));
    assert_null(strstr(t, "href=\"http"));
    assert_null(strstr(t, "<link"));
    assert_null(strstr(t, "@import"));
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_escaping(void **state)
{
    xq_game *g = fx_game();
    xq_html_options o = { "../index.html?a=1&b=\"2\"", NULL };
    char *t;
    (void)state;
    assert_int_equal(xq_game_set_str(&g->source,
        "x</script><script>alert(2)</script>\" onload=\"alert(3).png"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->header.red, "<img src=x onerror=alert(4)>"), XQ_OK);
    assert_int_equal(xq_game_set_str(&g->plies[2].read, "<b>\"'&"), XQ_OK);
    g->plies[0].cand[0].iccs[0] = '"';   /* a hostile attribute value */
    /* move strings are short but not trusted either (JSON read back) */
    snprintf(g->plies[2].cand[1].iccs, sizeof g->plies[2].cand[1].iccs, "%s", "<script");
    snprintf(g->plies[4].iccs, sizeof g->plies[4].iccs, "%s", "<svg/x>");
    snprintf(g->plies[4].chinese, sizeof g->plies[4].chinese, "%s", "<i>马");
    t = html_of(g, &o);
    assert_null(strstr(t, "<script>alert"));
    assert_null(strstr(t, "<img src=x"));
    assert_null(strstr(t, "\" onload=\""));
    assert_null(strstr(t, "<b>\""));
    assert_null(strstr(t, "<svg/x>"));
    assert_null(strstr(t, "<i>"));
    assert_non_null(strstr(t, "&lt;script"));
    assert_non_null(strstr(t, "&lt;img src=x onerror=alert(4)&gt;"));
    assert_non_null(strstr(t, "&lt;b&gt;&quot;&#39;&amp;"));
    assert_non_null(strstr(t, "全国象棋锦标赛 &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;"));
    assert_non_null(strstr(t, "=cmd|&#39; /C calc&#39;!A0"));
    assert_non_null(strstr(t, "<a href=\"../index.html?a=1&amp;b=&quot;2&quot;\">"));
    /* inside the <script> JSON: no "</" can end the element */
    {
        const char *m = strstr(t, "id=\"xq-meta\">");
        const char *e = strstr(m, "</script>");
        assert_non_null(m);
        assert_non_null(strstr(m, "x\\u003c/script\\u003e\\u003cscript\\u003ealert(2)"));
        assert_true(strstr(m, "\\u003c/script") < e);
    }
    /* exactly the two scripts of the page, nothing injected */
    assert_int_equal(count(t, "<script"), 2);
    xq_free(t);
    xq_game_destroy(&g);
}

static uint8_t *b64_decode(const char *s, size_t *pn)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t len = strcspn(s, "\""), i, n = 0;
    uint8_t *out = malloc(len);
    uint32_t v = 0;
    int bits = 0;
    for (i = 0; i < len && s[i] != '='; i++) {
        const char *p = strchr(A, s[i]);
        assert_non_null(p);
        v = v << 6 | (uint32_t)(p - A);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (uint8_t)(v >> bits);
        }
    }
    *pn = n;
    return out;
}

static void test_crop_png(void **state)
{
    xq_game *g = fx_game();
    char *t = html_of(g, NULL);
    const char *p = strstr(t, "src=\"data:image/png;base64,");
    size_t n;
    uint8_t *png;
    png_image img;
    uint8_t *px;
    (void)state;
    assert_non_null(p);
    png = b64_decode(p + strlen("src=\"data:image/png;base64,"), &n);
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_memory(&img, png, n));
    assert_int_equal(img.width, 60);
    assert_int_equal(img.height, 24);
    img.format = PNG_FORMAT_GRAY;
    px = malloc(PNG_IMAGE_SIZE(img));
    assert_true(png_image_finish_read(&img, NULL, px, 0, NULL));
    assert_memory_equal(px, g->plies[0].crop.px, 60 * 24);
    free(px);
    free(png);
    xq_free(t);
    xq_game_destroy(&g);
}

static void test_broken_and_clean(void **state)
{
    xq_game *g = fx_broken_game();
    char *t = html_of(g, NULL);
    (void)state;
    /* plies 3 and 4 have no move: their boards cannot be drawn */
    assert_int_equal(count(t, "No diagram: the moves before this ply cannot all be replayed"), 1);
    assert_int_equal(count(t, "<svg class=\"board\""), 1);   /* review ply 3 */
    assert_int_equal(count(t, "<fieldset class=\"rv\""), 2);
    xq_free(t);
    xq_game_destroy(&g);
    g = fx_fen_game();
    t = html_of(g, NULL);
    assert_non_null(strstr(t, "Nothing to review"));
    assert_non_null(strstr(t, "No ply is flagged."));
    assert_null(strstr(t, "id=\"save\""));
    assert_int_equal(count(t, "<svg class=\"board\""), 0);
    xq_free(t);
    xq_game_destroy(&g);
    assert_int_equal(xq_report_html(NULL, NULL, NULL), XQ_EINVAL);
}

static void test_escape_helpers(void **state)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    char *c;
    (void)state;
    assert_int_equal(rep_html_esc(&sb, "a<b>&\"'\x01\x7f\xff中"), XQ_OK);
    assert_string_equal(sb.data, "a&lt;b&gt;&amp;&quot;&#39;\xef\xbf\xbd中");
    xq_strbuf_reset(&sb);
    assert_int_equal(rep_base64(&sb, (const uint8_t *)"Man", 3), XQ_OK);
    assert_int_equal(rep_base64(&sb, (const uint8_t *)"Ma", 2), XQ_OK);
    assert_int_equal(rep_base64(&sb, (const uint8_t *)"M", 1), XQ_OK);
    assert_string_equal(sb.data, "TWFuTWE=TQ==");
    xq_strbuf_reset(&sb);
    assert_int_equal(rep_traditional(&sb, "车马帅将进后炮兵卒相象仕士平退前"), XQ_OK);
    assert_string_equal(sb.data, "車馬帥將進後炮兵卒相象仕士平退前");
    xq_strbuf_reset(&sb);
    assert_int_equal(rep_script_json(&sb, "{\"a\":\"</script>&\xe2\x80\xa8\"}"), XQ_OK);
    assert_string_equal(sb.data, "{\"a\":\"\\u003c/script\\u003e\\u0026\\u2028\"}");
    xq_strbuf_reset(&sb);
    assert_int_equal(rep_pgn_tag(&sb, "a\"b\\c\nd"), XQ_OK);
    assert_string_equal(sb.data, "a\\\"b\\\\c d");
    xq_strbuf_free(&sb);
    c = rep_utf8_clean("ok\xc3(");
    assert_string_equal(c, "ok\xef\xbf\xbd(");
    xq_free(c);
    assert_int_equal(rep_fen_is_standard(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"), 1);
    assert_int_equal(rep_fen_is_standard(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"), 0);
    assert_int_equal(rep_fen_is_standard("3k5/9/9/9/9/9/9/9/9/4K1R2 b - - 0 30"), 0);
}

static void test_positions(void **state)
{
    xq_game *g = fx_fen_game();
    rep_pos *pos = NULL;
    long known;
    int side, full;
    (void)state;
    rep_fen_counters("3k5/9/9/9/9/9/9/9/9/4K1R2 b - - 0 30", &side, &full);
    assert_int_equal(side, XQ_BLACK);
    assert_int_equal(full, 30);
    rep_fen_counters("3k5/9/9/9/9/9/9/9/9/4K1R2", &side, &full);
    assert_int_equal(side, XQ_RED);
    assert_int_equal(full, 1);
    assert_int_equal(rep_replay(g, &pos, &known), XQ_OK);
    assert_int_equal(known, 4);
    assert_int_equal(pos[0].side, XQ_BLACK);
    assert_int_equal(pos[0].sq[XQ_SQ(3, 9)], XQ_PIECE(XQ_BLACK, XQ_KING));
    assert_int_equal(pos[1].sq[XQ_SQ(3, 8)], XQ_PIECE(XQ_BLACK, XQ_KING));
    assert_int_equal(pos[4].sq[XQ_SQ(6, 9)], XQ_PIECE(XQ_RED, XQ_ROOK));
    xq_free(pos);
    /* a move the engine refuses ends the replay there */
    g->plies[2].mv = XQ_MOVE(XQ_SQ(0, 0), XQ_SQ(0, 1));
    assert_int_equal(rep_replay(g, &pos, &known), XQ_OK);
    assert_int_equal(known, 2);
    xq_free(pos);
    /* an invalid start FEN: no position at all */
    snprintf(g->start_fen, sizeof g->start_fen, "%s", "9/9/9 w");
    assert_int_equal(rep_replay(g, &pos, &known), XQ_OK);
    assert_int_equal(known, -1);
    xq_free(pos);
    xq_game_destroy(&g);
    assert_int_equal(rep_iccs_parse("j0a0"), XQ_MOVE_NONE);
    assert_int_equal(rep_iccs_parse("h2e2x"), XQ_MOVE_NONE);
    assert_int_equal(rep_iccs_parse("h2e2"), XQ_MOVE(XQ_SQ(7, 2), XQ_SQ(4, 2)));
}

static void test_oom(void **state)
{
    xq_game *g = fx_game();
    long n;
    int ok = 0;
    (void)state;
    for (n = 0; n < 20000 && !ok; n++) {
        xq_strbuf sb = XQ_STRBUF_INIT;
        xq_status st;
        xq_alloc_fail_after(n);
        st = xq_report_html(g, NULL, &sb);
        xq_alloc_fail_after(-1);
        assert_true(st == XQ_OK || st == XQ_ENOMEM);
        ok = st == XQ_OK;
        xq_strbuf_free(&sb);
    }
    assert_true(ok);
    xq_game_destroy(&g);
}

static void write_to(const char *dir, const char *name, const xq_strbuf *sb)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(xq_report_write_file_atomic(path, sb->data, sb->len), XQ_OK);
}

/* Sample outputs for the browser test; a no-op unless asked for. */
static void test_write_samples(void **state)
{
    const char *dir = getenv("XQ_REPORT_SAMPLE_DIR");
    xq_game *g, *b, *f;
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_summary_row rows[3];
    xq_html_options o = { "index.html", "sample.corrections.json" };
    int i;
    (void)state;
    if (!dir || !*dir)
        skip();
    mkdir(dir, 0777);
    g = fx_game();
    b = fx_broken_game();
    f = fx_fen_game();
    assert_int_equal(xq_report_html(g, &o, &sb), XQ_OK);
    write_to(dir, "sample.html", &sb);
    xq_strbuf_reset(&sb);
    assert_int_equal(xq_report_json(g, &sb), XQ_OK);
    write_to(dir, "sample.json", &sb);
    xq_strbuf_reset(&sb);
    assert_int_equal(xq_report_html(b, &o, &sb), XQ_OK);
    write_to(dir, "broken.html", &sb);
    xq_strbuf_reset(&sb);
    assert_int_equal(xq_report_html(f, &o, &sb), XQ_OK);
    write_to(dir, "clean.html", &sb);
    xq_strbuf_reset(&sb);
    assert_int_equal(xq_summary_row_from_game(g, "sample", &rows[0]), XQ_OK);
    assert_int_equal(xq_summary_row_from_game(b, "broken", &rows[1]), XQ_OK);
    assert_int_equal(xq_summary_row_from_game(f, "clean", &rows[2]), XQ_OK);
    assert_int_equal(xq_report_index_html(rows, 3, &sb), XQ_OK);
    write_to(dir, "index.html", &sb);
    xq_strbuf_reset(&sb);
    assert_int_equal(xq_report_summary_csv(rows, 3, &sb), XQ_OK);
    write_to(dir, "summary.csv", &sb);
    for (i = 0; i < 3; i++)
        xq_summary_row_clear(&rows[i]);
    xq_strbuf_free(&sb);
    xq_game_destroy(&g);
    xq_game_destroy(&b);
    xq_game_destroy(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_doubtful_illegal),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_crop_png),
        cmocka_unit_test(test_broken_and_clean),
        cmocka_unit_test(test_escape_helpers),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_oom),
        cmocka_unit_test(test_write_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

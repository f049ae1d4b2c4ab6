/* test_report_corrections.c - the corrections file reader, and the atomic
 * file writer. With XQ_CORRECTIONS_FILE and XQ_CORRECTIONS_EXPECT
 * ("ply:move;ply:move") set, also checks a file saved by the browser
 * (tests/cli/report_html.sh). */
#include <sys/stat.h>
#include <unistd.h>
#include "test_report_fixture.h"

static xq_status parse(const char *s, xq_corrections **pc)
{
    return xq_corrections_parse(s, strlen(s), pc);
}

static void test_parse_good(void **state)
{
    xq_corrections *c = NULL;
    (void)state;
    assert_int_equal(parse("{\"schema\":\"xqscan-corrections/1\",\"source\":\"r3/b7.png\","
                           "\"input_sha256\":\"abc\",\"future\":1,\"plies\":["
                           "{\"ply\":5,\"move\":\"b2c2\"},{\"ply\":3,\"move\":\"马八进七\",\"note\":\"x\"}]}",
                           &c), XQ_OK);
    assert_non_null(c);
    assert_string_equal(c->source, "r3/b7.png");
    assert_string_equal(c->input_sha256, "abc");
    assert_int_equal(c->nplies, 2);
    assert_int_equal(c->plies[0].ply, 5);
    assert_string_equal(c->plies[0].move, "b2c2");
    assert_string_equal(xq_corrections_find(c, 3), "马八进七");
    assert_null(xq_corrections_find(c, 4));
    assert_null(xq_corrections_find(NULL, 4));
    xq_corrections_destroy(&c);
    assert_null(c);
    xq_corrections_destroy(&c);
    xq_corrections_destroy(NULL);
    /* source and hash may be absent; no plies is fine */
    assert_int_equal(parse("{\"schema\":\"xqscan-corrections/1\",\"plies\":[]}", &c), XQ_OK);
    assert_string_equal(c->source, "");
    assert_string_equal(c->input_sha256, "");
    assert_int_equal(c->nplies, 0);
    xq_corrections_destroy(&c);
}

static void test_parse_bad(void **state)
{
    static const char *const BAD[] = {
        "", "not json", "[]", "{\"plies\":[]}",
        "{\"schema\":\"xqscan-corrections/2\",\"plies\":[]}",
        "{\"schema\":\"xqscan-corrections/1\"}",
        "{\"schema\":\"xqscan-corrections/1\",\"plies\":[{\"ply\":0,\"move\":\"a0a1\"}]}",
        "{\"schema\":\"xqscan-corrections/1\",\"plies\":[{\"ply\":1.5,\"move\":\"a0a1\"}]}",
        "{\"schema\":\"xqscan-corrections/1\",\"plies\":[{\"ply\":\"3\",\"move\":\"a0a1\"}]}",
        "{\"schema\":\"xqscan-corrections/1\",\"plies\":[{\"ply\":3}]}",
        "{\"schema\":\"xqscan-corrections/1\",\"plies\":[{\"ply\":3,\"move\":\" \"}]}",
        "{\"schema\":\"xqscan-corrections/1\",\"plies\":[{\"ply\":3,\"move\":\"a0a1\"},"
        "{\"ply\":3,\"move\":\"a0a2\"}]}",
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        xq_corrections *c = (xq_corrections *)1;
        if (parse(BAD[i], &c) != XQ_EINVAL)
            fail_msg("accepted: %s", BAD[i]);
        assert_null(c);
    }
    assert_int_equal(xq_corrections_parse(NULL, 0, NULL), XQ_EINVAL);
}

static void test_read_file_and_atomic_write(void **state)
{
    char path[512];
    const char *text = "{\"schema\":\"xqscan-corrections/1\",\"plies\":[{\"ply\":2,\"move\":\"h9g7\"}]}";
    xq_corrections *c;
    struct stat st;
    (void)state;
    snprintf(path, sizeof path, "%s/test_corr.%ld.json", XQ_BINARY_DIR, (long)getpid());
    assert_int_equal(xq_report_write_file_atomic(path, text, strlen(text)), XQ_OK);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal((size_t)st.st_size, strlen(text));
    assert_int_equal(xq_corrections_read(path, &c), XQ_OK);
    assert_string_equal(xq_corrections_find(c, 2), "h9g7");
    xq_corrections_destroy(&c);
    /* replacing keeps no temporary behind */
    assert_int_equal(xq_report_write_file_atomic(path, "x", 1), XQ_OK);
    {
        char tmp[600];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
        assert_int_not_equal(stat(tmp, &st), 0);
    }
    assert_int_equal(xq_corrections_read(path, &c), XQ_EINVAL);
    unlink(path);
    assert_int_equal(xq_corrections_read(path, &c), XQ_EIO);
    assert_null(c);
    assert_int_equal(xq_report_write_file_atomic("/nonexistent-dir/x/y", "x", 1), XQ_EIO);
    assert_int_equal(xq_report_write_file_atomic(NULL, "x", 1), XQ_EINVAL);
    assert_int_equal(xq_report_write_file_atomic(path, NULL, 1), XQ_EINVAL);
    /* an empty file is allowed */
    assert_int_equal(xq_report_write_file_atomic(path, NULL, 0), XQ_OK);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0);
    unlink(path);
}

static void test_oom(void **state)
{
    const char *text = "{\"schema\":\"xqscan-corrections/1\",\"source\":\"s\",\"plies\":["
                       "{\"ply\":2,\"move\":\"h9g7\"},{\"ply\":4,\"move\":\"车９平８\"}]}";
    long n;
    int ok = 0;
    (void)state;
    for (n = 0; n < 100 && !ok; n++) {
        xq_corrections *c = NULL;
        xq_status st;
        xq_alloc_fail_after(n);
        st = parse(text, &c);
        xq_alloc_fail_after(-1);
        assert_true(st == XQ_OK || st == XQ_ENOMEM);
        ok = st == XQ_OK;
        if (!ok)
            assert_null(c);
        xq_corrections_destroy(&c);
    }
    assert_true(ok);
}

/* The file the HTML report's review mode saved in the browser test. */
static void test_browser_file(void **state)
{
    const char *path = getenv("XQ_CORRECTIONS_FILE");
    const char *expect = getenv("XQ_CORRECTIONS_EXPECT");
    xq_corrections *c = NULL;
    char buf[1024], *tok, *save = NULL;
    size_t n = 0;
    (void)state;
    if (!path || !expect)
        skip();
    assert_int_equal(xq_corrections_read(path, &c), XQ_OK);
    assert_string_equal(c->source, "round3/board07.png");
    assert_string_equal(c->input_sha256,
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
    snprintf(buf, sizeof buf, "%s", expect);
    for (tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(tok, ':');
        const char *got;
        assert_non_null(colon);
        *colon = '\0';
        got = xq_corrections_find(c, atoi(tok));
        if (!got || strcmp(got, colon + 1) != 0)
            fail_msg("ply %s: want %s, got %s", tok, colon + 1, got ? got : "(none)");
        n++;
    }
    assert_int_equal(c->nplies, n);
    xq_corrections_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),
        cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_read_file_and_atomic_write),
        cmocka_unit_test(test_oom),
        cmocka_unit_test(test_browser_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests of core/: status strings, allocator fault injection, strbuf,
 * UTF-8, log sink and the xq_game container. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "log.h"
#include "strbuf.h"
#include "utf8.h"
#include "xq_core.h"
#include "xqscan/xq_game.h"

static void test_status_str(void **state)
{
    (void)state;
    assert_string_equal(xq_status_str(XQ_OK), "ok");
    assert_string_equal(xq_status_str(XQ_ENOMEM), "out of memory");
    assert_string_equal(xq_status_str((xq_status)999), "unknown status");
}

static xq_status fails_inside(void)
{
    XQ_FAIL_IF(1, XQ_EINVAL, "always");
    return XQ_OK;
}

static xq_status tries(void)
{
    XQ_TRY(fails_inside());
    return XQ_OK;
}

static void test_try_macros(void **state)
{
    (void)state;
    assert_int_equal(tries(), XQ_EINVAL);
    assert_non_null(strstr(xq_status_last_site(), "fails_inside()"));
}

static void test_alloc_injection(void **state)
{
    void *a, *b;
    (void)state;
    xq_alloc_fail_after(1);
    a = xq_malloc(10);
    b = xq_malloc(10);
    xq_alloc_fail_after(-1);
    assert_non_null(a);
    assert_null(b);
    xq_free(a);
    assert_null(xq_strdup(NULL));
    a = xq_strndup("abcdef", 3);
    assert_string_equal(a, "abc");
    xq_free(a);
}

static void test_strbuf(void **state)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    char *s;
    int i;
    (void)state;
    assert_string_equal(xq_strbuf_cstr(&sb), "");
    for (i = 0; i < 100; i++)
        assert_int_equal(xq_strbuf_printf(&sb, "%d,", i), XQ_OK);
    assert_int_equal(xq_strbuf_putc(&sb, '!'), XQ_OK);
    assert_int_equal(strncmp(xq_strbuf_cstr(&sb), "0,1,2,", 6), 0);
    assert_int_equal(sb.data[sb.len - 1], '!');
    xq_alloc_fail_after(0);
    assert_int_equal(xq_strbuf_puts(&sb, "x"), sb.len + 1 < sb.cap ? XQ_OK : XQ_ENOMEM);
    xq_alloc_fail_after(-1);
    xq_strbuf_reset(&sb);
    assert_int_equal(sb.len, 0);
    assert_int_equal(xq_strbuf_puts(&sb, "炮二平五"), XQ_OK);
    s = xq_strbuf_take(&sb);
    assert_string_equal(s, "炮二平五");
    assert_null(sb.data);
    xq_free(s);
    xq_strbuf_free(&sb);
    xq_strbuf_free(NULL);
    assert_int_equal(xq_strbuf_append(NULL, "a", 1), XQ_EINVAL);
}

static void test_utf8(void **state)
{
    uint32_t cp;
    char out[4];
    (void)state;
    assert_int_equal(xq_utf8_decode("炮", 3, &cp), 3);
    assert_int_equal(cp, 0x70AE);
    assert_int_equal(xq_utf8_decode("\xE7\x82", 2, &cp), 1); /* truncated */
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(xq_utf8_decode("\xC0\x80", 2, &cp), 1); /* overlong */
    assert_int_equal(xq_utf8_encode(0xFF15, out), 3);
    assert_int_equal(xq_utf8_decode(out, 3, &cp), 3);
    assert_int_equal(xq_utf8_halfwidth(cp), '5');
    assert_int_equal(xq_utf8_halfwidth(0x3000), ' ');
    assert_int_equal(xq_utf8_halfwidth(0x70AE), 0x70AE);
    assert_true(xq_utf8_valid("马8进7", strlen("马8进7")));
    assert_false(xq_utf8_valid("\xFF\xFE", 2));
    assert_int_equal(xq_utf8_encode(0xD800, out), 0);
}

static int log_calls;
static void sink(void *ud, xq_log_level lv, const char *msg)
{
    (void)lv;
    log_calls++;
    strcpy(ud, msg);
}

static void test_log(void **state)
{
    char got[64] = "";
    xq_log_sink s = { sink, got };
    (void)state;
    xq_log(&s, XQ_LOG_INFO, "sheet %d", 7);
    xq_log(NULL, XQ_LOG_INFO, "dropped");
    assert_int_equal(log_calls, 1);
    assert_string_equal(got, "sheet 7");
}

static void test_game(void **state)
{
    xq_game *g = NULL;
    xq_ply *p;
    (void)state;
    assert_int_equal(xq_game_create(&g), XQ_OK);
    assert_int_equal(g->owner, -1);
    assert_int_equal(g->unrecorded.threshold, 16);
    assert_false(xq_game_needs_arbiter(NULL));
    assert_false(xq_game_needs_arbiter(g));
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(p->ply, 1);
    assert_false(xq_game_needs_arbiter(g));
    p->review = true;
    assert_true(xq_game_needs_arbiter(g));
    p->review = false;
    assert_int_equal(xq_game_add_finding(g, 0, XQ_SEV_INFO, "end", "", "info"),
                     XQ_OK);
    assert_false(xq_game_needs_arbiter(g));
    assert_int_equal(p->side, XQ_RED);
    assert_int_equal(xq_game_add_ply(g, &p), XQ_OK);
    assert_int_equal(p->side, XQ_BLACK);
    assert_string_equal(p->read, "");
    assert_int_equal(xq_game_add_finding(g, 2, XQ_SEV_ERROR, "illegal_move",
                                         "WXF 4.5", "ply %d", 2), XQ_OK);
    assert_string_equal(g->findings[1].message, "ply 2");
    assert_ptr_equal(xq_game_find_finding(g, "illegal_move", 2), &g->findings[1]);
    assert_ptr_equal(xq_game_find_finding(g, "illegal_move", -1), &g->findings[1]);
    assert_ptr_equal(xq_game_find_finding(g, "end", 0), &g->findings[0]);
    assert_null(xq_game_find_finding(g, "illegal_move", 3));
    assert_null(xq_game_find_finding(g, "skipped_move", -1));
    assert_null(xq_game_find_finding(NULL, "end", -1));
    assert_null(xq_game_find_finding(g, NULL, -1));
    assert_true(xq_game_needs_arbiter(g));
    assert_int_equal(xq_game_set_str(&g->header.red, "<script>"), XQ_OK);
    assert_string_equal(g->header.red, "<script>");
    assert_string_equal(xq_ply_status_name(XQ_PLY_MISSING), "missing");
    assert_string_equal(xq_move_source_name(XQ_SRC_ASSUMED), "assumed");
    assert_string_equal(xq_severity_name(XQ_SEV_WARNING), "warning");
    assert_string_equal(xq_end_position_name(XQ_END_STALEMATE), "stalemate");
    xq_game_destroy(&g);
    assert_null(g);
    xq_game_destroy(&g);
    assert_int_equal(xq_game_create(NULL), XQ_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_str),  cmocka_unit_test(test_try_macros),
        cmocka_unit_test(test_alloc_injection), cmocka_unit_test(test_strbuf),
        cmocka_unit_test(test_utf8),        cmocka_unit_test(test_log),
        cmocka_unit_test(test_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

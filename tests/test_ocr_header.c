/* test_ocr_header.c - the header label matcher of ocr/header.c (compiled in:
 * its helpers are static): Chinese labels anywhere, Latin labels as whole
 * words in any case with one misread letter in long words, values that are
 * only punctuation or a label refused. The header read on whole pages is
 * checked through the scanner (tests/test_cli_scan.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../ocr/header.c"

static void test_latin_label(void **state)
{
    (void)state;
    assert_true(latin_label("Result", 6, "Result"));
    assert_true(latin_label("RESULT", 6, "Result"));
    assert_true(latin_label("Resutt", 6, "Result"));   /* one letter misread */
    assert_true(latin_label("Reslt", 5, "Result"));    /* one dropped */
    assert_true(latin_label("Rounds", 6, "Round"));    /* one added */
    assert_false(latin_label("Rsutt", 5, "Result"));   /* two */
    assert_true(latin_label("red", 3, "Red"));
    assert_false(latin_label("Rad", 3, "Red"));        /* short: exact only */
    assert_false(latin_label("Reed", 4, "Red"));
    assert_false(latin_label("Fred", 4, "Red"));
    assert_false(latin_label("Dat", 3, "Date"));
}

static void test_find_label(void **state)
{
    int f = -1;
    size_t n = 0;
    const char *line = "Tournament Masters 1999", *p;
    (void)state;
    p = find_label(line, &f, &n);
    assert_ptr_equal(p, line);
    assert_int_equal(f, XQ_HDR_EVENT);
    assert_int_equal(n, 10);
    line = "Fred Blackburn Open";            /* words that only contain labels */
    assert_null(find_label(line, &f, &n));
    line = "He Bin Resutt 1/2-1/2";
    p = find_label(line, &f, &n);
    assert_ptr_equal(p, line + 7);
    assert_int_equal(f, XQ_HDR_RESULT);
    line = "比赛日期 2004年";
    p = find_label(line, &f, &n);
    assert_ptr_equal(p, line);
    assert_int_equal(f, XQ_HDR_DATE);
    assert_int_equal(n, strlen("比赛日期"));
    line = "第7台 Round 5 红方 许银川";       /* the earliest label wins */
    p = find_label(line, &f, &n);
    assert_int_equal(f, XQ_HDR_ROUND);
    assert_ptr_equal(p, strstr(line, "Round"));
}

static void test_is_value(void **state)
{
    (void)state;
    assert_true(is_value("He Bin"));
    assert_true(is_value("许银川"));
    assert_true(is_value("7"));
    assert_false(is_value("，"));
    assert_false(is_value(",.:|"));
    assert_false(is_value("Resutt"));
    assert_false(is_value("黑方"));
    assert_true(is_value("Black Knights club"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latin_label),
        cmocka_unit_test(test_find_label),
        cmocka_unit_test(test_is_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

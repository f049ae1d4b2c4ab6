/* test_shard.h - run a cmocka group whole, filtered or one shard of it
 * (tests only).
 *
 * XQ_TEST_FILTER=pattern  only the tests matching it (cmocka's filter)
 * XQ_TEST_SHARD=k/n       only tests k, k + n, k + 2n ... (k from 1): CTest
 *                         registers a long test file as n entries that run
 *                         side by side (tests/CMakeLists.txt,
 *                         XQ_SHARDS_<name>) */
#ifndef XQ_TESTS_TEST_SHARD_H
#define XQ_TESTS_TEST_SHARD_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

/* Parse "k/n" (1 <= k <= n); false if s is not one. */
static inline int xq_shard_parse(const char *s, size_t *k, size_t *n)
{
    unsigned long a, b;
    char c;
    if (!s || sscanf(s, "%lu/%lu%c", &a, &b, &c) != 2 || a < 1 || a > b)
        return 0;
    *k = a;
    *n = b;
    return 1;
}

/* Run tests t[0, count) as the group `name`, with the group's setup and
 * teardown (either may be NULL), as XQ_TEST_FILTER / XQ_TEST_SHARD say. */
static inline int xq_run_group(const char *name, const struct CMUnitTest *t,
                               size_t count, CMFixtureFunction setup,
                               CMFixtureFunction teardown)
{
    struct CMUnitTest *sel;
    size_t i, k, n, m = 0;
    int rc;
    if (getenv("XQ_TEST_FILTER"))
        cmocka_set_test_filter(getenv("XQ_TEST_FILTER"));
    if (!getenv("XQ_TEST_SHARD"))
        return _cmocka_run_group_tests(name, t, count, setup, teardown);
    if (!xq_shard_parse(getenv("XQ_TEST_SHARD"), &k, &n)) {
        fprintf(stderr, "%s: XQ_TEST_SHARD must be k/n (1 <= k <= n)\n", name);
        return 1;
    }
    sel = malloc(count * sizeof *sel);
    if (!sel)
        return 1;
    for (i = k - 1; i < count; i += n)
        sel[m++] = t[i];
    rc = _cmocka_run_group_tests(name, sel, m, setup, teardown);
    free(sel);
    return rc;
}

/* The same without group fixtures. */
static inline int xq_run_tests(const char *name, const struct CMUnitTest *t,
                               size_t count)
{
    return xq_run_group(name, t, count, NULL, NULL);
}

#endif

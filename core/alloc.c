#include "xq_alloc.h"

#include <stdlib.h>
#include <string.h>

/* Fault injection counter; -1 means off. Only tests change it, and tests
 * run single-threaded, so a plain static is enough. */
static long fail_countdown = -1;

static int should_fail(void)
{
    if (fail_countdown < 0)
        return 0;
    if (fail_countdown == 0)
        return 1;
    fail_countdown--;
    return 0;
}

void xq_alloc_fail_after(long n) { fail_countdown = n; }

void *xq_malloc(size_t n)
{
    if (should_fail())
        return NULL;
    return malloc(n ? n : 1);
}

void *xq_calloc(size_t count, size_t n)
{
    if (should_fail())
        return NULL;
    return calloc(count ? count : 1, n ? n : 1);
}

void *xq_realloc(void *p, size_t n)
{
    if (should_fail())
        return NULL;
    return realloc(p, n ? n : 1);
}

void xq_free(void *p) { free(p); }

char *xq_strndup(const char *s, size_t n)
{
    char *d;
    if (!s)
        return NULL;
    d = xq_malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *xq_strdup(const char *s) { return s ? xq_strndup(s, strlen(s)) : NULL; }

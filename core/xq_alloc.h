/* xq_alloc.h - the library's allocator (sdsalloc.h style).
 *
 * Every allocation in the library goes through xq_malloc / xq_calloc /
 * xq_realloc / xq_free so that tests can inject out-of-memory failures with
 * xq_alloc_fail_after(). Memory owned by Leptonica or Tesseract is never
 * freed with xq_free.
 */
#ifndef XQ_ALLOC_H
#define XQ_ALLOC_H

#include <stddef.h>

void *xq_malloc(size_t n);
void *xq_calloc(size_t count, size_t n);
void *xq_realloc(void *p, size_t n);
void  xq_free(void *p);
char *xq_strdup(const char *s);               /* NULL in, NULL out */
char *xq_strndup(const char *s, size_t n);

/* Tests only: make the n-th allocation from now on (0 = the next one) and
 * every later one fail; n < 0 switches injection off. */
void xq_alloc_fail_after(long n);

#endif

/* utf8.h - UTF-8 decoding and full-width / half-width normalisation. */
#ifndef XQ_UTF8_H
#define XQ_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decode one code point from s (at most n bytes). Returns the number of
 * bytes consumed (1..4) and stores the code point in *pcp; on an invalid or
 * truncated sequence returns 1 and stores 0xFFFD. Returns 0 when n == 0. */
size_t xq_utf8_decode(const char *s, size_t n, uint32_t *pcp);

/* Encode cp into out (at least 4 bytes). Returns bytes written (0 if cp is
 * not a valid scalar value). */
size_t xq_utf8_encode(uint32_t cp, char *out);

/* 1 if the whole buffer is valid UTF-8 (no overlongs, no surrogates). */
int xq_utf8_valid(const char *s, size_t n);

/* Full-width ASCII (U+FF01..U+FF5E) and the ideographic space (U+3000) to
 * their ASCII counterparts; every other code point unchanged. */
uint32_t xq_utf8_halfwidth(uint32_t cp);

#endif

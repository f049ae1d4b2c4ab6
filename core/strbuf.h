/* strbuf.h - a growable NUL-terminated byte buffer.
 *
 * Appends return xq_status; after a failed append the buffer keeps its old
 * contents and stays valid (unlike sds's reassign idiom).
 */
#ifndef XQ_STRBUF_H
#define XQ_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include "xqscan/xq_status.h"

typedef struct {
    char  *data;  /* always NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
} xq_strbuf;

#define XQ_STRBUF_INIT { NULL, 0, 0 }

xq_status xq_strbuf_append(xq_strbuf *sb, const char *s, size_t n);
xq_status xq_strbuf_puts(xq_strbuf *sb, const char *s);
xq_status xq_strbuf_putc(xq_strbuf *sb, char c);
xq_status xq_strbuf_printf(xq_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
xq_status xq_strbuf_vprintf(xq_strbuf *sb, const char *fmt, va_list ap);
/* Returns "" for an empty buffer, never NULL. */
const char *xq_strbuf_cstr(const xq_strbuf *sb);
/* Hands the string to the caller (free with xq_free); the buffer is reset. */
char *xq_strbuf_take(xq_strbuf *sb);
void xq_strbuf_reset(xq_strbuf *sb);   /* len = 0, keeps memory */
void xq_strbuf_free(xq_strbuf *sb);    /* releases memory; NULL is fine */

#endif

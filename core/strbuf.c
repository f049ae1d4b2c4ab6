#include "strbuf.h"

#include <stdio.h>
#include <string.h>
#include "xq_alloc.h"

static xq_status reserve(xq_strbuf *sb, size_t extra)
{
    size_t need, cap;
    char *p;
    if (extra > (size_t)-1 / 2 - sb->len)
        return XQ_ENOMEM;
    need = sb->len + extra + 1;
    if (need <= sb->cap)
        return XQ_OK;
    cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    p = xq_realloc(sb->data, cap);
    if (!p)
        return XQ_ENOMEM;
    sb->data = p;
    sb->cap = cap;
    return XQ_OK;
}

xq_status xq_strbuf_append(xq_strbuf *sb, const char *s, size_t n)
{
    xq_status st;
    if (!sb || (!s && n))
        return XQ_EINVAL;
    if ((st = reserve(sb, n)) != XQ_OK)
        return st;
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
    return XQ_OK;
}

xq_status xq_strbuf_puts(xq_strbuf *sb, const char *s)
{
    return xq_strbuf_append(sb, s ? s : "", s ? strlen(s) : 0);
}

xq_status xq_strbuf_putc(xq_strbuf *sb, char c) { return xq_strbuf_append(sb, &c, 1); }

xq_status xq_strbuf_vprintf(xq_strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;
    xq_status st;
    if (!sb || !fmt)
        return XQ_EINVAL;
    va_copy(ap2, ap);
    n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return XQ_EINVAL;
    if ((st = reserve(sb, (size_t)n)) != XQ_OK)
        return st;
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
    return XQ_OK;
}

xq_status xq_strbuf_printf(xq_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    xq_status st;
    va_start(ap, fmt);
    st = xq_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
    return st;
}

const char *xq_strbuf_cstr(const xq_strbuf *sb)
{
    return (sb && sb->data) ? sb->data : "";
}

char *xq_strbuf_take(xq_strbuf *sb)
{
    char *s;
    if (!sb)
        return NULL;
    s = sb->data ? sb->data : xq_strdup("");
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void xq_strbuf_reset(xq_strbuf *sb)
{
    if (sb && sb->data) {
        sb->len = 0;
        sb->data[0] = '\0';
    }
}

void xq_strbuf_free(xq_strbuf *sb)
{
    if (!sb)
        return;
    xq_free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

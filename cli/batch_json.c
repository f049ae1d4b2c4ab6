/* batch_json.c - small strict JSON reader and writer helpers. */
#include "batch_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "xq_core.h"

typedef struct {
    const char *s;
    size_t n, i;
    int depth;
} parser;

static void ws(parser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
                           p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int hex4(parser *p, unsigned *pv)
{
    unsigned v = 0;
    int k;
    if (p->n - p->i < 4)
        return -1;
    for (k = 0; k < 4; k++) {
        char c = p->s[p->i++];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *pv = v;
    return 0;
}

static xq_status parse_string(parser *p, char **pout)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_status st = XQ_EINVAL;
    *pout = NULL;
    p->i++; /* opening quote */
    for (;;) {
        unsigned char c;
        if (p->i >= p->n)
            goto out;
        c = (unsigned char)p->s[p->i];
        if (c == '"') {
            p->i++;
            break;
        }
        if (c < 0x20)
            goto out;
        if (c == '\\') {
            char e;
            p->i++;
            if (p->i >= p->n)
                goto out;
            e = p->s[p->i++];
            switch (e) {
            case '"': case '\\': case '/':
                if (xq_strbuf_putc(&sb, e)) { st = XQ_ENOMEM; goto out; }
                break;
            case 'b': if (xq_strbuf_putc(&sb, '\b')) { st = XQ_ENOMEM; goto out; } break;
            case 'f': if (xq_strbuf_putc(&sb, '\f')) { st = XQ_ENOMEM; goto out; } break;
            case 'n': if (xq_strbuf_putc(&sb, '\n')) { st = XQ_ENOMEM; goto out; } break;
            case 'r': if (xq_strbuf_putc(&sb, '\r')) { st = XQ_ENOMEM; goto out; } break;
            case 't': if (xq_strbuf_putc(&sb, '\t')) { st = XQ_ENOMEM; goto out; } break;
            case 'u': {
                unsigned v, lo;
                char enc[4];
                size_t k;
                if (hex4(p, &v))
                    goto out;
                if (v >= 0xD800 && v <= 0xDBFF) {
                    if (p->n - p->i < 6 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                        goto out;
                    p->i += 2;
                    if (hex4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                        goto out;
                    v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                } else if (v >= 0xDC00 && v <= 0xDFFF) {
                    goto out;
                }
                if (v == 0)
                    goto out; /* NUL cannot live in a C string */
                k = xq_utf8_encode(v, enc);
                if (!k || xq_strbuf_append(&sb, enc, k)) { st = XQ_ENOMEM; goto out; }
                break;
            }
            default:
                goto out;
            }
        } else {
            size_t start = p->i;
            while (p->i < p->n && p->s[p->i] != '"' && p->s[p->i] != '\\' &&
                   (unsigned char)p->s[p->i] >= 0x20)
                p->i++;
            if (!xq_utf8_valid(p->s + start, p->i - start))
                goto out;
            if (xq_strbuf_append(&sb, p->s + start, p->i - start)) {
                st = XQ_ENOMEM;
                goto out;
            }
        }
    }
    if (!sb.data && xq_strbuf_append(&sb, "", 0)) {
        st = XQ_ENOMEM;
        goto out;
    }
    *pout = xq_strbuf_take(&sb);
    if (!*pout) {
        *pout = xq_strdup("");
        if (!*pout)
            return XQ_ENOMEM;
    }
    return XQ_OK;
out:
    xq_strbuf_free(&sb);
    return st;
}

static xq_status parse_value(parser *p, xq_json **pout);

static xq_status parse_container(parser *p, xq_json *j, char close)
{
    xq_json **tail = &j->child;
    ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
        return XQ_OK;
    }
    for (;;) {
        xq_json *item = NULL;
        char *key = NULL;
        xq_status st;
        ws(p);
        if (close == '}') {
            if (p->i >= p->n || p->s[p->i] != '"')
                return XQ_EINVAL;
            XQ_TRY(parse_string(p, &key));
            ws(p);
            if (p->i >= p->n || p->s[p->i] != ':') {
                xq_free(key);
                return XQ_EINVAL;
            }
            p->i++;
        }
        st = parse_value(p, &item);
        if (st) {
            xq_free(key);
            return st;
        }
        item->key = key;
        *tail = item;
        tail = &item->next;
        ws(p);
        if (p->i >= p->n)
            return XQ_EINVAL;
        if (p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->s[p->i] == close) {
            p->i++;
            return XQ_OK;
        }
        return XQ_EINVAL;
    }
}

static xq_status parse_value(parser *p, xq_json **pout)
{
    xq_json *j;
    xq_status st = XQ_OK;
    char c;
    *pout = NULL;
    ws(p);
    if (p->i >= p->n)
        return XQ_EINVAL;
    j = xq_calloc(1, sizeof *j);
    if (!j)
        return XQ_ENOMEM;
    c = p->s[p->i];
    if (c == '{' || c == '[') {
        if (++p->depth > 64) {
            st = XQ_EINVAL;
        } else {
            p->i++;
            j->type = c == '{' ? XQ_JSON_OBJECT : XQ_JSON_ARRAY;
            st = parse_container(p, j, c == '{' ? '}' : ']');
            p->depth--;
        }
    } else if (c == '"') {
        j->type = XQ_JSON_STRING;
        st = parse_string(p, &j->str);
    } else if (p->n - p->i >= 4 && !memcmp(p->s + p->i, "true", 4)) {
        j->type = XQ_JSON_BOOL, j->b = true, p->i += 4;
    } else if (p->n - p->i >= 5 && !memcmp(p->s + p->i, "false", 5)) {
        j->type = XQ_JSON_BOOL, p->i += 5;
    } else if (p->n - p->i >= 4 && !memcmp(p->s + p->i, "null", 4)) {
        j->type = XQ_JSON_NULL, p->i += 4;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        char buf[64];
        size_t k, start = p->i;
        char *end;
        /* RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
#define DIGITS(p) ((p)->i < (p)->n && (p)->s[(p)->i] >= '0' && (p)->s[(p)->i] <= '9')
        if (p->s[p->i] == '-')
            p->i++;
        if (!DIGITS(p)) {
            st = XQ_EINVAL;
        } else if (p->s[p->i] == '0') {
            p->i++;
        } else {
            while (DIGITS(p))
                p->i++;
        }
        if (!st && p->i < p->n && p->s[p->i] == '.') {
            p->i++;
            if (!DIGITS(p))
                st = XQ_EINVAL;
            while (DIGITS(p))
                p->i++;
        }
        if (!st && p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
            p->i++;
            if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
                p->i++;
            if (!DIGITS(p))
                st = XQ_EINVAL;
            while (DIGITS(p))
                p->i++;
        }
#undef DIGITS
        k = p->i - start;
        if (!st && k < sizeof buf) {
            memcpy(buf, p->s + start, k);
            buf[k] = '\0';
            j->type = XQ_JSON_NUMBER;
            j->num = strtod(buf, &end);
            if (*end || !isfinite(j->num))
                st = XQ_EINVAL;
        } else {
            st = XQ_EINVAL;
        }
    } else {
        st = XQ_EINVAL;
    }
    if (st) {
        xq_json_free(&j);
        return st;
    }
    *pout = j;
    return XQ_OK;
}

xq_status xq_json_parse(const char *text, size_t len, xq_json **pjson)
{
    parser p;
    xq_status st;
    if (pjson)
        *pjson = NULL;
    XQ_FAIL_IF(!text || !pjson, XQ_EINVAL, "json: NULL argument");
    p.s = text, p.n = len, p.i = 0, p.depth = 0;
    st = parse_value(&p, pjson);
    if (st)
        return st;
    ws(&p);
    if (p.i != p.n) {
        xq_json_free(pjson);
        return XQ_EINVAL;
    }
    return XQ_OK;
}

xq_status xq_json_parse_file(const char *path, xq_json **pjson)
{
    FILE *f;
    xq_strbuf sb = XQ_STRBUF_INIT;
    char buf[16384];
    size_t got;
    xq_status st = XQ_OK;
    if (pjson)
        *pjson = NULL;
    XQ_FAIL_IF(!path || !pjson, XQ_EINVAL, "json: NULL argument");
    f = fopen(path, "rb");
    if (!f)
        return XQ_EIO;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (sb.len + got > (64u << 20)) {
            st = XQ_ERANGE;
            break;
        }
        if ((st = xq_strbuf_append(&sb, buf, got)))
            break;
    }
    if (!st && ferror(f))
        st = XQ_EIO;
    fclose(f);
    if (!st)
        st = xq_json_parse(xq_strbuf_cstr(&sb), sb.len, pjson);
    xq_strbuf_free(&sb);
    return st;
}

void xq_json_free(xq_json **pjson)
{
    xq_json *j, *c, *next;
    if (!pjson || !*pjson)
        return;
    j = *pjson;
    for (c = j->child; c; c = next) {
        next = c->next;
        xq_json_free(&c);
    }
    xq_free(j->str);
    xq_free(j->key);
    xq_free(j);
    *pjson = NULL;
}

const xq_json *xq_json_get(const xq_json *j, const char *key)
{
    const xq_json *c;
    if (!j || j->type != XQ_JSON_OBJECT || !key)
        return NULL;
    for (c = j->child; c; c = c->next)
        if (c->key && !strcmp(c->key, key))
            return c;
    return NULL;
}

const char *xq_json_str(const xq_json *j)
{
    return j && j->type == XQ_JSON_STRING ? j->str : NULL;
}

size_t xq_json_len(const xq_json *j)
{
    const xq_json *c;
    size_t n = 0;
    if (!j || (j->type != XQ_JSON_ARRAY && j->type != XQ_JSON_OBJECT))
        return 0;
    for (c = j->child; c; c = c->next)
        n++;
    return n;
}

xq_status xq_json_put_str(xq_strbuf *sb, const char *s)
{
    static const char hexd[] = "0123456789abcdef";
    if (!s)
        return xq_strbuf_puts(sb, "null");
    XQ_TRY(xq_strbuf_putc(sb, '"'));
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            XQ_TRY(xq_strbuf_putc(sb, '\\'));
            XQ_TRY(xq_strbuf_putc(sb, (char)c));
        } else if (c == '\n') {
            XQ_TRY(xq_strbuf_puts(sb, "\\n"));
        } else if (c == '\t') {
            XQ_TRY(xq_strbuf_puts(sb, "\\t"));
        } else if (c == '\r') {
            XQ_TRY(xq_strbuf_puts(sb, "\\r"));
        } else if (c < 0x20 || c == 0x7f) {
            char u[7] = { '\\', 'u', '0', '0', hexd[c >> 4], hexd[c & 15], 0 };
            XQ_TRY(xq_strbuf_puts(sb, u));
        } else {
            XQ_TRY(xq_strbuf_putc(sb, (char)c));
        }
    }
    return xq_strbuf_putc(sb, '"');
}

xq_status xq_json_write(xq_strbuf *sb, const xq_json *j)
{
    const xq_json *c;
    XQ_FAIL_IF(!sb || !j, XQ_EINVAL, "json_write: NULL");
    switch (j->type) {
    case XQ_JSON_NULL:   return xq_strbuf_puts(sb, "null");
    case XQ_JSON_BOOL:   return xq_strbuf_puts(sb, j->b ? "true" : "false");
    case XQ_JSON_NUMBER: return xq_strbuf_printf(sb, "%.17g", j->num);
    case XQ_JSON_STRING: return xq_json_put_str(sb, j->str);
    case XQ_JSON_ARRAY:
    case XQ_JSON_OBJECT:
        XQ_TRY(xq_strbuf_putc(sb, j->type == XQ_JSON_ARRAY ? '[' : '{'));
        for (c = j->child; c; c = c->next) {
            if (c != j->child)
                XQ_TRY(xq_strbuf_putc(sb, ','));
            if (j->type == XQ_JSON_OBJECT) {
                XQ_TRY(xq_json_put_str(sb, c->key ? c->key : ""));
                XQ_TRY(xq_strbuf_putc(sb, ':'));
            }
            XQ_TRY(xq_json_write(sb, c));
        }
        return xq_strbuf_putc(sb, j->type == XQ_JSON_ARRAY ? ']' : '}');
    }
    return XQ_EINVAL;
}

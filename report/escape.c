/* escape.c - escaping for HTML, <script> JSON, CSV and PGN; UTF-8 cleanup;
 * base64; simplified -> traditional move glyphs. */
#include <string.h>
#include "report_internal.h"
#include "utf8.h"
#include "xq_core.h"

/* Walk s code point by code point; invalid sequences come back as FFFD. */
static size_t next_cp(const char *s, size_t n, uint32_t *pcp)
{
    return xq_utf8_decode(s, n, pcp);
}

static xq_status put_cp(xq_strbuf *sb, uint32_t cp)
{
    char buf[4];
    size_t k = xq_utf8_encode(cp, buf);
    if (!k)
        k = xq_utf8_encode(0xFFFD, buf);
    return xq_strbuf_append(sb, buf, k);
}

char *rep_utf8_clean(const char *s)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    size_t n, i = 0;
    char *out;
    if (!s)
        s = "";
    n = strlen(s);
    if (xq_utf8_valid(s, n))
        return xq_strdup(s);
    while (i < n) {
        uint32_t cp;
        i += next_cp(s + i, n - i, &cp);
        if (put_cp(&sb, cp) != XQ_OK) {
            xq_strbuf_free(&sb);
            return NULL;
        }
    }
    out = xq_strbuf_take(&sb);
    return out ? out : xq_strdup("");
}

xq_status rep_html_esc(xq_strbuf *sb, const char *s)
{
    size_t n, i = 0;
    if (!s)
        return XQ_OK;
    n = strlen(s);
    while (i < n) {
        uint32_t cp;
        size_t k = next_cp(s + i, n - i, &cp);
        const char *ent = NULL;
        switch (cp) {
        case '&': ent = "&amp;"; break;
        case '<': ent = "&lt;"; break;
        case '>': ent = "&gt;"; break;
        case '"': ent = "&quot;"; break;
        case '\'': ent = "&#39;"; break;
        default: break;
        }
        if (ent)
            XQ_TRY(xq_strbuf_puts(sb, ent));
        else if ((cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7F)
            ; /* drop controls */
        else if (cp == 0xFFFD || k == 1)
            XQ_TRY(put_cp(sb, cp));
        else
            XQ_TRY(xq_strbuf_append(sb, s + i, k));
        i += k;
    }
    return XQ_OK;
}

xq_status rep_script_json(xq_strbuf *sb, const char *json)
{
    size_t n, i = 0;
    if (!json)
        return XQ_OK;
    n = strlen(json);
    while (i < n) {
        uint32_t cp;
        size_t k = next_cp(json + i, n - i, &cp);
        if (cp == '<')
            XQ_TRY(xq_strbuf_puts(sb, "\\u003c"));
        else if (cp == '>')
            XQ_TRY(xq_strbuf_puts(sb, "\\u003e"));
        else if (cp == '&')
            XQ_TRY(xq_strbuf_puts(sb, "\\u0026"));
        else if (cp == 0x2028)
            XQ_TRY(xq_strbuf_puts(sb, "\\u2028"));
        else if (cp == 0x2029)
            XQ_TRY(xq_strbuf_puts(sb, "\\u2029"));
        else
            XQ_TRY(put_cp(sb, cp));
        i += k;
    }
    return XQ_OK;
}

xq_status rep_csv_cell(xq_strbuf *sb, const char *s)
{
    size_t n, i = 0;
    if (!s)
        s = "";
    n = strlen(s);
    XQ_TRY(xq_strbuf_putc(sb, '"'));
    if (n && strchr("=+-@\t\r", s[0]))
        XQ_TRY(xq_strbuf_putc(sb, '\''));
    while (i < n) {
        uint32_t cp;
        size_t k = next_cp(s + i, n - i, &cp);
        if (cp == '"')
            XQ_TRY(xq_strbuf_puts(sb, "\"\""));
        else if (cp < 0x20 && cp != '\t')
            XQ_TRY(xq_strbuf_putc(sb, ' ')); /* one row per line */
        else
            XQ_TRY(put_cp(sb, cp));
        i += k;
    }
    return xq_strbuf_putc(sb, '"');
}

xq_status rep_pgn_tag(xq_strbuf *sb, const char *s)
{
    size_t n, i = 0;
    if (!s)
        return XQ_OK;
    n = strlen(s);
    while (i < n) {
        uint32_t cp;
        size_t k = next_cp(s + i, n - i, &cp);
        if (cp == '\\' || cp == '"') {
            XQ_TRY(xq_strbuf_putc(sb, '\\'));
            XQ_TRY(xq_strbuf_putc(sb, (char)cp));
        } else if (cp < 0x20 || cp == 0x7F) {
            XQ_TRY(xq_strbuf_putc(sb, ' '));
        } else {
            XQ_TRY(put_cp(sb, cp));
        }
        i += k;
    }
    return XQ_OK;
}

xq_status rep_pgn_comment(xq_strbuf *sb, const char *s)
{
    size_t n, i = 0;
    if (!s)
        return XQ_OK;
    n = strlen(s);
    while (i < n) {
        uint32_t cp;
        size_t k = next_cp(s + i, n - i, &cp);
        if (cp == '}')
            XQ_TRY(put_cp(sb, 0xFF09)); /* ） */
        else if (cp == '{')
            XQ_TRY(put_cp(sb, 0xFF08)); /* （ */
        else if (cp < 0x20 || cp == 0x7F)
            XQ_TRY(xq_strbuf_putc(sb, ' '));
        else
            XQ_TRY(put_cp(sb, cp));
        i += k;
    }
    return XQ_OK;
}

/* Simplified -> traditional for the glyphs of Xiangqi move text. */
static const struct { uint32_t s, t; } TRAD[] = {
    { 0x8F66, 0x8ECA }, /* 车 車 */
    { 0x9A6C, 0x99AC }, /* 马 馬 */
    { 0x5E05, 0x5E25 }, /* 帅 帥 */
    { 0x5C06, 0x5C07 }, /* 将 將 */
    { 0x8FDB, 0x9032 }, /* 进 進 */
    { 0x540E, 0x5F8C }, /* 后 後 */
};

xq_status rep_traditional(xq_strbuf *sb, const char *s)
{
    size_t n, i = 0, j;
    if (!s)
        return XQ_OK;
    n = strlen(s);
    while (i < n) {
        uint32_t cp;
        size_t k = next_cp(s + i, n - i, &cp);
        for (j = 0; j < XQ_ARRAY_LEN(TRAD); j++)
            if (TRAD[j].s == cp) {
                cp = TRAD[j].t;
                break;
            }
        XQ_TRY(put_cp(sb, cp));
        i += k;
    }
    return XQ_OK;
}

xq_status rep_url_path(xq_strbuf *sb, const char *s)
{
    static const char HEX[] = "0123456789ABCDEF";
    if (!s)
        return XQ_OK;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || strchr("-._~/", c)) {
            XQ_TRY(xq_strbuf_putc(sb, (char)c));
        } else {
            char e[3] = { '%', HEX[c >> 4], HEX[c & 15] };
            XQ_TRY(xq_strbuf_append(sb, e, 3));
        }
    }
    return XQ_OK;
}

xq_status rep_base64(xq_strbuf *sb, const uint8_t *d, size_t n)
{
    static const char A[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i;
    char q[4];
    for (i = 0; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];
        q[0] = A[v >> 18 & 63];
        q[1] = A[v >> 12 & 63];
        q[2] = A[v >> 6 & 63];
        q[3] = A[v & 63];
        XQ_TRY(xq_strbuf_append(sb, q, 4));
    }
    if (i < n) {
        uint32_t v = (uint32_t)d[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)d[i + 1] << 8;
        q[0] = A[v >> 18 & 63];
        q[1] = A[v >> 12 & 63];
        q[2] = i + 1 < n ? A[v >> 6 & 63] : '=';
        q[3] = '=';
        XQ_TRY(xq_strbuf_append(sb, q, 4));
    }
    return XQ_OK;
}

int rep_count_status(const xq_game *g, xq_ply_status st)
{
    size_t i;
    int n = 0;
    for (i = 0; i < g->nplies; i++)
        n += g->plies[i].status == st;
    return n;
}

int rep_count_review(const xq_game *g)
{
    size_t i;
    int n = 0;
    for (i = 0; i < g->nplies; i++)
        n += g->plies[i].review;
    return n;
}

int rep_count_severity(const xq_game *g, xq_severity sev)
{
    size_t i;
    int n = 0;
    for (i = 0; i < g->nfindings; i++)
        n += g->findings[i].severity == sev;
    return n;
}

#include "utf8.h"

size_t xq_utf8_decode(const char *str, size_t n, uint32_t *pcp)
{
    const unsigned char *s = (const unsigned char *)str;
    uint32_t cp, min;
    size_t len, i;
    if (pcp)
        *pcp = 0xFFFD;
    if (!s || n == 0)
        return 0;
    if (s[0] < 0x80) {
        if (pcp) *pcp = s[0];
        return 1;
    } else if ((s[0] & 0xE0) == 0xC0) {
        len = 2; cp = s[0] & 0x1F; min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        len = 3; cp = s[0] & 0x0F; min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        len = 4; cp = s[0] & 0x07; min = 0x10000;
    } else {
        return 1;
    }
    if (n < len)
        return 1;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 1;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 1;
    if (pcp)
        *pcp = cp;
    return len;
}

size_t xq_utf8_encode(uint32_t cp, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    } else if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    } else if (cp < 0x10000) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return 0;
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    } else if (cp <= 0x10FFFF) {
        o[0] = (unsigned char)(0xF0 | (cp >> 18));
        o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (unsigned char)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

int xq_utf8_valid(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = xq_utf8_decode(s + i, n - i, &cp);
        if (cp == 0xFFFD && !(k == 3 && (unsigned char)s[i] == 0xEF))
            return 0;
        i += k;
    }
    return 1;
}

uint32_t xq_utf8_halfwidth(uint32_t cp)
{
    if (cp >= 0xFF01 && cp <= 0xFF5E)
        return cp - 0xFF01 + 0x21;
    if (cp == 0x3000)
        return ' ';
    return cp;
}

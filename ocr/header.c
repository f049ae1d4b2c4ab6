/* header.c - header fields above the move table.
 *
 * The region above the table (ruling whitened) is read by Tesseract as a
 * block of text; in each line, a known label (Chinese or Latin) is
 * followed by its value, which runs to the next label or the end of the
 * line. Values are kept raw. Latin labels match whole words, any case, and
 * words of 5 letters or more with one letter misread ("Resutt"); a value
 * that is only punctuation or a label itself is no value.
 */
#include <ctype.h>
#include <string.h>

#include "ocr_internal.h"
#include "utf8.h"

#define NLABELS 12
static const char *const labels[XQ_HDR_COUNT][NLABELS] = {
    [XQ_HDR_EVENT]  = { "比赛名称", "賽事名稱", "赛事名称", "赛事", "賽事", "比赛", "比賽",
                        "Event", "Tournament", "Competition", "Championship" },
    [XQ_HDR_ROUND]  = { "第几轮", "轮次", "輪次", "Round", "Rd" },
    [XQ_HDR_BOARD]  = { "台次", "台号", "台號", "桌号", "桌號", "桌次", "Board", "Table" },
    [XQ_HDR_RED]    = { "红方姓名", "紅方姓名", "红方", "紅方", "Red" },
    [XQ_HDR_BLACK]  = { "黑方姓名", "黑方", "Black" },
    [XQ_HDR_DATE]   = { "比赛日期", "比賽日期", "日期", "Date" },
    [XQ_HDR_RESULT] = { "结果", "結果", "Result", "Score" },
};

/* Drop spaces next to a non-ASCII character (Tesseract spaces CJK out). */
static void squeeze(char *s)
{
    size_t n = strlen(s), i, j = 0;
    for (i = 0; i < n; i++) {
        if (s[i] == ' ') {
            unsigned char prev = j ? (unsigned char)s[j - 1] : 0;
            unsigned char next = i + 1 < n ? (unsigned char)s[i + 1] : 0;
            if (prev >= 0x80 || next >= 0x80 || prev == ' ')
                continue;
        }
        s[j++] = s[i];
    }
    s[j] = '\0';
}

/* A word (n ASCII letters) is the Latin label lab: same letters in any
 * case, or for labels of 5 letters or more one letter replaced, added or
 * dropped. */
static bool latin_label(const char *w, size_t n, const char *lab)
{
    size_t m = strlen(lab), i = 0, j = 0;
    int edits = 0;
    if (n + 1 < m || n > m + 1 || (m < 5 && n != m))
        return false;
    while (i < n && j < m) {
        if (tolower((unsigned char)w[i]) == tolower((unsigned char)lab[j])) {
            i++;
            j++;
            continue;
        }
        if (++edits > (m >= 5 ? 1 : 0))
            return false;
        if (n > m)
            i++;
        else if (m > n)
            j++;
        else {
            i++;
            j++;
        }
    }
    edits += (int)(n - i) + (int)(m - j);
    return edits <= (m >= 5 ? 1 : 0);
}

static const char *find_label(const char *line, int *pfield, size_t *plen)
{
    const char *best = NULL, *p;
    int f, k;
    for (f = 0; f < XQ_HDR_COUNT; f++)
        for (k = 0; k < NLABELS && labels[f][k]; k++) {
            if ((unsigned char)labels[f][k][0] < 0x80)
                continue;
            p = strstr(line, labels[f][k]);
            /* earliest label; at one position the longest (比赛日期) */
            if (p && (!best || p < best
                      || (p == best && strlen(labels[f][k]) > *plen))) {
                best = p;
                *pfield = f;
                *plen = strlen(labels[f][k]);
            }
        }
    /* Latin labels: whole words before the best Chinese one */
    for (p = line; *p && (!best || p < best);) {
        const char *q = p;
        bool found = false;
        if (!isalpha((unsigned char)*p)) {
            p++;
            continue;
        }
        while (isalpha((unsigned char)*q))
            q++;
        for (f = 0; f < XQ_HDR_COUNT && !found; f++)
            for (k = 0; k < NLABELS && labels[f][k] && !found; k++)
                if ((unsigned char)labels[f][k][0] < 0x80 &&
                    latin_label(p, (size_t)(q - p), labels[f][k])) {
                    best = p;
                    *pfield = f;
                    *plen = (size_t)(q - p);
                    found = true;
                }
        if (found)
            break;
        p = q;
    }
    return best;
}

/* A value holds at least one letter, digit or non-ASCII character, and is
 * not itself a label. */
static bool is_value(const char *v)
{
    const char *p;
    int f;
    size_t l, n = strlen(v), i = 0;
    bool any = false;
    while (i < n && !any) {
        uint32_t cp;
        i += xq_utf8_decode(v + i, n - i, &cp);
        if (cp < 0x80)
            any = isalnum((int)cp) != 0;
        else   /* CJK and full-width punctuation, general punctuation */
            any = !((cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFF0F) ||
                    (cp >= 0xFF1A && cp <= 0xFF20) || (cp >= 0x2000 && cp <= 0x206F) ||
                    cp == 0xFFFD);
    }
    if (!any)
        return false;
    p = find_label(v, &f, &l);
    return !(p && p == v && v[l] == '\0');
}

static bool is_sep(const char *p, size_t *pn)
{
    if (*p == ' ' || *p == ':' || *p == '|' || *p == '_' || *p == '.') {
        *pn = 1;
        return true;
    }
    if (!strncmp(p, "：", 3) || !strncmp(p, "　", 3)) {
        *pn = 3;
        return true;
    }
    return false;
}

static xq_status parse_line(xq_sheet *sh, char *line) __attribute__((unused));
static xq_status parse_line(xq_sheet *sh, char *line)
{
    int field;
    size_t ll;
    const char *p = find_label(line, &field, &ll);
    while (p) {
        const char *v = p + ll, *next, *end;
        int nf;
        size_t nl, sn;
        while (*v && is_sep(v, &sn))
            v += sn;
        next = find_label(v, &nf, &nl);
        end = next ? next : v + strlen(v);
        while (end > v && is_sep(end - 1, &sn))
            end--;
        if (end > v && !sh->hdr[field]) {
            sh->hdr[field] = xq_strndup(v, (size_t)(end - v));
            if (!sh->hdr[field])
                return XQ_ENOMEM;
        }
        p = next;
        field = nf;
        ll = nl;
    }
    return XQ_OK;
}

/* Text of one chunk of the header (grey, ruling whitened). */
static xq_status chunk_text(xq_ocr *ocr, PIX *grey, int x0, int y0, int x1,
                            int y1, char **ptext)
{
    BOX *box;
    PIX *c, *b;
    xq_status st;
    char *p;
    *ptext = NULL;
    box = boxCreate(x0, y0, x1 - x0, y1 - y0);
    if (!box)
        return XQ_ENOMEM;
    c = pixClipRectangle(grey, box, NULL);
    boxDestroy(&box);
    if (!c)
        return XQ_ENOMEM;
    b = pixAddBorder(c, 12, 255);
    pixDestroy(&c);
    if (!b)
        return XQ_ENOMEM;
    st = ocr_tess_block(&ocr->tess, b, ptext);
    pixDestroy(&b);
    if (st != XQ_OK || !*ptext)
        return st;
    for (p = *ptext; *p; p++)          /* one chunk, one line of text */
        if (*p == '\n')
            *p = ' ';
    squeeze(*ptext);
    return XQ_OK;
}

static void trim(char *s)
{
    size_t n = strlen(s), i = 0, sn;
    while (s[i] && is_sep(s + i, &sn))
        i += sn;
    memmove(s, s + i, n - i + 1);
    n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == ':' || s[n - 1] == '|'
                     || s[n - 1] == '_'))
        s[--n] = '\0';
}

/* The header region is cut into text bands (row projection of the ink,
 * ruling removed) and each band into chunks at wide gaps; each chunk is
 * read by Tesseract. A chunk holding a label gives the text after the label
 * as the value, or, when nothing follows it, the next chunk of the band
 * (boxed forms: label in one box, value in the next). */
xq_status ocr_header_read(xq_ocr *ocr, xq_sheet *sh)
{
    BOX *box;
    PIX *reg = NULL, *ink = NULL, *mask = NULL, *vl = NULL;
    xq_status st = XQ_OK;
    int top = sh->table_top - 4, w, h, y, x;
    int *rowp = NULL, *colp = NULL;
    if (!ocr->tess.api || sh->ncells == 0 || top < 40)
        return XQ_OK;
    box = boxCreate(0, 0, sh->nw, top);
    if (!box)
        return XQ_ENOMEM;
    reg = pixClipRectangle(sh->pixg, box, NULL);
    ink = pixClipRectangle(sh->pixb, box, NULL);
    if (sh->pixlines)
        mask = pixClipRectangle(sh->pixlines, box, NULL);
    boxDestroy(&box);
    if (!reg || !ink) {
        st = XQ_ENOMEM;
        goto out;
    }
    /* short vertical rules of header boxes: thin and tall */
    vl = pixOpenBrick(NULL, ink, 1, 45);
    if (vl) {
        PIX *t = pixOpenBrick(NULL, vl, 9, 1);   /* wide things are not rules */
        if (t) {
            pixSubtract(vl, vl, t);
            pixDestroy(&t);
        }
        if (mask)
            pixOr(mask, mask, vl);
        else
            mask = pixClone(vl);
    }
    if (mask) {
        PIX *m2 = pixDilateBrick(NULL, mask, 5, 5);
        if (m2) {
            pixSetMasked(reg, m2, 255);
            pixSubtract(ink, ink, m2);
        }
        pixDestroy(&m2);
    }
    w = pixGetWidth(ink);
    h = pixGetHeight(ink);
    rowp = xq_calloc((size_t)h + 1, sizeof *rowp);
    colp = xq_calloc((size_t)w + 1, sizeof *colp);
    if (!rowp || !colp) {
        st = XQ_ENOMEM;
        goto out;
    }
    {
        l_uint32 *data = pixGetData(ink);
        int wpl = pixGetWpl(ink);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
                rowp[y] += GET_DATA_BIT(data + (size_t)y * wpl, x);
        y = 0;
        while (y < h && st == XQ_OK) {
            int y0, y1, gap = 0, bh, x0, prev_label = -1;
            while (y < h && rowp[y] < 2)
                y++;
            if (y >= h)
                break;
            y0 = y;
            while (y < h && gap < 10) {
                gap = rowp[y] < 2 ? gap + 1 : 0;
                y++;
            }
            y1 = y - gap;
            bh = y1 - y0;
            if (bh < 12)
                continue;
            memset(colp, 0, (size_t)w * sizeof *colp);
            for (x = 0; x < w; x++)
                for (int yy = y0; yy < y1; yy++)
                    colp[x] += GET_DATA_BIT(data + (size_t)yy * wpl, x);
            x = 0;
            while (x < w && st == XQ_OK) {
                int cx0, cx1, g = 0, mingap = bh * 3 / 2 > 40 ? bh * 3 / 2 : 40;
                char *t = NULL;
                while (x < w && colp[x] == 0)
                    x++;
                if (x >= w)
                    break;
                cx0 = x;
                while (x < w && g < mingap) {
                    g = colp[x] == 0 ? g + 1 : 0;
                    x++;
                }
                cx1 = x - g;
                if (cx1 - cx0 < 8)
                    continue;
                x0 = cx0 - 6 > 0 ? cx0 - 6 : 0;
                st = chunk_text(ocr, reg, x0, y0 - 6 > 0 ? y0 - 6 : 0,
                                cx1 + 6 < w ? cx1 + 6 : w,
                                y1 + 6 < h ? y1 + 6 : h, &t);
                if (st != XQ_OK || !t)
                    break;
                {
                    int f;
                    size_t ll;
                    const char *lp = find_label(t, &f, &ll);
                    if (lp) {
                        char *rest = xq_strdup(lp + ll), *tmp;
                        if (!rest) {
                            xq_free(t);
                            st = XQ_ENOMEM;
                            break;
                        }
                        /* a second label in the chunk ends this value */
                        {
                            int f2;
                            size_t l2;
                            char *lp2 = (char *)find_label(rest, &f2, &l2);
                            if (lp2 && lp2 == rest) {   /* 赛事 Event ... */
                                tmp = xq_strdup(lp2 + l2);
                                xq_free(rest);
                                rest = tmp;
                                if (!rest) {
                                    xq_free(t);
                                    st = XQ_ENOMEM;
                                    break;
                                }
                                lp2 = (char *)find_label(rest, &f2, &l2);
                            }
                            if (lp2)
                                *lp2 = '\0';
                        }
                        trim(rest);
                        if (is_value(rest) && !sh->hdr[f]) {
                            sh->hdr[f] = rest;
                            rest = NULL;
                            prev_label = -1;
                        } else
                            prev_label = f;
                        xq_free(rest);
                    } else if (prev_label >= 0) {
                        trim(t);
                        if (is_value(t) && !sh->hdr[prev_label]) {
                            sh->hdr[prev_label] = xq_strdup(t);
                            if (!sh->hdr[prev_label])
                                st = XQ_ENOMEM;
                        }
                        prev_label = -1;
                    }
                }
                xq_free(t);
            }
        }
    }
out:
    xq_free(rowp);
    xq_free(colp);
    pixDestroy(&vl);
    pixDestroy(&mask);
    pixDestroy(&ink);
    pixDestroy(&reg);
    return st;
}

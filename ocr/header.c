/* header.c - header fields above the move table.
 *
 * The region above the table (ruling whitened) is read by Tesseract as a
 * block of text; in each line, a known label (Chinese or Latin) is
 * followed by its value, which runs to the next label or the end of the
 * line. Values are kept raw.
 */
#include <string.h>

#include "ocr_internal.h"
#include "utf8.h"

static const char *const labels[XQ_HDR_COUNT][8] = {
    [XQ_HDR_EVENT]  = { "比赛名称", "赛事名称", "赛事", "賽事", "比赛", "Event", "EVENT" },
    [XQ_HDR_ROUND]  = { "轮次", "輪次", "Round", "ROUND" },
    [XQ_HDR_BOARD]  = { "台次", "台号", "台號", "桌号", "Board", "BOARD", "Table" },
    [XQ_HDR_RED]    = { "红方", "紅方", "Red", "RED" },
    [XQ_HDR_BLACK]  = { "黑方", "Black", "BLACK" },
    [XQ_HDR_DATE]   = { "日期", "Date", "DATE" },
    [XQ_HDR_RESULT] = { "结果", "結果", "Result", "RESULT" },
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

static const char *find_label(const char *line, int *pfield, size_t *plen)
{
    const char *best = NULL;
    int f, k;
    for (f = 0; f < XQ_HDR_COUNT; f++)
        for (k = 0; k < 8 && labels[f][k]; k++) {
            const char *p = strstr(line, labels[f][k]);
            if (p && (!best || p < best)) {
                best = p;
                *pfield = f;
                *plen = strlen(labels[f][k]);
            }
        }
    return best;
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

xq_status ocr_header_read(xq_ocr *ocr, xq_sheet *sh)
{
    BOX *box;
    PIX *reg, *mask = NULL;
    char *text = NULL, *line, *save = NULL;
    xq_status st;
    int top = sh->table_top - 4;
    if (!ocr->tess.api || sh->ncells == 0 || top < 40)
        return XQ_OK;
    box = boxCreate(0, 0, sh->nw, top);
    if (!box)
        return XQ_ENOMEM;
    reg = pixClipRectangle(sh->pixg, box, NULL);
    if (reg && sh->pixlines)
        mask = pixClipRectangle(sh->pixlines, box, NULL);
    boxDestroy(&box);
    if (!reg) {
        pixDestroy(&mask);
        return XQ_ENOMEM;
    }
    if (mask) {
        PIX *m2 = pixDilateBrick(NULL, mask, 3, 3);
        if (m2)
            pixSetMasked(reg, m2, 255);
        pixDestroy(&m2);
        pixDestroy(&mask);
    }
    st = ocr_tess_block(&ocr->tess, reg, &text);
    pixDestroy(&reg);
    if (st != XQ_OK)
        return st;
    for (line = strtok_r(text, "\n", &save); line && st == XQ_OK;
         line = strtok_r(NULL, "\n", &save)) {
        squeeze(line);
        st = parse_line(sh, line);
    }
    xq_free(text);
    return st;
}

/* tess.c - the Tesseract C API, initialised once per engine. */
#include <string.h>

#include "ocr_internal.h"

xq_status ocr_tess_init(ocr_tess *t, const char *datapath, const char *langs)
{
    memset(t, 0, sizeof *t);
    t->api = TessBaseAPICreate();
    if (!t->api)
        return XQ_ENOMEM;
    if (TessBaseAPIInit3(t->api, datapath, langs) != 0) {
        TessBaseAPIDelete(t->api);
        t->api = NULL;
        return XQ_EOCR;
    }
    t->inits++;
    /* The library prints nothing: Tesseract's own messages go nowhere. */
    TessBaseAPISetVariable(t->api, "debug_file", "/dev/null");
    return XQ_OK;
}

void ocr_tess_end(ocr_tess *t)
{
    if (!t || !t->api)
        return;
    TessBaseAPIEnd(t->api);
    TessBaseAPIDelete(t->api);
    t->api = NULL;
}

/* Copy Tesseract's text without surrounding/embedded line breaks. */
static char *clean_text(const char *s)
{
    size_t n = strlen(s), i, j = 0;
    char *o = xq_malloc(n + 1);
    if (!o)
        return NULL;
    for (i = 0; i < n; i++) {
        if (s[i] == '\n' || s[i] == '\r' || s[i] == '\f')
            continue;
        o[j++] = s[i];
    }
    while (j > 0 && o[j - 1] == ' ')
        j--;
    o[j] = '\0';
    return o;
}

static xq_status read_text(ocr_tess *t, PIX *pix8, TessPageSegMode psm,
                           char **ptext)
{
    char *txt;
    *ptext = NULL;
    if (!t->api)
        return XQ_EOCR;
    TessBaseAPISetPageSegMode(t->api, psm);
    TessBaseAPISetImage2(t->api, pix8);
    TessBaseAPISetSourceResolution(t->api, 300);
    txt = TessBaseAPIGetUTF8Text(t->api);
    TessBaseAPIClear(t->api);
    if (!txt) {
        *ptext = xq_strdup("");
        return *ptext ? XQ_OK : XQ_ENOMEM;
    }
    *ptext = psm == PSM_SINGLE_LINE ? clean_text(txt) : xq_strdup(txt);
    TessDeleteText(txt);
    return *ptext ? XQ_OK : XQ_ENOMEM;
}

xq_status ocr_tess_line(ocr_tess *t, PIX *pix8, char **ptext)
{
    return read_text(t, pix8, PSM_SINGLE_LINE, ptext);
}

xq_status ocr_tess_block(ocr_tess *t, PIX *pix8, char **ptext)
{
    return read_text(t, pix8, PSM_SINGLE_BLOCK, ptext);
}

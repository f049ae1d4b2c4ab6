/* corrections.c - the arbiter's corrections file (format: xq_report.h). */
#include <cjson/cJSON.h>
#include <string.h>
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_report.h"

void xq_corrections_destroy(xq_corrections **pcorr)
{
    xq_corrections *c;
    size_t i;
    if (!pcorr || !*pcorr)
        return;
    c = *pcorr;
    for (i = 0; i < c->nplies; i++)
        xq_free(c->plies[i].move);
    xq_free(c->plies);
    xq_free(c->source);
    xq_free(c->input_sha256);
    xq_free(c);
    *pcorr = NULL;
}

static int only_space(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
            return 0;
    return 1;
}

static xq_status fill(const cJSON *root, xq_corrections *c)
{
    const cJSON *schema, *plies, *it;
    const char *s;
    int n, i;
    schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    XQ_FAIL_IF(!cJSON_IsString(schema) ||
               strcmp(schema->valuestring, "xqscan-corrections/1") != 0,
               XQ_EINVAL, "corrections schema");
    it = cJSON_GetObjectItemCaseSensitive(root, "source");
    s = cJSON_IsString(it) ? it->valuestring : "";
    c->source = rep_utf8_clean(s);
    it = cJSON_GetObjectItemCaseSensitive(root, "input_sha256");
    s = cJSON_IsString(it) ? it->valuestring : "";
    c->input_sha256 = rep_utf8_clean(s);
    XQ_FAIL_IF(!c->source || !c->input_sha256, XQ_ENOMEM, "corrections strings");
    plies = cJSON_GetObjectItemCaseSensitive(root, "plies");
    XQ_FAIL_IF(!cJSON_IsArray(plies), XQ_EINVAL, "corrections plies");
    n = cJSON_GetArraySize(plies);
    if (n == 0)
        return XQ_OK;
    c->plies = xq_calloc((size_t)n, sizeof *c->plies);
    XQ_FAIL_IF(!c->plies, XQ_ENOMEM, "corrections");
    cJSON_ArrayForEach(it, plies) {
        const cJSON *ply = cJSON_GetObjectItemCaseSensitive(it, "ply");
        const cJSON *mv = cJSON_GetObjectItemCaseSensitive(it, "move");
        double d;
        XQ_FAIL_IF(!cJSON_IsNumber(ply) || !cJSON_IsString(mv), XQ_EINVAL,
                   "correction entry");
        d = ply->valuedouble;
        XQ_FAIL_IF(d < 1 || d > 100000 || d != (double)(int)d, XQ_EINVAL,
                   "correction ply");
        XQ_FAIL_IF(only_space(mv->valuestring), XQ_EINVAL, "empty move");
        for (i = 0; i < (int)c->nplies; i++)
            XQ_FAIL_IF(c->plies[i].ply == (int)d, XQ_EINVAL, "ply listed twice");
        c->plies[c->nplies].ply = (int)d;
        c->plies[c->nplies].move = rep_utf8_clean(mv->valuestring);
        XQ_FAIL_IF(!c->plies[c->nplies].move, XQ_ENOMEM, "move");
        c->nplies++;
    }
    return XQ_OK;
}

xq_status xq_corrections_parse(const char *text, size_t len,
                               xq_corrections **pcorr)
{
    cJSON *root;
    xq_corrections *c;
    xq_status st;
    if (pcorr)
        *pcorr = NULL;
    XQ_FAIL_IF(!text || !pcorr, XQ_EINVAL, "corrections arguments");
    root = cJSON_ParseWithLength(text, len);
    XQ_FAIL_IF(!root, XQ_EINVAL, "corrections: not JSON");
    c = xq_calloc(1, sizeof *c);
    if (!c) {
        cJSON_Delete(root);
        return XQ_ENOMEM;
    }
    st = cJSON_IsObject(root) ? fill(root, c) : XQ_EINVAL;
    cJSON_Delete(root);
    if (st != XQ_OK) {
        xq_corrections_destroy(&c);
        return st;
    }
    *pcorr = c;
    return XQ_OK;
}

xq_status xq_corrections_read(const char *path, xq_corrections **pcorr)
{
    char *text;
    size_t len;
    xq_status st;
    if (pcorr)
        *pcorr = NULL;
    XQ_FAIL_IF(!path || !pcorr, XQ_EINVAL, "corrections path");
    XQ_TRY(rep_read_file(path, &text, &len));
    st = xq_corrections_parse(text, len, pcorr);
    xq_free(text);
    return st;
}

const char *xq_corrections_find(const xq_corrections *corr, int ply)
{
    size_t i;
    if (!corr)
        return NULL;
    for (i = 0; i < corr->nplies; i++)
        if (corr->plies[i].ply == ply)
            return corr->plies[i].move;
    return NULL;
}

/* json.c - xq_game <-> JSON of schema "xqscan/1" (../shared/INTERFACE.md),
 * built and parsed with libcjson. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_report.h"

/* ---- writing ------------------------------------------------------------ */

/* Each add_* returns 0 on allocation failure (cJSON's own convention). */
static int add_str(cJSON *obj, const char *key, const char *s)
{
    char *c = rep_utf8_clean(s);
    cJSON *it;
    if (!c)
        return 0;
    it = cJSON_AddStringToObject(obj, key, c);
    xq_free(c);
    return it != NULL;
}

static int add_str_or_null(cJSON *obj, const char *key, const char *s)
{
    if (!s)
        return cJSON_AddNullToObject(obj, key) != NULL;
    return add_str(obj, key, s);
}

static int add_num(cJSON *obj, const char *key, double v)
{
    return cJSON_AddNumberToObject(obj, key, v) != NULL;
}

/* Confidence and scores: 4 decimals are plenty and keep files stable. */
static double round4(double v)
{
    char buf[32];
    double r;
    if (!(v == v))
        return 0.0;
    snprintf(buf, sizeof buf, "%.4f", v);
    sscanf(buf, "%lf", &r);
    return r;
}

static cJSON *ply_json(const xq_ply *p)
{
    cJSON *o = cJSON_CreateObject(), *arr, *c;
    int i, ok;
    if (!o)
        return NULL;
    ok = add_num(o, "ply", p->ply) &&
         add_str(o, "side", p->side == XQ_BLACK ? "black" : "red") &&
         add_str(o, "status", xq_ply_status_name(p->status)) &&
         add_str(o, "read", p->read ? p->read : "");
    /* the move is there when the record has one (the same test as the PGN
     * and the diagrams); a move without a source gets move_source null */
    if (ok && rep_ply_move(p) != XQ_MOVE_NONE) {
        cJSON *m = cJSON_AddObjectToObject(o, "move");
        ok = m && add_str(m, "iccs", p->iccs) && add_str(m, "chinese", p->chinese) &&
             add_str(m, "wxf", p->wxf) &&
             (p->source != XQ_SRC_NONE
                  ? add_str(o, "move_source", xq_move_source_name(p->source))
                  : cJSON_AddNullToObject(o, "move_source") != NULL);
    } else if (ok) {
        /* no move at all: move and move_source are both null */
        ok = cJSON_AddNullToObject(o, "move") != NULL &&
             cJSON_AddNullToObject(o, "move_source") != NULL;
    }
    ok = ok && add_num(o, "confidence", round4(p->confidence)) &&
         cJSON_AddBoolToObject(o, "review", p->review) != NULL;
    arr = ok ? cJSON_AddArrayToObject(o, "candidates") : NULL;
    ok = arr != NULL;
    for (i = 0; ok && i < p->ncand && i < XQ_MAX_CANDIDATES; i++) {
        c = cJSON_CreateObject();
        ok = c && cJSON_AddItemToArray(arr, c) &&
             add_str(c, "iccs", p->cand[i].iccs) &&
             add_str(c, "chinese", p->cand[i].chinese) &&
             add_num(c, "score", round4(p->cand[i].score));
    }
    if (ok && p->has_cell) {
        cJSON *cell = cJSON_AddObjectToObject(o, "cell");
        cJSON *box = cell ? cJSON_CreateIntArray(p->cell_box, 4) : NULL;
        ok = cell && box && add_num(cell, "page", p->cell_page) &&
             cJSON_AddItemToObject(cell, "box", box);
        if (!ok && box && !cell)
            cJSON_Delete(box);
    } else if (ok) {
        ok = cJSON_AddNullToObject(o, "cell") != NULL;
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *game_json(const xq_game *g, xq_status *pst)
{
    cJSON *root = cJSON_CreateObject(), *x, *opts, *h, *arr, *u, *e;
    size_t i;
    int ok;
    *pst = XQ_ENOMEM;
    if (!root)
        return NULL;
    ok = add_str(root, "schema", "xqscan/1");
    x = ok ? cJSON_AddObjectToObject(root, "xqscan") : NULL;
    ok = x && add_str(x, "version", g->version ? g->version : XQ_VERSION) &&
         add_str(x, "input_sha256", g->input_sha256 ? g->input_sha256 : "");
    if (ok) {
        if (g->options_json && *g->options_json) {
            opts = cJSON_Parse(g->options_json);
            if (!opts || !cJSON_IsObject(opts)) {
                cJSON_Delete(opts);
                cJSON_Delete(root);
                *pst = XQ_EINVAL;
                return NULL;
            }
        } else {
            opts = cJSON_CreateObject();
        }
        ok = opts && cJSON_AddItemToObject(x, "options", opts);
    }
    ok = ok && add_str(root, "source", g->source ? g->source : "") &&
         add_str(root, "status", g->is_error ? "error" : "ok");
    if (ok && g->is_error)
        ok = add_str(root, "error", g->error ? g->error : "");
    if (ok) {
        if (g->owner == XQ_RED || g->owner == XQ_BLACK)
            ok = add_str(root, "owner", g->owner == XQ_RED ? "red" : "black");
        else
            ok = cJSON_AddNullToObject(root, "owner") != NULL;
    }
    h = ok ? cJSON_AddObjectToObject(root, "header") : NULL;
    ok = h && add_str(h, "event", g->header.event ? g->header.event : "") &&
         add_str(h, "round", g->header.round ? g->header.round : "") &&
         add_str(h, "board", g->header.board ? g->header.board : "") &&
         add_str(h, "red", g->header.red ? g->header.red : "") &&
         add_str(h, "black", g->header.black ? g->header.black : "") &&
         add_str(h, "date", g->header.date ? g->header.date : "") &&
         add_str_or_null(h, "result", g->header.result);
    ok = ok && add_str(root, "start_fen", g->start_fen);
    arr = ok ? cJSON_AddArrayToObject(root, "plies") : NULL;
    ok = arr != NULL;
    for (i = 0; ok && i < g->nplies; i++) {
        cJSON *p = ply_json(&g->plies[i]);
        ok = p && cJSON_AddItemToArray(arr, p);
        if (!ok && p)
            cJSON_Delete(p);
    }
    u = ok ? cJSON_AddObjectToObject(root, "unrecorded") : NULL;
    ok = u && add_num(u, "red", g->unrecorded.red) &&
         add_num(u, "black", g->unrecorded.black) &&
         add_num(u, "total", g->unrecorded.total) &&
         add_num(u, "longest_run", g->unrecorded.longest_run) &&
         add_num(u, "threshold", g->unrecorded.threshold) &&
         cJSON_AddBoolToObject(u, "exceeded", g->unrecorded.exceeded) &&
         add_str(u, "rule", "WXF 7.6, 3.1.F");
    arr = ok ? cJSON_AddArrayToObject(root, "findings") : NULL;
    ok = arr != NULL;
    for (i = 0; ok && i < g->nfindings; i++) {
        const xq_finding *f = &g->findings[i];
        cJSON *fo = cJSON_CreateObject();
        ok = fo && cJSON_AddItemToArray(arr, fo);
        if (!ok) {
            cJSON_Delete(fo);
            break;
        }
        ok = (f->ply > 0 ? add_num(fo, "ply", f->ply)
                         : cJSON_AddNullToObject(fo, "ply") != NULL) &&
             add_str(fo, "severity", xq_severity_name(f->severity)) &&
             add_str(fo, "code", f->code ? f->code : "") &&
             add_str(fo, "rule", f->rule ? f->rule : "") &&
             add_str(fo, "message", f->message ? f->message : "");
    }
    e = ok ? cJSON_AddObjectToObject(root, "end") : NULL;
    ok = e && add_str(e, "position", xq_end_position_name(g->end.position)) &&
         add_str_or_null(e, "recorded_result", g->end.recorded_result) &&
         cJSON_AddBoolToObject(e, "consistent", g->end.consistent);
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    *pst = XQ_OK;
    return root;
}

xq_status xq_report_json(const xq_game *g, xq_strbuf *out)
{
    cJSON *root;
    char *txt;
    xq_status st;
    XQ_FAIL_IF(!g || !out, XQ_EINVAL, "json arguments");
    root = game_json(g, &st);
    if (!root)
        return st;
    txt = cJSON_Print(root);
    cJSON_Delete(root);
    XQ_FAIL_IF(!txt, XQ_ENOMEM, "json print");
    st = xq_strbuf_puts(out, txt);
    if (st == XQ_OK)
        st = xq_strbuf_putc(out, '\n');
    cJSON_free(txt);
    return st;
}

/* ---- reading ------------------------------------------------------------ */

static const char *get_s(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

static double get_n(const cJSON *o, const char *key, double dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(it) ? it->valuedouble : dflt;
}

/* An integer field, clamped (a double outside int's range is not cast). */
static int get_i(const cJSON *o, const char *key, int dflt)
{
    double v = get_n(o, key, dflt);
    if (!(v == v))
        return dflt;
    if (v > 1e9)
        return 1000000000;
    if (v < -1e9)
        return -1000000000;
    return (int)v;
}

static bool get_b(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static int name_index(const char *s, const char *(*namef)(int), int n)
{
    int i;
    if (!s)
        return -1;
    for (i = 0; i < n; i++)
        if (strcmp(s, namef(i)) == 0)
            return i;
    return -1;
}

static const char *ply_status_n(int i) { return xq_ply_status_name((xq_ply_status)i); }
static const char *source_n(int i) { return xq_move_source_name((xq_move_source)i); }
static const char *sev_n(int i) { return xq_severity_name((xq_severity)i); }
static const char *end_n(int i) { return xq_end_position_name((xq_end_position)i); }

static void copy_fixed(char *dst, size_t cap, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n >= cap)
        n = 0;   /* too long for the field: not a move string */
    if (n)
        memcpy(dst, s, n);
    dst[n] = '\0';
}

static xq_status read_ply(xq_game *g, const cJSON *po)
{
    xq_ply *p;
    const cJSON *m, *cands, *cell, *c;
    int k;
    XQ_FAIL_IF(!cJSON_IsObject(po), XQ_EINVAL, "ply not an object");
    XQ_TRY(xq_game_add_ply(g, &p));
    p->ply = get_i(po, "ply", p->ply);
    p->side = (get_s(po, "side") && strcmp(get_s(po, "side"), "black") == 0)
                  ? XQ_BLACK : XQ_RED;
    k = name_index(get_s(po, "status"), ply_status_n, XQ_PLY_MISSING + 1);
    XQ_FAIL_IF(k < 0, XQ_EINVAL, "ply status");
    p->status = (xq_ply_status)k;
    XQ_TRY(xq_game_set_str(&p->read, get_s(po, "read") ? get_s(po, "read") : ""));
    m = cJSON_GetObjectItemCaseSensitive(po, "move");
    if (cJSON_IsObject(m)) {
        copy_fixed(p->iccs, sizeof p->iccs, get_s(m, "iccs"));
        copy_fixed(p->chinese, sizeof p->chinese, get_s(m, "chinese"));
        copy_fixed(p->wxf, sizeof p->wxf, get_s(m, "wxf"));
        p->mv = rep_iccs_parse(p->iccs);
        k = name_index(get_s(po, "move_source"), source_n, XQ_SRC_ASSUMED + 1);
        p->source = k > 0 ? (xq_move_source)k : XQ_SRC_NONE;
    }
    p->confidence = get_n(po, "confidence", 0.0);
    p->review = get_b(po, "review");
    cands = cJSON_GetObjectItemCaseSensitive(po, "candidates");
    cJSON_ArrayForEach(c, cands) {
        xq_candidate *cd;
        if (p->ncand >= XQ_MAX_CANDIDATES || !cJSON_IsObject(c))
            break;
        cd = &p->cand[p->ncand++];
        copy_fixed(cd->iccs, sizeof cd->iccs, get_s(c, "iccs"));
        copy_fixed(cd->chinese, sizeof cd->chinese, get_s(c, "chinese"));
        cd->mv = rep_iccs_parse(cd->iccs);
        cd->score = get_n(c, "score", 0.0);
    }
    cell = cJSON_GetObjectItemCaseSensitive(po, "cell");
    if (cJSON_IsObject(cell)) {
        const cJSON *box = cJSON_GetObjectItemCaseSensitive(cell, "box");
        p->has_cell = true;
        p->cell_page = get_i(cell, "page", 0);
        for (k = 0; k < 4; k++) {
            const cJSON *v = cJSON_GetArrayItem(box, k);
            double d = cJSON_IsNumber(v) ? v->valuedouble : 0.0;
            p->cell_box[k] = d > 1e9 ? 1000000000 : d < -1e9 ? -1000000000 : (int)d;
        }
    }
    return XQ_OK;
}

static xq_status read_game(const cJSON *root, xq_game *g)
{
    const cJSON *x, *h, *arr, *it, *u, *e;
    const char *s;
    int k;
    s = get_s(root, "schema");
    XQ_FAIL_IF(!cJSON_IsObject(root) || !s || strcmp(s, "xqscan/1") != 0,
               XQ_EINVAL, "not an xqscan/1 object");
    x = cJSON_GetObjectItemCaseSensitive(root, "xqscan");
    XQ_TRY(xq_game_set_str(&g->version, get_s(x, "version")));
    XQ_TRY(xq_game_set_str(&g->input_sha256, get_s(x, "input_sha256")));
    it = cJSON_GetObjectItemCaseSensitive(x, "options");
    if (cJSON_IsObject(it)) {
        char *t = cJSON_PrintUnformatted(it);
        XQ_FAIL_IF(!t, XQ_ENOMEM, "options");
        xq_status st = xq_game_set_str(&g->options_json, t);
        cJSON_free(t);
        XQ_TRY(st);
    }
    XQ_TRY(xq_game_set_str(&g->source, get_s(root, "source")));
    s = get_s(root, "status");
    g->is_error = s && strcmp(s, "error") == 0;
    XQ_TRY(xq_game_set_str(&g->error, get_s(root, "error")));
    s = get_s(root, "owner");
    g->owner = !s ? -1 : strcmp(s, "red") == 0 ? XQ_RED
                       : strcmp(s, "black") == 0 ? XQ_BLACK : -1;
    h = cJSON_GetObjectItemCaseSensitive(root, "header");
    XQ_TRY(xq_game_set_str(&g->header.event, get_s(h, "event")));
    XQ_TRY(xq_game_set_str(&g->header.round, get_s(h, "round")));
    XQ_TRY(xq_game_set_str(&g->header.board, get_s(h, "board")));
    XQ_TRY(xq_game_set_str(&g->header.red, get_s(h, "red")));
    XQ_TRY(xq_game_set_str(&g->header.black, get_s(h, "black")));
    XQ_TRY(xq_game_set_str(&g->header.date, get_s(h, "date")));
    XQ_TRY(xq_game_set_str(&g->header.result, get_s(h, "result")));
    s = get_s(root, "start_fen");
    if (s) {
        XQ_FAIL_IF(strlen(s) >= sizeof g->start_fen, XQ_EINVAL, "start_fen");
        strcpy(g->start_fen, s);
    }
    arr = cJSON_GetObjectItemCaseSensitive(root, "plies");
    cJSON_ArrayForEach(it, arr)
        XQ_TRY(read_ply(g, it));
    u = cJSON_GetObjectItemCaseSensitive(root, "unrecorded");
    g->unrecorded.red = get_i(u, "red", 0);
    g->unrecorded.black = get_i(u, "black", 0);
    g->unrecorded.total = get_i(u, "total", 0);
    g->unrecorded.longest_run = get_i(u, "longest_run", 0);
    g->unrecorded.threshold = get_i(u, "threshold", 16);
    g->unrecorded.exceeded = get_b(u, "exceeded");
    arr = cJSON_GetObjectItemCaseSensitive(root, "findings");
    cJSON_ArrayForEach(it, arr) {
        const char *code = get_s(it, "code"), *msg = get_s(it, "message");
        k = name_index(get_s(it, "severity"), sev_n, XQ_SEV_ERROR + 1);
        XQ_FAIL_IF(!code || k < 0, XQ_EINVAL, "finding");
        XQ_TRY(xq_game_add_finding(g, get_i(it, "ply", 0), (xq_severity)k,
                                   code, get_s(it, "rule"), "%s",
                                   msg ? msg : ""));
    }
    e = cJSON_GetObjectItemCaseSensitive(root, "end");
    k = name_index(get_s(e, "position"), end_n, XQ_END_STALEMATE + 1);
    g->end.position = k > 0 ? (xq_end_position)k : XQ_END_NORMAL;
    XQ_TRY(xq_game_set_str(&g->end.recorded_result, get_s(e, "recorded_result")));
    g->end.consistent = get_b(e, "consistent");
    return XQ_OK;
}

xq_status xq_report_read_json(const char *text, size_t len, xq_game **pgame)
{
    cJSON *root;
    xq_game *g;
    xq_status st;
    if (pgame)
        *pgame = NULL;
    XQ_FAIL_IF(!text || !pgame, XQ_EINVAL, "read_json arguments");
    root = cJSON_ParseWithLength(text, len);
    XQ_FAIL_IF(!root, XQ_EINVAL, "not JSON");
    st = xq_game_create(&g);
    if (st == XQ_OK) {
        st = read_game(root, g);
        if (st != XQ_OK)
            xq_game_destroy(&g);
    }
    cJSON_Delete(root);
    *pgame = g;
    return st;
}

xq_status xq_report_read_json_file(const char *path, xq_game **pgame)
{
    char *text;
    size_t len;
    xq_status st;
    if (pgame)
        *pgame = NULL;
    XQ_FAIL_IF(!path || !pgame, XQ_EINVAL, "read_json_file arguments");
    XQ_TRY(rep_read_file(path, &text, &len));
    st = xq_report_read_json(text, len, pgame);
    xq_free(text);
    return st;
}

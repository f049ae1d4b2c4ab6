/* scan_file.c - xq_scan_file() (include/xqscan/xqscan.h): the scan path
 * through the stages, one image file at a time:
 *   ocr    xq_ocr_read_file -> sheets of cells (each page one sheet)
 *   verify xq_verify_sheet over xq_verify_source_from_sheet
 *   report xq_report_pgn / _json / _html
 * plus the glue none of the stages owns: header fields and the recorded
 * result from the sheet's header, the arbiter's corrections for this sheet,
 * cell crops for the HTML report (looked up by the ply's cell box).
 */
#include "xqscan/xqscan.h"

#include <stdio.h>
#include <string.h>

#include "batch_json.h"
#include "strbuf.h"
#include "xq_core.h"
#include "xqscan/xq_ocr.h"
#include "xqscan/xq_report.h"
#include "xqscan/xq_verify.h"

struct xq_scanner {
    xq_ocr *ocr;
    int threshold;
    xq_pgn_notation notation;
    xq_corrections *corr;        /* NULL: none */
    bool corr_any;
};

const char *xq_version(void)
{
    return XQ_VERSION;
}

void xq_scan_options_init(xq_scan_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->threshold = 16;
}

xq_status xq_scanner_create(xq_scanner **psc, const xq_scan_options *opts,
                            char *err, size_t errlen)
{
    xq_scanner *sc;
    xq_ocr_options oo;
    xq_status st;
    if (psc)
        *psc = NULL;
    if (err && errlen)
        err[0] = '\0';
    XQ_FAIL_IF(!psc || !err || !errlen, XQ_EINVAL, "scanner_create: NULL");
    sc = xq_calloc(1, sizeof *sc);
    XQ_FAIL_IF(!sc, XQ_ENOMEM, "scanner");
    sc->threshold = opts && opts->threshold > 0 ? opts->threshold : 16;
    if (opts && opts->notation &&
        xq_pgn_notation_parse(opts->notation, &sc->notation) != XQ_OK) {
        snprintf(err, errlen, "unknown notation '%s'", opts->notation);
        xq_free(sc);
        return XQ_EINVAL;
    }
    if (opts && opts->corrections) {
        st = xq_corrections_read(opts->corrections, &sc->corr);
        if (st) {
            snprintf(err, errlen, "corrections file %s: %s", opts->corrections,
                     st == XQ_EIO ? "cannot be read" : "not a corrections file");
            xq_free(sc);
            return st;
        }
        sc->corr_any = opts->corrections_any_sheet;
    }
    memset(&oo, 0, sizeof oo);
    oo.tessdata = opts ? opts->tessdata : NULL;
    oo.max_pixels = opts ? opts->max_pixels : 0;
    st = xq_ocr_create(&sc->ocr, &oo);
    if (st) {
        snprintf(err, errlen, "cannot start the OCR engine (Tesseract with chi_sim "
                              "and chi_tra): %s", xq_status_str(st));
        xq_corrections_destroy(&sc->corr);
        xq_free(sc);
        return st;
    }
    *psc = sc;
    return XQ_OK;
}

void xq_scanner_destroy(xq_scanner **psc)
{
    if (!psc || !*psc)
        return;
    xq_ocr_destroy(&(*psc)->ocr);
    xq_corrections_destroy(&(*psc)->corr);
    xq_free(*psc);
    *psc = NULL;
}

/* The recorded result as the sheet's header writes it, normalised; NULL
 * when it says nothing recognisable. */
static const char *norm_result(const char *s)
{
    if (!s || !*s)
        return NULL;
    if (strstr(s, "1/2") || strstr(s, "½") || strstr(s, "和"))
        return "1/2-1/2";
    if (strstr(s, "1-0") || strstr(s, "1:0") || strstr(s, "红胜") || strstr(s, "紅勝"))
        return "1-0";
    if (strstr(s, "0-1") || strstr(s, "0:1") || strstr(s, "黑胜") || strstr(s, "黑勝"))
        return "0-1";
    return NULL;
}

static bool corrections_match(const xq_scanner *sc, const xq_scan_input *in)
{
    const xq_corrections *c = sc->corr;
    if (!c)
        return false;
    if (c->input_sha256 && *c->input_sha256)
        return in && in->input_sha256 && !strcmp(c->input_sha256, in->input_sha256);
    if (c->source && *c->source)
        return in && in->source && !strcmp(c->source, in->source);
    return sc->corr_any;
}

/* Cell crop for the report: the ply's cell is found by its box. */
static void add_crop(xq_sheet *sheet, xq_ply *p)
{
    size_t c, n = xq_sheet_ncells(sheet);
    if (!p->has_cell || p->crop.px)
        return;
    for (c = 0; c < n; c++) {
        int box[4];
        if (xq_sheet_cell_box(sheet, c, box) == XQ_OK && !memcmp(box, p->cell_box, sizeof box)) {
            if (xq_sheet_cell_crop(sheet, c, &p->crop) != XQ_OK)
                memset(&p->crop, 0, sizeof p->crop);
            break;
        }
    }
}

static void add_crops(xq_sheet *sheet, xq_game *g)
{
    size_t i;
    for (i = 0; i < g->nplies; i++)
        add_crop(sheet, &g->plies[i]);
}

/* "red" / "black" -> XQ_RED / XQ_BLACK; anything else -1 */
static int owner_of(const char *s)
{
    if (s && !strcmp(s, "red"))
        return XQ_RED;
    if (s && !strcmp(s, "black"))
        return XQ_BLACK;
    return -1;
}

/* The "xqscan" object, source and owner of a game from its input. */
static xq_status set_input(xq_game *g, const xq_scan_input *in)
{
    XQ_TRY(xq_game_set_str(&g->version, XQ_VERSION));
    if (!in)
        return XQ_OK;
    XQ_TRY(xq_game_set_str(&g->input_sha256, in->input_sha256));
    XQ_TRY(xq_game_set_str(&g->options_json, in->options_json));
    XQ_TRY(xq_game_set_str(&g->source, in->source));
    g->owner = owner_of(in->owner);
    return XQ_OK;
}

/* Header fields: from the first of the sheets that has each one. */
static xq_status set_header(xq_game *g, xq_sheet *const *sheets, size_t n)
{
    static const xq_header_field fields[] = {
        XQ_HDR_EVENT, XQ_HDR_ROUND, XQ_HDR_BOARD, XQ_HDR_RED, XQ_HDR_BLACK, XQ_HDR_DATE,
    };
    char **dst[6];
    size_t i, k;
    dst[0] = &g->header.event; dst[1] = &g->header.round; dst[2] = &g->header.board;
    dst[3] = &g->header.red;   dst[4] = &g->header.black; dst[5] = &g->header.date;
    for (i = 0; i < XQ_ARRAY_LEN(fields); i++) {
        const char *v = NULL;
        for (k = 0; k < n && (!v || !*v); k++)
            v = xq_sheet_header(sheets[k], fields[i]);
        XQ_TRY(xq_game_set_str(dst[i], v));
    }
    return XQ_OK;
}

static xq_status one_sheet(xq_scanner *sc, xq_sheet *sheet, int page,
                           const xq_scan_input *in, xq_scan_emit_fn emit, void *ud,
                           int *pflags)
{
    xq_game *g = NULL;
    xq_verify_options vo;
    xq_verify_correction *vc = NULL;
    xq_sheet_cells cells;
    xq_cell_source src;
    xq_html_options ho;
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_status st;

    XQ_TRY(xq_game_create(&g));
    st = set_input(g, in);
    if (!st)
        st = set_header(g, &sheet, 1);
    if (st)
        goto out;

    xq_verify_options_init(&vo);
    vo.threshold = sc->threshold;
    vo.owner = g->owner;
    vo.recorded_result = norm_result(xq_sheet_header(sheet, XQ_HDR_RESULT));
    if (corrections_match(sc, in) && sc->corr->nplies) {
        st = xq_corrections_to_verify(sc->corr, &vc);
        if (st)
            goto out;
        vo.corrections = vc;
        vo.ncorrections = sc->corr->nplies;
    }
    cells.ocr = sc->ocr;
    cells.sheet = sheet;
    xq_verify_source_from_sheet(&cells, &src);
    st = xq_verify_sheet(&src, &vo, g);
    if (st)
        goto out;
    add_crops(sheet, g);
    /* nothing read is not a clean sheet: an arbiter must look at the page */
    if (xq_sheet_ncells(sheet) == 0)
        st = xq_game_add_finding(g, 0, XQ_SEV_WARNING, "no_move_table", "",
                                 "no table of moves was found on page %d", page);
    else if (g->nplies == 0)
        st = xq_game_add_finding(g, 0, XQ_SEV_WARNING, "no_moves_read", "",
                                 "no move could be read on page %d", page);
    if (st)
        goto out;
    if (xq_game_needs_arbiter(g))
        *pflags |= XQ_SCAN_NEEDS_ARBITER;

    memset(&ho, 0, sizeof ho);
    ho.index_href = in ? in->index_href : NULL;
    st = xq_report_pgn(g, sc->notation, &sb);
    if (!st) st = emit(ud, page, ".pgn", xq_strbuf_cstr(&sb), sb.len);
    xq_strbuf_reset(&sb);
    if (!st) st = xq_report_html(g, &ho, &sb);
    if (!st) st = emit(ud, page, ".html", xq_strbuf_cstr(&sb), sb.len);
    xq_strbuf_reset(&sb);
    if (!st) st = xq_report_json(g, &sb);
    if (!st) st = emit(ud, page, ".json", xq_strbuf_cstr(&sb), sb.len);
out:
    xq_strbuf_free(&sb);
    xq_free(vc);
    xq_game_destroy(&g);
    return st;
}

xq_status xq_scan_file(xq_scanner *sc, const char *path,
                       const xq_scan_input *in, xq_scan_emit_fn emit, void *ud,
                       int *pflags, size_t *pnsheets, char *err, size_t errlen)
{
    xq_sheet **sheets = NULL;
    size_t n = 0, k;
    xq_status st;
    int flags = 0;
    if (pflags)
        *pflags = 0;
    if (pnsheets)
        *pnsheets = 0;
    if (err && errlen)
        err[0] = '\0';
    XQ_FAIL_IF(!sc || !path || !emit || !err || !errlen, XQ_EINVAL, "scan_file: NULL");
    st = xq_ocr_read_file(sc->ocr, path, &sheets, &n, err, errlen);
    if (st) {
        if (!err[0])
            snprintf(err, errlen, "%s", xq_status_str(st));
        return st;
    }
    /* later pages first: the batch takes page 1's JSON as "input done" */
    for (k = n; k-- > 0 && !st;) {
        st = one_sheet(sc, sheets[k], (int)k + 1, in, emit, ud, &flags);
        if (st && !err[0])
            snprintf(err, errlen, "page %zu: %s", k + 1, xq_status_str(st));
    }
    xq_ocr_sheets_free(&sheets, n);
    if (!st) {
        if (pflags)
            *pflags = flags;
        if (pnsheets)
            *pnsheets = n;
    }
    return st;
}

xq_status xq_corrections_to_verify(const xq_corrections *c,
                                   xq_verify_correction **pvc)
{
    xq_verify_correction *vc;
    size_t i;
    if (pvc)
        *pvc = NULL;
    XQ_FAIL_IF(!c || !pvc, XQ_EINVAL, "corrections arguments");
    if (!c->nplies)
        return XQ_OK;
    vc = xq_calloc(c->nplies, sizeof *vc);
    XQ_FAIL_IF(!vc, XQ_ENOMEM, "corrections");
    for (i = 0; i < c->nplies; i++) {
        vc[i].ply = c->plies[i].ply;
        vc[i].move = c->plies[i].move;
    }
    *pvc = vc;
    return XQ_OK;
}

/* ---- two sheets of one game ---------------------------------------------- */

static xq_status put_sheet_json(xq_strbuf *sb, const xq_game *g, const xq_game *alone,
                                const xq_scan_input *in)
{
    size_t i, review = 0, nf = 0, review_alone = 0;
    for (i = 0; i < g->nplies; i++)
        review += g->plies[i].review;
    for (i = 0; i < alone->nplies; i++)
        review_alone += alone->plies[i].review;
    for (i = 0; i < g->nfindings; i++)
        nf += g->findings[i].severity != XQ_SEV_INFO;
    XQ_TRY(xq_strbuf_puts(sb, "{\"source\": "));
    XQ_TRY(xq_json_put_str(sb, in ? in->source : NULL));
    XQ_TRY(xq_strbuf_puts(sb, ", \"owner\": "));
    XQ_TRY(xq_json_put_str(sb, g->owner == XQ_RED ? "red" : g->owner == XQ_BLACK ? "black" : NULL));
    XQ_TRY(xq_strbuf_puts(sb, ", \"input_sha256\": "));
    XQ_TRY(xq_json_put_str(sb, in ? in->input_sha256 : NULL));
    XQ_TRY(xq_strbuf_printf(sb, ", \"unrecorded\": {\"red\": %d, \"black\": %d, \"total\": %d, "
                            "\"longest_run\": %d, \"exceeded\": %s}, \"review\": %zu, "
                            "\"findings\": %zu, \"plies_alone\": %zu, \"review_alone\": %zu}",
                            g->unrecorded.red, g->unrecorded.black, g->unrecorded.total,
                            g->unrecorded.longest_run, g->unrecorded.exceeded ? "true" : "false",
                            review, nf, alone->nplies, review_alone));
    return XQ_OK;
}

/* The pair's JSON: the report of the reconciled game with the "pair"
 * member added as its last member. */
static xq_status pair_json(const xq_game *pair, xq_game *const g[2], xq_game *const alone[2],
                           const xq_scan_input in[2],
                           const char *by, const signed char *ply_sheet, size_t review_added,
                           xq_strbuf *out)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_status st;
    size_t end, i;
    const char *t;
    int k;
    st = xq_report_json(pair, &sb);
    if (st)
        goto out;
    t = xq_strbuf_cstr(&sb);
    end = sb.len;
    while (end > 0 && t[end - 1] != '}')
        end--;
    if (end == 0) {
        st = XQ_EINVAL;
        goto out;
    }
    end--;                                   /* the closing brace */
    while (end > 0 && (t[end - 1] == '\n' || t[end - 1] == ' ' || t[end - 1] == '\t'))
        end--;
    st = xq_strbuf_append(out, t, end);
    if (!st) st = xq_strbuf_puts(out, ",\n\t\"pair\":\t{\"by\": ");
    if (!st) st = xq_json_put_str(out, by);
    if (!st) st = xq_strbuf_puts(out, ", \"sheets\": [");
    for (k = 0; k < 2 && !st; k++) {
        st = put_sheet_json(out, g[k], alone[k], &in[k]);
        if (!st && k == 0)
            st = xq_strbuf_puts(out, ", ");
    }
    if (!st) st = xq_strbuf_puts(out, "], \"ply_sheet\": [");
    for (i = 0; i < pair->nplies && !st; i++) {
        if (ply_sheet[i] < 0)
            st = xq_strbuf_printf(out, "%snull", i ? ", " : "");
        else
            st = xq_strbuf_printf(out, "%s%d", i ? ", " : "", ply_sheet[i]);
    }
    if (!st) st = xq_strbuf_printf(out, "], \"review_added\": %zu}\n}\n", review_added);
out:
    xq_strbuf_free(&sb);
    return st;
}

xq_status xq_scan_pair(xq_scanner *sc, const char *const path[2],
                       const xq_scan_input in[2], const xq_scan_input *pin,
                       const char *by, xq_scan_emit_fn emit, void *ud, int *pflags,
                       char *err, size_t errlen)
{
    xq_sheet **sheets[2] = { NULL, NULL };
    xq_sheet *one[2];
    size_t n[2] = { 0, 0 }, i;
    xq_game *pair = NULL, *g[2] = { NULL, NULL }, *alone[2] = { NULL, NULL };
    xq_verify_options vo;
    xq_verify_correction *vc = NULL;
    xq_sheet_cells cells[2];
    xq_cell_source src[2];
    const xq_cell_source *two[2];
    const char *res[2];
    signed char *ply_sheet = NULL;
    xq_html_options ho;
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_status st = XQ_OK;
    size_t review_added = 0;
    bool weak = false;
    int k;
    if (pflags)
        *pflags = 0;
    if (err && errlen)
        err[0] = '\0';
    XQ_FAIL_IF(!sc || !path || !path[0] || !path[1] || !in || !emit || !err || !errlen,
               XQ_EINVAL, "scan_pair: NULL");
    for (k = 0; k < 2; k++) {
        char e[512] = "";
        st = xq_ocr_read_file(sc->ocr, path[k], &sheets[k], &n[k], e, sizeof e);
        if (!st && n[k] == 0) {
            st = XQ_EIMAGE;
            snprintf(e, sizeof e, "no page");
        }
        if (st) {
            snprintf(err, errlen, "sheet %d (%s): %s", k + 1, in[k].source ? in[k].source : path[k],
                     e[0] ? e : xq_status_str(st));
            goto out;
        }
        one[k] = sheets[k][0];
    }
    st = xq_game_create(&pair);
    for (k = 0; k < 2 && !st; k++) {
        st = xq_game_create(&g[k]);
        if (!st) st = set_input(g[k], &in[k]);
        if (!st) st = set_header(g[k], &one[k], 1);
    }
    if (!st) st = set_input(pair, pin);
    if (!st) st = set_header(pair, one, 2);
    if (st)
        goto out;
    pair->owner = -1;

    xq_verify_options_init(&vo);
    vo.threshold = sc->threshold;
    for (k = 0; k < 2; k++)
        res[k] = norm_result(xq_sheet_header(one[k], XQ_HDR_RESULT));
    vo.recorded_result = res[0] ? res[0] : res[1];
    if (corrections_match(sc, pin) && sc->corr->nplies) {
        st = xq_corrections_to_verify(sc->corr, &vc);
        if (st)
            goto out;
        vo.corrections = vc;
        vo.ncorrections = sc->corr->nplies;
    }
    for (k = 0; k < 2; k++) {
        cells[k].ocr = sc->ocr;
        cells[k].sheet = one[k];
        xq_verify_source_from_sheet(&cells[k], &src[k]);
        two[k] = &src[k];
    }
    st = xq_verify_pair(two, &vo, pair, g[0], g[1]);
    if (st)
        goto out;
    if (res[0] && res[1] && strcmp(res[0], res[1]))
        st = xq_game_add_finding(pair, 0, XQ_SEV_WARNING, "sheets_disagree", "WXF 7.7",
                                 "the sheets record different results: %s on %s, %s on %s",
                                 res[0], in[0].source ? in[0].source : "sheet 1",
                                 res[1], in[1].source ? in[1].source : "sheet 2");
    for (k = 0; k < 2 && !st; k++) {
        if (xq_sheet_ncells(one[k]) == 0)
            st = xq_game_add_finding(pair, 0, XQ_SEV_WARNING, "no_move_table", "",
                                     "no table of moves was found on %s",
                                     in[k].source ? in[k].source : path[k]);
    }
    if (!st && pair->nplies == 0)
        st = xq_game_add_finding(pair, 0, XQ_SEV_WARNING, "no_moves_read", "",
                                 "no move could be read on either sheet");
    if (st)
        goto out;
    /* which sheet each ply's cell is on: the reconciled ply takes its cell
     * from one sheet, whose own record of the ply has the same cell */
    ply_sheet = xq_malloc(pair->nplies ? pair->nplies : 1);
    if (!ply_sheet) {
        st = XQ_ENOMEM;
        goto out;
    }
    for (i = 0; i < pair->nplies; i++) {
        xq_ply *p = &pair->plies[i];
        ply_sheet[i] = -1;
        for (k = 0; k < 2 && p->has_cell; k++) {
            const xq_ply *q = i < g[k]->nplies ? &g[k]->plies[i] : NULL;
            if (q && q->has_cell && q->cell_page == p->cell_page &&
                !memcmp(q->cell_box, p->cell_box, sizeof q->cell_box)) {
                ply_sheet[i] = (signed char)k;
                add_crop(one[k], p);
                break;
            }
        }
    }
    /* a ply one sheet records as the move and the other as a clear reading
     * that is no legal move (status illegal) is a disagreement, also where
     * the joint decoding did not name it (a misread that was corrected is
     * not: OCR, not the writers, may differ there) */
    for (i = 0; i < pair->nplies && !st; i++) {
        const xq_ply *q0 = i < g[0]->nplies ? &g[0]->plies[i] : NULL;
        const xq_ply *q1 = i < g[1]->nplies ? &g[1]->plies[i] : NULL;
        bool named = false;
        size_t f;
        int a;
        if (!q0 || !q1 || !q0->has_cell || !q1->has_cell || !q0->read || !q1->read ||
            !*q0->read || !*q1->read)
            continue;
        if (q0->status == XQ_PLY_OK && q1->status == XQ_PLY_ILLEGAL)
            a = 0;
        else if (q1->status == XQ_PLY_OK && q0->status == XQ_PLY_ILLEGAL)
            a = 1;
        else
            continue;
        for (f = 0; f < pair->nfindings && !named; f++)
            named = pair->findings[f].ply == (int)i + 1 &&
                    !strcmp(pair->findings[f].code, "sheets_disagree");
        if (named)
            continue;
        st = xq_game_add_finding(pair, (int)i + 1, XQ_SEV_WARNING, "sheets_disagree", "WXF 7.7",
                                 "ply %d (%s): %s reads \"%s\", %s \"%s\"; the game continues "
                                 "with %s", (int)i + 1, pair->plies[i].side == XQ_RED ? "Red" : "Black",
                                 in[a].source ? in[a].source : a ? "sheet 2" : "sheet 1",
                                 g[a]->plies[i].read,
                                 in[1 - a].source ? in[1 - a].source : a ? "sheet 1" : "sheet 2",
                                 g[1 - a]->plies[i].read, pair->plies[i].chinese);
        if (!pair->plies[i].review) {
            pair->plies[i].review = true;
            review_added++;
        }
    }
    if (st)
        goto out;
    /* each sheet decoded on its own as well (its cell scores are cached) */
    for (k = 0; k < 2 && !st; k++) {
        xq_verify_options vk = vo;
        vk.recorded_result = res[k];
        vk.owner = g[k]->owner;
        st = xq_game_create(&alone[k]);
        if (!st)
            st = xq_verify_sheet(&src[k], &vk, alone[k]);
    }
    if (st)
        goto out;
    /* two sheets that cannot be read on their own (fewer than 1 ply in 5
     * left unflagged by each sheet's own decoding) give no confident move:
     * their scores are not calibrated evidence, however well they agree */
    {
        size_t unfl[2] = { 0, 0 };
        for (k = 0; k < 2; k++)
            for (i = 0; i < alone[k]->nplies; i++)
                unfl[k] += !alone[k]->plies[i].review;
        weak = unfl[0] * 5 < alone[0]->nplies + 1 && unfl[1] * 5 < alone[1]->nplies + 1;
        if (weak)
            st = xq_game_add_finding(pair, 0, XQ_SEV_WARNING, "sheets_unreadable", "",
                                     "neither sheet reads well on its own (%zu of %zu and "
                                     "%zu of %zu plies sure): every ply of the reconciled "
                                     "record is for review", unfl[0], alone[0]->nplies,
                                     unfl[1], alone[1]->nplies);
        if (st)
            goto out;
    }
    /* a reconciled ply is left unflagged only where one sheet's own view of
     * the joint decoding leaves the same move unflagged too, and where one
     * sheet decoded alone has the same move at that ply: two weak sheets
     * must not make a confident move that neither sheet reads */
    for (i = 0; i < pair->nplies; i++) {
        xq_ply *p = &pair->plies[i];
        bool backed = false, read_alone = false;
        int best = -1;
        for (k = 0; k < 2; k++) {
            const xq_ply *q = i < g[k]->nplies ? &g[k]->plies[i] : NULL;
            const xq_ply *a = i < alone[k]->nplies ? &alone[k]->plies[i] : NULL;
            if (q && !q->review && q->mv == p->mv)
                backed = true;
            if (a && a->mv == p->mv)
                read_alone = true;
            if (q && q->ncand > 0 && (best < 0 || q->ncand > g[best]->plies[i].ncand))
                best = k;
        }
        if (p->review || (backed && read_alone && !weak))
            continue;
        p->review = true;
        review_added++;
        if (p->ncand == 0 && best >= 0) {
            p->ncand = g[best]->plies[i].ncand;
            memcpy(p->cand, g[best]->plies[i].cand, sizeof p->cand);
        }
        if (p->ncand == 0 && p->mv != XQ_MOVE_NONE) {
            p->ncand = 1;
            p->cand[0].mv = p->mv;
            memcpy(p->cand[0].iccs, p->iccs, sizeof p->cand[0].iccs);
            memcpy(p->cand[0].chinese, p->chinese, sizeof p->cand[0].chinese);
            p->cand[0].score = p->confidence;
        }
    }
    if (xq_game_needs_arbiter(pair) && pflags)
        *pflags |= XQ_SCAN_NEEDS_ARBITER;

    memset(&ho, 0, sizeof ho);
    ho.index_href = pin ? pin->index_href : NULL;
    st = xq_report_pgn(pair, sc->notation, &sb);
    if (!st) st = emit(ud, 1, ".pgn", xq_strbuf_cstr(&sb), sb.len);
    xq_strbuf_reset(&sb);
    if (!st) st = xq_report_html(pair, &ho, &sb);
    if (!st) st = emit(ud, 1, ".html", xq_strbuf_cstr(&sb), sb.len);
    xq_strbuf_reset(&sb);
    if (!st) st = pair_json(pair, g, alone, in, by, ply_sheet, review_added, &sb);
    if (!st) st = emit(ud, 1, ".json", xq_strbuf_cstr(&sb), sb.len);
    if (st && !err[0])
        snprintf(err, errlen, "%s", xq_status_str(st));
out:
    xq_strbuf_free(&sb);
    xq_free(vc);
    xq_free(ply_sheet);
    xq_game_destroy(&pair);
    xq_game_destroy(&g[0]);
    xq_game_destroy(&g[1]);
    xq_game_destroy(&alone[0]);
    xq_game_destroy(&alone[1]);
    for (k = 0; k < 2; k++)
        xq_ocr_sheets_free(&sheets[k], n[k]);
    return st;
}

/* csv.c - summary rows and summary.csv. */
#include <string.h>
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_report.h"

const char *xq_summary_status_name(xq_summary_status st)
{
    static const char *const names[] = { "ok", "review", "failed" };
    return (unsigned)st < XQ_ARRAY_LEN(names) ? names[st] : "unknown";
}

void xq_summary_row_clear(xq_summary_row *r)
{
    if (!r)
        return;
    xq_free(r->name);
    xq_free(r->file);
    xq_free(r->event);
    xq_free(r->round);
    xq_free(r->board);
    xq_free(r->red);
    xq_free(r->black);
    xq_free(r->result);
    xq_free(r->error);
    memset(r, 0, sizeof *r);
}

xq_status xq_summary_row_from_game(const xq_game *g, const char *name,
                                   xq_summary_row *prow)
{
    xq_summary_row r;
    if (prow)
        memset(prow, 0, sizeof *prow);
    XQ_FAIL_IF(!g || !prow, XQ_EINVAL, "summary arguments");
    memset(&r, 0, sizeof r);
    r.name = rep_utf8_clean(name ? name : g->source);
    r.file = rep_utf8_clean(g->source);
    r.event = rep_utf8_clean(g->header.event);
    r.round = rep_utf8_clean(g->header.round);
    r.board = rep_utf8_clean(g->header.board);
    r.red = rep_utf8_clean(g->header.red);
    r.black = rep_utf8_clean(g->header.black);
    r.result = rep_utf8_clean(g->end.recorded_result ? g->end.recorded_result
                                                     : g->header.result);
    r.error = rep_utf8_clean(g->is_error ? g->error : "");
    if (!r.name || !r.file || !r.event || !r.round || !r.board || !r.red ||
        !r.black || !r.result || !r.error) {
        xq_summary_row_clear(&r);
        return XQ_ENOMEM;
    }
    r.plies = (int)g->nplies;
    r.unrec_red = g->unrecorded.red;
    r.unrec_black = g->unrecorded.black;
    r.unrec_total = g->unrecorded.total;
    r.threshold = g->unrecorded.threshold;
    r.exceeded = g->unrecorded.exceeded;
    r.illegal = rep_count_status(g, XQ_PLY_ILLEGAL);
    r.review = rep_count_review(g);
    r.errors = rep_count_severity(g, XQ_SEV_ERROR);
    r.warnings = rep_count_severity(g, XQ_SEV_WARNING);
    r.consistent = g->end.consistent;
    /* The same rule as the exit status (INTERFACE.md): an arbiter is needed
     * for a finding of severity error or warning or a ply under review. */
    if (g->is_error)
        r.status = XQ_SUMMARY_FAILED;
    else if (r.errors || r.warnings || r.review)
        r.status = XQ_SUMMARY_REVIEW;
    else
        r.status = XQ_SUMMARY_OK;
    *prow = r;
    return XQ_OK;
}

xq_status xq_report_summary_csv(const xq_summary_row *rows, size_t n,
                                xq_strbuf *out)
{
    size_t i;
    XQ_FAIL_IF(!out || (!rows && n), XQ_EINVAL, "csv arguments");
    XQ_TRY(xq_strbuf_puts(out,
        "file,event,round,board,red,black,plies,unrecorded_red,"
        "unrecorded_black,unrecorded_total,threshold_exceeded,illegal_moves,"
        "plies_under_review,result_recorded,result_consistent,status\r\n"));
    for (i = 0; i < n; i++) {
        const xq_summary_row *r = &rows[i];
        XQ_TRY(rep_csv_cell(out, r->file));
        XQ_TRY(xq_strbuf_putc(out, ','));
        XQ_TRY(rep_csv_cell(out, r->event));
        XQ_TRY(xq_strbuf_putc(out, ','));
        XQ_TRY(rep_csv_cell(out, r->round));
        XQ_TRY(xq_strbuf_putc(out, ','));
        XQ_TRY(rep_csv_cell(out, r->board));
        XQ_TRY(xq_strbuf_putc(out, ','));
        XQ_TRY(rep_csv_cell(out, r->red));
        XQ_TRY(xq_strbuf_putc(out, ','));
        XQ_TRY(rep_csv_cell(out, r->black));
        XQ_TRY(xq_strbuf_printf(out, ",%d,%d,%d,%d,%s,%d,%d,", r->plies,
                                r->unrec_red, r->unrec_black, r->unrec_total,
                                r->exceeded ? "true" : "false", r->illegal,
                                r->review));
        XQ_TRY(rep_csv_cell(out, r->result));
        XQ_TRY(xq_strbuf_printf(out, ",%s,%s\r\n",
                                r->consistent ? "true" : "false",
                                xq_summary_status_name(r->status)));
    }
    return XQ_OK;
}

xq_status xq_summary_row_read_json(const char *path, const char *name,
                                   xq_summary_row *prow)
{
    xq_game *g = NULL;
    xq_status st;
    if (prow)
        memset(prow, 0, sizeof *prow);
    XQ_FAIL_IF(!path || !prow, XQ_EINVAL, "summary row path");
    XQ_TRY(xq_report_read_json_file(path, &g));
    st = xq_summary_row_from_game(g, name, prow);
    xq_game_destroy(&g);
    return st;
}

/* index.c - the batch index.html: one row per sheet, worst first. */
#include <stdlib.h>
#include <string.h>
#include "html_assets.h"
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_report.h"

#define ESC(s) XQ_TRY(rep_html_esc(sb, (s)))
#define PUT(s) XQ_TRY(xq_strbuf_puts(sb, (s)))
#define PRF(...) XQ_TRY(xq_strbuf_printf(sb, __VA_ARGS__))

/* Larger is worse. */
static int worse(const xq_summary_row *a, const xq_summary_row *b)
{
    if (a->status != b->status)
        return a->status == XQ_SUMMARY_FAILED ? 1
             : b->status == XQ_SUMMARY_FAILED ? -1
             : a->status > b->status ? 1 : -1;
    if (a->exceeded != b->exceeded)
        return a->exceeded ? 1 : -1;
    if (a->illegal != b->illegal)
        return a->illegal > b->illegal ? 1 : -1;
    if (a->errors != b->errors)
        return a->errors > b->errors ? 1 : -1;
    if (a->consistent != b->consistent)
        return a->consistent ? -1 : 1;
    if (a->review != b->review)
        return a->review > b->review ? 1 : -1;
    if (a->unrec_total != b->unrec_total)
        return a->unrec_total > b->unrec_total ? 1 : -1;
    if (a->warnings != b->warnings)
        return a->warnings > b->warnings ? 1 : -1;
    return 0;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const xq_summary_row *a = *(const xq_summary_row *const *)pa;
    const xq_summary_row *b = *(const xq_summary_row *const *)pb;
    int w = worse(a, b);
    if (w)
        return -w;
    return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

static xq_status cell(xq_strbuf *sb, const char *label, const char *s)
{
    PRF("<td data-label=\"%s\">", label);
    ESC(s);
    PUT("</td>");
    return XQ_OK;
}

static xq_status row(xq_strbuf *sb, const xq_summary_row *r, size_t rank)
{
    PRF("<tr class=\"st-%s\"><td data-label=\"Status\" data-k=\"%06zu\">",
        xq_summary_status_name(r->status), rank);
    PRF("<span class=\"badge %s\">%s</span></td><td class=\"name\" data-label=\"Sheet\"><a href=\"",
        xq_summary_status_name(r->status), xq_summary_status_name(r->status));
    XQ_TRY(rep_url_path(sb, r->name));
    PUT(".html\">");
    ESC(r->name);
    PUT("</a>");
    if (r->status == XQ_SUMMARY_FAILED && r->error && *r->error) {
        PUT("<br><small>");
        ESC(r->error);
        PUT("</small>");
    }
    PUT("</td>");
    XQ_TRY(cell(sb, "Event", r->event));
    XQ_TRY(cell(sb, "Round", r->round));
    XQ_TRY(cell(sb, "Board", r->board));
    XQ_TRY(cell(sb, "Red", r->red));
    XQ_TRY(cell(sb, "Black", r->black));
    PRF("<td data-label=\"Plies\" data-k=\"%d\">%d</td>", r->plies, r->plies);
    PRF("<td data-label=\"Unrecorded (R/B)\" data-k=\"%d\" class=\"%s\">%d <small>(%d/%d)</small>%s</td>",
        r->unrec_total, r->exceeded ? "bad" : "", r->unrec_total, r->unrec_red,
        r->unrec_black, r->exceeded ? " &#x2265; threshold" : "");
    PRF("<td data-label=\"Illegal\" data-k=\"%d\" class=\"%s\">%d</td>", r->illegal, r->illegal ? "bad" : "",
        r->illegal);
    PRF("<td data-label=\"Review\" data-k=\"%d\">%d</td>", r->review, r->review);
    PUT("<td data-label=\"Result\">");
    ESC(r->result && *r->result ? r->result : "");
    PRF("%s</td></tr>", r->consistent ? "" : " <span class=\"bad\">&#x2260; board</span>");
    return XQ_OK;
}

static const char INDEX_CSS[] =
"body{margin:0 auto;padding:10px;max-width:1200px;font:15px/1.4 system-ui,'Noto Sans CJK SC',sans-serif;color:#212121}"
"h1{font-size:1.3em}.tablewrap{overflow-x:auto}table{border-collapse:collapse;width:100%}"
"th,td{border-bottom:1px solid #e0e0e0;padding:5px 6px;text-align:left}th{white-space:nowrap}td{overflow-wrap:anywhere;min-width:3em}"
"th{background:#eceff1;cursor:pointer;user-select:none;position:sticky;top:0}"
"th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}"
".badge{border-radius:4px;padding:1px 6px;color:#fff;font-size:.85em}.badge.ok{background:#2e7d32}"
".badge.review{background:#ef6c00}.badge.failed{background:#c62828}.bad{color:#c62828;font-weight:600}"
"tr.st-failed{background:#ffebee}tr.st-review{background:#fff8e1}"
"@media (max-width:640px){#sheets thead{display:none}#sheets tr{display:grid;"
"grid-template-columns:1fr 1fr 1fr;padding:6px 0;border-bottom:2px solid #bdbdbd}"
"#sheets td{border:0;padding:2px 4px}#sheets td.name{grid-column:2 / -1}"
"#sheets td::before{content:attr(data-label);display:block;font-size:.7em;color:#757575}}";

xq_status xq_report_index_html(const xq_summary_row *rows, size_t n,
                               xq_strbuf *sb)
{
    const xq_summary_row **order;
    size_t i, nrev = 0, nfail = 0;
    xq_status st = XQ_OK;
    XQ_FAIL_IF(!sb || (!rows && n), XQ_EINVAL, "index arguments");
    order = xq_malloc((n ? n : 1) * sizeof *order);
    XQ_FAIL_IF(!order, XQ_ENOMEM, "index order");
    for (i = 0; i < n; i++) {
        order[i] = &rows[i];
        nrev += rows[i].status == XQ_SUMMARY_REVIEW;
        nfail += rows[i].status == XQ_SUMMARY_FAILED;
    }
    qsort(order, n, sizeof *order, cmp_rows);
    st = xq_strbuf_printf(sb,
        "<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<title>xqscan: %zu sheets</title><style>%s</style></head><body>"
        "<h1>xqscan: %zu sheets</h1><p>%zu need an arbiter, %zu could not be "
        "processed, %zu clean. Worst first; click a column header to sort.</p>"
        "<div class=\"tablewrap\"><table id=\"sheets\"><thead><tr>"
        "<th data-num>Status</th><th>Sheet</th><th>Event</th><th>Round</th>"
        "<th>Board</th><th>Red</th><th>Black</th><th data-num>Plies</th>"
        "<th data-num>Unrecorded (R/B)</th><th data-num>Illegal</th>"
        "<th data-num>Review</th><th>Result</th></tr></thead><tbody>",
        n, INDEX_CSS, n, nrev, nfail, n - nrev - nfail);
    for (i = 0; st == XQ_OK && i < n; i++)
        st = row(sb, order[i], i);
    xq_free(order);
    XQ_TRY(st);
    PUT("</tbody></table></div><script>");
    PUT(INDEX_JS);
    PUT("</script></body></html>\n");
    return XQ_OK;
}

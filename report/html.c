/* html.c - the arbiter report: one self-contained page per sheet. */
#include <cjson/cJSON.h>
#include <string.h>
#include "html_assets.h"
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_report.h"

#define ESC(s) XQ_TRY(rep_html_esc(sb, (s)))
#define PUT(s) XQ_TRY(xq_strbuf_puts(sb, (s)))
#define PRF(...) XQ_TRY(xq_strbuf_printf(sb, __VA_ARGS__))

typedef struct {
    rep_pos *before;   /* before[i]: position before plies[i]; nplies + 1 */
    long     known;    /* before[0..known] are known; -1: none */
} positions;

static xq_status replay_positions(const xq_game *g, positions *ps)
{
    return rep_replay(g, &ps->before, &ps->known);
}

static long ply_index(const xq_game *g, int ply)
{
    size_t i;
    for (i = 0; i < g->nplies; i++)
        if (g->plies[i].ply == ply)
            return (long)i;
    return -1;
}

static const char *side_name(int side) { return side == XQ_BLACK ? "Black" : "Red"; }

/* The board before plies[idx] with the ply's move (solid) and its other
 * candidates (dashed). */
static xq_status ply_board(xq_strbuf *sb, const xq_game *g,
                           const positions *ps, size_t idx)
{
    const xq_ply *p = &g->plies[idx];
    rep_arrow ar[1 + XQ_MAX_CANDIDATES];
    size_t na = 0;
    int i;
    xq_move mv = rep_ply_move(p);
    xq_strbuf cap = XQ_STRBUF_INIT;
    xq_status st;
    if ((long)idx > ps->known) {
        PUT("<p class=\"nopos\">No diagram: the moves before this ply "
            "cannot all be replayed (a ply without a move), so the position "
            "is not known.</p>");
        return XQ_OK;
    }
    if (mv != XQ_MOVE_NONE)
        ar[na++] = (rep_arrow){ mv, 0 };
    for (i = 0; i < p->ncand && i < XQ_MAX_CANDIDATES; i++) {
        xq_move cm = p->cand[i].mv ? p->cand[i].mv : rep_iccs_parse(p->cand[i].iccs);
        if (cm != XQ_MOVE_NONE && cm != mv)
            ar[na++] = (rep_arrow){ cm, 1 };
    }
    st = xq_strbuf_printf(&cap, "Position before ply %d, %s to move", p->ply,
                          side_name(p->side));
    if (st == XQ_OK) {
        PUT("<figure>");
        st = rep_board_svg(sb, &ps->before[idx], ar, na, xq_strbuf_cstr(&cap));
    }
    if (st == XQ_OK)
        st = xq_strbuf_puts(sb, "<figcaption>");
    if (st == XQ_OK)
        st = rep_html_esc(sb, xq_strbuf_cstr(&cap));
    xq_strbuf_free(&cap);
    XQ_TRY(st);
    if (mv != XQ_MOVE_NONE) {
        PUT(". Blue arrow: the move xqscan chose, ");
        ESC(p->chinese);
        PUT(" (");
        ESC(p->iccs);
        PUT(")");
    }
    if (na > (mv != XQ_MOVE_NONE ? 1u : 0u))
        PUT("; orange dashed: other candidates");
    PUT(".</figcaption></figure>");
    return XQ_OK;
}

static xq_status final_board(xq_strbuf *sb, const xq_game *g, const positions *ps)
{
    rep_arrow ar[1];
    size_t na = 0;
    if (ps->known < (long)g->nplies) {
        PUT("<p class=\"nopos\">No diagram: the moves cannot all be "
            "replayed (a ply without a move), so the final position is not "
            "known.</p>");
        return XQ_OK;
    }
    if (g->nplies)
        ar[na++] = (rep_arrow){ rep_ply_move(&g->plies[g->nplies - 1]), 0 };
    PUT("<figure>");
    XQ_TRY(rep_board_svg(sb, &ps->before[g->nplies], ar, na, "Final position"));
    PUT("<figcaption>Final position");
    if (na)
        PUT("; blue arrow: the last move");
    PUT(".</figcaption></figure>");
    return XQ_OK;
}

static const char *first_rule(const xq_game *g, const char *code)
{
    const xq_finding *f = xq_game_find_finding(g, code, -1);
    return f && f->rule && *f->rule ? f->rule : NULL;
}

static xq_status rule(xq_strbuf *sb, const char *r)
{
    if (!r || !*r)
        return XQ_OK;
    PUT(" <span class=\"rule\">");
    ESC(r);
    PUT("</span>");
    return XQ_OK;
}

/* A doubtful illegal move: a record that is no legal move as the game is
 * reconstructed but is one if an earlier record is the wrong one. */
static int is_doubtful(const xq_finding *f)
{
    return f->code && strcmp(f->code, "doubtful_illegal_move") == 0 && f->ply > 0;
}

static xq_status verdict(xq_strbuf *sb, const xq_game *g)
{
    int illegal = rep_count_status(g, XQ_PLY_ILLEGAL), doubtful = 0;
    int review = rep_count_review(g);
    int errors = rep_count_severity(g, XQ_SEV_ERROR);
    int warnings = rep_count_severity(g, XQ_SEV_WARNING);
    int attention = g->is_error || review || errors || warnings;
    const char *r;
    size_t i;
    int k;
    PRF("<section id=\"verdict\" class=\"verdict%s\"><h2>Verdict</h2>",
        attention ? " attention" : "");
    if (g->is_error) {
        PUT("<p class=\"headline\">This sheet could not be processed: ");
        ESC(g->error);
        PUT("</p>");
    } else if (attention) {
        PRF("<p class=\"headline\">Needs an arbiter: %d %s under review, %d "
            "%s, %d %s.</p>", review, review == 1 ? "ply" : "plies", errors,
            errors == 1 ? "error" : "errors", warnings,
            warnings == 1 ? "warning" : "warnings");
    } else {
        PUT("<p class=\"headline\">Nothing to review: every move read and "
            "legal, the record is complete.</p>");
    }
    PUT("<ul>");
    PRF("<li class=\"%s\"><b>Unrecorded moves:</b> %d (threshold %d; Red %d, "
        "Black %d; longest run %d) &mdash; %s",
        g->unrecorded.exceeded ? "bad" : g->unrecorded.total ? "warn" : "good",
        g->unrecorded.total, g->unrecorded.threshold, g->unrecorded.red,
        g->unrecorded.black, g->unrecorded.longest_run,
        g->unrecorded.exceeded ? "<b>threshold reached</b>: the player may be "
                                 "declared lost"
                               : "below the threshold");
    XQ_TRY(rule(sb, "WXF 7.6, 3.1.F"));
    PUT("</li>");
    for (i = 0; i < g->nfindings; i++)
        doubtful += is_doubtful(&g->findings[i]);
    PRF("<li class=\"%s\"><b>Illegal moves:</b> %d",
        illegal ? "bad" : doubtful ? "warn" : "good", illegal);
    for (i = 0, k = 0; i < g->nplies; i++)
        if (g->plies[i].status == XQ_PLY_ILLEGAL)
            PRF("%s<a href=\"#ply-%d\">ply %d</a>", k++ ? ", " : " (", g->plies[i].ply,
                g->plies[i].ply);
    if (k)
        PUT(")");
    /* records that are no legal move as reconstructed, but are one if an
     * earlier record is the wrong one: not counted, listed */
    if (doubtful)
        PRF("; doubtful %d", doubtful);
    for (i = 0, k = 0; i < g->nfindings; i++)
        if (is_doubtful(&g->findings[i]))
            PRF("%s<a href=\"#ply-%d\">ply %d</a>", k++ ? ", " : " (",
                g->findings[i].ply, g->findings[i].ply);
    if (k)
        PUT(")");
    r = first_rule(g, "illegal_move");
    XQ_TRY(rule(sb, r ? r : "WXF 7.1, 7.7"));
    PUT("</li>");
    PRF("<li class=\"%s\"><b>Result:</b> recorded ", g->end.consistent ? "good" : "bad");
    ESC(g->end.recorded_result ? g->end.recorded_result : "none");
    PRF("; final position %s &mdash; %s", xq_end_position_name(g->end.position),
        g->end.consistent ? "consistent" : "<b>not consistent</b>");
    r = first_rule(g, "result_mismatch");
    if (!r)
        r = first_rule(g, g->end.position == XQ_END_STALEMATE ? "stalemate" : "checkmate");
    XQ_TRY(rule(sb, r ? r : "WXF 3.1, 3.2"));
    PUT("</li></ul></section>");
    return XQ_OK;
}

static xq_status findings(xq_strbuf *sb, const xq_game *g, const positions *ps)
{
    size_t i;
    PRF("<section id=\"findings\"><h2>Findings (%zu)</h2>", g->nfindings);
    if (!g->nfindings)
        PUT("<p>None.</p>");
    for (i = 0; i < g->nfindings; i++) {
        const xq_finding *f = &g->findings[i];
        long idx = f->ply > 0 ? ply_index(g, f->ply) : -1;
        PRF("<div class=\"finding %s\" id=\"finding-%zu\"><p><span class=\"sev\">%s</span> ",
            xq_severity_name(f->severity), i + 1, xq_severity_name(f->severity));
        if (f->ply > 0)
            PRF("<a href=\"#ply-%d\">ply %d</a> ", f->ply, f->ply);
        PUT("<code>");
        ESC(f->code);
        PUT("</code>");
        XQ_TRY(rule(sb, f->rule));
        PUT("</p><p>");
        ESC(f->message);
        PUT("</p>");
        if (idx >= 0)
            XQ_TRY(ply_board(sb, g, ps, (size_t)idx));
        else if (f->ply <= 0 && !g->is_error)
            XQ_TRY(final_board(sb, g, ps));
        PUT("</div>");
    }
    PUT("</section>");
    return XQ_OK;
}

static xq_status crop_img(xq_strbuf *sb, const xq_ply *p)
{
    if (p->crop.px && p->crop.w > 0 && p->crop.h > 0) {
        PUT("<img class=\"crop\" alt=\"cell image\" src=\"");
        XQ_TRY(rep_crop_data_uri(sb, &p->crop));
        PUT("\">");
    } else {
        PUT(p->has_cell ? "<span class=\"nocrop\">(no image)</span>"
                        : "<span class=\"nocrop\">(no cell)</span>");
    }
    return XQ_OK;
}

static xq_status move_table(xq_strbuf *sb, const xq_game *g)
{
    size_t i;
    int c;
    PUT("<section id=\"moves\"><h2>Moves</h2><label class=\"filter\">"
        "<input type=\"checkbox\" id=\"only-flagged\"> only plies that are not "
        "plain reads (corrected, unreadable, illegal, missing or under review)"
        "</label><div class=\"tablewrap\">"
        "<table class=\"moves\"><thead><tr><th>Ply</th><th>Cell</th><th>Read</th>"
        "<th>Move</th><th>Status</th><th>Conf.</th><th>Candidates</th></tr>"
        "</thead><tbody>");
    for (i = 0; i < g->nplies; i++) {
        const xq_ply *p = &g->plies[i];
        PRF("<tr id=\"ply-%d\" class=\"s-%s%s\"><td class=\"ply\" data-label=\"Ply\">"
            "%d <span class=\"%s\">%s</span></td><td class=\"cellimg\" data-label=\"Cell\">",
            p->ply, xq_ply_status_name(p->status), p->review ? " review" : "",
            p->ply, p->side == XQ_BLACK ? "black" : "red",
            p->side == XQ_BLACK ? "&#x9ed1;" : "&#x7ea2;");
        XQ_TRY(crop_img(sb, p));
        PUT("</td><td data-label=\"Read\">");
        ESC(p->read && *p->read ? p->read : "");
        PUT("</td><td data-label=\"Move\">");
        if (rep_ply_move(p) != XQ_MOVE_NONE) {
            PUT("<span class=\"mv\">");
            ESC(p->chinese);
            PUT("</span> <span class=\"iccs\">");
            ESC(p->iccs);
            PUT("</span>");
            if (p->source != XQ_SRC_READ && p->source != XQ_SRC_NONE)
                PRF(" <span class=\"iccs\">(%s)</span>", xq_move_source_name(p->source));
        } else {
            PUT("&mdash;");
        }
        PRF("</td><td class=\"st\" data-label=\"Status\">%s%s</td>"
            "<td class=\"conf\" data-label=\"Confidence\">%.0f%%</td>"
            "<td class=\"cands\" data-label=\"Candidates\">",
            xq_ply_status_name(p->status), p->review ? " (review)" : "",
            p->confidence * 100.0);
        for (c = 0; c < p->ncand && c < XQ_MAX_CANDIDATES; c++) {
            PUT(c ? "<br>" : "");
            ESC(p->cand[c].chinese);
            PUT(" <span class=\"iccs\">");
            ESC(p->cand[c].iccs);
            PRF(" %.0f%%</span>", p->cand[c].score * 100.0);
        }
        PUT("</td></tr>");
    }
    PUT("</tbody></table></div></section>");
    return XQ_OK;
}

static xq_status review(xq_strbuf *sb, const xq_game *g, const positions *ps,
                        const char *fname)
{
    size_t i;
    int c, n = rep_count_review(g);
    cJSON *meta;
    char *mt, *src, *sha, *fn;
    xq_status st;
    PRF("<section id=\"review\"><h2>Review (%d %s)</h2>", n, n == 1 ? "ply" : "plies");
    if (n) {
        PUT("<p>For each flagged ply pick the move that was played, or type it "
            "(ICCS such as <code>h2e2</code>, or Chinese such as 炮二平五), then "
            "save the corrections file and run <code>xqscan --corrections FILE</code>. "
            "Plies left unanswered keep xqscan&#39;s move. Decided: "
            "<span id=\"rv-progress\">0</span>.</p>");
    } else {
        PUT("<p>No ply is flagged.</p>");
    }
    for (i = 0; i < g->nplies; i++) {
        const xq_ply *p = &g->plies[i];
        if (!p->review)
            continue;
        PRF("<fieldset class=\"rv\" data-ply=\"%d\"><legend><a href=\"#ply-%d\">Ply %d</a> "
            "&middot; %s &middot; %s</legend>", p->ply, p->ply, p->ply,
            side_name(p->side), xq_ply_status_name(p->status));
        XQ_TRY(crop_img(sb, p));
        PUT("<p>Read: <b>");
        ESC(p->read && *p->read ? p->read : "(nothing)");
        PUT("</b></p>");
        for (c = 0; c < p->ncand && c < XQ_MAX_CANDIDATES; c++) {
            PRF("<label><input type=\"radio\" name=\"rv-%d\" value=\"", p->ply);
            ESC(p->cand[c].iccs);
            PUT("\"> ");
            ESC(p->cand[c].chinese);
            PUT(" <span class=\"iccs\">");
            ESC(p->cand[c].iccs);
            PRF(" &middot; %.0f%%%s</span></label>", p->cand[c].score * 100.0,
                strcmp(p->cand[c].iccs, p->iccs) == 0 ? " &middot; xqscan&#39;s choice" : "");
        }
        PRF("<label><input type=\"radio\" class=\"other\" name=\"rv-%d\" value=\"\"> "
            "Other: <input type=\"text\" class=\"typed\" autocomplete=\"off\" "
            "aria-label=\"move played at ply %d\" placeholder=\"h2e2 / 炮二平五\"></label>",
            p->ply, p->ply);
        PUT("<details><summary>Board</summary>");
        XQ_TRY(ply_board(sb, g, ps, i));
        PUT("</details></fieldset>");
    }
    if (n)
        PUT("<p><button type=\"button\" id=\"save\">Save corrections</button></p>"
            "<pre id=\"corrections-json\" hidden></pre>");
    PUT("</section>");
    /* metadata for the script: JSON made safe for a <script> element */
    src = rep_utf8_clean(g->source ? g->source : "");
    sha = rep_utf8_clean(g->input_sha256 ? g->input_sha256 : "");
    fn = rep_utf8_clean(fname);
    meta = cJSON_CreateObject();
    mt = NULL;
    if (src && sha && fn && meta && cJSON_AddStringToObject(meta, "source", src) &&
        cJSON_AddStringToObject(meta, "input_sha256", sha) &&
        cJSON_AddStringToObject(meta, "file", fn))
        mt = cJSON_PrintUnformatted(meta);
    cJSON_Delete(meta);
    xq_free(src);
    xq_free(sha);
    xq_free(fn);
    XQ_FAIL_IF(!mt, XQ_ENOMEM, "review metadata");
    st = xq_strbuf_puts(sb, "<script type=\"application/json\" id=\"xq-meta\">");
    if (st == XQ_OK)
        st = rep_script_json(sb, mt);
    cJSON_free(mt);
    XQ_TRY(st);
    PUT("</script><script>");
    PUT(REPORT_JS);
    PUT("</script>");
    return XQ_OK;
}

static xq_status corrections_name(const xq_game *g, const xq_html_options *o,
                                  xq_strbuf *out)
{
    const char *src, *base, *dot;
    if (o && o->corrections_name)
        return xq_strbuf_puts(out, o->corrections_name);
    src = g->source && *g->source ? g->source : "sheet";
    base = strrchr(src, '/');
    base = base ? base + 1 : src;
    dot = strrchr(base, '.');
    XQ_TRY(xq_strbuf_append(out, base, dot && dot != base ? (size_t)(dot - base)
                                                          : strlen(base)));
    return xq_strbuf_puts(out, ".corrections.json");
}

static xq_status page(xq_strbuf *sb, const xq_game *g, const xq_html_options *o,
                      const positions *ps, const char *fname)
{
    const xq_header *h = &g->header;
    PUT("<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<title>xqscan: ");
    ESC(g->source);
    PUT("</title><style>");
    PUT(REPORT_CSS);
    PUT("</style></head><body><header>");
    if (o && o->index_href) {
        PUT("<p><a href=\"");
        ESC(o->index_href);
        PUT("\">&larr; all sheets</a></p>");
    }
    PUT("<h1>");
    ESC(g->source && *g->source ? g->source : "(unnamed sheet)");
    PUT("</h1><p class=\"meta\">");
    ESC(h->event && *h->event ? h->event : "(no event)");
    if (h->round && *h->round) {
        PUT(" &middot; round ");
        ESC(h->round);
    }
    if (h->board && *h->board) {
        PUT(" &middot; board ");
        ESC(h->board);
    }
    if (h->date && *h->date) {
        PUT(" &middot; ");
        ESC(h->date);
    }
    PUT("</p><p class=\"meta\"><span class=\"red\">");
    ESC(h->red && *h->red ? h->red : "Red ?");
    PUT("</span> vs <span class=\"black\">");
    ESC(h->black && *h->black ? h->black : "Black ?");
    PUT("</span> &middot; result ");
    ESC(h->result ? h->result : "not recorded");
    if (g->owner == XQ_RED || g->owner == XQ_BLACK)
        PRF(" &middot; %s's sheet", side_name(g->owner));
    PUT("</p></header>");
    XQ_TRY(verdict(sb, g));
    XQ_TRY(findings(sb, g, ps));
    XQ_TRY(move_table(sb, g));
    XQ_TRY(review(sb, g, ps, fname));
    PUT("<footer>xqscan ");
    ESC(g->version ? g->version : XQ_VERSION);
    PUT(" &middot; input sha256 ");
    ESC(g->input_sha256 && *g->input_sha256 ? g->input_sha256 : "unknown");
    PUT("</footer></body></html>\n");
    return XQ_OK;
}

xq_status xq_report_html(const xq_game *g, const xq_html_options *opts,
                         xq_strbuf *out)
{
    positions ps = { NULL, -1 };
    xq_strbuf fname = XQ_STRBUF_INIT;
    xq_status st;
    XQ_FAIL_IF(!g || !out, XQ_EINVAL, "html arguments");
    st = replay_positions(g, &ps);
    if (st == XQ_OK)
        st = corrections_name(g, opts, &fname);
    if (st == XQ_OK)
        st = page(out, g, opts, &ps, xq_strbuf_cstr(&fname));
    xq_free(ps.before);
    xq_strbuf_free(&fname);
    return st;
}

/* bench_e2e.c - the verifier's figures end to end: rendered scoresheets
 * (tools/render/render_sheets.py, with ground truth) through the real scan
 * path, xq_ocr_read_file -> xq_verify_source_from_sheet -> xq_verify_sheet
 * (as cli/scan_file.c does), each ply compared with the truth.
 *
 *   bench_e2e E2E.tsv [THRESHOLD]
 * E2E.tsv comes from bench/e2e_truth.py; bench/bench_e2e.sh renders the
 * sheets and runs this. Without arguments it prints a note and exits 0
 * (bench/run.sh runs every bench binary; bench_e2e.sh is the real run).
 *
 * Printed per writing style x degradation and in total (issue 5 "must
 * show"), one row per group:
 *   legible      plies written legibly (flag ok or struck-and-rewritten)
 *   right%       of those, decoded move == the move played
 *   flag%        of those, review true
 *   silent       plies (any kind) with review false and a wrong move
 *   blk/ill      blank and illegible plies: reconstructed right / all
 *   illegal      injected illegal moves reported illegal at their ply / all
 *   skip         skipped plies reported missing without a cell at their
 *                ply / all
 *   f.ill f.skip illegal / skipped findings where nothing was injected
 *   doubt        doubtful illegal moves (a record no legal move on the
 *                decoded board, one had an earlier ply gone otherwise):
 *                at injected plies / elsewhere
 *   ill.u        illegible (scribbled) records reported unreadable / all
 *   f.unr        legible records reported unreadable (counted as
 *                unrecorded, a reading that failed)
 *   count        sheets whose unrecorded total is exact / sheets
 *   thr          sheets whose threshold verdict is right / sheets
 *   ocr s, ver s CPU seconds per sheet: xq_ocr_read_file, xq_verify_sheet
 *                (the verifier's time includes the lazy cell scoring it
 *                asks the OCR for)
 * Env: XQ_E2E_VERBOSE (see verbose below); XQ_E2E_BEAM=N decodes with a
 * beam of N prefixes instead of the default (a probe: a wrong move
 * reported sure at another beam is a hole in the doubt, not luck).
 * Then pairs (Red's and Black's sheet of one game): the reconciled record
 * (xq_verify_pair) against each sheet decoded alone. Every wrong unflagged
 * ply is listed ("silent ...") so that it can be looked at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xqscan/xq_board.h"
#include "xqscan/xq_game.h"
#include "xqscan/xq_ocr.h"
#include "xqscan/xq_verify.h"

#include "e2e_truth.h"

typedef struct {
    char key[48];
    long sheets, legible, right, flagged, silent, plies;
    long bi, bi_right, inj, inj_found, skip, skip_found, false_ill, false_skip;
    long inj_doubt, doubt;   /* doubtful illegal moves: injected / others */
    long ill, ill_unread, false_unread;
    long count_ok, thr_ok;
    double ocr_s, ver_s;
} tally;

static tally T[32];
static int nt;
static int threshold = 16;
static int verbose;   /* env XQ_E2E_VERBOSE: list every flagged or wrong ply
                         and every ply that was not written legibly, and
                         every flagged or wrong ply of a reconciled pair
                         ("pair ply ...") */

static tally *tal(const char *key)
{
    int i;
    for (i = 0; i < nt; i++)
        if (!strcmp(T[i].key, key))
            return &T[i];
    if (nt == 31)
        return &T[31];
    memset(&T[nt], 0, sizeof T[nt]);
    snprintf(T[nt].key, sizeof T[nt].key, "%s", key);
    return &T[nt++];
}

static int has_code(const xq_game *g, const char *code)
{
    size_t i;
    for (i = 0; i < g->nfindings; i++)
        if (!strcmp(g->findings[i].code, code))
            return 1;
    return 0;
}

static const char *status_name(xq_ply_status s)
{
    static const char *const n[] = { "ok", "corrected", "unreadable", "illegal",
                                     "missing" };
    return (unsigned)s < 5 ? n[s] : "?";
}

/* Score one decoded sheet against its truth page into t. */
static void score(const xq_game *g, const tpage *tp, tally *t, const char *what)
{
    int i, last = -1, truth_unrec = 0, exceeded;
    for (i = 0; i < tp->n; i++)
        if (tp->p[i].flag != F_BLANK && tp->p[i].flag != F_SKIP)
            last = i;
    t->sheets++;
    for (i = 0; i < tp->n; i++) {
        const tply *y = &tp->p[i];
        const xq_ply *q = i < (int)g->nplies ? &g->plies[i] : NULL;
        int right = q && q->mv == y->mv;
        t->plies++;
        if (q && !q->review && !right) {
            t->silent++;
            printf("silent %s %s p%d ply %d (%s): truth %s, decoded %s (%s, "
                   "read \"%s\", conf %.4f)\n", what, tp->img, tp->page, i + 1,
                   flag_names[y->flag], y->iccs, q->iccs, status_name(q->status),
                   q->read ? q->read : "", q->confidence);
        }
        if (verbose && q && ((q->review || !right) || y->flag != F_OK))
            printf("ply %s p%d %d (%s): truth %s, decoded %s (%s%s, read \"%s\", "
                   "conf %.4f)\n", tp->img, tp->page, i + 1, flag_names[y->flag],
                   y->iccs, q->iccs, status_name(q->status),
                   q->review ? " review" : "", q->read ? q->read : "",
                   q->confidence);
        if (i <= last && (y->flag == F_BLANK || y->flag == F_ILL || y->flag == F_SKIP))
            truth_unrec++;
        switch (y->flag) {
        case F_OK:
        case F_STRUCK:
            t->legible++;
            t->right += right;
            t->flagged += q ? q->review : 1;
            t->false_unread += q && q->status == XQ_PLY_UNREADABLE;
            break;
        case F_ILL:
            t->ill++;
            t->ill_unread += q && q->status == XQ_PLY_UNREADABLE;
            /* fall through */
        case F_BLANK:
            t->bi++;
            t->bi_right += right;
            break;
        case F_INJ:
            t->inj++;
            t->inj_found += q && q->status == XQ_PLY_ILLEGAL;
            break;
        case F_SKIP:
            t->skip++;
            t->skip_found += q && q->status == XQ_PLY_MISSING && !q->has_cell;
            break;
        }
        if (q && q->status == XQ_PLY_ILLEGAL && y->flag != F_INJ)
            t->false_ill++;
        if (q && xq_game_find_finding(g, "doubtful_illegal_move", i + 1)) {
            if (y->flag == F_INJ)
                t->inj_doubt++;
            else
                t->doubt++;
        }
        if (q && q->status == XQ_PLY_MISSING && !q->has_cell && y->flag != F_SKIP &&
            i <= last)
            t->false_skip++;
    }
    t->count_ok += g->unrecorded.total == truth_unrec;
    if (g->unrecorded.total != truth_unrec)
        printf("count %s %s p%d: unrecorded %d, truth %d\n", what, tp->img,
               tp->page, g->unrecorded.total, truth_unrec);
    exceeded = truth_unrec >= threshold;
    t->thr_ok += (g->unrecorded.exceeded != 0) == exceeded &&
                 has_code(g, "unrecorded_threshold") == exceeded;
}

static void add(tally *a, const tally *b)
{
    a->sheets += b->sheets; a->legible += b->legible; a->right += b->right;
    a->flagged += b->flagged; a->silent += b->silent; a->plies += b->plies;
    a->bi += b->bi; a->bi_right += b->bi_right; a->inj += b->inj;
    a->inj_found += b->inj_found; a->skip += b->skip;
    a->skip_found += b->skip_found; a->false_ill += b->false_ill;
    a->false_skip += b->false_skip; a->count_ok += b->count_ok;
    a->inj_doubt += b->inj_doubt; a->doubt += b->doubt;
    a->ill += b->ill; a->ill_unread += b->ill_unread;
    a->false_unread += b->false_unread;
    a->thr_ok += b->thr_ok; a->ocr_s += b->ocr_s; a->ver_s += b->ver_s;
}

static double pct(long a, long b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void row(const tally *t)
{
    printf("%-14s %3ld %6ld %8.2f %6.2f %6ld %4ld/%-4ld %3ld/%-3ld %3ld/%-3ld %5ld %3ld/%-3ld "
           "%6ld %3ld/%-3ld %5ld %3ld/%-3ld %3ld/%-3ld %6.2f %6.3f\n",
           t->key, t->sheets, t->legible, pct(t->right, t->legible),
           pct(t->flagged, t->legible), t->silent, t->bi_right, t->bi,
           t->inj_found, t->inj, t->skip_found, t->skip, t->false_ill,
           t->inj_doubt, t->doubt, t->false_skip, t->ill_unread, t->ill,
           t->false_unread, t->count_ok, t->sheets, t->thr_ok, t->sheets,
           t->sheets ? t->ocr_s / t->sheets : 0, t->sheets ? t->ver_s / t->sheets : 0);
}

/* One decoded sheet kept for a pair. */
typedef struct {
    char       img[512];
    xq_sheet **sheets;
    size_t     ns;
    const tpage *tp;
} held;

static int verify_one(xq_ocr *ocr, xq_sheet *sh, int owner, xq_game **pg,
                      double *psecs)
{
    xq_sheet_cells cells;
    xq_cell_source src;
    xq_verify_options vo;
    double t0;
    if (xq_game_create(pg) != XQ_OK)
        return -1;
    (*pg)->owner = owner;
    xq_verify_options_init(&vo);
    vo.threshold = threshold;
    if (getenv("XQ_E2E_BEAM"))
        vo.beam = atoi(getenv("XQ_E2E_BEAM"));
    cells.ocr = ocr;
    cells.sheet = sh;
    xq_verify_source_from_sheet(&cells, &src);
    t0 = cpu();
    if (xq_verify_sheet(&src, &vo, *pg) != XQ_OK)
        return -1;
    *psecs = cpu() - t0;
    return 0;
}

static void pair_score(const xq_game *g, const tpage *tp, long *right,
                       long *flagged, long *silent)
{
    int i;
    for (i = 0; i < tp->n; i++) {
        const xq_ply *q = i < (int)g->nplies ? &g->plies[i] : NULL;
        int ok = q && q->mv == tp->p[i].mv;
        *right += ok;
        *flagged += q ? q->review : 1;
        *silent += q && !q->review && !ok;
        if (verbose && q && (q->review || !ok))
            printf("pair ply %s %d: truth %s, decoded %s (%s%s, conf %.4f)\n",
                   tp->img, i + 1, tp->p[i].iccs, q->iccs,
                   status_name(q->status), q->review ? " review" : "",
                   q->confidence);
    }
}

int main(int argc, char **argv)
{
    tpage *pg;
    int n, i, nonstd = 0, fails = 0;
    xq_ocr *ocr = NULL;
    held H[64];
    int nh = 0;
    long pr[3] = { 0, 0, 0 }, pf[3] = { 0, 0, 0 }, ps[3] = { 0, 0, 0 }, pn = 0, npairs = 0;
    tally all;

    if (argc < 2) {
        printf("bench_e2e: run bench/bench_e2e.sh BUILD_DIR (renders sheets)\n");
        return 0;
    }
    if (argc > 2)
        threshold = atoi(argv[2]);
    verbose = getenv("XQ_E2E_VERBOSE") != NULL;
    pg = truth_open(argv[1], &n, &ocr);
    if (!pg)
        return 1;
    for (i = 0; i < n; i++) {
        const tpage *tp = &pg[i];
        xq_sheet **sheets = NULL;
        size_t ns = 0;
        char key[48];
        double ocr_s, ver_s = 0;
        xq_game *g = NULL;
        tally *t;
        int keep = strcmp(tp->pair, "-") != 0 && nh < 64;
        if (!tp->stdstart) {
            nonstd++;
            continue;
        }
        if (tp->page != 0)
            continue;   /* the bench renders one page per image */
        if (getenv("XQ_E2E_ONLY") && !strstr(tp->img, getenv("XQ_E2E_ONLY")))
            continue;   /* env XQ_E2E_ONLY: only images whose path has this */
        if (!truth_read(ocr, tp, &sheets, &ns, &ocr_s)) {
            fails++;
            continue;
        }
        if (verify_one(ocr, sheets[0], -1, &g, &ver_s) != 0) {
            printf("fail verify %s\n", tp->img);
            fails++;
        } else {
            snprintf(key, sizeof key, "%s-%s", tp->style, tp->deg);
            t = tal(key);
            t->ocr_s += ocr_s;
            t->ver_s += ver_s;
            score(g, tp, t, "sheet");
        }
        xq_game_destroy(&g);
        if (!keep) {
            xq_ocr_sheets_free(&sheets, ns);
            continue;
        }
        /* a pair: keep this sheet until its partner is read */
        snprintf(H[nh].img, sizeof H[nh].img, "%s", tp->img);
        H[nh].sheets = sheets;
        H[nh].ns = ns;
        H[nh].tp = tp;
        nh++;
        {
            int a, b;
            char red[512], *bar;
            snprintf(red, sizeof red, "%s", tp->pair);
            bar = strchr(red, '|');
            if (!bar)
                continue;
            *bar = '\0';
            for (a = 0; a < nh; a++)
                for (b = 0; b < nh; b++)
                    if (a != b && H[a].sheets && H[b].sheets &&
                        !strcmp(H[a].img, red) && !strcmp(H[b].img, bar + 1)) {
                        const xq_cell_source *src[2];
                        xq_sheet_cells c0, c1;
                        xq_cell_source s0, s1;
                        xq_verify_options vo;
                        xq_game *gp = NULL, *g0 = NULL, *g1 = NULL;
                        const tpage *tt = H[a].tp->n >= H[b].tp->n ? H[a].tp : H[b].tp;
                        double dummy;
                        c0.ocr = c1.ocr = ocr;
                        c0.sheet = H[a].sheets[0];
                        c1.sheet = H[b].sheets[0];
                        xq_verify_source_from_sheet(&c0, &s0);
                        xq_verify_source_from_sheet(&c1, &s1);
                        src[0] = &s0;
                        src[1] = &s1;
                        xq_verify_options_init(&vo);
                        vo.threshold = threshold;
                        if (getenv("XQ_E2E_BEAM"))
                            vo.beam = atoi(getenv("XQ_E2E_BEAM"));
                        if (xq_game_create(&gp) == XQ_OK &&
                            xq_verify_pair(src, &vo, gp, NULL, NULL) == XQ_OK &&
                            verify_one(ocr, H[a].sheets[0], XQ_RED, &g0, &dummy) == 0 &&
                            verify_one(ocr, H[b].sheets[0], XQ_BLACK, &g1, &dummy) == 0) {
                            pair_score(gp, tt, &pr[0], &pf[0], &ps[0]);
                            pair_score(g0, tt, &pr[1], &pf[1], &ps[1]);
                            pair_score(g1, tt, &pr[2], &pf[2], &ps[2]);
                            pn += tt->n;
                            npairs++;
                        } else {
                            printf("fail pair %s\n", red);
                            fails++;
                        }
                        xq_game_destroy(&gp);
                        xq_game_destroy(&g0);
                        xq_game_destroy(&g1);
                        xq_ocr_sheets_free(&H[a].sheets, H[a].ns);
                        xq_ocr_sheets_free(&H[b].sheets, H[b].ns);
                        H[a].sheets = H[b].sheets = NULL;
                    }
        }
    }
    for (i = 0; i < nh; i++)
        if (H[i].sheets)
            xq_ocr_sheets_free(&H[i].sheets, H[i].ns);

    printf("\n%-14s %3s %6s %8s %6s %6s %9s %7s %7s %5s %7s %6s %7s %5s %7s %7s %6s %6s\n",
           "style-deg", "sh", "legib", "right%", "flag%", "silent", "blk/ill",
           "illegal", "skip", "f.ill", "doubt", "f.skip", "ill.u", "f.unr",
           "count", "thr", "ocr s", "ver s");
    memset(&all, 0, sizeof all);
    snprintf(all.key, sizeof all.key, "total");
    {
        static const char *const styles[] = { "printed", "kai", "hand" };
        int s, j;
        for (s = 0; s < 3; s++) {
            tally st;
            memset(&st, 0, sizeof st);
            snprintf(st.key, sizeof st.key, "%s", styles[s]);
            for (j = 0; j < nt; j++)
                if (!strncmp(T[j].key, styles[s], strlen(styles[s])) &&
                    T[j].key[strlen(styles[s])] == '-') {
                    row(&T[j]);
                    add(&st, &T[j]);
                }
            if (st.sheets) {
                row(&st);
                add(&all, &st);
            }
        }
    }
    row(&all);
    printf("silent errors: %ld in %ld plies (1 in %.0f; target <= 1 in 2000)\n",
           all.silent, all.plies, all.silent ? (double)all.plies / all.silent : 0.0);
    if (npairs)
        printf("pairs: %ld games, %ld plies: reconciled right %.2f%% flag %.2f%% "
               "silent %ld | Red's sheet alone %.2f%% flag %.2f%% silent %ld | "
               "Black's sheet alone %.2f%% flag %.2f%% silent %ld\n",
               npairs, pn, pct(pr[0], pn), pct(pf[0], pn), ps[0], pct(pr[1], pn),
               pct(pf[1], pn), ps[1], pct(pr[2], pn), pct(pf[2], pn), ps[2]);
    if (nonstd)
        printf("(%d pages from a non-standard start position left out: the "
               "sheet does not carry the position)\n", nonstd);
    if (fails)
        printf("(%d failures)\n", fails);
    xq_ocr_destroy(&ocr);
    free(pg);
    return 0;
}

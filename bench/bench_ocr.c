/* bench_ocr.c - OCR figures on rendered scoresheets with ground truth.
 *
 *   bench_ocr TRUTH.tsv [--no-cli | --geom]
 * TRUTH.tsv comes from tools/ocr/truth2tsv.py (bench/bench_ocr.sh renders
 * sheets with tools/render/render_sheets.py and converts their truth).
 * Without arguments it prints a note and exits 0 (bench/run.sh runs every
 * bench; use bench_ocr.sh for the real run).
 *
 * Printed per writing style x degradation (and in total):
 *   cells      truth move cells on the pages
 *   geom%      truth cells found at the right move index (IoU >= 0.5)
 *   blank%     blank vs written told right (cells found)
 *   text%      Tesseract raw text == written text (variant glyphs and
 *              full-width digits folded), written legible cells
 *   read%      xq_sheet_cell_read (the glyph models' own best reading,
 *              shaped as a move, no Tesseract, no rules) == written text
 *   rank1%     xq_sheet_cell_score ranks the written string first among
 *              the candidate strings (every distinct string written on the
 *              page: a harder set than the ~40 legal moves at a ply)
 *   (all times are CPU seconds: the machine is shared)
 *   s/page     xqscan: read page + raw text of every cell + score every
 *              candidate for every written cell
 *   tess s/page  plain `tesseract PAGE - -l chi_sim --psm 6` on the same
 *              page in the same run
 * Then, per group, the direction glyph: over the ranked cells whose record
 * has 进 or 退, the share where the record with the other one scores as
 * well or better, the share within 2 nats of it, and the mean gap (each
 * gap capped at 10): 进/退 is the verifier's commonest doubt on
 * handwriting (72 of 194 one-glyph alternatives of right plies under
 * review on the sheets as written, seed 7100).
 * Then the records struck through and written again (truth flag struck,
 * text the rewritten record): how many the OCR reports struck
 * (xq_sheet_cell_struck) and how many rank the rewritten record first
 * among the candidate strings (with it added where no legible cell
 * holds it); with XQ_BENCH_OCR_VERBOSE, each one that does not.
 * --geom: geometry and blank figures only (Tesseract reads only label rows
 * and headers; no cell text, no scores, no CLI comparison), with
 * one line per page that is not perfect; with XQ_BENCH_DEBUG_DIR set, the
 * debug overlay of every page is written there (page<N>.png). With
 * XQ_BENCH_OCR_VERBOSE set, every cell whose truth is not ranked first:
 * the truth and the best candidate with their scores, the lattice's own
 * reading and Tesseract's text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "xqscan/xq_ocr.h"
#include "../ocr/ocr_internal.h"
#include "utf8.h"

#define MAXC 1024
#define MAXG 32

typedef struct {
    int  idx, blank, box[4];
    char flag[16];
    char text[64];
} tcell;

typedef struct {
    char key[64];
    long cells, found, blank_ok, blank_n, text_n, text_ok, best_ok, rank_ok,
         rank_n, pages;
    double secs, tess_secs;
    /* the direction glyph: ranked cells with 进 or 退, those whose record
     * with the other one scores as well or better, within 2 nats, and the
     * score gap (capped at 10) summed */
    long dir_n, dir_swap, dir_close;
    double dir_gap;
} group;

static group G[MAXG];
static int ng;
static int geom_only;
static int page_no;
/* calibration: softmax of the scores over the candidates; the top
 * candidate's probability binned, with how often it was the truth */
static const double cal_edge[] = { 0.0, 0.5, 0.9, 0.99, 0.999, 1.0001 };
static long cal_n[5], cal_ok[5];
static double cal_p[5];
/* records struck and written again: cells, reported struck, ranked first */
static long stk_n, stk_flag, stk_rank;

/* Does the written string f (folded) score above every other candidate
 * in cell idx (ties lose)? *pbest: the best other candidate, *pts and
 * *pbs their scores. */
static bool ranks_first(xq_ocr *ocr, xq_sheet *sh, size_t idx,
                        char (*cand)[64], size_t ncand, const char *f,
                        const char **pbest, double *pts, double *pbs)
{
    double ts = xq_sheet_cell_score(ocr, sh, idx, f), bs = -1e18;
    size_t k;
    *pbest = "-";
    for (k = 0; k < ncand; k++) {
        double sc;
        if (!strcmp(cand[k], f))
            continue;
        sc = xq_sheet_cell_score(ocr, sh, idx, cand[k]);
        if (sc > bs) {
            bs = sc;
            *pbest = cand[k];
        }
    }
    *pts = ts;
    *pbs = bs;
    return ts > bs;
}

static group *grp(const char *key)
{
    int i;
    for (i = 0; i < ng; i++)
        if (!strcmp(G[i].key, key))
            return &G[i];
    if (ng == MAXG)
        return &G[MAXG - 1];
    memset(&G[ng], 0, sizeof G[ng]);
    snprintf(G[ng].key, sizeof G[ng].key, "%s", key);
    return &G[ng++];
}

/* CPU seconds (user + system) of this process, or of its finished
 * children: the machine is shared, so wall time would measure the others. */
static double cpu(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6
         + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double now(void) { return cpu(RUSAGE_SELF); }

/* Fold a move string to variant groups (a canonical comparable form). */
static void fold(const char *s, char *out, size_t n)
{
    size_t len = strlen(s), off = 0, o = 0;
    while (off < len && o + 8 < n) {
        uint32_t cp;
        int cls;
        off += xq_utf8_decode(s + off, len - off, &cp);
        cp = xq_utf8_halfwidth(cp);
        if (cp == ' ')
            continue;
        cls = ocr_glyph_class_of(cp);
        if (cls >= 0)
            cls = ocr_glyph_group(cls);
        if (cls >= 0) {
            size_t l = strlen(ocr_glyph_classes[cls]);
            memcpy(out + o, ocr_glyph_classes[cls], l);
            o += l;
        } else
            o += xq_utf8_encode(cp, out + o);
    }
    out[o] = '\0';
}

static double iou(const int *a, const int *b)
{
    double x0 = fmax(a[0], b[0]), y0 = fmax(a[1], b[1]);
    double x1 = fmin(a[0] + a[2], b[0] + b[2]), y1 = fmin(a[1] + a[3], b[1] + b[3]);
    double in = (x1 > x0 && y1 > y0) ? (x1 - x0) * (y1 - y0) : 0;
    double un = (double)a[2] * a[3] + (double)b[2] * b[3] - in;
    return un > 0 ? in / un : 0;
}

static void add(group *g, const group *p)
{
    g->cells += p->cells; g->found += p->found; g->blank_ok += p->blank_ok;
    g->blank_n += p->blank_n; g->text_n += p->text_n; g->text_ok += p->text_ok;
    g->best_ok += p->best_ok; g->rank_ok += p->rank_ok; g->rank_n += p->rank_n;
    g->pages += p->pages; g->secs += p->secs; g->tess_secs += p->tess_secs;
    g->dir_n += p->dir_n; g->dir_swap += p->dir_swap;
    g->dir_close += p->dir_close; g->dir_gap += p->dir_gap;
}

/* s with its first 进 made 退 or its first 退 made 进 (folded strings);
 * false if it has neither. */
static bool swap_direction(const char *s, char *out, size_t n)
{
    const char *a = strstr(s, "进"), *b = strstr(s, "退"), *p;
    size_t at;
    if (!a && !b)
        return false;
    p = a && (!b || a < b) ? a : b;
    at = (size_t)(p - s);
    if (strlen(s) + 1 > n)
        return false;
    memcpy(out, s, strlen(s) + 1);
    memcpy(out + at, p == a ? "退" : "进", strlen("进"));
    return true;
}

static double pct(long a, long b) { return b ? 100.0 * a / b : 0; }

static void run_page(xq_ocr *ocr, const char *img, int page, const char *key,
                     tcell *tc, int nt, int cli)
{
    xq_sheet **sheets = NULL;
    size_t ns = 0, ncand = 0, k;
    char err[256], (*cand)[64] = calloc(MAXC, 64);
    group *g = grp(key), pg;
    double t0 = now(), t1;
    int i;
    memset(&pg, 0, sizeof pg);
    pg.pages = 1;
    if (xq_ocr_read_file(ocr, img, &sheets, &ns, err, sizeof err) != XQ_OK
        || (size_t)page >= ns) {
        fprintf(stderr, "%s: %s\n", img, err);
        pg.cells = nt;
        add(g, &pg);
        free(cand);
        return;
    }
    /* candidate strings: every distinct legible string written here */
    for (i = 0; i < nt; i++) {
        char f[64];
        if (tc[i].blank || strcmp(tc[i].flag, "ok"))
            continue;
        fold(tc[i].text, f, sizeof f);
        for (k = 0; k < ncand; k++)
            if (!strcmp(cand[k], f))
                break;
        if (k == ncand && ncand < MAXC)
            snprintf(cand[ncand++], 64, "%s", f);
    }
    {
        xq_sheet *sh = sheets[page];
        size_t nc = xq_sheet_ncells(sh);
        for (i = 0; i < nt; i++) {
            int box[4];
            const char *txt;
            char f[64], ft[64];
            double bs = -1e18, ts = -1e18;
            int bi = -1, ties = 0;
            pg.cells++;
            if ((size_t)tc[i].idx >= nc
                || xq_sheet_cell_box(sh, (size_t)tc[i].idx, box) != XQ_OK
                || iou(box, tc[i].box) < 0.5)
                continue;
            pg.found++;
            pg.blank_n++;
            if (xq_sheet_cell_blank(sh, (size_t)tc[i].idx) == (tc[i].blank != 0))
                pg.blank_ok++;
            else if (geom_only)
                printf("  blank wrong: %s cell %d truth %s\n", img, tc[i].idx,
                       tc[i].blank ? "blank" : "written");
            if (geom_only)
                continue;
            txt = xq_sheet_cell_text(ocr, sh, (size_t)tc[i].idx);
            if (!tc[i].blank && !strcmp(tc[i].flag, "struck")) {
                const char *bo;
                double ts2, bs2;
                fold(tc[i].text, f, sizeof f);
                stk_n++;
                stk_flag += xq_sheet_cell_struck(sh, (size_t)tc[i].idx);
                if (ranks_first(ocr, sh, (size_t)tc[i].idx, cand, ncand, f,
                                &bo, &ts2, &bs2))
                    stk_rank++;
                else if (getenv("XQ_BENCH_OCR_VERBOSE"))
                    printf("  struck wrong: %s cell %d rewritten %s (%.2f) "
                           "best %s (%.2f) struck %d read %s\n", img,
                           tc[i].idx, f, ts2, bo, bs2,
                           xq_sheet_cell_struck(sh, (size_t)tc[i].idx),
                           xq_sheet_cell_read(ocr, sh, (size_t)tc[i].idx));
            }
            if (tc[i].blank || strcmp(tc[i].flag, "ok"))
                continue;
            fold(tc[i].text, f, sizeof f);
            fold(txt, ft, sizeof ft);
            pg.text_n++;
            pg.text_ok += !strcmp(f, ft);
            fold(xq_sheet_cell_read(ocr, sh, (size_t)tc[i].idx), ft, sizeof ft);
            pg.best_ok += !strcmp(f, ft);
            double sc[MAXC];
            for (k = 0; k < ncand; k++) {
                double s = xq_sheet_cell_score(ocr, sh, (size_t)tc[i].idx, cand[k]);
                sc[k] = s;
                if (!strcmp(cand[k], f))
                    ts = s;
                if (s > bs) {
                    bs = s;
                    bi = (int)k;
                    ties = 0;
                } else if (s == bs)
                    ties++;
            }
            {
                double z = 0, pt;
                int b;
                for (k = 0; k < ncand; k++)
                    z += exp(sc[k] - bs);
                pt = 1.0 / z;
                for (b = 0; b < 5; b++)
                    if (pt >= cal_edge[b] && pt < cal_edge[b + 1]) {
                        cal_n[b]++;
                        cal_p[b] += pt;
                        cal_ok[b] += bi >= 0 && !strcmp(cand[bi], f);
                    }
            }
            {
                char sw[64];
                if (swap_direction(f, sw, sizeof sw)) {
                    double s2 = xq_sheet_cell_score(ocr, sh, (size_t)tc[i].idx, sw);
                    double gap = ts - s2;
                    pg.dir_n++;
                    pg.dir_swap += gap <= 0;
                    pg.dir_close += gap < 2.0;
                    pg.dir_gap += gap < 10.0 ? gap : 10.0;
                }
            }
            pg.rank_n++;
            if (bi >= 0 && !strcmp(cand[bi], f) && ties == 0)
                pg.rank_ok++;
            else if (getenv("XQ_BENCH_OCR_VERBOSE"))
                printf("  rank wrong: %s cell %d truth %s (%.2f) best %s "
                       "(%.2f) read %s tesseract %s\n", img, tc[i].idx, f,
                       ts, bi >= 0 ? cand[bi] : "-", bs,
                       xq_sheet_cell_read(ocr, sh, (size_t)tc[i].idx), txt);
        }
    }
    t1 = now();
    pg.secs = t1 - t0;
    if (geom_only && getenv("XQ_BENCH_DEBUG_DIR")) {
        char dp[1200];
        snprintf(dp, sizeof dp, "%s/page%d.png", getenv("XQ_BENCH_DEBUG_DIR"),
                 page_no);
        if (ocr_debug_write(sheets[page], dp) != XQ_OK)
            fprintf(stderr, "cannot write %s\n", dp);
    }
    if (geom_only && (pg.found < pg.cells || pg.blank_ok < pg.blank_n))
        printf("page %d %s (%s): %ld/%ld cells found (%zu detected), "
               "blank right %ld/%ld\n", page_no, img, key, pg.found, pg.cells,
               xq_sheet_ncells(sheets[page]), pg.blank_ok, pg.blank_n);
    if (cli) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd,
                 "tesseract '%s' - -l chi_sim --psm 6 >/dev/null 2>&1", img);
        t0 = cpu(RUSAGE_CHILDREN);
        if (system(cmd) != 0)
            fprintf(stderr, "tesseract CLI failed on %s\n", img);
        pg.tess_secs = cpu(RUSAGE_CHILDREN) - t0;
    }
    add(g, &pg);
    xq_ocr_sheets_free(&sheets, ns);
    free(cand);
    page_no++;
}

int main(int argc, char **argv)
{
    FILE *f;
    char line[4096], img[1024] = "", key[64] = "";
    static tcell tc[1024];
    int nt = 0, page = 0, cli = 1, i;
    xq_ocr *ocr = NULL;
    group tot;
    double tc0;
    if (argc < 2) {
        printf("bench_ocr: no truth file given; run bench/bench_ocr.sh\n");
        return 0;
    }
    if (argc > 2 && !strcmp(argv[2], "--no-cli"))
        cli = 0;
    if (argc > 2 && !strcmp(argv[2], "--geom"))
        cli = 0, geom_only = 1;
    f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    tc0 = now();
    if (xq_ocr_create(&ocr, NULL) != XQ_OK) {
        fprintf(stderr, "cannot initialise OCR\n");
        fclose(f);
        return 1;
    }
    printf("engine init (Tesseract chi_sim+chi_tra once + glyph models): %.3f s\n",
           now() - tc0);
    while (fgets(line, sizeof line, f)) {
        char *tok[10], *save = NULL, *p;
        int n = 0;
        line[strcspn(line, "\n")] = '\0';
        for (p = strtok_r(line, "\t", &save); p && n < 10;
             p = strtok_r(NULL, "\t", &save))
            tok[n++] = p;
        if (n >= 7 && tok[0][0] == 'P') {
            if (img[0])
                run_page(ocr, img, page, key, tc, nt, cli);
            snprintf(img, sizeof img, "%s", tok[1]);
            page = atoi(tok[2]);
            snprintf(key, sizeof key, "%-8s %-6s", tok[3], tok[5]);
            nt = 0;
        } else if (n >= 9 && tok[0][0] == 'C' && nt < 1024) {
            tc[nt].idx = atoi(tok[1]);
            tc[nt].blank = atoi(tok[2]);
            for (i = 0; i < 4; i++)
                tc[nt].box[i] = atoi(tok[3 + i]);
            snprintf(tc[nt].flag, sizeof tc[nt].flag, "%s", tok[7]);
            snprintf(tc[nt].text, sizeof tc[nt].text, "%s", tok[8]);
            nt++;
        }
    }
    if (img[0])
        run_page(ocr, img, page, key, tc, nt, cli);
    fclose(f);
    printf("%-15s %5s %6s %7s %7s %6s %6s %7s %6s %6s %10s\n", "style  degrade",
           "pages", "cells", "geom%", "blank%", "text%", "read%", "rank1%",
           "ranked", "s/page", "tess s/page");
    memset(&tot, 0, sizeof tot);
    for (i = 0; i < ng; i++) {
        group *g = &G[i];
        printf("%-15s %5ld %6ld %7.2f %7.2f %6.1f %6.1f %7.1f %6ld %6.2f %10.2f\n",
               g->key, g->pages, g->cells, pct(g->found, g->cells),
               pct(g->blank_ok, g->blank_n), pct(g->text_ok, g->text_n),
               pct(g->best_ok, g->rank_n), pct(g->rank_ok, g->rank_n),
               g->rank_n, g->pages ? g->secs / g->pages : 0,
               g->pages ? g->tess_secs / g->pages : 0);
        add(&tot, g);
    }
    printf("%-15s %5ld %6ld %7.2f %7.2f %6.1f %6.1f %7.1f %6ld %6.2f %10.2f\n",
           "ALL", tot.pages, tot.cells, pct(tot.found, tot.cells),
           pct(tot.blank_ok, tot.blank_n), pct(tot.text_ok, tot.text_n),
           pct(tot.best_ok, tot.rank_n), pct(tot.rank_ok, tot.rank_n),
           tot.rank_n, tot.pages ? tot.secs / tot.pages : 0,
           tot.pages ? tot.tess_secs / tot.pages : 0);
    printf("direction glyph (the record with 进 and 退 swapped):\n");
    for (i = 0; i < ng; i++)
        if (G[i].dir_n)
            printf("  %-15s %5ld cells, swapped as good %5.1f%%, within 2 nats "
                   "%5.1f%%, mean gap %.2f\n", G[i].key, G[i].dir_n,
                   pct(G[i].dir_swap, G[i].dir_n), pct(G[i].dir_close, G[i].dir_n),
                   G[i].dir_gap / (double)G[i].dir_n);
    printf("struck and written again: %ld cells, reported struck %.1f%%, "
           "rewritten record ranked first %.1f%%\n", stk_n,
           pct(stk_flag, stk_n), pct(stk_rank, stk_n));
    printf("calibration (softmax of cell scores over the candidates):\n");
    for (i = 0; i < 5; i++)
        if (cal_n[i])
            printf("  top p in [%.3f, %.3f): %5ld cells, mean p %.4f, right %.4f\n",
                   cal_edge[i], cal_edge[i + 1] > 1 ? 1.0 : cal_edge[i + 1],
                   cal_n[i], cal_p[i] / cal_n[i], (double)cal_ok[i] / cal_n[i]);
    printf("Tesseract initialisations in this run: %d\n", xq_ocr_tess_init_count(ocr));
    xq_ocr_destroy(&ocr);
    return 0;
}

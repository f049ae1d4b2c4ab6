/* e2e_truth.h - the truth of rendered scoresheets for the benches
 * (bench_e2e, bench_search): the TSV that bench/e2e_truth.py writes from
 * tools/render/render_sheets.py's truth, one P line per page (image, page,
 * style, layout, degradation, owner, pair, plies, start FEN) and one Y line
 * per ply (ply, ICCS of the move played, flag, cell); and the set-up the
 * benches that read it share (truth_open, cpu).
 * Header-only (static functions), for the bench programs only. */
#ifndef XQ_BENCH_E2E_TRUTH_H
#define XQ_BENCH_E2E_TRUTH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "xqscan/xq_board.h"
#include "xqscan/xq_ocr.h"

#define MAXP 400
#define STDFEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"

enum { F_OK, F_BLANK, F_ILL, F_INJ, F_SKIP, F_STRUCK };
static const char *const flag_names[] = { "ok", "blank", "illegible",
                                          "injected", "skipped", "struck" };

typedef struct {
    char    iccs[8];
    xq_move mv;
    int     flag, cell;
} tply;

typedef struct {
    char  img[512], style[16], layout[24], deg[16], owner[8], pair[1100];
    int   page, n, stdstart;
    tply  p[MAXP];
} tpage;

static int flag_of(const char *s)
{
    int i;
    for (i = 0; i < (int)(sizeof flag_names / sizeof flag_names[0]); i++)
        if (!strcmp(s, flag_names[i]))
            return i;
    return F_OK;
}

/* Read the TSV; returns the pages (malloc'd) and their count. */
static tpage *read_truth(const char *path, int *pn)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    tpage *pg = NULL, *cur = NULL;
    int n = 0, cap = 0;
    if (!f)
        return NULL;
    while (fgets(line, sizeof line, f)) {
        char *fld[12];
        int nf = 0;
        char *s = line, *e;
        line[strcspn(line, "\n")] = '\0';
        while (nf < 12) {
            fld[nf++] = s;
            e = strchr(s, '\t');
            if (!e)
                break;
            *e = '\0';
            s = e + 1;
        }
        if (line[0] == 'P' && nf >= 10) {
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                pg = realloc(pg, (size_t)cap * sizeof *pg);
                if (!pg)
                    exit(2);
            }
            cur = &pg[n++];
            memset(cur, 0, sizeof *cur);
            snprintf(cur->img, sizeof cur->img, "%s", fld[1]);
            cur->page = atoi(fld[2]);
            snprintf(cur->style, sizeof cur->style, "%s", fld[3]);
            snprintf(cur->layout, sizeof cur->layout, "%s", fld[4]);
            snprintf(cur->deg, sizeof cur->deg, "%s", fld[5]);
            snprintf(cur->owner, sizeof cur->owner, "%s", fld[6]);
            snprintf(cur->pair, sizeof cur->pair, "%s", fld[7]);
            cur->stdstart = !strncmp(fld[9], STDFEN, strlen(STDFEN));
        } else if (line[0] == 'Y' && nf >= 5 && cur && cur->n < MAXP) {
            tply *y = &cur->p[cur->n++];
            snprintf(y->iccs, sizeof y->iccs, "%s", fld[2]);
            if (xq_move_from_iccs(y->iccs, &y->mv) != XQ_OK)
                y->mv = XQ_MOVE_NONE;
            y->flag = flag_of(fld[3]);
            y->cell = atoi(fld[4]);
        }
    }
    fclose(f);
    *pn = n;
    return pg;
}


/* Read the truth at path and start the OCR engine (*pocr); on failure a
 * line on stderr and NULL. */
static tpage *truth_open(const char *path, int *pn, xq_ocr **pocr)
{
    tpage *pg = read_truth(path, pn);
    if (!pg) {
        fprintf(stderr, "cannot read %s\n", path);
        return NULL;
    }
    if (xq_ocr_create(pocr, NULL) != XQ_OK) {
        fprintf(stderr, "cannot start the OCR engine\n");
        free(pg);
        return NULL;
    }
    return pg;
}

/* CPU seconds of this process so far. */
static double cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* Read the sheets of tp's image (*psheets, *pns; *pocr_s: the CPU
 * seconds it took); on failure a "fail IMAGE: reason" line and false. */
static bool truth_read(xq_ocr *ocr, const tpage *tp, xq_sheet ***psheets,
                       size_t *pns, double *pocr_s)
{
    char err[256];
    double t0 = cpu();
    *psheets = NULL;
    *pns = 0;
    if (xq_ocr_read_file(ocr, tp->img, psheets, pns, err, sizeof err) != XQ_OK ||
        *pns < 1) {
        printf("fail %s: %s\n", tp->img, err);
        return false;
    }
    *pocr_s = cpu() - t0;
    return true;
}

#endif

/* bench_search.c - where the decoder's wrong moves come from: the search or
 * the model. Each rendered sheet with a standard start (bench_e2e's TSV)
 * is read (xq_ocr_read_file) and decoded as xq_verify_sheet does
 * (vd_decode); a sheet with wrong moves is decoded again keeping the
 * renderer's true game in the beam (vd_decode_guided). Where the true game
 * then scores better under the decoder's own model, the first decoding
 * lost it: a search error (a wider or smarter search would have found it).
 * Where it scores worse, the model prefers the wrong game: a model error
 * (only better reading or scoring helps).
 *
 *   bench_search E2E.tsv
 * Without arguments it prints a note and exits 0 (bench/run.sh runs every
 * bench binary). Env XQ_E2E_ONLY: only images whose path has this.
 *
 * Printed per sheet: plies, wrong moves, the decoded game's score and the
 * best score with the true game kept in the beam, search/model; for a
 * sheet with wrong moves, where the true game (its moves read from its
 * cells) left the beam of the decoding kept (vd_decode_traced; the same
 * decoding): the ply, how its first child there in the beam's order
 * accounted for it (read, illegible, blank, skip, junk cell; "no child":
 * it fell more than VD_BEAM_DROP below the best), whether a ply within 4
 * before it is one no record tells (a blank or illegible cell, a skipped
 * move), its rank in that order, how many children were kept and how far
 * it scored below the best (or that it stayed in the beam to the end: a
 * model error, equal histories, or a history merged with it, in the same
 * position and alignment). Then in total: wrong moves on search-error
 * sheets and on model-error sheets, where the search errors lost the true
 * game, and the decoder's CPU seconds per sheet (vd_decode with its
 * retries, not the guided decoding), next to the OCR's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xqscan/xq_board.h"
#include "xqscan/xq_ocr.h"
#include "xqscan/xq_verify.h"

#include "../replay/verify/verify_internal.h"
#include "e2e_truth.h"

/* Plies of the truth the decoding does not play (past its end: all). */
static int wrong_plies(const vd_result *r, const xq_move *truth, int n)
{
    int i, w = 0;
    for (i = 0; i < n; i++)
        w += (size_t)i >= r->nplies || r->plies[i].mv != truth[i];
    return w;
}

/* The summary's kinds of ply where the true game was lost: VK_* (read,
 * blank, skip, junk cell, none), and a read cell that is illegible. */
enum { K_ILLEGIBLE = VK_EXTRA + 1, NKINDS };

/* A ply's kind (VK_*) as bench_search prints it. */
static const char *kind_name(int kind)
{
    switch (kind) {
    case VK_READ: return "read";
    case VK_BLANK: return "blank";
    case VK_SKIP: return "skip";
    case VK_EXTRA: return "junk cell";
    default: return "no child";
    }
}

/* Is one of the 4 plies before ply (1-based) one no record tells in the
 * truth (a blank or illegible cell, a skipped move)? */
static bool after_untold(const tpage *tp, int ply)
{
    int j;
    for (j = ply - 5; j < ply - 1; j++)
        if (j >= 0 && j < tp->n &&
            (tp->p[j].flag == F_BLANK || tp->p[j].flag == F_ILL ||
             tp->p[j].flag == F_SKIP))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    tpage *pg;
    int n, i, sheets = 0, fails = 0;
    long plies = 0, wrong = 0, wsearch = 0, wmodel = 0, nsearch = 0, nmodel = 0;
    long bykind[NKINDS] = {0}, near_untold = 0, near_read = 0, nlost = 0;
    double ocr_s = 0, dec_s = 0;
    xq_ocr *ocr = NULL;
    const char *only = getenv("XQ_E2E_ONLY");

    if (argc < 2) {
        printf("bench_search: bench_search E2E.tsv (bench/bench_e2e.sh renders "
               "the sheets)\n");
        return 0;
    }
    pg = truth_open(argv[1], &n, &ocr);
    if (!pg)
        return 1;
    for (i = 0; i < n; i++) {
        const tpage *tp = &pg[i];
        xq_sheet **sh = NULL;
        size_t ns = 0;
        xq_move truth[MAXP];
        int tcells[MAXP];
        xq_sheet_cells cells;
        xq_cell_source src;
        const xq_cell_source *srcs[1];
        xq_board b;
        vd_result res;
        double t0, rd_s, score0;
        int j, w, lost, tkind = 0;
        char where[256];
        bool replaced = false;
        if (!tp->stdstart || tp->page != 0 || (only && !strstr(tp->img, only)))
            continue;
        if (!truth_read(ocr, tp, &sh, &ns, &rd_s)) {
            fails++;
            continue;
        }
        ocr_s += rd_s;
        for (j = 0; j < tp->n; j++)
            truth[j] = tp->p[j].mv;
        cells.ocr = ocr;
        cells.sheet = sh[0];
        xq_verify_source_from_sheet(&cells, &src);
        srcs[0] = &src;
        xq_board_init_start(&b);
        t0 = cpu();
        for (j = 0; j < tp->n; j++)
            tcells[j] = tp->p[j].cell;
        if (vd_decode_traced(srcs, 1, NULL, false, &b, truth, tcells,
                             (size_t)tp->n, &res) != XQ_OK) {
            printf("fail decode %s\n", tp->img);
            fails++;
            xq_ocr_sheets_free(&sh, ns);
            continue;
        }
        dec_s += cpu() - t0;
        score0 = res.score;
        w = wrong_plies(&res, truth, tp->n);
        lost = res.trace_ply;
        if (lost) {
            snprintf(where, sizeof where,
                     "  left the beam at ply %d (%s%s, %s; rank %zu of %zu "
                     "children, %zu kept, %.2f nats below the best)",
                     lost, kind_name(res.trace_kind),
                     res.trace_illegible ? " illegible" : "",
                     after_untold(tp, lost) ? "an untold ply within 4 before"
                                            : "none untold within 4 before",
                     res.trace_rank, res.trace_kids, res.trace_kept,
                     res.trace_gap);
            tkind = res.trace_kind == VK_READ && res.trace_illegible
                        ? K_ILLEGIBLE
                        : res.trace_kind;
        } else {
            snprintf(where, sizeof where,
                     "  stayed in the beam to the end (or a history merged "
                     "with it: the same position and alignment)");
        }
        if (w && vd_decode_guided(srcs, 1, NULL, false, &b, truth, 1,
                                  (size_t)tp->n, &res, &replaced) != XQ_OK) {
            printf("fail guided decode %s\n", tp->img);
            fails++;
        }
        printf("%-64s %3d plies %3d wrong  score %8.2f  truth kept %8.2f  %s\n",
               tp->img, tp->n, w, score0, res.score,
               !w ? "" : replaced ? "search" : "model");
        if (w)
            printf("%s\n", where);
        sheets++;
        plies += tp->n;
        wrong += w;
        if (w && replaced) {
            wsearch += w;
            nsearch++;
            if (lost) {
                bool nu = after_untold(tp, lost);
                nlost++;
                bykind[tkind]++;
                near_untold += nu;
                near_read += nu && tkind == VK_READ;
            }
        } else if (w) {
            wmodel += w;
            nmodel++;
        }
        vd_result_free(&res);
        xq_ocr_sheets_free(&sh, ns);
    }
    printf("sheets %d, plies %ld, wrong %ld: on %ld sheets the true game scores "
           "better (search errors, %ld plies), on %ld worse (model errors, %ld "
           "plies)\n", sheets, plies, wrong, nsearch, wsearch, nmodel, wmodel);
    if (nsearch)
        printf("search errors: the true game left the beam on %ld sheets: at "
               "a blank cell %ld, an illegible one %ld, a read one %ld (%ld "
               "of them within 4 plies after a ply no record tells), a skip "
               "%ld, a junk cell %ld, no child %ld; %ld of the %ld within 4 "
               "plies after a ply no record tells; on %ld sheets it stayed "
               "in the beam to the end\n",
               nlost, bykind[VK_BLANK], bykind[K_ILLEGIBLE], bykind[VK_READ],
               near_read,
               bykind[VK_SKIP], bykind[VK_EXTRA], bykind[VK_NONE], near_untold,
               nlost, nsearch - nlost);
    if (sheets)
        printf("CPU s per sheet: OCR %.2f, decoder %.2f (vd_decode as "
               "xq_verify_sheet runs it, not the guided decoding)\n",
               ocr_s / sheets, dec_s / sheets);
    xq_ocr_destroy(&ocr);
    free(pg);
    return fails ? 1 : 0;
}

/* bench_notation.c - throughput of notation/ over all of ccpd-dev.pgn:
 * record reading, replay (lex + resolve + make, what `xqscan verify` does
 * for typed records before its own checks), conversion to PGN in each
 * notation (`xqscan convert`), and per-move costs of write+read and of the
 * spelling-variant enumeration. Figures in seconds per 100,000 plies
 * (target < 1 s on one core). Times are CPU time of this process
 * (CLOCK_PROCESS_CPUTIME_ID), so a busy machine does not inflate them. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "xq_alloc.h"
#include "xqscan/xq_notation.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int count_cb(void *ud, const xq_notation_variant *v)
{
    (void)v;
    (*(size_t *)ud)++;
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : XQ_CORPUS_DIR "/ccpd-dev.pgn";
    xq_record *rec = NULL;
    xq_board *b = malloc(sizeof *b);
    double t0, t1;
    size_t gi, plies = 0, bad = 0, k, checks = 0, nvar = 0, nvarmoves = 0;
    static const xq_notation_kind kinds[4] = {
        XQ_NOTATION_CHINESE, XQ_NOTATION_TRADITIONAL, XQ_NOTATION_WXF,
        XQ_NOTATION_ICCS
    };
    t0 = now();
    if (xq_record_read_file(path, &rec) != XQ_OK) {
        fprintf(stderr, "bench_notation: cannot read %s\n", path);
        free(b);
        return 1;
    }
    t1 = now();
    printf("record read: %zu games in %.3f s (%s)\n", xq_record_count(rec), t1 - t0,
           xq_record_encoding_name(xq_record_get_encoding(rec)));
    t0 = now();
    for (gi = 0; gi < xq_record_count(rec); gi++) {
        long badply;
        xq_record_game_replay(xq_record_game_at(rec, gi), b, &badply, NULL, NULL, 0);
        if (badply >= 0)
            bad++;
        plies += (size_t)xq_board_ply_count(b);
    }
    t1 = now();
    printf("replay (lex + resolve + make): %zu plies, %zu games not replayed, "
           "%.3f s = %.3f s per 100,000 plies\n", plies, bad, t1 - t0,
           (t1 - t0) * 1e5 / (double)(plies ? plies : 1));
    for (k = 0; k < 4; k++) {
        t0 = now();
        for (gi = 0; gi < xq_record_count(rec); gi++) {
            char *pgn = NULL;
            if (xq_record_game_to_pgn(xq_record_game_at(rec, gi), kinds[k], &pgn, NULL, 0) == XQ_OK)
                xq_free(pgn);
        }
        t1 = now();
        printf("convert to %-11s: %.3f s = %.3f s per 100,000 plies\n",
               xq_notation_kind_name(kinds[k]), t1 - t0,
               (t1 - t0) * 1e5 / (double)(plies ? plies : 1));
    }
    /* write + read of every legal move, every 10th game */
    t0 = now();
    for (gi = 0; gi < xq_record_count(rec); gi += 10) {
        const xq_record_game *g = xq_record_game_at(rec, gi);
        xq_board r;
        long badply;
        int i, n;
        xq_record_game_replay(g, b, &badply, NULL, NULL, 0);
        if (badply >= 0)
            continue;
        n = xq_board_ply_count(b);
        if (g->fen)
            xq_board_from_fen(&r, g->fen, NULL, 0);
        else
            xq_board_init_start(&r);
        for (i = 0; i < n; i++) {
            xq_move mv[XQ_MAX_MOVES];
            int m = xq_board_legal_moves(&r, mv), j;
            for (j = 0; j < m; j++) {
                for (k = 0; k < 4; k++) {
                    char text[XQ_NOTATION_MAX];
                    xq_resolution res;
                    xq_notation_write(&r, mv[j], kinds[k], text, sizeof text);
                    xq_notation_read(&r, text, 0, &res);
                    checks++;
                }
            }
            if (i % 8 == 0 && m > 0) {
                xq_notation_variants(&r, mv[0], XQ_VARIANTS_ALL, count_cb, &nvar);
                nvarmoves++;
            }
            xq_board_make_move(&r, xq_board_move_at(b, i), NULL);
        }
    }
    t1 = now();
    printf("write + read round trip: %zu in %.3f s (%.2f us each, variants included)\n",
           checks, t1 - t0, (t1 - t0) * 1e6 / (double)(checks ? checks : 1));
    t0 = now();
    {
        size_t moves = 0;
        xq_board_init_start(b);
        for (k = 0; k < 200; k++) {
            xq_move mv[XQ_MAX_MOVES];
            int m = xq_board_legal_moves(b, mv), j;
            for (j = 0; j < m; j++) {
                xq_notation_variants(b, mv[j], XQ_VARIANTS_ALL, count_cb, &nvar);
                moves++;
            }
        }
        t1 = now();
        printf("spelling variants: %.1f us per move (all legal moves of the start "
               "position x200, %zu moves)\n", (t1 - t0) * 1e6 / (double)moves, moves);
    }
    xq_record_destroy(&rec);
    free(b);
    return 0;
}

/* bench_engine - rules engine speed (figures, not a test):
 *   perft(5) of the start position: nodes, seconds, nodes per second;
 *   legal move generation over every corpus position: positions/s;
 *   replay throughput over the whole ccpd-dev.iccs.jsonl through the public
 *   API (xq_board_from_fen + xq_board_make_move with full legality checks,
 *   check/mate/repetition flags): plies per second.
 * Wall time and process CPU time are both printed: the machine is shared.
 * Usage: bench_engine [PERFT_DEPTH]   (default 5) */
#define _POSIX_C_SOURCE 200809L   /* strtok_r, mkstemp, clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xqscan/xq_board.h"
#include "../tests/jsonl_field.h"

#define CORPUS XQ_CORPUS_DIR "/ccpd-dev.iccs.jsonl"

typedef struct {
    char     fen[128];
    xq_move *mv;
    int      n;
} game;

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static game *load_games(int *pn, long *pplies)
{
    static char line[1 << 16], moves[1 << 15];
    FILE *f = fopen(CORPUS, "r");
    game *g = NULL;
    int n = 0, cap = 0;
    *pn = 0;
    *pplies = 0;
    if (!f)
        return NULL;
    while (fgets(line, sizeof line, f)) {
        char *tok, *save = NULL;
        int k = 0;
        if (n == cap) {
            game *ng;
            cap = cap ? cap * 2 : 1024;
            ng = realloc(g, (size_t)cap * sizeof *g);
            if (!ng)
                break;
            g = ng;
        }
        if (!json_str(line, "start_fen", g[n].fen, sizeof g[n].fen) ||
            !json_str(line, "iccs", moves, sizeof moves))
            continue;
        g[n].mv = malloc((strlen(moves) / 5 + 2) * sizeof(xq_move));
        if (!g[n].mv)
            break;
        for (tok = strtok_r(moves, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
            if (xq_move_from_iccs(tok, &g[n].mv[k]) == XQ_OK)
                k++;
        g[n].n = k;
        *pplies += k;
        n++;
    }
    fclose(f);
    *pn = n;
    return g;
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 5, ngames, i, j, rounds = 3, r;
    long plies, positions = 0, moves = 0, done = 0;
    double w0, c0, w, c;
    unsigned long long nodes;
    xq_board b;
    game *g;
    char err[128];

    xq_board_init_start(&b);
    w0 = wall();
    c0 = cpu();
    nodes = (unsigned long long)xq_board_perft(&b, depth);
    w = wall() - w0;
    c = cpu() - c0;
    printf("perft(%d) start position: nodes %llu  wall %.3f s  cpu %.3f s  "
           "%.1f Mnodes/s (cpu)\n", depth, nodes, w, c, nodes / c / 1e6);

    g = load_games(&ngames, &plies);
    if (!g) {
        printf("replay: corpus %s absent, skipped\n", CORPUS);
        return 0;
    }

    /* legal move generation at every position */
    w0 = wall();
    c0 = cpu();
    for (i = 0; i < ngames; i++) {
        xq_move ms[XQ_MAX_MOVES];
        if (xq_board_from_fen(&b, g[i].fen, err, sizeof err) != XQ_OK)
            continue;
        for (j = 0;; j++) {
            moves += xq_board_legal_moves(&b, ms);
            positions++;
            if (j == g[i].n || !xq_board_make_move(&b, g[i].mv[j], NULL))
                break;
        }
    }
    w = wall() - w0;
    c = cpu() - c0;
    printf("legal moves: %ld positions, %ld moves  wall %.3f s  cpu %.3f s  "
           "%.0f positions/s (cpu; includes the replay)\n",
           positions, moves, w, c, positions / c);

    /* replay throughput */
    w0 = wall();
    c0 = cpu();
    for (r = 0; r < rounds; r++)
        for (i = 0; i < ngames; i++) {
            if (xq_board_from_fen(&b, g[i].fen, err, sizeof err) != XQ_OK)
                continue;
            for (j = 0; j < g[i].n; j++) {
                unsigned fl;
                if (!xq_board_make_move(&b, g[i].mv[j], &fl))
                    break;
                done++;
            }
        }
    w = wall() - w0;
    c = cpu() - c0;
    printf("replay: %d games x %d rounds, %ld plies  wall %.3f s  cpu %.3f s  "
           "%.0f plies/s (cpu)\n", ngames, rounds, done, w, c, done / c);
    if (done != plies * rounds)
        printf("replay: WARNING %ld of %ld plies replayed\n", done,
               plies * rounds);
    for (i = 0; i < ngames; i++)
        free(g[i].mv);
    free(g);
    return 0;
}

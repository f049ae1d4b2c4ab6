/* cmd_perft.c - `xqscan perft [--fen FEN] [--divide] DEPTH`: count the leaf
 * nodes of the legal move tree (no repetition rules). Last line of stdout:
 * "nodes N". With --divide, one "iccs: N" line per root move first.
 * Exit: 0 ok, 1 invalid FEN, 64 usage error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "xqscan/xq_board.h"

#define PERFT_MAX_DEPTH 12

static int usage(const char *msg)
{
    if (msg)
        fprintf(stderr, "xqscan perft: %s\n", msg);
    fputs("usage: xqscan perft [--fen FEN] [--divide] DEPTH   (DEPTH 0.."
          "12; default FEN: the start position)\n", stderr);
    return XQ_EXIT_USAGE;
}

int cli_perft(int argc, char **argv)
{
    const char *fen = NULL, *depth_arg = NULL;
    int divide = 0, i, depth;
    char err[160], *end;
    long v;
    xq_board b;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--fen")) {
            if (i + 1 >= argc)
                return usage("--fen needs a FEN");
            fen = argv[++i];
        } else if (!strncmp(a, "--fen=", 6)) {
            fen = a + 6;
        } else if (!strcmp(a, "--divide")) {
            divide = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs("usage: xqscan perft [--fen FEN] [--divide] DEPTH\n"
                  "Counts the leaf nodes of the legal move tree to DEPTH plies "
                  "(0..12) from FEN\n(default: the start position). The last "
                  "line is \"nodes N\"; --divide first\nprints \"MOVE: N\" for "
                  "each legal root move (ICCS).\n", stdout);
            return XQ_EXIT_OK;
        } else if (a[0] == '-' && a[1] != 0) {
            fprintf(stderr, "xqscan perft: unknown option %s\n", a);
            return usage(NULL);
        } else if (depth_arg) {
            return usage("only one DEPTH");
        } else {
            depth_arg = a;
        }
    }
    if (!depth_arg)
        return usage("DEPTH is missing");
    errno = 0;
    v = strtol(depth_arg, &end, 10);
    if (errno || end == depth_arg || *end || v < 0 || v > PERFT_MAX_DEPTH)
        return usage("DEPTH must be a whole number from 0 to 12");
    depth = (int)v;

    if (fen) {
        if (xq_board_from_fen(&b, fen, err, sizeof err) != XQ_OK) {
            fprintf(stderr, "xqscan perft: invalid FEN: %s\n", err);
            return XQ_EXIT_FINDINGS;
        }
    } else {
        xq_board_init_start(&b);
    }

    if (divide && depth >= 1) {
        xq_move ms[XQ_MAX_MOVES];
        int n = xq_board_legal_moves(&b, ms), k;
        unsigned long long total = 0;
        for (k = 0; k < n; k++) {
            char s[5];
            unsigned long long c;
            xq_board_make_move(&b, ms[k], NULL);
            c = (unsigned long long)xq_board_perft(&b, depth - 1);
            xq_board_unmake_move(&b);
            xq_move_to_iccs(ms[k], s);
            printf("%s: %llu\n", s, c);
            total += c;
        }
        printf("nodes %llu\n", total);
    } else {
        printf("nodes %llu\n", (unsigned long long)xq_board_perft(&b, depth));
    }
    return XQ_EXIT_OK;
}

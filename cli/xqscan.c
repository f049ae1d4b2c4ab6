/* xqscan.c - main(): picks the subcommand; everything else is in cmd_*.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    { "scan", cli_scan },     { "verify", cli_verify }, { "convert", cli_convert },
    { "perft", cli_perft },   { "form", cli_form },     { "merge", cli_merge },
};

void cli_usage(FILE *f)
{
    fputs(
"usage: xqscan [scan] [OPTIONS] PATH...    read scoresheet images (PNG, JPEG, TIFF)\n"
"       xqscan verify [OPTIONS] FILE...    verify typed game records (PGN, move lists)\n"
"       xqscan convert --to NOTATION [FILE|-]   rewrite a record as PGN on stdout\n"
"                                          NOTATION: chinese traditional wxf iccs\n"
"       xqscan perft [--fen FEN] [--divide] DEPTH   count leaf nodes; last line \"nodes N\"\n"
"       xqscan form [-o FILE]              write a blank printable scoresheet (PNG)\n"
"       xqscan merge [-o DIR] DIR...       join shard outputs into one index and CSV\n"
"       xqscan --help | --version\n"
"\n"
"Options for scan and verify:\n"
"  -o, --out DIR          where reports go (default ./xqscan-out)\n"
"  -j, --jobs N           worker processes (default: number of cores)\n"
"  --threshold N          unrecorded-move threshold (default 16, WXF 7.6 / 3.1.F)\n"
"  --notation NOTATION    notation of the moves in the written PGN (default chinese)\n"
"  --corrections FILE     apply an arbiter's corrections (saved from the HTML report)\n"
"  --resume               skip inputs whose outputs are complete and up to date\n"
"  --shard K/N            process only the K-th of N stable parts of the inputs\n"
"  --timeout SECONDS      give up on one input after this long (default 600; 0 never)\n"
"  -q, --quiet            no progress display\n"
"\n"
"Two sheets of one game (scan): Red's and Black's sheets are also reconciled into\n"
"GAME.pair.json/.pgn/.html when their file names differ only by a word red/black,\n"
"红/黑 or 红方/黑方 (r3/b07-red.jpg + r3/b07-black.png: GAME r3/b07; red.jpg +\n"
"black.jpg: GAME game), or else when they carry the same header (event, round,\n"
"board, both players, as read), or else when they hold the same moves (whole games\n"
"of 30 plies or more, 90% agreeing, no other sheet alike). A pair has its own row in\n"
"summary.csv and index.html. --shard keeps sheets paired by name together.\n"
"\n"
"Exit status: 0 nothing needs an arbiter; 1 some sheet has findings or plies\n"
"under review; 2 some input could not be processed; 64 usage error.\n", f);
}

/* Tesseract runs its LSTM in OpenMP parallel sections; on one cell
 * image at a time the threads spend more time waking each other than
 * working (xqscan -j 2 on samples/: 132 s against 71 s with one thread,
 * the system time 71 s against 8 s), and xqscan's parallelism is its
 * worker processes. libgomp reads OMP_THREAD_LIMIT once, as it loads:
 * where it is not set, set it and start again (where that fails, go on
 * as we are: slower, not wrong). */
static void one_omp_thread(char **argv)
{
    if (getenv("OMP_THREAD_LIMIT"))
        return;
    if (setenv("OMP_THREAD_LIMIT", "1", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
}

int main(int argc, char **argv)
{
    size_t i;
    one_omp_thread(argv);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        cli_usage(stdout);
        return XQ_EXIT_OK;
    }
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("xqscan %s\n", XQ_VERSION);
        return XQ_EXIT_OK;
    }
    if (argc < 2) {
        cli_usage(stderr);
        return XQ_EXIT_USAGE;
    }
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    /* No subcommand word: "xqscan PATH..." means scan. */
    argv[0] = "scan";
    return cli_scan(argc, argv);
}

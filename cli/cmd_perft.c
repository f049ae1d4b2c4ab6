/* cmd_perft.c - `xqscan perft`: not written yet (placeholder until its issue lands). */
#include <stdio.h>

#include "cli.h"

int cli_perft(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "xqscan perft: not available in this build yet\n");
    return XQ_EXIT_USAGE;
}

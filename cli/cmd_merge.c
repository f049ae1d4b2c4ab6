/* cmd_merge.c - `xqscan merge`: not written yet (placeholder until its issue lands). */
#include <stdio.h>

#include "cli.h"

int cli_merge(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "xqscan merge: not available in this build yet\n");
    return XQ_EXIT_USAGE;
}

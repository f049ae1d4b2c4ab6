/* cmd_scan.c - `xqscan scan`: not written yet (placeholder until its issue lands). */
#include <stdio.h>

#include "cli.h"

int cli_scan(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "xqscan scan: not available in this build yet\n");
    return XQ_EXIT_USAGE;
}

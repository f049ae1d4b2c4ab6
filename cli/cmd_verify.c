/* cmd_verify.c - `xqscan verify`: not written yet (placeholder until its issue lands). */
#include <stdio.h>

#include "cli.h"

int cli_verify(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "xqscan verify: not available in this build yet\n");
    return XQ_EXIT_USAGE;
}

/* cmd_convert.c - `xqscan convert`: not written yet (placeholder until its issue lands). */
#include <stdio.h>

#include "cli.h"

int cli_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "xqscan convert: not available in this build yet\n");
    return XQ_EXIT_USAGE;
}

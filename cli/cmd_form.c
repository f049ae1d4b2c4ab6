/* cmd_form.c - `xqscan form`: not written yet (placeholder until its issue lands). */
#include <stdio.h>

#include "cli.h"

int cli_form(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "xqscan form: not available in this build yet\n");
    return XQ_EXIT_USAGE;
}

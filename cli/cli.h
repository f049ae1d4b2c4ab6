/* cli.h - the subcommands of the xqscan program. Only cli/ prints.
 *
 * Each cli_<name>() gets argv with argv[0] = the subcommand's name and
 * returns the process exit status (../shared/INTERFACE.md):
 *   scan/verify: 0 clean, 1 findings or review, 2 some input failed;
 *   convert/perft/form/merge: 0 success, 1 invalid record or FEN;
 *   64 usage error everywhere.
 */
#ifndef XQ_CLI_H
#define XQ_CLI_H

#include <stdio.h>

#define XQ_EXIT_OK       0
#define XQ_EXIT_FINDINGS 1
#define XQ_EXIT_INPUT    2
#define XQ_EXIT_USAGE    64

int cli_scan(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_convert(int argc, char **argv);
int cli_perft(int argc, char **argv);
int cli_form(int argc, char **argv);
int cli_merge(int argc, char **argv);

/* Prints the whole --help text to f. */
void cli_usage(FILE *f);

#endif

/* cmd_convert.c - `xqscan convert --to NOTATION [FILE|-]`: replay each game
 * of a typed record and print it as PGN in that notation on stdout. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "xq_alloc.h"
#include "xqscan/xq_notation.h"

static void usage(FILE *f)
{
    fputs("usage: xqscan convert --to NOTATION [FILE|-]\n"
          "  NOTATION: chinese (simplified), traditional, wxf, iccs, uci\n"
          "  Reads PGN or numbered move lists (UTF-8, GB18030/GBK, Big5) from\n"
          "  FILE or stdin, replays every game and writes it as PGN on stdout.\n"
          "  Exit status: 0 success, 1 invalid record (game and ply named on\n"
          "  stderr), 64 usage error.\n", f);
}

/* Hints worth a look that do not stop the conversion: numerals or glyphs
 * of the other side (炮2平5 for Red), one line per ply on stderr. Returns
 * how many moves leave out 前/后 where the board leaves one move (common in
 * archives; counted, not listed). */
static size_t report_warnings(const char *path, size_t gi, const xq_record_game *g)
{
    size_t omitted = 0;
    xq_board *b = xq_malloc(sizeof *b);
    unsigned flags = xq_record_game_lex_flags(g);
    size_t i;
    if (!b)
        return 0;
    if (g->fen ? xq_board_from_fen(b, g->fen, NULL, 0) != XQ_OK : 0) {
        xq_free(b);
        return 0;
    }
    if (!g->fen)
        xq_board_init_start(b);
    for (i = 0; i < g->nmoves; i++) {
        xq_resolution res;
        xq_notation_read(b, g->moves[i].text, flags, &res);
        if (res.code != XQ_RES_OK)
            break;
        if (res.warnings & (XQ_RWARN_SIDE_NUMERALS | XQ_RWARN_SIDE_GLYPH))
            fprintf(stderr, "xqscan convert: %s: game %zu, ply %zu (line %d) '%s': "
                    "warning: %s\n", path, gi + 1, i + 1, g->moves[i].line,
                    g->moves[i].text,
                    res.warnings & XQ_RWARN_SIDE_NUMERALS
                        ? "numerals of the other side (read for the side to move)"
                        : "piece glyph of the other side (read for the side to move)");
        if (res.warnings & XQ_RWARN_UNDISAMBIGUATED)
            omitted++;
        if (!xq_board_make_move(b, res.mv, NULL))
            break;
    }
    xq_free(b);
    return omitted;
}

int cli_convert(int argc, char **argv)
{
    const char *to = NULL, *path = NULL;
    xq_notation_kind kind;
    xq_record *rec = NULL;
    xq_status st;
    size_t i, n, omitted = 0;
    int rc = XQ_EXIT_OK, k;
    for (k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return XQ_EXIT_OK;
        } else if (!strcmp(a, "--to") || !strcmp(a, "-t")) {
            if (++k >= argc) {
                fprintf(stderr, "xqscan convert: %s needs a notation\n", a);
                usage(stderr);
                return XQ_EXIT_USAGE;
            }
            to = argv[k];
        } else if (!strncmp(a, "--to=", 5)) {
            to = a + 5;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "xqscan convert: unknown option %s\n", a);
            usage(stderr);
            return XQ_EXIT_USAGE;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "xqscan convert: one input only (got %s and %s)\n", path, a);
            return XQ_EXIT_USAGE;
        }
    }
    if (!to) {
        fprintf(stderr, "xqscan convert: --to NOTATION is required\n");
        usage(stderr);
        return XQ_EXIT_USAGE;
    }
    if (xq_notation_kind_parse(to, &kind) != XQ_OK) {
        fprintf(stderr, "xqscan convert: unknown notation '%s' "
                "(chinese, traditional, wxf, iccs, uci)\n", to);
        return XQ_EXIT_USAGE;
    }
    if (!path)
        path = "-";
    st = xq_record_read_file(path, &rec);
    if (st != XQ_OK) {
        fprintf(stderr, "xqscan convert: %s: cannot read: %s\n",
                strcmp(path, "-") ? path : "(stdin)", xq_status_str(st));
        return XQ_EXIT_FINDINGS;
    }
    n = xq_record_count(rec);
    if (n == 0) {
        fprintf(stderr, "xqscan convert: %s: no game found\n",
                strcmp(path, "-") ? path : "(stdin)");
        xq_record_destroy(&rec);
        return XQ_EXIT_FINDINGS;
    }
    for (i = 0; i < n; i++) {
        const xq_record_game *g = xq_record_game_at(rec, i);
        char *pgn = NULL, err[640];
        st = xq_record_game_to_pgn(g, kind, &pgn, err, sizeof err);
        if (st != XQ_OK) {
            fprintf(stderr, "xqscan convert: %s: game %zu (%s vs %s, line %d): %s%s\n",
                    strcmp(path, "-") ? path : "(stdin)", i + 1,
                    g->red && *g->red ? g->red : "?",
                    g->black && *g->black ? g->black : "?", g->line,
                    *err ? err : xq_status_str(st),
                    xq_record_get_encoding(rec) == XQ_ENC_UTF8_INVALID
                        ? " (the file holds bytes that are not valid text)" : "");
            rc = XQ_EXIT_FINDINGS;
            continue;
        }
        omitted += report_warnings(strcmp(path, "-") ? path : "(stdin)", i, g);
        if (i > 0)
            fputc('\n', stdout);
        fputs(pgn, stdout);
        xq_free(pgn);
    }
    if (omitted)
        fprintf(stderr, "xqscan convert: %s: note: %zu move(s) leave out 前/后 for "
                "two like pieces on a file; the position leaves one legal move\n",
                strcmp(path, "-") ? path : "(stdin)", omitted);
    xq_record_destroy(&rec);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "xqscan convert: cannot write output\n");
        rc = XQ_EXIT_FINDINGS;
    }
    return rc;
}

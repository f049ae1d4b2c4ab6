/* Differential test against a peer: for every position of the corpus games
 * (ccpd-dev.iccs.jsonl, about 237,000 positions) plus positions reached by
 * short random walks from them (to reach checks, captures, odd
 * placements), our legal-move SET equals that of Fairy-Stockfish (npm ffish,
 * run by tools/ffish/legal_moves.js, which converts its ranks 1-10 to ICCS
 * 0-9).
 *
 * Environment: XQ_FFISH_POSITIONS=N limits the positions (default: all;
 * 60,000 in an AddressSanitizer build, where the full run is slow - the
 * full run there: XQ_FFISH_POSITIONS=-1, see tools/ffish/diff_all.sh);
 * XQ_FFISH_WALKS=N random walks per 8 corpus positions (default 1).
 * Skips cleanly, saying why, when the corpus, node or ffish is absent. */
#define _POSIX_C_SOURCE 200809L   /* strtok_r, mkstemp, clock_gettime */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "xqscan/xq_board.h"
#include "jsonl_field.h"

#define CORPUS XQ_CORPUS_DIR "/ccpd-dev.iccs.jsonl"
#define SCRIPT XQ_SOURCE_DIR "/tools/ffish/legal_moves.js"
#define FFISH  XQ_SOURCE_DIR "/tools/node/node_modules/ffish/ffish.js"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int cmp_str4(const void *a, const void *b)
{
    return memcmp(a, b, 4);
}

/* Our legal moves as the sorted, space-separated ICCS line ffish prints. */
static void our_moves(xq_board *b, char *out)
{
    xq_move ms[XQ_MAX_MOVES];
    char s[XQ_MAX_MOVES][5];
    int n = xq_board_legal_moves(b, ms), i, k = 0;
    for (i = 0; i < n; i++)
        xq_move_to_iccs(ms[i], s[i]);
    qsort(s, (size_t)n, 5, cmp_str4);
    out[0] = 0;
    for (i = 0; i < n; i++) {
        if (i)
            out[k++] = ' ';
        memcpy(out + k, s[i], 4);
        k += 4;
    }
    out[k] = 0;
}

static int have(const char *cmd)
{
    return system(cmd) == 0;
}

static void test_ffish_differential(void **state)
{
    static char line[1 << 16], moves[1 << 15], ours[1024], theirs[2048];
    char fen[128], err[128], tmpl[] = "/tmp/xq_ffish_XXXXXX", cmd[1024];
    const char *env = getenv("XQ_FFISH_POSITIONS");
    const char *wenv = getenv("XQ_FFISH_WALKS");
#if defined(__SANITIZE_ADDRESS__)
    long limit = env ? atol(env) : 60000;
#else
    long limit = env ? atol(env) : -1;
#endif
    long npos = 0, checked = 0, diff = 0;
    long walks = wenv ? atol(wenv) : 1, in_check = 0, mates = 0;
    uint64_t rng = 20260101;
    FILE *f, *out, *in;
    xq_board b, w;
    int fd;
    (void)state;

    f = fopen(CORPUS, "r");
    if (!f) {
        print_message("SKIP: corpus %s absent\n", CORPUS);
        skip();
    }
    if (!have("command -v node >/dev/null 2>&1") || access(FFISH, R_OK) != 0) {
        fclose(f);
        print_message("SKIP: node or ffish (%s) absent\n", FFISH);
        skip();
    }
    fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    out = fdopen(fd, "w");
    assert_non_null(out);

    /* 1. Positions: every corpus position, plus random walks. */
    while (fgets(line, sizeof line, f) && (limit < 0 || npos < limit)) {
        char *tok, *save = NULL;
        assert_true(json_str(line, "start_fen", fen, sizeof fen));
        assert_true(json_str(line, "iccs", moves, sizeof moves));
        assert_int_equal(xq_board_from_fen(&b, fen, err, sizeof err), XQ_OK);
        tok = strtok_r(moves, " ", &save);
        for (;;) {
            char cur[XQ_FEN_MAX];
            xq_move mv;
            xq_board_to_fen(&b, cur, sizeof cur);
            fprintf(out, "%s\n", cur);
            npos++;
            if (walks > 0 && (rng_next(&rng) & 7) < (uint64_t)walks) {
                int depth = 1 + (int)(rng_next(&rng) % 12), d;
                w = b;
                for (d = 0; d < depth; d++) {
                    xq_move ms[XQ_MAX_MOVES];
                    int n = xq_board_legal_moves(&w, ms);
                    if (!n)
                        break;
                    assert_true(xq_board_make_move(&w, ms[rng_next(&rng) % (uint64_t)n], NULL));
                }
                xq_board_to_fen(&w, cur, sizeof cur);
                fprintf(out, "%s\n", cur);
                npos++;
            }
            if (!tok || (limit >= 0 && npos >= limit))
                break;
            assert_int_equal(xq_move_from_iccs(tok, &mv), XQ_OK);
            assert_true(xq_board_make_move(&b, mv, NULL));
            tok = strtok_r(NULL, " ", &save);
        }
    }
    fclose(f);
    assert_int_equal(fclose(out), 0);

    /* 2. ffish's moves for the same FENs, compared line by line. */
    snprintf(cmd, sizeof cmd, "node '%s' < '%s' 2>/dev/null", SCRIPT, tmpl);
    in = popen(cmd, "r");
    f = fopen(tmpl, "r");
    assert_non_null(in);
    assert_non_null(f);
    while (fgets(fen, sizeof fen, f)) {
        size_t n;
        fen[strcspn(fen, "\n")] = 0;
        if (!fgets(theirs, sizeof theirs, in))
            break;
        n = strcspn(theirs, "\n");
        theirs[n] = 0;
        assert_int_equal(xq_board_from_fen(&b, fen, err, sizeof err), XQ_OK);
        our_moves(&b, ours);
        checked++;
        in_check += xq_board_in_check(&b);
        mates += ours[0] == 0;
        if (strcmp(ours, theirs)) {
            if (diff < 10)
                print_message("DIFF %s\n  ours:  %s\n  ffish: %s\n", fen, ours,
                              theirs);
            diff++;
        }
    }
    fclose(f);
    pclose(in);
    unlink(tmpl);
    print_message("ffish differential: %ld positions written, %ld compared "
                  "(%ld in check, %ld without a legal move), %ld differ\n",
                  npos, checked, in_check, mates, diff);
    assert_int_equal(checked, npos);
    if (limit < 0 || limit >= 20000)
        assert_true(checked >= 20000);
    assert_int_equal(diff, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ffish_differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

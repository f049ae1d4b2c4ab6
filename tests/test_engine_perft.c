/* Perft counts equal the reference tables: tests/data/engine/perft.txt
 * (copied from ../shared/corpus/perft.txt, Fairy-Stockfish's test
 * positions) and tests/data/engine/perft-ffish.txt (14 corpus end positions
 * counted by Fairy-Stockfish). Depths whose count is at most
 * XQ_PERFT_MAX_NODES (default 5,000,000: seconds even under sanitizers) run
 * here; depth 5 of the start position runs through the CLI in
 * tools/perft5.sh and tests/cli/perft.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "xqscan/xq_board.h"

static void run_file(const char *path, int *pchecked)
{
    FILE *f = fopen(path, "r");
    char line[512], err[128];
    const char *env = getenv("XQ_PERFT_MAX_NODES");
    unsigned long long max_nodes = env ? strtoull(env, NULL, 10) : 5000000ull;
    int lines = 0;

    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        char *bar, *p;
        int depth = 0;
        xq_board b;
        if (line[0] == '#' || !(bar = strchr(line, '|')))
            continue;
        *bar = 0;
        assert_int_equal(xq_board_from_fen(&b, line, err, sizeof err), XQ_OK);
        lines++;
        for (p = bar + 1;;) {
            char *end;
            unsigned long long want;
            while (*p == ' ')
                p++;
            if (*p == '-' || *p == '\n' || *p == 0)
                break;
            want = strtoull(p, &end, 10);
            assert_true(end != p);
            p = end;
            depth++;
            if (want > max_nodes)
                break;
            {
                unsigned long long got =
                    (unsigned long long)xq_board_perft(&b, depth);
                if (got != want)
                    print_message("%s depth %d: %llu, expected %llu\n", line,
                                  depth, got, want);
                assert_true(got == want);
                (*pchecked)++;
            }
        }
    }
    fclose(f);
    assert_true(lines >= 3);
}

static void test_perft_reference(void **state)
{
    int n = 0;
    (void)state;
    run_file(XQ_TEST_DATA "/engine/perft.txt", &n);
    print_message("perft.txt: %d counts matched\n", n);
    assert_true(n >= 12);
}

static void test_perft_ffish_positions(void **state)
{
    int n = 0;
    (void)state;
    run_file(XQ_TEST_DATA "/engine/perft-ffish.txt", &n);
    print_message("perft-ffish.txt: %d counts matched\n", n);
    assert_true(n >= 56);
}

static void test_perft_edges(void **state)
{
    xq_board b;
    (void)state;
    xq_board_init_start(&b);
    assert_true(xq_board_perft(&b, 0) == 1);
    assert_true(xq_board_perft(&b, -3) == 1);
    assert_true(xq_board_perft(NULL, 2) == 1);
    /* perft leaves the board as it was */
    {
        char before[XQ_FEN_MAX], after[XQ_FEN_MAX];
        uint64_t h = xq_board_hash(&b);
        xq_board_to_fen(&b, before, sizeof before);
        assert_true(xq_board_perft(&b, 3) == 79666);
        xq_board_to_fen(&b, after, sizeof after);
        assert_string_equal(before, after);
        assert_true(h == xq_board_hash(&b));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_reference),
        cmocka_unit_test(test_perft_ffish_positions),
        cmocka_unit_test(test_perft_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

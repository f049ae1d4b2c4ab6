/* Every game of the shared corpus ccpd-dev.iccs.jsonl replays move by move
 * as legal; the final position's FEN, status (normal / in_check /
 * checkmate / stalemate) and the highest repetition count match the labels
 * (which were made with Fairy-Stockfish: "a label to test against, not
 * gospel"). The incremental Zobrist key is checked against a fresh one
 * (FEN round trip) at every ply. Skips when the corpus is absent. */
#define _POSIX_C_SOURCE 200809L   /* strtok_r, mkstemp, clock_gettime */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "xqscan/xq_board.h"
#include "jsonl_field.h"

#define CORPUS XQ_CORPUS_DIR "/ccpd-dev.iccs.jsonl"

static void test_corpus_replay(void **state)
{
    FILE *f = fopen(CORPUS, "r");
    static char line[1 << 16], moves[1 << 15];
    char fen[128], final_fen[128], end[32], got[XQ_FEN_MAX], err[128];
    int games = 0, plies = 0, bad = 0;
    xq_board b, c;
    (void)state;
    if (!f) {
        print_message("corpus %s absent: skipped\n", CORPUS);
        skip();
    }
    while (fgets(line, sizeof line, f)) {
        int maxrep = 0, want_rep = 0, ok = 1;
        char *tok, *save = NULL;
        xq_end_position st;
        assert_true(json_str(line, "start_fen", fen, sizeof fen));
        assert_true(json_str(line, "iccs", moves, sizeof moves));
        assert_true(json_str(line, "end", end, sizeof end));
        assert_true(json_str(line, "final_fen", final_fen, sizeof final_fen));
        assert_true(json_int(line, "max_repetition", &want_rep));
        games++;
        assert_int_equal(xq_board_from_fen(&b, fen, err, sizeof err), XQ_OK);
        maxrep = xq_board_repetitions(&b);
        for (tok = strtok_r(moves, " ", &save); tok;
             tok = strtok_r(NULL, " ", &save)) {
            xq_move mv;
            int r;
            assert_int_equal(xq_move_from_iccs(tok, &mv), XQ_OK);
            if (xq_board_check_move(&b, mv) != XQ_LEGAL ||
                !xq_board_make_move(&b, mv, NULL)) {
                print_message("game %d: %s is illegal (%s)\n", games, tok,
                              xq_illegal_str(xq_board_check_move(&b, mv)));
                ok = 0;
                break;
            }
            plies++;
            xq_board_to_fen(&b, got, sizeof got);
            assert_int_equal(xq_board_from_fen(&c, got, err, sizeof err), XQ_OK);
            assert_true(xq_board_hash(&c) == xq_board_hash(&b));
            r = xq_board_repetitions(&b);
            if (r > maxrep)
                maxrep = r;
        }
        if (!ok) {
            bad++;
            continue;
        }
        xq_board_to_fen(&b, got, sizeof got);
        st = xq_board_status(&b);
        if (strcmp(got, final_fen) || strcmp(xq_end_position_name(st), end) ||
            maxrep != want_rep) {
            print_message("game %d: final %s status %s rep %d; label %s %s %d\n",
                          games, got, xq_end_position_name(st), maxrep,
                          final_fen, end, want_rep);
            bad++;
        }
    }
    fclose(f);
    print_message("corpus: %d games, %d plies replayed, %d disagreements\n",
                  games, plies, bad);
    assert_true(games >= 2695);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

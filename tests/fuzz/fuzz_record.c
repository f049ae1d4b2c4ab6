/* fuzz_record.c - libFuzzer harness for the game record reader: any bytes
 * are decoded (UTF-8/16, GB18030, Big5), parsed as PGN or move lists, every
 * game replayed and, when it replays, converted to PGN. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "xq_alloc.h"
#include "xqscan/xq_notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xq_record *rec = NULL;
    xq_board *b;
    size_t i;
    if (size > 200000)
        return 0;
    if (xq_record_read_mem((const char *)data, size, &rec) != XQ_OK)
        return 0;
    b = malloc(sizeof *b);
    if (!b)
        abort();
    for (i = 0; i < xq_record_count(rec) && i < 64; i++) {
        const xq_record_game *g = xq_record_game_at(rec, i);
        long bad;
        char err[256], *pgn = NULL;
        xq_resolution res;
        if (xq_record_game_replay(g, b, &bad, &res, err, sizeof err) != XQ_OK)
            continue;
        if (bad < 0) {
            xq_notation_kind kind = (xq_notation_kind)(size % 5);
            if (xq_record_game_to_pgn(g, kind, &pgn, err, sizeof err) != XQ_OK)
                abort();   /* a game that replays must convert */
            xq_free(pgn);
        }
    }
    free(b);
    xq_record_destroy(&rec);
    return 0;
}

/* fuzz_move.c - libFuzzer harness for the move reader: any bytes are lexed
 * and resolved on a few positions; a move that resolves must write back in
 * every notation to text that reads to the same move, and its spelling
 * variants must all read back to it. Crashes, sanitizer reports or a
 * broken round trip abort. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xqscan/xq_notation.h"

static const char *const fuzz_move_fens[] = {
    XQ_START_FEN,
    "2baka1r1/7r1/2n1b1n2/p1p1p1p1p/9/2P2NP2/P3P2cP/2N1C4/9/R1BAKABR1 b - - 5 9",
    "4k4/3P1P3/4P4/3P1P3/9/9/9/9/9/5K3 w - - 0 1",
    "3k5/9/9/9/9/9/3p1p3/4p4/3p1p3/4K4 b - - 0 1",
    "5k3/2P6/2P6/2P1P4/2P6/9/9/9/9/4K4 w - - 0 1",
};

typedef struct {
    xq_board *b;
    xq_move   mv;
} fuzz_move_ctx;

static int fuzz_move_variant_cb(void *ud, const xq_notation_variant *v)
{
    fuzz_move_ctx *c = ud;
    xq_resolution r;
    xq_notation_read(c->b, v->text, 0, &r);
    if (r.code != XQ_RES_OK || r.mv != c->mv)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const xq_notation_kind kinds[5] = {
        XQ_NOTATION_CHINESE, XQ_NOTATION_TRADITIONAL, XQ_NOTATION_WXF,
        XQ_NOTATION_ICCS, XQ_NOTATION_UCI
    };
    char text[512];
    xq_token tok;
    size_t i, k;
    unsigned flags;
    if (size == 0 || size >= sizeof text)
        return 0;
    flags = data[0] & 1 ? XQ_LEX_UCI : 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    xq_notation_lex(text, flags, &tok);
    for (i = 0; i < sizeof fuzz_move_fens / sizeof fuzz_move_fens[0]; i++) {
        xq_board b;
        xq_resolution res;
        char desc[160];
        if (xq_board_from_fen(&b, fuzz_move_fens[i], NULL, 0) != XQ_OK)
            abort();
        xq_notation_read(&b, text, flags, &res);
        xq_resolution_describe(&res, desc, sizeof desc);
        if (res.code != XQ_RES_OK)
            continue;
        for (k = 0; k < 5; k++) {
            char out[XQ_NOTATION_MAX];
            xq_resolution back;
            if (xq_notation_write(&b, res.mv, kinds[k], out, sizeof out) != XQ_OK)
                abort();
            xq_notation_read(&b, out, kinds[k] == XQ_NOTATION_UCI ? XQ_LEX_UCI : 0, &back);
            if (back.code != XQ_RES_OK || back.mv != res.mv)
                abort();
        }
        if ((data[0] & 6) == 0) {
            fuzz_move_ctx c;
            c.b = &b;
            c.mv = res.mv;
            xq_notation_variants(&b, res.mv, XQ_VARIANTS_ALL, fuzz_move_variant_cb, &c);
        }
    }
    return 0;
}

/* verify.c - the public entry points: one sheet, a pair of sheets. */
#include <string.h>

#include "verify_internal.h"
#include "xq_core.h"

void xq_verify_options_init(xq_verify_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->threshold = 16;
    opts->beam = 0;          /* VD_BEAM, widened where needed (vd_decode) */
    opts->owner = -1;
    opts->score_scale = 1.0;
    opts->review_below = 0.995;
}

/* Board of the start position and the game's header fields from opts. */
static xq_status setup(const xq_verify_options *opts, xq_game *game,
                       xq_board *b)
{
    char err[128];
    if (opts && opts->start_fen) {
        XQ_FAIL_IF(xq_board_from_fen(b, opts->start_fen, err, sizeof err) != XQ_OK,
                   XQ_EINVAL, "bad start FEN");
        XQ_FAIL_IF(strlen(opts->start_fen) >= sizeof game->start_fen, XQ_EINVAL,
                   "start FEN too long");
        strcpy(game->start_fen, opts->start_fen);
    } else {
        xq_board_init_start(b);
        XQ_FAIL_IF(xq_board_from_fen(b, game->start_fen, err, sizeof err) != XQ_OK,
                   XQ_EINVAL, "bad start FEN in game");
    }
    if (opts && opts->owner >= 0 && game->owner < 0)
        game->owner = opts->owner;
    game->unrecorded.threshold = opts && opts->threshold > 0 ? opts->threshold : 16;
    if (opts && opts->recorded_result) {
        XQ_TRY(xq_game_set_str(&game->header.result, opts->recorded_result));
        XQ_TRY(xq_game_set_str(&game->end.recorded_result, opts->recorded_result));
    }
    return XQ_OK;
}

static bool src_ok(const xq_cell_source *s)
{
    return s && (s->ncells == 0 || (s->score && s->is_blank));
}

xq_status xq_verify_sheet(const xq_cell_source *src,
                          const xq_verify_options *opts, xq_game *game)
{
    xq_board *b;
    vd_result res;
    xq_status st;
    const xq_cell_source *srcs[1];
    XQ_FAIL_IF(!src_ok(src) || !game, XQ_EINVAL, "verify arguments");
    XQ_FAIL_IF(game->nplies != 0, XQ_EINVAL, "game already has plies");
    b = xq_malloc(sizeof *b);
    XQ_FAIL_IF(!b, XQ_ENOMEM, "board");
    st = setup(opts, game, b);
    if (st == XQ_OK) {
        srcs[0] = src;
        memset(&res, 0, sizeof res);
        st = vd_decode(srcs, 1, opts, false, b, &res);
        if (st == XQ_OK)
            st = vs_fill_game(&res, srcs, 0, opts, b, game);
        vd_result_free(&res);
    }
    xq_free(b);
    return st;
}

xq_status xq_verify_pair(const xq_cell_source *const src[2],
                         const xq_verify_options *opts, xq_game *pair,
                         xq_game *sheet0, xq_game *sheet1)
{
    xq_board *b;
    vd_result res;
    xq_status st;
    xq_game *out[3];
    int i;
    XQ_FAIL_IF(!src || !src_ok(src[0]) || !src_ok(src[1]), XQ_EINVAL,
               "verify_pair arguments");
    out[0] = pair;
    out[1] = sheet0;
    out[2] = sheet1;
    for (i = 0; i < 3; i++)
        XQ_FAIL_IF(out[i] && out[i]->nplies != 0, XQ_EINVAL,
                   "game already has plies");
    b = xq_malloc(sizeof *b);
    XQ_FAIL_IF(!b, XQ_ENOMEM, "board");
    st = XQ_OK;
    for (i = 0; i < 3 && st == XQ_OK; i++)
        if (out[i])
            st = setup(opts, out[i], b);
    if (st == XQ_OK && !out[0] && !out[1] && !out[2]) {
        xq_game *tmp = NULL;
        st = xq_game_create(&tmp);
        if (st == XQ_OK)
            st = setup(opts, tmp, b);
        xq_game_destroy(&tmp);
    }
    if (st == XQ_OK) {
        memset(&res, 0, sizeof res);
        st = vd_decode(src, 2, opts, false, b, &res);
        for (i = 0; i < 3 && st == XQ_OK; i++)
            if (out[i])
                st = vs_fill_game(&res, src, i - 1, opts, b, out[i]);
        vd_result_free(&res);
    }
    xq_free(b);
    return st;
}

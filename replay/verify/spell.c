/* spell.c - the verifier's use of notation/: spellings of a move, its
 * canonical texts, and what a written text means on a board. */
#include <stdio.h>
#include <string.h>

#include "verify_internal.h"
#include "xq_core.h"

xq_status vs_spellings_get(xq_board *b, xq_move mv, unsigned kinds,
                           vs_spellings *out)
{
    size_t n = 0;
    xq_status st;
    out->n = 0;
    st = xq_notation_variants_array(b, mv, kinds, out->v, VS_MAX_VARIANTS, &n);
    if (st != XQ_OK)
        return st;
    out->n = n;
    return XQ_OK;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t l = strlen(src);
    if (l >= cap)
        l = cap - 1;
    memcpy(dst, src, l);
    dst[l] = '\0';
}

void vs_write_all(xq_board *b, xq_move mv, char chinese[32], char wxf[16],
                  char iccs[8])
{
    char tmp[XQ_NOTATION_MAX];
    char ic[5];
    xq_move_to_iccs(mv, ic);
    copy_str(iccs, 8, ic);
    if (xq_notation_write(b, mv, XQ_NOTATION_CHINESE, tmp, sizeof tmp) == XQ_OK)
        copy_str(chinese, 32, tmp);
    else
        copy_str(chinese, 32, ic);
    if (xq_notation_write(b, mv, XQ_NOTATION_WXF, tmp, sizeof tmp) == XQ_OK)
        copy_str(wxf, 16, tmp);
    else
        copy_str(wxf, 16, ic);
}

static const char *resolve_rule(const xq_resolution *res)
{
    switch (res->code) {
    case XQ_RES_OK:
        return "";
    case XQ_RES_UNPARSEABLE:
        return "WXF 7.1";
    case XQ_RES_NO_PIECE:
    case XQ_RES_AMBIGUOUS:
        return "WXF 7.1, 7.5";
    case XQ_RES_BAD_DESTINATION:
        if (res->why != XQ_LEGAL && xq_illegal_rule(res->why)[0])
            return xq_illegal_rule(res->why);
        return "WXF 2";
    case XQ_RES_SELF_CHECK:
    case XQ_RES_KINGS_FACE:
        if (res->why != XQ_LEGAL && xq_illegal_rule(res->why)[0])
            return xq_illegal_rule(res->why);
        return "WXF 4.5";
    default:
        return "";
    }
}

xq_resolve_code vs_read(xq_board *b, const char *text, xq_move *pmv,
                        char *msg, size_t msglen, char *rule, size_t rulelen)
{
    xq_resolution res;
    if (pmv)
        *pmv = XQ_MOVE_NONE;
    if (msg && msglen)
        msg[0] = '\0';
    if (rule && rulelen)
        rule[0] = '\0';
    memset(&res, 0, sizeof res);
    if (!text || xq_notation_read(b, text, 0, &res) != XQ_OK)
        return XQ_RES_UNPARSEABLE;
    if (res.code == XQ_RES_OK) {
        if (pmv)
            *pmv = res.mv;
        return XQ_RES_OK;
    }
    if (msg && msglen)   /* the code and, where one move was meant, why */
        xq_resolution_describe(&res, msg, msglen);
    if (rule && rulelen)
        snprintf(rule, rulelen, "%s", resolve_rule(&res));
    return res.code;
}

xq_move vs_correction_move(xq_board *b, const char *text)
{
    xq_move mv = XQ_MOVE_NONE, legal[XQ_MAX_MOVES];
    int n, i;
    if (!text)
        return XQ_MOVE_NONE;
    if (strlen(text) >= 4 && xq_move_from_iccs(text, &mv) == XQ_OK) {
        n = xq_board_legal_moves(b, legal);
        for (i = 0; i < n; i++)
            if (legal[i] == mv)
                return mv;
    }
    if (vs_read(b, text, &mv, NULL, 0, NULL, 0) == XQ_RES_OK)
        return mv;
    return XQ_MOVE_NONE;
}

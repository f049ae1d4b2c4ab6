/* iccs.c - ICCS move text: "h2e2" (files a..i, ranks 0..9 from Red). */
#include "replay_internal.h"

static int file_of(char c)
{
    c = (char)(c | 0x20);
    return (c >= 'a' && c <= 'i') ? c - 'a' : -1;
}

static int rank_of(char c)
{
    return (c >= '0' && c <= '9') ? c - '0' : -1;
}

xq_status xq_move_from_iccs(const char *s, xq_move *pmv)
{
    int f1, r1, f2, r2, i = 2;
    if (pmv)
        *pmv = XQ_MOVE_NONE;
    if (!s || !pmv)
        return XQ_EINVAL;
    if (!s[0] || !s[1])
        return XQ_EINVAL;
    f1 = file_of(s[0]);
    r1 = rank_of(s[1]);
    if (s[i] == '-')
        i++;
    if (!s[i] || !s[i + 1] || s[i + 2])
        return XQ_EINVAL;
    f2 = file_of(s[i]);
    r2 = rank_of(s[i + 1]);
    if (f1 < 0 || r1 < 0 || f2 < 0 || r2 < 0 || (f1 == f2 && r1 == r2))
        return XQ_EINVAL;
    *pmv = XQ_MOVE(XQ_SQ(f1, r1), XQ_SQ(f2, r2));
    return XQ_OK;
}

void xq_move_to_iccs(xq_move mv, char out[5])
{
    int f = XQ_MOVE_FROM(mv), t = XQ_MOVE_TO(mv);
    if (!out)
        return;
    if (mv == XQ_MOVE_NONE || f >= XQ_NSQ || t >= XQ_NSQ || f == t) {
        out[0] = out[1] = out[2] = out[3] = '0';
        out[4] = 0;
        return;
    }
    out[0] = (char)('a' + XQ_SQ_FILE(f));
    out[1] = (char)('0' + XQ_SQ_RANK(f));
    out[2] = (char)('a' + XQ_SQ_FILE(t));
    out[3] = (char)('0' + XQ_SQ_RANK(t));
    out[4] = 0;
}

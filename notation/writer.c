/* writer.c - legal move + board -> canonical Chinese (simplified and
 * traditional), WXF, ICCS and UCI text; and every plausible hand-written
 * spelling of a move (xq_notation_variants). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation_internal.h"
#include "xq_core.h"

/* A move described in the four slots. */
typedef struct {
    int  piece;   /* 0: piece-less pawn form */
    int  pos;     /* xq_token_pos */
    int  nth;
    int  file;    /* 0: not written */
    char dir;
    int  target;
} desc_t;

/* Fill the direction and target of d for the move from -> to. */
static void describe_motion(int sd, int pt, xq_sq from, xq_sq to, desc_t *d)
{
    int fr = XQ_SQ_RANK(from), tr = XQ_SQ_RANK(to);
    int fwd = sd == XQ_RED ? tr - fr : fr - tr;
    d->dir = fwd > 0 ? '+' : fwd < 0 ? '-' : '=';
    if (pt == XQ_ADVISOR || pt == XQ_ELEPHANT || pt == XQ_HORSE || d->dir == '=')
        d->target = xq_nt_file_number(sd, XQ_SQ_FILE(to));
    else
        d->target = fwd > 0 ? fwd : -fwd;
}

/* Index (0 = front) of sq among sd's pt on its file, and the count. */
static int file_index(const xq_board *b, int sd, int pt, xq_sq sq, int *pcount)
{
    xq_sq on[5];
    int k = xq_nt_file_pieces(b, sd, pt, XQ_SQ_FILE(sq), on), i;
    *pcount = k;
    for (i = 0; i < k; i++)
        if (on[i] == sq)
            return i;
    return 0;
}

static int pos_of_index(int idx, int count)
{
    if (idx == 0)
        return XQ_POS_FRONT;
    if (idx == count - 1)
        return XQ_POS_REAR;
    return XQ_POS_MIDDLE;
}

/* Canonical description; wxf selects the WXF pawn conventions. */
static void describe(const xq_board *b, xq_move mv, int wxf, desc_t *d)
{
    int sd = xq_board_side(b);
    xq_sq from = XQ_MOVE_FROM(mv), to = XQ_MOVE_TO(mv);
    int pt = XQ_PIECE_TYPE(xq_board_piece_at(b, from));
    int count, idx, cnt[9], f, nmulti = 0;
    memset(d, 0, sizeof *d);
    d->piece = pt;
    describe_motion(sd, pt, from, to, d);
    if (pt == XQ_KING || pt == XQ_ADVISOR || pt == XQ_ELEPHANT) {
        d->file = xq_nt_file_number(sd, XQ_SQ_FILE(from));
        return;
    }
    idx = file_index(b, sd, pt, from, &count);
    if (count < 2) {
        d->file = xq_nt_file_number(sd, XQ_SQ_FILE(from));
        return;
    }
    if (pt != XQ_PAWN) {
        d->pos = idx == 0 ? XQ_POS_FRONT : XQ_POS_REAR;
        return;
    }
    xq_nt_file_counts(b, sd, XQ_PAWN, cnt);
    for (f = 0; f < 9; f++)
        if (cnt[f] >= 2)
            nmulti++;
    if (nmulti >= 2) {
        d->piece = 0;
        d->file = xq_nt_file_number(sd, XQ_SQ_FILE(from));
        if (wxf && count >= 3) {
            d->pos = XQ_POS_NTH;
            d->nth = idx + 1;
        } else {
            d->pos = pos_of_index(idx, count);
        }
        return;
    }
    if (count == 2 || (count == 3 && !wxf)) {
        d->pos = pos_of_index(idx, count);
        return;
    }
    d->pos = XQ_POS_NTH;
    d->nth = idx + 1;
    if (wxf) {
        d->piece = 0;
        d->file = xq_nt_file_number(sd, XQ_SQ_FILE(from));
    }
}

/* --- text ------------------------------------------------------------------ */

typedef struct {
    const char *piece;   /* piece glyph */
    const char *fwd;     /* 进 or 進 */
    const char *rear;    /* 后 or 後 */
    int numstyle;        /* 0 Chinese numerals, 1 full-width, 2 ASCII */
} chin_style;

static const char *numeral(int style, int n, char tmp[2])
{
    if (style == 0)
        return xq_lexicon_cnum(n);
    if (style == 1)
        return xq_lexicon_wide_digit(n);
    tmp[0] = (char)('0' + n);
    tmp[1] = '\0';
    return tmp;
}

static xq_status put(char *buf, size_t len, size_t *pi, const char *s)
{
    size_t n = strlen(s);
    if (*pi + n + 1 > len)
        return XQ_ERANGE;
    memcpy(buf + *pi, s, n + 1);
    *pi += n;
    return XQ_OK;
}

static xq_status chinese_text(const desc_t *d, const chin_style *st,
                              char *buf, size_t len)
{
    size_t i = 0;
    char tmp[2];
    const char *dir;
    buf[0] = '\0';
    if (d->pos == XQ_POS_NTH)
        XQ_TRY(put(buf, len, &i, xq_lexicon_cnum(d->nth)));
    else if (d->pos == XQ_POS_REAR)
        XQ_TRY(put(buf, len, &i, st->rear));
    else if (d->pos)
        XQ_TRY(put(buf, len, &i, xq_lexicon_pos(0, d->pos)));
    if (d->piece)
        XQ_TRY(put(buf, len, &i, st->piece));
    if (d->file)
        XQ_TRY(put(buf, len, &i, numeral(st->numstyle, d->file, tmp)));
    dir = d->dir == '+' ? st->fwd : xq_lexicon_dir(0, d->dir);
    XQ_TRY(put(buf, len, &i, dir));
    XQ_TRY(put(buf, len, &i, numeral(st->numstyle, d->target, tmp)));
    return XQ_OK;
}

static const char wxf_letter[8] = { '?', 'K', 'A', 'E', 'H', 'R', 'C', 'P' };

/* WXF text; pos_first writes +C=5 instead of C+=5; lower for lower case;
 * dot writes '.' for '='. */
static xq_status wxf_text(const desc_t *d, int pos_first, int lower, int dot,
                          char *buf, size_t len)
{
    char s[8];
    size_t i = 0;
    char letter = d->piece ? wxf_letter[d->piece] : 0;
    char possign = d->pos == XQ_POS_FRONT ? '+' : d->pos == XQ_POS_REAR ? '-'
                 : d->pos == XQ_POS_MIDDLE ? '.' : 0;
    if (lower && letter)
        letter = (char)(letter | 0x20);
    if (d->pos == XQ_POS_NTH) {
        s[i++] = (char)('0' + d->nth);
        if (letter)
            s[i++] = letter;
    } else if (d->pos) {
        if (letter && !pos_first) {
            s[i++] = letter;
            s[i++] = possign;
        } else {
            s[i++] = possign;
            if (letter)
                s[i++] = letter;
        }
    } else {
        s[i++] = letter;
    }
    if (d->file)
        s[i++] = (char)('0' + d->file);
    s[i++] = d->dir == '=' && dot ? '.' : d->dir;
    s[i++] = (char)('0' + d->target);
    s[i] = '\0';
    if (i + 1 > len) {
        if (len)
            buf[0] = '\0';
        return XQ_ERANGE;
    }
    memcpy(buf, s, i + 1);
    return XQ_OK;
}

static void coord_text(xq_move mv, int uci, int upper, int dash, char *out)
{
    xq_sq sq[2] = { XQ_MOVE_FROM(mv), XQ_MOVE_TO(mv) };
    int k, i = 0;
    for (k = 0; k < 2; k++) {
        int r = XQ_SQ_RANK(sq[k]) + (uci ? 1 : 0);
        if (k == 1 && dash)
            out[i++] = '-';
        out[i++] = (char)((upper ? 'A' : 'a') + XQ_SQ_FILE(sq[k]));
        if (r == 10) {
            out[i++] = '1';
            out[i++] = '0';
        } else {
            out[i++] = (char)('0' + r);
        }
    }
    out[i] = '\0';
}

static void canonical_style(int trad, int sd, int pt, chin_style *st)
{
    st->piece = xq_lexicon_piece(trad, sd, pt ? pt : XQ_PAWN);
    st->fwd = xq_lexicon_dir(trad, '+');
    st->rear = xq_lexicon_pos(trad, XQ_POS_REAR);
    st->numstyle = sd == XQ_RED ? 0 : 1;
}

xq_status xq_notation_write(xq_board *b, xq_move mv, xq_notation_kind kind,
                            char *buf, size_t len)
{
    desc_t d;
    chin_style st;
    char tmp[16];
    xq_status rc;
    if (buf && len)
        buf[0] = '\0';
    if (!b || !buf || len == 0)
        return XQ_EINVAL;
    if (xq_board_check_move(b, mv) != XQ_LEGAL)
        return XQ_EINVAL;
    switch (kind) {
    case XQ_NOTATION_CHINESE:
    case XQ_NOTATION_TRADITIONAL:
        describe(b, mv, 0, &d);
        canonical_style(kind == XQ_NOTATION_TRADITIONAL,
                        xq_board_side(b), d.piece, &st);
        rc = chinese_text(&d, &st, buf, len);
        break;
    case XQ_NOTATION_WXF:
        describe(b, mv, 1, &d);
        rc = wxf_text(&d, 0, 0, 0, buf, len);
        break;
    case XQ_NOTATION_ICCS:
    case XQ_NOTATION_UCI:
        coord_text(mv, kind == XQ_NOTATION_UCI, 0, 0, tmp);
        if (strlen(tmp) + 1 > len)
            rc = XQ_ERANGE;
        else {
            memcpy(buf, tmp, strlen(tmp) + 1);
            rc = XQ_OK;
        }
        break;
    default:
        return XQ_EINVAL;
    }
    if (rc != XQ_OK)
        buf[0] = '\0';
    return rc;
}

/* --- variants ---------------------------------------------------------------- */

#define MAX_VARIANTS 512
#define MAX_FORMS 16

typedef struct {
    xq_notation_variant v[MAX_VARIANTS];
    size_t n;
} variant_set;

static void add_variant(variant_set *set, const char *text,
                        xq_notation_kind kind, float prior, unsigned flags)
{
    size_t i;
    for (i = 0; i < set->n; i++) {
        if (!strcmp(set->v[i].text, text)) {
            if (prior > set->v[i].prior) {
                set->v[i].prior = prior;
                set->v[i].flags = flags;
            }
            return;
        }
    }
    if (set->n == MAX_VARIANTS || strlen(text) >= XQ_NOTATION_MAX)
        return;
    memcpy(set->v[set->n].text, text, strlen(text) + 1);
    set->v[set->n].kind = kind;
    set->v[set->n].prior = prior;
    set->v[set->n].flags = flags;
    set->n++;
}

/* Does the canonical-glyph text of form d (Chinese) read back to mv? */
static int form_reads_back(xq_board *b, xq_move mv, const desc_t *d, int wxf)
{
    char text[XQ_NOTATION_MAX];
    xq_resolution res;
    chin_style st;
    if (wxf) {
        if (wxf_text(d, 0, 0, 0, text, sizeof text) != XQ_OK)
            return 0;
    } else {
        canonical_style(0, xq_board_side(b), d->piece, &st);
        if (chinese_text(d, &st, text, sizeof text) != XQ_OK)
            return 0;
    }
    if (xq_notation_read(b, text, 0, &res) != XQ_OK)
        return 0;
    return res.code == XQ_RES_OK && res.mv == mv;
}

/* Alternative descriptions of the move (besides the canonical ones). */
static size_t alt_forms(const xq_board *b, xq_move mv, desc_t *out,
                        unsigned *flags)
{
    int sd = xq_board_side(b);
    xq_sq from = XQ_MOVE_FROM(mv), to = XQ_MOVE_TO(mv);
    int pt = XQ_PIECE_TYPE(xq_board_piece_at(b, from));
    int count, idx, file = xq_nt_file_number(sd, XQ_SQ_FILE(from));
    size_t n = 0;
    desc_t base;
    memset(&base, 0, sizeof base);
    describe_motion(sd, pt, from, to, &base);
    base.piece = pt;
    /* The plain file form (前/后 omitted). */
    out[n] = base;
    out[n].file = file;
    flags[n++] = XQ_VAR_OMITTED;
    if (pt != XQ_ROOK && pt != XQ_HORSE && pt != XQ_CANNON && pt != XQ_PAWN)
        return n;
    idx = file_index(b, sd, pt, from, &count);
    if (count < 2)
        return n;
    /* 前/后 + piece, 前/后 + file, 前兵七 (5 glyphs) and the 一二三 forms. */
    {
        int pos = pos_of_index(idx, count);
        int kinds[2] = { pos, XQ_POS_NTH };
        int k;
        if (count > 3 && pos == XQ_POS_MIDDLE)
            kinds[0] = 0;
        for (k = 0; k < 2; k++) {
            if (!kinds[k])
                continue;
            out[n] = base;
            out[n].pos = kinds[k];
            out[n].nth = idx + 1;
            flags[n++] = XQ_VAR_FORM;
            if (pt != XQ_PAWN)
                continue;
            out[n] = out[n - 1];
            out[n].file = file;
            flags[n++] = XQ_VAR_FORM;
            out[n] = out[n - 1];
            out[n].piece = 0;
            flags[n++] = XQ_VAR_FORM;
        }
    }
    return n;
}

static void chinese_variants(xq_board *b, xq_move mv, const desc_t *d,
                             unsigned form_flags, float form_prior,
                             variant_set *set)
{
    int sd = xq_board_side(b);
    size_t npv, ip, idir, irear, inum;
    const xq_glyph_variant *pv = xq_lexicon_piece_variants(sd, d->piece ? d->piece
                                                                   : XQ_PAWN, &npv);
    static const char *const fwd[2] = { "进", "進" };
    static const char *const rear[2] = { "后", "後" };
    static const int red_nums[3] = { 0, 2, 1 };
    static const float red_num_prior[3] = { 1.0f, 0.3f, 0.25f };
    static const int black_nums[3] = { 1, 2, 0 };
    static const float black_num_prior[3] = { 1.0f, 0.95f, 0.3f };
    (void)mv;
    for (inum = 0; inum < 3; inum++) {
        for (ip = 0; ip < (d->piece ? npv : 1); ip++) {
            for (idir = 0; idir < (d->dir == '+' ? 2u : 1u); idir++) {
                for (irear = 0; irear < (d->pos == XQ_POS_REAR ? 2u : 1u); irear++) {
                    chin_style st;
                    char text[XQ_NOTATION_MAX];
                    float prior = form_prior;
                    unsigned flags = form_flags;
                    int trad;
                    st.piece = pv[ip].text;
                    st.fwd = fwd[idir];
                    st.rear = rear[irear];
                    if (sd == XQ_RED) {
                        st.numstyle = red_nums[inum];
                        prior *= red_num_prior[inum];
                        if (inum)
                            flags |= XQ_VAR_OTHER_SIDE;
                    } else {
                        st.numstyle = black_nums[inum];
                        prior *= black_num_prior[inum];
                        if (inum == 1)
                            flags |= XQ_VAR_DIGITS;
                        else if (inum == 2)
                            flags |= XQ_VAR_OTHER_SIDE;
                    }
                    if (d->piece) {
                        prior *= pv[ip].prior;
                        flags |= pv[ip].flags;
                    }
                    chinese_text(d, &st, text, sizeof text);
                    trad = idir == 1 || irear == 1 ||
                           (d->piece && strcmp(st.piece, xq_lexicon_piece(0, sd, d->piece)) &&
                            !strcmp(st.piece, xq_lexicon_piece(1, sd, d->piece)));
                    add_variant(set, text, trad ? XQ_NOTATION_TRADITIONAL
                                                : XQ_NOTATION_CHINESE,
                                prior, flags);
                }
            }
        }
    }
}

static int cmp_prior(const void *a, const void *b)
{
    const xq_notation_variant *x = a, *y = b;
    if (x->prior > y->prior)
        return -1;
    if (x->prior < y->prior)
        return 1;
    return strcmp(x->text, y->text);
}

xq_status xq_notation_variants(xq_board *b, xq_move mv, unsigned kinds,
                               xq_notation_variant_fn fn, void *ud)
{
    variant_set *set;
    desc_t d, forms[MAX_FORMS];
    unsigned fflags[MAX_FORMS];
    size_t nforms, i, first;
    char text[XQ_NOTATION_MAX];
    if (!b || !fn)
        return XQ_EINVAL;
    if (xq_board_check_move(b, mv) != XQ_LEGAL)
        return XQ_EINVAL;
    set = xq_malloc(sizeof *set);
    if (!set)
        return XQ_ENOMEM;
    set->n = 0;
    nforms = alt_forms(b, mv, forms, fflags);
    if (kinds & XQ_VARIANTS_CHINESE) {
        chin_style st;
        describe(b, mv, 0, &d);
        canonical_style(0, xq_board_side(b), d.piece, &st);
        chinese_text(&d, &st, text, sizeof text);
        add_variant(set, text, XQ_NOTATION_CHINESE, 1.0f, 0);
        canonical_style(1, xq_board_side(b), d.piece, &st);
        chinese_text(&d, &st, text, sizeof text);
        add_variant(set, text, XQ_NOTATION_TRADITIONAL, 1.0f, 0);
        first = set->n;
        chinese_variants(b, mv, &d, 0, 1.0f, set);
        for (i = 0; i < nforms; i++)
            if (form_reads_back(b, mv, &forms[i], 0))
                chinese_variants(b, mv, &forms[i], fflags[i],
                                 fflags[i] & XQ_VAR_OMITTED ? 0.5f : 0.6f, set);
        qsort(set->v + first, set->n - first, sizeof set->v[0], cmp_prior);
    }
    if (kinds & XQ_VARIANTS_WXF) {
        size_t k;
        describe(b, mv, 1, &d);
        wxf_text(&d, 0, 0, 0, text, sizeof text);
        add_variant(set, text, XQ_NOTATION_WXF, 1.0f, 0);
        for (k = 1; k < 8; k++) {
            int pos_first = (k & 1) != 0, lower = (k & 2) != 0, dot = (k & 4) != 0;
            float prior = 1.0f;
            if (pos_first && !(d.pos && d.pos != XQ_POS_NTH && d.piece))
                continue;
            if (pos_first)
                prior *= 0.8f;
            if (lower)
                prior *= xq_board_side(b) == XQ_BLACK ? 0.7f : 0.3f;
            if (dot && d.dir != '=')
                continue;
            if (dot)
                prior *= 0.8f;
            wxf_text(&d, pos_first, lower, dot, text, sizeof text);
            add_variant(set, text, XQ_NOTATION_WXF, prior, XQ_VAR_FORM);
        }
        for (i = 0; i < nforms; i++) {
            if (!form_reads_back(b, mv, &forms[i], 1))
                continue;
            wxf_text(&forms[i], 0, 0, 0, text, sizeof text);
            add_variant(set, text, XQ_NOTATION_WXF, 0.5f, fflags[i]);
        }
    }
    if (kinds & XQ_VARIANTS_ICCS) {
        static const float pri[4] = { 1.0f, 0.8f, 0.8f, 0.9f };
        int k;
        for (k = 0; k < 4; k++) {
            coord_text(mv, 0, k >= 2, k & 1, text);
            add_variant(set, text, XQ_NOTATION_ICCS, pri[k], k ? XQ_VAR_FORM : 0);
        }
    }
    for (i = 0; i < set->n; i++)
        if (fn(ud, &set->v[i]))
            break;
    xq_free(set);
    return XQ_OK;
}

typedef struct {
    xq_notation_variant *out;
    size_t max, n;
} array_ud;

static int to_array(void *ud, const xq_notation_variant *v)
{
    array_ud *a = ud;
    if (a->n >= a->max)
        return 1;
    a->out[a->n++] = *v;
    return 0;
}

xq_status xq_notation_variants_array(xq_board *b, xq_move mv, unsigned kinds,
                                     xq_notation_variant *out, size_t max,
                                     size_t *pcount)
{
    array_ud a;
    if (pcount)
        *pcount = 0;
    if (!out || !pcount)
        return XQ_EINVAL;
    a.out = out;
    a.max = max;
    a.n = 0;
    XQ_TRY(xq_notation_variants(b, mv, kinds, to_array, &a));
    *pcount = a.n;
    return XQ_OK;
}

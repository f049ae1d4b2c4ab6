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

/* Polynomial hash of texts, h = h * TEXT_B + byte (mod 2^64): the hash of
 * a concatenation comes from its parts' hashes, h(ab) = h(a) B^|b| + h(b). */
#define TEXT_B 0x100000001B3ull

/* One piece of a text with its length and hash (the variant loop joins
 * many texts per board: parts are measured once per form, not per text). */
typedef struct {
    const char *s;
    size_t      n;
    uint64_t    h;    /* polynomial hash of s */
    uint64_t    pw;   /* TEXT_B ^ n */
} tpart;

static tpart part_of(const char *s)
{
    tpart p;
    p.s = s;
    p.n = 0;
    p.h = 0;
    p.pw = 1;
    for (; s[p.n]; p.n++) {
        p.h = p.h * TEXT_B + (uint8_t)s[p.n];
        p.pw *= TEXT_B;
    }
    return p;
}

/* Numeral n in style 0 Chinese, 1 full width, 2 ASCII (held in tmp). */
static tpart numeral(int style, int n, char tmp[2])
{
    tpart p;
    if (style == 0)
        return part_of(xq_lexicon_cnum(n));
    if (style == 1)
        return part_of(xq_lexicon_wide_digit(n));
    tmp[0] = (char)('0' + n);
    tmp[1] = '\0';
    p.s = tmp;
    p.n = 1;
    p.h = (uint8_t)tmp[0];
    p.pw = TEXT_B;
    return p;
}

/* Join np parts into buf (len bytes), length in *pn. A part that does not
 * fit ends the text: buf keeps the parts before it, XQ_ERANGE. */
static xq_status join(const tpart *p, int np, char *buf, size_t len,
                      size_t *pn)
{
    size_t i = 0;
    int k;
    buf[0] = '\0';
    for (k = 0; k < np; k++) {
        if (i + p[k].n + 1 > len) {
            *pn = i;
            return XQ_ERANGE;
        }
        memcpy(buf + i, p[k].s, p[k].n);
        i += p[k].n;
        buf[i] = '\0';
    }
    *pn = i;
    return XQ_OK;
}

/* The position word of d (rear: 后 or 後) into *out: 1, or 0 if none. */
static int pos_part(const desc_t *d, const char *rear, tpart *out)
{
    if (d->pos == XQ_POS_NTH)
        *out = part_of(xq_lexicon_cnum(d->nth));
    else if (d->pos == XQ_POS_REAR)
        *out = part_of(rear);
    else if (d->pos)
        *out = part_of(xq_lexicon_pos(0, d->pos));
    else
        return 0;
    return 1;
}

/* Chinese text of d in style st; its length in *pn. */
static xq_status chinese_text(const desc_t *d, const chin_style *st,
                              char *buf, size_t len, size_t *pn)
{
    char tf[2], tt[2];
    tpart p[5];
    int np = pos_part(d, st->rear, p);
    if (d->piece)
        p[np++] = part_of(st->piece);
    if (d->file)
        p[np++] = numeral(st->numstyle, d->file, tf);
    p[np++] = part_of(d->dir == '+' ? st->fwd : xq_lexicon_dir(0, d->dir));
    p[np++] = numeral(st->numstyle, d->target, tt);
    return join(p, np, buf, len, pn);
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
    size_t n;
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
        rc = chinese_text(&d, &st, buf, len, &n);
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
#define SET_SLOTS 1024   /* hash slots of the set: a power of two, at least
                            twice MAX_VARIANTS */

/* The spellings found so far, their texts indexed by an open-addressing
 * hash (a move has a few hundred candidate texts, most of them repeats). */
typedef struct {
    xq_notation_variant v[MAX_VARIANTS];
    uint8_t  len[MAX_VARIANTS];    /* strlen(v[i].text) */
    uint16_t slot[SET_SLOTS];      /* 1 + index of an entry, 0 free */
    size_t   n;
} variant_set;

static uint64_t text_hash(const char *s, size_t n)
{
    uint64_t h = 0;
    while (n--)
        h = h * TEXT_B + (uint8_t)*s++;
    return h;
}

/* The slot holding text (n bytes, hash th) in set, or the free slot it
 * would take. */
static size_t set_find(const variant_set *set, const char *text, size_t n,
                       uint64_t th)
{
    size_t h = (size_t)((th * 0x9E3779B97F4A7C15ull) >> 54) & (SET_SLOTS - 1);
    while (set->slot[h]) {
        size_t i = set->slot[h] - 1u;
        if (set->len[i] == n && !memcmp(set->v[i].text, text, n))
            break;
        h = (h + 1) & (SET_SLOTS - 1);
    }
    return h;
}

/* Rebuild the hash index after the entries were reordered. */
static void set_reindex(variant_set *set)
{
    size_t i;
    memset(set->slot, 0, sizeof set->slot);
    for (i = 0; i < set->n; i++)
        set->slot[set_find(set, set->v[i].text, set->len[i],
                           text_hash(set->v[i].text, set->len[i]))] =
            (uint16_t)(i + 1);
}

/* Add text (n = its length, th = text_hash of it): a text already in the
 * set keeps its kind and takes the higher prior with its flags. */
static void add_hashed(variant_set *set, const char *text, size_t n,
                       uint64_t th, xq_notation_kind kind, float prior,
                       unsigned flags)
{
    xq_notation_variant *v;
    size_t h;
    if (n >= XQ_NOTATION_MAX)
        return;   /* never stored, so never in the set either */
    h = set_find(set, text, n, th);
    if (set->slot[h]) {
        v = &set->v[set->slot[h] - 1];
        if (prior > v->prior) {
            v->prior = prior;
            v->flags = flags;
        }
        return;
    }
    if (set->n == MAX_VARIANTS)
        return;
    v = &set->v[set->n];
    memcpy(v->text, text, n + 1);
    v->kind = kind;
    v->prior = prior;
    v->flags = flags;
    set->len[set->n] = (uint8_t)n;
    set->slot[h] = (uint16_t)(set->n + 1);
    set->n++;
}

static void add_variant(variant_set *set, const char *text,
                        xq_notation_kind kind, float prior, unsigned flags)
{
    size_t n = strlen(text);
    add_hashed(set, text, n, text_hash(text, n), kind, prior, flags);
}

/* Higher prior first, then by text: a total order (texts are distinct). */
static int cmp_prior(const xq_notation_variant *x, const xq_notation_variant *y)
{
    if (x->prior > y->prior)
        return -1;
    if (x->prior < y->prior)
        return 1;
    return strcmp(x->text, y->text);
}

/* Sort the entry indices idx[0..n) by cmp_prior: insertion sort when
 * short, else merge sort (tmp: scratch of n). */
static void sort_idx(const variant_set *set, uint16_t *idx, uint16_t *tmp,
                     size_t n)
{
    size_t h = n / 2, i = 0, j = h, k = 0;
    if (n <= 16) {
        for (i = 1; i < n; i++) {
            uint16_t x = idx[i];
            for (j = i; j > 0 && cmp_prior(&set->v[x], &set->v[idx[j - 1]]) < 0; j--)
                idx[j] = idx[j - 1];
            idx[j] = x;
        }
        return;
    }
    sort_idx(set, idx, tmp, h);
    sort_idx(set, idx + h, tmp, n - h);
    while (i < h && j < n)
        tmp[k++] = cmp_prior(&set->v[idx[j]], &set->v[idx[i]]) < 0 ? idx[j++]
                                                                  : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

/* Sort the entries from first on by cmp_prior (the hash index is stale
 * afterwards). */
static void set_sort_from(variant_set *set, size_t first)
{
    uint16_t idx[MAX_VARIANTS], tmp[MAX_VARIANTS];
    size_t n = set->n - first, i, j;
    if (n < 2)
        return;
    for (i = 0; i < n; i++)
        idx[i] = (uint16_t)(first + i);
    sort_idx(set, idx, tmp, n);
    /* Entry idx[i] goes to first + i: follow each cycle once. */
    for (i = 0; i < n; i++) {
        xq_notation_variant v;
        uint8_t len;
        if (idx[i] == first + i || idx[i] == UINT16_MAX)
            continue;
        v = set->v[first + i];
        len = set->len[first + i];
        j = i;
        while (idx[j] != first + i) {
            size_t src = idx[j];
            set->v[first + j] = set->v[src];
            set->len[first + j] = set->len[src];
            idx[j] = UINT16_MAX;
            j = src - first;
        }
        set->v[first + j] = v;
        set->len[first + j] = len;
        idx[j] = UINT16_MAX;
    }
}

static int same_desc(const desc_t *a, const desc_t *b)
{
    return a->piece == b->piece && a->pos == b->pos && a->nth == b->nth &&
           a->file == b->file && a->dir == b->dir && a->target == b->target;
}

/* Does the canonical-glyph text of form d (Chinese) read back to mv? */
static int form_reads_back(xq_board *b, xq_move mv, const desc_t *d, int wxf)
{
    char text[XQ_NOTATION_MAX];
    xq_resolution res;
    chin_style st;
    size_t n;
    if (wxf) {
        if (wxf_text(d, 0, 0, 0, text, sizeof text) != XQ_OK)
            return 0;
    } else {
        canonical_style(0, xq_board_side(b), d->piece, &st);
        if (chinese_text(d, &st, text, sizeof text, &n) != XQ_OK)
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

/* Every glyph spelling of form d: numerals x piece glyphs x 进/進 x 后/後.
 * The parts are measured once here and joined per text. */
static void chinese_variants(int sd, const desc_t *d, unsigned form_flags,
                             float form_prior, variant_set *set)
{
    size_t npv, ip, idir, irear, inum;
    const xq_glyph_variant *pv = xq_lexicon_piece_variants(sd, d->piece ? d->piece
                                                                   : XQ_PAWN, &npv);
    static const char *const fwd[2] = { "进", "進" };
    static const char *const rear[2] = { "后", "後" };
    static const int red_nums[3] = { 0, 2, 1 };
    static const float red_num_prior[3] = { 1.0f, 0.3f, 0.25f };
    static const int black_nums[3] = { 1, 2, 0 };
    static const float black_num_prior[3] = { 1.0f, 0.95f, 0.3f };
    const char *simp = xq_lexicon_piece(0, sd, d->piece);
    const char *trad_glyph = xq_lexicon_piece(1, sd, d->piece);
    tpart ppos[2], pdir[2], pfile[3], ptarget[3];
    char tf[3][2], tt[3][2];
    int has_pos = 0, style;
    for (irear = 0; irear < 2; irear++)
        has_pos = pos_part(d, rear[irear], &ppos[irear]);
    for (idir = 0; idir < 2; idir++)
        pdir[idir] = part_of(d->dir == '+' ? fwd[idir] : xq_lexicon_dir(0, d->dir));
    for (style = 0; style < 3; style++) {
        if (d->file)
            pfile[style] = numeral(style, d->file, tf[style]);
        ptarget[style] = numeral(style, d->target, tt[style]);
    }
    for (inum = 0; inum < 3; inum++) {
        style = sd == XQ_RED ? red_nums[inum] : black_nums[inum];
        for (ip = 0; ip < (d->piece ? npv : 1); ip++) {
            tpart ppiece = part_of(pv[ip].text);
            int trad_piece = d->piece && strcmp(pv[ip].text, simp) &&
                             !strcmp(pv[ip].text, trad_glyph);
            for (idir = 0; idir < (d->dir == '+' ? 2u : 1u); idir++) {
                for (irear = 0; irear < (d->pos == XQ_POS_REAR ? 2u : 1u); irear++) {
                    char text[XQ_NOTATION_MAX];
                    tpart p[5];
                    float prior = form_prior;
                    unsigned flags = form_flags;
                    size_t len;
                    uint64_t th = 0;
                    int np = 0, trad, k;
                    if (has_pos)
                        p[np++] = ppos[irear];
                    if (d->piece)
                        p[np++] = ppiece;
                    if (d->file)
                        p[np++] = pfile[style];
                    p[np++] = pdir[idir];
                    p[np++] = ptarget[style];
                    if (sd == XQ_RED) {
                        prior *= red_num_prior[inum];
                        if (inum)
                            flags |= XQ_VAR_OTHER_SIDE;
                    } else {
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
                    /* join() may stop early (never at these lengths):
                     * hash what it wrote. */
                    if (join(p, np, text, sizeof text, &len) == XQ_OK)
                        for (k = 0; k < np; k++)
                            th = th * p[k].pw + p[k].h;
                    else
                        th = text_hash(text, len);
                    trad = idir == 1 || irear == 1 || trad_piece;
                    add_hashed(set, text, len, th,
                               trad ? XQ_NOTATION_TRADITIONAL : XQ_NOTATION_CHINESE,
                               prior, flags);
                }
            }
        }
    }
}

/* Every spelling of legal mv into set (empty on entry): the Chinese ones
 * (canonical first, the rest by prior), then WXF, then ICCS. */
static void variants_fill(xq_board *b, xq_move mv, unsigned kinds,
                          variant_set *set)
{
    desc_t d, forms[MAX_FORMS];
    unsigned fflags[MAX_FORMS];
    size_t nforms, i, first, n;
    char text[XQ_NOTATION_MAX];
    int sd = xq_board_side(b);
    set->n = 0;
    memset(set->slot, 0, sizeof set->slot);
    nforms = alt_forms(b, mv, forms, fflags);
    if (kinds & XQ_VARIANTS_CHINESE) {
        chin_style st;
        describe(b, mv, 0, &d);
        canonical_style(0, sd, d.piece, &st);
        chinese_text(&d, &st, text, sizeof text, &n);
        add_variant(set, text, XQ_NOTATION_CHINESE, 1.0f, 0);
        canonical_style(1, sd, d.piece, &st);
        chinese_text(&d, &st, text, sizeof text, &n);
        add_variant(set, text, XQ_NOTATION_TRADITIONAL, 1.0f, 0);
        first = set->n;
        chinese_variants(sd, &d, 0, 1.0f, set);
        for (i = 0; i < nforms; i++) {
            /* A form equal to d spells d's texts again at a lower prior
             * (form prior < 1): it adds and changes nothing. */
            if (same_desc(&forms[i], &d))
                continue;
            if (form_reads_back(b, mv, &forms[i], 0))
                chinese_variants(sd, &forms[i], fflags[i],
                                 fflags[i] & XQ_VAR_OMITTED ? 0.5f : 0.6f, set);
        }
        set_sort_from(set, first);
        if (kinds & (XQ_VARIANTS_WXF | XQ_VARIANTS_ICCS))
            set_reindex(set);
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
                prior *= sd == XQ_BLACK ? 0.7f : 0.3f;
            if (dot && d.dir != '=')
                continue;
            if (dot)
                prior *= 0.8f;
            wxf_text(&d, pos_first, lower, dot, text, sizeof text);
            add_variant(set, text, XQ_NOTATION_WXF, prior,
                        XQ_VAR_FORM);
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
            add_variant(set, text, XQ_NOTATION_ICCS, pri[k],
                        k ? XQ_VAR_FORM : 0);
        }
    }
}

xq_status xq_notation_variants(xq_board *b, xq_move mv, unsigned kinds,
                               xq_notation_variant_fn fn, void *ud)
{
    variant_set set;
    size_t i;
    if (!b || !fn)
        return XQ_EINVAL;
    if (xq_board_check_move(b, mv) != XQ_LEGAL)
        return XQ_EINVAL;
    variants_fill(b, mv, kinds, &set);
    for (i = 0; i < set.n; i++)
        if (fn(ud, &set.v[i]))
            break;
    return XQ_OK;
}

/* The variants key of move mv of piece pc (side sd to move) where no
 * other piece of its kind stands on its file: the mover and the move. */
static uint64_t lone_key(int sd, xq_piece pc, xq_move mv)
{
    return (uint64_t)1 << 40 | (uint64_t)sd << 32 | (uint64_t)pc << 24 |
           (uint64_t)mv;
}

/* The variants key of move mv of piece pc (of the side to move) where
 * other pieces of its kind stand on its file (tandem pieces: 前/后 forms).
 * describe() and alt_forms() read the board only through the mover's type
 * and where that type's pieces of its side stand (file_index, and for
 * pawns xq_nt_file_counts); the rest of the board counts only through
 * which alternative forms read back to mv (form_reads_back: of two pieces
 * that could both be meant, the one that can make the move). The key
 * packs all of that exactly: the move, the mover and its side (19
 * bits), the squares of the others of its kind (up to 4, 7 bits each, in
 * board order), one bit per alternative form and kind that reads back (up
 * to 7 forms, Chinese then WXF), and bit 63. 0 (no key) beyond those
 * bounds, which no position from a game reaches (5 pawns a side). others
 * lists the squares of the side's pieces of pc's kind, from included. */
static uint64_t tandem_key(xq_board *b, xq_piece pc, xq_move mv,
                           const xq_sq *others, int nothers, unsigned kinds)
{
    desc_t d, forms[MAX_FORMS];
    unsigned fflags[MAX_FORMS];
    size_t nforms, i;
    uint64_t key = (uint64_t)mv | (uint64_t)pc << 14 |
                   (uint64_t)xq_board_side(b) << 18;
    int k, shift = 19, nb = 0;
    for (k = 0; k < nothers; k++) {
        if (others[k] == XQ_MOVE_FROM(mv))
            continue;
        if (shift >= 19 + 4 * 7)
            return 0;
        key |= ((uint64_t)others[k] + 1) << shift;
        shift += 7;
    }
    nforms = alt_forms(b, mv, forms, fflags);
    if (nforms > 7)
        return 0;
    if (kinds & XQ_VARIANTS_CHINESE) {
        describe(b, mv, 0, &d);
        for (i = 0; i < nforms; i++, nb++)
            if (!same_desc(&forms[i], &d) && form_reads_back(b, mv, &forms[i], 0))
                key |= (uint64_t)1 << (47 + nb);
    }
    nb = 7;
    if (kinds & XQ_VARIANTS_WXF)
        for (i = 0; i < nforms; i++, nb++)
            if (form_reads_back(b, mv, &forms[i], 1))
                key |= (uint64_t)1 << (47 + nb);
    return key | (uint64_t)1 << 63;
}

/* When the mover is alone on its file the only alternative form is the
 * canonical one, which reads back to mv for any legal mv: the mover and
 * the move are the key (lone_key). */
uint64_t xq_notation_variants_key(xq_board *b, xq_move mv, unsigned kinds)
{
    xq_sq from = XQ_MOVE_FROM(mv), on[XQ_NSQ];
    xq_piece pc;
    int count, sq, n = 0;
    if (!b || from >= 90 || XQ_MOVE_TO(mv) >= 90)
        return 0;
    pc = xq_board_piece_at(b, from);
    if (pc == XQ_EMPTY)
        return 0;
    (void)file_index(b, xq_board_side(b), XQ_PIECE_TYPE(pc), from, &count);
    if (count < 2)
        return lone_key(xq_board_side(b), pc, mv);
    for (sq = 0; sq < XQ_NSQ; sq++)
        if (xq_board_piece_at(b, (xq_sq)sq) == pc)
            on[n++] = (xq_sq)sq;
    return tandem_key(b, pc, mv, on, n, kinds);
}

xq_status xq_notation_variants_keys(xq_board *b, const xq_move *mvs, size_t n,
                                    unsigned kinds, uint64_t *keys)
{
    uint8_t cnt[8][9];   /* the side to move's pieces by type and file */
    xq_sq on[8][XQ_NSQ]; /* ... and their squares by type, in board order */
    int non[8], sd, sq;
    size_t i;
    if (!b || (n && (!mvs || !keys)))
        return XQ_EINVAL;
    sd = xq_board_side(b);
    memset(cnt, 0, sizeof cnt);
    memset(non, 0, sizeof non);
    for (sq = 0; sq < XQ_NSQ; sq++) {
        xq_piece pc = xq_board_piece_at(b, (xq_sq)sq);
        if (pc != XQ_EMPTY && XQ_PIECE_SIDE(pc) == sd) {
            int pt = XQ_PIECE_TYPE(pc);
            cnt[pt][XQ_SQ_FILE(sq)]++;
            on[pt][non[pt]++] = (xq_sq)sq;
        }
    }
    for (i = 0; i < n; i++) {
        xq_sq from = XQ_MOVE_FROM(mvs[i]);
        xq_piece pc;
        int pt;
        keys[i] = 0;
        if (from >= XQ_NSQ || XQ_MOVE_TO(mvs[i]) >= XQ_NSQ)
            continue;
        pc = xq_board_piece_at(b, from);
        if (pc == XQ_EMPTY)
            continue;
        pt = XQ_PIECE_TYPE(pc);
        /* as xq_notation_variants_key */
        keys[i] = cnt[pt][XQ_SQ_FILE(from)] >= 2
                      ? tandem_key(b, pc, mvs[i], on[pt], non[pt], kinds)
                      : lone_key(sd, pc, mvs[i]);
    }
    return XQ_OK;
}

xq_status xq_notation_variants_array(xq_board *b, xq_move mv, unsigned kinds,
                                     xq_notation_variant *out, size_t max,
                                     size_t *pcount)
{
    variant_set set;
    size_t n;
    if (pcount)
        *pcount = 0;
    if (!out || !pcount || !b)
        return XQ_EINVAL;
    if (xq_board_check_move(b, mv) != XQ_LEGAL)
        return XQ_EINVAL;
    variants_fill(b, mv, kinds, &set);
    n = set.n < max ? set.n : max;
    memcpy(out, set.v, n * sizeof *out);
    *pcount = n;
    return XQ_OK;
}

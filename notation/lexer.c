/* lexer.c - UTF-8 move text -> xq_token, no board needed (ElephantEye's
 * Chin2File step). Chinese four- and five-glyph forms, WXF and coordinates. */
#include <string.h>
#include <strings.h>

#include "notation_internal.h"
#include "utf8.h"
#include "xq_core.h"

/* Longest move text considered (bytes); longer input is not a move. */
#define MAX_TEXT 256
#define MAX_SYMS 12

static const char *const kind_names[] = {
    "chinese", "traditional", "wxf", "iccs", "uci"
};

const char *xq_notation_kind_name(xq_notation_kind kind)
{
    if ((unsigned)kind >= XQ_ARRAY_LEN(kind_names))
        return NULL;
    return kind_names[kind];
}

xq_status xq_notation_kind_parse(const char *name, xq_notation_kind *pkind)
{
    size_t i;
    if (pkind)
        *pkind = XQ_NOTATION_CHINESE;
    if (!name || !pkind)
        return XQ_EINVAL;
    for (i = 0; i < XQ_ARRAY_LEN(kind_names); i++) {
        if (!strcasecmp(name, kind_names[i])) {
            *pkind = (xq_notation_kind)i;
            return XQ_OK;
        }
    }
    if (!strcasecmp(name, "simplified")) {
        *pkind = XQ_NOTATION_CHINESE;
        return XQ_OK;
    }
    return XQ_EINVAL;
}

typedef struct {
    xq_glyph g;
    uint8_t  cjk;  /* the code point was a CJK glyph (not ASCII/full width) */
} sym;

static int is_num(const sym *s)
{
    return (s->g.cls == XQ_SYM_CNUM || s->g.cls == XQ_SYM_DIGIT) &&
           s->g.val >= 1 && s->g.val <= 9;
}

static int piece_of_letter(int c)
{
    switch (c) {
    case 'k': return XQ_KING;
    case 'a': return XQ_ADVISOR;
    case 'e': case 'b': return XQ_ELEPHANT;
    case 'h': case 'n': return XQ_HORSE;
    case 'r': return XQ_ROOK;
    case 'c': return XQ_CANNON;
    case 'p': return XQ_PAWN;
    default: return 0;
    }
}

static int piece_of(const sym *s)
{
    if (s->g.cls == XQ_SYM_PIECE)
        return s->g.val;
    if (s->g.cls == XQ_SYM_LETTER)
        return piece_of_letter(s->g.val);
    return 0;
}

/* Position word or WXF position sign. */
static int pos_of(const sym *s)
{
    if (s->g.cls == XQ_SYM_POS)
        return s->g.val;
    if (s->g.cls == XQ_SYM_SIGN) {
        switch (s->g.val) {
        case '+': return XQ_POS_FRONT;
        case '-': return XQ_POS_REAR;
        case '.': return XQ_POS_MIDDLE;
        default: return 0;
        }
    }
    return 0;
}

/* 一..五 or 1..5 counted from the front. */
static int nth_of(const sym *s)
{
    if ((s->g.cls == XQ_SYM_CNUM || s->g.cls == XQ_SYM_DIGIT) &&
        s->g.val >= 1 && s->g.val <= 5)
        return s->g.val;
    return 0;
}

static char dir_of(const sym *s)
{
    if (s->g.cls == XQ_SYM_DIR)
        return (char)s->g.val;
    if (s->g.cls == XQ_SYM_SIGN) {
        switch (s->g.val) {
        case '+': return '+';
        case '-': return '-';
        case '=': case '.': return '=';
        default: return 0;
        }
    }
    return 0;
}

static unsigned num_hint_of(const sym *s)
{
    return s->g.cls == XQ_SYM_CNUM ? XQ_HINT_RED : XQ_HINT_BLACK;
}

/* Descriptive (file) form. */
static int parse_file_form(const sym *s, size_t n, xq_token *t)
{
    int piece = 0, file = 0, pos = 0, nth = 0;
    const sym *fsym = NULL;
    size_t i;
    int chinese = 0, trad = 0, simp = 0;
    if (n == 4) {
        int p0 = piece_of(&s[0]);
        if (p0 && is_num(&s[1])) {
            piece = p0;
            file = s[1].g.val;
            fsym = &s[1];
        } else if (p0 && pos_of(&s[1])) {
            piece = p0;
            pos = pos_of(&s[1]);
        } else if (p0 && s[0].g.cls == XQ_SYM_LETTER &&
                   s[1].g.cls == XQ_SYM_LETTER && s[1].g.val >= 'a' &&
                   s[1].g.val <= 'e') {
            piece = p0;
            pos = XQ_POS_NTH;
            nth = s[1].g.val - 'a' + 1;
        } else if (pos_of(&s[0]) && piece_of(&s[1])) {
            pos = pos_of(&s[0]);
            piece = piece_of(&s[1]);
        } else if (pos_of(&s[0]) && is_num(&s[1])) {
            pos = pos_of(&s[0]);
            file = s[1].g.val;
            fsym = &s[1];
        } else if (nth_of(&s[0]) && piece_of(&s[1])) {
            pos = XQ_POS_NTH;
            nth = nth_of(&s[0]);
            piece = piece_of(&s[1]);
        } else if (nth_of(&s[0]) && is_num(&s[1])) {
            pos = XQ_POS_NTH;
            nth = nth_of(&s[0]);
            file = s[1].g.val;
            fsym = &s[1];
        } else {
            return 0;
        }
    } else if (n == 5) {
        if (pos_of(&s[0]))
            pos = pos_of(&s[0]);
        else if (nth_of(&s[0])) {
            pos = XQ_POS_NTH;
            nth = nth_of(&s[0]);
        } else
            return 0;
        piece = piece_of(&s[1]);
        if (!piece || !is_num(&s[2]))
            return 0;
        file = s[2].g.val;
        fsym = &s[2];
        s += 1;   /* s[2], s[3] below are the direction and the target */
    } else {
        return 0;
    }
    t->dir = dir_of(&s[2]);
    if (!t->dir || !is_num(&s[3]))
        return 0;
    /* A position word together with a file only makes sense for pawns
     * (and the piece-less form means pawns). */
    if (pos && file && piece && piece != XQ_PAWN)
        return 0;
    t->form = XQ_TOK_FILE;
    t->piece = (uint8_t)piece;
    t->file = (uint8_t)file;
    t->pos = (uint8_t)pos;
    t->nth = (uint8_t)nth;
    t->target = s[3].g.val;
    if (n == 5)
        s -= 1;
    for (i = 0; i < n; i++) {
        if (s[i].cjk)
            chinese = 1;
        if (s[i].g.script == XQ_SCRIPT_TRAD)
            trad = 1;
        if (s[i].g.script == XQ_SCRIPT_SIMP)
            simp = 1;
    }
    if (chinese) {
        unsigned h = num_hint_of(n == 5 ? &s[4] : &s[3]);
        if (fsym && num_hint_of(fsym) != h)
            h = 0;
        t->num_hint = (uint8_t)h;
        for (i = 0; i < n; i++)
            if (s[i].g.cls == XQ_SYM_PIECE)
                t->glyph_hint = s[i].g.hint;
        t->notation = (uint8_t)(trad && !simp ? XQ_NOTATION_TRADITIONAL
                                              : XQ_NOTATION_CHINESE);
    } else {
        t->notation = XQ_NOTATION_WXF;
    }
    return 1;
}

/* Coordinates: [a-i] rank [-] [a-i] rank. */
static int parse_coord(const sym *s, size_t n, unsigned flags, xq_token *t)
{
    int f[2], r[2], ten[2] = { 0, 0 };
    size_t i = 0, k;
    int uci = (flags & XQ_LEX_UCI) != 0;
    for (k = 0; k < 2; k++) {
        if (k == 1 && i < n && s[i].g.cls == XQ_SYM_SIGN && s[i].g.val == '-')
            i++;
        if (i >= n || s[i].g.cls != XQ_SYM_LETTER || s[i].cjk ||
            s[i].g.val < 'a' || s[i].g.val > 'i')
            return 0;
        f[k] = s[i].g.val - 'a';
        i++;
        if (i >= n || s[i].g.cls != XQ_SYM_DIGIT || s[i].cjk)
            return 0;
        r[k] = s[i].g.val;
        i++;
        if (r[k] == 1 && i < n && s[i].g.cls == XQ_SYM_DIGIT && s[i].g.val == 0) {
            r[k] = 10;
            ten[k] = 1;
            i++;
        }
    }
    if (i != n)
        return 0;
    /* Rank 10 exists only in Fairy-Stockfish coordinates, read only when
     * the caller says the record uses them (never confused with ICCS). */
    if ((ten[0] || ten[1]) && !uci)
        return 0;
    for (k = 0; k < 2; k++) {
        if (uci) {
            if (r[k] < 1 || r[k] > 10)
                return 0;
            r[k] -= 1;
        } else if (r[k] > 9) {
            return 0;
        }
    }
    t->form = XQ_TOK_COORD;
    t->notation = (uint8_t)(uci ? XQ_NOTATION_UCI : XQ_NOTATION_ICCS);
    t->from = XQ_SQ(f[0], r[0]);
    t->to = XQ_SQ(f[1], r[1]);
    return 1;
}

int xq_notation_numeral(uint32_t cp)
{
    xq_glyph g;
    xq_lexicon_classify(cp, &g);
    return (g.cls == XQ_SYM_CNUM || g.cls == XQ_SYM_DIGIT) ? g.val : 0;
}

xq_status xq_notation_lex(const char *text, unsigned flags, xq_token *ptok)
{
    sym syms[MAX_SYMS];
    size_t n = 0, i = 0, len, lo, hi;
    if (ptok)
        memset(ptok, 0, sizeof *ptok);
    if (!text || !ptok)
        return XQ_EINVAL;
    len = strlen(text);
    if (len > MAX_TEXT)
        return XQ_EINVAL;
    while (i < len) {
        uint32_t cp;
        size_t k = xq_utf8_decode(text + i, len - i, &cp);
        sym s;
        if (k == 0)
            break;
        i += k;
        if (cp == 0xFFFD)
            return XQ_EINVAL;   /* invalid UTF-8 or a replaced byte */
        xq_lexicon_classify(cp, &s.g);
        s.cjk = (uint8_t)(cp >= 0x2E80 && !s.g.wide);
        if (s.g.cls == XQ_SYM_SPACE)
            continue;
        if (s.g.cls == XQ_SYM_OTHER)
            return XQ_EINVAL;
        if (n == MAX_SYMS)
            return XQ_EINVAL;
        syms[n++] = s;
    }
    /* Punctuation is tolerated around the move, not inside it. */
    lo = 0;
    hi = n;
    while (lo < hi && syms[lo].g.cls == XQ_SYM_PUNCT)
        lo++;
    while (hi > lo && syms[hi - 1].g.cls == XQ_SYM_PUNCT)
        hi--;
    for (i = lo; i < hi; i++)
        if (syms[i].g.cls == XQ_SYM_PUNCT)
            return XQ_EINVAL;
    /* Try as written, then without trailing check/annotation signs. */
    while (hi > lo) {
        if (parse_coord(syms + lo, hi - lo, flags, ptok) ||
            parse_file_form(syms + lo, hi - lo, ptok))
            return XQ_OK;
        memset(ptok, 0, sizeof *ptok);
        if (syms[hi - 1].g.cls == XQ_SYM_SIGN &&
            (syms[hi - 1].g.val == '+' || syms[hi - 1].g.val == '.') &&
            hi - lo > 4)
            hi--;
        else
            break;
    }
    return XQ_EINVAL;
}

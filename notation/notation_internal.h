/* notation_internal.h - glyph classes, lexicon and board helpers shared by
 * the files of notation/ (not public API). */
#ifndef XQ_NOTATION_INTERNAL_H
#define XQ_NOTATION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "xqscan/xq_notation.h"

/* Symbol classes of the lexicon. */
typedef enum {
    XQ_SYM_OTHER = 0,  /* unknown: the text is not a move */
    XQ_SYM_SPACE,      /* whitespace: ignored */
    XQ_SYM_PUNCT,      /* punctuation tolerated around a move */
    XQ_SYM_PIECE,      /* val = piece type */
    XQ_SYM_CNUM,       /* Chinese numeral, val 1..9 */
    XQ_SYM_DIGIT,      /* digit, val 0..9 (ASCII or full width) */
    XQ_SYM_DIR,        /* 进進退平: val '+', '-', '=' */
    XQ_SYM_POS,        /* 前中后後: val XQ_POS_FRONT/MIDDLE/REAR */
    XQ_SYM_SIGN,       /* ASCII + - = . : val the character */
    XQ_SYM_LETTER      /* ASCII letter, val lower case */
} xq_sym_class;

/* Script of a glyph. */
enum { XQ_SCRIPT_ANY = 0, XQ_SCRIPT_SIMP = 1, XQ_SCRIPT_TRAD = 2 };

typedef struct {
    uint8_t cls;     /* xq_sym_class */
    uint8_t val;
    uint8_t hint;    /* XQ_HINT_* of the glyph, 0 neutral */
    uint8_t script;  /* XQ_SCRIPT_* */
    uint8_t wide;    /* came from a full-width form */
} xq_glyph;

/* Classify one code point (never fails: unknown -> XQ_SYM_OTHER). */
void xq_lexicon_classify(uint32_t cp, xq_glyph *pg);

/* Canonical glyph strings (UTF-8). trad: 0 simplified, 1 traditional. */
const char *xq_lexicon_piece(int trad, int sd, int pt);
const char *xq_lexicon_dir(int trad, char dir);
const char *xq_lexicon_pos(int trad, int pos);
const char *xq_lexicon_cnum(int n);       /* 一..九, n 1..9 */
const char *xq_lexicon_wide_digit(int n); /* １..９ */

/* A spelling variant of a glyph for the variant enumerator. */
typedef struct {
    const char *text;
    float       prior;
    unsigned    flags;   /* XQ_VAR_* */
} xq_glyph_variant;

/* Variants of a piece glyph for side sd; count in *pn. */
const xq_glyph_variant *xq_lexicon_piece_variants(int sd, int pt, size_t *pn);

/* --- board helpers (resolve.c) -------------------------------------------- */

/* Board file index 0..8 (ICCS a..i) of file number n 1..9 for side sd. */
static inline int xq_nt_file_index(int sd, int n)
{
    return sd == XQ_RED ? 9 - n : n - 1;
}
/* File number 1..9 (from sd's right) of a board file index. */
static inline int xq_nt_file_number(int sd, int fidx)
{
    return sd == XQ_RED ? 9 - fidx : fidx + 1;
}

/* Squares of sd's pieces of type pt on board file fidx, front (nearest the
 * enemy) first; returns the count (<= 5). */
int xq_nt_file_pieces(const xq_board *b, int sd, int pt, int fidx, xq_sq *out);

/* Per-file counts of sd's pieces of type pt. */
void xq_nt_file_counts(const xq_board *b, int sd, int pt, int cnt[9]);

#endif

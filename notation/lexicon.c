/* lexicon.c - the glyphs of every move notation: pieces (车俥車伡 ...),
 * directions (进進退平), positions (前中后後), Red numerals (一..九), Black
 * digits (ASCII and full width), WXF signs and letters. */
#include <stddef.h>

#include "notation_internal.h"
#include "utf8.h"
#include "xq_core.h"

#define R XQ_HINT_RED
#define B XQ_HINT_BLACK
#define S XQ_SCRIPT_SIMP
#define T XQ_SCRIPT_TRAD

typedef struct {
    uint32_t cp;
    uint8_t  cls, val, hint, script;
} glyph_entry;

/* Sorted by code point (binary search). */
static const glyph_entry glyphs[] = {
    { 0x4E00, XQ_SYM_CNUM, 1, R, 0 },              /* 一 */
    { 0x4E03, XQ_SYM_CNUM, 7, R, 0 },              /* 七 */
    { 0x4E09, XQ_SYM_CNUM, 3, R, 0 },              /* 三 */
    { 0x4E2D, XQ_SYM_POS, XQ_POS_MIDDLE, 0, 0 },   /* 中 */
    { 0x4E5D, XQ_SYM_CNUM, 9, R, 0 },              /* 九 */
    { 0x4E8C, XQ_SYM_CNUM, 2, R, 0 },              /* 二 */
    { 0x4E94, XQ_SYM_CNUM, 5, R, 0 },              /* 五 */
    { 0x4ED5, XQ_SYM_PIECE, XQ_ADVISOR, R, 0 },    /* 仕 */
    { 0x4F21, XQ_SYM_PIECE, XQ_ROOK, R, S },       /* 伡 */
    { 0x4FE5, XQ_SYM_PIECE, XQ_ROOK, R, T },       /* 俥 */
    { 0x508C, XQ_SYM_PIECE, XQ_HORSE, R, T },      /* 傌 */
    { 0x516B, XQ_SYM_CNUM, 8, R, 0 },              /* 八 */
    { 0x516D, XQ_SYM_CNUM, 6, R, 0 },              /* 六 */
    { 0x5175, XQ_SYM_PIECE, XQ_PAWN, R, 0 },       /* 兵 */
    { 0x524D, XQ_SYM_POS, XQ_POS_FRONT, 0, 0 },    /* 前 */
    { 0x5305, XQ_SYM_PIECE, XQ_CANNON, B, 0 },     /* 包 */
    { 0x5352, XQ_SYM_PIECE, XQ_PAWN, B, 0 },       /* 卒 */
    { 0x540E, XQ_SYM_POS, XQ_POS_REAR, 0, S },     /* 后 */
    { 0x56DB, XQ_SYM_CNUM, 4, R, 0 },              /* 四 */
    { 0x58EB, XQ_SYM_PIECE, XQ_ADVISOR, B, 0 },    /* 士 */
    { 0x5C06, XQ_SYM_PIECE, XQ_KING, B, S },       /* 将 */
    { 0x5C07, XQ_SYM_PIECE, XQ_KING, B, T },       /* 將 */
    { 0x5E05, XQ_SYM_PIECE, XQ_KING, R, S },       /* 帅 */
    { 0x5E25, XQ_SYM_PIECE, XQ_KING, R, T },       /* 帥 */
    { 0x5E73, XQ_SYM_DIR, '=', 0, 0 },             /* 平 */
    { 0x5F8C, XQ_SYM_POS, XQ_POS_REAR, 0, T },     /* 後 */
    { 0x70AE, XQ_SYM_PIECE, XQ_CANNON, 0, 0 },     /* 炮 */
    { 0x76F8, XQ_SYM_PIECE, XQ_ELEPHANT, R, 0 },   /* 相 */
    { 0x7832, XQ_SYM_PIECE, XQ_CANNON, B, 0 },     /* 砲 */
    { 0x8C61, XQ_SYM_PIECE, XQ_ELEPHANT, B, 0 },   /* 象 */
    { 0x8ECA, XQ_SYM_PIECE, XQ_ROOK, 0, T },       /* 車 */
    { 0x8F66, XQ_SYM_PIECE, XQ_ROOK, 0, S },       /* 车 */
    { 0x8FDB, XQ_SYM_DIR, '+', 0, S },             /* 进 */
    { 0x9000, XQ_SYM_DIR, '-', 0, 0 },             /* 退 */
    { 0x9032, XQ_SYM_DIR, '+', 0, T },             /* 進 */
    { 0x99AC, XQ_SYM_PIECE, XQ_HORSE, 0, T },      /* 馬 */
    { 0x9A6C, XQ_SYM_PIECE, XQ_HORSE, 0, S },      /* 马 */
};

static int is_space(uint32_t cp)
{
    return cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n' || cp == '\v' ||
           cp == '\f' || cp == 0xA0 || cp == 0x3000 || cp == 0xFEFF ||
           (cp >= 0x2000 && cp <= 0x200B);
}

static int is_punct(uint32_t cp)
{
    switch (cp) {
    case ',': case ';': case ':': case '!': case '?': case '#': case '(':
    case ')': case '[': case ']': case '{': case '}': case '"': case '\'':
    case '*': case '/': case '|': case '_': case '~': case '<': case '>':
    case 0x3001: /* 、 */ case 0x3002: /* 。 */ case 0x300C: case 0x300D:
    case 0x300A: case 0x300B: case 0x3010: case 0x3011: case 0x201C:
    case 0x201D: case 0x2018: case 0x2019: case 0x00B7: case 0x30FB:
    case 0xFF64: case 0xFF61:
        return 1;
    default:
        return 0;
    }
}

void xq_lexicon_classify(uint32_t cp, xq_glyph *pg)
{
    size_t lo = 0, hi = XQ_ARRAY_LEN(glyphs);
    uint32_t h = xq_utf8_halfwidth(cp);
    pg->cls = XQ_SYM_OTHER;
    pg->val = 0;
    pg->hint = 0;
    pg->script = 0;
    pg->wide = (uint8_t)(h != cp);
    if (h == 0x3000 || h == ' ' || is_space(cp)) {
        pg->cls = XQ_SYM_SPACE;
        return;
    }
    if (h < 0x80) {
        if (h >= '0' && h <= '9') {
            pg->cls = XQ_SYM_DIGIT;
            pg->val = (uint8_t)(h - '0');
        } else if ((h >= 'a' && h <= 'z') || (h >= 'A' && h <= 'Z')) {
            pg->cls = XQ_SYM_LETTER;
            pg->val = (uint8_t)(h | 0x20);
        } else if (h == '+' || h == '-' || h == '=' || h == '.') {
            pg->cls = XQ_SYM_SIGN;
            pg->val = (uint8_t)h;
        } else if (is_punct(h)) {
            pg->cls = XQ_SYM_PUNCT;
            pg->val = (uint8_t)h;
        }
        return;
    }
    /* Other dashes and the full stop look-alikes read as WXF signs. */
    if (cp == 0x2212 || cp == 0x2013 || cp == 0x2014 || cp == 0x2010) {
        pg->cls = XQ_SYM_SIGN;
        pg->val = '-';
        return;
    }
    if (is_punct(cp)) {
        pg->cls = XQ_SYM_PUNCT;
        return;
    }
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (glyphs[mid].cp < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < XQ_ARRAY_LEN(glyphs) && glyphs[lo].cp == cp) {
        pg->cls = glyphs[lo].cls;
        pg->val = glyphs[lo].val;
        pg->hint = glyphs[lo].hint;
        pg->script = glyphs[lo].script;
    }
}

static const char *const piece_text[2][2][8] = {
    { { "", "帅", "仕", "相", "马", "车", "炮", "兵" },
      { "", "将", "士", "象", "马", "车", "炮", "卒" } },
    { { "", "帥", "仕", "相", "馬", "車", "炮", "兵" },
      { "", "將", "士", "象", "馬", "車", "炮", "卒" } },
};
static const char *const cnum_text[10] = {
    "", "一", "二", "三", "四", "五", "六", "七", "八", "九"
};
static const char *const wide_text[10] = {
    "０", "１", "２", "３", "４", "５", "６", "７", "８", "９"
};

const char *xq_lexicon_piece(int trad, int sd, int pt)
{
    if (pt < 1 || pt > 7)
        return "";
    return piece_text[trad ? 1 : 0][sd ? 1 : 0][pt];
}

const char *xq_lexicon_dir(int trad, char dir)
{
    switch (dir) {
    case '+': return trad ? "進" : "进";
    case '-': return "退";
    case '=': return "平";
    default: return "";
    }
}

const char *xq_lexicon_pos(int trad, int pos)
{
    switch (pos) {
    case XQ_POS_FRONT: return "前";
    case XQ_POS_MIDDLE: return "中";
    case XQ_POS_REAR: return trad ? "後" : "后";
    default: return "";
    }
}

const char *xq_lexicon_cnum(int n)
{
    return n >= 1 && n <= 9 ? cnum_text[n] : "";
}

const char *xq_lexicon_wide_digit(int n)
{
    return n >= 0 && n <= 9 ? wide_text[n] : "";
}

/* Spellings players use, most usual first (RULES.md glyph table). */
static const xq_glyph_variant red_king[] = {
    { "帅", 1.0f, 0 }, { "帥", 1.0f, 0 } };
static const xq_glyph_variant red_advisor[] = {
    { "仕", 1.0f, 0 }, { "士", 0.6f, XQ_VAR_OTHER_SIDE } };
static const xq_glyph_variant red_elephant[] = {
    { "相", 1.0f, 0 }, { "象", 0.4f, XQ_VAR_OTHER_SIDE } };
static const xq_glyph_variant red_horse[] = {
    { "马", 1.0f, 0 }, { "馬", 1.0f, 0 }, { "傌", 0.8f, XQ_VAR_GLYPH } };
static const xq_glyph_variant red_rook[] = {
    { "车", 1.0f, 0 }, { "車", 1.0f, 0 }, { "俥", 0.8f, XQ_VAR_GLYPH },
    { "伡", 0.3f, XQ_VAR_GLYPH } };
static const xq_glyph_variant red_cannon[] = {
    { "炮", 1.0f, 0 }, { "砲", 0.4f, XQ_VAR_GLYPH | XQ_VAR_OTHER_SIDE },
    { "包", 0.2f, XQ_VAR_GLYPH | XQ_VAR_OTHER_SIDE } };
static const xq_glyph_variant red_pawn[] = {
    { "兵", 1.0f, 0 }, { "卒", 0.3f, XQ_VAR_OTHER_SIDE } };
static const xq_glyph_variant black_king[] = {
    { "将", 1.0f, 0 }, { "將", 1.0f, 0 } };
static const xq_glyph_variant black_advisor[] = {
    { "士", 1.0f, 0 }, { "仕", 0.5f, XQ_VAR_OTHER_SIDE } };
static const xq_glyph_variant black_elephant[] = {
    { "象", 1.0f, 0 }, { "相", 0.5f, XQ_VAR_OTHER_SIDE } };
static const xq_glyph_variant black_horse[] = {
    { "马", 1.0f, 0 }, { "馬", 1.0f, 0 } };
static const xq_glyph_variant black_rook[] = {
    { "车", 1.0f, 0 }, { "車", 1.0f, 0 } };
static const xq_glyph_variant black_cannon[] = {
    { "炮", 1.0f, 0 }, { "砲", 0.8f, XQ_VAR_GLYPH }, { "包", 0.8f, XQ_VAR_GLYPH } };
static const xq_glyph_variant black_pawn[] = {
    { "卒", 1.0f, 0 }, { "兵", 0.3f, XQ_VAR_OTHER_SIDE } };

static const struct {
    const xq_glyph_variant *v;
    size_t n;
} piece_variants[2][8] = {
    { { NULL, 0 },
      { red_king, XQ_ARRAY_LEN(red_king) },
      { red_advisor, XQ_ARRAY_LEN(red_advisor) },
      { red_elephant, XQ_ARRAY_LEN(red_elephant) },
      { red_horse, XQ_ARRAY_LEN(red_horse) },
      { red_rook, XQ_ARRAY_LEN(red_rook) },
      { red_cannon, XQ_ARRAY_LEN(red_cannon) },
      { red_pawn, XQ_ARRAY_LEN(red_pawn) } },
    { { NULL, 0 },
      { black_king, XQ_ARRAY_LEN(black_king) },
      { black_advisor, XQ_ARRAY_LEN(black_advisor) },
      { black_elephant, XQ_ARRAY_LEN(black_elephant) },
      { black_horse, XQ_ARRAY_LEN(black_horse) },
      { black_rook, XQ_ARRAY_LEN(black_rook) },
      { black_cannon, XQ_ARRAY_LEN(black_cannon) },
      { black_pawn, XQ_ARRAY_LEN(black_pawn) } },
};

const xq_glyph_variant *xq_lexicon_piece_variants(int sd, int pt, size_t *pn)
{
    if (pn)
        *pn = 0;
    if (pt < 1 || pt > 7 || !pn)
        return NULL;
    *pn = piece_variants[sd ? 1 : 0][pt].n;
    return piece_variants[sd ? 1 : 0][pt].v;
}

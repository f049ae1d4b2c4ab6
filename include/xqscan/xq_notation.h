/* xq_notation.h - stage "notation": read and write every Xiangqi move
 * notation, resolve a written move on a board, read typed game records.
 *
 * Two steps, as in ElephantEye's Chin2File / File2Move (STYLE.md, 11):
 *   1. xq_notation_lex(): text -> xq_token. Needs no board. Reads Chinese
 *      four-slot notation in simplified, traditional and variant glyphs
 *      (车俥車伡 马傌馬 炮砲包 相象 仕士 帅帥将將 兵卒 进進 后後), Red numerals
 *      一..九, Black digits 1-9 in ASCII or full width, position words
 *      前/中/后 and 一..五 (pawns, counted from the front), the piece-less
 *      pawn form (前六平五, 後4平5), the five-glyph form (前兵九平八), WXF
 *      (C2=5 C2.5 H8+7 +C=5 C+=5 R++4 15=6 +6=5, full width, any case)
 *      and coordinates: ICCS (h2e2, H2-E2) or, with XQ_LEX_UCI,
 *      Fairy-Stockfish ranks 1-10 (h3e3).
 *   2. xq_notation_resolve(): token + board -> exactly one legal move, or a
 *      typed reason why not (xq_resolve_code). Readings that are data, not
 *      errors (unparseable, ambiguous, illegal) come back with XQ_OK and
 *      the reason in the result; only bad arguments return non-OK.
 *
 * Writing: xq_notation_write() gives the canonical text of a move in the
 * four notations (conventions below); xq_notation_variants() enumerates
 * the ways a player could plausibly have written it on paper.
 *
 * Canonical conventions (Chinese and WXF):
 *   - Red files and straight distances in Chinese numerals, Black in
 *     full-width digits (１..９); WXF letters K A E H R C P, upper case for
 *     both sides, operators + - =.
 *   - Rook, horse, cannon: two of them on the mover's file -> 前/后 replaces
 *     the file (前车进一, WXF R++1 / R-+1, ffish style).
 *   - Advisors, elephants and the king are never disambiguated (the
 *     direction always tells which one moves).
 *   - Pawns, one file holding several: 2 -> 前/后 (WXF P+ / P-),
 *     3 -> 前/中/后 (WXF 1x 2x 3x = index from the front + file),
 *     4-5 -> 一二三四五 (WXF index + file). When two files each hold
 *     several pawns, the position word keeps the file and the piece is
 *     dropped: 前七平六 / 中七进一 (WXF +7=6 / -7=6 for pairs, index + file
 *     for a file of three).
 *   For every position the canonical strings of all legal moves are
 *   distinct, and each reads back to its move.
 */
#ifndef XQ_NOTATION_H
#define XQ_NOTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xq_board.h"
#include "xq_status.h"
#include "xq_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    XQ_NOTATION_CHINESE = 0,   /* simplified: 炮二平五, 马８进７ */
    XQ_NOTATION_TRADITIONAL,   /* traditional: 炮二平五, 馬８進７ */
    XQ_NOTATION_WXF,           /* C2=5, H8+7 */
    XQ_NOTATION_ICCS,          /* h2e2 (ranks 0-9) */
    XQ_NOTATION_UCI            /* Fairy-Stockfish coordinates, ranks 1-10 (h3e3) */
} xq_notation_kind;

/* "chinese" "traditional" "wxf" "iccs" "uci"; NULL for an invalid kind. */
const char *xq_notation_kind_name(xq_notation_kind kind);
/* Inverse of xq_notation_kind_name (case-insensitive; "simplified" is
 * chinese too). XQ_EINVAL for an unknown name. */
xq_status xq_notation_kind_parse(const char *name, xq_notation_kind *pkind);

/* --- step 1: lexing (no board) ------------------------------------------ */

typedef enum {
    XQ_TOK_NONE = 0,   /* nothing readable */
    XQ_TOK_FILE,       /* four-slot descriptive move (Chinese or WXF) */
    XQ_TOK_COORD       /* from/to coordinates (ICCS or UCI) */
} xq_token_form;

typedef enum {
    XQ_POS_NONE = 0,   /* no position word: the file is written */
    XQ_POS_FRONT,      /* 前, WXF + */
    XQ_POS_MIDDLE,     /* 中, WXF . (ElephantEye) */
    XQ_POS_REAR,       /* 后 後, WXF - */
    XQ_POS_NTH         /* 一..五 / WXF leading digit: nth from the front */
} xq_token_pos;

/* Side hints of a token: bit (1 << XQ_RED) / (1 << XQ_BLACK). */
#define XQ_HINT_RED   (1u << XQ_RED)
#define XQ_HINT_BLACK (1u << XQ_BLACK)

/* Where the token came from (xq_token.notation). */
typedef struct {
    uint8_t form;       /* xq_token_form */
    uint8_t notation;   /* xq_notation_kind read: CHINESE (glyphs of either
                           script), TRADITIONAL (only traditional glyphs
                           were seen), WXF, ICCS or UCI */
    uint8_t piece;      /* XQ_KING..XQ_PAWN; 0 not written (piece-less
                           pawn form, coordinates) */
    uint8_t file;       /* 1..9 counted from the mover's right; 0 not written */
    uint8_t pos;        /* xq_token_pos */
    uint8_t nth;        /* 1..5 when pos == XQ_POS_NTH */
    char    dir;        /* '+' forward, '-' backward, '=' sideways; 0 coords */
    uint8_t target;     /* 1..9: destination file or number of ranks */
    xq_sq   from, to;   /* XQ_TOK_COORD only */
    uint8_t num_hint;   /* XQ_HINT_* suggested by the numerals (Chinese
                           numerals: Red; digits: Black); 0 none or mixed */
    uint8_t glyph_hint; /* XQ_HINT_* suggested by the piece glyph (帅 仕 相
                           兵 俥 傌: Red; 将 士 象 卒 砲 包: Black); 0 none */
} xq_token;

/* Lexing flags. */
#define XQ_LEX_UCI 0x1u   /* coordinates count ranks 1-10 (Fairy-Stockfish);
                             without it coordinates are ICCS (0-9) and a
                             rank 10 makes the text unreadable */

/* Read one move from UTF-8 text (whitespace, punctuation and trailing
 * annotations such as + # ! ? around it are tolerated). Any byte string is
 * accepted: invalid UTF-8, unknown glyphs or a truncated move give
 * XQ_EINVAL with ptok->form == XQ_TOK_NONE; NULL arguments give XQ_EINVAL. */
xq_status xq_notation_lex(const char *text, unsigned flags, xq_token *ptok);

/* The numeral a glyph writes as a file or a distance: 1-9 for 一-九 and for
 * the digits 1-9 (ASCII or full width); 0 for any other glyph (0 and ０ name
 * no file or distance). */
int xq_notation_numeral(uint32_t cp);

/* --- step 2: resolving on a board --------------------------------------- */

typedef enum {
    XQ_RES_OK = 0,          /* exactly one legal move */
    XQ_RES_UNPARSEABLE,     /* the text is not a move in any notation */
    XQ_RES_NO_PIECE,        /* no such piece of the side to move on that
                               file / in that position */
    XQ_RES_AMBIGUOUS,       /* several pieces fit and can make the move */
    XQ_RES_BAD_DESTINATION, /* the destination is impossible for that piece
                               (off the board, wrong geometry, blocked) */
    XQ_RES_SELF_CHECK,      /* the move leaves one's own king in check */
    XQ_RES_KINGS_FACE,      /* the move makes the kings face each other */
    XQ_RES_NOROOM           /* the board's history is full */
} xq_resolve_code;

/* Warnings of a resolution (bit set): hints, not errors. */
#define XQ_RWARN_SIDE_NUMERALS 0x1u  /* numerals of the other side (a Red
                                        numeral on a Black move) */
#define XQ_RWARN_SIDE_GLYPH    0x2u  /* piece glyph of the other side */
#define XQ_RWARN_UNDISAMBIGUATED 0x4u /* 前/后 (or the file) missing where
                                        the convention asks for it; the
                                        board still leaves one legal move */
#define XQ_RWARN_NONCANONICAL  0x8u  /* readable but not the canonical
                                        form (e.g. 前 on a file where 一 was
                                        due, ElephantEye-pooled pawns) */

typedef struct {
    xq_resolve_code code;
    xq_move    mv;        /* the legal move when XQ_RES_OK; for
                             BAD_DESTINATION / SELF_CHECK / KINGS_FACE the
                             move meant when only one was meant; else
                             XQ_MOVE_NONE */
    xq_illegal why;       /* engine reason for a single meant move that is
                             illegal; XQ_LEGAL otherwise */
    unsigned   warnings;  /* XQ_RWARN_* */
    int        nfit;      /* how many legal moves fit the text (>1 ambiguous) */
} xq_resolution;

/* English text of a code ("no such piece on that file"). Never NULL. */
const char *xq_resolve_code_str(xq_resolve_code code);

/* Resolve a token for the side to move. The board is left as it was.
 * Returns XQ_OK with the reading in *pres (XQ_EINVAL only for NULL
 * arguments). */
xq_status xq_notation_resolve(xq_board *b, const xq_token *tok,
                              xq_resolution *pres);

/* Lex + resolve an arbitrary string (e.g. OCR output): garbage gives
 * XQ_OK with pres->code == XQ_RES_UNPARSEABLE, never a crash. */
xq_status xq_notation_read(xq_board *b, const char *text, unsigned flags,
                           xq_resolution *pres);

/* A one-line English description of a resolution for messages, e.g.
 * "ambiguous: 2 pieces fit" or "leaves own king in check". */
void xq_resolution_describe(const xq_resolution *res, char *buf, size_t len);

/* --- writing ------------------------------------------------------------ */

/* Longest text xq_notation_write produces, with its NUL. */
#define XQ_NOTATION_MAX 32

/* Write legal move mv of the side to move in the canonical form of kind.
 * XQ_EINVAL if mv is not a legal move on b, XQ_ERANGE if len is too small
 * (buf is then ""). b is left as it was. */
xq_status xq_notation_write(xq_board *b, xq_move mv, xq_notation_kind kind,
                            char *buf, size_t len);

/* One way of writing a move on paper. */
typedef struct {
    char     text[XQ_NOTATION_MAX];
    xq_notation_kind kind;  /* CHINESE (glyphs), WXF or ICCS family */
    float    prior;         /* 0..1: how usual this spelling is (1 = the
                               canonical simplified or traditional form) */
    unsigned flags;         /* XQ_VAR_*: how it differs from canonical */
} xq_notation_variant;

#define XQ_VAR_GLYPH      0x01u  /* variant piece/direction/position glyph
                                    (俥 傌 砲 包 進 後 ...) */
#define XQ_VAR_DIGITS     0x02u  /* Black digits half-width (8 for ８) */
#define XQ_VAR_OTHER_SIDE 0x04u  /* numerals or glyph of the other side */
#define XQ_VAR_OMITTED    0x08u  /* 前/后 left out (file written instead),
                                    still unambiguous on this board */
#define XQ_VAR_FORM       0x10u  /* another disambiguation form (前兵七,
                                    前七, 一兵 for 前兵 ...) */

/* Kinds to enumerate (bit set of 1u << xq_notation_kind). */
#define XQ_VARIANTS_CHINESE ((1u << XQ_NOTATION_CHINESE) | (1u << XQ_NOTATION_TRADITIONAL))
#define XQ_VARIANTS_WXF     (1u << XQ_NOTATION_WXF)
#define XQ_VARIANTS_ICCS    (1u << XQ_NOTATION_ICCS)
#define XQ_VARIANTS_ALL     (XQ_VARIANTS_CHINESE | XQ_VARIANTS_WXF | XQ_VARIANTS_ICCS)

/* Callback: return nonzero to stop the enumeration. */
typedef int (*xq_notation_variant_fn)(void *ud, const xq_notation_variant *v);

/* Enumerate every distinct plausible spelling of legal move mv (kinds: an
 * XQ_VARIANTS_* mask), canonical forms first. Every text enumerated reads
 * back (xq_notation_read) to exactly mv on b. XQ_EINVAL if mv is not legal.
 * b is left as it was. */
xq_status xq_notation_variants(xq_board *b, xq_move mv, unsigned kinds,
                               xq_notation_variant_fn fn, void *ud);

/* The same into an array: up to max variants in out, count in *pcount
 * (the number stored). */
xq_status xq_notation_variants_array(xq_board *b, xq_move mv, unsigned kinds,
                                     xq_notation_variant *out, size_t max,
                                     size_t *pcount);

/* What the variants (kinds) of legal move mv read from b, as a key for
 * caching them: two legal (board, move) pairs with the same nonzero key
 * have the same variants for the same kinds. Where no other piece of the
 * mover's kind stands on its file, the key is the mover and the move;
 * where one does (前/后 forms), it also holds where the pieces of that
 * kind stand and which alternative forms name the move on b (which of
 * two pieces can make it depends on the rest of the board). 0 when b is
 * NULL, nothing stands on the move's square, or in a position no game
 * reaches (more than 5 pieces of a kind). */
uint64_t xq_notation_variants_key(xq_board *b, xq_move mv, unsigned kinds);

/* The same for n moves of b at once, into keys[0, n) (each equal to
 * xq_notation_variants_key(b, mvs[i], kinds)): the board is looked at
 * once, not once per move. XQ_EINVAL when b is NULL or n > 0 with mvs or
 * keys NULL. */
xq_status xq_notation_variants_keys(xq_board *b, const xq_move *mvs, size_t n,
                                    unsigned kinds, uint64_t *keys);

/* --- game records -------------------------------------------------------- */

/* One move as written in a record. */
typedef struct {
    char *text;   /* the move text, UTF-8 (converted from the file's
                     encoding), without move number or annotations */
    int   line;   /* 1-based line in the file */
    int   ply;    /* 1-based index of the move in its game */
} xq_record_move;

typedef struct {
    char *name, *value;
} xq_record_tag;

/* One game of a record. All strings are UTF-8 and owned by the record. */
typedef struct {
    int             line;      /* 1-based line where the game starts */
    /* Convenience copies of the common tags (NULL when absent). */
    const char     *event, *site, *date, *round, *red, *black;
    const char     *result;    /* Result tag, else the movetext's result
                                  marker, else NULL */
    const char     *fen;       /* FEN tag or NULL (standard start) */
    const char     *format;    /* Format tag ("WXF", "ICCS", ...) or NULL */
    xq_record_tag  *tags;      /* every tag in file order */
    size_t          ntags;
    xq_record_move *moves;
    size_t          nmoves;
    char           *movetext_result; /* "1-0" "0-1" "1/2-1/2" "*" or NULL */
} xq_record_game;

typedef struct xq_record xq_record;

typedef enum {
    XQ_ENC_UTF8 = 0, XQ_ENC_UTF8_BOM, XQ_ENC_GB18030, XQ_ENC_BIG5,
    XQ_ENC_UTF16LE, XQ_ENC_UTF16BE,
    XQ_ENC_UTF8_INVALID   /* mostly UTF-8 with invalid bytes, read as U+FFFD */
} xq_record_encoding;

/* Read PGN (Xiangqi tags, comments {} and ;, variations () skipped, NAGs,
 * results) or plain numbered move lists, several games per file, in UTF-8
 * (BOM or not), UTF-16 with BOM, GB18030/GBK or Big5 (detected). Bytes that
 * fit no encoding become U+FFFD inside the move text, so the move that
 * holds them fails to lex and can be named. XQ_EINVAL for NULL arguments,
 * XQ_ENOMEM. An input with no game gives a record with zero games. */
xq_status xq_record_read_mem(const char *data, size_t len, xq_record **prec);
/* The same from a file ("-" is stdin). XQ_EIO if it cannot be read. */
xq_status xq_record_read_file(const char *path, xq_record **prec);
void xq_record_destroy(xq_record **prec);

size_t xq_record_count(const xq_record *rec);
/* Borrowed; NULL when i is out of range. */
const xq_record_game *xq_record_game_at(const xq_record *rec, size_t i);
xq_record_encoding xq_record_get_encoding(const xq_record *rec);
const char *xq_record_encoding_name(xq_record_encoding enc);
/* Value of tag name (case-insensitive) or NULL. */
const char *xq_record_game_tag(const xq_record_game *g, const char *name);

/* Lexing flags fitting a game's Format tag and moves: XQ_LEX_UCI when the
 * Format says UCI / Fairy-Stockfish, or when it says nothing and some
 * coordinate move uses rank 10 while none uses rank 0. */
unsigned xq_record_game_lex_flags(const xq_record_game *g);

/* Replay a game: set up its FEN (or the start position) and resolve every
 * move. On success *pnplies = nmoves and b holds the final position with
 * its history. On the first move that does not resolve, *pbad gets its
 * 0-based index and *pres its resolution, and XQ_OK is still returned
 * (the record is data); *pbad = -1 when all moves resolve. An invalid FEN
 * gives XQ_EINVAL (message in err). pres and err may be NULL. */
xq_status xq_record_game_replay(const xq_record_game *g, xq_board *b,
                                long *pbad, xq_resolution *pres,
                                char *err, size_t errlen);

/* Convert a game to PGN text in notation kind (xqbase conventions:
 * [Game "Chinese Chess"] first, then Event Site Date Round Red Black
 * Result, [FEN] when not the standard start, [Format "WXF"/"ICCS"/"UCI"]
 * when not Chinese, the other tags of the game, then the numbered moves
 * and the result). The game must replay (else XQ_EINVAL and err names the
 * ply). *ppgn is allocated (xq_free). */
xq_status xq_record_game_to_pgn(const xq_record_game *g, xq_notation_kind kind,
                                char **ppgn, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif

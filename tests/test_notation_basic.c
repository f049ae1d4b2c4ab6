/* Unit tests of notation/: lexer, resolver (typed reasons and warnings),
 * writer conventions, spelling variants, record reader (PGN, move lists,
 * encodings), replay and PGN output, out-of-memory behaviour. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "xq_alloc.h"
#include "xqscan/xq_notation.h"

static void setup_fen(xq_board *b, const char *fen)
{
    char err[128];
    if (xq_board_from_fen(b, fen, err, sizeof err) != XQ_OK)
        fail_msg("bad test FEN %s: %s", fen, err);
}

static xq_move mv_of(const char *iccs)
{
    xq_move mv;
    assert_int_equal(xq_move_from_iccs(iccs, &mv), XQ_OK);
    return mv;
}

static void test_kind_names(void **state)
{
    xq_notation_kind k;
    (void)state;
    assert_string_equal(xq_notation_kind_name(XQ_NOTATION_WXF), "wxf");
    assert_null(xq_notation_kind_name((xq_notation_kind)99));
    assert_int_equal(xq_notation_kind_parse("ICCS", &k), XQ_OK);
    assert_int_equal(k, XQ_NOTATION_ICCS);
    assert_int_equal(xq_notation_kind_parse("simplified", &k), XQ_OK);
    assert_int_equal(k, XQ_NOTATION_CHINESE);
    assert_int_equal(xq_notation_kind_parse("traditional", &k), XQ_OK);
    assert_int_equal(k, XQ_NOTATION_TRADITIONAL);
    assert_int_equal(xq_notation_kind_parse("klingon", &k), XQ_EINVAL);
    assert_int_equal(xq_notation_kind_parse(NULL, &k), XQ_EINVAL);
}

/* Numerals in every form a sheet writes them; nothing else is one. */
static void test_numeral(void **state)
{
    static const uint32_t han[9] = { 0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94,
                                     0x516D, 0x4E03, 0x516B, 0x4E5D };
    int n;
    (void)state;
    for (n = 1; n <= 9; n++) {
        assert_int_equal(xq_notation_numeral(han[n - 1]), n);  /* 一-九 */
        assert_int_equal(xq_notation_numeral((uint32_t)('0' + n)), n);
        assert_int_equal(xq_notation_numeral(0xFF10u + (uint32_t)n), n);  /* １ */
    }
    assert_int_equal(xq_notation_numeral('0'), 0);
    assert_int_equal(xq_notation_numeral(0xFF10), 0);   /* ０ */
    assert_int_equal(xq_notation_numeral(0x5341), 0);   /* 十 */
    assert_int_equal(xq_notation_numeral(0x8F66), 0);   /* 车 */
    assert_int_equal(xq_notation_numeral(0x8FDB), 0);   /* 进 */
    assert_int_equal(xq_notation_numeral('a'), 0);
    assert_int_equal(xq_notation_numeral(0x110000), 0);
}

static void lex_ok(const char *s, unsigned flags, xq_token *t)
{
    if (xq_notation_lex(s, flags, t) != XQ_OK)
        fail_msg("'%s' does not lex", s);
}

static void test_lex_chinese(void **state)
{
    xq_token t;
    (void)state;
    lex_ok("炮二平五", 0, &t);
    assert_int_equal(t.form, XQ_TOK_FILE);
    assert_int_equal(t.piece, XQ_CANNON);
    assert_int_equal(t.file, 2);
    assert_int_equal(t.dir, '=');
    assert_int_equal(t.target, 5);
    assert_int_equal(t.num_hint, XQ_HINT_RED);
    assert_int_equal(t.glyph_hint, 0);
    assert_int_equal(t.notation, XQ_NOTATION_CHINESE);
    lex_ok("馬８進７", 0, &t);
    assert_int_equal(t.piece, XQ_HORSE);
    assert_int_equal(t.file, 8);
    assert_int_equal(t.dir, '+');
    assert_int_equal(t.target, 7);
    assert_int_equal(t.num_hint, XQ_HINT_BLACK);
    assert_int_equal(t.notation, XQ_NOTATION_TRADITIONAL);
    lex_ok(" 马8进7 ", 0, &t);
    assert_int_equal(t.num_hint, XQ_HINT_BLACK);
    /* every variant glyph of RULES.md */
    lex_ok("俥一平二", 0, &t);
    assert_int_equal(t.piece, XQ_ROOK);
    assert_int_equal(t.glyph_hint, XQ_HINT_RED);
    lex_ok("伡一平二", 0, &t);
    assert_int_equal(t.piece, XQ_ROOK);
    lex_ok("車1平2", 0, &t);
    assert_int_equal(t.piece, XQ_ROOK);
    lex_ok("傌八进七", 0, &t);
    assert_int_equal(t.piece, XQ_HORSE);
    lex_ok("砲８平５", 0, &t);
    assert_int_equal(t.piece, XQ_CANNON);
    assert_int_equal(t.glyph_hint, XQ_HINT_BLACK);
    lex_ok("包2平5", 0, &t);
    assert_int_equal(t.piece, XQ_CANNON);
    lex_ok("相三进五", 0, &t);
    assert_int_equal(t.piece, XQ_ELEPHANT);
    lex_ok("象3进5", 0, &t);
    assert_int_equal(t.piece, XQ_ELEPHANT);
    lex_ok("仕四进五", 0, &t);
    assert_int_equal(t.piece, XQ_ADVISOR);
    lex_ok("士4进5", 0, &t);
    assert_int_equal(t.piece, XQ_ADVISOR);
    lex_ok("帅五平四", 0, &t);
    assert_int_equal(t.piece, XQ_KING);
    lex_ok("帥五平四", 0, &t);
    lex_ok("将5平4", 0, &t);
    lex_ok("將5平4", 0, &t);
    assert_int_equal(t.piece, XQ_KING);
    lex_ok("兵七进一", 0, &t);
    assert_int_equal(t.piece, XQ_PAWN);
    lex_ok("卒7進1", 0, &t);
    assert_int_equal(t.piece, XQ_PAWN);
    lex_ok("车九退一", 0, &t);
    assert_int_equal(t.dir, '-');
    /* position words */
    lex_ok("前车进一", 0, &t);
    assert_int_equal(t.pos, XQ_POS_FRONT);
    assert_int_equal(t.file, 0);
    assert_int_equal(t.piece, XQ_ROOK);
    lex_ok("後馬退6", 0, &t);
    assert_int_equal(t.pos, XQ_POS_REAR);
    lex_ok("中卒平6", 0, &t);
    assert_int_equal(t.pos, XQ_POS_MIDDLE);
    lex_ok("二兵平六", 0, &t);
    assert_int_equal(t.pos, XQ_POS_NTH);
    assert_int_equal(t.nth, 2);
    assert_int_equal(t.piece, XQ_PAWN);
    lex_ok("前六平五", 0, &t);
    assert_int_equal(t.pos, XQ_POS_FRONT);
    assert_int_equal(t.piece, 0);
    assert_int_equal(t.file, 6);
    lex_ok("後4平5", 0, &t);
    assert_int_equal(t.pos, XQ_POS_REAR);
    assert_int_equal(t.file, 4);
    lex_ok("前兵九平八", 0, &t);
    assert_int_equal(t.pos, XQ_POS_FRONT);
    assert_int_equal(t.piece, XQ_PAWN);
    assert_int_equal(t.file, 9);
    assert_int_equal(t.target, 8);
    /* punctuation and annotations around a move */
    lex_ok("(炮二平五)!", 0, &t);
    lex_ok("炮二平五。", 0, &t);
    lex_ok("炮 二 平 五", 0, &t);
    assert_int_equal(t.target, 5);
}

static void test_lex_wxf_coords(void **state)
{
    xq_token t;
    (void)state;
    lex_ok("C2=5", 0, &t);
    assert_int_equal(t.notation, XQ_NOTATION_WXF);
    assert_int_equal(t.piece, XQ_CANNON);
    assert_int_equal(t.file, 2);
    assert_int_equal(t.dir, '=');
    assert_int_equal(t.num_hint, 0);
    lex_ok("C2.5", 0, &t);
    assert_int_equal(t.dir, '=');
    lex_ok("h8+7", 0, &t);
    assert_int_equal(t.piece, XQ_HORSE);
    assert_int_equal(t.dir, '+');
    lex_ok("N8+7", 0, &t);
    assert_int_equal(t.piece, XQ_HORSE);
    lex_ok("B3+5", 0, &t);
    assert_int_equal(t.piece, XQ_ELEPHANT);
    lex_ok("Ｃ２＝５", 0, &t);
    assert_int_equal(t.piece, XQ_CANNON);
    assert_int_equal(t.target, 5);
    lex_ok("+C=5", 0, &t);
    assert_int_equal(t.pos, XQ_POS_FRONT);
    assert_int_equal(t.piece, XQ_CANNON);
    lex_ok("C-=5", 0, &t);
    assert_int_equal(t.pos, XQ_POS_REAR);
    lex_ok("R++4", 0, &t);
    assert_int_equal(t.pos, XQ_POS_FRONT);
    assert_int_equal(t.dir, '+');
    assert_int_equal(t.target, 4);
    lex_ok("15=6", 0, &t);
    assert_int_equal(t.pos, XQ_POS_NTH);
    assert_int_equal(t.nth, 1);
    assert_int_equal(t.file, 5);
    lex_ok("+6=5", 0, &t);
    assert_int_equal(t.pos, XQ_POS_FRONT);
    assert_int_equal(t.file, 6);
    assert_int_equal(t.piece, 0);
    lex_ok("C2=5+", 0, &t);   /* check mark */
    assert_int_equal(t.target, 5);
    lex_ok("h2e2", 0, &t);
    assert_int_equal(t.form, XQ_TOK_COORD);
    assert_int_equal(t.notation, XQ_NOTATION_ICCS);
    assert_int_equal(t.from, XQ_SQ(7, 2));
    assert_int_equal(t.to, XQ_SQ(4, 2));
    lex_ok("H2-E2", 0, &t);
    assert_int_equal(t.to, XQ_SQ(4, 2));
    lex_ok("h3e3", XQ_LEX_UCI, &t);
    assert_int_equal(t.notation, XQ_NOTATION_UCI);
    assert_int_equal(t.from, XQ_SQ(7, 2));
    /* rank 10 exists only in UCI, read only when asked for */
    assert_int_equal(xq_notation_lex("h10g8", 0, &t), XQ_EINVAL);
    lex_ok("h10g8", XQ_LEX_UCI, &t);
    assert_int_equal(t.from, XQ_SQ(7, 9));
    assert_int_equal(t.to, XQ_SQ(6, 7));
}

static void test_lex_garbage(void **state)
{
    static const char *const bad[] = {
        "", "   ", "炮二平", "炮二平五六", "车9吃8", "炮二平零", "C2=0",
        "h2e", "j2e2", "h0e10x", "\xff\xfe\xfd", "马8\xe8\xbf", "一二三四",
        "炮炮炮炮", "前前前前", "!!", "C2==5", "1-0",
        "炮二平五炮二平五炮二平五炮二平五炮二平五",
    };
    size_t i;
    xq_token t;
    char big[600];
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (xq_notation_lex(bad[i], 0, &t) != XQ_EINVAL)
            fail_msg("'%s' should not lex", bad[i]);
        assert_int_equal(t.form, XQ_TOK_NONE);
    }
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(xq_notation_lex(big, 0, &t), XQ_EINVAL);
    assert_int_equal(xq_notation_lex(NULL, 0, &t), XQ_EINVAL);
    assert_int_equal(xq_notation_lex("C2=5", 0, NULL), XQ_EINVAL);
}

static xq_resolution rd(xq_board *b, const char *text)
{
    xq_resolution r;
    assert_int_equal(xq_notation_read(b, text, 0, &r), XQ_OK);
    return r;
}

static void test_resolve_reasons(void **state)
{
    xq_board b;
    xq_resolution r;
    xq_token t;
    char desc[128];
    (void)state;
    xq_board_init_start(&b);
    r = rd(&b, "炮二平五");
    assert_int_equal(r.code, XQ_RES_OK);
    assert_int_equal(r.mv, mv_of("h2e2"));
    assert_int_equal(r.warnings, 0);
    assert_int_equal(r.nfit, 1);
    r = rd(&b, "C2=5");
    assert_int_equal(r.mv, mv_of("h2e2"));
    r = rd(&b, "H2-E2");
    assert_int_equal(r.mv, mv_of("h2e2"));
    /* a Black-looking move for Red: hint, not error */
    r = rd(&b, "炮2平5");   /* files count from the mover's right */
    assert_int_equal(r.code, XQ_RES_OK);
    assert_int_equal(r.mv, mv_of("h2e2"));
    assert_true(r.warnings & XQ_RWARN_SIDE_NUMERALS);
    r = rd(&b, "卒七进一");
    assert_int_equal(r.code, XQ_RES_OK);
    assert_true(r.warnings & XQ_RWARN_SIDE_GLYPH);
    /* typed failures */
    r = rd(&b, "炮五平四");
    assert_int_equal(r.code, XQ_RES_NO_PIECE);
    assert_int_equal(r.mv, XQ_MOVE_NONE);
    r = rd(&b, "炮二进九");
    assert_int_equal(r.code, XQ_RES_BAD_DESTINATION);
    r = rd(&b, "马二进二");
    assert_int_equal(r.code, XQ_RES_BAD_DESTINATION);
    r = rd(&b, "车一进三");   /* onto its own pawn */
    assert_int_equal(r.code, XQ_RES_BAD_DESTINATION);
    assert_int_equal(r.why, XQ_ILL_OWN_CAPTURE);
    assert_int_equal(r.mv, mv_of("i0i3"));
    xq_resolution_describe(&r, desc, sizeof desc);
    assert_non_null(strstr(desc, "impossible"));
    r = rd(&b, "h7h0");   /* Black's cannon, Red to move */
    assert_int_equal(r.code, XQ_RES_NO_PIECE);
    xq_resolution_describe(&r, desc, sizeof desc);
    assert_non_null(strstr(desc, "side not to move"));
    r = rd(&b, "zz");
    assert_int_equal(r.code, XQ_RES_UNPARSEABLE);
    r = rd(&b, "前车进一");   /* no doubled rooks */
    assert_int_equal(r.code, XQ_RES_NO_PIECE);
    /* own king left in check: the cannon on e-file is pinned */
    setup_fen(&b, "5k3/9/9/9/4r4/9/9/4C4/9/3K5 w - - 0 1");
    r = rd(&b, "炮五平四");
    assert_int_equal(r.code, XQ_RES_OK);   /* king on d-file: not pinned */
    setup_fen(&b, "3k5/9/9/9/4r4/9/9/4C4/9/4K4 w - - 0 1");
    r = rd(&b, "炮五平四");
    assert_int_equal(r.code, XQ_RES_SELF_CHECK);
    assert_int_equal(r.why, XQ_ILL_SELF_CHECK);
    assert_int_equal(r.mv, mv_of("e2f2"));
    xq_resolution_describe(&r, desc, sizeof desc);
    assert_non_null(strstr(desc, "check"));
    /* kings would face */
    setup_fen(&b, "4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1");
    r = rd(&b, "帅六平五");
    assert_int_equal(r.code, XQ_RES_OK);
    setup_fen(&b, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    r = rd(&b, "帅六平五");
    assert_int_equal(r.code, XQ_RES_KINGS_FACE);
    /* ambiguity: two horses on a file, written without 前/后 */
    setup_fen(&b, "3k5/9/9/9/9/9/7N1/9/7N1/4K4 w - - 0 1");
    r = rd(&b, "马二进三");
    assert_int_equal(r.code, XQ_RES_AMBIGUOUS);
    assert_int_equal(r.nfit, 2);
    xq_resolution_describe(&r, desc, sizeof desc);
    assert_non_null(strstr(desc, "2 pieces"));
    r = rd(&b, "前马进三");
    assert_int_equal(r.code, XQ_RES_OK);
    assert_int_equal(r.mv, mv_of("h3g5"));
    r = rd(&b, "后马进三");
    assert_int_equal(r.mv, mv_of("h1g3"));
    r = rd(&b, "马二退一");   /* only one can: accepted, flagged */
    assert_int_equal(r.code, XQ_RES_OK);
    assert_int_equal(r.mv, mv_of("h3i1"));
    assert_true(r.warnings & XQ_RWARN_UNDISAMBIGUATED);
    /* advisors are never disambiguated: no warning */
    setup_fen(&b, "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    r = rd(&b, "仕六进五");
    assert_int_equal(r.code, XQ_RES_OK);
    assert_int_equal(r.mv, mv_of("d0e1"));
    assert_int_equal(r.warnings, 0);
    r = rd(&b, "仕六退五");
    assert_int_equal(r.mv, mv_of("d2e1"));
    /* arguments */
    assert_int_equal(xq_notation_read(NULL, "x", 0, &r), XQ_EINVAL);
    assert_int_equal(xq_notation_read(&b, NULL, 0, &r), XQ_EINVAL);
    memset(&t, 0, sizeof t);
    assert_int_equal(xq_notation_resolve(&b, &t, &r), XQ_OK);
    assert_int_equal(r.code, XQ_RES_UNPARSEABLE);
    /* hand-made tokens out of range read as unparseable, never crash */
    {
        static const xq_token odd[] = {
            { XQ_TOK_FILE, 0, XQ_PAWN, 0, XQ_POS_NTH, 0, '+', 1, 0, 0, 0, 0 },
            { XQ_TOK_FILE, 0, XQ_PAWN, 0, XQ_POS_NTH, 9, '+', 1, 0, 0, 0, 0 },
            { XQ_TOK_FILE, 0, 9, 2, 0, 0, '+', 1, 0, 0, 0, 0 },
            { XQ_TOK_FILE, 0, XQ_ROOK, 12, 0, 0, '+', 1, 0, 0, 0, 0 },
            { XQ_TOK_FILE, 0, XQ_ROOK, 2, 0, 0, 'x', 1, 0, 0, 0, 0 },
            { XQ_TOK_FILE, 0, XQ_ROOK, 2, 0, 0, '+', 0, 0, 0, 0, 0 },
            { XQ_TOK_FILE, 0, XQ_ROOK, 2, 7, 0, '+', 1, 0, 0, 0, 0 },
            { XQ_TOK_COORD, 0, 0, 0, 0, 0, 0, 0, 200, 3, 0, 0 },
        };
        size_t i;
        for (i = 0; i < sizeof odd / sizeof odd[0]; i++) {
            assert_int_equal(xq_notation_resolve(&b, &odd[i], &r), XQ_OK);
            assert_int_not_equal(r.code, XQ_RES_OK);
        }
    }
    assert_int_equal(xq_notation_resolve(&b, NULL, &r), XQ_EINVAL);
    assert_string_equal(xq_resolve_code_str(XQ_RES_AMBIGUOUS),
                        "ambiguous: several pieces fit");
    assert_string_equal(xq_resolve_code_str((xq_resolve_code)77), "unknown resolution");
}

static void wr(xq_board *b, const char *iccs, xq_notation_kind k, const char *want)
{
    char buf[XQ_NOTATION_MAX];
    xq_resolution r;
    if (xq_notation_write(b, mv_of(iccs), k, buf, sizeof buf) != XQ_OK)
        fail_msg("%s: not written", iccs);
    if (strcmp(buf, want))
        fail_msg("%s in %s: wrote '%s', want '%s'", iccs,
                 xq_notation_kind_name(k), buf, want);
    xq_notation_read(b, buf, k == XQ_NOTATION_UCI ? XQ_LEX_UCI : 0, &r);
    assert_int_equal(r.code, XQ_RES_OK);
    assert_int_equal(r.mv, mv_of(iccs));
    assert_int_equal(r.warnings, 0);
}

static void test_write_conventions(void **state)
{
    xq_board b;
    char buf[XQ_NOTATION_MAX];
    (void)state;
    xq_board_init_start(&b);
    wr(&b, "h2e2", XQ_NOTATION_CHINESE, "炮二平五");
    wr(&b, "h2e2", XQ_NOTATION_TRADITIONAL, "炮二平五");
    wr(&b, "h2e2", XQ_NOTATION_WXF, "C2=5");
    wr(&b, "h2e2", XQ_NOTATION_ICCS, "h2e2");
    wr(&b, "h2e2", XQ_NOTATION_UCI, "h3e3");
    wr(&b, "h0g2", XQ_NOTATION_TRADITIONAL, "馬二進三");
    wr(&b, "f0e1", XQ_NOTATION_CHINESE, "仕四进五");
    wr(&b, "g0e2", XQ_NOTATION_WXF, "E3+5");
    assert_true(xq_board_make_move(&b, mv_of("h2e2"), NULL));
    wr(&b, "h9g7", XQ_NOTATION_CHINESE, "马８进７");
    wr(&b, "h9g7", XQ_NOTATION_TRADITIONAL, "馬８進７");
    wr(&b, "h9g7", XQ_NOTATION_WXF, "H8+7");
    wr(&b, "e9e8", XQ_NOTATION_CHINESE, "将５进１");
    wr(&b, "b7b0", XQ_NOTATION_WXF, "C2+7");
    wr(&b, "h9g7", XQ_NOTATION_UCI, "h10g8");
    /* doubled rooks: 前/后, WXF R+ / R- */
    setup_fen(&b, "4k4/9/9/9/9/7R1/9/9/7R1/3K5 w - - 0 1");
    wr(&b, "h4h8", XQ_NOTATION_CHINESE, "前车进四");
    wr(&b, "h1h2", XQ_NOTATION_TRADITIONAL, "後車進一");
    wr(&b, "h4a4", XQ_NOTATION_WXF, "R+=9");
    wr(&b, "h1h0", XQ_NOTATION_WXF, "R--1");
    /* advisors never disambiguated */
    setup_fen(&b, "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    wr(&b, "d0e1", XQ_NOTATION_CHINESE, "仕六进五");
    wr(&b, "d2e1", XQ_NOTATION_CHINESE, "仕六退五");
    wr(&b, "d2e1", XQ_NOTATION_WXF, "A6-5");
    /* pawns: two on a file -> 前/后 */
    setup_fen(&b, "4k4/9/9/9/6p2/9/6p2/9/9/3K5 b - - 0 1");
    wr(&b, "g3g2", XQ_NOTATION_CHINESE, "前卒进１");
    wr(&b, "g5g4", XQ_NOTATION_CHINESE, "后卒进１");
    wr(&b, "g3f3", XQ_NOTATION_WXF, "P+=6");
    wr(&b, "g5g4", XQ_NOTATION_WXF, "P-+1");
    /* three on a file -> 前/中/后; WXF index + file */
    setup_fen(&b, "4k4/9/9/6p2/9/6p2/9/6p2/9/3K5 b - - 0 1");
    wr(&b, "g4f4", XQ_NOTATION_CHINESE, "中卒平６");
    wr(&b, "g2g1", XQ_NOTATION_WXF, "17+1");
    wr(&b, "g4f4", XQ_NOTATION_WXF, "27=6");
    wr(&b, "g6g5", XQ_NOTATION_TRADITIONAL, "後卒進１");
    /* four on a file -> 一二三四 */
    setup_fen(&b, "5k3/2P6/2P6/2P1P4/2P6/9/9/9/9/4K4 w - - 0 1");
    wr(&b, "c7d7", XQ_NOTATION_CHINESE, "二兵平六");
    wr(&b, "c8c9", XQ_NOTATION_CHINESE, "一兵进一");
    wr(&b, "c5d5", XQ_NOTATION_CHINESE, "四兵平六");
    wr(&b, "c5d5", XQ_NOTATION_WXF, "47=6");
    wr(&b, "e6e7", XQ_NOTATION_CHINESE, "兵五进一");
    /* two files with two pawns each -> piece-less 前六平五 */
    setup_fen(&b, "4k4/3P1P3/4P4/3P1P3/9/9/9/9/9/5K3 w - - 0 1");
    wr(&b, "d6e6", XQ_NOTATION_CHINESE, "后六平五");
    wr(&b, "f8e8", XQ_NOTATION_TRADITIONAL, "前四平五");
    wr(&b, "d8e8", XQ_NOTATION_WXF, "+6=5");
    wr(&b, "e7e8", XQ_NOTATION_WXF, "P5+1");
    /* errors */
    xq_board_init_start(&b);
    assert_int_equal(xq_notation_write(&b, mv_of("h2h8"), XQ_NOTATION_WXF, buf, sizeof buf),
                     XQ_EINVAL);
    assert_string_equal(buf, "");
    assert_int_equal(xq_notation_write(&b, mv_of("h2e2"), XQ_NOTATION_CHINESE, buf, 5),
                     XQ_ERANGE);
    assert_string_equal(buf, "");
    assert_int_equal(xq_notation_write(&b, mv_of("h2e2"), XQ_NOTATION_ICCS, buf, 4),
                     XQ_ERANGE);
    assert_int_equal(xq_notation_write(&b, mv_of("h2e2"), (xq_notation_kind)9, buf, sizeof buf),
                     XQ_EINVAL);
    assert_int_equal(xq_notation_write(NULL, mv_of("h2e2"), XQ_NOTATION_WXF, buf, sizeof buf),
                     XQ_EINVAL);
}

typedef struct {
    xq_board *b;
    xq_move   mv;
    int       n, stop_at;
    char      first[XQ_NOTATION_MAX];
    int       saw[8];
} var_ctx;

static int var_cb(void *ud, const xq_notation_variant *v)
{
    var_ctx *c = ud;
    xq_resolution r;
    static const char *const want[8] = {
        "马８进７", "馬８進７", "马8进7", "馬8進7", "H8+7", "h9g7", "H9-G7", "马８進７"
    };
    int i;
    if (c->n == 0)
        strcpy(c->first, v->text);
    xq_notation_read(c->b, v->text, 0, &r);
    if (r.code != XQ_RES_OK || r.mv != c->mv)
        fail_msg("variant '%s' does not read back", v->text);
    assert_true(v->prior > 0.0f && v->prior <= 1.0f);
    for (i = 0; i < 8; i++)
        if (!strcmp(v->text, want[i]))
            c->saw[i] = 1;
    c->n++;
    return c->stop_at && c->n >= c->stop_at;
}

static void test_variants(void **state)
{
    xq_board b;
    var_ctx c;
    xq_notation_variant arr[16];
    size_t n, i;
    int found_omitted = 0;
    (void)state;
    xq_board_init_start(&b);
    assert_true(xq_board_make_move(&b, mv_of("h2e2"), NULL));
    memset(&c, 0, sizeof c);
    c.b = &b;
    c.mv = mv_of("h9g7");
    assert_int_equal(xq_notation_variants(&b, c.mv, XQ_VARIANTS_ALL, var_cb, &c), XQ_OK);
    assert_string_equal(c.first, "马８进７");
    for (i = 0; i < 8; i++)
        if (!c.saw[i])
            fail_msg("variant %zu missing", i);
    assert_true(c.n >= 8);
    /* stop early */
    memset(&c, 0, sizeof c);
    c.b = &b;
    c.mv = mv_of("h9g7");
    c.stop_at = 2;
    assert_int_equal(xq_notation_variants(&b, c.mv, XQ_VARIANTS_CHINESE, var_cb, &c), XQ_OK);
    assert_int_equal(c.n, 2);
    /* array form, Red rook: 俥 appears, canonical first */
    xq_board_init_start(&b);
    assert_int_equal(xq_notation_variants_array(&b, mv_of("i0i1"), XQ_VARIANTS_CHINESE,
                                                arr, 16, &n), XQ_OK);
    assert_true(n == 16);
    assert_string_equal(arr[0].text, "车一进一");
    assert_string_equal(arr[1].text, "車一進一");
    for (i = 0; i < n; i++)
        if (strstr(arr[i].text, "俥"))
            found_omitted = 1;
    assert_true(found_omitted);
    /* doubled rooks: the file form (前 omitted) when the board makes it unique */
    setup_fen(&b, "4k4/9/9/9/9/7R1/9/9/7R1/3K5 w - - 0 1");
    {
        xq_notation_variant many[512];
        found_omitted = 0;
        assert_int_equal(xq_notation_variants_array(&b, mv_of("h4h9"), XQ_VARIANTS_ALL,
                                                    many, 512, &n), XQ_OK);
        for (i = 0; i < n; i++)
            if (!strcmp(many[i].text, "车二进五")) {
                found_omitted = 1;
                assert_true(many[i].flags & XQ_VAR_OMITTED);
            }
        assert_true(found_omitted);
        assert_string_equal(many[0].text, "前车进五");
    }
    assert_int_equal(xq_notation_variants_array(&b, mv_of("h4h0"), XQ_VARIANTS_ALL,
                                                arr, 16, &n), XQ_EINVAL);
    assert_int_equal(n, 0);
    assert_int_equal(xq_notation_variants(&b, mv_of("h4h9"), XQ_VARIANTS_ALL, NULL, NULL),
                     XQ_EINVAL);
}

static const char pgn_text[] =
    "[Game \"Chinese Chess\"]\n"
    "[Event \"Test \\\"cup\\\"\"]\n"
    "[Red \"胡荣华\"]\n"
    "[Black \"杨官璘\"]\n"
    "[Result \"1-0\"]\n"
    "\n"
    "{opening comment}\n"
    "1. 炮二平五 马８进７ {a comment\nover two lines} 2. 马二进三 (2. 兵七进一 卒7进1) 车９平８ $2\n"
    "3. 车一平二! 马２进３ ; to the end of line\n"
    "1-0\n"
    "\n"
    "[Game \"Chinese Chess\"]\n"
    "[Format \"WXF\"]\n"
    "[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n"
    "\n"
    "1. R5+6 K4+1 2. R5=4 *\n";

static void test_record_pgn(void **state)
{
    xq_record *rec = NULL;
    const xq_record_game *g;
    xq_board *b = malloc(sizeof *b);
    long bad;
    xq_resolution res;
    char err[256], *pgn = NULL;
    (void)state;
    assert_int_equal(xq_record_read_mem(pgn_text, strlen(pgn_text), &rec), XQ_OK);
    assert_int_equal(xq_record_count(rec), 2);
    assert_int_equal(xq_record_get_encoding(rec), XQ_ENC_UTF8);
    g = xq_record_game_at(rec, 0);
    assert_string_equal(g->event, "Test \"cup\"");
    assert_string_equal(g->red, "胡荣华");
    assert_string_equal(g->result, "1-0");
    assert_string_equal(g->movetext_result, "1-0");
    assert_null(g->fen);
    assert_int_equal(g->nmoves, 6);
    assert_string_equal(g->moves[2].text, "马二进三");
    assert_string_equal(g->moves[4].text, "车一平二");
    assert_int_equal(g->moves[4].line, 10);
    assert_int_equal(g->moves[4].ply, 5);
    assert_int_equal(g->line, 1);
    assert_string_equal(xq_record_game_tag(g, "black"), "杨官璘");
    assert_null(xq_record_game_tag(g, "Opening"));
    assert_int_equal(xq_record_game_replay(g, b, &bad, &res, err, sizeof err), XQ_OK);
    assert_int_equal(bad, -1);
    assert_int_equal(xq_board_ply_count(b), 6);
    assert_int_equal(xq_record_game_to_pgn(g, XQ_NOTATION_WXF, &pgn, err, sizeof err), XQ_OK);
    assert_non_null(strstr(pgn, "[Game \"Chinese Chess\"]\n[Event \"Test \\\"cup\\\"\"]\n"));
    assert_non_null(strstr(pgn, "[Format \"WXF\"]\n"));
    assert_non_null(strstr(pgn, "1. C2=5 H8+7\n2. H2+3 R9=8\n3. R1=2 H2+3\n1-0\n"));
    assert_null(strstr(pgn, "[FEN"));
    xq_free(pgn);
    g = xq_record_game_at(rec, 1);
    assert_string_equal(g->format, "WXF");
    assert_string_equal(g->result, "*");
    assert_int_equal(g->nmoves, 3);
    assert_int_equal(xq_record_game_to_pgn(g, XQ_NOTATION_CHINESE, &pgn, err, sizeof err), XQ_OK);
    if (!strstr(pgn, "[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]"))
        fail_msg("%s", pgn);
    assert_non_null(strstr(pgn, "1. 车五进六 将４进１\n2. 车五平四\n*\n"));
    assert_null(strstr(pgn, "[Format"));
    xq_free(pgn);
    assert_null(xq_record_game_at(rec, 2));
    assert_int_equal(xq_record_count(NULL), 0);
    xq_record_destroy(&rec);
    assert_null(rec);
    xq_record_destroy(&rec);
    xq_record_destroy(NULL);
    free(b);
}

static void test_record_lists_and_errors(void **state)
{
    static const char plain[] =
        "1.炮二平五 马8进7\n2.马二进三 车9平8\n\n1、相三进五 炮８平５ 红胜\n"
        "1. 炮二平五 马８进７马二\n";
    static const char black_first[] =
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]\n"
        "1... 马8进7 2. 马二进三 车9平8\n";
    static const char broken[] =
        "[Red \"x\"]\n\n1. 炮二平五 马8进7 2. 马二进三 马8进7\n";
    xq_record *rec = NULL;
    const xq_record_game *g;
    xq_board *b = malloc(sizeof *b);
    long bad;
    xq_resolution res;
    char err[256], *pgn = NULL;
    (void)state;
    assert_int_equal(xq_record_read_mem(plain, strlen(plain), &rec), XQ_OK);
    assert_int_equal(xq_record_count(rec), 3);
    assert_int_equal(xq_record_game_at(rec, 0)->nmoves, 4);
    assert_string_equal(xq_record_game_at(rec, 1)->result, "1-0");
    g = xq_record_game_at(rec, 2);
    assert_int_equal(g->nmoves, 2);   /* a token that does not lex stays whole */
    assert_int_equal(xq_record_game_replay(g, b, &bad, &res, err, sizeof err), XQ_OK);
    assert_int_equal(bad, 1);
    assert_int_equal(res.code, XQ_RES_UNPARSEABLE);
    assert_non_null(strstr(err, "ply 2"));
    xq_record_destroy(&rec);
    /* glued moves split when every four-glyph piece is a move */
    assert_int_equal(xq_record_read_mem("炮二平五马８进７马二进三车９平８", strlen("炮二平五马８进７马二进三车９平８"), &rec), XQ_OK);
    assert_int_equal(xq_record_game_at(rec, 0)->nmoves, 4);
    xq_record_destroy(&rec);
    /* Black to move first: numbering "1..." */
    assert_int_equal(xq_record_read_mem(black_first, strlen(black_first), &rec), XQ_OK);
    g = xq_record_game_at(rec, 0);
    assert_int_equal(xq_record_game_to_pgn(g, XQ_NOTATION_ICCS, &pgn, err, sizeof err), XQ_OK);
    assert_non_null(strstr(pgn, "1... h9g7\n2. h0g2 i9h9\n"));
    xq_free(pgn);
    xq_record_destroy(&rec);
    /* "1..." after a comment continues the game (tagged or not) */
    {
        static const char *const cont[] = {
            "[Event \"e\"]\n1. 炮二平五 {main line} 1... 马8进7 2. 马二进三 (2. 马八进七) 2... 车9平8 *\n",
            "1. 炮二平五 {good} 1... 马8进7\n2. 马二进三 车9平8\n",
            "1. 炮二平五 {good} 1\u2026 马8进7 2. 马二进三 车9平8\n",
        };
        size_t c;
        for (c = 0; c < sizeof cont / sizeof cont[0]; c++) {
            assert_int_equal(xq_record_read_mem(cont[c], strlen(cont[c]), &rec), XQ_OK);
            assert_int_equal(xq_record_count(rec), 1);
            assert_int_equal(xq_record_game_at(rec, 0)->nmoves, 4);
            xq_record_destroy(&rec);
        }
    }
    /* an invalid record names the ply */
    assert_int_equal(xq_record_read_mem(broken, strlen(broken), &rec), XQ_OK);
    g = xq_record_game_at(rec, 0);
    assert_int_equal(xq_record_game_to_pgn(g, XQ_NOTATION_ICCS, &pgn, err, sizeof err), XQ_EINVAL);
    assert_null(pgn);
    assert_non_null(strstr(err, "ply 4 (move 2, black, line 3) '马8进7'"));
    assert_int_equal(xq_record_game_replay(g, b, &bad, &res, err, sizeof err), XQ_OK);
    assert_int_equal(bad, 3);
    assert_int_equal(res.code, XQ_RES_NO_PIECE);
    assert_int_equal(xq_record_game_replay(NULL, b, &bad, NULL, NULL, 0), XQ_EINVAL);
    xq_record_destroy(&rec);
    /* empty input, NULL arguments, missing file */
    assert_int_equal(xq_record_read_mem("", 0, &rec), XQ_OK);
    assert_int_equal(xq_record_count(rec), 0);
    xq_record_destroy(&rec);
    assert_int_equal(xq_record_read_mem(NULL, 3, &rec), XQ_EINVAL);
    assert_null(rec);
    assert_int_equal(xq_record_read_file("/nonexistent/x.pgn", &rec), XQ_EIO);
    assert_int_equal(xq_record_read_file(NULL, &rec), XQ_EINVAL);
    free(b);
}

static void test_record_encodings(void **state)
{
    /* 1. 炮二平五 馬８進７ in Big5, GB18030; UTF-16LE with BOM; UTF-8 BOM;
     * UTF-8 with a broken byte inside the second move. */
    static const char big5[] = "1. \xac\xb6\xa4\x47\xa5\xad\xa4\xad \xb0\xa8\xa2\xb7\xb6\x69\xa2\xb6\n";
    static const char gb[] = "1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5 \xc2\xed\xa3\xb8\xbd\xf8\xa3\xb7\n";
    static const char bom[] = "\xef\xbb\xbf" "1. 炮二平五 马８进７\n";
    static const char broken[] = "1. 炮二平五 马8\xe8\xbf" "7 2. 马二进三 车9平8 3. 车一平二 马2进3\n";
    xq_record *rec = NULL;
    const xq_record_game *g;
    xq_board *b = malloc(sizeof *b);
    long bad;
    xq_resolution res;
    unsigned char u16[64];
    size_t n = 0, i;
    const char *u16src = "1. h2e2 h9g7\n";
    (void)state;
    assert_int_equal(xq_record_read_mem(big5, sizeof big5 - 1, &rec), XQ_OK);
    assert_int_equal(xq_record_get_encoding(rec), XQ_ENC_BIG5);
    g = xq_record_game_at(rec, 0);
    assert_string_equal(g->moves[1].text, "馬８進７");
    assert_int_equal(xq_record_game_replay(g, b, &bad, &res, NULL, 0), XQ_OK);
    assert_int_equal(bad, -1);
    xq_record_destroy(&rec);
    assert_int_equal(xq_record_read_mem(gb, sizeof gb - 1, &rec), XQ_OK);
    assert_int_equal(xq_record_get_encoding(rec), XQ_ENC_GB18030);
    assert_string_equal(xq_record_game_at(rec, 0)->moves[0].text, "炮二平五");
    assert_string_equal(xq_record_game_at(rec, 0)->moves[1].text, "马８进７");
    xq_record_destroy(&rec);
    assert_int_equal(xq_record_read_mem(bom, sizeof bom - 1, &rec), XQ_OK);
    assert_int_equal(xq_record_get_encoding(rec), XQ_ENC_UTF8_BOM);
    assert_int_equal(xq_record_game_at(rec, 0)->nmoves, 2);
    xq_record_destroy(&rec);
    u16[n++] = 0xFF;
    u16[n++] = 0xFE;
    for (i = 0; u16src[i]; i++) {
        u16[n++] = (unsigned char)u16src[i];
        u16[n++] = 0;
    }
    assert_int_equal(xq_record_read_mem((const char *)u16, n, &rec), XQ_OK);
    assert_int_equal(xq_record_get_encoding(rec), XQ_ENC_UTF16LE);
    assert_string_equal(xq_record_game_at(rec, 0)->moves[1].text, "h9g7");
    xq_record_destroy(&rec);
    assert_int_equal(xq_record_read_mem(broken, sizeof broken - 1, &rec), XQ_OK);
    assert_int_equal(xq_record_get_encoding(rec), XQ_ENC_UTF8_INVALID);
    g = xq_record_game_at(rec, 0);
    assert_int_equal(g->nmoves, 6);
    assert_non_null(strstr(g->moves[1].text, "\xEF\xBF\xBD"));
    assert_int_equal(xq_record_game_replay(g, b, &bad, &res, NULL, 0), XQ_OK);
    assert_int_equal(bad, 1);
    assert_int_equal(res.code, XQ_RES_UNPARSEABLE);
    xq_record_destroy(&rec);
    assert_string_equal(xq_record_encoding_name(XQ_ENC_BIG5), "Big5");
    assert_string_equal(xq_record_encoding_name((xq_record_encoding)42), "unknown");
    free(b);
}

static void test_lex_flags(void **state)
{
    static const char uci[] = "1. h3e3 h10g8 2. h1g3 i10h10\n";
    static const char uci_tag[] = "[Format \"UCI\"]\n1. h3e3 b8e8\n";
    static const char iccs[] = "1. h2e2 h9g7\n";
    xq_record *rec = NULL;
    xq_board *b = malloc(sizeof *b);
    long bad;
    (void)state;
    assert_int_equal(xq_record_read_mem(uci, strlen(uci), &rec), XQ_OK);
    assert_int_equal(xq_record_game_lex_flags(xq_record_game_at(rec, 0)), XQ_LEX_UCI);
    assert_int_equal(xq_record_game_replay(xq_record_game_at(rec, 0), b, &bad, NULL, NULL, 0), XQ_OK);
    assert_int_equal(bad, -1);
    assert_int_equal(xq_board_move_at(b, 0), mv_of("h2e2"));
    xq_record_destroy(&rec);
    assert_int_equal(xq_record_read_mem(uci_tag, strlen(uci_tag), &rec), XQ_OK);
    assert_int_equal(xq_record_game_lex_flags(xq_record_game_at(rec, 0)), XQ_LEX_UCI);
    assert_int_equal(xq_record_game_replay(xq_record_game_at(rec, 0), b, &bad, NULL, NULL, 0), XQ_OK);
    assert_int_equal(bad, -1);
    assert_int_equal(xq_board_move_at(b, 1), mv_of("b7e7"));
    xq_record_destroy(&rec);
    assert_int_equal(xq_record_read_mem(iccs, strlen(iccs), &rec), XQ_OK);
    assert_int_equal(xq_record_game_lex_flags(xq_record_game_at(rec, 0)), 0);
    xq_record_destroy(&rec);
    assert_int_equal(xq_record_game_lex_flags(NULL), 0);
    free(b);
}


/* Pawns of the side to move per file. */
static void xq_nt_file_counts_test(const xq_board *b, int cnt[9])
{
    int f, r, sd = xq_board_side(b);
    for (f = 0; f < 9; f++) {
        cnt[f] = 0;
        for (r = 0; r < 10; r++)
            if (xq_board_piece_at(b, XQ_SQ(f, r)) == XQ_PIECE(sd, XQ_PAWN))
                cnt[f]++;
    }
}

/* Random legal games (seeded, no corpus): every legal move of every
 * position written in the four notations reads back to itself, and the
 * strings of a position's legal moves are distinct. Random play stacks
 * pawns on files (two and three per file, two files at once) far more
 * often than master games do. */
static void test_roundtrip_random(void **state)
{
    static const xq_notation_kind kinds[4] = {
        XQ_NOTATION_CHINESE, XQ_NOTATION_TRADITIONAL, XQ_NOTATION_WXF,
        XQ_NOTATION_ICCS
    };
    uint64_t rng = 88172645463325252ull;
    xq_board *b = malloc(sizeof *b);
    int game, ply, k, i, j, stacked = 0, multi = 0;
    size_t checks = 0;
    (void)state;
    for (game = 0; game < 60; game++) {
        xq_board_init_start(b);
        for (ply = 0; ply < 300; ply++) {
            xq_move mv[XQ_MAX_MOVES];
            char text[XQ_MAX_MOVES][XQ_NOTATION_MAX];
            int n = xq_board_legal_moves(b, mv), cnt[9], f, nm = 0;
            if (n == 0)
                break;
            xq_nt_file_counts_test(b, cnt);
            for (f = 0; f < 9; f++)
                if (cnt[f] >= 2)
                    nm++;
            stacked += nm >= 1;
            multi += nm >= 2;
            for (k = 0; k < 4; k++) {
                for (i = 0; i < n; i++) {
                    xq_resolution r;
                    assert_int_equal(xq_notation_write(b, mv[i], kinds[k], text[i],
                                                       sizeof text[i]), XQ_OK);
                    xq_notation_read(b, text[i], 0, &r);
                    if (r.code != XQ_RES_OK || r.mv != mv[i] || r.warnings) {
                        char fen[XQ_FEN_MAX];
                        xq_board_to_fen(b, fen, sizeof fen);
                        fail_msg("%s: '%s' reads back as code %d warn %u", fen,
                                 text[i], r.code, r.warnings);
                    }
                    checks++;
                }
                for (i = 0; i < n; i++)
                    for (j = i + 1; j < n; j++)
                        if (!strcmp(text[i], text[j]))
                            fail_msg("two moves written '%s'", text[i]);
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if (!xq_board_make_move(b, mv[rng % (uint64_t)n], NULL))
                break;
        }
    }
    print_message("random games: %zu write+read checks; %d positions with a "
                  "doubled pawn file, %d with two or more\n", checks, stacked, multi);
    assert_true(stacked > 100);
    free(b);
}

static uint64_t xs(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A random position with pawns stacked on one or two files (up to five on
 * a file), other pieces scattered; kings in their palaces. */
static void random_fen(uint64_t *rng, char *fen)
{
    char sq[10][9];
    int sd, i, f, r, k, hot[2], len = 0;
    static const char pc[2][5] = { { 'R', 'N', 'C', 'A', 'B' }, { 'r', 'n', 'c', 'a', 'b' } };
    static const int adv[5][2] = { { 3, 0 }, { 5, 0 }, { 4, 1 }, { 3, 2 }, { 5, 2 } };
    static const int ele[7][2] = { { 2, 0 }, { 6, 0 }, { 0, 2 }, { 4, 2 }, { 8, 2 }, { 2, 4 }, { 6, 4 } };
    memset(sq, 0, sizeof sq);
    sq[xs(rng) % 3][3 + xs(rng) % 3] = 'K';
    sq[9 - xs(rng) % 3][3 + xs(rng) % 3] = 'k';
    for (sd = 0; sd < 2; sd++) {
        int npawn = (int)(xs(rng) % 6);
        hot[0] = (int)(xs(rng) % 9);
        hot[1] = (int)(xs(rng) % 9);
        for (i = 0; i < npawn; i++) {
            for (k = 0; k < 20; k++) {
                f = xs(rng) % 10 < 8 ? hot[xs(rng) % 2] : (int)(xs(rng) % 9);
                r = 5 + (int)(xs(rng) % 5);   /* across the river */
                if (sd)
                    r = 9 - r;
                if (!sq[r][f]) {
                    sq[r][f] = sd ? 'p' : 'P';
                    break;
                }
            }
        }
        for (i = 0; i < 3; i++) {           /* rooks, horses, cannons */
            int n = (int)(xs(rng) % 3);
            while (n-- > 0) {
                f = (int)(xs(rng) % 9);
                r = (int)(xs(rng) % 10);
                if (!sq[r][f])
                    sq[r][f] = pc[sd][i];
            }
        }
        for (i = 0; i < 2; i++) {           /* advisors */
            k = (int)(xs(rng) % 5);
            r = sd ? 9 - adv[k][1] : adv[k][1];
            if (!sq[r][adv[k][0]])
                sq[r][adv[k][0]] = pc[sd][3];
        }
        for (i = 0; i < 2; i++) {           /* elephants */
            k = (int)(xs(rng) % 7);
            r = sd ? 9 - ele[k][1] : ele[k][1];
            if (!sq[r][ele[k][0]])
                sq[r][ele[k][0]] = pc[sd][4];
        }
    }
    for (r = 9; r >= 0; r--) {
        int empty = 0;
        for (f = 0; f < 9; f++) {
            if (!sq[r][f]) {
                empty++;
                continue;
            }
            if (empty)
                fen[len++] = (char)('0' + empty);
            empty = 0;
            fen[len++] = sq[r][f];
        }
        if (empty)
            fen[len++] = (char)('0' + empty);
        if (r)
            fen[len++] = '/';
    }
    sprintf(fen + len, " %c - - 0 1", xs(rng) % 2 ? 'b' : 'w');
}

/* Random stacked-pawn positions: the round trip of every legal move in the
 * four notations, distinct strings per position. */
static void test_roundtrip_positions(void **state)
{
    static const xq_notation_kind kinds[4] = {
        XQ_NOTATION_CHINESE, XQ_NOTATION_TRADITIONAL, XQ_NOTATION_WXF,
        XQ_NOTATION_ICCS
    };
    uint64_t rng = 0x2545F4914F6CDD1Dull;
    xq_board b;
    int pos = 0, tries = 0, k, i, j, multi = 0, three = 0;
    size_t checks = 0, nvar = 0;
    char fen[128];
    (void)state;
    while (pos < 3000 && tries < 200000) {
        xq_move mv[XQ_MAX_MOVES];
        char text[XQ_MAX_MOVES][XQ_NOTATION_MAX];
        int n, cnt[9], f, nm = 0, mx = 0;
        tries++;
        random_fen(&rng, fen);
        if (xq_board_from_fen(&b, fen, NULL, 0) != XQ_OK)
            continue;
        pos++;
        xq_nt_file_counts_test(&b, cnt);
        for (f = 0; f < 9; f++) {
            nm += cnt[f] >= 2;
            mx = cnt[f] > mx ? cnt[f] : mx;
        }
        multi += nm >= 2;
        three += mx >= 3;
        n = xq_board_legal_moves(&b, mv);
        for (k = 0; k < 4; k++) {
            for (i = 0; i < n; i++) {
                xq_resolution r;
                assert_int_equal(xq_notation_write(&b, mv[i], kinds[k], text[i],
                                                   sizeof text[i]), XQ_OK);
                xq_notation_read(&b, text[i], 0, &r);
                if (r.code != XQ_RES_OK || r.mv != mv[i] || r.warnings)
                    fail_msg("%s: '%s' reads back as code %d warn %u", fen,
                             text[i], r.code, r.warnings);
                checks++;
            }
            for (i = 0; i < n; i++)
                for (j = i + 1; j < n; j++)
                    if (!strcmp(text[i], text[j]))
                        fail_msg("%s: two moves written '%s'", fen, text[i]);
        }
        if (pos % 10 == 0) {
            /* every spelling variant of every move reads back to it */
            for (i = 0; i < n; i++) {
                var_ctx c;
                memset(&c, 0, sizeof c);
                c.b = &b;
                c.mv = mv[i];
                assert_int_equal(xq_notation_variants(&b, mv[i], XQ_VARIANTS_ALL, var_cb, &c),
                                 XQ_OK);
                assert_true(c.n >= 4);
                nvar += (size_t)c.n;
            }
        }
    }
    print_message("variants checked: %zu\n", nvar);
    print_message("random positions: %d (of %d drawn), %zu write+read checks; %d with "
                  "two stacked pawn files, %d with three or more pawns on a file\n",
                  pos, tries, checks, multi, three);
    assert_int_equal(pos, 3000);
    assert_true(multi > 100);
    assert_true(three > 100);
}

/* Out of memory anywhere: an error status, no leak, no crash. */
/* Everything xq_notation_variants produces for one move, in order: the
 * array form must give the same prefix. */
typedef struct {
    xq_notation_variant v[512];
    size_t n;
} var_all;

static int var_collect(void *ud, const xq_notation_variant *v)
{
    var_all *a = ud;
    if (a->n < 512)
        a->v[a->n++] = *v;
    return 0;
}

static uint64_t var_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    while (n--)
        h = (h ^ *c++) * 0x100000001B3ull;
    return h;
}

/* The spelling variants of every legal move of stacked-pawn positions:
 * texts distinct; Chinese first (the canonical simplified and traditional
 * texts, then the rest by falling prior, ties by text), WXF, then ICCS;
 * the array form is the callback's sequence cut at max. The digest pins
 * every text, kind, prior and flag (taken from the straightforward
 * strcmp/qsort enumerator this one replaced): a change to the spellings
 * must show here and be deliberate. */
static void test_variants_order(void **state)
{
    uint64_t rng = 0x9E3779B97F4A7C15ull, sum = 0xCBF29CE484222325ull;
    var_all *all = malloc(sizeof *all);
    xq_notation_variant arr[64];
    xq_board b;
    int pos = 0, tries = 0;
    size_t total = 0;
    char fen[128];
    (void)state;
    assert_non_null(all);
    while (pos < 300 && tries < 20000) {
        xq_move mv[XQ_MAX_MOVES];
        int n, i;
        tries++;
        random_fen(&rng, fen);
        if (xq_board_from_fen(&b, fen, NULL, 0) != XQ_OK)
            continue;
        pos++;
        n = xq_board_legal_moves(&b, mv);
        for (i = 0; i < n; i++) {
            size_t j, k, na, first = 0, last = 0;
            all->n = 0;
            assert_int_equal(xq_notation_variants(&b, mv[i], XQ_VARIANTS_ALL, var_collect,
                                                  all), XQ_OK);
            assert_true(all->n >= 4 && all->n < 512);
            for (j = 0; j < all->n; j++) {
                const xq_notation_variant *v = &all->v[j];
                int chinese = v->kind == XQ_NOTATION_CHINESE ||
                              v->kind == XQ_NOTATION_TRADITIONAL;
                if (chinese)
                    last = j + 1;
                else
                    assert_true(j >= last);   /* no Chinese after WXF/ICCS */
                if (j > 0 && v->kind == XQ_NOTATION_WXF)
                    assert_true(all->v[j - 1].kind != XQ_NOTATION_ICCS);
                for (k = 0; k < j; k++)
                    if (!strcmp(all->v[k].text, v->text))
                        fail_msg("%s: '%s' twice", fen, v->text);
                sum = var_fnv(sum, v->text, strlen(v->text) + 1);
                sum = var_fnv(sum, &v->kind, sizeof v->kind);
                sum = var_fnv(sum, &v->prior, sizeof v->prior);
                sum = var_fnv(sum, &v->flags, sizeof v->flags);
            }
            /* canonical texts first (one when simplified = traditional) */
            assert_true(all->v[0].prior == 1.0f && all->v[0].flags == 0);
            first = all->v[1].kind == XQ_NOTATION_TRADITIONAL &&
                    all->v[1].flags == 0 && all->v[1].prior == 1.0f ? 2 : 1;
            for (j = first + 1; j < last; j++) {
                const xq_notation_variant *x = &all->v[j - 1], *y = &all->v[j];
                if (x->prior < y->prior ||
                    (x->prior == y->prior && strcmp(x->text, y->text) > 0))
                    fail_msg("%s: '%s' before '%s'", fen, x->text, y->text);
            }
            assert_int_equal(xq_notation_variants_array(&b, mv[i], XQ_VARIANTS_ALL, arr,
                                                        64, &na), XQ_OK);
            assert_int_equal(na, all->n < 64 ? all->n : 64);
            for (j = 0; j < na; j++) {
                assert_string_equal(arr[j].text, all->v[j].text);
                assert_int_equal(arr[j].kind, all->v[j].kind);
                assert_true(arr[j].prior == all->v[j].prior);
                assert_int_equal(arr[j].flags, all->v[j].flags);
            }
            total += all->n;
        }
    }
    free(all);
    print_message("variants: %d positions, %zu spellings, digest %016llx\n", pos, total,
                  (unsigned long long)sum);
    assert_int_equal(pos, 300);
    assert_true(sum == 0xcffb2a887800402aull);
}

static void test_oom(void **state)
{
    long k;
    int failures = 0, successes = 0;
    (void)state;
    for (k = 0; k < 400; k++) {
        xq_record *rec = NULL;
        char *pgn = NULL, err[128];
        xq_status st;
        xq_board b;
        xq_alloc_fail_after(k);
        st = xq_record_read_mem(pgn_text, strlen(pgn_text), &rec);
        if (st == XQ_OK) {
            st = xq_record_game_to_pgn(xq_record_game_at(rec, 0), XQ_NOTATION_CHINESE,
                                       &pgn, err, sizeof err);
            if (st == XQ_OK) {
                xq_notation_variant v[4];
                size_t n;
                xq_board_init_start(&b);
                st = xq_notation_variants_array(&b, mv_of("h2e2"), XQ_VARIANTS_ALL, v, 4, &n);
            }
        }
        xq_alloc_fail_after(-1);
        if (st == XQ_OK)
            successes++;
        else {
            assert_int_equal(st, XQ_ENOMEM);
            failures++;
        }
        xq_free(pgn);
        xq_record_destroy(&rec);
    }
    assert_true(failures > 10);
    assert_true(successes > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_numeral),
        cmocka_unit_test(test_lex_chinese),
        cmocka_unit_test(test_lex_wxf_coords),
        cmocka_unit_test(test_lex_garbage),
        cmocka_unit_test(test_resolve_reasons),
        cmocka_unit_test(test_write_conventions),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_variants_order),
        cmocka_unit_test(test_record_pgn),
        cmocka_unit_test(test_record_lists_and_errors),
        cmocka_unit_test(test_record_encodings),
        cmocka_unit_test(test_lex_flags),
        cmocka_unit_test(test_roundtrip_random),
        cmocka_unit_test(test_roundtrip_positions),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

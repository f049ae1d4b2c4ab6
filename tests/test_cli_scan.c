/* test_cli_scan.c - xq_scan_file() and the scanner (include/xqscan/xqscan.h,
 * cli/scan_file.c): one image through ocr -> verify -> report. Needs
 * Tesseract (label ocr). Inputs: xqscan's own blank form (xq_form_write_png),
 * the committed samples/ when present, and bad files. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_shard.h"
#include "jsonl_field.h"

#include "../cli/scan_file.c"
#include "../cli/batch_json.c"
#include "xqscan/xq_ocr.h"
#include <leptonica/allheaders.h>

typedef struct {
    int calls;
    int pages[16];
    char exts[16][8];
    char *json[16];
    int fail_at;          /* make the n-th call fail (0: never) */
} sink;

static xq_status collect(void *ud, int page, const char *ext, const char *data, size_t len)
{
    sink *s = ud;
    int i = s->calls++;
    if (s->fail_at && s->calls == s->fail_at)
        return XQ_EIO;
    if (i < 16) {
        s->pages[i] = page;
        snprintf(s->exts[i], sizeof s->exts[i], "%s", ext);
        if (!strcmp(ext, ".json"))
            s->json[i] = strndup(data, len);
    }
    return XQ_OK;
}

static void sink_free(sink *s)
{
    int i;
    for (i = 0; i < 16; i++)
        free(s->json[i]);
    memset(s, 0, sizeof *s);
}

static xq_scanner *scanner(void)
{
    xq_scanner *sc = NULL;
    xq_scan_options o;
    char err[256];
    xq_scan_options_init(&o);
    assert_int_equal(xq_scanner_create(&sc, &o, err, sizeof err), XQ_OK);
    assert_non_null(sc);
    return sc;
}

static void test_blank_form(void **state)
{
    char path[] = "/tmp/xq_scan_form_XXXXXX.png", err[256];
    xq_scanner *sc = scanner();
    xq_scan_input in = { "forms/blank.png", "00ff", "{\"threshold\":16}", "../index.html", NULL };
    sink s;
    xq_json *j = NULL;
    int fd, flags = -1;
    size_t nsheets = 0;
    (void)state;
    memset(&s, 0, sizeof s);
    fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(xq_form_write_png(path), XQ_OK);
    assert_int_equal(xq_scan_file(sc, path, &in, collect, &s, &flags, &nsheets, err, sizeof err),
                     XQ_OK);
    assert_int_equal(nsheets, 1);
    assert_int_equal(s.calls, 3);
    assert_string_equal(s.exts[0], ".pgn");
    assert_string_equal(s.exts[1], ".html");
    assert_string_equal(s.exts[2], ".json");  /* the JSON last */
    assert_int_equal(s.pages[2], 1);
    assert_int_equal(xq_json_parse(s.json[2], strlen(s.json[2]), &j), XQ_OK);
    assert_string_equal(xq_json_str(xq_json_get(j, "schema")), "xqscan/1");
    assert_string_equal(xq_json_str(xq_json_get(j, "status")), "ok");
    assert_string_equal(xq_json_str(xq_json_get(j, "source")), "forms/blank.png");
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "xqscan"), "input_sha256")), "00ff");
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "xqscan"), "version")), XQ_VERSION);
    /* an empty form is not a clean sheet: nothing was read */
    assert_int_equal(xq_json_len(xq_json_get(j, "plies")), 0);
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "findings")->child, "code")),
                        "no_moves_read");
    assert_true(flags & XQ_SCAN_NEEDS_ARBITER);
    xq_json_free(&j);
    /* an emit failure stops the scan with its status */
    sink_free(&s);
    s.fail_at = 2;
    assert_int_equal(xq_scan_file(sc, path, &in, collect, &s, &flags, &nsheets, err, sizeof err),
                     XQ_EIO);
    assert_int_equal(nsheets, 0);
    sink_free(&s);
    unlink(path);
    xq_scanner_destroy(&sc);
    assert_null(sc);
    xq_scanner_destroy(&sc);
}

static void test_bad_inputs(void **state)
{
    char path[] = "/tmp/xq_scan_bad_XXXXXX.png", err[256];
    xq_scanner *sc = scanner();
    sink s;
    int fd, flags;
    (void)state;
    memset(&s, 0, sizeof s);
    assert_int_equal(xq_scan_file(sc, "/nonexistent/x.png", NULL, collect, &s, &flags, NULL,
                                  err, sizeof err), XQ_EIO);
    assert_true(err[0] != '\0');
    fd = mkstemps(path, 4);
    assert_int_equal(write(fd, "just text\n", 10), 10);
    close(fd);
    assert_int_equal(xq_scan_file(sc, path, NULL, collect, &s, &flags, NULL, err, sizeof err),
                     XQ_EIMAGE);
    assert_true(err[0] != '\0');
    assert_int_equal(s.calls, 0);
    assert_int_equal(xq_scan_file(NULL, path, NULL, collect, &s, &flags, NULL, err, sizeof err),
                     XQ_EINVAL);
    unlink(path);
    xq_scanner_destroy(&sc);
}

static void test_options(void **state)
{
    xq_scanner *sc = NULL;
    xq_scan_options o;
    char err[256];
    (void)state;
    xq_scan_options_init(&o);
    assert_int_equal(o.threshold, 16);
    o.notation = "klingon";
    assert_int_equal(xq_scanner_create(&sc, &o, err, sizeof err), XQ_EINVAL);
    assert_null(sc);
    assert_non_null(strstr(err, "klingon"));
    xq_scan_options_init(&o);
    o.corrections = "/nonexistent/corrections.json";
    assert_int_equal(xq_scanner_create(&sc, &o, err, sizeof err), XQ_EIO);
    assert_null(sc);
    assert_string_equal(xq_version(), XQ_VERSION);
    assert_string_equal(norm_result("红胜"), "1-0");
    assert_string_equal(norm_result(" 0-1 "), "0-1");
    assert_string_equal(norm_result("和棋"), "1/2-1/2");
    assert_null(norm_result("???"));
    assert_null(norm_result(NULL));
}

/* The committed samples: each is read as at least one sheet with plies. */
static void test_samples(void **state)
{
    static const char *const names[] = { "kai-form.jpg", "errors.jpg" };
    xq_scanner *sc = scanner();
    size_t i;
    (void)state;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024], err[256];
        sink s;
        xq_json *j = NULL;
        int flags;
        size_t n;
        snprintf(path, sizeof path, "%s/samples/%s", XQ_SOURCE_DIR, names[i]);
        if (access(path, R_OK) != 0)
            continue; /* samples/ not there yet */
        memset(&s, 0, sizeof s);
        assert_int_equal(xq_scan_file(sc, path, NULL, collect, &s, &flags, &n, err, sizeof err),
                         XQ_OK);
        assert_int_equal(n, 1);
        assert_int_equal(xq_json_parse(s.json[2], strlen(s.json[2]), &j), XQ_OK);
        assert_true(xq_json_len(xq_json_get(j, "plies")) >= 10);
        xq_json_free(&j);
        sink_free(&s);
    }
    xq_scanner_destroy(&sc);
}

/* The ICCS moves of line `line` (1-based) of the corpus's JSONL, or NULL
 * (no corpus). */
static char *corpus_iccs(int line)
{
    FILE *f = fopen(XQ_CORPUS_DIR "/ccpd-dev.iccs.jsonl", "r");
    char *buf = NULL, *out = NULL;
    size_t cap = 0;
    int i;
    if (!f)
        return NULL;
    for (i = 1; getline(&buf, &cap, f) > 0; i++)
        if (i == line) {
            out = malloc(strlen(buf) + 1);
            if (out && !json_str(buf, "iccs", out, strlen(buf) + 1)) {
                free(out);
                out = NULL;
            }
            break;
        }
    free(buf);
    fclose(f);
    return out;
}

/* A scanned sheet against its corpus game: plies read, wrong, wrong and
 * not under review, under review; ok[i]: whether ply i + 1 is right. */
typedef struct {
    int n, wrong, silent, review;
    bool ok[256];
} sheet_score;

/* Scan tests/data/verify/FILE (or FILE itself when it is an absolute
 * path) and compare it ply by ply with the corpus game on line LINE. False
 * when the corpus is not there. */
static bool score_sheet(const char *file, int line, sheet_score *sc_out)
{
    xq_scanner *sc = scanner();
    char path[1024], err[256], *truth = corpus_iccs(line), *mv;
    const xq_json *p;
    xq_json *j = NULL;
    sink s;
    int flags;
    size_t npages;
    memset(sc_out, 0, sizeof *sc_out);
    if (!truth) {
        xq_scanner_destroy(&sc);
        return false;
    }
    if (file[0] == '/')
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/verify/%s", XQ_TEST_DATA, file);
    memset(&s, 0, sizeof s);
    assert_int_equal(xq_scan_file(sc, path, NULL, collect, &s, &flags, &npages, err,
                                  sizeof err), XQ_OK);
    assert_int_equal(xq_json_parse(s.json[2], strlen(s.json[2]), &j), XQ_OK);
    mv = strtok(truth, " ");
    for (p = xq_json_get(j, "plies")->child; p && mv; p = p->next, mv = strtok(NULL, " ")) {
        const char *got = xq_json_str(xq_json_get(xq_json_get(p, "move"), "iccs"));
        bool right = got && !strcmp(got, mv), review = xq_json_get(p, "review")->b;
        if (sc_out->n < (int)(sizeof sc_out->ok / sizeof *sc_out->ok))
            sc_out->ok[sc_out->n] = right;
        sc_out->n++;
        sc_out->wrong += !right;
        sc_out->silent += !right && !review;
        sc_out->review += review;
    }
    xq_json_free(&j);
    sink_free(&s);
    free(truth);
    xq_scanner_destroy(&sc);
    return true;
}

/* A held-out scanned kai sheet (tests/data/verify/whole_skip_kai.png:
 * bench_e2e seed 9700, corpus line 1742, blank cells at plies 2, 33, 49
 * and 71, an illegal record at 6, Black's ply 18 left out with the whole
 * record moving back a cell). Red's 19 in Black's cell read as Black's
 * 车2进6 and Red's 19 taken as skipped: Black's rook, one rank off from
 * there, had its moves at plies 26 and 28 reported sure and wrong. No
 * ply may be sure and wrong. */
static void test_whole_skip_sheet(void **state)
{
    sheet_score r;
    (void)state;
    if (!score_sheet("whole_skip_kai.png", 1742, &r))
        skip();
    assert_int_equal(r.n, 73);
    assert_true(r.wrong > 0);      /* the sheet is hard: not read all right */
    assert_int_equal(r.silent, 0);
}

/* A held-out clean printed sheet (tests/data/verify/repair_printed.png:
 * bench_e2e seed 9700, corpus line 2227): a blank cell at Black's ply 6,
 * Black's ply 8 left out with the whole record moving back a cell, both
 * pawn moves (卒3进1 twice) that no record tells until 卒3平4 at ply 20.
 * Some 1,600 pairs of moves read the records alike until then; the beam
 * lost the true pair and read the rest of the record a move behind (46
 * of 76 moves wrong, all under review). The decoder now plays the
 * history without the skip it made up and decodes again keeping it; the
 * history it then decodes has 炮8进5 at ply 30 corrected to 炮3进5 and a
 * skip made up at 37 (38 wrong), and the skip is taken out only when
 * the records are played as they read. Read right, 58 plies were under
 * review: the blank's alternatives at 6 could not play the skip's
 * decoded move at 8, and the squares where they differed were put in
 * doubt for the rest of the game; each is now followed with every move
 * at 8 (38 under review). */
static void test_repair_sheet(void **state)
{
    sheet_score r;
    (void)state;
    if (!score_sheet("repair_printed.png", 2227, &r))
        skip();
    assert_int_equal(r.n, 76);
    assert_true(r.ok[5] && r.ok[7] && r.ok[19]); /* the untold pawn moves, 卒3平4 */
    assert_true(r.wrong <= 2);
    assert_int_equal(r.silent, 0);
    assert_true(r.review <= 36);
}

/* A held-out clean handwriting sheet (tests/data/verify/skip_places_hand.png:
 * bench_e2e seed 9800, hand-none sheet 0, corpus line 2343; an illegal
 * record at ply 9, Black's ply 24 left out, a blank cell at 57), every
 * move read right. The histories that place the skip earlier were weighed
 * as if each went on as well as the decoded game, with every move they
 * might have skipped (some 40 times their mass), refuted or not: plies
 * 10-23, their records read exactly, had confidences of 0.16 to 0.5, and
 * the doubt spread from their squares to ply 60 (56 of 71 plies under
 * review). Each such history now weighs as its heaviest realignment, and
 * nothing where the records after the skip refute it (45 under review).
 * Each other move of the skip, followed, capped the plies it played
 * otherwise though the records after refuted it, with no untold ply
 * between: such a history now caps nothing (33 under review). */
static void test_skip_places_sheet(void **state)
{
    sheet_score r;
    (void)state;
    if (!score_sheet("skip_places_hand.png", 2343, &r))
        skip();
    assert_int_equal(r.n, 71);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.silent, 0);
    assert_true(r.review <= 48);
}

/* A clean printed sheet as a player writes it, no error injected
 * (tests/data/verify/scribble_crowd_printed.png: bench_e2e seed 7100,
 * N=4, sheets as written, printed-none sheet 3; corpus line 1263, 31
 * plies): Black's 6th record (马2进3) scribbled over, Black's 10th too.
 * Every move of the scribbled cells was near-equal and the true one read
 * the scribble worst of all; the crowd of histories through both cells
 * pushed it out of the beam, so Black's 16th record (车1平2, the rook
 * moving where that horse stood) read as an illegal move on every board
 * left, and 6 and 16 were decoded wrong (炮2平1, then back: a false
 * illegal-move finding). A misfit after a cell that told nothing is now
 * decoded again with a wide beam around it. */
static void test_scribble_crowd_sheet(void **state)
{
    sheet_score r;
    (void)state;
    if (!score_sheet("scribble_crowd_printed.png", 1263, &r))
        skip();
    assert_int_equal(r.n, 31);
    assert_true(r.ok[5] && r.ok[15]);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.silent, 0);
}

/* A clean printed sheet as written (tests/data/verify/rook_return_printed.png:
 * bench_e2e seed 7100, N=4, sheets as written, printed-none sheet 1;
 * corpus line 782, 115 plies). Black's 72nd record (车4平1) is scribbled
 * over and the 74th brings the rook back (车1平4); the histories that
 * sent it elsewhere at 72 (车4平5) read 74 as its return from there, and
 * those moves, not legal on the decoded board at 74, put the rook's
 * squares in doubt: every later move from or to them, and on from
 * theirs, went under review (45 plies, all right). Those histories were
 * followed from 72 already, carrying that mass: no squares for them. */
static void test_rook_return_sheet(void **state)
{
    sheet_score r;
    (void)state;
    if (!score_sheet("rook_return_printed.png", 782, &r))
        skip();
    assert_int_equal(r.n, 115);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.silent, 0);
    assert_true(r.review <= 30);
}

/* A clean handwriting sheet as written (tests/data/verify/blocker_pawn_hand.png:
 * bench_e2e seed 7100, N=4, sheets as written, hand-none sheet 1; corpus
 * line 705, 69 plies). Red's record at ply 31 (兵七进一) is scribbled
 * over; the decoder rebuilt it as 相七进九, the pawn stayed on c4, and
 * Black's 炮4平2 at ply 60, read exactly, was blocked there: corrected to
 * 炮4平6, and 炮2平4 at 64 (its 4 read as 1) called illegal. The
 * scribbled ply is now played otherwise by a move taking a piece off the
 * square that blocks the record (decode.c, block_squares), the poorly read
 * 64 by its second reading where its best one is refuted at 66: every
 * move right (31, 60 and 64 wrong before; 51 plies under review, now
 * 35). */
static void test_blocker_sheet(void **state)
{
    sheet_score r;
    (void)state;
    if (!score_sheet("blocker_pawn_hand.png", 705, &r))
        skip();
    assert_int_equal(r.n, 69);
    assert_true(r.ok[30] && r.ok[59] && r.ok[63]);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.silent, 0);
    assert_true(r.review <= 40);
}

/* Red's sample sheet read alone (samples/pair-red.jpg: kai, corpus line
 * 1731). Its writer's full-width ４ reads as 1: Black's 马２进４ at ply 18
 * read as 马2进1, a legal move, and was reported sure; each later move of
 * that horse (plies 42, 64 and 74) then had its 进/退 corrected on the
 * wrong square. A corrected record puts the move that brought its piece
 * there under review: no ply may be sure and wrong. */
static void test_corrected_piece_sheet(void **state)
{
    sheet_score r;
    char path[1024];
    (void)state;
    snprintf(path, sizeof path, "%s/samples/pair-red.jpg", XQ_SOURCE_DIR);
    if (access(path, R_OK) != 0 || !score_sheet(path, 1731, &r))
        skip();
    assert_int_equal(r.n, 85);
    assert_false(r.ok[17]);         /* ply 18 still read wrong ... */
    assert_int_equal(r.silent, 0);  /* ... but under review, as every wrong one */
    assert_true(r.review <= 60);
}

/* A finding with this code (at this ply, or any ply when ply < 0)? */
static bool has_finding(const xq_json *j, const char *code, int ply)
{
    const xq_json *f;
    for (f = xq_json_get(j, "findings") ? xq_json_get(j, "findings")->child : NULL; f; f = f->next) {
        const xq_json *p = xq_json_get(f, "ply");
        if (xq_json_str(xq_json_get(f, "code")) && !strcmp(xq_json_str(xq_json_get(f, "code")), code) &&
            (ply < 0 || (p && p->type == XQ_JSON_NUMBER && (int)p->num == ply)))
            return true;
    }
    return false;
}

static int num_at(const xq_json *j, const char *k1, const char *k2)
{
    const xq_json *v = xq_json_get(xq_json_get(j, k1), k2);
    assert_non_null(v);
    assert_int_equal(v->type, XQ_JSON_NUMBER);
    return (int)v->num;
}

/* Scan the pair (red, black) into a parsed pair JSON. */
static xq_json *scan_pair(xq_scanner *sc, const char *red, const char *black, int *pflags)
{
    const char *path[2];
    xq_scan_input in[2], pin;
    sink s;
    char err[256];
    xq_json *j = NULL;
    int i;
    path[0] = red;
    path[1] = black;
    memset(in, 0, sizeof in);
    memset(&pin, 0, sizeof pin);
    in[0].source = "r3/b7-red.jpg";
    in[0].input_sha256 = "aa";
    in[0].owner = "red";
    in[1].source = "r3/b7-black.jpg";
    in[1].input_sha256 = "bb";
    in[1].owner = "black";
    pin.source = "r3/b7-red.jpg + r3/b7-black.jpg";
    pin.input_sha256 = "cc";
    pin.options_json = "{\"threshold\":16}";
    memset(&s, 0, sizeof s);
    assert_int_equal(xq_scan_pair(sc, path, in, &pin, "file name", collect, &s, pflags, err,
                                  sizeof err), XQ_OK);
    assert_int_equal(s.calls, 3);
    for (i = 0; i < 3; i++)
        assert_int_equal(s.pages[i], 1);
    assert_string_equal(s.exts[0], ".pgn");
    assert_string_equal(s.exts[1], ".html");
    assert_string_equal(s.exts[2], ".json");
    assert_int_equal(xq_json_parse(s.json[2], strlen(s.json[2]), &j), XQ_OK);
    sink_free(&s);
    return j;
}

/* The Red and Black sample sheets of one game, reconciled; then a cell of
 * Black's sheet overwritten with another of its cells: the sheets now
 * disagree at that ply, which must be a sheets_disagree finding. */
static void test_pair(void **state)
{
    char red[1024], black[1024], err[256], bad[] = "/tmp/xq_scan_pair_XXXXXX.png";
    const char *path[2];
    xq_scanner *sc;
    xq_json *j, *j2;
    const xq_json *sh, *p;
    xq_sheet **sheets = NULL;
    size_t n = 0, c, cp = 0, cq = 0, nplies;
    int flags = 0, box_p[4], box_q[4], fd, ply_p;
    const char *tp = NULL;
    char tp_copy[64], tq_copy[64] = "";
    sink s;
    (void)state;
    snprintf(red, sizeof red, "%s/samples/pair-red.jpg", XQ_SOURCE_DIR);
    snprintf(black, sizeof black, "%s/samples/pair-black.jpg", XQ_SOURCE_DIR);
    if (access(red, R_OK) != 0 || access(black, R_OK) != 0)
        skip();
    sc = scanner();

    /* bad arguments and an unreadable sheet */
    path[0] = red;
    path[1] = "/nonexistent/black.png";
    memset(&s, 0, sizeof s);
    assert_int_equal(xq_scan_pair(NULL, path, NULL, NULL, NULL, collect, &s, NULL, err, sizeof err),
                     XQ_EINVAL);
    {
        xq_scan_input in[2];
        memset(in, 0, sizeof in);
        assert_int_not_equal(xq_scan_pair(sc, path, in, NULL, NULL, collect, &s, NULL, err,
                                          sizeof err), XQ_OK);
        assert_non_null(strstr(err, "sheet 2"));
        assert_int_equal(s.calls, 0);
    }

    j = scan_pair(sc, red, black, &flags);
    assert_string_equal(xq_json_str(xq_json_get(j, "schema")), "xqscan/1");
    assert_string_equal(xq_json_str(xq_json_get(j, "status")), "ok");
    assert_string_equal(xq_json_str(xq_json_get(j, "source")), "r3/b7-red.jpg + r3/b7-black.jpg");
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "xqscan"), "input_sha256")), "cc");
    assert_int_equal(xq_json_get(j, "owner")->type, XQ_JSON_NULL);
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "pair"), "by")), "file name");
    sh = xq_json_get(xq_json_get(j, "pair"), "sheets");
    assert_int_equal(xq_json_len(sh), 2);
    assert_string_equal(xq_json_str(xq_json_get(sh->child, "source")), "r3/b7-red.jpg");
    assert_string_equal(xq_json_str(xq_json_get(sh->child, "owner")), "red");
    assert_string_equal(xq_json_str(xq_json_get(sh->child->next, "source")), "r3/b7-black.jpg");
    assert_string_equal(xq_json_str(xq_json_get(sh->child->next, "owner")), "black");
    assert_string_equal(xq_json_str(xq_json_get(sh->child->next, "input_sha256")), "bb");
    /* each sheet's unrecorded count is its own and consistent */
    for (p = sh->child; p; p = p->next) {
        int r = num_at(p, "unrecorded", "red"), b = num_at(p, "unrecorded", "black");
        assert_int_equal(num_at(p, "unrecorded", "total"), r + b);
        assert_true(r + b < 10);
    }
    nplies = xq_json_len(xq_json_get(j, "plies"));
    assert_true(nplies >= 40);
    assert_int_equal(xq_json_len(xq_json_get(xq_json_get(j, "pair"), "ply_sheet")), nplies);
    /* the reconciled record needs fewer reviews than either sheet alone */
    {
        size_t review = 0;
        for (p = xq_json_get(j, "plies")->child; p; p = p->next)
            review += xq_json_get(p, "review")->b;
        for (p = sh->child; p; p = p->next)
            assert_true((double)review <= xq_json_get(p, "review_alone")->num);
    }

    /* inject: cell of Black's move 15 (ply 30) overwritten with the cell of
     * another Black move that reads differently */
    assert_int_equal(xq_ocr_read_file(sc->ocr, black, &sheets, &n, err, sizeof err), XQ_OK);
    assert_int_equal(n, 1);
    ply_p = 30;
    cp = (size_t)ply_p - 1;
    assert_true(xq_sheet_ncells(sheets[0]) > cp + 20);
    tp = xq_sheet_cell_read(sc->ocr, sheets[0], cp);
    assert_true(tp && *tp);
    snprintf(tp_copy, sizeof tp_copy, "%s", tp);
    for (c = 1; c < xq_sheet_ncells(sheets[0]); c += 2) {
        const char *tq = xq_sheet_cell_read(sc->ocr, sheets[0], c);
        if (c != cp && tq && strlen(tq) >= 6 && strncmp(tq, tp, 3) != 0) {
            cq = c;
            snprintf(tq_copy, sizeof tq_copy, "%s", tq);
            break;
        }
    }
    assert_true(cq > 0);
    assert_int_equal(xq_sheet_cell_box(sheets[0], cp, box_p), XQ_OK);
    assert_int_equal(xq_sheet_cell_box(sheets[0], cq, box_q), XQ_OK);
    xq_ocr_sheets_free(&sheets, n);
    {
        PIX *img = pixRead(black), *g = NULL, *cell, *scaled;
        BOX *bq;
        assert_non_null(img);
        g = pixConvertTo8(img, 0);
        assert_non_null(g);
        bq = boxCreate(box_q[0] + 3, box_q[1] + 3, box_q[2] - 6, box_q[3] - 6);
        cell = pixClipRectangle(g, bq, NULL);
        assert_non_null(cell);
        scaled = pixScaleToSize(cell, box_p[2] - 6, box_p[3] - 6);
        assert_non_null(scaled);
        pixRasterop(g, box_p[0] + 3, box_p[1] + 3, box_p[2] - 6, box_p[3] - 6, PIX_SRC, scaled, 0, 0);
        fd = mkstemps(bad, 4);
        assert_true(fd >= 0);
        close(fd);
        assert_int_equal(pixWrite(bad, g, IFF_PNG), 0);
        boxDestroy(&bq);
        pixDestroy(&cell);
        pixDestroy(&scaled);
        pixDestroy(&g);
        pixDestroy(&img);
    }
    j2 = scan_pair(sc, red, bad, &flags);
    if (getenv("XQ_PAIR_KEEP"))          /* keep the injected sheet to look at */
        rename(bad, getenv("XQ_PAIR_KEEP"));
    unlink(bad);
    assert_false(has_finding(j, "sheets_disagree", ply_p));
    if (!has_finding(j2, "sheets_disagree", ply_p)) {   /* say why before failing */
        const xq_json *f, *q;
        int k;
        for (f = xq_json_get(j2, "findings")->child; f; f = f->next)
            print_message("finding %s ply %g: %s\n", xq_json_str(xq_json_get(f, "code")),
                          xq_json_get(f, "ply")->num, xq_json_str(xq_json_get(f, "message")));
        for (q = xq_json_get(j2, "plies")->child, k = 1; q; q = q->next, k++)
            if (k >= ply_p - 2 && k <= ply_p + 2)
                print_message("ply %d read %s status %s\n", k, xq_json_str(xq_json_get(q, "read")),
                              xq_json_str(xq_json_get(q, "status")));
        print_message("cell %zu (%s) overwritten with cell %zu (%s)\n", cp, tp_copy, cq, tq_copy);
    }
    assert_true(has_finding(j2, "sheets_disagree", ply_p));
    assert_true(flags & XQ_SCAN_NEEDS_ARBITER);
    /* the reconciled move at that ply is still the one both records agreed on
     * before, or it is under review: never a silent change */
    {
        const xq_json *a = xq_json_get(j, "plies")->child, *b = xq_json_get(j2, "plies")->child;
        int k;
        for (k = 1; k < ply_p && a && b; k++)
            a = a->next, b = b->next;
        assert_non_null(a);
        assert_non_null(b);
        if (xq_json_str(xq_json_get(xq_json_get(b, "move"), "iccs")) &&
            strcmp(xq_json_str(xq_json_get(xq_json_get(a, "move"), "iccs")),
                   xq_json_str(xq_json_get(xq_json_get(b, "move"), "iccs"))))
            assert_true(xq_json_get(b, "review")->b);
    }
    xq_json_free(&j);
    xq_json_free(&j2);
    xq_scanner_destroy(&sc);
}

/* xq_corrections_to_verify: an arbiter's corrections file as the
 * verifier's list, ply by ply in the file's order, the move strings still
 * the file's; a file with no plies is no list (NULL); bad arguments are
 * refused, the list pointer cleared. */
static void test_corrections_to_verify(void **state)
{
    static const char two[] =
        "{\"schema\":\"xqscan-corrections/1\",\"plies\":["
        "{\"ply\":5,\"move\":\"b2c2\"},{\"ply\":3,\"move\":\"马八进七\"}]}";
    static const char none[] = "{\"schema\":\"xqscan-corrections/1\",\"plies\":[]}";
    xq_corrections *c = NULL;
    xq_verify_correction *vc = NULL;
    (void)state;
    assert_int_equal(xq_corrections_parse(two, strlen(two), &c), XQ_OK);
    assert_int_equal(xq_corrections_to_verify(c, &vc), XQ_OK);
    assert_non_null(vc);
    assert_int_equal(vc[0].ply, 5);
    assert_ptr_equal(vc[0].move, c->plies[0].move);
    assert_int_equal(vc[1].ply, 3);
    assert_string_equal(vc[1].move, "马八进七");
    xq_free(vc);
    vc = (xq_verify_correction *)two;
    assert_int_equal(xq_corrections_to_verify(NULL, &vc), XQ_EINVAL);
    assert_null(vc);
    assert_int_equal(xq_corrections_to_verify(c, NULL), XQ_EINVAL);
    xq_corrections_destroy(&c);
    assert_int_equal(xq_corrections_parse(none, strlen(none), &c), XQ_OK);
    vc = (xq_verify_correction *)two;
    assert_int_equal(xq_corrections_to_verify(c, &vc), XQ_OK);
    assert_null(vc);
    xq_corrections_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_corrections_to_verify),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_blank_form),
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_whole_skip_sheet),
        cmocka_unit_test(test_repair_sheet),
        cmocka_unit_test(test_corrected_piece_sheet),
        cmocka_unit_test(test_skip_places_sheet),
        cmocka_unit_test(test_scribble_crowd_sheet),
        cmocka_unit_test(test_rook_return_sheet),
        cmocka_unit_test(test_blocker_sheet),
        cmocka_unit_test(test_pair),
    };
    /* e.g. XQ_TEST_FILTER=test_pair (test_shard.h) */
    return xq_run_tests("test_cli_scan", tests, sizeof tests / sizeof tests[0]);
}

/* Corpus tests of notation/: every line of notation-vectors.tsv; all
 * ccpd-dev.pgn games give exactly the ICCS of ccpd-dev.iccs.jsonl; the 15
 * wukong games read identically in Chinese, WXF and ICCS; round trip of
 * every legal move of sampled corpus positions in all four notations
 * (XQ_ROUNDTRIP_ALL=1: every position of every game). */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "xq_alloc.h"
#include "xqscan/xq_notation.h"

static char *slurp(const char *path, size_t *plen)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (plen)
            *plen = (size_t)n;
    }
    return buf;
}

static void test_vectors(void **state)
{
    char *data = slurp(XQ_CORPUS_DIR "/notation-vectors.tsv", NULL);
    char *line, *save = NULL;
    int n = 0, bad = 0;
    (void)state;
    if (!data) {
        skip();
        return;
    }
    for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[4], *p = line, err[128], got[8], want[8];
        int k;
        xq_board b;
        xq_resolution res;
        xq_move wmv;
        for (k = 0; k < 4; k++) {
            f[k] = p;
            p = strchr(p, '\t');
            if (!p && k < 3)
                break;
            if (p)
                *p++ = '\0';
        }
        if (k < 4 || !strcmp(f[0], "notation_type"))
            continue;
        f[3][strcspn(f[3], "\r")] = '\0';
        if (xq_board_from_fen(&b, f[1], err, sizeof err) != XQ_OK) {
            /* The vectors write full-move number 0, which the engine
             * refuses: placement and side to move are what matter. */
            char *sp = strchr(strchr(f[1], ' ') + 1, ' ');
            *sp = '\0';
            assert_int_equal(xq_board_from_fen(&b, f[1], err, sizeof err), XQ_OK);
        }
        xq_notation_read(&b, f[2], !strcmp(f[0], "UCI") ? XQ_LEX_UCI : 0, &res);
        xq_move_to_iccs(res.mv, got);
        assert_int_equal(xq_move_from_iccs(f[3], &wmv), XQ_OK);
        xq_move_to_iccs(wmv, want);
        if (res.code != XQ_RES_OK || res.mv != wmv) {
            print_message("vector %s %s: got %s code %d, want %s\n", f[0], f[2],
                          got, res.code, want);
            bad++;
        }
        n++;
    }
    free(data);
    print_message("notation vectors: %d read, %d wrong\n", n, bad);
    assert_true(n >= 60);
    assert_int_equal(bad, 0);
}

/* Our traditional writer against a real archive: every CCPD move text is
 * exactly what xq_notation_write(TRADITIONAL) gives, except where the
 * archive leaves out 前/後 and the board leaves one move (read with
 * XQ_RWARN_UNDISAMBIGUATED; we write the 前/後 form). */
static void test_ccpd_traditional_text(void **state)
{
    xq_record *rec = NULL;
    xq_board *b = malloc(sizeof *b);
    size_t gi, i, same = 0, omitted = 0, other = 0;
    (void)state;
    if (xq_record_read_file(XQ_CORPUS_DIR "/ccpd-dev.pgn", &rec) != XQ_OK) {
        free(b);
        skip();
        return;
    }
    for (gi = 0; gi < xq_record_count(rec); gi++) {
        const xq_record_game *g = xq_record_game_at(rec, gi);
        if (g->fen)
            assert_int_equal(xq_board_from_fen(b, g->fen, NULL, 0), XQ_OK);
        else
            xq_board_init_start(b);
        for (i = 0; i < g->nmoves; i++) {
            xq_resolution r;
            char text[XQ_NOTATION_MAX];
            xq_notation_read(b, g->moves[i].text, 0, &r);
            assert_int_equal(r.code, XQ_RES_OK);
            assert_int_equal(xq_notation_write(b, r.mv, XQ_NOTATION_TRADITIONAL, text,
                                               sizeof text), XQ_OK);
            if (!strcmp(text, g->moves[i].text))
                same++;
            else if ((r.warnings & XQ_RWARN_UNDISAMBIGUATED) &&
                     (!strncmp(text, "前", 3) || !strncmp(text, "後", 3)))
                omitted++;
            else {
                if (other < 10)
                    print_message("game %zu ply %zu: archive '%s', we write '%s'\n",
                                  gi + 1, i + 1, g->moves[i].text, text);
                other++;
            }
            assert_true(xq_board_make_move(b, r.mv, NULL));
        }
    }
    print_message("ccpd traditional text: %zu moves identical, %zu where the archive "
                  "omits 前/後, %zu other\n", same, omitted, other);
    assert_int_equal(other, 0);
    assert_true(same > 200000);
    xq_record_destroy(&rec);
    free(b);
}

/* Next "iccs": "..." value in a JSONL line. */
static char *json_field(char *line, const char *key)
{
    char pat[32], *p, *e;
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    p = strstr(line, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    e = strchr(p, '"');
    if (!e)
        return NULL;
    *e = '\0';
    return p;
}

static void test_ccpd_iccs(void **state)
{
    xq_record *rec = NULL;
    char *jsonl = slurp(XQ_CORPUS_DIR "/ccpd-dev.iccs.jsonl", NULL);
    char *line, *save = NULL;
    size_t gi = 0, games = 0, plies = 0, bad = 0;
    xq_board *b = malloc(sizeof *b);
    (void)state;
    if (!jsonl) {
        free(b);
        skip();
        return;
    }
    assert_int_equal(xq_record_read_file(XQ_CORPUS_DIR "/ccpd-dev.pgn", &rec), XQ_OK);
    assert_int_equal(xq_record_count(rec), 2695);
    for (line = strtok_r(jsonl, "\n", &save); line; line = strtok_r(NULL, "\n", &save), gi++) {
        const xq_record_game *g = xq_record_game_at(rec, gi);
        char *iccs = json_field(line, "iccs");
        char err[256], buf[8];
        long badply;
        xq_resolution res;
        size_t i, pos = 0, nmv = 0;
        char *ours;
        assert_non_null(g);
        assert_non_null(iccs);
        assert_int_equal(xq_record_game_replay(g, b, &badply, &res, err, sizeof err), XQ_OK);
        if (badply >= 0) {
            print_message("game %zu: %s\n", gi + 1, err);
            bad++;
            continue;
        }
        ours = malloc(g->nmoves * 5 + 1);
        ours[0] = '\0';
        for (i = 0; i < g->nmoves; i++) {
            xq_move_to_iccs(xq_board_move_at(b, (int)i), buf);
            if (i)
                ours[pos++] = ' ';
            memcpy(ours + pos, buf, 4);
            pos += 4;
            ours[pos] = '\0';
            nmv++;
        }
        if (strcmp(ours, iccs)) {
            print_message("game %zu (line %d): ICCS differs\n ours  %s\n label %s\n",
                          gi + 1, g->line, ours, iccs);
            bad++;
        }
        plies += nmv;
        games++;
        free(ours);
    }
    print_message("ccpd: %zu games, %zu plies, %zu differ\n", games, plies, bad);
    assert_int_equal(gi, 2695);
    assert_int_equal(bad, 0);
    xq_record_destroy(&rec);
    free(jsonl);
    free(b);
}

/* Is (game, ply) listed in tests/data/notation/wukong-label-errors.tsv? */
static int known_label_error(size_t game, size_t ply)
{
    static char *data;
    char pat[32], *p;
    if (!data)
        data = slurp(XQ_TEST_DATA "/notation/wukong-label-errors.tsv", NULL);
    if (!data)
        return 0;
    snprintf(pat, sizeof pat, "\n%zu\t%zu\t", game, ply);
    p = strstr(data, pat);
    return p != NULL;
}

/* The three wukong files along the ICCS moves: at every ply the Chinese
 * and WXF texts must read (on the board the ICCS moves give) to the ICCS
 * move, except label errors listed with their explanation in
 * tests/data/notation/wukong-label-errors.tsv; Chinese and WXF must always
 * agree with each other. */
static void test_wukong(void **state)
{
    static const char *const files[3] = {
        XQ_CORPUS_DIR "/wukong-15.chinese.pgn", XQ_CORPUS_DIR "/wukong-15.wxf.pgn",
        XQ_CORPUS_DIR "/wukong-15.iccs.pgn"
    };
    xq_record *rec[3] = { NULL, NULL, NULL };
    xq_board *b = malloc(sizeof *b);
    size_t k, gi, i, total = 0, listed = 0, same_text = 0;
    (void)state;
    for (k = 0; k < 3; k++) {
        if (xq_record_read_file(files[k], &rec[k]) != XQ_OK) {
            skip();
            return;
        }
        assert_int_equal(xq_record_count(rec[k]), 15);
    }
    for (gi = 0; gi < 15; gi++) {
        const xq_record_game *g[3];
        for (k = 0; k < 3; k++) {
            long bad;
            char err[256];
            g[k] = xq_record_game_at(rec[k], gi);
            /* every file replays on its own */
            assert_int_equal(xq_record_game_replay(g[k], b, &bad, NULL, err, sizeof err), XQ_OK);
            if (bad >= 0)
                print_message("%s game %zu: %s\n", files[k], gi + 1, err);
            assert_int_equal(bad, -1);
        }
        assert_int_equal(g[0]->nmoves, g[1]->nmoves);
        assert_int_equal(g[0]->nmoves, g[2]->nmoves);
        assert_true(g[0]->nmoves > 10);
        xq_board_init_start(b);
        for (i = 0; i < g[2]->nmoves; i++) {
            xq_resolution r[3];
            for (k = 0; k < 3; k++) {
                xq_notation_read(b, g[k]->moves[i].text, 0, &r[k]);
                assert_int_equal(r[k].code, XQ_RES_OK);
            }
            assert_int_equal(r[0].mv, r[1].mv);
            {
                /* our simplified writer gives wukong's text */
                char text[XQ_NOTATION_MAX];
                assert_int_equal(xq_notation_write(b, r[2].mv, XQ_NOTATION_CHINESE, text,
                                                   sizeof text), XQ_OK);
                if (strcmp(text, g[0]->moves[i].text))
                    assert_true(known_label_error(gi + 1, i + 1));
                else
                    same_text++;
            }
            if (r[0].mv != r[2].mv) {
                print_message("game %zu ply %zu: '%s' / '%s' vs '%s'%s\n", gi + 1, i + 1,
                              g[0]->moves[i].text, g[1]->moves[i].text,
                              g[2]->moves[i].text,
                              known_label_error(gi + 1, i + 1) ? " (listed label error)" : "");
                assert_true(known_label_error(gi + 1, i + 1));
                listed++;
            }
            assert_true(xq_board_make_move(b, r[2].mv, NULL));
        }
        total += g[2]->nmoves;
    }
    print_message("wukong: 15 games, %zu plies; Chinese = WXF everywhere, = ICCS "
                  "except %zu listed label error(s); our simplified text = wukong's "
                  "for %zu plies\n", total, listed, same_text);
    for (k = 0; k < 3; k++)
        xq_record_destroy(&rec[k]);
    free(b);
}

/* Round trip: every legal move of a position, all four notations, distinct
 * strings, each read back to its move. Returns the number of checks. */
static size_t roundtrip_position(xq_board *b, size_t *pbad)
{
    static const xq_notation_kind kinds[4] = {
        XQ_NOTATION_CHINESE, XQ_NOTATION_TRADITIONAL, XQ_NOTATION_WXF,
        XQ_NOTATION_ICCS
    };
    xq_move mv[XQ_MAX_MOVES];
    char text[XQ_MAX_MOVES][XQ_NOTATION_MAX];
    int n = xq_board_legal_moves(b, mv), i, j, k;
    size_t checks = 0;
    for (k = 0; k < 4; k++) {
        for (i = 0; i < n; i++) {
            xq_resolution res;
            if (xq_notation_write(b, mv[i], kinds[k], text[i], sizeof text[i]) != XQ_OK) {
                (*pbad)++;
                continue;
            }
            xq_notation_read(b, text[i], 0, &res);
            if (res.code != XQ_RES_OK || res.mv != mv[i] || res.warnings) {
                char fen[XQ_FEN_MAX], iccs[8];
                xq_board_to_fen(b, fen, sizeof fen);
                xq_move_to_iccs(mv[i], iccs);
                if (*pbad < 20)
                    print_message("round trip %s %s -> '%s' -> code %d warn %u\n",
                                  fen, iccs, text[i], res.code, res.warnings);
                (*pbad)++;
            }
            checks++;
        }
        for (i = 0; i < n; i++)
            for (j = i + 1; j < n; j++)
                if (!strcmp(text[i], text[j])) {
                    if (*pbad < 20)
                        print_message("two moves written '%s'\n", text[i]);
                    (*pbad)++;
                }
    }
    return checks;
}

/* fn(r, ud) on every position of every step-th game of the dev corpus, r
 * replayed from the game's start; false (nothing called) without the
 * corpus. */
static bool corpus_positions(size_t step, void (*fn)(xq_board *r, void *ud),
                             void *ud)
{
    xq_record *rec = NULL;
    xq_board *b = malloc(sizeof *b), *r = malloc(sizeof *r);
    size_t gi;
    assert_non_null(b);
    assert_non_null(r);
    if (xq_record_read_file(XQ_CORPUS_DIR "/ccpd-dev.pgn", &rec) != XQ_OK) {
        free(b);
        free(r);
        return false;
    }
    for (gi = 0; gi < xq_record_count(rec); gi += step) {
        const xq_record_game *g = xq_record_game_at(rec, gi);
        long badply;
        int i, n;
        assert_int_equal(xq_record_game_replay(g, b, &badply, NULL, NULL, 0), XQ_OK);
        n = xq_board_ply_count(b);
        if (g->fen)
            assert_int_equal(xq_board_from_fen(r, g->fen, NULL, 0), XQ_OK);
        else
            xq_board_init_start(r);
        for (i = 0; i <= n; i++) {
            fn(r, ud);
            if (i < n)
                assert_true(xq_board_make_move(r, xq_board_move_at(b, i), NULL));
        }
    }
    xq_record_destroy(&rec);
    free(b);
    free(r);
    return true;
}

typedef struct {
    size_t checks, bad, positions;
} roundtrip_tally;

static void roundtrip_visit(xq_board *r, void *ud)
{
    roundtrip_tally *t = ud;
    t->checks += roundtrip_position(r, &t->bad);
    t->positions++;
}

static void test_roundtrip(void **state)
{
    const char *all = getenv("XQ_ROUNDTRIP_ALL");
    roundtrip_tally t = { 0, 0, 0 };
    (void)state;
    if (!corpus_positions(all && *all == '1' ? 1 : 25, roundtrip_visit, &t)) {
        skip();
        return;
    }
    print_message("round trip: %zu positions, %zu write+read checks, %zu failures\n",
                  t.positions, t.checks, t.bad);
    assert_int_equal(t.bad, 0);
}

static xq_move mv_iccs(const char *s)
{
    xq_move mv = XQ_MOVE_NONE;
    assert_int_equal(xq_move_from_iccs(s, &mv), XQ_OK);
    return mv;
}

static void load_fen(xq_board *b, const char *fen)
{
    assert_int_equal(xq_board_from_fen(b, fen, NULL, 0), XQ_OK);
}

/* Hash of a move's whole variant list of kinds (texts, kinds, priors,
 * flags). */
static uint64_t variants_hash(xq_board *b, xq_move mv, unsigned kinds)
{
    static xq_notation_variant v[256];
    size_t n = 0, i;
    uint64_t h = 0xCBF29CE484222325ull;
    assert_int_equal(xq_notation_variants_array(b, mv, kinds, v, 256, &n), XQ_OK);
    for (i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)v[i].text;
        unsigned extra[3];
        size_t j;
        extra[0] = (unsigned)v[i].kind;
        extra[1] = (unsigned)(v[i].prior * 1e6f);
        extra[2] = v[i].flags;
        for (; *p; p++)
            h = (h ^ *p) * 0x100000001B3ull;
        for (j = 0; j < 3; j++)
            h = (h ^ extra[j]) * 0x100000001B3ull;
    }
    return h ^ n;
}

/* xq_notation_variants_key: every corpus position and legal move with the
 * same nonzero key has the same variants (of the kinds asked: all, and the
 * Chinese ones a scanned sheet is decoded with); tandem pieces get a key
 * too. */
enum { VK_CAP = 1 << 16 };
typedef struct {
    uint64_t *keys, *vals;   /* open addressing: key -> variants_hash */
    size_t keyed, unkeyed, hits, bad, batch_bad;
    size_t tandem, tandem_hits;   /* keys of tandem pieces' moves */
    unsigned kinds;
} vkey_tally;

static void vkey_visit(xq_board *r, void *ud)
{
    vkey_tally *t = ud;
    xq_move mv[XQ_MAX_MOVES];
    uint64_t keys[XQ_MAX_MOVES];
    int nm = xq_board_legal_moves(r, mv), j;
    /* the keys of all moves at once: the same */
    assert_int_equal(xq_notation_variants_keys(r, mv, (size_t)nm, t->kinds, keys),
                     XQ_OK);
    for (j = 0; j < nm; j++) {
        uint64_t k = xq_notation_variants_key(r, mv[j], t->kinds), vh;
        size_t h;
        if (keys[j] != k)
            t->batch_bad++;
        if (!k) {
            t->unkeyed++;
            continue;
        }
        t->keyed++;
        if (k >> 63)
            t->tandem++;
        vh = variants_hash(r, mv[j], t->kinds);
        h = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 40) & (VK_CAP - 1);
        while (t->keys[h] && t->keys[h] != k)
            h = (h + 1) & (VK_CAP - 1);
        if (!t->keys[h]) {
            t->keys[h] = k;
            t->vals[h] = vh;
        } else if (t->vals[h] != vh) {
            if (t->bad++ < 10) {
                char fen[XQ_FEN_MAX], iccs[8];
                xq_board_to_fen(r, fen, sizeof fen);
                xq_move_to_iccs(mv[j], iccs);
                print_message("variants of %s differ at %s\n", iccs, fen);
            }
        } else {
            t->hits++;
            if (k >> 63)
                t->tandem_hits++;
        }
    }
}

/* The corpus walk of test_variants_key for kinds. */
static void vkey_corpus(unsigned kinds)
{
    vkey_tally t;
    bool found;
    memset(&t, 0, sizeof t);
    t.keys = calloc(VK_CAP, sizeof(uint64_t));
    t.vals = calloc(VK_CAP, sizeof(uint64_t));
    t.kinds = kinds;
    assert_non_null(t.keys);
    assert_non_null(t.vals);
    found = corpus_positions(10, vkey_visit, &t);
    free(t.keys);
    free(t.vals);
    if (!found) {
        skip();
        return;
    }
    print_message("variants key (kinds 0x%x): %zu keyed moves (%zu seen before; "
                  "%zu of tandem pieces, %zu seen before), %zu without a key, "
                  "%zu differing\n", kinds, t.keyed, t.hits, t.tandem,
                  t.tandem_hits, t.unkeyed, t.bad);
    assert_int_equal(t.bad, 0);
    assert_int_equal(t.batch_bad, 0);
    assert_true(t.hits > t.keyed / 2);     /* the key is worth caching on */
    assert_true(t.tandem_hits > 0);        /* ... tandem pieces' too */
    assert_int_equal(t.unkeyed, 0);
}

static void test_variants_key(void **state)
{
    xq_move two[3];
    uint64_t k2[3], ka, kb;
    xq_board r, rb;
    (void)state;
    /* tandem rooks on file a: keys of their own; the lone king, a key;
     * nothing there, no key */
    load_fen(&r, "3k5/9/9/9/9/9/9/R8/9/R3K4 w");
    ka = xq_notation_variants_key(&r, mv_iccs("a2b2"), XQ_VARIANTS_ALL);
    assert_int_not_equal(ka, 0);
    assert_int_not_equal(xq_notation_variants_key(&r, mv_iccs("a0b0"), XQ_VARIANTS_ALL), 0);
    assert_int_not_equal(xq_notation_variants_key(&r, mv_iccs("a0b0"), XQ_VARIANTS_ALL), ka);
    assert_int_not_equal(xq_notation_variants_key(&r, mv_iccs("e0d0"), XQ_VARIANTS_ALL), 0);
    assert_int_equal(xq_notation_variants_key(&r, mv_iccs("b5b6"), XQ_VARIANTS_ALL), 0);
    assert_int_equal(xq_notation_variants_key(NULL, mv_iccs("e0d0"), XQ_VARIANTS_ALL), 0);
    /* a horse on b0: the rear rook cannot go to file 8, so 车九平八 names
     * the front one's move (a variant it lacks beside the other rook's
     * 平八): another key with the rooks where they were; a pawn far off
     * changes nothing */
    load_fen(&rb, "3k5/9/9/9/9/9/9/R8/9/RN2K4 w");
    kb = xq_notation_variants_key(&rb, mv_iccs("a2b2"), XQ_VARIANTS_ALL);
    assert_int_not_equal(kb, 0);
    assert_int_not_equal(kb, ka);
    assert_int_not_equal(variants_hash(&rb, mv_iccs("a2b2"), XQ_VARIANTS_ALL),
                         variants_hash(&r, mv_iccs("a2b2"), XQ_VARIANTS_ALL));
    load_fen(&rb, "3k5/9/9/9/8p/9/9/R8/9/R3K4 w");
    assert_int_equal(xq_notation_variants_key(&rb, mv_iccs("a2b2"), XQ_VARIANTS_ALL), ka);
    /* all at once: the same keys, nothing there or off the board none */
    two[0] = mv_iccs("a0b0");
    two[1] = mv_iccs("e0d0");
    two[2] = mv_iccs("b5b6");
    assert_int_equal(xq_notation_variants_keys(&r, two, 3, XQ_VARIANTS_ALL, k2), XQ_OK);
    assert_int_equal(k2[0], xq_notation_variants_key(&r, two[0], XQ_VARIANTS_ALL));
    assert_int_equal(k2[1], xq_notation_variants_key(&r, two[1], XQ_VARIANTS_ALL));
    assert_int_equal(k2[2], 0);
    assert_int_equal(xq_notation_variants_keys(&r, two, 0, XQ_VARIANTS_ALL, NULL), XQ_OK);
    assert_int_equal(xq_notation_variants_keys(NULL, two, 3, XQ_VARIANTS_ALL, k2), XQ_EINVAL);
    assert_int_equal(xq_notation_variants_keys(&r, NULL, 3, XQ_VARIANTS_ALL, k2), XQ_EINVAL);
    assert_int_equal(xq_notation_variants_keys(&r, two, 3, XQ_VARIANTS_ALL, NULL), XQ_EINVAL);
    vkey_corpus(XQ_VARIANTS_ALL);
    vkey_corpus(XQ_VARIANTS_CHINESE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_ccpd_iccs),
        cmocka_unit_test(test_ccpd_traditional_text),
        cmocka_unit_test(test_wukong),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_variants_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

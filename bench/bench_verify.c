/* bench_verify.c - figures of the verifier (issue 5 "must show"), on
 * synthetic sheets made from corpus games by the TEST-ONLY cell source of
 * tests/data/verify/synth_source.h (writing styles printed / kai /
 * handwriting as glyph-noise levels; injected blanks, skipped and illegal
 * moves), plus typed-record throughput (issue 3).
 *
 * Env: XQ_BENCH_GAMES (games per style, default 60), XQ_BENCH_SKIP (first
 * corpus line, default 200: away from the lines the unit tests use),
 * XQ_BENCH_SPELL (corpus games of the spelling figure, default 40) and
 * XQ_BENCH_ONLY=spell (that figure alone), =stress (dense blank, skipped
 * and illegal records: a kai row, a printed row whose skips move the
 * record back a cell, and clean sheets with 2-5 blank cells and one skip
 * each; the silent-error check), =blankskip (the last of those alone;
 * XQ_BENCH_LINE=N: only its sheet of corpus line N) or
 * =printed, =kai, =handwriting, =events, =pair (that row alone);
 * XQ_BENCH_SHEETS=1 also writes one line per sheet on stderr (its corpus
 * line, seed and moves right: which sheets a change moved), after a line
 * per ply reported sure and wrong;
 * XQ_BENCH_BEAM=N decodes with a beam of N prefixes instead of the default.
 * Every figure is printed on its own line "verify <what>: <value>". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/data/verify/synth_source.h"
#include "xqscan/xq_game.h"
#include "xqscan/xq_verify.h"

#define JSONL XQ_CORPUS_DIR "/ccpd-dev.iccs.jsonl"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    long plies, right, review, silent, sheets;
    double secs;
    /* confidence calibration: 10 bins of (count, right) */
    long cal_n[10], cal_r[10];
    /* events */
    long blank, blank_right, blank_silent;
    long skip, skip_found;
    long illegal, illegal_found, illegal_flagged, illegal_doubtful;
    long illegal_false;  /* status illegal where none was injected */
    long count_exact, thr_right;
    /* plies flagged for review by status (XQ_PLY_*): count, right */
    long flag_n[8], flag_r[8];
} tally;

static void score_game(const xq_game *game, const sy_game *g, const sy_sheet *s,
                       tally *t)
{
    int p, q, unrec = 0, truth_unrec;
    for (p = 0; p < g->n; p++) {
        const xq_ply *y = p < (int)game->nplies ? &game->plies[p] : NULL;
        int ok = y && y->mv == g->mv[p];
        int bin;
        t->plies++;
        t->right += ok;
        if (y && y->review) {
            t->review++;
            if ((int)y->status >= 0 && (int)y->status < 8) {
                t->flag_n[y->status]++;
                t->flag_r[y->status] += ok;
            }
        }
        if (getenv("XQ_BENCH_DUMP") && y && !ok) {   /* each wrong ply */
            char tr[8];
            xq_move_to_iccs(g->mv[p], tr);
            fprintf(stderr, "wrong ply %d: truth %s, decoded %s (%s, status "
                    "%d, conf %.4f)\n", p + 1, tr, y->iccs,
                    y->read ? y->read : "", (int)y->status, y->confidence);
        }
        if (y && !y->review && !ok) {
            t->silent++;
            if (getenv("XQ_BENCH_SHEETS"))   /* its sheet's line follows */
                fprintf(stderr, "silent ply %d: %s, conf %.4f\n", p + 1,
                        y->iccs, y->confidence);
        }
        if (y) {
            bin = (int)(y->confidence * 10);
            if (bin > 9)
                bin = 9;
            if (bin < 0)
                bin = 0;
            t->cal_n[bin]++;
            t->cal_r[bin] += ok;
        }
        if (!s)
            continue;
        switch (s->event[p]) {
        case SY_EV_BLANK:
            t->blank++;
            t->blank_right += ok;
            t->blank_silent += y && !y->review && !ok;
            break;
        case SY_EV_SKIP:
            t->skip++;
            for (q = p; q < g->n && q <= p + 6 && q < (int)game->nplies; q += 2)
                if (game->plies[q].status == XQ_PLY_MISSING &&
                    !game->plies[q].has_cell && xq_game_find_finding(game, "skipped_move", q + 1)) {
                    t->skip_found++;
                    break;
                }
            break;
        case SY_EV_ILLEGAL:
            t->illegal++;
            if (y && y->status == XQ_PLY_ILLEGAL && xq_game_find_finding(game, "illegal_move", p + 1))
                t->illegal_found++;
            if (y && y->review)
                t->illegal_flagged++;
            if (y && xq_game_find_finding(game, "doubtful_illegal_move", p + 1))
                t->illegal_doubtful++;
            break;
        default:
            break;
        }
        if (y && y->status == XQ_PLY_ILLEGAL && s->event[p] != SY_EV_ILLEGAL)
            t->illegal_false++;
    }
    if (!s)
        return;
    for (p = 0; p < (int)game->nplies; p++)
        unrec += game->plies[p].status == XQ_PLY_MISSING ||
                 game->plies[p].status == XQ_PLY_UNREADABLE;
    truth_unrec = s->unrecorded[0] + s->unrecorded[1];
    t->count_exact += unrec == truth_unrec;
    t->thr_right += (game->unrecorded.exceeded != 0) == (truth_unrec >= 16);
}

static void print_tally(const char *name, const tally *t)
{
    int b;
    printf("verify %s sheets: %ld, plies: %ld\n", name, t->sheets, t->plies);
    printf("verify %s moves right: %.3f%%\n", name, 100.0 * t->right / (t->plies ? t->plies : 1));
    printf("verify %s flagged for review: %.3f%%\n", name, 100.0 * t->review / (t->plies ? t->plies : 1));
    printf("verify %s silent errors: %ld (%.2f per 2000 plies)\n", name, t->silent,
           2000.0 * t->silent / (t->plies ? t->plies : 1));
    printf("verify %s flagged by status (plies, share right):", name);
    for (b = 0; b < 8; b++)
        if (t->flag_n[b])
            printf(" [%s: %ld, %.3f]", xq_ply_status_name((xq_ply_status)b), t->flag_n[b],
                   (double)t->flag_r[b] / t->flag_n[b]);
    printf("\n");
    printf("verify %s time per sheet: %.1f ms\n", name, 1000.0 * t->secs / (t->sheets ? t->sheets : 1));
    printf("verify %s calibration (confidence bin: plies, share right):", name);
    for (b = 0; b < 10; b++)
        if (t->cal_n[b])
            printf(" [%.1f-%.1f: %ld, %.3f]", b / 10.0, (b + 1) / 10.0, t->cal_n[b],
                   (double)t->cal_r[b] / t->cal_n[b]);
    printf("\n");
    if (t->blank)
        printf("verify %s blank cells reconstructed right: %ld/%ld (%.1f%%), silent %ld\n",
               name, t->blank_right, t->blank, 100.0 * t->blank_right / t->blank, t->blank_silent);
    if (t->skip)
        printf("verify %s skipped moves found: %ld/%ld (%.1f%%)\n", name, t->skip_found,
               t->skip, 100.0 * t->skip_found / t->skip);
    if (t->illegal)
        printf("verify %s injected illegal moves found (status illegal): %ld/%ld (%.1f%%), "
               "flagged for review: %ld/%ld\n", name, t->illegal_found, t->illegal,
               100.0 * t->illegal_found / t->illegal, t->illegal_flagged, t->illegal);
    if (t->illegal)
        printf("verify %s injected illegal moves reported doubtful (another history makes "
               "them legal): %ld/%ld; illegal status where none was injected: %ld\n", name,
               t->illegal_doubtful, t->illegal, t->illegal_false);
    if (t->blank || t->skip || t->illegal)
        printf("verify %s unrecorded count exact: %ld/%ld sheets; threshold verdict right: %ld/%ld\n",
               name, t->count_exact, t->sheets, t->thr_right, t->sheets);
}

/* right: the moves right score_game counted for this sheet */
static void sheet_line(const char *name, bool pair, int line, uint64_t seed,
                       long right, const sy_game *g)
{
    if (getenv("XQ_BENCH_SHEETS"))
        fprintf(stderr, "verify %s%s sheet (corpus line %d, seed %llu): "
                "%ld/%d moves right\n", name, pair ? " pair" : "", line,
                (unsigned long long)seed, right, g->n);
}

/* The corpus past its first skip lines, and a game to read into; false
 * (with a line saying so) when either cannot be had. */
static bool open_corpus(const char *name, int skip, FILE **pf, sy_game **pg)
{
    static char line[1 << 16];
    int i;
    *pf = fopen(JSONL, "r");
    *pg = malloc(sizeof **pg);
    if (!*pf || !*pg) {
        printf("verify %s: corpus not found (%s)\n", name, JSONL);
        free(*pg);
        if (*pf)
            fclose(*pf);
        return false;
    }
    for (i = 0; i < skip && fgets(line, sizeof line, *pf); i++)
        ;
    return true;
}

static void run_style(const char *name, const sy_style *st, int ngames, int skip,
                      int pair)
{
    FILE *f;
    sy_game *g;
    tally t, t0, t1;
    int i;
    memset(&t, 0, sizeof t);
    memset(&t0, 0, sizeof t0);
    memset(&t1, 0, sizeof t1);
    if (!open_corpus(name, skip, &f, &g))
        return;
    for (i = 0; i < ngames && sy_read_game(f, g) == 0; i++) {
        xq_board b;
        char err[64];
        sy_sheet s, s2;
        xq_cell_source src, src2;
        xq_game *game = NULL, *ga = NULL, *gb = NULL;
        xq_verify_options o;
        double t_0;
        long right0;
        if (g->n < 10)
            continue;
        xq_board_from_fen(&b, g->fen, err, sizeof err);
        if (sy_sheet_make(&s, &b, g->mv, g->n, st, 1000 + (uint64_t)i))
            continue;
        sy_source(&s, &src);
        xq_verify_options_init(&o);
        o.start_fen = g->fen;
        if (getenv("XQ_BENCH_BEAM"))   /* a beam other than the default */
            o.beam = atoi(getenv("XQ_BENCH_BEAM"));
        if (pair) {
            const xq_cell_source *two[2];
            if (sy_sheet_make(&s2, &b, g->mv, g->n, st, 5000 + (uint64_t)i)) {
                sy_sheet_free(&s);
                continue;
            }
            sy_source(&s2, &src2);
            two[0] = &src;
            two[1] = &src2;
            xq_game_create(&game);
            xq_game_create(&ga);
            xq_game_create(&gb);
            t_0 = now();
            xq_verify_pair(two, &o, game, NULL, NULL);
            t.secs += now() - t_0;
            t.sheets++;
            right0 = t.right;
            score_game(game, g, NULL, &t);
            sheet_line(name, true, skip + 1 + i, 1000 + (uint64_t)i,
                       t.right - right0, g);
            t_0 = now();
            xq_verify_sheet(&src, &o, ga);
            xq_verify_sheet(&src2, &o, gb);
            t0.secs += now() - t_0;
            t0.sheets += 2;
            score_game(ga, g, NULL, &t0);
            score_game(gb, g, NULL, &t0);
            xq_game_destroy(&ga);
            xq_game_destroy(&gb);
            sy_sheet_free(&s2);
        } else {
            xq_game_create(&game);
            t_0 = now();
            xq_verify_sheet(&src, &o, game);
            t.secs += now() - t_0;
            t.sheets++;
            right0 = t.right;
            score_game(game, g, &s, &t);
            sheet_line(name, false, skip + 1 + i, 1000 + (uint64_t)i,
                       t.right - right0, g);
        }
        xq_game_destroy(&game);
        sy_sheet_free(&s);
    }
    if (pair) {
        char n2[96];
        snprintf(n2, sizeof n2, "%s pair", name);
        print_tally(n2, &t);
        snprintf(n2, sizeof n2, "%s single sheets of the pairs", name);
        print_tally(n2, &t0);
    } else {
        print_tally(name, &t);
    }
    (void)t1;
    free(g);
    fclose(f);
}

/* Clean sheets (every record reads exactly as written: a wrong alignment
 * or a wrong board reads well too) with 2 to 5 blank cells and one
 * skipped move each, at random plies. */
static void run_blank_skip(const char *name, int ngames, int skip)
{
    static const sy_style clean = { "clean", 0, 0, 0, 0, 0, 0, 0, 0 };
    FILE *f;
    sy_game *g;
    uint64_t rng = 12345;
    tally t;
    int i, k;
    memset(&t, 0, sizeof t);
    if (!open_corpus(name, skip, &f, &g))
        return;
    for (i = 0; i < ngames && sy_read_game(f, g) == 0; i++) {
        xq_board b;
        char err[64];
        sy_sheet s;
        xq_cell_source src;
        xq_game *game = NULL;
        xq_verify_options o;
        int blanks[5], nb, sk, stream;
        long right0;
        double t_0;
        if (g->n < 40)
            continue;
        nb = 2 + (int)(sy_next(&rng) % 4);
        sk = 4 + (int)(sy_next(&rng) % (uint64_t)(g->n - 10));
        stream = (int)(sy_next(&rng) % 2);
        for (k = 0; k < nb; k++) {
            blanks[k] = 3 + (int)(sy_next(&rng) % (uint64_t)(g->n - 6));
            if (blanks[k] == sk)
                blanks[k]--;
        }
        if (getenv("XQ_BENCH_LINE") && atoi(getenv("XQ_BENCH_LINE")) != skip + 1 + i)
            continue;   /* one sheet alone (the draws above still made) */
        if (getenv("XQ_BENCH_LINE")) {   /* its edits, to make it again */
            fprintf(stderr, "line %d seed %d: blank cells of plies", skip + 1 + i,
                    11 + i);
            for (k = 0; k < nb; k++)
                fprintf(stderr, " %d", blanks[k]);
            fprintf(stderr, ", ply %d skipped, stream %d\n", sk, stream);
        }
        xq_board_from_fen(&b, g->fen, err, sizeof err);
        if (sy_sheet_make(&s, &b, g->mv, g->n, &clean, 11 + (uint64_t)i))
            continue;
        sy_blank_and_skip(&s, blanks, nb, sk, stream);
        sy_source(&s, &src);
        xq_verify_options_init(&o);
        o.start_fen = g->fen;
        if (getenv("XQ_BENCH_BEAM"))
            o.beam = atoi(getenv("XQ_BENCH_BEAM"));
        xq_game_create(&game);
        t_0 = now();
        xq_verify_sheet(&src, &o, game);
        t.secs += now() - t_0;
        t.sheets++;
        right0 = t.right;
        score_game(game, g, NULL, &t);   /* events: not the sheet's own */
        sheet_line(name, false, skip + 1 + i, 11 + (uint64_t)i,
                   t.right - right0, g);
        xq_game_destroy(&game);
        sy_sheet_free(&s);
    }
    print_tally(name, &t);
    free(g);
    fclose(f);
}

/* Typed records: every corpus game's ICCS moves through xq_verify_typed. */
static void run_typed(int ngames)
{
    FILE *f = fopen(JSONL, "r");
    sy_game *g = malloc(sizeof *g);
    long plies = 0, games = 0, bad = 0;
    double secs = 0;
    if (!f || !g) {
        free(g);
        if (f)
            fclose(f);
        return;
    }
    while ((ngames <= 0 || games < ngames) && sy_read_game(f, g) == 0) {
        char txt[SY_MAXPLY][8];
        const char *mv[SY_MAXPLY];
        xq_game *game = NULL;
        xq_verify_options o;
        double t0;
        int i;
        for (i = 0; i < g->n; i++) {
            xq_move_to_iccs(g->mv[i], txt[i]);
            mv[i] = txt[i];
        }
        xq_verify_options_init(&o);
        o.start_fen = g->fen;
        xq_game_create(&game);
        t0 = now();
        if (xq_verify_typed(mv, (size_t)g->n, &o, game) != XQ_OK)
            bad++;
        secs += now() - t0;
        plies += g->n;
        games++;
        xq_game_destroy(&game);
    }
    printf("verify typed records: %ld games, %ld plies, %.3f s (%.3f s per 100,000 plies), %ld failed\n",
           games, plies, secs, secs * 100000.0 / (plies ? plies : 1), bad);
    free(g);
    fclose(f);
}

/* FNV-1a over n bytes. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    while (n--)
        h = (h ^ *c++) * 0x100000001B3ull;
    return h;
}

/* The verifier's spelling of moves: every legal move of every position of
 * ngames corpus games through xq_notation_variants_array (64 kept, as the
 * decoder does), timed per call; the checksum of every text, kind, prior
 * and flag shows whether two builds spell alike. CPU time, so a loaded
 * machine inflates it less than wall time. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void run_spell(int ngames, unsigned kinds, const char *name)
{
    FILE *f = fopen(JSONL, "r");
    sy_game *g = malloc(sizeof *g);
    xq_notation_variant *v = malloc(XQ_MAX_MOVES * 64 * sizeof *v);
    size_t cnt[XQ_MAX_MOVES];
    xq_status st[XQ_MAX_MOVES];
    uint64_t sum = 0xCBF29CE484222325ull;
    long calls = 0, nvar = 0, games = 0;
    double secs = 0;
    if (!f || !g || !v) {
        free(g);
        free(v);
        if (f)
            fclose(f);
        return;
    }
    while (games < ngames && sy_read_game(f, g) == 0) {
        xq_board b;
        char err[64];
        int p;
        if (xq_board_from_fen(&b, g->fen, err, sizeof err) != XQ_OK)
            continue;
        games++;
        for (p = 0; p < g->n; p++) {
            xq_move mvs[XQ_MAX_MOVES];
            int n = xq_board_legal_moves(&b, mvs), i;
            double t0 = cpu_now();
            for (i = 0; i < n; i++)
                st[i] = xq_notation_variants_array(&b, mvs[i], kinds, v + 64 * i,
                                                   64, &cnt[i]);
            secs += cpu_now() - t0;
            calls += n;
            for (i = 0; i < n; i++) {
                const xq_notation_variant *w = v + 64 * i;
                size_t j;
                nvar += (long)cnt[i];
                sum = fnv(sum, &st[i], sizeof st[i]);
                sum = fnv(sum, &cnt[i], sizeof cnt[i]);
                for (j = 0; j < cnt[i]; j++) {
                    sum = fnv(sum, w[j].text, strlen(w[j].text) + 1);
                    sum = fnv(sum, &w[j].kind, sizeof w[j].kind);
                    sum = fnv(sum, &w[j].prior, sizeof w[j].prior);
                    sum = fnv(sum, &w[j].flags, sizeof w[j].flags);
                }
            }
            if (!xq_board_make_move(&b, g->mv[p], NULL))
                break;
        }
    }
    printf("verify spellings %s: %ld games, %ld calls, %.2f variants per call, "
           "%.3f us CPU per call, checksum %016llx\n", name, games, calls,
           (double)nvar / (calls ? calls : 1), 1e6 * secs / (calls ? calls : 1),
           (unsigned long long)sum);
    free(v);
    free(g);
    fclose(f);
}

int main(void)
{
    int n = getenv("XQ_BENCH_GAMES") ? atoi(getenv("XQ_BENCH_GAMES")) : 60;
    int skip = getenv("XQ_BENCH_SKIP") ? atoi(getenv("XQ_BENCH_SKIP")) : 200;
    int nspell = getenv("XQ_BENCH_SPELL") ? atoi(getenv("XQ_BENCH_SPELL")) : 40;
    const char *only = getenv("XQ_BENCH_ONLY");
    sy_style ev = SY_KAI;
    run_spell(nspell, XQ_VARIANTS_CHINESE, "chinese");
    run_spell(nspell, XQ_VARIANTS_ALL, "all kinds");
    if (only && !strcmp(only, "spell"))
        return 0;
    printf("verify: synthetic sheets (TEST-ONLY source, tests/data/verify/synth_source.h), "
           "%d corpus games per style from line %d\n", n, skip + 1);
    if (only && !strcmp(only, "stress")) {
        /* events far denser than a real sheet's: where a skipped move
         * hides beside blank cells and illegal records, is the verifier
         * still never sure of a wrong move? */
        ev.name = "kai+stress";
        ev.p_blank = 0.04;
        ev.p_skip = 0.02;
        ev.p_illeg = 0.03;
        run_style("kai+stress (4% blank, 2% skipped, 3% illegal)", &ev, n, skip, 0);
        /* printed (every record reads cleanly: wrong alignments read
         * well too), a skipped move moving the whole record back a cell
         * (the columns change sides) */
        ev = SY_PRINTED;
        ev.name = "printed+stress";
        ev.p_blank = 0.04;
        ev.p_skip = 0.02;
        ev.stream = 1;
        run_style("printed+stress (4% blank, 2% skipped, record moved back)", &ev,
                  n, skip, 0);
        run_blank_skip("clean+blanks+skip (2-5 blank cells, 1 skipped move)",
                       2 * n, skip);
        return 0;
    }
    if (only && !strcmp(only, "blankskip")) {
        run_blank_skip("clean+blanks+skip (2-5 blank cells, 1 skipped move)",
                       2 * n, skip);
        return 0;
    }
    /* XQ_BENCH_ONLY=printed|kai|handwriting|events|pair: that row alone */
#define ROW(r) (!only || !strcmp(only, r))
    if (ROW("printed"))
        run_style("printed", &SY_PRINTED, n, skip, 0);
    if (ROW("kai"))
        run_style("kai", &SY_KAI, n, skip, 0);
    if (ROW("handwriting"))
        run_style("handwriting", &SY_HAND, n, skip, 0);
    ev.name = "kai+events";
    ev.p_blank = 0.02;
    ev.p_skip = 0.004;
    ev.p_illeg = 0.01;
    if (ROW("events"))
        run_style("kai+events (2% blank, 0.4% skipped, 1% illegal)", &ev, n, skip + n, 0);
    if (ROW("pair"))
        run_style("handwriting", &SY_HAND, n / 2, skip + 2 * n, 1);
    if (!only)
        run_typed(0);
    return 0;
}

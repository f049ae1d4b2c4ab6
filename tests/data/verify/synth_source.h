/* synth_source.h - TEST-ONLY synthetic scoresheets for the verifier.
 *
 * NOT the main path: the product reads OCR'd sheets (xq_ocr.h) through
 * xq_verify_source_from_sheet. This file builds a scoresheet from a real
 * game's moves the way a player would write it (a spelling of each move
 * among the notation enumerator's plausible ones), perturbs the written
 * text with OCR-like noise (confusable glyph substitutions 平→二 进→六
 * 七→二 三↔二 ３→8 ..., dropped and stray glyphs), and can inject blank
 * cells, moves skipped without a cell (the column continues one move out
 * of step) and illegal moves. Its score() is a noisy-channel per-glyph
 * edit model (Viterbi log-probability of the reading given a candidate)
 * whose parameters deliberately differ from the generator's.
 *
 * Header-only (static functions) so that tests/test_verify_*.c and
 * bench/bench_verify.c can share it. Needs xq_board.h, xq_notation.h,
 * xq_verify.h and core/utf8.h.
 */
#ifndef XQ_TEST_SYNTH_SOURCE_H
#define XQ_TEST_SYNTH_SOURCE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../jsonl_field.h"
#include "utf8.h"
#include "xqscan/xq_board.h"
#include "xqscan/xq_notation.h"
#include "xqscan/xq_verify.h"

#define SY_MAXCP 16
#define SY_MAXPLY 600

typedef struct {
    const char *name;
    double p_sub;     /* per glyph substitution */
    double p_drop;    /* per glyph dropped */
    double p_ins;     /* per cell a stray glyph */
    double p_blank;   /* per cell left blank by the writer */
    double p_illeg;   /* per cell an illegal move written instead */
    double p_skip;    /* per ply skipped without a cell */
    double p_smudge;  /* per cell illegible (most glyphs replaced) */
    int    stream;    /* 1: a skipped ply moves the whole record back one
                         cell (the next move is written in its cell, the
                         columns change sides); 0: only its column moves */
} sy_style;

static const sy_style SY_PRINTED = { "printed", 0.004, 0.002, 0.002, 0, 0, 0, 0, 0 };
static const sy_style SY_KAI     = { "kai", 0.02, 0.008, 0.005, 0, 0, 0, 0, 0 };
static const sy_style SY_HAND    = { "handwriting", 0.06, 0.02, 0.01, 0, 0, 0, 0, 0 };

/* ---- a tiny deterministic RNG ---- */
static uint64_t sy_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double sy_unif(uint64_t *s)
{
    return (double)(sy_next(s) >> 11) / 9007199254740992.0;
}

/* ---- glyphs ---- */
static const char *const SY_ALPHABET[] = {
    "车", "車", "俥", "马", "馬", "傌", "炮", "砲", "包", "相", "象", "仕", "士",
    "帅", "帥", "将", "將", "兵", "卒", "进", "進", "退", "平", "前", "后", "後",
    "中", "一", "二", "三", "四", "五", "六", "七", "八", "九", "１", "２", "３",
    "４", "５", "６", "７", "８", "９", "1", "2", "3", "4", "5", "6", "7", "8",
    "9", "工", "十", "口", "人"
};
#define SY_NALPHA (sizeof SY_ALPHABET / sizeof SY_ALPHABET[0])

/* Confusions seen with Tesseract on move cells (OCR-NOTES.md) and their
 * mirror images; each pair a -> b. */
static const char *const SY_CONFUSE[][2] = {
    { "平", "二" }, { "进", "六" }, { "進", "六" }, { "卒", "六" }, { "七", "二" },
    { "士", "二" }, { "二", "三" }, { "三", "二" }, { "二", "一" }, { "一", "二" },
    { "３", "8" }, { "３", "８" }, { "１", "工" }, { "１", "1" }, { "８", "3" },
    { "六", "大" }, { "九", "几" }, { "后", "后" }, { "後", "很" }, { "车", "东" },
    { "马", "乌" }, { "五", "王" }, { "四", "匹" }, { "相", "柑" }, { "炮", "泡" },
    { "兵", "共" }, { "八", "人" }, { "退", "退" }, { "６", "5" }, { "５", "6" },
    { "9", "8" }, { "8", "3" }, { "1", "7" }, { "7", "1" }, { "仕", "任" }
};
#define SY_NCONF (sizeof SY_CONFUSE / sizeof SY_CONFUSE[0])

static uint32_t sy_cp(const char *s)
{
    uint32_t cp = 0;
    xq_utf8_decode(s, strlen(s), &cp);
    return cp;
}

static int sy_cps(const char *s, uint32_t *out)
{
    size_t len = strlen(s), i = 0;
    int n = 0;
    while (i < len && n < SY_MAXCP) {
        uint32_t cp;
        size_t k = xq_utf8_decode(s + i, len - i, &cp);
        if (!k)
            break;
        i += k;
        if (cp == ' ')
            continue;
        out[n++] = cp;
    }
    return n;
}

/* Code points of SY_CONFUSE, decoded once (test code: a lazily filled
 * static table is fine here, unlike in the library). */
static uint32_t sy_conf_cp[SY_NCONF][2];
static uint32_t sy_alpha_cp[SY_NALPHA];
static void sy_init_tables(void)
{
    static int done;
    size_t i;
    if (done)
        return;
    for (i = 0; i < SY_NCONF; i++) {
        sy_conf_cp[i][0] = sy_cp(SY_CONFUSE[i][0]);
        sy_conf_cp[i][1] = sy_cp(SY_CONFUSE[i][1]);
    }
    for (i = 0; i < SY_NALPHA; i++)
        sy_alpha_cp[i] = sy_cp(SY_ALPHABET[i]);
    done = 1;
}

static int sy_confusable(uint32_t a, uint32_t b)
{
    size_t i;
    for (i = 0; i < SY_NCONF; i++)
        if (sy_conf_cp[i][0] == a && sy_conf_cp[i][1] == b)
            return 1;
    return 0;
}

/* Log P(reading | written) under a per-glyph edit channel (Viterbi). */
static double sy_channel(const uint32_t *w, int nw, const uint32_t *r, int nr,
                         double p_sub, double p_drop, double p_ins)
{
    double d[SY_MAXCP + 1][SY_MAXCP + 1];
    double lm = log(1 - p_sub - p_drop), ld = log(p_drop);
    double lsc = log(p_sub * 0.5), lso = log(p_sub * 0.5 / 60.0);
    double li = log(p_ins / 60.0);
    int i, j;
    for (i = 0; i <= nw; i++)
        for (j = 0; j <= nr; j++) {
            double best = -1e30, v;
            if (i == 0 && j == 0) {
                d[0][0] = 0;
                continue;
            }
            if (i > 0 && j > 0) {
                if (w[i - 1] == r[j - 1])
                    v = d[i - 1][j - 1] + lm;
                else
                    v = d[i - 1][j - 1] +
                        (sy_confusable(w[i - 1], r[j - 1]) ? lsc : lso);
                if (v > best)
                    best = v;
            }
            if (i > 0 && (v = d[i - 1][j] + ld) > best)
                best = v;
            if (j > 0 && (v = d[i][j - 1] + li) > best)
                best = v;
            d[i][j] = best;
        }
    return d[nw][nr];
}

static void sy_perturb(const char *in, const sy_style *st, uint64_t *rng,
                       char *out, size_t outlen)
{
    uint32_t w[SY_MAXCP];
    int n = sy_cps(in, w), i;
    size_t o = 0;
    char tmp[8];
    bool smudge = sy_unif(rng) < st->p_smudge;
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        double u = sy_unif(rng);
        uint32_t cp = w[i];
        size_t k;
        if (smudge && sy_unif(rng) < 0.8)
            cp = sy_alpha_cp[sy_next(rng) % SY_NALPHA];
        else if (u < st->p_drop)
            continue;
        else if (u < st->p_drop + st->p_sub) {
            /* half the time a known confusion, else any glyph */
            size_t c, cands[SY_NCONF], nc = 0;
            for (c = 0; c < SY_NCONF; c++)
                if (sy_conf_cp[c][0] == cp)
                    cands[nc++] = c;
            if (nc && sy_unif(rng) < 0.6)
                cp = sy_conf_cp[cands[sy_next(rng) % nc]][1];
            else
                cp = sy_alpha_cp[sy_next(rng) % SY_NALPHA];
        }
        k = xq_utf8_encode(cp, tmp);
        if (o + k + 1 < outlen) {
            memcpy(out + o, tmp, k);
            o += k;
            out[o] = '\0';
        }
    }
    if (sy_unif(rng) < st->p_ins) {
        size_t k = xq_utf8_encode(sy_cp(SY_ALPHABET[sy_next(rng) % SY_NALPHA]), tmp);
        if (o + k + 1 < outlen) {
            memcpy(out + o, tmp, k);
            o += k;
            out[o] = '\0';
        }
    }
}

/* ---- a synthetic sheet ---- */

enum { SY_EV_NONE = 0, SY_EV_BLANK, SY_EV_SKIP, SY_EV_ILLEGAL, SY_EV_SMUDGE };

typedef struct {
    size_t  ncells;
    char  **written;      /* what the writer wrote ("" blank) */
    char  **text;         /* the noisy reading */
    /* truth */
    int     nplies;
    xq_move truth[SY_MAXPLY];
    int     event[SY_MAXPLY];   /* SY_EV_* per ply */
    int     cell_of[SY_MAXPLY]; /* cell of each ply, -1 skipped */
    int     unrecorded[2];      /* per side: blank + skipped + smudged */
    /* scorer parameters (deliberately not the generator's) */
    double  s_sub, s_drop, s_ins;
} sy_sheet;

static void sy_sheet_free(sy_sheet *s)
{
    size_t i;
    if (!s)
        return;
    for (i = 0; i < s->ncells; i++) {
        free(s->written[i]);
        free(s->text[i]);
    }
    free(s->written);
    free(s->text);
    memset(s, 0, sizeof *s);
}

/* An illegal text near the written one: another last glyph / file. */
static int sy_illegal_text(xq_board *b, const char *written, char *out,
                           size_t outlen, uint64_t *rng)
{
    static const char *const red[] = { "一", "二", "三", "四", "五", "六", "七", "八", "九" };
    static const char *const blk[] = { "１", "２", "３", "４", "５", "６", "７", "８", "９" };
    uint32_t w[SY_MAXCP];
    int n = sy_cps(written, w), tries, pos;
    const char *const *dig = xq_board_side(b) == XQ_RED ? red : blk;
    if (n < 4)
        return 0;
    for (tries = 0; tries < 40; tries++) {
        char buf[64], tmp[8];
        size_t o = 0;
        int i;
        xq_resolution r;
        pos = (sy_next(rng) % 2) ? n - 1 : 1;   /* target or file */
        for (i = 0; i < n; i++) {
            const char *g;
            size_t k;
            if (i == pos) {
                g = dig[sy_next(rng) % 9];
                memcpy(buf + o, g, strlen(g));
                o += strlen(g);
                continue;
            }
            k = xq_utf8_encode(w[i], tmp);
            memcpy(buf + o, tmp, k);
            o += k;
        }
        buf[o] = '\0';
        if (xq_notation_read(b, buf, 0, &r) != XQ_OK)
            continue;
        if (r.code == XQ_RES_OK || r.code == XQ_RES_UNPARSEABLE ||
            r.code == XQ_RES_AMBIGUOUS)
            continue;
        snprintf(out, outlen, "%s", buf);
        return 1;
    }
    return 0;
}

/* Pick how the writer writes mv: a plausible Chinese spelling. */
static void sy_spelling(xq_board *b, xq_move mv, uint64_t *rng, int trad,
                        char *out, size_t outlen)
{
    xq_notation_variant v[48];
    size_t n = 0, i, pick = 0;
    double tot = 0, u;
    out[0] = '\0';
    if (xq_notation_variants_array(b, mv, XQ_VARIANTS_CHINESE, v, 48, &n) != XQ_OK
        || n == 0) {
        xq_notation_write(b, mv, XQ_NOTATION_CHINESE, out, outlen);
        return;
    }
    for (i = 0; i < n; i++)
        tot += v[i].prior * v[i].prior;
    u = sy_unif(rng) * tot;
    for (i = 0; i < n; i++) {
        u -= v[i].prior * v[i].prior;
        if (u <= 0) {
            pick = i;
            break;
        }
    }
    if (trad >= 0) {
        xq_notation_kind want = trad ? XQ_NOTATION_TRADITIONAL : XQ_NOTATION_CHINESE;
        char buf[XQ_NOTATION_MAX];
        if (sy_unif(rng) < 0.8 &&
            xq_notation_write(b, mv, want, buf, sizeof buf) == XQ_OK) {
            snprintf(out, outlen, "%s", buf);
            return;
        }
    }
    snprintf(out, outlen, "%s", v[pick].text);
}

/* Build a sheet from moves (legal from start). Returns 0 on success. */
static int sy_sheet_make(sy_sheet *s, const xq_board *start, const xq_move *mv,
                         int nmv, const sy_style *st, uint64_t seed)
{
    xq_board b = *start;
    uint64_t rng = seed;
    int p, col, rows[2] = { 0, 0 }, shift = 0;
    int bf = xq_board_side(start) == XQ_BLACK;
    char *wr[2][SY_MAXPLY];
    int trad = (int)(sy_next(&rng) % 3) - 1;   /* -1 mixed, 0 simp, 1 trad */
    size_t i;
    sy_init_tables();
    memset(s, 0, sizeof *s);
    memset(wr, 0, sizeof wr);
    if (nmv > SY_MAXPLY - 2)
        nmv = SY_MAXPLY - 2;
    /* the scorer's belief: 1.5x the true rates, never below 1% */
    s->s_sub = st->p_sub * 1.5 > 0.01 ? st->p_sub * 1.5 : 0.01;
    s->s_drop = st->p_drop * 1.5 > 0.01 ? st->p_drop * 1.5 : 0.01;
    s->s_ins = st->p_ins * 1.5 > 0.01 ? st->p_ins * 1.5 : 0.01;
    if (bf)
        wr[0][rows[0]++] = strdup("");   /* Red's first cell is empty */
    for (p = 0; p < nmv; p++) {
        char w[64];
        int side = xq_board_side(&b);
        double u = sy_unif(&rng);
        s->truth[p] = mv[p];
        s->event[p] = SY_EV_NONE;
        sy_spelling(&b, mv[p], &rng, trad, w, sizeof w);
        if (p > 1 && p < nmv - 2 && u < st->p_skip) {
            s->event[p] = SY_EV_SKIP;
            s->cell_of[p] = -1;
            s->unrecorded[side]++;
            shift++;
        } else {
            u = sy_unif(&rng);
            if (u < st->p_blank) {
                s->event[p] = SY_EV_BLANK;
                w[0] = '\0';
                s->unrecorded[side]++;
            } else if (u < st->p_blank + st->p_illeg) {
                char ill[64];
                if (sy_illegal_text(&b, w, ill, sizeof ill, &rng)) {
                    s->event[p] = SY_EV_ILLEGAL;
                    snprintf(w, sizeof w, "%s", ill);
                }
            } else if (u < st->p_blank + st->p_illeg + st->p_smudge) {
                s->event[p] = SY_EV_SMUDGE;
            }
            if (st->stream) {
                int idx = p + bf - shift, c = idx % 2;
                s->cell_of[p] = idx;
                wr[c][idx / 2] = strdup(w);
                if (idx / 2 + 1 > rows[c])
                    rows[c] = idx / 2 + 1;
            } else {
                s->cell_of[p] = 2 * rows[side] + side;
                wr[side][rows[side]++] = strdup(w);
            }
        }
        if (!xq_board_make_move(&b, mv[p], NULL))
            return -1;
    }
    s->nplies = nmv;
    {
        int nrows = rows[0] > rows[1] ? rows[0] : rows[1];
        s->ncells = (size_t)nrows * 2;
    }
    s->written = calloc(s->ncells ? s->ncells : 1, sizeof *s->written);
    s->text = calloc(s->ncells ? s->ncells : 1, sizeof *s->text);
    for (i = 0; i < s->ncells; i++) {
        char out[96];
        col = (int)(i % 2);
        s->written[i] = wr[col][i / 2] ? wr[col][i / 2] : strdup("");
        out[0] = '\0';
        if (s->written[i][0]) {
            sy_style one = *st;
            /* smudged cells: most glyphs replaced */
            int ply = -1, q;
            for (q = 0; q < nmv; q++)
                if (s->cell_of[q] == (int)i)
                    ply = q;
            one.p_smudge = (ply >= 0 && s->event[ply] == SY_EV_SMUDGE) ? 1.0 : 0.0;
            sy_perturb(s->written[i], &one, &rng, out, sizeof out);
            if (!out[0])   /* everything dropped: leave one stray glyph */
                snprintf(out, sizeof out, "%s", "口");
        }
        s->text[i] = strdup(out);
    }
    /* smudged cells count as unrecorded (illegible) */
    for (p = 0; p < nmv; p++)
        if (s->event[p] == SY_EV_SMUDGE)
            s->unrecorded[(p + bf) % 2]++;
    return 0;
}

/* Leave the cell of ply (1-based) of a sheet made without events blank. */
__attribute__((unused))
static void sy_blank_ply(sy_sheet *s, int ply)
{
    size_t c = (size_t)s->cell_of[ply - 1];
    free(s->written[c]);
    free(s->text[c]);
    s->written[c] = strdup("");
    s->text[c] = strdup("");
}

/* Blank the cells of plies blanks[0..nb) (1-based) of a sheet made without
 * events and leave ply skip out: its column moves up a row (stream 0) or
 * the whole record moves back a cell (stream 1). */
__attribute__((unused))
static void sy_blank_and_skip(sy_sheet *s, const int *blanks, int nb,
                              int skip, int stream)
{
    size_t j, c, st = stream ? 1 : 2;
    int i;
    for (i = 0; i < nb; i++)
        sy_blank_ply(s, blanks[i]);
    c = (size_t)s->cell_of[skip - 1];
    for (j = c; j < s->ncells; j += stream ? 1 : 2) {
        free(s->written[j]);
        free(s->text[j]);
        s->written[j] = strdup(j + st < s->ncells ? s->written[j + st] : "");
        s->text[j] = strdup(j + st < s->ncells ? s->text[j + st] : "");
    }
}

/* ---- the cell source ---- */
static int sy_is_blank(void *ud, size_t i)
{
    sy_sheet *s = ud;
    return !s->written[i][0];
}
static const char *sy_text(void *ud, size_t i)
{
    sy_sheet *s = ud;
    return s->text[i];
}
static double sy_score(void *ud, size_t i, const char *utf8)
{
    sy_sheet *s = ud;
    uint32_t w[SY_MAXCP], r[SY_MAXCP];
    int nw = sy_cps(utf8, w), nr = sy_cps(s->text[i], r);
    sy_init_tables();
    return sy_channel(w, nw, r, nr, s->s_sub, s->s_drop, s->s_ins);
}
static int sy_box(void *ud, size_t i, int *ppage, int box[4])
{
    (void)ud;
    *ppage = 0;
    box[0] = (int)(i % 2) * 200;
    box[1] = (int)(i / 2) * 40;
    box[2] = 200;
    box[3] = 40;
    return 1;
}
static void sy_source(sy_sheet *s, xq_cell_source *src)
{
    memset(src, 0, sizeof *src);
    src->ncells = s->ncells;
    src->ud = s;
    src->is_blank = sy_is_blank;
    src->text = sy_text;
    src->score = sy_score;
    src->box = sy_box;
}

/* ---- corpus games (ccpd-dev.iccs.jsonl: start_fen + iccs per line) ---- */
typedef struct {
    char    fen[128];
    xq_move mv[SY_MAXPLY];
    int     n;
    char    result[16];
} sy_game;

/* Read game number idx.. from the jsonl: fills g; 0 on success. */
static int sy_read_game(FILE *f, sy_game *g)
{
    static char line[1 << 16];
    char iccs[1 << 14];
    const char *p;
    xq_board b;
    char err[64];
    while (fgets(line, sizeof line, f)) {
        if (!json_str(line, "start_fen", g->fen, sizeof g->fen) ||
            !json_str(line, "iccs", iccs, sizeof iccs))
            continue;
        if (!json_str(line, "result", g->result, sizeof g->result))
            g->result[0] = '\0';
        if (xq_board_from_fen(&b, g->fen, err, sizeof err) != XQ_OK)
            continue;
        g->n = 0;
        for (p = iccs; *p && g->n < SY_MAXPLY - 2;) {
            char mvs[5];
            xq_move m;
            while (*p == ' ')
                p++;
            if (strlen(p) < 4)
                break;
            memcpy(mvs, p, 4);
            mvs[4] = '\0';
            p += 4;
            if (xq_move_from_iccs(mvs, &m) != XQ_OK || !xq_board_make_move(&b, m, NULL))
                break;
            g->mv[g->n++] = m;
        }
        return 0;
    }
    return -1;
}

/* Game on line `line` (1-based) of a jsonl file; 0 on success. */
__attribute__((unused))
static int sy_load_game(const char *path, int line, sy_game *g)
{
    FILE *f = fopen(path, "r");
    static char buf[1 << 16];
    int i, rc;
    if (!f)
        return -1;
    for (i = 1; i < line; i++)
        if (!fgets(buf, sizeof buf, f)) {
            fclose(f);
            return -1;
        }
    rc = sy_read_game(f, g);
    fclose(f);
    return rc;
}

#endif

/* typed.c - typed game records (`xqscan verify`): the same findings as a
 * scanned sheet. Every move is resolved on the board; when all resolve
 * (the common case) the record is filled directly. When one does not, the
 * record goes through the sheet decoder with a "typed cell" source: a
 * written text matches exactly the moves it spells and other moves by
 * glyph edit distance, so an illegal move is replaced by the legal move
 * nearest to it that keeps the rest of the record playable. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"
#include "verify_internal.h"
#include "xq_core.h"

#define TY_MAXCP 24
#define TY_PER_EDIT 3.0   /* nats per glyph edit between typed and spelled */

typedef struct {
    const char *const *moves;
    size_t nmoves;
    int    bf;             /* 1 when Black moved first: slot 0 is unused */
} typed_src;

/* Code points of s: half width, ASCII lower case, no spaces. */
static int norm_cps(const char *s, uint32_t *out)
{
    size_t len = strlen(s), i = 0;
    int n = 0;
    while (i < len && n < TY_MAXCP) {
        uint32_t cp;
        size_t k = xq_utf8_decode(s + i, len - i, &cp);
        if (!k)
            break;
        i += k;
        cp = xq_utf8_halfwidth(cp);
        if (cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n')
            continue;
        if (cp < 128)
            cp = (uint32_t)tolower((int)cp);
        out[n++] = cp;
    }
    return n;
}

static int edit_distance(const uint32_t *a, int na, const uint32_t *b, int nb)
{
    int d[TY_MAXCP + 1][TY_MAXCP + 1], i, j;
    for (i = 0; i <= na; i++)
        d[i][0] = i;
    for (j = 0; j <= nb; j++)
        d[0][j] = j;
    for (i = 1; i <= na; i++)
        for (j = 1; j <= nb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[na][nb];
}

static const char *ty_text(void *ud, size_t i)
{
    typed_src *t = ud;
    if (i < (size_t)t->bf || i - (size_t)t->bf >= t->nmoves)
        return "";
    return t->moves[i - (size_t)t->bf] ? t->moves[i - (size_t)t->bf] : "";
}

static int ty_blank(void *ud, size_t i)
{
    const char *s = ty_text(ud, i);
    uint32_t cps[TY_MAXCP];
    return norm_cps(s, cps) == 0;
}

static double ty_score(void *ud, size_t i, const char *utf8)
{
    uint32_t a[TY_MAXCP], b[TY_MAXCP];
    int na = norm_cps(ty_text(ud, i), a), nb = norm_cps(utf8, b);
    if (na == 0)
        return nb == 0 ? 0.0 : -1e3;
    return -TY_PER_EDIT * edit_distance(a, na, b, nb);
}

/* Play text on b (its move to *mv); false where it is no legal move. */
static bool play_one(xq_board *b, const char *text, xq_move *mv)
{
    xq_resolution r;
    if (!text || xq_notation_read(b, text, 0, &r) != XQ_OK ||
        r.code != XQ_RES_OK || !xq_board_make_move(b, r.mv, NULL))
        return false;
    *mv = r.mv;
    return true;
}

/* The moves of texts moves[0..n) played from b (out[i] when out is not
 * NULL); returns the index of the first text that is no legal move there
 * (n: all are). */
static size_t resolve_all(const char *const *moves, size_t n,
                          const xq_board *b, xq_move *out)
{
    xq_board t = *b;
    size_t i;
    xq_move mv;
    for (i = 0; i < n; i++) {
        if (!play_one(&t, moves[i], &mv))
            return i;
        if (out)
            out[i] = mv;
    }
    return n;
}

/* Would records a and a + 2 of moves[0..n) in each other's place make
 * every record a legal move (the game to alt)? sw: a copy of moves, as it
 * was again on return. Never for two records alike. */
static bool swap_plays(const char **sw, const char *const *moves, size_t n,
                       size_t a, const xq_board *start, xq_move *alt)
{
    bool ok;
    if (!moves[a] || !moves[a + 2] || !strcmp(moves[a], moves[a + 2]))
        return false;
    sw[a] = moves[a + 2];
    sw[a + 2] = moves[a];
    ok = resolve_all(sw, n, start, alt) == n;
    sw[a] = moves[a];
    sw[a + 2] = moves[a + 2];
    return ok;
}

/* Two moves of one side typed in each other's place (records i and i + 2)
 * are a slip no change of one record explains: the decoder reads one of
 * them as another move, or as illegal, and the other as typed, sure of
 * it and wrong (bench/bench_typed.sh: 8 of 17 such records had a ply
 * wrong and not under review). Where exchanging one such pair, anywhere
 * before the first record that is no legal move (a swap of two pawn
 * moves showed only 36 plies later, where 前兵 and 后兵 changed places),
 * makes every record a legal move, that game is as good an
 * explanation: every ply where it differs from the decoded game goes
 * under review (confidence at most one half) with its move as a
 * candidate, and a swapped_records warning names the pair. */
static xq_status doubt_swaps(const char *const *moves, size_t n,
                             const xq_board *start, xq_game *game)
{
    const char **sw = xq_malloc((n ? n : 1) * sizeof *sw);
    xq_move *alt = xq_malloc((n ? n : 1) * sizeof *alt);
    xq_status st = XQ_OK;
    size_t f, a, i;
    if (!sw || !alt) {
        xq_free(sw);
        xq_free(alt);
        return XQ_ENOMEM;
    }
    memcpy(sw, moves, n * sizeof *sw);
    f = resolve_all(moves, n, start, alt);
    for (a = 0; st == XQ_OK && a <= f && a + 2 < n; a++) {
        xq_board b = *start;
        bool any = false;
        if (swap_plays(sw, moves, n, a, start, alt)) {
            for (i = 0; i < game->nplies; i++) {
                xq_ply *q = &game->plies[i];
                if (i < n && q->mv != alt[i]) {
                    any = true;
                    q->review = true;
                    if (q->confidence > 0.5)
                        q->confidence = 0.5;
                    vs_add_candidate(q, &b, alt[i], 0.5, true);
                }
                if (q->mv == XQ_MOVE_NONE || !xq_board_make_move(&b, q->mv, NULL))
                    break;
            }
            if (any)
                st = xq_game_add_finding(game, (int)a + 1, XQ_SEV_WARNING,
                    "swapped_records", "WXF 7.7",
                    "plies %d and %d: \"%s\" and \"%s\" in each other's place "
                    "make every record a legal move: they may have been "
                    "written swapped (the plies where that game differs are "
                    "under review)", (int)a + 1, (int)a + 3, moves[a], moves[a + 2]);
        }
    }
    xq_free(sw);
    xq_free(alt);
    return st;
}

/* ---- one-edit explanations ---- */

#define TY_GUIDES 8   /* one-edit games kept in a second decoding's beam */

/* One edit of the record: record i typed as move mv (TY_TYPED), move mv
 * left out before record i (TY_LEFT_OUT) or record i typed twice or stray
 * (TY_DROPPED), weighing w. */
enum { TY_TYPED, TY_LEFT_OUT, TY_DROPPED };
typedef struct {
    double  w;
    size_t  i;
    int     kind;
    xq_move mv;
} ty_edit;

/* The alternatives one edit of the record gives, weighed for each ply of
 * the decoded game. */
typedef struct {
    const xq_move *dec;    /* the decoded game's moves (NULL: totals only) */
    size_t  m;             /* its plies */
    double  total;         /* sum of weights of every explanation */
    double *agree;         /* per decoded ply: weight of those agreeing */
    bool    decoded;       /* the decoded game is one of them */
    /* the heaviest explanation playing another move, per decoded ply */
    double  *altw;
    xq_move *altmv;
    /* the heaviest edits, heaviest first, one per record and kind */
    ty_edit top[TY_GUIDES];
    int     ntop;
} edits;

static void edits_free(edits *E)
{
    xq_free(E->agree);
    xq_free(E->altw);
    xq_free(E->altmv);
    memset(E, 0, sizeof *E);
}

/* Nats of typing text for move mv on b: TY_PER_EDIT per glyph edit to
 * its nearest spelling. */
static double typing_cost(xq_board *b, xq_move mv, const char *text,
                          vs_spellings *sp)
{
    uint32_t a[TY_MAXCP], c[TY_MAXCP];
    int na = norm_cps(text ? text : "", a), best = TY_MAXCP;
    size_t j;
    if (vs_spellings_get(b, mv, XQ_VARIANTS_ALL, sp) != XQ_OK)
        return TY_PER_EDIT * TY_MAXCP;
    for (j = 0; j < sp->n; j++) {
        int e = edit_distance(a, na, c, norm_cps(sp->v[j].text, c));
        if (e < best)
            best = e;
    }
    return TY_PER_EDIT * best;
}

/* Weigh one explanation: the game played by mv[0..n) with weight w. */
static void weigh(edits *E, const xq_move *mv, size_t n, double w)
{
    size_t i, m = E->m;
    bool same = E->dec && n == m;
    E->total += w;
    for (i = 0; i < m; i++) {
        if (i < n && mv[i] == E->dec[i]) {
            E->agree[i] += w;
        } else {
            same = false;
            if (i < n && w > E->altw[i]) {
                E->altw[i] = w;
                E->altmv[i] = mv[i];
            }
        }
    }
    if (same)
        E->decoded = true;
}

/* Keep edit x among the heaviest (an equal one found earlier stays). */
static void keep_top(edits *E, ty_edit x)
{
    int j;
    if (x.w <= 0 || (E->ntop == TY_GUIDES && x.w <= E->top[TY_GUIDES - 1].w))
        return;
    if (E->ntop < TY_GUIDES)
        E->ntop++;
    for (j = E->ntop - 1; j > 0 && E->top[j - 1].w < x.w; j--)
        E->top[j] = E->top[j - 1];
    E->top[j] = x;
}

/* Play texts moves[i..n) on b into out[k..]; false where one is no legal
 * move. */
static bool play_rest(const char *const *moves, size_t i, size_t n,
                      xq_board *b, xq_move *out, size_t k)
{
    for (; i < n; i++, k++)
        if (!play_one(b, moves[i], &out[k]))
            return false;
    return true;
}

/* A typed record with one slip is told by it: where one edit makes every
 * record a legal move, that edit's game is the record's, and where every
 * such game agrees on a ply, the record tells it, however little the
 * decoder's posterior (a glyph edit costs only TY_PER_EDIT nats, so every
 * one-glyph neighbour of every record keeps some mass: a one-glyph typo
 * had put 10 to 60 plies under review). The edits, at any record up to
 * the first that is no legal move (an earlier one, written as another
 * legal move, may be the slip): a record typed as another move (weighed
 * by its glyph edits to that move's nearest spelling), a move left out
 * (VD_SKIP, shared by the legal moves that could have been it, as the
 * decoder's uniform prior shares it) or an entry typed twice or stray
 * (VD_EXTRA); two records swapped are fill_swapped's and doubt_swaps'.
 * Weighs them into *E against the decoded game dec[0..m) (NULL: only
 * their total weight and heaviest edits); edits_free frees it. */
static xq_status explain_one_edit(const char *const *moves, size_t n,
                                  const xq_board *start, const xq_move *dec,
                                  size_t m, edits *E)
{
    size_t f = resolve_all(moves, n, start, NULL), i;
    xq_move *mv = xq_malloc((n + 2) * sizeof *mv);
    xq_move *lm = xq_malloc(XQ_MAX_MOVES * sizeof *lm);
    vs_spellings *sp = xq_malloc(sizeof *sp);
    xq_board pre, b;
    memset(E, 0, sizeof *E);
    E->dec = dec;
    E->m = dec ? m : 0;
    E->agree = xq_calloc(E->m + 1, sizeof *E->agree);
    E->altw = xq_calloc(E->m + 1, sizeof *E->altw);
    E->altmv = xq_calloc(E->m + 1, sizeof *E->altmv);
    bool ok = mv && lm && sp && E->agree && E->altw && E->altmv;
    pre = *start;
    for (i = 0; ok && i <= f && i < n; i++) {
        int nl = xq_board_legal_moves(&pre, lm), x;
        ty_edit typed = { 0, i, TY_TYPED, 0 }, left = { 0, i, TY_LEFT_OUT, 0 };
        ty_edit dropped = { 0, i, TY_DROPPED, 0 };
        /* record i typed as another move, or a move left out before it */
        for (x = 0; x < nl; x++) {
            xq_board after = pre, c = pre;
            double w;
            xq_board_make_move(&after, lm[x], NULL);
            mv[i] = lm[x];
            b = after;
            if (play_rest(moves, i + 1, n, &b, mv, i + 1)) {
                w = exp(-typing_cost(&c, lm[x], moves[i], sp));
                weigh(E, mv, n, w);
                if (w > typed.w) {
                    typed.w = w;
                    typed.mv = lm[x];
                }
            }
            b = after;
            if (play_rest(moves, i, n, &b, mv, i + 1)) {
                weigh(E, mv, n + 1, exp(-VD_SKIP) / nl);
                if (!left.w) {
                    left.w = exp(-VD_SKIP);
                    left.mv = lm[x];
                }
            }
        }
        /* entry i typed twice, or stray */
        b = pre;
        if (play_rest(moves, i + 1, n, &b, mv, i)) {
            weigh(E, mv, n - 1, exp(-VD_EXTRA));
            dropped.w = exp(-VD_EXTRA);
        }
        keep_top(E, typed);
        keep_top(E, left);
        keep_top(E, dropped);
        /* the record as typed up to here */
        if (!play_one(&pre, moves[i], &mv[i]))
            break;
    }
    xq_free(mv);
    xq_free(lm);
    xq_free(sp);
    if (!ok) {
        edits_free(E);
        return XQ_ENOMEM;
    }
    return XQ_OK;
}

/* Where the decoded game is one of the one-edit games (E), each ply's
 * confidence is the weight of the games agreeing with it, and a ply they
 * disagree on gets the heaviest other one's move as a candidate.
 * Otherwise (two slips or more) the decoder's posterior stands. */
static void apply_edits(const edits *E, const xq_verify_options *opts,
                        const xq_board *start, xq_game *game)
{
    double below = vd_review_below(opts);
    xq_board b = *start;
    size_t j;
    if (!E->decoded || E->total <= 0 || game->nplies != E->m)
        return;
    for (j = 0; j < E->m; j++) {
        xq_ply *q = &game->plies[j];
        double c = E->agree[j] / E->total;
        if (q->status == XQ_PLY_OK && q->source == XQ_SRC_READ) {
            q->confidence = c;
            q->review = c < below;
        } else if (q->confidence > c) {
            q->confidence = c;
        }
        if (E->altw[j] > 0)
            vs_add_candidate(q, &b, E->altmv[j], E->altw[j] / E->total, true);
        if (q->mv == XQ_MOVE_NONE || !xq_board_make_move(&b, q->mv, NULL))
            break;
    }
}

/* The games of E's heaviest edits, n + 1 moves each (XQ_MOVE_NONE past a
 * shorter one's end), into *pg (*png of them). */
static xq_status edit_games(const char *const *moves, size_t n,
                            const xq_board *start, const edits *E,
                            xq_move **pg, size_t *png)
{
    size_t len = n + 1, ng = 0, j;
    xq_move *g = xq_malloc((size_t)(E->ntop ? E->ntop : 1) * len * sizeof *g);
    int t;
    XQ_FAIL_IF(!g, XQ_ENOMEM, "edit games");
    for (t = 0; t < E->ntop; t++) {
        const ty_edit *x = &E->top[t];
        xq_move *mv = g + ng * len;
        xq_board b = *start;
        bool ok;
        for (j = 0; j < len; j++)
            mv[j] = XQ_MOVE_NONE;
        ok = play_rest(moves, 0, x->i, &b, mv, 0);
        if (ok && x->kind == TY_TYPED)
            ok = xq_board_make_move(&b, x->mv, NULL) &&
                 play_rest(moves, x->i + 1, n, &b, mv, x->i + 1);
        else if (ok && x->kind == TY_LEFT_OUT)
            ok = xq_board_make_move(&b, x->mv, NULL) &&
                 play_rest(moves, x->i, n, &b, mv, x->i + 1);
        else if (ok)
            ok = play_rest(moves, x->i + 1, n, &b, mv, x->i);
        if (ok && x->kind != TY_DROPPED)
            mv[x->i] = x->mv;
        if (ok)
            ng++;
    }
    *pg = g;
    *png = ng;
    return XQ_OK;
}

/* The moves of res's game into *pdec (reallocated). */
static xq_status decoded_moves(const vd_result *res, xq_move **pdec)
{
    xq_move *dec = xq_realloc(*pdec, (res->nplies + 1) * sizeof *dec);
    size_t t;
    XQ_FAIL_IF(!dec, XQ_ENOMEM, "decoded game");
    *pdec = dec;
    for (t = 0; t < res->nplies; t++)
        dec[t] = res->plies[t].mv;
    return XQ_OK;
}

/* The decoder's beam can lose a one-edit game among the crowd of histories
 * a glyph misread or two away (each TY_PER_EDIT), all reading the later
 * records as well: a record with an entry typed twice (bench_typed.sh
 * dup_2399) came out as another record misread and a move left out, its
 * duplicated pawn move sure and wrong, though the one-edit game scores
 * better under the decoder's own model. Where the decoded game is none of
 * the one-edit games, the heaviest of them are kept in the beam of a second
 * decoding, which replaces the first where it scores better. Leaves *E
 * weighed against the decoding kept. */
static xq_status decode_with_edits(const char *const *moves, size_t n,
                                   const xq_cell_source *const *srcs,
                                   const xq_verify_options *o,
                                   const xq_board *b, vd_result *res,
                                   xq_move **pdec, edits *E)
{
    xq_move *g = NULL;
    size_t ng = 0;
    bool replaced = false;
    xq_status st = decoded_moves(res, pdec);
    if (st == XQ_OK)
        st = explain_one_edit(moves, n, b, *pdec, res->nplies, E);
    if (st != XQ_OK || E->decoded || !E->ntop)
        return st;
    st = edit_games(moves, n, b, E, &g, &ng);
    if (st == XQ_OK && ng)
        st = vd_decode_guided(srcs, 1, o, true, b, g, ng, n + 1, res, &replaced);
    xq_free(g);
    if (st != XQ_OK || !replaced)
        return st;
    edits_free(E);
    XQ_TRY(decoded_moves(res, pdec));
    return explain_one_edit(moves, n, b, *pdec, res->nplies, E);
}

/* Fast path: every move resolves. */
static xq_status fill_direct(const char *const *moves, size_t n,
                             const xq_verify_options *opts, xq_board *b,
                             xq_game *game, bool *pdone)
{
    xq_board *t;
    size_t i;
    xq_status st = XQ_OK;
    *pdone = false;
    if (resolve_all(moves, n, b, NULL) < n)
        return XQ_OK;
    t = xq_malloc(sizeof *t);
    XQ_FAIL_IF(!t, XQ_ENOMEM, "board");
    *t = *b;
    for (i = 0; i < n && st == XQ_OK; i++) {
        xq_resolution r;
        xq_ply *q;
        xq_notation_read(t, moves[i], 0, &r);
        st = xq_game_add_ply(game, &q);
        if (st != XQ_OK)
            break;
        q->side = xq_board_side(t);
        q->status = XQ_PLY_OK;
        q->source = XQ_SRC_READ;
        q->confidence = 1.0;
        q->review = false;
        q->mv = r.mv;
        vs_write_all(t, r.mv, q->chinese, q->wxf, q->iccs);
        st = xq_game_set_str(&q->read, moves[i]);
        if (st == XQ_OK && (r.warnings & (XQ_RWARN_SIDE_NUMERALS | XQ_RWARN_SIDE_GLYPH)))
            st = xq_game_add_finding(game, q->ply, XQ_SEV_INFO, "notation_hint",
                "WXF 7.1", "ply %d: \"%s\" uses the other side's %s", q->ply,
                moves[i], (r.warnings & XQ_RWARN_SIDE_NUMERALS) ? "numerals"
                                                               : "piece glyph");
        xq_board_make_move(t, r.mv, NULL);
    }
    xq_free(t);
    if (st == XQ_OK) {
        *pdone = true;
        st = vf_finish(game, opts && opts->threshold > 0 ? opts->threshold : 16);
    }
    return st;
}

/* Two moves of one side typed in each other's place, where no one edit of
 * the record (explain_one_edit: the caller's) makes every record a legal
 * move and
 * exchanging one pair of them (records a and a + 2, anywhere before the
 * first record that is no legal move) does, that pair alone: the game is
 * the record with the pair exchanged. The decoder, which knows no
 * exchange, took it for two slips or more: bench/bench_typed.sh, seed 11,
 * 89 wrong moves (all flagged) in 17 swapped records, half their plies
 * under review. The two plies are corrected (the record typed there is
 * the other one's), under review, with a swapped_records warning. */
static xq_status fill_swapped(const char *const *moves, size_t n,
                              const xq_verify_options *opts, xq_board *b,
                              xq_game *game, bool *pdone)
{
    const char **sw;
    size_t f = resolve_all(moves, n, b, NULL), a, sa = 0, k;
    int nsw = 0;
    xq_status st;
    *pdone = false;
    if (n < 3)
        return XQ_OK;
    sw = xq_malloc(n * sizeof *sw);
    XQ_FAIL_IF(!sw, XQ_ENOMEM, "records");
    memcpy(sw, moves, n * sizeof *sw);
    for (a = 0; a <= f && a + 2 < n && nsw < 2; a++)
        if (swap_plays(sw, moves, n, a, b, NULL)) {
            nsw++;
            sa = a;
        }
    if (nsw != 1) {
        xq_free(sw);
        return XQ_OK;
    }
    sw[sa] = moves[sa + 2];
    sw[sa + 2] = moves[sa];
    st = fill_direct(sw, n, opts, b, game, pdone);
    xq_free(sw);
    for (k = sa; st == XQ_OK && *pdone && k <= sa + 2; k += 2) {
        xq_ply *q = &game->plies[k];
        st = xq_game_set_str(&q->read, moves[k]);
        q->status = XQ_PLY_CORRECTED;
        q->source = XQ_SRC_CORRECTED;
        q->review = true;
        q->confidence = 0.5;
    }
    if (st == XQ_OK && *pdone)
        st = xq_game_add_finding(game, game->plies[sa].ply, XQ_SEV_WARNING,
            "swapped_records", "WXF 7.7",
            "plies %d and %d: \"%s\" and \"%s\" were typed in each other's "
            "place: that way every record is a legal move, and no one record "
            "changed makes it one", game->plies[sa].ply,
            game->plies[sa + 2].ply, moves[sa], moves[sa + 2]);
    return st;
}

xq_status xq_verify_typed(const char *const *moves, size_t nmoves,
                          const xq_verify_options *opts, xq_game *game)
{
    xq_board *b;
    char err[128];
    xq_status st = XQ_OK;
    bool done = false;
    double explained = 0;   /* weight of the one-edit explanations */
    XQ_FAIL_IF(!game || (!moves && nmoves), XQ_EINVAL, "verify_typed arguments");
    XQ_FAIL_IF(game->nplies != 0, XQ_EINVAL, "game already has plies");
    b = xq_malloc(sizeof *b);
    XQ_FAIL_IF(!b, XQ_ENOMEM, "board");
    if (opts && opts->start_fen) {
        if (xq_board_from_fen(b, opts->start_fen, err, sizeof err) != XQ_OK ||
            strlen(opts->start_fen) >= sizeof game->start_fen)
            st = XQ_EINVAL;
        else
            strcpy(game->start_fen, opts->start_fen);
    } else if (xq_board_from_fen(b, game->start_fen, err, sizeof err) != XQ_OK) {
        st = XQ_EINVAL;
    }
    if (st == XQ_OK && opts && opts->recorded_result) {
        st = xq_game_set_str(&game->header.result, opts->recorded_result);
        if (st == XQ_OK)
            st = xq_game_set_str(&game->end.recorded_result, opts->recorded_result);
    }
    if (st == XQ_OK && opts && opts->owner >= 0)
        game->owner = opts->owner;
    if (st == XQ_OK && (!opts || !opts->ncorrections))
        st = fill_direct(moves, nmoves, opts, b, game, &done);
    if (st == XQ_OK && !done && (!opts || !opts->ncorrections)) {
        edits E0;
        st = explain_one_edit(moves, nmoves, b, NULL, 0, &E0);
        explained = E0.total;
        edits_free(&E0);
        if (st == XQ_OK && explained == 0)
            st = fill_swapped(moves, nmoves, opts, b, game, &done);
    }
    if (st == XQ_OK && !done) {
        typed_src t;
        xq_cell_source src;
        const xq_cell_source *srcs[1];
        vd_result res;
        xq_verify_options o;
        edits E;
        xq_move *dec = NULL;
        if (opts)
            o = *opts;
        else
            xq_verify_options_init(&o);
        o.score_scale = 1.0;
        if (!o.variants)
            o.variants = XQ_VARIANTS_ALL;
        t.moves = moves;
        t.nmoves = nmoves;
        t.bf = xq_board_side(b) == XQ_BLACK ? 1 : 0;
        memset(&src, 0, sizeof src);
        src.ncells = nmoves + (size_t)t.bf;
        src.ud = &t;
        src.is_blank = ty_blank;
        src.text = ty_text;
        src.score = ty_score;
        srcs[0] = &src;
        memset(&res, 0, sizeof res);
        memset(&E, 0, sizeof E);
        st = vd_decode(srcs, 1, &o, true, b, &res);
        if (st == XQ_OK && !o.ncorrections && explained > 0)
            st = decode_with_edits(moves, nmoves, srcs, &o, b, &res, &dec, &E);
        if (st == XQ_OK)
            st = vs_fill_game(&res, srcs, 0, &o, b, game);
        if (st == XQ_OK)
            apply_edits(&E, &o, b, game);
        edits_free(&E);
        xq_free(dec);
        if (st == XQ_OK && !o.ncorrections)
            st = doubt_swaps(moves, nmoves, b, game);
        vd_result_free(&res);
        if (st == XQ_OK) {
            size_t i;
            for (i = 0; i < game->nplies; i++)
                game->plies[i].has_cell = false;   /* typed: no image */
        }
    }
    xq_free(b);
    return st;
}

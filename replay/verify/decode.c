/* decode.c - constrained decoding of scoresheet cells.
 *
 * A beam of game prefixes. Each prefix (entry) holds a board, a cumulative
 * log score and, per sheet and column, how many moves that column has
 * skipped (a skipped move shifts the rest of its column by one cell).
 * Going from ply p-1 to ply p, every legal move of every entry is scored
 * against the cell that ply p falls on, in every spelling the notation
 * enumerator knows (max over spellings), mixed with a floor (the cell may
 * explain no legal move: illegible, or an illegal move was written), plus
 * the uniform move prior -log(n). Other ways to account for a ply: the
 * cell is blank (any move, missing record), the move was skipped without
 * a cell (penalty, column shifts), or the cell holds junk and the move is
 * in the next cell (penalty, column shifts back).
 *
 * Prefixes that reach the same position with the same alignment are
 * merged; the lighter one is kept as a "ghost" of the survivor so that its
 * probability mass still counts against the moves it disagrees on. At the
 * end, complete prefixes (every non-blank cell explained) are weighed and
 * each ply's confidence is the posterior mass of the chosen move.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "verify_internal.h"
#include "xq_core.h"

typedef struct {
    int32_t parent;
    int32_t ghost;          /* first ghost merged into this node, -1 */
    xq_move mv;
    int16_t ply;
    bool    forced;
    uint8_t kind[VD_MAXSRC];
    int32_t slot[VD_MAXSRC];
    float   sc[VD_MAXSRC];
    int8_t  off[VD_MAXSRC][2];  /* the entry's alignment after this ply */
    int8_t  sh[VD_MAXSRC];
    double  score;
} vnode;

typedef struct {
    int32_t node;           /* last node of the cut child's parent (-1 root) */
    xq_move mv;             /* the cut child's move */
    int16_t ply;
    double  mass;           /* its lost mass (lostp, lost_move) */
    bool    refuted;        /* uncharge_refuted found it refuted */
} vcut;

/* A prefix whose realignments (skip, junk cell) at a ply were cut while
 * close: its last node and their mass (relative to refp of that ply). */
typedef struct {
    int32_t node;
    int16_t ply;
    double  mass;
    double  maxm;   /* the heaviest one realignment's */
} vscut;

/* Mass of the children cut at a ply by the move they play there (merged
 * per move at the end of each step). */
typedef struct {
    xq_move mv;
    int16_t ply;
    double  mass;
} vlmv;

typedef struct {
    int32_t node;           /* the ghost's own last node */
    int32_t next;           /* next ghost of the same survivor */
    double  score;          /* its cumulative score when merged */
} vghost;

/* A move's spellings (vs_spellings_get, the decoder's kinds), cached by
 * its variants key (spell(); 0: an empty slot). */
typedef struct {
    uint64_t     key;
    vs_spellings sp;
} vspell;
#define VD_SPELL_SLOTS 2048   /* direct-mapped: 5.3 MB when used */

/* A prefix in the beam: its position without the history (a beam holds
 * thousands; each is worked on in one board, xq_board_load_pos). */
typedef struct {
    xq_board_pos pos;
    int8_t   side;          /* side to move */
    double   score;
    int32_t  node;
    int8_t   off[VD_MAXSRC][2];
    int8_t   sh[VD_MAXSRC];  /* cells the whole record moved back by */
    uint16_t guided;        /* the guide games it has followed (bits) */
    bool     on_truth;      /* it stands where the traced true game does
                               (its position, and its cells if given) */
    uint64_t key;
} ventry;

typedef struct {
    double  score;
    int32_t entry;
    xq_move mv;
    bool    forced;
    uint8_t kind[VD_MAXSRC];
    int32_t slot[VD_MAXSRC];
    float   sc[VD_MAXSRC];
    int8_t  doff[VD_MAXSRC];
    int8_t  dsh[VD_MAXSRC];
    float   em;             /* summed emission (0 blank, ~0 a good read) */
    float   look;           /* look-ahead at a blank ply (look_ahead): added
                               to score for the beam's order only */
    uint32_t seq;           /* order of making (the last tie-break) */
    uint16_t guided;        /* guide games it follows: kept in the beam */
} vchild;

typedef struct {
    int32_t node;
    double  score;
    int     after_end[VD_MAXSRC];
    bool    nomoves;
} vfinal;

/* A child's place in key_before's order, packed for sorting: score, then
 * (entry, move, kinds) in one integer, then the order of making, and
 * where the child is. */
_Static_assert(VD_MAXSRC <= 2, "vkey.tie holds two kinds");
typedef struct {
    double   score;
    uint64_t tie;
    uint32_t seq;
    uint32_t idx;
} vkey;

/* One cell's score cache: open addressing on the spelling's 64-bit key,
 * key and score side by side (one cache line per probe); a move's scores
 * (mcache) are a pair of floats in one entry. */
typedef struct {
    uint64_t key;    /* 0: free */
    union {
        double val;
        float  pair[2];
    } u;
} vcache_ent;

typedef struct {
    vcache_ent *e;
    size_t      cap, n;
} vcache;

typedef struct {
    const xq_cell_source *const *src;
    int      nsrc;
    double   scale;
    unsigned kinds;
    int      black_first;
    vd_result *res;
    const xq_verify_options *opts;

    vnode   *nodes;
    size_t   nnodes, capnodes;
    vghost  *ghosts;
    size_t   nghosts, capghosts;
    const uint8_t *wide_at;  /* plies decoded with a beam of wide_beam */
    size_t   nwide;          /* ... wide_at[ply] for ply < nwide (ply 0 unused) */
    int      wide_beam;
    vchild  *kids;
    size_t   nkids, capkids;
    vchild  *sorted;        /* group_kids' second buffer */
    size_t   capsorted;
    vkey    *keys;          /* sort_kids' keys */
    size_t   capkeys;
    uint8_t *group;         /* group_kids' group of each child */
    size_t   capgroup;
    vfinal  *finals;
    size_t   nfinals, capfinals;
    double   best_final;    /* best final score so far */
    double  *lost;          /* per ply: 1 when close alternatives were cut */
    double  *lostm;         /* per ply: mass of cut alternative histories
                               that differ from the best prefix there */
    vlmv    *lmv;           /* the cut children's own mass by ply and move:
                               posterior() adds it to lostm only where the
                               move is not the decoded one */
    size_t   nlmv, caplmv;
    double  *lostp;         /* per parent entry: mass cut at this step */
    size_t   caplost;
    /* the cut histories themselves (parent node and move), up to
     * VD_CUT_KEEP per ply; altfull: a ply cut more than that */
    vcut    *cuts;
    size_t   ncuts, capcuts;
    uint16_t *ncutply;
    bool    *cutfull;
    /* close realignments cut (see keep_scuts): per parent entry at this
     * step, then up to VD_SCUT_KEEP prefixes per ply; refp of each ply */
    double  *slostp;
    double  *slostx;        /* ... the heaviest one child's (scut maxm) */
    vscut   *scuts;
    size_t   nscuts, capscuts;
    /* prefixes whose children were cut (attribute_lost): their node, the
     * ply of the children and the mass */
    vscut   *lpre;
    size_t   nlpre, caplpre;
    double  *refps;
    double  *keptm;         /* per ply: mass of the children kept in the
                               beam, in the units of the cut mass (refps) */
    bool    *scutply;       /* per ply: such mass was attributed there */
    /* score cache: (sheet, cell, spelling) -> source score, one table per
     * cell (a ply's lookups all go to one or two cells: their small
     * tables stay in the CPU cache, one table of every cell did not) */
    vcache   *cache[VD_MAXSRC];
    /* move score cache: (sheet, cell, move's spellings key) -> best and
     * raw score of the move's spellings (move_score), one table per cell */
    vcache   *mcache[VD_MAXSRC];
    /* spellings cache (spell()), for kinds spell_kinds; NULL until used */
    vspell   *spells;
    unsigned  spell_kinds;
    /* games kept in the beam while a prefix follows them (a previous
     * decoding's res->repair: nguide of guide_len moves each), or NULL */
    const xq_move *guide;
    size_t   nguide, guide_len;
    /* the true game traced (vd_decode_traced; NULL none): ntrace moves,
     * and the cell of sheet 0 each was written in (-1 skipped; NULL: any
     * alignment) */
    const xq_move *trace;
    const int *trace_cells;
    size_t   ntrace;
} vdec;

int vd_nominal_slot(int ply, int black_first)
{
    return ply - 1 + (black_first ? 1 : 0);
}

static xq_status grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    size_t ncap;
    void *p;
    if (need <= *cap)
        return XQ_OK;
    ncap = *cap ? *cap : 64;
    while (ncap < need)
        ncap *= 2;
    p = xq_realloc(*arr, ncap * elem);
    XQ_FAIL_IF(!p, XQ_ENOMEM, "decoder arrays");
    *arr = p;
    *cap = ncap;
    return XQ_OK;
}

/* log(e^a + e^b). Where b is that far below a (under 2^-57 of it, a at
 * least 1 away from 0), the sum rounds to a: a, without exp and log1p (a
 * tenth of a typed record's decoding went to them). */
static double lse(double a, double b)
{
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    if (b - a < -40.0 && fabs(a) >= 1.0)
        return a;
    return a + log1p(exp(b - a));
}

/* Emission of a move by a cell whose reading is rel (natural log, <= 0)
 * below the cell's reference: either the cell was written as the move
 * (rel), or it is no faithful record of it (illegible, a slip of the pen:
 * the floor). (A tempered floor that favours near readings was tried and
 * made blank-cell reconstruction worse on the synthetic sheets.) */
static double emit(double rel)
{
    return lse(rel, -VD_FLOOR);
}

/* ---- cells ---------------------------------------------------------- */

static xq_status cells_init(vdec *d)
{
    int k, s;
    size_t i;
    for (k = 0; k < d->nsrc; k++) {
        const xq_cell_source *src = d->src[k];
        d->res->ncells[k] = src->ncells;
        d->res->lastnb[k][0] = d->res->lastnb[k][1] = -1;
        if (!src->ncells)
            continue;
        d->res->cells[k] = xq_calloc(src->ncells, sizeof(vd_cell));
        XQ_FAIL_IF(!d->res->cells[k], XQ_ENOMEM, "cells");
        for (i = 0; i < src->ncells; i++) {
            vd_cell *c = &d->res->cells[k][i];
            c->blank = src->is_blank ? src->is_blank(src->ud, i) != 0 : false;
            c->text_score = -1e30;
            c->illegible = !c->blank && src->illegible &&
                           src->illegible(src->ud, i) != 0;
            if (!c->blank) {
                s = (int)(i % 2);
                d->res->lastnb[k][s] = (int)i;
            }
        }
    }
    return XQ_OK;
}

/* Read the cell's text and its score once. */
static xq_status cell_touch(vdec *d, int k, int slot)
{
    vd_cell *c = &d->res->cells[k][slot];
    const xq_cell_source *src = d->src[k];
    const char *t;
    if (c->text)
        return XQ_OK;
    t = src->text ? src->text(src->ud, (size_t)slot) : NULL;
    c->text = xq_strdup(t ? t : "");
    XQ_FAIL_IF(!c->text, XQ_ENOMEM, "cell text");
    if (c->text[0] && src->score)
        c->text_score = src->score(src->ud, (size_t)slot, c->text);
    return XQ_OK;
}

static uint64_t str_hash(const char *s, uint64_t h)
{
    while (*s)
        h = (h ^ (uint8_t)*s++) * 0x100000001B3ull;
    return h ^ (h >> 29);
}

static xq_status cache_grow(vcache *c)
{
    size_t ncap = c->cap ? c->cap * 2 : 256, i;
    vcache_ent *ne = xq_calloc(ncap, sizeof *ne);
    if (!ne)
        return XQ_ENOMEM;
    for (i = 0; i < c->cap; i++)
        if (c->e[i].key) {
            size_t h = (size_t)(c->e[i].key & (ncap - 1));
            while (ne[h].key)
                h = (h + 1) & (ncap - 1);
            ne[h] = c->e[i];
        }
    xq_free(c->e);
    c->e = ne;
    c->cap = ncap;
    return XQ_OK;
}

/* The entry of key (nonzero, well mixed) in c, or the free one where it
 * goes; NULL while c is empty. */
static vcache_ent *cache_find(vcache *c, uint64_t key)
{
    size_t h;
    if (!c->cap)
        return NULL;
    h = (size_t)(key & (c->cap - 1));
    while (c->e[h].key && c->e[h].key != key)
        h = (h + 1) & (c->cap - 1);
    return &c->e[h];
}

/* The entry to store key's value in (NULL without memory: the value
 * just goes uncached). */
static vcache_ent *cache_slot(vcache *c, uint64_t key)
{
    vcache_ent *e;
    if (c->n * 2 >= c->cap && cache_grow(c) != XQ_OK)
        return NULL;
    e = cache_find(c, key);
    if (!e->key) {
        e->key = key;
        c->n++;
    }
    return e;
}

/* Cell slot's table among per-cell tables *pt of sheet k (allocated on
 * first use; NULL without memory). */
static vcache *cell_cache(vdec *d, vcache **pt, int k, int slot)
{
    if (!*pt)
        *pt = xq_calloc(d->res->ncells[k], sizeof **pt);
    return *pt ? &(*pt)[slot] : NULL;
}

/* The source's score of one spelling, cached per (sheet, cell, text). */
static double cell_score(vdec *d, int k, int slot, const char *text)
{
    uint64_t key = str_hash(text, 0xCBF29CE484222325ull ^
                                  ((uint64_t)(slot + 1) << 8) ^ (uint64_t)k);
    vcache *c = cell_cache(d, &d->cache[k], k, slot);
    vcache_ent *e;
    if (!key)
        key = 1;
    e = c ? cache_find(c, key) : NULL;
    double v;
    if (e && e->key)
        return e->u.val;
    v = d->src[k]->score(d->src[k]->ud, (size_t)slot, text);
    if (c && (e = cache_slot(c, key)) != NULL)
        e->u.val = v;
    return v;
}

/* A bijection of 64-bit keys that spreads structured ones (a spellings
 * key) over the low bits the tables index by; nonzero stays nonzero. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    return x;
}

/* Cached move_score of a move in a cell by its spellings key vkey
 * (xq_notation_variants_key, nonzero): false (outputs untouched) when not
 * cached. */
static bool mscore_get(vdec *d, int k, int slot, uint64_t vkey, float *pbest,
                       float *praw)
{
    vcache *c = cell_cache(d, &d->mcache[k], k, slot);
    vcache_ent *a = c ? cache_find(c, mix64(vkey)) : NULL;
    if (!a || !a->key)
        return false;
    *pbest = a->u.pair[0];
    *praw = a->u.pair[1];
    return true;
}

static void mscore_put(vdec *d, int k, int slot, uint64_t vkey, float best,
                       float raw)
{
    vcache *c = cell_cache(d, &d->mcache[k], k, slot);
    vcache_ent *e = c ? cache_slot(c, mix64(vkey)) : NULL;
    if (!e)
        return;
    e->u.pair[0] = best;
    e->u.pair[1] = raw;
}

/* The spellings of legal move mv on b (d->kinds) into out, from d's
 * cache where the move's variants key (vkey; 0: computed here) has been
 * seen: the same move is spelt for cell after cell and prefix after
 * prefix (a tenth of a scanned sheet's decoding, a third of a typed
 * record's, went to spelling moves again). A move with no variants key
 * (none in a position from a game) is keyed by the position's Zobrist key
 * and the move. Without memory for the cache: spelt each time. */
static xq_status spell(vdec *d, xq_board *b, xq_move mv, uint64_t vkey,
                       vs_spellings *out)
{
    vspell *e;
    xq_status st;
    if (!vkey)
        vkey = xq_notation_variants_key(b, mv, d->kinds);
    if (!vkey)   /* spelt by the whole position: keyed by it */
        vkey = (xq_board_hash(b) ^ mix64((uint64_t)mv + 0x9E3779B97F4A7C15ull)) | 1;
    if (d->spells && d->spell_kinds != d->kinds) {
        xq_free(d->spells);   /* another decoding's kinds */
        d->spells = NULL;
    }
    if (!d->spells) {
        d->spells = xq_calloc(VD_SPELL_SLOTS, sizeof *d->spells);
        d->spell_kinds = d->kinds;
    }
    if (!d->spells)
        return vs_spellings_get(b, mv, d->kinds, out);
    e = &d->spells[mix64(vkey) & (VD_SPELL_SLOTS - 1)];
    if (e->key != vkey) {
        e->key = 0;
        st = vs_spellings_get(b, mv, d->kinds, &e->sp);
        if (st != XQ_OK) {
            out->n = 0;
            return st;
        }
        e->key = vkey;
    }
    out->n = e->sp.n;
    memcpy(out->v, e->sp.v, e->sp.n * sizeof *out->v);
    return XQ_OK;
}

/* Do two texts differ in one glyph at most (same length in glyphs,
 * full-width forms folded)? numeral: in exactly one glyph, a numeral in
 * both (another file or distance written). */
static bool glyph_off(const char *a, const char *b, bool numeral)
{
    size_t na = strlen(a), nb = strlen(b), ia = 0, ib = 0;
    int diff = 0;
    while (ia < na && ib < nb) {
        uint32_t ca, cb;
        ia += xq_utf8_decode(a + ia, na - ia, &ca);
        ib += xq_utf8_decode(b + ib, nb - ib, &cb);
        if (xq_utf8_halfwidth(ca) != xq_utf8_halfwidth(cb) &&
            (++diff > 1 ||
             (numeral && (!xq_notation_numeral(ca) || !xq_notation_numeral(cb)))))
            return false;
    }
    return ia == na && ib == nb && (!numeral || diff == 1);
}

/* Best spelling score of a move in a cell, raw units: with the spelling's
 * prior (returned; used by the decoder) and without it (*praw; used to
 * tell whether the cell reads as the move). */
static float move_score(vdec *d, int k, int slot, const vs_spellings *sp,
                        float *praw)
{
    double best = -1e30, raw = -1e30;
    size_t j;
    for (j = 0; j < sp->n; j++) {
        double pr = sp->v[j].prior > 0.01f ? sp->v[j].prior : 0.01;
        double c = cell_score(d, k, slot, sp->v[j].text);
        double s = c + log(pr) / d->scale;
        if (s > best)
            best = s;
        if (c > raw)
            raw = c;
    }
    if (praw)
        *praw = (float)raw;
    return (float)best;
}

/* Does the cell's reading name no legal move on b (a record that is no
 * move here: illegal, or a misreading)? */
static bool names_no_move(const vd_cell *c, xq_board *b)
{
    return c && c->text && c->text[0] && c->text_score > -1e29 &&
           vs_read(b, c->text, NULL, NULL, 0, NULL, 0) != XQ_RES_OK;
}

/* Score of move mv (on b; spellings key vkey, 0 none) in sheet k's cell
 * slot as a slip of the pen, raw units: the cell's own reading less
 * VD_SLIP (and the spelling's prior) where that reading is a spelling of
 * mv with one numeral changed (车二平八 written for 车一平八: another file
 * or distance); -1e30 where it is not. Only for a cell whose reading
 * names no legal move (names_no_move): such a record is most likely a
 * slip of a move one numeral off it, which the OCR's scores cannot tell
 * from any other mismatch (a clear glyph read as another costs a printed
 * cell more than a cell that explains no move, VD_FLOOR); a record that
 * names a legal move is taken as written. Any glyph (a piece, 进 for 退)
 * was tried: a printed sheet whose whole record moved back a cell
 * (test_sure_among_doubt) then had its out-of-step history explained so
 * well that four of its plies came out sure and wrong. Cached with the
 * move's scores (mscore_*, under a key of its own). */
static float slip_score(vdec *d, int k, int slot, xq_board *b, xq_move mv,
                        uint64_t vkey, vs_spellings *sp)
{
    const vd_cell *c = &d->res->cells[k][slot];
    float v = -1e30f, dummy;
    uint64_t skey = vkey ? vkey ^ 0x51195EED0F0FF5E7ull : 0;
    size_t j;
    if (skey && mscore_get(d, k, slot, skey, &v, &dummy))
        return v;
    if (spell(d, b, mv, vkey, sp) == XQ_OK)
        for (j = 0; j < sp->n; j++) {
            double pr = sp->v[j].prior > 0.01f ? sp->v[j].prior : 0.01;
            double s = c->text_score + (log(pr) - VD_SLIP) / d->scale;
            if (s > v && glyph_off(c->text, sp->v[j].text, true))
                v = (float)s;
        }
    if (skey)
        mscore_put(d, k, slot, skey, v, v);
    return v;
}

/* ---- per-sheet situation of an entry at a ply ------------------------- */

typedef struct {
    int  state;        /* VK_NONE, VK_READ, VK_BLANK */
    int  slot;
    bool extra;        /* VK_EXTRA possible: slot + 2 is a non-blank cell */
    bool sextra;       /* ... of the whole record (typed records): slot + 1 */
} vsit;

/* Cell of ply on sheet k for entry e (side moves): the nominal slot, moved
 * back two cells per move skipped in its column and one per move skipped
 * in the record's stream. */
static int slot_of(const vdec *d, int k, const ventry *e, int ply, int side)
{
    return vd_nominal_slot(ply, d->black_first) - 2 * e->off[k][side] -
           e->sh[k];
}

/* Last non-blank cell of the column holding slot. */
static int last_of(const vdec *d, int k, int slot)
{
    return d->res->lastnb[k][slot & 1];
}

static vsit situation(const vdec *d, int k, const ventry *e, int ply, int side)
{
    vsit s;
    int slot = slot_of(d, k, e, ply, side);
    s.slot = slot;
    s.extra = s.sextra = false;
    if (slot < 0 || slot > last_of(d, k, slot)) {
        s.state = VK_NONE;
        return s;
    }
    if (d->res->cells[k][slot].blank) {
        s.state = VK_BLANK;
        return s;
    }
    s.state = VK_READ;
    if (slot + 2 <= last_of(d, k, slot) &&
        !d->res->cells[k][slot + 2].blank)
        s.extra = true;
    /* a typed record is one list: an entry that is no move (typed twice,
     * a stray one) moves every later record one place on, not a column */
    if (d->res->exact && slot + 1 <= last_of(d, k, slot + 1) &&
        !d->res->cells[k][slot + 1].blank)
        s.sextra = true;
    return s;
}

/* Non-blank cells of sheet k that entry e has not reached yet. */
static int cells_left(const vdec *d, int k, const ventry *e, int ply)
{
    int side0 = e->side, s, n = 0, slot, p;
    for (s = 0; s < 2; s++) {
        p = (s == side0) ? ply : ply + 1;
        slot = slot_of(d, k, e, p, s);
        while (slot < 0)
            slot += 2;
        for (; slot <= last_of(d, k, slot); slot += 2)
            if (!d->res->cells[k][slot].blank)
                n++;
    }
    return n;
}

static xq_status add_final(vdec *d, const ventry *e, int ply, bool nomoves)
{
    vfinal *f;
    int k, left = 0;
    XQ_TRY(grow((void **)&d->finals, &d->capfinals, d->nfinals + 1,
                sizeof *d->finals));
    f = &d->finals[d->nfinals++];
    f->node = e->node;
    f->nomoves = nomoves;
    for (k = 0; k < d->nsrc; k++) {
        f->after_end[k] = cells_left(d, k, e, ply);
        left += f->after_end[k];
    }
    f->score = e->score - left * (VD_FLOOR + VD_EXTRA);
    if (d->nfinals == 1 || f->score > d->best_final)
        d->best_final = f->score;
    return XQ_OK;
}

static xq_status add_child(vdec *d, const vchild *c)
{
    XQ_TRY(grow((void **)&d->kids, &d->capkids, d->nkids + 1, sizeof *d->kids));
    d->kids[d->nkids] = *c;
    d->kids[d->nkids].seq = (uint32_t)d->nkids;
    d->nkids++;
    return XQ_OK;
}

static const char *correction_for(const xq_verify_options *o, int ply)
{
    size_t i;
    for (i = 0; o && i < o->ncorrections; i++)
        if (o->corrections[i].ply == ply)
            return o->corrections[i].move;
    return NULL;
}

/* ---- look-ahead at blank cells ---------------------------------------
 *
 * A blank cell's children all read their cell alike: the uniform prior
 * and the mobility it carries order them, not the record. Over a run of
 * blank cells the beam keeps a few thousand of millions of histories, and
 * the records after the run (a rook on a file it could only have reached
 * in the run, a horse that must have left its corner) then fit none of
 * them. Here a blank ply's moves are put in the beam's order (not scored:
 * the posterior is not changed) by the records that follow in the
 * columns: a move that puts a piece of the kind and on the file that a
 * later record names, where none stood, goes ahead; one that takes the
 * last such piece off the file goes behind. */
#define VD_LOOK_SPAN 6     /* cells after the blank one looked at (three
                              records of each side) */
#define VD_LOOK_W    3.0   /* order (nats) per record a move makes possible */

/* The piece and file (from its writer's right) cell slot of sheet k names,
 * if its reading is a move written with a file. */
static bool cell_names(vdec *d, int k, int slot, uint8_t *ppiece,
                       uint8_t *pfile)
{
    vd_cell *c = &d->res->cells[k][slot];
    if (!c->names) {
        xq_token tok;
        c->names = 2;
        if (!c->blank && !c->illegible && cell_touch(d, k, slot) == XQ_OK &&
            c->text[0] && xq_notation_lex(c->text, 0, &tok) == XQ_OK &&
            tok.form == XQ_TOK_FILE && tok.piece && tok.file >= 1 &&
            tok.file <= 9 && tok.pos == XQ_POS_NONE) {
            c->names = 1;
            c->names_piece = tok.piece;
            c->names_file = tok.file;
        }
    }
    *ppiece = c->names_piece;
    *pfile = c->names_file;
    return c->names == 1;
}

/* A later record: its piece (with side; never XQ_EMPTY) and its file
 * (0..8, a..i). */
typedef struct {
    xq_piece pc;
    int      x;
    int      before;   /* such pieces on the file now */
} vlook;

/* The records after blank cells at ply (side to move side) of entry e on
 * board b, up to VD_LOOK_SPAN cells on in every sheet: their count. */
static int look_records(vdec *d, const ventry *e, const xq_board *b, int ply,
                        int side, vlook *out)
{
    int k, n = 0, j, r;
    for (k = 0; k < d->nsrc; k++) {
        int slot = slot_of(d, k, e, ply, side);
        if (slot < 0)
            continue;
        for (j = 1; j <= VD_LOOK_SPAN; j++) {
            int sl = slot + j, rs = (j & 1) ? !side : side;
            uint8_t pt, f;
            if (sl > last_of(d, k, sl) || !cell_names(d, k, sl, &pt, &f))
                continue;
            out[n].pc = XQ_PIECE(rs, pt);
            out[n].x = rs == XQ_RED ? 9 - f : f - 1;
            out[n].before = 0;
            for (r = 0; r < 10; r++)
                out[n].before +=
                    xq_board_piece_at(b, XQ_SQ(out[n].x, r)) == out[n].pc;
            n++;
        }
    }
    return n;
}

/* How many of the records lk[0, n) move m makes possible (a piece of their
 * kind comes onto their file) less those it makes impossible. */
static int look_ahead(const xq_board *b, xq_move m, const vlook *lk, int n)
{
    xq_sq from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    xq_piece pc = xq_board_piece_at(b, from), cap = xq_board_piece_at(b, to);
    int i, v = 0;
    for (i = 0; i < n; i++) {
        int after = lk[i].before;
        if (pc == lk[i].pc) {
            after -= XQ_SQ_FILE(from) == lk[i].x;
            after += XQ_SQ_FILE(to) == lk[i].x;
        }
        if (cap == lk[i].pc && XQ_SQ_FILE(to) == lk[i].x)
            after--;
        v += (after > 0) - (lk[i].before > 0);
    }
    return v;
}

/* Expand one entry, its position loaded in b, into children (kept only
 * within VD_BEAM_DROP of *pbest). */
static xq_status expand(vdec *d, int32_t ei, ventry *e, xq_board *b, int ply,
                        double *pbest, bool *pbadcorr)
{
    xq_move mvs[XQ_MAX_MOVES];
    static const int8_t none_off = 0;
    float sc[VD_MAXSRC][XQ_MAX_MOVES], scx[VD_MAXSRC][XQ_MAX_MOVES];
    float raw[VD_MAXSRC][XQ_MAX_MOVES], rawx[VD_MAXSRC][XQ_MAX_MOVES];
    float sc1[VD_MAXSRC][XQ_MAX_MOVES], raw1[VD_MAXSRC][XQ_MAX_MOVES];
    uint64_t vkeys[XQ_MAX_MOVES];   /* the moves' variants keys */
    vsit sit[VD_MAXSRC];
    int n, i, k, side = e->side;
    double prior;
    bool need_spell = false, extra_ok[VD_MAXSRC], sextra_ok[VD_MAXSRC];
    const char *corr = correction_for(d->opts, ply);
    xq_move forced = XQ_MOVE_NONE;
    vs_spellings *sp = NULL;
    xq_status st = XQ_OK;
    (void)none_off;

    n = xq_board_legal_moves(b, mvs);
    if (n == 0)
        return add_final(d, e, ply, true);
    if (corr) {
        forced = vs_correction_move(b, corr);
        if (forced != XQ_MOVE_NONE) {
            mvs[0] = forced;
            n = 1;
        } else {
            *pbadcorr = true;
        }
    }
    /* The uniform prior over the legal moves. It also makes two histories
     * that read their cells equally well drift apart by their mobility
     * (a few tenths of a nat a ply), so that the true one can fall out of
     * the beam before a later record tells them apart. Measured and not
     * taken: a flat -log 40 (end-to-end bench n4-s7100: moves right 87.65
     * -> 86.82%, skipped moves found 35 -> 30 of 36); half of each
     * (printed 95.57 -> 96.88% and kai+stress 62.6 -> 67.4%, but skipped
     * moves found 35 -> 32, and printed+stress 91.8 -> 85.8%). Only a
     * model of how players play would do better than either. One was
     * tried: counts of (piece, from, to) over 2,501 corpus games (Black
     * mirrored; the benches' 194 games left out), mixed with this prior.
     * At a fifth of it, moves right 87.65 -> 88.71% (hand 84.98 -> 88.15,
     * blank and illegible plies rebuilt 73 -> 87 of 206: the opening
     * after four blanks on threshold sheet 3 comes out right), but
     * skipped moves found 35 -> 31 of 36, unrecorded count exact 42 -> 40
     * of 48, false illegal findings 55 -> 59, the pairs 99.72 -> 98.58%;
     * at half of it worse still. Used at blank cells only (half of it):
     * 88.63%, rebuilt 84 of 206, but skips 32 of 36, false skips 7 -> 10,
     * count 41 of 48. Not taken: the skips are a target. */
    prior = forced != XQ_MOVE_NONE ? 0.0 : -log((double)n);

    for (k = 0; k < d->nsrc; k++) {
        sit[k] = situation(d, k, e, ply, side);
        extra_ok[k] = sextra_ok[k] = false;
        if (sit[k].state == VK_READ) {
            need_spell = true;
            XQ_TRY(cell_touch(d, k, sit[k].slot));
            if (sit[k].extra)
                XQ_TRY(cell_touch(d, k, sit[k].slot + 2));
            if (sit[k].sextra)
                XQ_TRY(cell_touch(d, k, sit[k].slot + 1));
        }
    }
    if (need_spell) {
        XQ_TRY(xq_notation_variants_keys(b, mvs, (size_t)n, d->kinds, vkeys));
        for (i = 0; i < n; i++) {
            /* the same move spelt the same way on the other prefixes'
             * boards: its scores in these cells are cached */
            uint64_t vkey = vkeys[i];
            bool spelt = false;
            for (k = 0; k < d->nsrc; k++) {
                int sl = sit[k].slot;
                if (sit[k].state != VK_READ)
                    continue;
                raw[k][i] = rawx[k][i] = raw1[k][i] = -1e30f;
                scx[k][i] = sc1[k][i] = -1e30f;
                if (vkey && mscore_get(d, k, sl, vkey, &sc[k][i], &raw[k][i]) &&
                    (!sit[k].extra ||
                     mscore_get(d, k, sl + 2, vkey, &scx[k][i], &rawx[k][i])) &&
                    (!sit[k].sextra ||
                     mscore_get(d, k, sl + 1, vkey, &sc1[k][i], &raw1[k][i])))
                    continue;
                /* not cached (or only the first cell): score it here */
                if (!sp) {
                    sp = xq_malloc(sizeof *sp);
                    XQ_FAIL_IF(!sp, XQ_ENOMEM, "spellings");
                }
                if (!spelt) {
                    if (spell(d, b, mvs[i], vkey, sp) != XQ_OK)
                        sp->n = 0;
                    spelt = true;
                }
                raw[k][i] = -1e30f;
                sc[k][i] = sp->n ? move_score(d, k, sl, sp, &raw[k][i]) : -1e30f;
                scx[k][i] = (sit[k].extra && sp->n)
                                ? move_score(d, k, sl + 2, sp, &rawx[k][i])
                                : -1e30f;
                sc1[k][i] = (sit[k].sextra && sp->n)
                                ? move_score(d, k, sl + 1, sp, &raw1[k][i])
                                : -1e30f;
                if (vkey && sp->n) {
                    mscore_put(d, k, sl, vkey, sc[k][i], raw[k][i]);
                    if (sit[k].extra)
                        mscore_put(d, k, sl + 2, vkey, scx[k][i], rawx[k][i]);
                    if (sit[k].sextra)
                        mscore_put(d, k, sl + 1, vkey, sc1[k][i], raw1[k][i]);
                }
            }
        }
        /* a record naming no legal move here: the moves one numeral off
         * it read as its slips of the pen (slip_score) */
        for (k = 0; k < d->nsrc; k++) {
            const vd_cell *c = &d->res->cells[k][sit[k].slot];
            float mr = -1e30f;
            if (sit[k].state != VK_READ)
                continue;
            /* (a legal move reading as well as the text: it names that
             * one; the parse is the costly part) */
            for (i = 0; i < n; i++)
                if (raw[k][i] > mr)
                    mr = raw[k][i];
            if (mr >= c->text_score || !names_no_move(c, b))
                continue;
            if (!sp) {
                sp = xq_malloc(sizeof *sp);
                XQ_FAIL_IF(!sp, XQ_ENOMEM, "spellings");
            }
            for (i = 0; i < n; i++) {
                float v = slip_score(d, k, sit[k].slot, b, mvs[i], vkeys[i], sp);
                if (v > sc[k][i])
                    sc[k][i] = v;
            }
        }
        xq_free(sp);
        /* Reference of a cell: its own reading, or the best legal move of
         * the first prefix that reaches it. */
        for (k = 0; k < d->nsrc; k++) {
            /* the cell, the one after it in its column, and the next
             * entry (the other side's: its reference is its own text's
             * score, which a typed text never falls below) */
            const float *rs[3] = { raw[k], rawx[k], raw1[k] };
            const int at[3] = { 0, 2, 1 };
            const bool use[3] = { true, sit[k].extra, sit[k].sextra };
            int x;
            if (sit[k].state != VK_READ)
                continue;
            for (x = 0; x < 3; x++) {
                vd_cell *c;
                if (!use[x])
                    continue;
                c = &d->res->cells[k][sit[k].slot + at[x]];
                if (!c->touched) {
                    double m = c->text_score;
                    for (i = 0; i < n; i++)
                        if (rs[x][i] > m)
                            m = rs[x][i];
                    c->ref = m;
                    c->touched = true;
                }
            }
            /* Junk/repeated cell only when this cell explains no legal move. */
            if (sit[k].extra) {
                double m = -1e30;
                for (i = 0; i < n; i++)
                    if (sc[k][i] > m)
                        m = sc[k][i];
                extra_ok[k] = d->scale * (m - d->res->cells[k][sit[k].slot].ref)
                              < -VD_FLOOR / 2;
            }
            /* (a typed entry that is a legal move may still be one typed
             * twice: the record is offered on, as a skip is) */
            sextra_ok[k] = sit[k].sextra;
        }
    }

    /* A skip is offered only where this prefix reads the cell poorly:
     * where the cell reads well the move is there. (A skip whose shifted
     * moves stay legal for a while is found where they stop fitting; the
     * plies before it are then put under review, see posterior().) */
    bool skip_ok[VD_MAXSRC], sskip_ok[VD_MAXSRC];
    for (k = 0; k < d->nsrc; k++) {
        skip_ok[k] = sskip_ok[k] = false;
        if (sit[k].state == VK_READ) {
            double m = -1e30;
            vd_cell *c = &d->res->cells[k][sit[k].slot];
            for (i = 0; i < n; i++)
                if (sc[k][i] > m)
                    m = sc[k][i];
            skip_ok[k] = d->scale * (m - c->ref) < -VD_SKIP_GATE;
            /* the record moved back a cell: this cell holds the other
             * side's move, which reads as none of this side's */
            sskip_ok[k] = d->scale * (m - c->ref) < -VD_SSKIP_GATE;
        }
    }
    /* every sheet blank here: the moves' order by the records after */
    vlook lk[VD_MAXSRC * VD_LOOK_SPAN];
    int nlk = 0;
    {
        bool allblank = true;
        for (k = 0; k < d->nsrc; k++)
            if (sit[k].state != VK_BLANK)
                allblank = false;
        if (allblank && forced == XQ_MOVE_NONE)
            nlk = look_records(d, e, b, ply, side, lk);
    }
    /* how well the best move reads, summed over the sheets that read; at
     * a scribbled cell (ink that is no writing) none is a long shot */
    double best_read = -1e30;
    int nfloor = 0;
    bool scribbled = false;
    for (k = 0; k < d->nsrc; k++)
        if (sit[k].state == VK_READ &&
            d->res->cells[k][sit[k].slot].illegible)
            scribbled = true;
    for (i = 0; i < n; i++) {
        double t = 0;
        bool any = false;
        for (k = 0; k < d->nsrc; k++)
            if (sit[k].state == VK_READ) {
                t += emit(d->scale * (sc[k][i] - d->res->cells[k][sit[k].slot].ref));
                any = true;
            }
        if (any && t > best_read)
            best_read = t;
    }
    for (i = 0; i < n; i++) {
        uint16_t guided = 0;
        size_t g;
        for (g = 0; e->guided && g < d->nguide; g++)
            if ((e->guided >> g & 1) && (size_t)ply <= d->guide_len &&
                d->guide[g * d->guide_len + (size_t)ply - 1] == mvs[i])
                guided |= (uint16_t)(1u << g);
        /* options per sheet: up to 5 (read / skip / skip of the record /
         * extra / extra of the record) */
        int nopt[VD_MAXSRC], o[VD_MAXSRC];
        double oe[VD_MAXSRC][5];
        uint8_t okind[VD_MAXSRC][5];
        int32_t oslot[VD_MAXSRC][5];
        float osc[VD_MAXSRC][5];
        int8_t odoff[VD_MAXSRC][5], odsh[VD_MAXSRC][5];
        for (k = 0; k < d->nsrc; k++) {
            nopt[k] = 0;
            o[k] = 0;
            if (sit[k].state == VK_READ) {
                vd_cell *c = &d->res->cells[k][sit[k].slot];
                double rel = d->scale * (sc[k][i] - c->ref);
                oe[k][0] = emit(rel);
                okind[k][0] = VK_READ;
                oslot[k][0] = sit[k].slot;
                osc[k][0] = raw[k][i];
                odoff[k][0] = 0;
                odsh[k][0] = 0;
                nopt[k] = 1;
                if (skip_ok[k]) {
                    /* skipped: this column moves up a row ... */
                    oe[k][1] = -VD_SKIP;
                    okind[k][1] = VK_SKIP;
                    oslot[k][1] = -1;
                    osc[k][1] = 0;
                    odoff[k][1] = 1;
                    odsh[k][1] = 0;
                    nopt[k] = 2;
                }
                if (sskip_ok[k]) {
                    /* ... or the whole record moves back a cell (the next
                     * move is written in this ply's cell, the columns
                     * change sides) */
                    int x = nopt[k];
                    oe[k][x] = -VD_SKIP;
                    okind[k][x] = VK_SKIP;
                    oslot[k][x] = -1;
                    osc[k][x] = 0;
                    odoff[k][x] = 0;
                    odsh[k][x] = 1;
                    nopt[k] = x + 1;
                }
                if (extra_ok[k]) {
                    int x = nopt[k];
                    vd_cell *c2 = &d->res->cells[k][sit[k].slot + 2];
                    double rel2 = d->scale * (scx[k][i] - c2->ref);
                    oe[k][x] = -VD_EXTRA + emit(rel2);
                    okind[k][x] = VK_EXTRA;
                    oslot[k][x] = sit[k].slot + 2;
                    osc[k][x] = rawx[k][i];
                    odoff[k][x] = -1;
                    odsh[k][x] = 0;
                    nopt[k] = x + 1;
                }
                if (sextra_ok[k]) {
                    /* the move is in the next cell: the record moves on
                     * a cell (the columns change sides) */
                    int x = nopt[k];
                    vd_cell *c1 = &d->res->cells[k][sit[k].slot + 1];
                    double rel1 = d->scale * (sc1[k][i] - c1->ref);
                    oe[k][x] = -VD_EXTRA + emit(rel1);
                    okind[k][x] = VK_EXTRA;
                    oslot[k][x] = sit[k].slot + 1;
                    osc[k][x] = raw1[k][i];
                    odoff[k][x] = 0;
                    odsh[k][x] = -1;
                    nopt[k] = x + 1;
                }
            } else {
                oe[k][0] = 0;
                okind[k][0] = (uint8_t)sit[k].state;
                oslot[k][0] = sit[k].state == VK_BLANK ? sit[k].slot : -1;
                osc[k][0] = 0;
                odoff[k][0] = 0;
                odsh[k][0] = 0;
                nopt[k] = 1;
            }
        }
        for (;;) {
            vchild c;
            double s = e->score + prior;
            bool pure_floor = true;
            for (k = 0; k < d->nsrc; k++) {
                s += oe[k][o[k]];
                if (okind[k][o[k]] != VK_READ || oe[k][o[k]] > -VD_FLOOR + 0.3)
                    pure_floor = false;
            }
            /* a move the cell does not support at all, while a sibling
             * reads well: keep only a few such long shots per prefix. Not
             * at a scribble: what its ink happens to read as tells nothing
             * of the move under it (the true one was cut, a clean kai
             * sheet's scribble reading like a move of another piece: 7
             * records after it read wrong, three of them corrected) */
            if (pure_floor && best_read > -3.0 && !scribbled &&
                ++nfloor > VD_FLOOR_KEEP && !guided)
                s = -1e300;
            bool shift = false;
            for (k = 0; k < d->nsrc; k++)
                if (okind[k][o[k]] == VK_SKIP || okind[k][o[k]] == VK_EXTRA)
                    shift = true;
            if (s > *pbest)
                *pbest = s;
            /* a realignment pays its penalty now and is repaid only by
             * the cells after it: it is kept further below the best */
            if (s > -1e299 &&
                (guided ||
                 s >= *pbest - (shift ? VD_SHIFT_DROP : VD_BEAM_DROP))) {
                memset(&c, 0, sizeof c);
                c.score = s;
                c.entry = ei;
                c.mv = mvs[i];
                c.forced = forced != XQ_MOVE_NONE;
                c.guided = guided;
                c.em = 0;
                for (k = 0; k < d->nsrc; k++)
                    c.em += (float)oe[k][o[k]];
                c.look = nlk ? (float)(VD_LOOK_W *
                                       look_ahead(b, mvs[i], lk, nlk))
                             : 0.0f;
                for (k = 0; k < d->nsrc; k++) {
                    c.kind[k] = okind[k][o[k]];
                    c.slot[k] = oslot[k][o[k]];
                    c.sc[k] = osc[k][o[k]];
                    c.doff[k] = odoff[k][o[k]];
                    c.dsh[k] = odsh[k][o[k]];
                }
                XQ_TRY(add_child(d, &c));
            }
            /* next combination */
            for (k = 0; k < d->nsrc; k++) {
                if (++o[k] < nopt[k])
                    break;
                o[k] = 0;
            }
            if (k == d->nsrc)
                break;
        }
    }
    return st;
}

/* The children's order: best score first, then (deterministic tie-break)
 * entry, move and kinds, packed in vkey.tie, then the order they were
 * made in: a total order, the same whatever sorts or selects by it. */
static bool key_before(const vkey *x, const vkey *y)
{
    if (x->score != y->score)
        return x->score > y->score;
    if (x->tie != y->tie)
        return x->tie < y->tie;
    return x->seq < y->seq;
}

static void key_swap(vkey *a, size_t i, size_t j)
{
    vkey t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Partition a[lo, hi) (hi - lo >= 2) about the median of its first,
 * middle and last keys; returns the pivot's place. */
static size_t key_partition(vkey *a, size_t lo, size_t hi)
{
    size_t mid = lo + (hi - lo) / 2, j, store;
    /* the median of lo, mid, hi - 1 goes to hi - 1 as the pivot */
    if (key_before(&a[mid], &a[lo]))
        key_swap(a, mid, lo);
    if (key_before(&a[hi - 1], &a[lo]))
        key_swap(a, hi - 1, lo);
    if (key_before(&a[mid], &a[hi - 1]))
        key_swap(a, mid, hi - 1);
    for (store = lo, j = lo; j < hi - 1; j++)
        if (key_before(&a[j], &a[hi - 1]))
            key_swap(a, j, store++);
    key_swap(a, store, hi - 1);
    return store;
}

static void key_sift(vkey *a, size_t i, size_t n)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            return;
        if (c + 1 < n && key_before(&a[c], &a[c + 1]))
            c++;
        if (!key_before(&a[i], &a[c]))
            return;
        key_swap(a, i, c);
        i = c;
    }
}

/* Sort a[0, n) in key_before's order (a total order: any correct sort
 * gives the one result). qsort's mergesort called its comparator through
 * a pointer for every pair, a tenth of the decoder's time: quicksort with
 * median-of-three pivots, insertion sort for short ranges, heapsort where
 * the pivots keep going badly. */
static void key_sort(vkey *a, size_t n)
{
    size_t lo = 0, hi = n;
    int depth = 0;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    while (hi - lo > 16) {
        size_t p;
        if (depth-- == 0) {
            size_t i, len = hi - lo;
            vkey *b = a + lo;
            for (i = len / 2; i-- > 0;)
                key_sift(b, i, len);
            for (i = len - 1; i > 0; i--) {
                key_swap(b, 0, i);
                key_sift(b, 0, i);
            }
            /* heapsort leaves the largest last: key_before's max is the
             * last in order, as wanted */
            return;
        }
        p = key_partition(a, lo, hi);
        /* the smaller side sorted by a call, the larger by the loop */
        if (p - lo < hi - p - 1) {
            key_sort(a + lo, p - lo);
            lo = p + 1;
        } else {
            key_sort(a + p + 1, hi - p - 1);
            hi = p;
        }
    }
    for (size_t i = lo + 1; i < hi; i++) {
        vkey x = a[i];
        size_t j = i;
        while (j > lo && key_before(&x, &a[j - 1])) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* Reorder a[0, n) so that its first m in key_before's order come first (in
 * no order): quickselect, median-of-three pivots. */
static void key_select(vkey *a, size_t n, size_t m)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t store = key_partition(a, lo, hi);
        if (store == m || store + 1 == m)
            return;
        if (m < store)
            hi = store;
        else
            lo = store + 1;
    }
}

/* The sort key of child c, found at index idx. */
static void key_of(vkey *key, const vchild *c, size_t idx)
{
    uint64_t t = (uint64_t)(uint32_t)c->entry << 32 | (uint64_t)c->mv << 16;
    int k;
    for (k = 0; k < VD_MAXSRC; k++)
        t |= (uint64_t)c->kind[k] << (8 * (VD_MAXSRC - 1 - k));
    key->score = c->score + c->look;
    key->tie = t;
    key->seq = c->seq;
    key->idx = (uint32_t)idx;
}

/* Put the first m of kids[0, n) in key_before's order at the front, in that
 * order (all n for m >= n); the rest follow in no order. The keys are
 * sorted, not the children (half their size), then the children are put
 * in order through d->sorted. */
static xq_status sort_kids(vdec *d, vchild *kids, size_t n, size_t m)
{
    size_t i;
    if (n < 2)
        return XQ_OK;
    XQ_TRY(grow((void **)&d->keys, &d->capkeys, n, sizeof *d->keys));
    XQ_TRY(grow((void **)&d->sorted, &d->capsorted, n, sizeof *d->sorted));
    for (i = 0; i < n; i++)
        key_of(&d->keys[i], &kids[i], i);
    if (m < n)
        key_select(d->keys, n, m);
    else
        m = n;
    key_sort(d->keys, m);
    for (i = 0; i < n; i++)
        d->sorted[i] = kids[d->keys[i].idx];
    memcpy(kids, d->sorted, n * sizeof *kids);
    return XQ_OK;
}

static bool child_shifts(const vdec *d, const vchild *c)
{
    int k;
    for (k = 0; k < d->nsrc; k++)
        if (c->kind[k] == VK_SKIP || c->kind[k] == VK_EXTRA)
            return true;
    return false;
}

/* A child's group in group_kids' order: 0 the lead prefixes'
 * realignments (and guided children), 1 within VD_LOST_RANGE of refp, 2
 * the rest, 3 dropped (below bestc - VD_SHIFT_DROP). */
static uint8_t kid_group(const vdec *d, const ventry *cur, const vchild *c,
                         double bestp, double bestc, double refp)
{
    if (c->score < bestc - VD_SHIFT_DROP && !c->guided)
        return 3;
    if ((cur[c->entry].score >= bestp && child_shifts(d, c)) || c->guided)
        return 0;
    return c->score > refp - VD_LOST_RANGE ? 1 : 2;
}

/* The children of a ply, regrouped (order kept within each group) for
 * run()'s two passes: [0, *pn0) the lead prefixes' realignments (pass 0),
 * sorted; [*pn0, *pn1) the others within VD_LOST_RANGE of refp, sorted;
 * then the rest, left for run() to sort only when the beam is not full
 * without them (most children are never looked at; sorting them all was
 * the decoder's main cost). Children below bestc - VD_SHIFT_DROP, where
 * the passes stop, are dropped. *pclose: children within 3 of refp. The
 * first two groups are sorted by their keys and each child copied once,
 * to its place (key_before is a total order: the same order as sorting them
 * in place; grouping, then sorting, copied each child three times). */
static xq_status group_kids(vdec *d, const ventry *cur, double bestp,
                            double bestc, double refp, size_t *pn0,
                            size_t *pn1, size_t *pclose)
{
    size_t i, n, g, at[3] = {0, 0, 0};
    vchild *t;
    *pclose = 0;
    XQ_TRY(grow((void **)&d->sorted, &d->capsorted, d->nkids, sizeof *d->sorted));
    XQ_TRY(grow((void **)&d->group, &d->capgroup, d->nkids, sizeof *d->group));
    for (i = 0; i < d->nkids; i++) {
        const vchild *c = &d->kids[i];
        uint8_t cg = kid_group(d, cur, c, bestp, bestc, refp);
        d->group[i] = cg;
        if (cg == 3)
            continue;   /* dropped */
        *pclose += c->score >= refp - 3.0;
        at[cg]++;
    }
    n = at[0] + at[1] + at[2];
    *pn0 = at[0];
    *pn1 = at[0] + at[1];
    XQ_TRY(grow((void **)&d->keys, &d->capkeys, *pn1, sizeof *d->keys));
    at[2] = *pn1;
    at[1] = *pn0;
    at[0] = 0;
    for (i = 0; i < d->nkids; i++) {
        if (d->group[i] < 2)
            key_of(&d->keys[at[d->group[i]]++], &d->kids[i], i);
        else if (d->group[i] == 2)
            d->sorted[at[2]++] = d->kids[i];
    }
    key_sort(d->keys, *pn0);
    key_sort(d->keys + *pn0, *pn1 - *pn0);
    for (i = 0; i < *pn1; i++)
        d->sorted[i] = d->kids[d->keys[i].idx];
    t = d->kids;
    d->kids = d->sorted;
    d->sorted = t;
    g = d->capkids;
    d->capkids = d->capsorted;
    d->capsorted = g;
    d->nkids = n;
    return XQ_OK;
}

/* Key of entry e whose position hashes to h (xq_board_hash). */
static uint64_t entry_key(const ventry *e, uint64_t h, int nsrc)
{
    int k, s;
    for (k = 0; k < nsrc; k++) {
        for (s = 0; s < 2; s++)
            h ^= (uint64_t)(uint8_t)(e->off[k][s] + 64) *
                 (0x9E3779B97F4A7C15ull + (uint64_t)(k * 2 + s) * 0x100000001B3ull);
        h ^= (uint64_t)(uint8_t)(e->sh[k] + 64) *
             (0xC2B2AE3D27D4EB4Full + (uint64_t)k * 0x165667B19E3779F9ull);
    }
    return h;
}

static xq_status new_node(vdec *d, const vchild *c, int32_t parent, int ply,
                          int32_t *pidx)
{
    vnode *n;
    int k;
    XQ_TRY(grow((void **)&d->nodes, &d->capnodes, d->nnodes + 1,
                sizeof *d->nodes));
    n = &d->nodes[d->nnodes];
    n->parent = parent;
    n->ghost = -1;
    n->mv = c->mv;
    n->ply = (int16_t)ply;
    n->forced = c->forced;
    for (k = 0; k < VD_MAXSRC; k++) {
        n->kind[k] = k < d->nsrc ? c->kind[k] : VK_NONE;
        n->slot[k] = k < d->nsrc ? c->slot[k] : -1;
        n->sc[k] = k < d->nsrc ? c->sc[k] : 0;
    }
    n->score = c->score;
    *pidx = (int32_t)d->nnodes++;
    return XQ_OK;
}

/* ---- posterior -------------------------------------------------------- */

typedef struct {
    vd_alt a[VD_NCAND * 2];
    int    n;
} valts;

static void alts_add(valts *al, xq_move mv, double m)
{
    int i;
    for (i = 0; i < al->n; i++)
        if (al->a[i].mv == mv) {
            al->a[i].p += m;
            return;
        }
    if (al->n < (int)XQ_ARRAY_LEN(al->a)) {
        al->a[al->n].mv = mv;
        al->a[al->n].p = m;
        al->n++;
        return;
    }
    /* full: replace the lightest if this is heavier */
    {
        int w = 0;
        for (i = 1; i < al->n; i++)
            if (al->a[i].p < al->a[w].p)
                w = i;
        if (m > al->a[w].p) {
            al->a[w].mv = mv;
            al->a[w].p = m;
        }
    }
}

static int cmp_alt(const void *a, const void *b)
{
    const vd_alt *x = a, *y = b;
    return x->p > y->p ? -1 : x->p < y->p ? 1 : (x->mv < y->mv ? -1 : x->mv > y->mv);
}

/* How far (scaled) a move whose best spelling scores sc reads below the
 * best reading of sheet k's cell slot: 0 as well as anything, below
 * -VD_MISFIT the cell does not tell the move. */
static double cell_gap(const vdec *d, int k, int32_t slot, float sc)
{
    return d->scale * (sc - d->res->cells[k][slot].ref);
}

/* The cell decoded ply p read on sheet k (read, or after a junk cell);
 * NULL where it read none there. */
static const vd_cell *read_cell(const vdec *d, const vd_ply *p, int k)
{
    if ((p->kind[k] != VK_READ && p->kind[k] != VK_EXTRA) || p->slot[k] < 0 ||
        (size_t)p->slot[k] >= d->res->ncells[k])
        return NULL;
    return &d->res->cells[k][p->slot[k]];
}

/* Ply p's cell on sheet k, where it may tell the move: a read cell whose
 * ink is writing (an illegible one tells nothing, however it reads). */
static const vd_cell *told_by(const vdec *d, const vd_ply *p, int k)
{
    const vd_cell *c = read_cell(d, p, k);
    return c && !c->illegible ? c : NULL;
}

static bool ply_told(const vdec *d, const vd_ply *p)
{
    int k;
    for (k = 0; k < d->nsrc; k++)
        if (told_by(d, p, k) &&
            cell_gap(d, k, p->slot[k], p->sc[k]) > -VD_MISFIT)
            return true;
    return false;
}

/* Does some cell read ply p's move better than a cell that explains no
 * move (VD_FLOOR)? ply_told measures a reading against the cell's own
 * best one: a cell scribbled out, or struck through where the strike was
 * not found, reads every move about as badly as its own garbage, so the
 * move the decoder chose there is "told" by it. Chosen by the records
 * after it, such a move (a horse's detour, for one) can hold a whole
 * history that later records read as well as the game's, and no single
 * alternative ply followed undoes it. */
static bool ply_read_clearly(const vdec *d, const vd_ply *p)
{
    int k;
    for (k = 0; k < d->nsrc; k++)
        if (told_by(d, p, k) && d->scale * p->sc[k] > -VD_FLOOR)
            return true;
    return false;
}

/* Put in doubt the squares of every legal move on b. */
static void doubt_all(xq_board *b, bool *doubt)
{
    xq_move mvs[XQ_MAX_MOVES];
    int n = xq_board_legal_moves(b, mvs), i;
    for (i = 0; i < n; i++)
        doubt[XQ_MOVE_FROM(mvs[i])] = doubt[XQ_MOVE_TO(mvs[i])] = true;
}

/* The legal moves on b other than p's whose best spelling p's cells read
 * within VD_FLOOR / 2 of p's move, into out[XQ_MAX_MOVES]; their count, or
 * -1 without memory for the spellings. */
static int reader_moves(vdec *d, xq_board *b, const vd_ply *p, xq_move *out)
{
    xq_move mvs[XQ_MAX_MOVES];
    vs_spellings *sp = xq_malloc(sizeof *sp);
    int n = xq_board_legal_moves(b, mvs), i, k, nout = 0;
    if (!sp)
        return -1;
    for (i = 0; i < n; i++) {
        if (mvs[i] == p->mv ||
            spell(d, b, mvs[i], 0, sp) != XQ_OK || sp->n == 0)
            continue;
        for (k = 0; k < d->nsrc; k++) {
            int slot = p->slot[k];
            float raw = -1e30f;
            if ((p->kind[k] != VK_READ && p->kind[k] != VK_EXTRA) || slot < 0 ||
                (size_t)slot >= d->res->ncells[k] || cell_touch(d, k, slot) != XQ_OK)
                continue;
            move_score(d, k, slot, sp, &raw);
            if (d->scale * (raw - p->sc[k]) > -VD_FLOOR / 2) {
                out[nout++] = mvs[i];
                break;
            }
        }
    }
    xq_free(sp);
    return nout;
}

/* ---- where did a column change its alignment? ------------------------- */

/* The decoded record, replayed once: the board before each ply, each move
 * written as the record would (canonical Chinese) and whether a cell reads
 * as it ("clean": evidence an alternative reading must explain). */
typedef struct {
    xq_board *before;       /* [len + 1]: before ply t at [t - 1] */
    char    (*text)[32];
    bool     *clean;
    bool     *agreed;       /* every sheet with ink for it reads as it */
    double   *em;           /* emission of each decoded move by its cells
                               (NAN: not computed yet) */
    vs_spellings *sp;       /* scratch */
    size_t    len;
} vplay;

static bool ply_agreed(const vdec *d, const vd_ply *p)
{
    int k;
    for (k = 0; k < d->nsrc; k++)
        if ((p->kind[k] == VK_READ || p->kind[k] == VK_EXTRA) &&
            (p->slot[k] < 0 || (size_t)p->slot[k] >= d->res->ncells[k] ||
             d->scale * (p->sc[k] - d->res->cells[k][p->slot[k]].ref) <=
                 -VD_FLOOR / 2))
            return false;
    return ply_told(d, p);
}

/* Emission of move mv, played on b, by the cells of decoded ply r (the
 * record the move is read from): the decoder's own model (emit of the
 * move's best spelling against each cell's reference; blank: 0). */
static double rec_emit(vdec *d, vplay *vp, xq_board *b, xq_move mv, size_t r)
{
    const vd_ply *p = &d->res->plies[r - 1];
    double e = 0;
    int k;
    bool spelt = false;
    uint64_t vkey = 0;
    for (k = 0; k < d->nsrc; k++) {
        const vd_cell *c = read_cell(d, p, k);
        float best, raw;
        if (!c)
            continue;
        if (!c->touched) {
            e += -VD_FLOOR;
            continue;
        }
        /* the decoder's own cache of the move's scores in this cell */
        if (!vkey)
            vkey = xq_notation_variants_key(b, mv, d->kinds);
        if (!vkey || !mscore_get(d, k, p->slot[k], vkey, &best, &raw)) {
            if (!spelt) {
                if (spell(d, b, mv, vkey, vp->sp) != XQ_OK)
                    vp->sp->n = 0;
                spelt = true;
            }
            if (!vp->sp->n) {
                e += -VD_FLOOR;
                continue;
            }
            best = move_score(d, k, p->slot[k], vp->sp, &raw);
            if (vkey)
                mscore_put(d, k, p->slot[k], vkey, best, raw);
        }
        /* as expand reads it: a slip of the pen of a record that names no
         * legal move (slip_score spells mv on b into vp->sp too). Where the
         * move reads as well as the text (raw), no slip (VD_SLIP below the
         * text) scores above its best (at most -log 0.01 = 4.6 nats of
         * prior below raw): the parse is skipped, the result the same */
        if (raw < c->text_score && names_no_move(c, b)) {
            float v = slip_score(d, k, p->slot[k], b, mv, vkey, vp->sp);
            if (v > best)
                best = v;
        }
        e += emit(d->scale * (best - c->ref));
    }
    return e;
}

/* Emission of decoded ply r as decoded (cached). */
static double dec_emit(vdec *d, vplay *vp, size_t r)
{
    if (isnan(vp->em[r - 1])) {
        xq_board b;
        xq_board_copy(&b, &vp->before[r - 1]);
        vp->em[r - 1] = rec_emit(d, vp, &b, d->res->plies[r - 1].mv, r);
    }
    return vp->em[r - 1];
}

/* A record nothing clean tells, on an alternative board: play the legal
 * move that reads it best (its emission in *pem; the second best to
 * *psecond where not NULL, XQ_MOVE_NONE if none); 0 if there is none. */
static int alt_best(vdec *d, vplay *vp, xq_board *b, size_t src,
                    xq_move *played, double *pem, xq_move *psecond)
{
    xq_move mvs[XQ_MAX_MOVES];
    int n = xq_board_legal_moves(b, mvs), i, bi = -1, si = -1;
    double best = -1e300, sec = -1e300;
    for (i = 0; i < n; i++) {
        double e = rec_emit(d, vp, b, mvs[i], src);
        if (e > best) {
            sec = best;
            si = bi;
            best = e;
            bi = i;
        } else if (e > sec) {
            sec = e;
            si = i;
        }
    }
    if (bi < 0)
        return 0;
    *played = mvs[bi];
    *pem = best;
    if (psecond)
        *psecond = si >= 0 ? mvs[si] : XQ_MOVE_NONE;
    return xq_board_make_move(b, mvs[bi], NULL) ? 1 : 0;
}

/* Play ply u's record (the text of decoded ply src) on b: the move that
 * text names on b. Returns 1 played, 0 refuted (a clean record names no
 * legal move here), -1 cannot tell (nothing clean to go by and the decoded
 * move does not fit: the alternative stays possible). */
static int alt_play(vplay *vp, const vd_result *res, xq_board *b, size_t src,
                    xq_move *played)
{
    xq_move mv = XQ_MOVE_NONE;
    char msg[8], rule[8];
    if (src < 1 || src > vp->len)
        return -1;
    if (vp->clean[src - 1]) {
        if (vs_read(b, vp->text[src - 1], &mv, msg, sizeof msg, rule,
                    sizeof rule) != XQ_RES_OK || mv == XQ_MOVE_NONE)
            return 0;
        *played = mv;
        return xq_board_make_move(b, mv, NULL) ? 1 : 0;
    }
    *played = res->plies[src - 1].mv;
    return xq_board_make_move(b, res->plies[src - 1].mv, NULL) ? 1 : -1;
}

static const vd_cell *reads_other(const vdec *d, const vd_ply *p, int k);

/* A record that reads clearly as no legal move of the decoded game (an
 * illegal or shifted record, reads_other): where its text names a legal
 * move on an alternative board b, play that (the alternative explains the
 * record) and return true; else leave b as it was. */
static bool alt_play_bad(vdec *d, vplay *vp, xq_board *b, size_t src,
                         xq_move *played)
{
    char msg[8], rule[8];
    xq_move mv = XQ_MOVE_NONE;
    int k;
    if (src < 1 || src > vp->len || vp->clean[src - 1])
        return false;
    for (k = 0; k < d->nsrc; k++) {
        const vd_cell *c = reads_other(d, &d->res->plies[src - 1], k);
        if (c && c->text[0] &&
            vs_read(b, c->text, &mv, msg, sizeof msg, rule, sizeof rule) ==
                XQ_RES_OK &&
            mv != XQ_MOVE_NONE && xq_board_make_move(b, mv, NULL)) {
            *played = mv;
            return true;
        }
    }
    return false;
}

/* The record ply u plays in alt_viable's alternative: side's column
 * (mine) from t0 on one turn late (skip) or early, up to t; every other
 * ply its own. */
static size_t shift_src(bool mine, bool skip, size_t u, size_t t)
{
    if (mine && skip && u <= t)
        return u - 2;
    if (mine && !skip && u < t)
        return u + 2;
    return u;
}

/* alt_viable's alternative, unscored, followed from ply u on board b to
 * ply tend: each ply plays its record (side's column from t0 on one turn
 * late (skip) or early, up to t). False where a clean record refutes it;
 * else true, with mk[q - t0] set where it plays another move at ply q < t
 * than the decoded record and *pstop lowered to the first ply it cannot
 * be followed to. A record nothing clean tells whose decoded move the
 * alternative's board does not allow (the alternative moved that piece
 * already) is played by every legal move in turn (up to VD_SHIFT_DEPTH
 * such records one within another, and while *budget (plies) lasts;
 * past them the plies cannot be told): the alternative stands where
 * some way of playing it does, and marks what any of them changes.
 * depth: such records played so far; the caller passes VD_SHIFT_DEPTH
 * for none. Stopping there (every ply after it in doubt, both columns)
 * had put the whole of a clean printed sheet under review: two scribbled
 * records of Black's, and Black's column checked at the end of the
 * record for a skip never found. Only an alternative out of step to the
 * record's end (t past it: that check, and a bad record's column staying
 * a move behind) or back in step at a skip of the decoded record (t)
 * tries every move. One that falls back into step at a record that reads
 * as no legal move (t) still cannot tell from such a record on, every
 * ply after it under review, since trouble seldom comes alone (a blank
 * cell filled wrong and a skip near it: with every move tried there too,
 * a cannon four ranks off was sure and wrong on two plies of a synthetic
 * sheet, bench_verify clean+blanks+skip corpus line 233, and a ply of
 * kai+stress). */
static bool shift_follow(vdec *d, vplay *vp, xq_board *b, size_t u, int side,
                         bool skip, size_t t0, size_t t, size_t tend,
                         bool *mk, size_t *pstop, int depth, long *budget)
{
    size_t span = t - t0 < VD_SHIFT_SPAN ? t - t0 : VD_SHIFT_SPAN;
    for (; u <= tend && u <= vp->len + 1; u++) {
        bool mine = xq_board_side(b) == side;
        size_t src = shift_src(mine, skip, u, t);
        xq_move am = XQ_MOVE_NONE;
        xq_board b0;
        int r;
        (*budget)--;
        if (!skip && mine && src == t) {
            if (u < *pstop)
                *pstop = u;   /* the junk cell itself: cannot tell */
            return true;
        }
        if (src > vp->len)
            return true;      /* the record ends: nothing refutes it */
        xq_board_copy(&b0, b);
        r = alt_play_bad(d, vp, b, src, &am) ? 1
                                              : alt_play(vp, d->res, b, src, &am);
        if (r == -1 && depth < VD_SHIFT_DEPTH && *budget > 0) {
            xq_move ys[XQ_MAX_MOVES];
            bool acc[VD_SHIFT_SPAN] = { false }, any = false;
            size_t stop = (size_t)-1, q;
            int ny = xq_board_legal_moves(&b0, ys), i;
            for (i = 0; i < ny && *budget > 0; i++) {
                bool m2[VD_SHIFT_SPAN];
                size_t s2 = *pstop;
                xq_board c;
                xq_board_copy(&c, &b0);
                if (!xq_board_make_move(&c, ys[i], NULL))
                    continue;
                memcpy(m2, mk, sizeof m2);
                if (u < t && u - t0 < span && u <= vp->len &&
                    ys[i] != d->res->plies[u - 1].mv)
                    m2[u - t0] = true;
                if (!shift_follow(d, vp, &c, u + 1, side, skip, t0, t, tend,
                                  m2, &s2, depth + 1, budget))
                    continue;
                any = true;
                for (q = 0; q < VD_SHIFT_SPAN; q++)
                    acc[q] = acc[q] || m2[q];
                if (s2 < stop)
                    stop = s2;
            }
            if (*budget <= 0) {   /* not every way was tried */
                if (u < *pstop)
                    *pstop = u;
                return true;
            }
            if (!any)
                return false;   /* every way of playing it refuted */
            memcpy(mk, acc, sizeof acc);
            if (stop < *pstop)
                *pstop = stop;
            return true;
        }
        if (u < t && u - t0 < span && u <= vp->len &&
            am != d->res->plies[u - 1].mv)
            mk[u - t0] = true;
        if (r == 0)
            return false;
        if (r == -1) {
            if (u < *pstop)
                *pstop = u;
            return true;
        }
    }
    return true;
}

/* Could side's column have changed its alignment at ply t0 instead of at
 * t (t0 < t, both plies of that side), the cells between read one of that
 * side's moves later (skip: an unknown move at t0, each record then
 * played one turn late) or earlier (junk cell at t0: each record played
 * one turn early), and the record still be a legal game up to ply tend?
 * Every other ply plays its own record; a record that reads clearly as no
 * legal move of the decoded game, by its text where that is legal on the
 * alternative's board (alt_play_bad: the alternative explains it; played
 * by the decoded game's guess, the true place of a skip had been refuted,
 * test_slip_before_blank line 238). A clean record that names no
 * legal move where the alternative puts it refutes the alternative.
 * Every way of playing the alternative is tried (each move at a skip;
 * unscored, each move at a record nothing clean tells whose decoded move
 * the alternative's board does not allow: shift_follow); diff[u - t0]
 * (u < t, within VD_SHIFT_SPAN; the caller counts plies past it as
 * changed) is set where a viable one plays another move at ply u than
 * the decoded record, or cannot be followed that far.
 * scored (badt: the bad record that called for it): the alternative must
 * also score within VD_ALT_RANGE of the decoded record, record by record
 * under the decoder's own model (rec_emit; VD_SKIP for the skip,
 * VD_EXTRA for a record it drops). A record nothing clean tells is then
 * played by the move reading it best; one no move reads, next to badt,
 * leaves the move free: from there it cannot be told, and badt is
 * credited as explained. scored without badt (0): the decoded record
 * skips at t itself, so the alternative's skip costs nothing more and no
 * record of the decoded game is dropped. */
static bool alt_viable(vdec *d, vplay *vp, bool skip, int side,
                       size_t t0, size_t t, size_t tend, bool *diff,
                       bool scored, size_t badt)
{
    xq_move xs[XQ_MAX_MOVES];
    bool mk[VD_SHIFT_SPAN], any = false;
    int nx = 1, x;
    size_t q, span = t - t0 < VD_SHIFT_SPAN ? t - t0 : VD_SHIFT_SPAN;
    long budget = VD_SHIFT_BUDGET;
    /* unscored, every move is tried at a record nothing clean tells only
     * where the alternative stays out of step to the record's end or
     * falls back into step at a skip of the decoded record (see
     * shift_follow) */
    bool every = t > vp->len;
    int k;
    for (k = 0; k < d->nsrc && !every; k++)
        every = d->res->plies[t - 1].kind[k] == VK_SKIP;
    if (skip)
        nx = xq_board_legal_moves(&vp->before[t0 - 1], xs);
    for (x = 0; x < nx; x++) {
        xq_board b;
        xq_board_copy(&b, &vp->before[t0 - 1]);
        size_t u, stop = t;     /* from stop on: cannot tell */
        int r = 1;
        /* the alternative's log score against the decoded record's, over
         * the records it played (records it has yet to play count as
         * read as well as in the decoded record) */
        double rel = skip && badt ? -VD_SKIP : 0;
        bool dropped = false;
        memset(mk, 0, sizeof mk);
        if (!scored) {
            size_t u0 = t0;
            if (skip) {
                if (!xq_board_make_move(&b, xs[x], NULL))
                    continue;
                if (span > 0 && t0 <= vp->len &&
                    xs[x] != d->res->plies[t0 - 1].mv)
                    mk[0] = true;
                u0 = t0 + 1;
            }
            if (!shift_follow(d, vp, &b, u0, side, skip, t0, t, tend, mk,
                              &stop, every ? 0 : VD_SHIFT_DEPTH, &budget))
                continue;      /* refuted */
            any = true;
            for (q = 0; q < span; q++)
                if (mk[q] || t0 + q >= stop)
                    diff[q] = true;
            continue;
        }
        /* scored: record by record, each weighed */
        for (u = t0; u <= tend && u <= vp->len + 1 && r == 1; u++) {
            bool mine = xq_board_side(&b) == side;
            size_t src = u;
            xq_move am = XQ_MOVE_NONE;
            if (skip && u == t0) {
                r = xq_board_make_move(&b, xs[x], NULL) ? 1 : 0;
                am = xs[x];
            } else {
                src = shift_src(mine, skip, u, t);
                if (!skip && mine && src == t) {
                    stop = u;  /* the junk cell itself: cannot tell */
                    break;
                }
                if (src > vp->len)
                    break;     /* the record ends: nothing refutes it */
                if (badt && skip && mine && u == t + 2 &&
                    t <= vp->len)
                    dropped = true;   /* record t was junk */
                {
                    xq_board b0;
                    xq_board_copy(&b0, &b);
                    r = alt_play_bad(d, vp, &b, src, &am)
                            ? 1
                            : alt_play(vp, d->res, &b, src, &am);
                    if (r == -1) {
                        /* follow it by the move reading the
                         * record best; a record no move reads leaves
                         * the move free: from there on it cannot be
                         * told (what follows may explain the bad
                         * record: credited) */
                        double em;
                        xq_board_copy(&b, &b0);
                        r = alt_best(d, vp, &b, src, &am, &em, NULL);
                        if (r == 1)
                            rel += em - dec_emit(d, vp, src);
                        if (r == 1 && em < -VD_FLOOR + 1 && badt &&
                            src != badt && src + 2 >= badt && src <= badt + 2) {
                            r = -1;
                            if (u < stop)
                                stop = u;
                            rel += VD_FLOOR;
                        }
                    } else if (r == 1 && u < stop)
                        rel += rec_emit(d, vp, &b0, am, src) -
                               dec_emit(d, vp, src);
                }
            }
            if (r == -1 && u < stop)
                stop = u;
            if (u < t && u - t0 < span && u <= vp->len &&
                am != d->res->plies[u - 1].mv)
                mk[u - t0] = true;
        }
        if (dropped && r != 0)
            rel += -VD_EXTRA - dec_emit(d, vp, t);
        if (r == 0)
            continue;          /* refuted */
        if (rel < -VD_ALT_RANGE)
            continue;          /* far less likely than the record as read */
        any = true;
        for (q = 0; q < span; q++)
            if (mk[q] || t0 + q >= stop)
                diff[q] = true;
    }
    return any;
}

/* Could ply t0's record, read as it is, be move am written with a slip of
 * the pen: one glyph of one of am's spellings wrong (another file, another
 * distance, 平 for 进)? The OCR's scores cannot tell a slip from any
 * other mismatch; the texts can. */
static bool slip_of(vdec *d, vplay *vp, xq_move am, size_t t0)
{
    const vd_ply *p = &d->res->plies[t0 - 1];
    xq_board b;
    size_t j;
    int k;
    xq_board_copy(&b, &vp->before[t0 - 1]);
    if (spell(d, &b, am, 0, vp->sp) != XQ_OK)
        return false;
    for (k = 0; k < d->nsrc; k++) {
        const vd_cell *c = told_by(d, p, k);
        for (j = 0; c && j < vp->sp->n && c->text[0]; j++)
            if (glyph_off(c->text, vp->sp->v[j].text, false))
                return true;
    }
    return false;
}

/* Quick test before alt_subst scores an alternative: am played at ply t0,
 * each later ply its record's move (a clear record of no legal move, in
 * bads, its text where legal; a clean one its text; any other the decoded
 * move), does the record of ply t (text) name a legal move? false when it
 * certainly does not; true when it does or cannot be told this cheaply. */
static bool alt_reaches(vplay *vp, const vd_result *res, size_t t0, size_t t,
                        xq_move am, const char *text, const char *const *bads)
{
    xq_board b;
    xq_move mv;
    char msg[8], rule[8];
    size_t w;
    xq_board_copy(&b, &vp->before[t0 - 1]);
    if (!xq_board_make_move(&b, am, NULL))
        return false;
    for (w = t0 + 1; w < t; w++) {
        if (bads[w - 1] && vs_read(&b, bads[w - 1], &mv, msg, sizeof msg, rule,
                                   sizeof rule) == XQ_RES_OK &&
            xq_board_make_move(&b, mv, NULL))
            continue;
        if (vp->clean[w - 1]) {
            if (vs_read(&b, vp->text[w - 1], &mv, msg, sizeof msg, rule,
                        sizeof rule) != XQ_RES_OK ||
                !xq_board_make_move(&b, mv, NULL))
                return false;   /* refuted */
            continue;
        }
        if (!xq_board_make_move(&b, res->plies[w - 1].mv, NULL))
            return true;        /* alt_subst picks a move: cannot tell */
    }
    return vs_read(&b, text, &mv, msg, sizeof msg, rule, sizeof rule) ==
           XQ_RES_OK;
}

/* Could another move at ply t0 (an earlier record read wrong) explain the
 * record of ply t that reads as no legal move (text)? Each other legal
 * move is played at t0, then every later ply its own record (alt_play);
 * the alternative explains the record where the text names a legal move
 * on its board that reads well, is not refuted up to tend and scores
 * within VD_ALT_RANGE of the decoded record (a record nothing clean tells
 * is played by the move that reads it best). diff[u - t0] marks the plies
 * up to tend such an alternative plays otherwise (diff may be NULL);
 * *pbest (when not NULL) gets the alternative move at t0 that scores
 * best. bads (may be NULL): per ply, the text of a clear record of no
 * legal move on the decoded board; such a ply is played by the move
 * reading it best (its text, where that is legal), not the decoded one;
 * with bads, the range is VD_ILL_GAP instead of VD_ALT_RANGE, and where
 * ply t0's record reads nearly as its decoded move, the alternative must
 * too (VD_NEAR_READ) or the record be it with a slip of the pen. */
static bool alt_subst(vdec *d, vplay *vp, size_t t0, size_t t, size_t tend,
                      const char *text, bool *diff, xq_move *pbest,
                      const char *const *bads)
{
    xq_move xs[XQ_MAX_MOVES];
    bool mk[VD_SHIFT_SPAN], any = false;
    int nx, x;
    char msg[8], rule[8];
    size_t q;
    double bestrel = -1e300;
    /* a doubt on an illegal verdict (bads): only alternatives as likely
     * as a clear reading is sure (VD_ILL_GAP) */
    double range = bads ? VD_ILL_GAP : VD_ALT_RANGE;
    if (!text || t0 < 1 || t > vp->len || t - t0 >= VD_SHIFT_SPAN)
        return false;
    nx = xq_board_legal_moves(&vp->before[t0 - 1], xs);
    for (x = 0; x < nx; x++) {
        xq_board b, b0;
        xq_board_copy(&b, &vp->before[t0 - 1]);
        xq_move am = xs[x];
        size_t u;
        int r = 1;
        bool explained = false;
        double rel, em0;
        if (am == d->res->plies[t0 - 1].mv)
            continue;
        if (bads && !alt_reaches(vp, d->res, t0, t, am, text, bads))
            continue;
        em0 = rec_emit(d, vp, &b, am, t0);
        rel = em0 - dec_emit(d, vp, t0);
        if (rel < -range - VD_FLOOR)
            continue;      /* could not come back within range */
        /* doubting an illegal verdict: a record that reads nearly as the
         * decoded move (ok, corrected) was misread a little (the
         * alternative reads nearly as well) or miswritten a little (a
         * slip), not replaced by any move (the floor prices that alike) */
        if (bads && dec_emit(d, vp, t0) > VD_NEAR_READ && em0 <= VD_NEAR_READ &&
            !slip_of(d, vp, am, t0))
            continue;
        memset(mk, 0, sizeof mk);
        mk[0] = true;
        if (!xq_board_make_move(&b, am, NULL))
            continue;
        for (u = t0 + 1; u <= tend && u <= vp->len && r == 1; u++) {
            if (u < t && xq_board_hash(&b) == xq_board_hash(&vp->before[u - 1])) {
                r = 0;      /* back on the record's board: explains nothing */
                break;
            }
            xq_board_copy(&b0, &b);
            if (u == t) {
                if (vs_read(&b, text, &am, msg, sizeof msg, rule, sizeof rule) !=
                        XQ_RES_OK || am == XQ_MOVE_NONE) {
                    r = 0;
                    break;
                }
                {
                    double em = rec_emit(d, vp, &b0, am, t);
                    rel += em - dec_emit(d, vp, t);
                    explained = em > -VD_FLOOR / 2;
                }
                if (!explained || !xq_board_make_move(&b, am, NULL))
                    r = 0;
                continue;
            }
            /* a clear record of no legal move (bads) is played by its own
             * text where that is a legal move, else by the move reading
             * it best */
            if (bads && bads[u - 1] &&
                vs_read(&b, bads[u - 1], &am, msg, sizeof msg, rule,
                        sizeof rule) == XQ_RES_OK &&
                xq_board_make_move(&b, am, NULL)) {
                rel += rec_emit(d, vp, &b0, am, u) - dec_emit(d, vp, u);
                if (u - t0 < VD_SHIFT_SPAN && am != d->res->plies[u - 1].mv)
                    mk[u - t0] = true;
                continue;
            }
            r = bads && bads[u - 1] ? -1 : alt_play(vp, d->res, &b, u, &am);
            if (r == -1) {
                /* nothing clean: the move reading the record best */
                double em;
                xq_board_copy(&b, &b0);
                r = alt_best(d, vp, &b, u, &am, &em, NULL);
                if (r != 1)
                    break;
                rel += em - dec_emit(d, vp, u);
            } else if (r != 1) {
                break;      /* refuted */
            } else {
                rel += rec_emit(d, vp, &b0, am, u) - dec_emit(d, vp, u);
            }
            if (u - t0 < VD_SHIFT_SPAN && am != d->res->plies[u - 1].mv)
                mk[u - t0] = true;
        }
        if (r == 0 || !explained || rel < -range)
            continue;          /* refuted, or explains nothing */
        any = true;
        if (pbest && rel > bestrel) {
            bestrel = rel;
            *pbest = xs[x];
        }
        for (q = 0; q < VD_SHIFT_SPAN && diff; q++)
            if (mk[q])
                diff[q] = true;
    }
    return any;
}

/* Where a column changed its alignment (a skipped move, a junk cell) at
 * ply t, the change may have happened earlier: the moves of that column
 * between then and t were read one turn off and may still make a legal
 * game (a skip whose shifted moves stay legal for a while is only found
 * where they stop fitting). Every earlier place up to VD_SHIFT_REACH
 * plies back where the alternative stays a legal game (alt_viable) puts
 * the plies from there to t under review. So does a clear record of no
 * legal move (it may be the first place a skip showed), and the end of the
 * record (a skip never found leaves a column a move short). At the end
 * only the column of the side to move next is looked at while every sheet
 * has a cell for the last ply: the other side's, one move short, would
 * have its last record played two plies after the record ends, so the
 * side to move next would have played an unrecorded move too (two records
 * missing, not one). */
/* Replay the decoded record once (vplay); false without memory. */
static bool vplay_build(const vdec *d, const xq_board *start, size_t len,
                        vplay *vp)
{
    size_t t;
    char wxf[16], iccs[8];
    memset(vp, 0, sizeof *vp);
    vp->len = len;
    vp->before = xq_malloc((len + 1) * sizeof *vp->before);
    vp->text = xq_malloc((len + 1) * sizeof *vp->text);
    vp->clean = xq_calloc(len + 1, sizeof *vp->clean);
    vp->agreed = xq_calloc(len + 1, sizeof *vp->agreed);
    vp->em = xq_malloc((len + 1) * sizeof *vp->em);
    vp->sp = xq_malloc(sizeof *vp->sp);
    if (!vp->before || !vp->text || !vp->clean || !vp->agreed || !vp->em ||
        !vp->sp)
        return false;
    for (t = 0; t <= len; t++)
        vp->em[t] = NAN;
    xq_board_copy(&vp->before[0], start);
    for (t = 1; t <= len; t++) {
        xq_board b;
        xq_board_copy(&b, &vp->before[t - 1]);
        vs_write_all(&b, d->res->plies[t - 1].mv, vp->text[t - 1], wxf, iccs);
        vp->clean[t - 1] = ply_told(d, &d->res->plies[t - 1]);
        vp->agreed[t - 1] = ply_agreed(d, &d->res->plies[t - 1]);
        xq_board_copy(&vp->before[t], &vp->before[t - 1]);
        if (!xq_board_make_move(&vp->before[t], d->res->plies[t - 1].mv, NULL)) {
            vp->len = t - 1;
            break;
        }
    }
    return true;
}

static void vplay_free(vplay *vp)
{
    xq_free(vp->before);
    xq_free(vp->text);
    xq_free(vp->clean);
    xq_free(vp->agreed);
    xq_free(vp->em);
    xq_free(vp->sp);
}

/* The cell decoded ply p reads on sheet k, or NULL. */
static const vd_cell *ply_cell(const vdec *d, const vd_ply *p, int k)
{
    if (p->kind[k] != VK_READ || p->slot[k] < 0 ||
        (size_t)p->slot[k] >= d->res->ncells[k])
        return NULL;
    return &d->res->cells[k][p->slot[k]];
}

/* How much better (scaled) cell c of sheet k reads its own text than
 * ply p's move: 0 or less, the record as read is the move. */
static double text_gap(const vdec *d, const vd_cell *c, const vd_ply *p,
                       int k)
{
    return d->scale * (c->text_score - p->sc[k]);
}

/* The cell of decoded ply p on sheet k where it reads clearly as
 * something else than p's move (VD_ILL_GAP; not a poor reading), or NULL.
 * Ink that is no writing (illegible) reads as nothing: however its garble
 * reads, it is no record of another move. */
static const vd_cell *reads_other(const vdec *d, const vd_ply *p, int k)
{
    const vd_cell *c = ply_cell(d, p, k);
    return c && !c->illegible && c->text_score > -1e29 &&
                   text_gap(d, c, p, k) > VD_ILL_GAP
               ? c
               : NULL;
}

/* The cell of decoded ply p on sheet k where it has a reading, or NULL. */
static const vd_cell *cell_text(const vdec *d, const vd_ply *p, int k)
{
    const vd_cell *c = ply_cell(d, p, k);
    return c && c->text_score > -1e29 && c->text[0] ? c : NULL;
}

/* Does decoded ply t's record on sheet k misfit: read not as its move
 * but clearly as another (reads_other)? */
static bool misfit_at(const vdec *d, const vplay *vp, size_t t, int k)
{
    return !vp->clean[t - 1] && reads_other(d, &d->res->plies[t - 1], k);
}

/* ... and reads worse as its move than VD_FAR_MISFIT: no misread of it? */
static bool far_misfit_at(const vdec *d, const vplay *vp, size_t t, int k)
{
    const vd_ply *p = &d->res->plies[t - 1];
    const vd_cell *c = vp->clean[t - 1] ? NULL : reads_other(d, p, k);
    return c && text_gap(d, c, p, k) > VD_FAR_MISFIT;
}

static void shift_doubt(vdec *d, vplay *vp0, bool ok)
{
    vd_result *res = d->res;
    vplay vp = *vp0;
    size_t t, q, len = vp.len;
    int k, side;
    if (!ok) {
        /* without memory: the old fixed window */
        for (t = 1; t <= res->nplies; t++)
            for (k = 0; k < d->nsrc; k++)
                if (res->plies[t - 1].kind[k] == VK_SKIP ||
                    res->plies[t - 1].kind[k] == VK_EXTRA)
                    for (q = t > VD_SHIFT_WINDOW ? t - VD_SHIFT_WINDOW : 1; q < t; q++)
                        if (res->plies[q - 1].conf > VD_SHIFT_CONF)
                            res->plies[q - 1].conf = VD_SHIFT_CONF;
        return;
    }
    /* the last ply read from a cell on every sheet (or blank there) */
    bool last_cell = len > 0;
    for (k = 0; k < d->nsrc && len > 0; k++)
        if (res->plies[len - 1].kind[k] == VK_NONE)
            last_cell = false;
    for (t = 1; t <= len + 2; t++) {
        bool skip = false, junk = false, bad = false, end = t > len;
        const char *badtext = NULL;
        if (t == len + 2 && last_cell)
            break;
        size_t lo, t0;
        if (!end)
            for (k = 0; k < d->nsrc; k++) {
                if (res->plies[t - 1].kind[k] == VK_SKIP)
                    skip = true;
                if (res->plies[t - 1].kind[k] == VK_EXTRA)
                    junk = true;
            }
        /* a record that reads as no legal move (illegal, unreadable) may
         * be where the column got out of step too: the record was the next
         * move, read one turn early after a skip no one saw */
        if (!end && !skip && !junk && !vp.clean[t - 1])
            for (k = 0; k < d->nsrc; k++) {
                const vd_cell *c = reads_other(d, &res->plies[t - 1], k);
                if (c) {
                    if (!bad)
                        badtext = c->text;
                    bad = true;
                }
            }
        if (!skip && !junk && !end && !bad)
            continue;
        /* past the end: t = len + 1 is the side to move after the last
         * ply (its last ply is len - 1), t = len + 2 the other one */
        side = end ? xq_board_side(&vp.before[len]) ^ (t == len + 2)
                   : xq_board_side(&vp.before[t - 1]);
        lo = t > VD_SHIFT_REACH ? t - VD_SHIFT_REACH : 1;
        /* A bad record where the record is aligned cleanly before it (no
         * realignment, no missing record within reach): only alternatives
         * that explain it count (scored: a skip costs VD_SKIP, a misread
         * is a floor; an alternative that explains nothing is no likelier
         * here than anywhere else). Where the record has already been
         * realigned or has gaps near it, every viable place counts, as
         * before (trouble seldom comes alone). */
        bool scored = bad && !skip && !junk && !end;
        if (scored)
            for (q = lo; q < t; q++)
                for (k = 0; k < d->nsrc; k++)
                    if (res->plies[q - 1].kind[k] == VK_SKIP ||
                        res->plies[q - 1].kind[k] == VK_EXTRA ||
                        res->plies[q - 1].kind[k] == VK_BLANK)
                        scored = false;
        /* a bad record may also show that an earlier move was read wrong */
        if (scored)
            for (t0 = t - 1; t0 >= lo && t0 >= 1; t0--) {
                bool diff[VD_SHIFT_SPAN];
                memset(diff, 0, sizeof diff);
                if (!alt_subst(d, &vp, t0, t, t + VD_SHIFT_WINDOW, badtext, diff,
                               NULL, NULL))
                    continue;
                for (q = t0; q <= len && q - t0 < VD_SHIFT_SPAN; q++)
                    if (diff[q - t0] && res->plies[q - 1].conf > VD_SHIFT_CONF)
                        res->plies[q - 1].conf = VD_SHIFT_CONF;
            }
        /* the earlier places of the change that still make a legal game,
         * back to the first that does not; before a bad record every
         * place (a wrong reading in between may refute the near places
         * and not the true one); scored, the skip at t itself too (the
         * bad record is the next move, written one turn early). A skip:
         * every place within reach, those past the first that does not
         * fit only where they also read the records as well as the
         * decoded game (scored): a skip found late leaves the decoded
         * column a move ahead of the game from the true place on, and
         * the places between may not fit while the true one does (a
         * move the shifted column made early took or freed a square). */
        bool past = false;
        for (t0 = scored ? t : t - 2; t0 >= lo && t0 >= 1 && t0 <= len; t0 -= 2) {
            bool ok, diff[VD_SHIFT_SPAN];
            if (xq_board_side(&vp.before[t0 - 1]) != side)
                break;
            memset(diff, 0, sizeof diff);
            ok = alt_viable(d, &vp, skip || end || bad, side, t0,
                            end ? len + 1 : t,
                            end ? len : t + VD_SHIFT_WINDOW, diff,
                            scored || past, scored ? t : 0);
            /* a bad record: or the column stayed a move behind after it */
            if (bad)
                ok = alt_viable(d, &vp, true, side, t0, len + 1,
                                t + VD_SHIFT_WINDOW, diff, scored,
                                scored ? t : 0) || ok;
            if (ok) {
                /* the plies this place would play otherwise; where a
                 * record reads as no legal move, every ply from the place
                 * on (trouble seldom comes alone: a misread beside a
                 * skip); where the column did change its alignment, every
                 * ply of that column from the place on, the other
                 * column's where the place plays them otherwise (its
                 * records stay at their plies: a move of the other column
                 * that every viable place plays as the decoded game does
                 * is not in doubt for it; all of them had been, 24 plies
                 * of a clean printed sheet before a skip); scored, also
                 * the plies after it up to the window's end that it
                 * changes */
                size_t qend = scored ? t + VD_SHIFT_WINDOW : t - 1;
                for (q = t0; q <= qend && q <= len; q++)
                    if (((q < t && !end &&
                          (!skip || xq_board_side(&vp.before[q - 1]) == side)) ||
                         q - t0 >= VD_SHIFT_SPAN || diff[q - t0]) &&
                        res->plies[q - 1].conf > VD_SHIFT_CONF)
                        res->plies[q - 1].conf = VD_SHIFT_CONF;
                /* a skip at t0 plays at t the record the decoded game
                 * played at t - 2, not the move no cell tells that the
                 * skip at t put there */
                if (skip && !ply_told(d, &res->plies[t - 1]) &&
                    res->plies[t - 1].conf > VD_SHIFT_CONF)
                    res->plies[t - 1].conf = VD_SHIFT_CONF;
            } else if (skip) {
                past = true;
            } else if (!bad) {
                break;
            }
            if (t0 < 3)
                break;
            /* a skip, or a column whose record ends a move short, where
             * every place back to the reach still fits: the true place
             * may lie further back (a column out of step for 48 plies,
             * a blank and an illegal record of the other column among
             * them, every record of its own legal): reach further while
             * they fit. Not for a bad record alone: on a sheet decoded
             * badly (a beam of 8) that reached back to ply 1 everywhere */
            if (ok && (skip || end) && t0 < lo + 2 && lo > 1)
                lo = lo > VD_SHIFT_REACH ? lo - VD_SHIFT_REACH : 1;
        }
        /* the plies just before the change: the old fixed window (a
         * skip: its column's plies; the other column's are those of
         * the viable places above) */
        for (q = t > VD_SHIFT_WINDOW ? t - VD_SHIFT_WINDOW : 1;
             (skip || junk) && q < t; q++)
            if ((junk || xq_board_side(&vp.before[q - 1]) == side) &&
                res->plies[q - 1].conf > VD_SHIFT_CONF)
                res->plies[q - 1].conf = VD_SHIFT_CONF;
    }
    /* A skip and a stray record in one column, in either order: the
     * column may have been in step between them all along, on a board
     * the decoder had wrong (a miswritten record earlier), its records
     * read one turn late between them: that column's plies between them
     * are in doubt. Likewise a skip (or the column's record ending a move
     * short) and, before it in its column, a record that reads clearly
     * as another move than the one put there (held-out corpus line 612):
     * the column may have got out of step at that record, its records
     * read one turn early from there on (a blank before them filled with
     * a move of the decoder's making, legal all the way). A blank cell
     * before it in its column likewise: the move the decoder put there
     * fits only its own alignment, so an earlier place of the skip that
     * needs another move there is refuted wrongly (held-out clean sheet,
     * corpus line 2235: Black's ply 68 skipped and 70 blank, decoded as
     * a blank at 68 with the record a move early after it). And a skip in
     * one column with, within VD_SHIFT_REACH, a skip, a stray record or a
     * record that reads as another move worse than VD_FAR_MISFIT (no
     * misread of the move put there: a character misread, common in
     * handwriting, had put 40 plies under review) in the other column: a
     * move pair left unrecorded earlier, or the whole record moved back a
     * move, leaves both columns out of step from one place with every
     * record still a legal move, and shows only where they stop fitting,
     * as trouble in each column (held-out corpus lines 404 and 805 of
     * the kai+stress and printed+stress rows; no earlier place of one
     * column's skip alone explains them): every ply from VD_SHIFT_REACH
     * before the first of the two to the second is in doubt; where both
     * are skips, to the end of the game: they may be a move pair that was
     * never played (the true history lost from the beam), every record
     * after them then read two plies late as the same moves, all legal
     * (test_slip_before_blank, corpus line 227: 65 plies wrong, 18 of
     * them sure). A stray record: the other column may have skipped a
     * move anywhere within VD_SHIFT_REACH before it and this record be a
     * real one, the decoded game then a move pair short and numbered two
     * plies off from there to its end, every record still read cleanly
     * (held-out clean sheets, corpus lines 1806 and 2034): every ply
     * from VD_SHIFT_REACH before it to the end is in doubt. And two
     * records of one column within reach
     * that read as other moves worse than VD_FAR_MISFIT (no misreads of
     * the moves put there): the column may be out of step between them,
     * two moves skipped where no single skip fits (held-out kai+stress
     * line 1005): that column's plies between them are in doubt. */
    for (k = 0; k < d->nsrc; k++) {
        size_t last[2] = { 0, 0 };
        int lastkind[2] = { 0, 0 };
        size_t misfit[2] = { 0, 0 }, far[2] = { 0, 0 }, blank[2] = { 0, 0 };
        for (t = 1; t <= len; t++) {
            int kd = res->plies[t - 1].kind[k];
            side = xq_board_side(&vp.before[t - 1]);
            if (kd == VK_SKIP) {
                /* the other column's first irregularity within reach */
                size_t u, lo = t > VD_SHIFT_REACH ? t - VD_SHIFT_REACH : 1;
                size_t hi = t + VD_SHIFT_REACH < len ? t + VD_SHIFT_REACH : len;
                for (u = lo; u <= hi; u++) {
                    int ku = res->plies[u - 1].kind[k];
                    if (xq_board_side(&vp.before[u - 1]) == side)
                        continue;
                    if (ku == VK_SKIP || ku == VK_EXTRA || far_misfit_at(d, &vp, u, k))
                        break;
                }
                if (u <= hi) {
                    size_t a0 = u < t ? u : t, a1 = u < t ? t : u;
                    if (res->plies[u - 1].kind[k] == VK_SKIP)
                        a1 = len;   /* a pair of skips: to the end */
                    for (q = a0 > VD_SHIFT_REACH ? a0 - VD_SHIFT_REACH : 1; q <= a1; q++)
                        if (res->plies[q - 1].conf > VD_SHIFT_CONF)
                            res->plies[q - 1].conf = VD_SHIFT_CONF;
                }
            }
            if (kd == VK_EXTRA)
                for (q = t > VD_SHIFT_REACH ? t - VD_SHIFT_REACH : 1; q <= len; q++)
                    if (res->plies[q - 1].conf > VD_SHIFT_CONF)
                        res->plies[q - 1].conf = VD_SHIFT_CONF;
            if (far_misfit_at(d, &vp, t, k)) {
                if (far[side] && t - far[side] <= VD_SHIFT_REACH)
                    for (q = far[side]; q <= t; q += 2)
                        if (res->plies[q - 1].conf > VD_SHIFT_CONF)
                            res->plies[q - 1].conf = VD_SHIFT_CONF;
                far[side] = t;
            }
            if (misfit_at(d, &vp, t, k))
                misfit[side] = t;
            if (kd == VK_BLANK)
                blank[side] = t;
            if (kd == VK_SKIP || kd == VK_NONE) {
                size_t from = 0;
                if (misfit[side] && t - misfit[side] <= VD_SHIFT_REACH)
                    from = misfit[side];
                if (blank[side] && t - blank[side] <= VD_SHIFT_REACH &&
                    (!from || blank[side] < from))
                    from = blank[side];
                for (q = from; from && q <= t; q += 2)
                    if (res->plies[q - 1].conf > VD_SHIFT_CONF)
                        res->plies[q - 1].conf = VD_SHIFT_CONF;
                if (from)
                    misfit[side] = blank[side] = 0;
            }
            if (kd != VK_SKIP && kd != VK_EXTRA)
                continue;
            if (last[side] && lastkind[side] != kd &&
                t - last[side] <= VD_SHIFT_REACH)
                for (q = last[side]; q <= t; q += 2)
                    if (res->plies[q - 1].conf > VD_SHIFT_CONF)
                        res->plies[q - 1].conf = VD_SHIFT_CONF;
            last[side] = t;
            lastkind[side] = kd;
        }
    }
}

/* Could the piece decoded ply u moves have gone elsewhere there, so that
 * ply t (a later move of it) reads its record nearly as well? Another
 * move of that piece at u whose own record reads within VD_MISFIT of the
 * decoded one, the plies between played as decoded, and a move of it at t
 * reading t's record within VD_MISFIT of the decoded move. */
static bool piece_elsewhere(vdec *d, vplay *vp, size_t u, size_t t)
{
    const vd_result *res = d->res;
    xq_move xs[XQ_MAX_MOVES], ys[XQ_MAX_MOVES];
    int from = XQ_MOVE_FROM(res->plies[u - 1].mv), nx, x, ny, y;
    double dec = dec_emit(d, vp, t), decu = dec_emit(d, vp, u);
    nx = xq_board_legal_moves(&vp->before[u - 1], xs);
    for (x = 0; x < nx; x++) {
        xq_board b;
        size_t q;
        bool ok;
        if (XQ_MOVE_FROM(xs[x]) != from || xs[x] == res->plies[u - 1].mv)
            continue;
        xq_board_copy(&b, &vp->before[u - 1]);
        if (rec_emit(d, vp, &b, xs[x], u) < decu - VD_MISFIT)
            continue;   /* its own record does not read nearly as it */
        ok = xq_board_make_move(&b, xs[x], NULL);
        for (q = u + 1; ok && q < t; q++)
            ok = xq_board_make_move(&b, res->plies[q - 1].mv, NULL);
        if (!ok)
            continue;
        ny = xq_board_legal_moves(&b, ys);
        for (y = 0; y < ny; y++) {
            xq_board c;
            if (XQ_MOVE_FROM(ys[y]) != XQ_MOVE_TO(xs[x]))
                continue;
            xq_board_copy(&c, &b);
            if (rec_emit(d, vp, &c, ys[y], t) >= dec - VD_MISFIT)
                return true;
        }
    }
    return false;
}

/* A record read nearly as its decoded move but not as written (the text
 * names another move there, or none: a correction; no other sheet reading
 * it as written) may be a record read right on a wrong board: the piece
 * it moves may stand elsewhere, put there by a misread earlier move of its
 * own. On a kai sheet whose ４ read as 1 (samples/pair-red.jpg alone),
 * 马２进４ read as 马2进1 put the horse on the wrong square, sure, and each
 * later move of it had its 进/退 corrected instead. The move that put the
 * piece on its square (the last one to it, within VD_SHIFT_REACH) goes
 * under review where piece_elsewhere finds another move of it there that
 * reads both records nearly as well (within VD_MISFIT, a misread glyph:
 * there the ４ read as 1 cost 2.2 nats more than the 进 read as 退). A
 * writer's glyph misread the same way each time is no independent misread:
 * the posterior, counting each apart, had it sure. */
static void correction_doubt(vdec *d, vplay *vp)
{
    vd_result *res = d->res;
    size_t t, u;
    int k;
    char msg[8], rule[8];
    for (t = 2; t <= vp->len; t++) {
        const vd_ply *p = &res->plies[t - 1];
        int from = XQ_MOVE_FROM(p->mv);
        bool corrected = false, as_written = false;
        if (p->forced)
            continue;
        for (k = 0; k < d->nsrc; k++) {
            const vd_cell *c = told_by(d, p, k);
            xq_board b;
            xq_move mv = XQ_MOVE_NONE;
            if (!c || p->kind[k] != VK_READ || !c->text[0])
                continue;
            xq_board_copy(&b, &vp->before[t - 1]);
            if (vs_read(&b, c->text, &mv, msg, sizeof msg, rule,
                        sizeof rule) == XQ_RES_OK && mv == p->mv)
                as_written = true;   /* another sheet reads it as written */
            else if (cell_gap(d, k, p->slot[k], p->sc[k]) > VD_NEAR_READ)
                corrected = true;
        }
        if (!corrected || as_written)
            continue;
        for (u = t - 1; u >= 1 && t - u <= VD_SHIFT_REACH &&
                        XQ_MOVE_TO(res->plies[u - 1].mv) != from; u--)
            ;
        if (u < 1 || t - u > VD_SHIFT_REACH || res->plies[u - 1].forced ||
            res->plies[u - 1].conf <= VD_DOUBT_CONF ||
            !piece_elsewhere(d, vp, u, t))
            continue;
        res->plies[u - 1].conf = VD_DOUBT_CONF;
    }
}

/* A clear record of no legal move (status illegal) accuses the player
 * only where the board it is read on is known. Another move at an earlier
 * ply may make it a legal move: a blank, skipped or misread ply, or a
 * record the player miswrote (written as another legal move; the later
 * records, written right, then fit the game and not the record). Where,
 * within VD_SHIFT_REACH, another move at one earlier ply makes the record
 * legal, every other ply playing its own record and the whole scoring
 * within VD_ILL_GAP of the decoded record (alt_subst: as likely as a
 * clear reading is sure), and that ply's record, where it reads as its
 * decoded move, reading nearly as the other one too or being it but for
 * a slip of the pen (one glyph), the sheet cannot tell which of the two
 * records is wrong: the nearest such ply and its best-scoring move go to
 * ill_alt_ply / ill_alt_mv (the sheet reports a doubtful illegal move that
 * names them, not an accusation). */
static void illegal_doubt(vdec *d, vplay *vp)
{
    vd_result *res = d->res;
    const char **bads = xq_calloc(vp->len + 1, sizeof *bads);
    size_t t, u;
    int k;
    if (!bads)
        return;
    for (t = 1; t <= vp->len; t++) {
        vd_ply *p = &res->plies[t - 1];
        p->ill_alt_ply = 0;
        p->ill_alt_mv = XQ_MOVE_NONE;
        p->ill_alt_text[0] = '\0';
        if (p->forced || vp->clean[t - 1])
            continue;
        for (k = 0; k < d->nsrc && !bads[t - 1]; k++) {
            const vd_cell *c;
            xq_board b;
            xq_move mv;
            char msg[8], rule[8];
            xq_resolve_code rc;
            if (p->kind[k] != VK_READ || p->slot[k] < 0 ||
                (size_t)p->slot[k] >= res->ncells[k])
                continue;
            c = &res->cells[k][p->slot[k]];
            if (!c->text[0] || c->text_score <= -1e29 ||
                text_gap(d, c, p, k) < VD_ILL_GAP)
                continue;
            xq_board_copy(&b, &vp->before[t - 1]);
            rc = vs_read(&b, c->text, &mv, msg, sizeof msg, rule, sizeof rule);
            if (rc != XQ_RES_OK && rc != XQ_RES_UNPARSEABLE)
                bads[t - 1] = c->text;
        }
    }
    for (t = 1; t <= vp->len; t++) {
        vd_ply *p = &res->plies[t - 1];
        for (u = t - 1; bads[t - 1] && u >= 1 && u + VD_SHIFT_REACH >= t; u--) {
            xq_move mv = XQ_MOVE_NONE;
            xq_board b;
            char wxf[16], iccs[8];
            if (res->plies[u - 1].forced ||
                !alt_subst(d, vp, u, t, t + VD_SHIFT_WINDOW, bads[t - 1], NULL,
                           &mv, bads))
                continue;
            xq_board_copy(&b, &vp->before[u - 1]);
            p->ill_alt_ply = (int)u;
            p->ill_alt_mv = mv;
            vs_write_all(&b, mv, p->ill_alt_text, wxf, iccs);
            break;
        }
    }
    xq_free(bads);
}

/* The cut histories, followed (a precise form of doubt_forward's coarse
 * squares): each is replayed from its cut on, every later ply playing the
 * move its record names on that board (a clean record by its text, any
 * other the decoded move). Where it plays another move than the decoded
 * record, that ply is put under review. It ends where its board meets the
 * decoded one, or where a clean record names no legal move on it and no
 * legal move reads it nearly as well as the decoded move (it is refuted;
 * follow_alt). Where it cannot be followed (a record with nothing clean whose
 * decoded move does not fit its board), the squares on which the two
 * boards differ seed the coarse doubt from that ply on. */
static bool same_alignment(const vdec *d, int32_t a, int32_t b)
{
    static const int8_t zoff[VD_MAXSRC][2], zsh[VD_MAXSRC];
    const int8_t (*oa)[2] = a >= 0 ? d->nodes[a].off : zoff;
    const int8_t (*ob)[2] = b >= 0 ? d->nodes[b].off : zoff;
    const int8_t *sa = a >= 0 ? d->nodes[a].sh : zsh;
    const int8_t *sb = b >= 0 ? d->nodes[b].sh : zsh;
    return !memcmp(oa, ob, sizeof zoff) && !memcmp(sa, sb, sizeof zsh);
}

/* Follow an alternative history on board b, the position before ply u0
 * (see cut_doubt). A clean record that names no legal move on b refutes
 * it only where no legal move reads that record nearly as well as the
 * decoded move does (a clear misread, one glyph off, would refute the
 * true history): else it goes on with the move reading it best, while
 * the records it plays score, in all, within range (VD_ALT_RANGE; for an
 * alternative the posterior gives little mass, VD_OK_GAP: only one the
 * records cannot tell from the decoded game) of the decoded ones. Every
 * ply it plays otherwise is capped at VD_DOUBT_CONF (under review), unless
 * it is refuted outright: every record read as a legal move as written
 * until one that no move on its board reads within VD_MISFIT of how the
 * decoded move reads it. That history was not played, and the plies it
 * met stay as sure as the posterior makes them. (Capped as they were met,
 * a blank's rook alternative put 13 more of a clean synthetic sheet's 160
 * plies under review: the rook's moves after the blank, legal at any rank
 * until a record only the true rank allowed.) A history refuted bit by
 * bit may be the game with another ply changed too, one no record tells
 * before its refutation: uncapped so, a held-out kai photo had a move
 * sure and wrong, a struck and an illegible record decoded wrong, each
 * one's true move alone reading later records a little worse, both
 * together well. Where every ply up to its refutation has a record read
 * as its move, the other change would be a misread of a clean record, as
 * unlikely as the refutation itself: it caps nothing (each other move
 * of a skip, refuted by the records after it, had put 12 more of a clean
 * handwriting sheet's 71 plies under review). At a ply no record
 * tells (blank, skipped) where the decoded move cannot be played, the
 * alternative plays its own: every legal move there is followed in turn
 * (branch; not again inside), and the history is refuted outright where
 * each is, refuted where each is refuted, followed where one is. (The
 * squares where it differed went to seed at once: on a clean printed
 * sheet, a blank's alternatives, which moved the pawn that a skip two
 * plies on moves, put most of the game under review, 58 of 76 plies; now
 * 38.) Where it cannot be
 * followed (no legal move for a record, or a branch that cannot be
 * followed either), the squares where its board differs go to seed (NULL:
 * none). refuted_free: a history refuted at all, not only outright,
 * caps nothing, untold plies or not (a cut history: cut_doubt). Returns FA_FOLLOWED,
 * FA_REFUTED, FA_OUTRIGHT or FA_LOST (could not be followed); follow_alt:
 * whether it was refuted. */
enum { FA_FOLLOWED, FA_REFUTED, FA_OUTRIGHT, FA_LOST };

static int follow_alt_at(vdec *d, vplay *vp, xq_board *b, size_t u0,
                         bool (*seed)[128], double range, bool branch,
                         bool refuted_free)
{
    vd_result *res = d->res;
    size_t u, ndiff = 0;
    double rel = 0;
    char msg[8], rule[8];
    bool lost = false;
    /* the plies it plays otherwise, capped unless it is refuted outright
     * (no memory: capped as they come) */
    size_t *diff = xq_malloc((vp->len + 1) * sizeof *diff);
    bool refuted = false, outright = false, untold = false;
    for (u = u0; u <= vp->len; u++) {
        xq_move am = XQ_MOVE_NONE, dm = res->plies[u - 1].mv;
        if (xq_board_hash(b) == xq_board_hash(&vp->before[u - 1]))
            break;                               /* met the record */
        if (!vp->agreed[u - 1])
            untold = true;
        if (vp->agreed[u - 1]) {
            if (vs_read(b, vp->text[u - 1], &am, msg, sizeof msg, rule,
                        sizeof rule) != XQ_RES_OK || am == XQ_MOVE_NONE) {
                xq_board c;
                double em = 0;
                xq_board_copy(&c, b);
                if (!alt_best(d, vp, &c, u, &am, &em, NULL)) {
                    refuted = outright = true;
                    break;
                }
                bool first = rel == 0;   /* every record before as written */
                rel += em - dec_emit(d, vp, u);
                if (rel < -range) {
                    refuted = true;
                    outright = first && rel < -VD_MISFIT;
                    break;
                }
            }
        } else {
            am = dm;
        }
        if (am != dm) {
            if (diff)
                diff[ndiff++] = u;
            else if (res->plies[u - 1].conf > VD_DOUBT_CONF)
                res->plies[u - 1].conf = VD_DOUBT_CONF;
        }
        if (!xq_board_make_move(b, am, NULL)) {
            int f, r;
            if (branch && !vp->agreed[u - 1]) {
                /* a ply no record tells: the alternative plays its own
                 * move there; refuted outright where every move is */
                xq_move xs[XQ_MAX_MOVES];
                int nx = xq_board_legal_moves(b, xs), x, st = FA_OUTRIGHT;
                for (x = 0; x < nx && st != FA_LOST; x++) {
                    xq_board c;
                    int sx;
                    xq_board_copy(&c, b);
                    if (!xq_board_make_move(&c, xs[x], NULL))
                        continue;
                    sx = follow_alt_at(d, vp, &c, u + 1, NULL, range, false,
                                       refuted_free);
                    if (sx == FA_LOST || sx == FA_FOLLOWED ||
                        (sx == FA_REFUTED && st == FA_OUTRIGHT))
                        st = sx;  /* the weakest verdict of any move */
                }
                if (st != FA_LOST) {
                    if (st != FA_OUTRIGHT) {
                        if (diff)
                            diff[ndiff++] = u;
                        else if (res->plies[u - 1].conf > VD_DOUBT_CONF)
                            res->plies[u - 1].conf = VD_DOUBT_CONF;
                    }
                    refuted = st != FA_FOLLOWED;
                    outright = st == FA_OUTRIGHT;
                    break;
                }
            }
            lost = true;
            for (f = 0; seed && f < 9; f++)
                for (r = 0; r < 10; r++) {
                    xq_sq sq = XQ_SQ(f, r);
                    if (xq_board_piece_at(b, sq) !=
                        xq_board_piece_at(&vp->before[u - 1], sq))
                        seed[u][sq] = true;
                }
            break;                               /* cannot follow */
        }
    }
    if (diff) {
        size_t i;
        if (!outright && !(refuted && (refuted_free || !untold)))
            for (i = 0; i < ndiff; i++)
                if (res->plies[diff[i] - 1].conf > VD_DOUBT_CONF)
                    res->plies[diff[i] - 1].conf = VD_DOUBT_CONF;
        xq_free(diff);
    }
    return lost ? FA_LOST : outright ? FA_OUTRIGHT : refuted ? FA_REFUTED
                                                          : FA_FOLLOWED;
}

static bool follow_alt(vdec *d, vplay *vp, xq_board *b, size_t u0,
                       bool (*seed)[128], double range)
{
    int st = follow_alt_at(d, vp, b, u0, seed, range, seed != NULL, false);
    return st == FA_REFUTED || st == FA_OUTRIGHT;
}

/* Does the alternative history on board b (the position before ply u0,
 * another move played at the ply before) read every later record as well
 * as the decoded game, within VD_OK_GAP in all, to the end of the record
 * or until it meets the decoded game's board? Each later ply plays its
 * record on b: an agreed one the move its text names (none: the move
 * reading it best); any other (a blank, a record the decoded game did not
 * read as written) the decoded move, or the move reading the record
 * better than that by VD_OK_GAP (the decoded game may have put a move
 * there that the alternative played earlier). Touches no confidence. */
static bool alt_ties(vdec *d, vplay *vp, xq_board *b, size_t u0)
{
    const vd_result *res = d->res;
    double rel = 0;
    char msg[8], rule[8];
    size_t u;
    for (u = u0; u <= vp->len; u++) {
        xq_move am = XQ_MOVE_NONE, dm = res->plies[u - 1].mv;
        xq_board c;
        double em = 0, de = dec_emit(d, vp, u);
        int r;
        if (xq_board_hash(b) == xq_board_hash(&vp->before[u - 1]))
            break;                                /* met the record */
        if (vp->agreed[u - 1] &&
            vs_read(b, vp->text[u - 1], &am, msg, sizeof msg, rule,
                    sizeof rule) == XQ_RES_OK && am != XQ_MOVE_NONE) {
            if (!xq_board_make_move(b, am, NULL))
                return false;
            continue;
        }
        /* no move reads a record better than by VD_OK_GAP where the
         * decoded one reads it within that of the best (an emission is
         * at most log(1 + e^-VD_FLOOR) per sheet, under 0.001) */
        if (!vp->agreed[u - 1] && de > -VD_OK_GAP + 0.001 * d->nsrc &&
            xq_board_make_move(b, dm, NULL))
            continue;
        xq_board_copy(&c, b);
        r = alt_best(d, vp, &c, u, &am, &em, NULL);
        if (vp->agreed[u - 1] || xq_board_check_move(b, dm) != XQ_LEGAL ||
            (r == 1 && em > de + VD_OK_GAP)) {
            if (r != 1)
                return false;
            xq_board_copy(b, &c);
            rel += em - de;
            if (rel < -VD_OK_GAP)
                return false;
        } else if (!xq_board_make_move(b, dm, NULL)) {
            return false;
        }
    }
    return rel >= -VD_OK_GAP;
}

/* A skip the decoder made up: the moves no record tells (blank cells,
 * skips) were chosen among many that read the records alike (every pair
 * of them, some 1,600, until a later record tells them apart), the true
 * ones fell out of the beam, and a later record then fits only a move
 * behind, or reads clearly as no legal move (held-out clean printed
 * sheet, seed 9700: a blank and a skip of Black's, 卒3平4 fourteen plies
 * later taken as another skip, then the record read a move behind, 46 of
 * 76 moves wrong). For each such record (a column skip, or a record
 * reading clearly as another move) with one or two untold plies of its
 * side within VD_SHIFT_REACH before it, every choice of moves at them is
 * played with the skip taken out (that column's later records one ply
 * earlier) or the record played as read, every other ply its own record
 * (alt_play; a record read poorly by the move reading it best), until the
 * record ends or a ply no record tells (the decoder chooses it). A choice
 * no clean record refutes is a history with one skip or misreading
 * fewer. Where none is, the choices are played again with each record as
 * the cell reads it where that is a legal move (the decoder may have
 * corrected records to fit its history: 炮8进5 played as 炮3进5, the
 * cannon then a file off for the rest of the record). Where 1 to
 * VD_REPAIR_KEEP such histories exist (the first record that has them),
 * they go to res->repair: vd_decode decodes again with them kept in the
 * beam and keeps the decoding that scores better. */
typedef struct {
    const size_t *srcs;     /* the record each ply plays (1-based, 0 none) */
    size_t u3;              /* the record the repair is for */
    const char *text;       /* its reading, played as read (or NULL) */
    bool as_read;           /* every record as its cell reads, if legal */
    bool fit_untold;        /* an untold ply before u3 whose decoded move
                               the alternative board refutes plays the
                               move leaving the board nearest the decoded
                               one (far_repairs) */
    int file;               /* far_repairs: only moves from or to this
                               file (0..8) at the changed ply; -1 any */
    const bool *near;       /* far_repairs: or moves from these squares
                               (NULL none) */
} vrepair;

/* Squares on which two boards differ. */
static int board_diff(const xq_board *a, const xq_board *b)
{
    int sq, n = 0;
    for (sq = 0; sq < 90; sq++)
        n += xq_board_piece_at(a, (xq_sq)sq) != xq_board_piece_at(b, (xq_sq)sq);
    return n;
}

/* Play on b the legal move that leaves it nearest target, the board after
 * decoded move dm (a ply no record tells, whose decoded move the board
 * refutes); between moves as near, the one taking dm's piece to dm's
 * square (from another: the same move in spirit). False where there is
 * no move. */
static bool play_nearest(xq_board *b, const xq_board *target, xq_move dm,
                         xq_move *played)
{
    xq_move mvs[XQ_MAX_MOVES];
    int n = xq_board_legal_moves(b, mvs), i, bi = -1, bd = 1 << 30;
    xq_piece dp = xq_board_piece_at(target, XQ_MOVE_TO(dm));
    for (i = 0; i < n; i++) {
        xq_board t;
        int dd;
        bool same = XQ_MOVE_TO(mvs[i]) == XQ_MOVE_TO(dm) &&
                    xq_board_piece_at(b, XQ_MOVE_FROM(mvs[i])) == dp;
        xq_board_copy(&t, b);
        if (!xq_board_make_move(&t, mvs[i], NULL))
            continue;
        dd = 2 * board_diff(&t, target) - same;
        if (dd < bd) {
            bd = dd;
            bi = i;
        }
    }
    if (bi < 0)
        return false;
    *played = mvs[bi];
    return xq_board_make_move(b, mvs[bi], NULL);
}

/* Move mv goes from or to far_repairs' file. */
static bool on_file(const vrepair *rp, xq_move mv)
{
    return XQ_SQ_FILE(XQ_MOVE_FROM(mv)) == rp->file ||
           XQ_SQ_FILE(XQ_MOVE_TO(mv)) == rp->file;
}

/* Plays plies from .. to - 1 on b, their moves to out; false where one is
 * refuted. */
static bool repair_follow(vdec *d, vplay *vp, const vrepair *rp, xq_board *b,
                          size_t from, size_t to, xq_move *out)
{
    size_t u, bu = 0;
    xq_board bb;
    xq_move second = XQ_MOVE_NONE, bsec = XQ_MOVE_NONE;
    /* far_repairs: a history whose changed move (the one before from)
     * takes a piece off a blocking square may branch once */
    bool branched = !(rp->near && from >= 2 && !on_file(rp, out[from - 2]));
    for (u = from; u < to; u++) {
        size_t src = rp->srcs[u - 1];
        const vd_cell *c;
        const char *text = NULL;
        xq_board b0;
        int r;
        double em;
        if (src == 0 || src > vp->len)
            return true;          /* the record ends */
        if (u > rp->u3 && d->res->plies[src - 1].kind[0] != VK_READ)
            return true;          /* untold again: the decoder goes on */
        if (u == rp->u3 && rp->text)
            text = rp->text;
        else if (rp->as_read &&
                 (c = cell_text(d, &d->res->plies[src - 1], 0)) != NULL)
            text = c->text;
        xq_board_copy(&b0, b);
        if (text) {
            char msg[8], rule[8];
            xq_move mv = XQ_MOVE_NONE;
            if (vs_read(b, text, &mv, msg, sizeof msg, rule, sizeof rule) ==
                    XQ_RES_OK &&
                mv != XQ_MOVE_NONE && xq_board_make_move(b, mv, NULL)) {
                out[u - 1] = mv;
                continue;
            }
            if (u == rp->u3)
                return false;     /* the repair's own record, as read */
            xq_board_copy(b, &b0);
        }
        r = alt_play(vp, d->res, b, src, &out[u - 1]);
        if (r == -1 && rp->fit_untold && u < rp->u3 &&
            d->res->plies[src - 1].kind[0] != VK_READ &&
            !d->res->plies[src - 1].forced) {
            xq_board_copy(b, &b0);
            r = play_nearest(b, &vp->before[src], d->res->plies[src - 1].mv,
                             &out[u - 1]) ? 1 : 0;
        }
        if (r == -1 && d->res->plies[src - 1].kind[0] == VK_READ) {
            /* a record read poorly: the move reading it best here */
            xq_board_copy(b, &b0);
            r = alt_best(d, vp, b, src, &out[u - 1], &em,
                         !branched ? &second : NULL);
            if (!branched && second != XQ_MOVE_NONE) {
                xq_board_copy(&bb, &b0);
                bu = u;
                bsec = second;
            }
        }
        if (r != 1 && bu) {
            /* far_repairs, refuted: once, the last record read poorly
             * before plays the move reading it second best (a 2 read as 1:
             * 炮2平1 for 炮2平4, and the cannon's next move refuted) */
            branched = true;
            xq_board_copy(b, &bb);
            u = bu;
            bu = 0;
            out[u - 1] = bsec;
            if (xq_board_make_move(b, bsec, NULL))
                continue;
            return false;
        }
        if (r != 1)
            return false;         /* refuted, or nothing to go by */
    }
    return true;
}

/* Every choice of moves at the untold plies U[0 .. nu - 1] followed to
 * the record's end (cur: the decoded moves before U[0]); the ones no
 * record refutes to games, up to VD_REPAIR_KEEP + 1 of them. */
static size_t repair_games(vdec *d, vplay *vp, const vrepair *rp,
                           const size_t *U, size_t nu, xq_move *cur,
                           xq_move *games)
{
    size_t len = vp->len, ng = 0, i;
    xq_move x0s[XQ_MAX_MOVES];
    int n0 = xq_board_legal_moves(&vp->before[U[0] - 1], x0s), x0;
    for (x0 = 0; x0 < n0 && ng <= VD_REPAIR_KEEP; x0++) {
        xq_board b;
        xq_move x1s[XQ_MAX_MOVES];
        int n1 = 1, x1;
        if (rp->file >= 0 &&
            (x0s[x0] == d->res->plies[U[0] - 1].mv ||
             (!on_file(rp, x0s[x0]) &&
              !(rp->near && rp->near[XQ_MOVE_FROM(x0s[x0])]))))
            continue;             /* far_repairs: not this record's file
                                     nor off a blocking square */
        xq_board_copy(&b, &vp->before[U[0] - 1]);
        if (!xq_board_make_move(&b, x0s[x0], NULL))
            continue;
        cur[U[0] - 1] = x0s[x0];
        if (nu == 2) {
            if (!repair_follow(d, vp, rp, &b, U[0] + 1, U[1], cur))
                continue;
            n1 = xq_board_legal_moves(&b, x1s);
        }
        for (x1 = 0; x1 < n1 && ng <= VD_REPAIR_KEEP; x1++) {
            xq_board b1;
            size_t from = U[0] + 1;
            xq_board_copy(&b1, &b);
            if (nu == 2) {
                if (!xq_board_make_move(&b1, x1s[x1], NULL))
                    continue;
                cur[U[1] - 1] = x1s[x1];
                from = U[1] + 1;
            }
            for (i = from - 1; i <= len; i++)
                cur[i] = XQ_MOVE_NONE;
            if (!repair_follow(d, vp, rp, &b1, from, len + 1, cur))
                continue;
            memcpy(games + ng * (len + 1), cur, (len + 1) * sizeof *cur);
            ng++;
        }
    }
    return ng;
}

/* The plies of u3's side within VD_SHIFT_REACH before it that no record
 * tells, in order of play: blank cells and skips; with far, also records that
 * read as no legal move (far_misfit_at): the decoder chose their moves
 * too, and the one it chose may be what left u3's record unplayable
 * (printed sheet, 车二平八 written for 车一平八: the rook put on 五 and the
 * blank four plies later taking it to 八, the cannon that blank had moved
 * then a square off for 炮五进三 28 plies later). Their number (up to 2;
 * 0 where there are none or more); *pfar: one of them is such a record. */
static size_t untold_before(vdec *d, vplay *vp, size_t u3, bool far,
                            size_t U[2], bool *pfar)
{
    const vd_result *res = d->res;
    size_t q, nu = 0;
    *pfar = false;
    for (q = u3 - 2; q >= 1 && q + VD_SHIFT_REACH >= u3; q -= 2) {
        bool fm = far && far_misfit_at(d, vp, q, 0);
        if (res->plies[q - 1].kind[0] == VK_BLANK ||
            res->plies[q - 1].kind[0] == VK_SKIP || fm) {
            if (nu == 2)
                return 0;
            *pfar = *pfar || fm;
            U[nu++] = q;
        }
        if (q < 3)
            break;
    }
    if (nu == 2) {                /* found latest first */
        size_t t = U[0];
        U[0] = U[1];
        U[1] = t;
    }
    return nu;
}

/* What game g (its moves from ply q on, to its end or XQ_MOVE_NONE)
 * gains over the decoded one under the decoder's model: the emissions of
 * the plies where they differ (each record its own ply). */
static double repair_gain(vdec *d, vplay *vp, const xq_move *g, size_t q)
{
    xq_board b;
    size_t u;
    double gain = 0;
    xq_board_copy(&b, &vp->before[q - 1]);
    for (u = q; u <= vp->len && g[u - 1] != XQ_MOVE_NONE; u++) {
        if (g[u - 1] != d->res->plies[u - 1].mv)
            gain += rec_emit(d, vp, &b, g[u - 1], u) - dec_emit(d, vp, u);
        if (!xq_board_make_move(&b, g[u - 1], NULL))
            return -1e300;
    }
    return gain;
}

/* near: the squares whose piece keeps the move text means on b from
 * being played (a destination that is blocked or holds a piece of the
 * mover's: the squares a rook or cannon passes, a horse's leg, an
 * elephant's eye, the destination itself); all false where the text means
 * no one move or the move is illegal for another reason. A piece standing
 * there, put there or left there by a ply no record tells, may be what
 * leaves the record unplayable. */
static void block_squares(xq_board *b, const char *text, bool *near)
{
    xq_resolution res;
    int fx, fy, tx, ty, dx, dy, x, y;
    memset(near, 0, XQ_NSQ * sizeof *near);
    if (!text || xq_notation_read(b, text, 0, &res) != XQ_OK ||
        res.code != XQ_RES_BAD_DESTINATION || res.mv == XQ_MOVE_NONE)
        return;
    fx = XQ_SQ_FILE(XQ_MOVE_FROM(res.mv));
    fy = XQ_SQ_RANK(XQ_MOVE_FROM(res.mv));
    tx = XQ_SQ_FILE(XQ_MOVE_TO(res.mv));
    ty = XQ_SQ_RANK(XQ_MOVE_TO(res.mv));
    near[XQ_MOVE_TO(res.mv)] = true;
    dx = (tx > fx) - (tx < fx);
    dy = (ty > fy) - (ty < fy);
    if (fx == tx || fy == ty) {   /* a line: the squares passed */
        for (x = fx + dx, y = fy + dy; x != tx || y != ty; x += dx, y += dy)
            near[XQ_SQ(x, y)] = true;
    } else if (abs(tx - fx) == 2 && abs(ty - fy) == 2) {
        near[XQ_SQ(fx + dx, fy + dy)] = true;           /* the eye */
    } else if (abs(tx - fx) + abs(ty - fy) == 3) {      /* the leg */
        if (abs(tx - fx) == 2)
            near[XQ_SQ(fx + dx, fy)] = true;
        else
            near[XQ_SQ(fx, fy + dy)] = true;
    }
}

/* Where the near untold plies give no history (find_repairs), the piece
 * that leaves record u3 unplayable may have been left there by a ply no
 * record tells long before: a blank cell's move chosen among many that
 * read alike, the true one cut from the beam, and nothing in between
 * telling them apart (printed sheet, a blank at Black's 17th move filled
 * with a cannon move; the horse the true move took away stayed on its
 * square 32 moves, until 车6退1 had to go there and was read as 车6进1,
 * the rook then a rank off for the rest of the game). One untold ply
 * (blank, skipped or scribbled over, or a record that reads clearly as no
 * legal move: far_misfit_at, the decoder chose its move too) within
 * VD_FAR_REACH before u3 is played otherwise, by a move from or to the
 * file u3's record names, or (block_squares) by a move taking a piece off
 * a square that keeps the move the record means from being played (a
 * pawn an illegible record had moved off a cannon's rank: 炮4平2 blocked
 * at the pawn's square, read as 炮4平6, and the cannon's next moves
 * with it); where two or more such moves at one ply fit the sheet, none of
 * them (which way the piece went, the sheet does not tell: a printed
 * photo's blank filled with a rook move that read the rest as well as the
 * cannon move taken away, the rook two ranks off for six plies). Later
 * untold plies whose decoded move the new board refutes play the move
 * leaving the board nearest the decoded one; every record its own ply,
 * u3's as read; in a history changed at a blocking square, once, a poorly
 * read record whose best reading a later record refutes plays its second
 * best (repair_follow; in every history: no ply different on n4-s7100 or
 * n2-s9800, the verifier 0.93 times as fast on the sheets where it acts). The
 * histories no clean record refutes that score better than the decoded
 * game under the decoder's model (repair_gain), the best VD_REPAIR_KEEP
 * of them, to games (room for VD_REPAIR_KEEP + 1; scratch: as many more).
 * Their number.
 * The blocking squares and the second reading: bench_e2e n4-s7100 as
 * written 96.10 -> 96.25% right (two renderings of one handwriting sheet,
 * 3 plies each), under review 33.79 -> 33.23%; with injected errors, and
 * n2-s9800 both ways, every ply the same. Measured and not taken: moves
 * from or to every file the record spans, or every square its piece
 * reaches (n2-s9800 with errors 94.06 -> 93.85%: that printed photo), and
 * the blocking squares without the rule for two or more (the photo 7 ->
 * 12 plies wrong, all under review). */
static size_t far_repairs(vdec *d, vplay *vp, vrepair *rp, xq_move *cur,
                          xq_move *games, xq_move *scratch)
{
    const vd_result *res = d->res;
    size_t u3 = rp->u3, len = vp->len, q, ng = 0, i, j, nblock;
    size_t w = len + 1;
    double gains[VD_REPAIR_KEEP + 1];
    const vd_ply *p3 = &res->plies[u3 - 1];
    uint8_t pt, f;
    bool near[XQ_NSQ];
    int side = xq_board_side(&vp->before[u3 - 1]);
    if (!cell_names(d, 0, p3->slot[0], &pt, &f))   /* the caller read it */
        return 0;
    rp->file = side == XQ_RED ? 9 - f : f - 1;
    rp->fit_untold = true;
    rp->as_read = false;
    block_squares(&vp->before[u3 - 1], rp->text, near);
    rp->near = near;
    for (q = u3 - 1; q >= 1 && q + VD_FAR_REACH >= u3; q--) {
        const vd_ply *pq = &res->plies[q - 1];
        const vd_cell *cq = ply_cell(d, pq, 0);
        size_t U[1], n;
        if (pq->forced || !(pq->kind[0] == VK_BLANK || pq->kind[0] == VK_SKIP ||
                            (cq && cq->illegible) || far_misfit_at(d, vp, q, 0)))
            continue;
        for (i = 0; i + 1 < q; i++)
            cur[i] = res->plies[i].mv;
        U[0] = q;
        n = repair_games(d, vp, rp, U, 1, cur, scratch);
        for (i = 0, nblock = 0; i < n; i++)
            nblock += !on_file(rp, scratch[i * w + q - 1]);
        for (i = 0; i < n; i++) {
            const xq_move *g = scratch + i * w;
            double gn = repair_gain(d, vp, g, q);
            if (gn <= 0 || (nblock > 1 && !on_file(rp, g[q - 1])))
                continue;         /* a blocker moved off, but which way? */
            /* into games, kept in order of gain */
            for (j = ng; j > 0 && gains[j - 1] < gn; j--)
                if (j < VD_REPAIR_KEEP) {
                    gains[j] = gains[j - 1];
                    memcpy(games + j * w, games + (j - 1) * w, w * sizeof *g);
                }
            if (j < VD_REPAIR_KEEP) {
                gains[j] = gn;
                memcpy(games + j * w, g, w * sizeof *g);
                if (ng < VD_REPAIR_KEEP)
                    ng++;
            }
        }
    }
    rp->file = -1;
    rp->near = NULL;
    rp->fit_untold = false;
    return ng;
}

static void find_repairs(vdec *d, vplay *vp)
{
    vd_result *res = d->res;
    size_t len = vp->len, u3, i, *srcs = NULL;
    xq_move *games = NULL, *cur = NULL;
    int tries;
    if (res->exact || len < 3)
        return;
    /* room for VD_REPAIR_KEEP + 1 games, and as many for far_repairs */
    games = xq_malloc(2 * (VD_REPAIR_KEEP + 1) * (len + 1) * sizeof *games);
    res->repair_len = len + 1;
    cur = xq_malloc((len + 1) * sizeof *cur);
    srcs = xq_malloc((len + 1) * sizeof *srcs);
    if (!games || !cur || !srcs)
        goto out;
    for (u3 = 3; u3 <= len; u3++) {
        const vd_cell *c = NULL;
        vrepair rp;
        bool skip = res->plies[u3 - 1].kind[0] == VK_SKIP;
        int pass;
        if (!skip && !vp->clean[u3 - 1])
            c = reads_other(d, &res->plies[u3 - 1], 0);
        if (!skip && !c)
            continue;
        if (skip && u3 < len && res->plies[u3 - 2].slot[0] >= 0 &&
            res->plies[u3].slot[0] == res->plies[u3 - 2].slot[0] + 1)
            continue;             /* the whole record moved: not this */
        /* the record each ply plays: the skip at u3 taken out, that
         * column's later records each played a move earlier */
        for (i = 1; i <= len; i++)
            srcs[i - 1] = skip && i >= u3 && (i - u3) % 2 == 0 ? i + 2 : i;
        rp.srcs = srcs;
        rp.u3 = u3;
        rp.text = c ? c->text : NULL;
        rp.fit_untold = false;
        rp.file = -1;
        rp.near = NULL;
        /* the blank cells and skips; where they give no history, with
         * the records that read as no legal move too */
        for (pass = 0; pass < 2; pass++) {
            size_t U[2], ng;
            bool far;
            size_t nu = untold_before(d, vp, u3, pass == 1, U, &far);
            if (nu == 0 || (pass == 1 && !far))
                continue;
            for (i = 0; i + 1 < U[0]; i++)
                cur[i] = res->plies[i].mv;
            rp.as_read = false;
            ng = repair_games(d, vp, &rp, U, nu, cur, games);
            if (ng == 0) {
                rp.as_read = true;
                ng = repair_games(d, vp, &rp, U, nu, cur, games);
            }
            if (ng >= 1 && ng <= VD_REPAIR_KEEP) {
                res->repair = games;
                res->nrepair = ng;
                games = NULL;
                goto far;
            }
            if (ng > VD_REPAIR_KEEP)
                break;            /* too many already: more untold, more */
        }
    }
far:
    /* an untold ply further back (far_repairs), for the first
     * VD_FAR_TRIES records that read as no legal move, better than as
     * their decoded move by VD_OK_GAP */
    if (!games)
        games = xq_malloc(2 * (VD_REPAIR_KEEP + 1) * (len + 1) * sizeof *games);
    if (!games)
        goto out;
    for (i = 1; i <= len; i++)   /* every record its own ply */
        srcs[i - 1] = i;
    for (u3 = 3, tries = 0; u3 <= len && tries < VD_FAR_TRIES; u3++) {
        const vd_cell *c;
        vrepair rp;
        size_t ng;
        const vd_ply *p3 = &res->plies[u3 - 1];
        if (p3->kind[0] != VK_READ || p3->forced ||
            !(c = cell_text(d, p3, 0)) || c->illegible ||
            text_gap(d, c, p3, 0) <= VD_OK_GAP ||
            !names_no_move(c, &vp->before[u3 - 1]))
            continue;
        tries++;
        rp.srcs = srcs;
        rp.u3 = u3;
        rp.text = c->text;
        ng = far_repairs(d, vp, &rp, cur, games,
                         games + (VD_REPAIR_KEEP + 1) * (len + 1));
        if (ng >= 1) {
            res->far = games;
            res->nfar = ng;
            games = NULL;
            goto out;
        }
    }
out:
    xq_free(games);
    xq_free(cur);
    xq_free(srcs);
}

/* b: start with the history ending in node played (hist: room for cap
 * moves); false where it cannot be. */
static bool node_board(const vdec *d, const xq_board *start, int32_t node,
                       xq_move *hist, size_t cap, xq_board *b)
{
    size_t n = 0;
    bool ok = true;
    xq_board_copy(b, start);
    for (; node >= 0 && n < cap; node = d->nodes[node].parent)
        hist[n++] = d->nodes[node].mv;
    while (n > 0 && ok)
        ok = xq_board_make_move(b, hist[--n], NULL);
    return ok;
}

/* A skip that moves the whole record back a cell (ply t + 1 read from the
 * cell after ply t - 1's: the next move written in t's cell, the columns
 * changing sides) may as well have been at another ply near it, of
 * either side: the records between, each played one ply later or earlier
 * than the decoded game plays it, read as the other side's moves just as
 * well where a record names its piece's file only (Red's 车二进六 read as
 * Black's 车2进6). The move no cell tells is then another side's, and
 * later records naming a file read on another board. Held-out kai sheets
 * of bench_e2e seed 9700 (corpus line 1742, plain and scanned): Black's
 * ply 18 skipped, decoded as Red's record 19 read as Black's move at 18
 * and Red's 19 skipped; Black's rook, one rank off from there, had its
 * moves 26 and 28 reported sure and wrong. Each place t1 within
 * VD_SHIFT_WINDOW of t, either way (up to the first where no move there
 * lets the records between be played as written), is played with every
 * legal move there and followed (follow_alt, as a history the records
 * cannot tell from the decoded game: VD_OK_GAP): the plies between the
 * two places, and every later ply such a history plays otherwise, are in
 * doubt unless a later record refutes it outright. Where one cannot be
 * followed it is left there: the squares it differs on, put in doubt
 * (seed), spread over the rest of the sheet, and the move there is any of
 * some 40 (bench_e2e n4-s7100: 78.6 -> 80.9% of plies under review, on
 * clean printed sheets 66 -> 79%; as it is, 78.61 -> 78.73%, and 79.72 ->
 * 80.49% on the seed 9700 sheets). Single sheets. */
static void whole_skip_doubt(vdec *d, vplay *vp)
{
    vd_result *res = d->res;
    size_t t, len = vp->len;
    for (t = 2; t < len; t++) {
        const vd_ply *a = &res->plies[t - 2], *c = &res->plies[t];
        int dir;
        if (res->plies[t - 1].kind[0] != VK_SKIP || a->slot[0] < 0 ||
            c->slot[0] != a->slot[0] + 1)
            continue;
        for (dir = -1; dir <= 1; dir += 2) {
            size_t t1, n;
            for (n = 1; n <= VD_SHIFT_WINDOW; n++) {
                xq_move xs[XQ_MAX_MOVES], am = XQ_MOVE_NONE;
                xq_board pre, b;
                size_t lo, hi, u;
                int nx, x, r;
                bool any = false;
                if (dir < 0 ? n >= t : t + n > len)
                    break;
                t1 = dir < 0 ? t - n : t + n;
                lo = t1 < t ? t1 : t;
                hi = t1 < t ? t : t1;
                if (res->plies[t1 - 1].kind[0] != VK_READ)
                    break;
                /* the skip at t1 plays X there and every record between
                 * one ply later (t1 < t) or earlier (t1 > t) than the
                 * decoded game: the position before t1, from t on the
                 * records played one ply early (t1 > t) */
                xq_board_copy(&pre, &vp->before[lo - 1]);
                for (u = t, r = 1; t1 > t && u < t1 && r == 1; u++)
                    r = alt_play(vp, res, &pre, u + 1, &am);
                if (r != 1)
                    break;
                nx = xq_board_legal_moves(&pre, xs);
                for (x = 0; x < nx; x++) {
                    xq_board_copy(&b, &pre);
                    r = xq_board_make_move(&b, xs[x], NULL) ? 1 : 0;
                    for (u = t1 + 1; t1 < t && u <= t && r == 1; u++)
                        r = alt_play(vp, res, &b, u - 1, &am);
                    if (r != 1)
                        continue;
                    any = true;
                    follow_alt(d, vp, &b, hi + 1, NULL, VD_OK_GAP);
                }
                if (!any)
                    break;
                for (u = lo; u <= hi; u++)
                    if (res->plies[u - 1].conf > VD_SHIFT_CONF)
                        res->plies[u - 1].conf = VD_SHIFT_CONF;
            }
        }
    }
}

static void cut_doubt(vdec *d, const xq_board *start, vplay *vp,
                      bool (*seed)[128], const int32_t *path)
{
    xq_move *hist = xq_malloc((vp->len + 2) * sizeof *hist);
    size_t i;
    if (!hist) {
        for (i = 0; i < d->caplost; i++)
            d->cutfull[i] = true;   /* coarse doubt everywhere */
        return;
    }
    for (i = 0; i < d->ncuts; i++) {
        const vcut *c = &d->cuts[i];
        xq_board b;
        /* refuted (uncharge_refuted followed it already): it would cap
         * nothing, nor seed any square */
        if (d->cutfull[c->ply] || (size_t)c->ply > vp->len || c->refuted)
            continue;
        /* a cut history whose columns are aligned otherwise reads other
         * cells than the record's: it cannot be followed by its records */
        if (!same_alignment(d, c->node, c->ply >= 2 ? path[c->ply - 2] : -1)) {
            d->cutfull[c->ply] = true;
            continue;
        }
        if (!node_board(d, start, c->node, hist, vp->len + 1, &b) ||
            !xq_board_make_move(&b, c->mv, NULL)) {
            d->cutfull[c->ply] = true;
            continue;
        }
        /* refuted: it reads a later record worse than the decoded game by
         * more than a misread (VD_ALT_RANGE), and it was cut for reading
         * no better than the prefixes kept: its plies stay as they are */
        follow_alt_at(d, vp, &b, (size_t)c->ply + 1, seed, VD_ALT_RANGE, true,
                      true);
    }
    xq_free(hist);
}

/* Pieces of the moving piece's kind and side on its file (file mates,
 * itself included) are told apart by rank only: 前/后 (and 中) name
 * them by their order on the file. Where one of them stands on a square
 * in doubt, the board may have them in another order: the record may
 * name the other one. */
static bool file_mate_doubt(const xq_board *b, int from, const bool *doubt)
{
    xq_piece pc = xq_board_piece_at(b, (xq_sq)from);
    int r;
    for (r = 0; r < 10; r++) {
        xq_sq sq = XQ_SQ(XQ_SQ_FILE(from), r);
        if (sq != from && doubt[sq] && xq_board_piece_at(b, sq) == pc)
            return true;
    }
    return false;
}

/* A move in doubt puts its file mates in doubt too: the one that moved
 * may have been another of them. */
static void doubt_file_mates(const xq_board *b, int from, bool *doubt)
{
    xq_piece pc = xq_board_piece_at(b, (xq_sq)from);
    int r;
    for (r = 0; r < 10; r++) {
        xq_sq sq = XQ_SQ(XQ_SQ_FILE(from), r);
        if (xq_board_piece_at(b, sq) == pc)
            doubt[sq] = true;
    }
}

/* Could the beam not hold every close alternative near ply t (within the
 * 8 plies after it)? */
static bool near_overflow(const vdec *d, size_t t)
{
    size_t q;
    for (q = t; q <= t + 8 && q < d->caplost; q++)
        if (d->lost[q] > 0)
            return true;
    return false;
}

/* Does some sheet's reading of ply p's cell, as written, name mv on b? */
static bool record_names(const vdec *d, xq_board *b, const vd_ply *p,
                         xq_move mv)
{
    char msg[8], rule[8];
    int k;
    for (k = 0; k < d->nsrc; k++) {
        const vd_cell *c = told_by(d, p, k);
        xq_move am = XQ_MOVE_NONE;
        if (c && c->text && c->text[0] &&
            vs_read(b, c->text, &am, msg, sizeof msg, rule, sizeof rule) ==
                XQ_RES_OK && am == mv)
            return true;
    }
    return false;
}

/* Does some sheet's record of ply p support its move (the status of a
 * read ply: its reading scores within VD_OK_GAP of the move's)? A record
 * that does not is reported corrected, whatever the confidence. */
static bool ply_supported(const vdec *d, const vd_ply *p)
{
    int k;
    for (k = 0; k < d->nsrc; k++) {
        const vd_cell *c = told_by(d, p, k);
        if (c && (!c->text || !c->text[0] ||
                  text_gap(d, c, p, k) <= VD_OK_GAP))
            return true;
    }
    return false;
}

/* Is a ply within VD_WINDOW_BACK before ply t one no record tells
 * (blank, skipped, scribbled, or read as no move near its own)? */
static bool untold_near(const vdec *d, size_t t)
{
    size_t q;
    for (q = t - 1; q >= 1 && q + VD_WINDOW_BACK >= t; q--)
        if (!ply_told(d, &d->res->plies[q - 1]))
            return true;
    return false;
}

/* Ply p's posterior mass of move mv (0 where not listed). */
static double alt_mass(const vd_ply *p, xq_move mv)
{
    int i;
    for (i = 0; i < p->nalt; i++)
        if (p->alt[i].mv == mv)
            return p->alt[i].p;
    return 0;
}

/* Did a ply within VD_WINDOW_BACK before t have alternatives followed
 * (fmass, doubt_forward) that carry at least mass m (m > 0)? */
static bool followed_before(const double *fmass, size_t t, double m)
{
    size_t u;
    if (m <= 0)
        return false;
    for (u = t > VD_WINDOW_BACK ? t - VD_WINDOW_BACK : 1; u < t; u++)
        if (fmass[u] >= m)
            return true;
    return false;
}

/* Chinese notation names a piece's file, not its rank: a move read on a
 * wrong board can read "right" and still be the wrong move. The posterior
 * sees every alternative history the beam kept; where the beam had to cut
 * close ones (lost mass, attribute_lost), later plies may be sure of a
 * board that is not the game's. So a ply with cut mass that cut_doubt
 * could not follow, where no cell tells its move (blank, skipped,
 * unreadable), has every move its side could have made for alternatives
 * (the cut ones cannot be listed). Every unsure ply, cut mass or not, has
 * alternatives whose histories may have been dropped later, outscored by
 * a misread that happened to fit the wrong board: its listed alternatives
 * (posterior share >= 0.01). So does
 * a ply under review whose record does not read as its move (corrected,
 * unreadable): every move its record reads as well as it reads the
 * chosen one ("砲退1" names either cannon; the beam may have dropped the
 * other's history), however sure the posterior. Each such alternative is
 * followed (follow_alt: played at its ply, then every later record on its
 * board) and, unless a later record refutes it outright, a later ply it
 * plays otherwise is capped at VD_DOUBT_CONF (under review); where it
 * cannot be followed, and wherever the posterior has mass in no
 * alternative that was listed or followed (more than 5%), the squares
 * of the moves start from and go to are put in doubt: a later move from
 * or to a square in doubt is capped at VD_DOUBT_CONF and carries the
 * doubt to its destination. (Squares alone, for every such
 * ply, were the first form: a doubt that spreads over the board and
 * never ends, 57% of a kai sheet's plies under review, 99.8% of them
 * right.) Forced (corrected) plies are the arbiter's word.
 * z: the posterior's normaliser (cut mass is measured against it).
 * vp: the decoded record replayed, for following; NULL (a pair, or no
 * memory): squares only, and no cut history was followed either.
 * Otherwise cut_doubt followed the cut histories, so only plies whose cut
 * ones could not all be kept or followed (beam overflow, more than
 * VD_CUT_KEEP) take every move as an alternative; seed[t]: squares where
 * a followed history was lost track of at ply t. */
static void doubt_forward(vdec *d, const xq_board *start, size_t len,
                          double z, bool (*seed)[128], vplay *vp)
{
    vd_result *res = d->res;
    bool doubt[128];
    double below = vd_review_below(d->opts);
    xq_board b;
    xq_board_copy(&b, start);
    size_t t;
    int i;
    /* posterior mass of the alternatives followed at each ply (vp) */
    double *fmass = vp ? xq_calloc(len + 1, sizeof *fmass) : NULL;
    memset(doubt, 0, sizeof doubt);
    for (t = 1; t <= len; t++) {
        vd_ply *p = &res->plies[t - 1];
        int from = XQ_MOVE_FROM(p->mv), to = XQ_MOVE_TO(p->mv);
        bool cut = t < d->caplost && d->lostm[t] > 0 &&
                   (d->lost[t] > 0 || d->lostm[t] > VD_DOUBT_CUT * z);
        /* cut histories that cut_doubt followed need no coarse doubt */
        if (vp && cut && d->lost[t] <= 0 && !d->cutfull[t] && !d->scutply[t])
            cut = false;
        if (seed)
            for (i = 0; i < 128; i++)
                if (seed[t][i])
                    doubt[i] = true;
        bool told = ply_told(d, p);   /* some cell reads as this move */
        /* followed alternatives (a single sheet): a record read as no
         * move at all tells nothing either */
        if (told && vp && !ply_read_clearly(d, p))
            told = false;
        if (p->forced) {
            doubt[from] = doubt[to] = false;
        } else {
            xq_move alts[XQ_MAX_MOVES + VD_NCAND];
            bool weak[XQ_MAX_MOVES + VD_NCAND] = { false };
            bool reader[XQ_MAX_MOVES + VD_NCAND] = { false };
            int nalts = 0, nr = 0;
            double rest = 1.0;   /* posterior mass in no listed move */
            bool unsure = p->conf < VD_DOUBT || (!told && p->conf < below);
            /* the beam could not hold every close alternative near
             * this ply (its confidence was capped for that): the piece
             * it moves may stand elsewhere, and its later moves with it */
            if (near_overflow(d, t))
                doubt[from] = true;
            /* a ply under review told by a record read with a glyph
             * otherwise (车八进一 for 炮八进一: no sheet's record as
             * written names the move): the count or the direction may be
             * the misread glyph as well, the piece a rank off, and every
             * later record still read as written on that board (a thin
             * typeface on a coarse scan: 二 read as 一 here, 退 as 进
             * later, a cannon one rank off and two later plies sure).
             * Its squares are put in doubt; so are those of a ply
             * however sure whose record reads as something else
             * better than as its move (reported corrected) within
             * VD_WINDOW_BACK after a ply no record tells: the posterior
             * may be sure from how that ply was filled (a scribbled
             * record's garble still scores the moves): a scribble
             * reconstructed otherwise, the next record 马6进8 (no legal
             * move there) corrected to 马6退8 at 1.0, the horse two
             * ranks off and its next two moves, read as written on that
             * board, sure and wrong (a rendered handwriting sheet; with
             * features the glyph reader did not take, glyph.c). Without
             * such a ply the other history would have to change a
             * record read as written, and a corrected record sure in a
             * pair of sheets had put 22 right plies after it under
             * review */
            if (told && !record_names(d, &b, p, p->mv) &&
                (p->conf < below ||
                 (untold_near(d, t) && !ply_supported(d, p))))
                doubt[from] = doubt[to] = true;
            if (doubt[from] || doubt[to] || file_mate_doubt(&b, from, doubt)) {
                if (p->conf > VD_DOUBT_CONF)
                    p->conf = VD_DOUBT_CONF;
                doubt[to] = true;
                doubt_file_mates(&b, from, doubt);
            }
            if (cut && !told) {
                /* cut histories not kept or not followed: every move
                 * its side could have made */
                if (vp) {
                    nalts = xq_board_legal_moves(&b, alts);
                    for (i = 0; i < nalts; i++)
                        if (alts[i] == p->mv)
                            alts[i--] = alts[--nalts];
                    if (fmass)
                        fmass[t] = 1.0;   /* every other move followed */
                } else {
                    doubt_all(&b, doubt);
                }
                unsure = false;
            } else if (unsure || !told) {
                /* a ply no cell tells (blank, skipped) is told only by
                 * the records after it; a history they read as well is
                 * weighed apart by the move-count prior alone, a drift
                 * of a few nats over a long game: however sure the
                 * posterior, an alternative it gives any real mass is
                 * followed */
                double minp = told ? 0.01 : VD_UNTOLD_ALT;
                for (i = 0; i < p->nalt; i++)
                    if (p->alt[i].mv == p->mv) {
                        rest -= p->alt[i].p;
                    } else if (p->alt[i].p >= minp) {
                        weak[nalts] = p->alt[i].p < 0.01;
                        alts[nalts++] = p->alt[i].mv;
                        rest -= p->alt[i].p;
                    }
            }
            if (!told && !cut) {
                int j, k;
                nr = reader_moves(d, &b, p, alts + nalts);
                if (nr < 0) {
                    doubt_all(&b, doubt);
                    nr = 0;
                }
                /* a reader already listed is followed once */
                for (j = nalts; j < nalts + nr; j++)
                    for (k = 0; k < nalts; k++)
                        if (alts[j] == alts[k]) {
                            alts[j--] = alts[nalts + --nr];
                            break;
                        }
                for (j = nalts; j < nalts + nr; j++)
                    reader[j] = true;
                nalts += nr;
            }
            /* a ply no cell tells, reconstructed: the records after it
             * must make the reconstruction unique. Another move there
             * whose history reads them as well (alt_ties: also where the
             * decoded game had to correct a later record the other one
             * reads as written) leaves it in doubt, however little mass
             * the beam kept for it; that move is followed too */
            if (vp && !told) {
                xq_move lm[XQ_MAX_MOVES];
                int nl = xq_board_legal_moves(&b, lm), j, k;
                for (j = 0; j < nl; j++) {
                    xq_board c;
                    if (lm[j] == p->mv)
                        continue;
                    xq_board_copy(&c, &b);
                    if (!xq_board_make_move(&c, lm[j], NULL) ||
                        !alt_ties(d, vp, &c, t + 1))
                        continue;
                    if (p->conf > VD_DOUBT_CONF)
                        p->conf = VD_DOUBT_CONF;
                    for (k = 0; k < nalts && alts[k] != lm[j]; k++)
                        ;
                    if (k == nalts) {
                        weak[nalts] = false;
                        reader[nalts] = false;
                        alts[nalts++] = lm[j];
                    } else {
                        weak[k] = false;
                    }
                }
            }
            /* cut_doubt followed the cut histories of this ply */
            if (vp && t < d->caplost && d->lostm[t] > 0 && d->lost[t] <= 0 &&
                !d->cutfull[t] && !d->scutply[t])
                rest -= d->lostm[t] / (z + d->lostm[t]);
            /* where posterior mass is in no listed alternative (or the
             * histories are not followed), the squares */
            if ((unsure && (!vp || rest > 0.05)) || (!vp && nr > 0))
                doubt[from] = doubt[to] = true;
            for (i = 0; i < nalts; i++) {
                if (vp) {
                    xq_board c;
                    xq_board_copy(&c, &b);
                    if (xq_board_make_move(&c, alts[i], NULL)) {
                        /* a move the record names as written, refuted
                         * later as a whole: that piece may still have
                         * gone there, with another ply changed too (a
                         * skip found elsewhere, the decoded move put
                         * here from another ply): its squares */
                        if (follow_alt(d, vp, &c, t + 1, seed,
                                       weak[i] ? VD_OK_GAP : VD_ALT_RANGE) &&
                            reader[i] && record_names(d, &b, p, alts[i]))
                            doubt[XQ_MOVE_FROM(alts[i])] =
                                doubt[XQ_MOVE_TO(alts[i])] = true;
                        if (fmass && fmass[t] < 1.0)
                            fmass[t] += alt_mass(p, alts[i]);
                        continue;
                    }
                }
                if (weak[i])
                    continue;   /* its history differs earlier: followed
                                   there, or too unlikely to be */
                /* a move that cannot be played here: its history left
                 * the decoded game earlier. Where a ply within
                 * VD_WINDOW_BACK before had alternatives followed that
                 * carry at least its mass, that history most likely was
                 * among them (a history's mass is the same at every ply
                 * it plays): followed there, refuted or capped as it went
                 * (squares seeded where it was lost), so its squares need
                 * no doubt here (Black's rook sent elsewhere at an
                 * illegible record and back at the next: the record after
                 * it names the rook's return from the other square too,
                 * and its squares put 36 of the plies after it under
                 * review, every one right) */
                if (fmass && followed_before(fmass, t, alt_mass(p, alts[i])))
                    continue;
                doubt[XQ_MOVE_FROM(alts[i])] = doubt[XQ_MOVE_TO(alts[i])] = true;
                doubt[from] = doubt[to] = true;
            }
        }
        if (!xq_board_make_move(&b, p->mv, NULL))
            break;
    }
    xq_free(fmass);
}

/* Are the plies within VD_SEA_REACH of t, every step-th (1: both
 * columns, 2: t's own), at least VD_SEA_REACH / step of them, nearly all
 * in doubt (un)? */
static bool sea_of(const bool *un, size_t t, size_t len, size_t step)
{
    size_t lo = t > VD_SEA_REACH ? t - VD_SEA_REACH : 1, q, n = 0, m = 0;
    for (q = lo + (t - lo) % step; q <= t + VD_SEA_REACH && q <= len; q += step)
        if (q != t) {
            n++;
            m += un[q];
        }
    return n >= VD_SEA_REACH / step && m >= VD_SEA_SHARE * n;
}

/* A ply sure among plies nearly all in doubt (VD_SEA_SHARE of the
 * VD_SEA_REACH plies either side, or of its own column's plies there: a
 * column read a move out of step reads well on a board one move off,
 * beside the other column read right): the board it was read on is most
 * likely wrong too (a record read well on a wrong board reads as a move
 * there), so it goes under review with them. */
static void sea_doubt(vdec *d, size_t len)
{
    vd_result *res = d->res;
    double below = vd_review_below(d->opts);
    bool *un = xq_calloc(len + 1, sizeof *un);
    size_t t;
    if (!un)
        return;
    for (t = 1; t <= len; t++)
        un[t] = res->plies[t - 1].conf < below;
    for (t = 1; t <= len; t++) {
        vd_ply *p = &res->plies[t - 1];
        if (un[t] || p->forced)
            continue;
        if ((sea_of(un, t, len, 1) || sea_of(un, t, len, 2)) &&
            p->conf > VD_DOUBT_CONF)
            p->conf = VD_DOUBT_CONF;
    }
    xq_free(un);
}

/* Is the prefix c, whose close realignments were cut at its ply u where
 * the decoded record realigns too, refuted by the records after it? Its
 * columns aligned as the decoded record's before u, it reads the same
 * cells from u on: followed on its own board (follow_alt_at, the decoded
 * move played at u, refuted bit by bit or outright), as cut_doubt follows
 * a cut history. A single sheet only (see cut_doubt). */
static bool scut_refuted(vdec *d, const xq_board *start, vplay *vp,
                         const vscut *c, const int32_t *path)
{
    size_t u = (size_t)c->ply;
    xq_move *hist;
    xq_board b;
    bool ok;
    if (d->nsrc != 1 || u < 1 || u > vp->len ||
        !same_alignment(d, c->node, u >= 2 ? path[u - 2] : -1))
        return false;
    hist = xq_malloc((vp->len + 2) * sizeof *hist);
    if (!hist)
        return false;
    ok = node_board(d, start, c->node, hist, vp->len + 1, &b);
    xq_free(hist);
    if (ok) {
        int st = follow_alt_at(d, vp, &b, u, NULL, VD_ALT_RANGE, true, true);
        ok = st == FA_REFUTED || st == FA_OUTRIGHT;
    }
    return ok;
}

/* Charge mass m to the plies before ply where the history ending in node
 * plays another move than the decoded game (path; m < 0 takes it off),
 * marking them in mark (NULL: none). */
static void charge_lost(vdec *d, const int32_t *path, size_t len,
                        int32_t node, int ply, double m, bool *mark)
{
    int32_t a = node, b;
    if (ply < 2 || (size_t)(ply - 1) > len)
        return;
    b = path[ply - 2];
    while (a >= 0 && b >= 0 && a != b) {
        const vnode *na = &d->nodes[a], *nb = &d->nodes[b];
        if (na->ply != nb->ply)
            break;
        if (na->mv != nb->mv && (size_t)na->ply < d->caplost) {
            d->lostm[na->ply] += m;
            if (d->lostm[na->ply] < 0)
                d->lostm[na->ply] = 0;
            if (mark)
                mark[na->ply] = true;
        }
        a = na->parent;
        b = nb->parent;
    }
}

/* The share of the mass cut at ply that counts (against the plies where
 * its histories differ): a cut child's mass is measured at its ply, before
 * the records after it refute most histories alive there, as they refuted
 * most of those kept (at a blank the beam keeps a few thousand children,
 * all alike, and the record after it has each of them read as well): the
 * cut mass is taken to survive as the kept mass did, keptm[ply] at its ply
 * and Z at the end. Only ever lowered: a beam narrower at the end than at
 * the cut counts in full. */
static double lost_scale(const vdec *d, int ply, double Z)
{
    if (ply < 1 || (size_t)ply >= d->caplost || !(d->keptm[ply] > Z))
        return 1.0;
    return Z / d->keptm[ply];
}

/* Cut histories kept for following (keep_cut) that the records after them
 * refute (followed on their own boards as cut_doubt follows them, refuted
 * bit by bit or outright: cut_doubt lets them cap nothing) were not
 * played: their mass comes off the plies it was charged to (charge_lost,
 * lost_move). A single sheet only (see cut_doubt). */
static void uncharge_refuted(vdec *d, const xq_board *start, vplay *vp,
                             const int32_t *path, double Z)
{
    xq_move *hist = xq_malloc((vp->len + 2) * sizeof *hist);
    size_t i, f;
    if (!hist)
        return;
    for (i = 0; i < d->ncuts; i++) {
        vcut *c = &d->cuts[i];
        xq_board b;
        int st;
        if (d->nsrc != 1 || d->cutfull[c->ply] || (size_t)c->ply > vp->len ||
            !same_alignment(d, c->node, c->ply >= 2 ? path[c->ply - 2] : -1))
            continue;
        if (!node_board(d, start, c->node, hist, vp->len + 1, &b) ||
            !xq_board_make_move(&b, c->mv, NULL))
            continue;
        st = follow_alt_at(d, vp, &b, (size_t)c->ply + 1, NULL, VD_ALT_RANGE,
                           true, true);
        if (st != FA_REFUTED && st != FA_OUTRIGHT)
            continue;
        c->refuted = true;
        charge_lost(d, path, vp->len, c->node, c->ply,
                    -c->mass * lost_scale(d, c->ply, Z), NULL);
        for (f = 0; f < d->nlmv; f++)
            if (d->lmv[f].ply == c->ply && d->lmv[f].mv == c->mv) {
                d->lmv[f].mass = d->lmv[f].mass > c->mass
                                     ? d->lmv[f].mass - c->mass : 0;
                break;
            }
    }
    xq_free(hist);
}

static xq_status posterior(vdec *d, size_t best, const xq_board *start,
                           int32_t *path, size_t len)
{
    vd_result *res = d->res;
    valts *al;
    double M = d->finals[best].score, Z = 0;
    vplay vp;
    bool vok;
    double *pref, *ghostm;
    int32_t *fp;
    size_t f, t, maxlen = len;
    /* longest path among the weighed finals */
    for (f = 0; f < d->nfinals; f++) {
        int32_t nd = d->finals[f].node;
        size_t l = nd >= 0 ? (size_t)d->nodes[nd].ply : 0;
        if (d->finals[f].score >= M - 40 && l > maxlen)
            maxlen = l;
    }
    al = xq_calloc(maxlen + 1, sizeof *al);
    pref = xq_calloc(maxlen + 2, sizeof *pref);
    ghostm = xq_calloc(maxlen + 2, sizeof *ghostm);
    fp = xq_calloc(maxlen + 1, sizeof *fp);
    if (!al || !pref || !ghostm || !fp) {
        xq_free(al);
        xq_free(pref);
        xq_free(ghostm);
        xq_free(fp);
        return XQ_ENOMEM;
    }
    for (f = 0; f < d->nfinals; f++) {
        const vfinal *fi = &d->finals[f];
        double w;
        size_t l;
        int32_t nd;
        if (fi->score < M - 40)
            continue;
        w = exp(fi->score - M);
        l = fi->node >= 0 ? (size_t)d->nodes[fi->node].ply : 0;
        for (nd = fi->node; nd >= 0; nd = d->nodes[nd].parent)
            fp[d->nodes[nd].ply] = nd;
        /* ghosts merged along this path */
        for (t = 1; t <= l; t++) {
            int32_t g;
            const vnode *n = &d->nodes[fp[t]];
            ghostm[t] = 0;
            for (g = n->ghost; g >= 0; g = d->ghosts[g].next) {
                double gm = w * exp(d->ghosts[g].score - n->score);
                int32_t gn;
                ghostm[t] += gm;
                if (gm < 1e-12)
                    continue;
                for (gn = d->ghosts[g].node; gn >= 0; gn = d->nodes[gn].parent)
                    alts_add(&al[d->nodes[gn].ply], d->nodes[gn].mv, gm);
            }
        }
        /* mass agreeing with this path at ply t: itself plus ghosts merged
         * at earlier plies (they share its continuation) */
        pref[0] = w;
        for (t = 1; t <= l; t++) {
            alts_add(&al[t], d->nodes[fp[t]].mv, pref[t - 1]);
            pref[t] = pref[t - 1] + ghostm[t];
        }
        Z += pref[l];
    }
    /* a cut child's own mass counts against the decoded move at its ply
     * only where it plays another move there (it may differ only at an
     * earlier ply, a blank's: attribute_lost charged it there) */
    /* cut children's mass, where their histories differ from the
     * decoded game (attribute_lost), less the refuted ones' */
    for (f = 0; f < d->nlpre; f++)
        charge_lost(d, path, len, d->lpre[f].node, d->lpre[f].ply,
                    d->lpre[f].mass * lost_scale(d, d->lpre[f].ply, Z), NULL);
    vok = vplay_build(d, start, len, &vp);
    if (vok)
        uncharge_refuted(d, start, &vp, path, Z);
    for (f = 0; f < d->nlmv; f++) {
        size_t u = (size_t)d->lmv[f].ply;
        if (u >= 1 && u <= len && d->lmv[f].mv != res->plies[u - 1].mv)
            d->lostm[u] += d->lmv[f].mass * lost_scale(d, (int)u, Z);
    }
    /* close realignments cut where the decoded record realigns too
     * (keep_scuts): their mass, measured against the decoded ply's, goes
     * to every earlier ply where their prefix differs from the record and
     * to the ply itself (the move skipped may differ); cut_doubt cannot
     * follow them (another alignment), so those plies count as cut
     * beyond following */
    for (f = 0; f < d->nscuts; f++) {
        const vscut *c = &d->scuts[f];
        size_t u = (size_t)c->ply;
        const vnode *nu;
        double m;
        int k;
        bool shifts = false;
        if (u < 1 || u > len || u >= d->caplost)
            continue;
        nu = &d->nodes[path[u - 1]];
        for (k = 0; k < d->nsrc; k++)
            if (nu->kind[k] == VK_SKIP || nu->kind[k] == VK_EXTRA)
                shifts = true;
        if (!shifts)
            continue;
        /* another prefix: its realignments (a skip of every legal move,
         * each at its share of the prior) go on as one history would,
         * the one whose skipped move fits the records after it, as the
         * decoded one goes on with its own: the heaviest one's mass, not
         * all of them (that counted it about 40 times); the decoded
         * prefix's own: every other move it may have skipped there */
        m = (c->node == (u >= 2 ? path[u - 2] : -1) ? c->mass : c->maxm) *
            exp(d->refps[u] - nu->score);
        if (m < 1e-9 || (vok && scut_refuted(d, start, &vp, c, path)))
            continue;
        d->lostm[u] += m;
        d->scutply[u] = true;
        charge_lost(d, path, len, c->node, (int)u, m, d->scutply);
    }
    for (t = 1; t <= len; t++) {
        vd_ply *p = &res->plies[t - 1];
        double denom = Z;
        int i;
        bool overflow = near_overflow(d, t);
        if (t < d->caplost)
            denom += d->lostm[t];
        qsort(al[t].a, (size_t)al[t].n, sizeof al[t].a[0], cmp_alt);
        p->conf = 0;
        p->nalt = 0;
        for (i = 0; i < al[t].n && p->nalt < VD_NCAND; i++) {
            p->alt[p->nalt].mv = al[t].a[i].mv;
            p->alt[p->nalt].p = denom > 0 ? al[t].a[i].p / denom : 0;
            if (al[t].a[i].mv == p->mv)
                p->conf = p->alt[p->nalt].p;
            p->nalt++;
        }
        if (p->conf > 1)
            p->conf = 1;
        if (overflow && p->conf > 0.5)
            p->conf = 0.5;
    }
    {
        bool ok = vok;
        /* a pair's cut histories are not followed: which sheet's record
         * a cut history would go by is not known (followed by the
         * decoded texts, a pair had wrong moves reported sure) */
        bool (*seed)[128] = ok && d->nsrc == 1 ? xq_calloc(len + 2, sizeof *seed)
                                               : NULL;
        shift_doubt(d, &vp, ok);
        if (ok) {
            illegal_doubt(d, &vp);
            correction_doubt(d, &vp);
        }
        if (seed) {
            find_repairs(d, &vp);
            whole_skip_doubt(d, &vp);
            cut_doubt(d, start, &vp, seed, path);
        }
        doubt_forward(d, start, len, Z, seed, seed ? &vp : NULL);
        sea_doubt(d, len);
        xq_free(seed);
        vplay_free(&vp);
    }
    (void)path;
    xq_free(al);
    xq_free(pref);
    xq_free(ghostm);
    xq_free(fp);
    return XQ_OK;
}

/* ---- main loop -------------------------------------------------------- */

/* Free one sheet's per-cell score tables (ncells of them). */
static void cache_free(vcache **pc, size_t ncells)
{
    size_t i;
    for (i = 0; *pc && i < ncells; i++)
        xq_free((*pc)[i].e);
    xq_free(*pc);
    *pc = NULL;
}

static void dec_free(vdec *d)
{
    int k;
    xq_free(d->nodes);
    xq_free(d->ghosts);
    xq_free(d->kids);
    xq_free(d->sorted);
    xq_free(d->keys);
    xq_free(d->group);
    xq_free(d->finals);
    xq_free(d->lost);
    for (k = 0; k < VD_MAXSRC; k++) {
        cache_free(&d->cache[k], d->res->ncells[k]);
        cache_free(&d->mcache[k], d->res->ncells[k]);
    }
    xq_free(d->spells);
    xq_free(d->lostm);
    xq_free(d->lmv);
    xq_free(d->lostp);
    xq_free(d->cuts);
    xq_free(d->ncutply);
    xq_free(d->cutfull);
    xq_free(d->slostp);
    xq_free(d->slostx);
    xq_free(d->scuts);
    xq_free(d->lpre);
    xq_free(d->refps);
    xq_free(d->keptm);
    xq_free(d->scutply);
}

void vd_result_free(vd_result *res)
{
    int k;
    size_t i;
    if (!res)
        return;
    xq_free(res->plies);
    xq_free(res->repair);
    xq_free(res->far);
    for (k = 0; k < VD_MAXSRC; k++) {
        if (res->cells[k])
            for (i = 0; i < res->ncells[k]; i++)
                xq_free(res->cells[k][i].text);
        xq_free(res->cells[k]);
    }
    memset(res, 0, sizeof *res);
}

static int cmp_lmv(const void *a, const void *b)
{
    const vlmv *x = a, *y = b;
    return (x->mv > y->mv) - (x->mv < y->mv);
}

/* A cut child's mass at its own ply, by its move. */
static xq_status lost_move(vdec *d, xq_move mv, int ply, double m)
{
    if ((size_t)ply >= d->caplost)
        return XQ_OK;
    XQ_TRY(grow((void **)&d->lmv, &d->caplmv, d->nlmv + 1, sizeof *d->lmv));
    d->lmv[d->nlmv].mv = mv;
    d->lmv[d->nlmv].ply = (int16_t)ply;
    d->lmv[d->nlmv].mass = m;
    d->nlmv++;
    return XQ_OK;
}

/* Merge the entries of this step (from n0 on) by move. */
static void merge_lost_moves(vdec *d, size_t n0)
{
    size_t i, o = n0;
    if (d->nlmv - n0 < 2)
        return;
    qsort(d->lmv + n0, d->nlmv - n0, sizeof *d->lmv, cmp_lmv);
    for (i = n0; i < d->nlmv; i++) {
        if (o > n0 && d->lmv[o - 1].mv == d->lmv[i].mv)
            d->lmv[o - 1].mass += d->lmv[i].mass;
        else
            d->lmv[o++] = d->lmv[i];
    }
    d->nlmv = o;
}

/* Mass cut from the children of parent entries is kept with those
 * parents' last nodes (d->lpre) and charged by the posterior to the plies
 * where their histories play another move than the decoded game (it had
 * been charged against the best parent of the step, which may be a
 * history the later records refuted: then a cut history playing the
 * decoded game's moves counted against them). The cut children's own
 * moves at this ply went to d->lmv (lost_move): the decoded game may play
 * the same move there, on another history. */
static xq_status attribute_lost(vdec *d, const ventry *cur, size_t ncur,
                                int ply)
{
    size_t i;
    for (i = 0; i < ncur; i++) {
        if (d->lostp[i] <= 0)
            continue;
        XQ_TRY(grow((void **)&d->lpre, &d->caplpre, d->nlpre + 1,
                    sizeof *d->lpre));
        d->lpre[d->nlpre].node = cur[i].node;
        d->lpre[d->nlpre].ply = (int16_t)ply;
        d->lpre[d->nlpre].mass = d->lostp[i];
        d->lpre[d->nlpre].maxm = 0;
        d->nlpre++;
        d->lostp[i] = 0;
    }
    return XQ_OK;
}

/* Remember a cut history (its parent's node and its move) so that the
 * posterior can follow it (cut_doubt); past VD_CUT_KEEP at a ply, or
 * without memory, the ply is marked and its doubt stays coarse. */
static void keep_cut(vdec *d, int32_t node, xq_move mv, int ply, double mass)
{
    if ((size_t)ply >= d->caplost)
        return;
    if (d->ncutply[ply] >= VD_CUT_KEEP ||
        grow((void **)&d->cuts, &d->capcuts, d->ncuts + 1, sizeof *d->cuts) != XQ_OK) {
        d->cutfull[ply] = true;
        return;
    }
    d->cuts[d->ncuts].node = node;
    d->cuts[d->ncuts].mass = mass;
    d->cuts[d->ncuts].refuted = false;
    d->cuts[d->ncuts].mv = mv;
    d->cuts[d->ncuts].ply = (int16_t)ply;
    d->ncuts++;
    d->ncutply[ply]++;
}

static int cmp_scut(const void *a, const void *b)
{
    const vscut *x = a, *y = b;
    return x->mass > y->mass ? -1 : x->mass < y->mass ? 1
           : (x->node > y->node) - (x->node < y->node);
}

/* Realignments (a skip, a junk cell) cut from the beam at ply are not
 * lost mass the way a cut move is: most prefixes have one, and most
 * misalign the record. But where the decoded record realigns at this ply
 * too, a close prefix's realignment there is as good an explanation of
 * the cells, on another board: after blank cells many prefixes tie and
 * only the best one's realignment is sure of a place in the beam. Keep
 * the VD_SCUT_KEEP prefixes with the most such mass (the rest adds its
 * mass to the last of them) for posterior() to weigh. */
static xq_status keep_scuts(vdec *d, const ventry *cur, size_t ncur, int ply)
{
    size_t i, n0 = d->nscuts, n;
    for (i = 0; i < ncur; i++) {
        if (d->slostp[i] <= 0)
            continue;
        XQ_TRY(grow((void **)&d->scuts, &d->capscuts, d->nscuts + 1,
                    sizeof *d->scuts));
        d->scuts[d->nscuts].node = cur[i].node;
        d->scuts[d->nscuts].ply = (int16_t)ply;
        d->scuts[d->nscuts].mass = d->slostp[i];
        d->scuts[d->nscuts].maxm = d->slostx[i];
        d->nscuts++;
        d->slostp[i] = d->slostx[i] = 0;
    }
    n = d->nscuts - n0;
    if (n > VD_SCUT_KEEP) {
        qsort(d->scuts + n0, n, sizeof *d->scuts, cmp_scut);
        for (i = n0 + VD_SCUT_KEEP; i < d->nscuts; i++) {
            d->scuts[n0 + VD_SCUT_KEEP - 1].mass += d->scuts[i].mass;
            d->scuts[n0 + VD_SCUT_KEEP - 1].maxm += d->scuts[i].maxm;
        }
        d->nscuts = n0 + VD_SCUT_KEEP;
    }
    return XQ_OK;
}

/* Does child c play the traced true game: its prefix does, its move is
 * the true one and (where the true cells are given) it reads the move
 * from the true cell of sheet 0, or takes it as skipped where it was? */
static bool child_on_truth(const vdec *d, const ventry *cur, const vchild *c,
                           int ply)
{
    int want;
    if (!d->trace || !cur[c->entry].on_truth || (size_t)ply > d->ntrace ||
        c->mv != d->trace[ply - 1])
        return false;
    if (!d->trace_cells)
        return true;
    want = d->trace_cells[ply - 1];
    return want < 0 ? c->kind[0] == VK_SKIP
                    : c->kind[0] != VK_SKIP && c->slot[0] == want;
}

/* The traced true game's first child in the beam's order (group_kids'
 * groups, then key_before's order) among the ply's children (before the
 * beam is cut) into res's trace fields: its kind, cell, rank in that
 * order and gap (score below the best); VK_NONE where no child plays it. */
static void trace_children(vdec *d, const ventry *cur, int ply, double bestp,
                           double bestc, double refp)
{
    vd_result *res = d->res;
    const vchild *t = NULL;
    vkey kt, kc;
    uint8_t gt = 4;
    size_t i;
    for (i = 0; i < d->nkids; i++) {
        const vchild *c = &d->kids[i];
        uint8_t g;
        if (!child_on_truth(d, cur, c, ply))
            continue;
        g = kid_group(d, cur, c, bestp, bestc, refp);
        key_of(&kc, c, i);
        if (!t || g < gt || (g == gt && key_before(&kc, &kt))) {
            t = c;
            gt = g;
            kt = kc;
        }
    }
    res->trace_kids = d->nkids;
    res->trace_rank = 0;
    res->trace_kind = VK_NONE;
    res->trace_illegible = false;
    res->trace_gap = HUGE_VAL;
    if (!t)
        return;
    for (i = 0; i < d->nkids; i++) {
        uint8_t g = kid_group(d, cur, &d->kids[i], bestp, bestc, refp);
        key_of(&kc, &d->kids[i], i);
        res->trace_rank += g < gt || (g == gt && key_before(&kc, &kt));
    }
    res->trace_kind = t->kind[0];
    res->trace_illegible = t->kind[0] == VK_READ && t->slot[0] >= 0 &&
                           (size_t)t->slot[0] < res->ncells[0] &&
                           res->cells[0][t->slot[0]].illegible;
    res->trace_gap = bestc - t->score;
}

static xq_status run(vdec *d, const xq_board *start)
{
    const xq_verify_options *o = d->opts;
    int beam = o && o->beam > 0 ? o->beam : VD_BEAM;
    ventry *cur = NULL, *nxt = NULL;
    size_t ncur = 0, nnxt = 0, capent;
    uint64_t *keys = NULL;
    int32_t *slots = NULL;
    size_t tabsz;
    int ply, maxply = 0, k, s;
    xq_status st = XQ_OK;
    size_t best, f;
    int32_t nd, *path = NULL;
    size_t len;
    xq_board work, *wb = &work;   /* the entry being expanded or moved */
    bool trace_live = d->trace != NULL && d->ntrace > 0;

    for (k = 0; k < d->nsrc; k++)
        for (s = 0; s < 2; s++)
            if (d->res->lastnb[k][s] + 1 > maxply)
                maxply = d->res->lastnb[k][s] + 1;
    maxply += 24;
    capent = (size_t)beam * 32;       /* wider while cells are blank or
                                         close alternatives abound */
    if (d->wide_at && (size_t)d->wide_beam * 8 > capent)
        capent = (size_t)d->wide_beam * 8;
    tabsz = 1;
    while (tabsz < capent * 2)
        tabsz <<= 1;
    cur = xq_malloc(capent * sizeof *cur);
    nxt = xq_malloc(capent * sizeof *nxt);
    keys = xq_malloc(tabsz * sizeof *keys);
    slots = xq_malloc(tabsz * sizeof *slots);
    d->caplost = (size_t)maxply + 16;
    d->lost = xq_calloc(d->caplost, sizeof *d->lost);
    d->lostm = xq_calloc(d->caplost, sizeof *d->lostm);
    d->lostp = xq_calloc(capent, sizeof *d->lostp);
    d->ncutply = xq_calloc(d->caplost, sizeof *d->ncutply);
    d->cutfull = xq_calloc(d->caplost, sizeof *d->cutfull);
    d->slostp = xq_calloc(capent, sizeof *d->slostp);
    d->slostx = xq_calloc(capent, sizeof *d->slostx);
    d->refps = xq_calloc(d->caplost, sizeof *d->refps);
    d->keptm = xq_calloc(d->caplost, sizeof *d->keptm);
    d->scutply = xq_calloc(d->caplost, sizeof *d->scutply);
    if (!cur || !nxt || !keys || !slots || !d->lost || !d->lostm || !d->lostp ||
        !d->ncutply || !d->cutfull || !d->slostp || !d->slostx || !d->refps ||
        !d->keptm || !d->scutply) {
        st = XQ_ENOMEM;
        goto out;
    }
    memset(&cur[0], 0, sizeof cur[0]);
    xq_board_save_pos(&cur[0].pos, start);
    cur[0].side = (int8_t)xq_board_side(start);
    cur[0].score = 0;
    cur[0].node = -1;
    cur[0].guided = (uint16_t)((1u << d->nguide) - 1);
    cur[0].on_truth = trace_live;
    ncur = 1;

    for (ply = 1; ncur > 0 && ply <= maxply; ply++) {
        double bestc = -1e300, bestp = -1e300, refp;
        int pass;
        size_t npass0 = 0, n0 = 0, n1 = 0, sorted_to, nlmv0 = d->nlmv;
        size_t i, cap = d->wide_at && (size_t)ply < d->nwide && d->wide_at[ply]
                            ? (size_t)d->wide_beam
                            : (size_t)beam;
        bool badcorr = false, blank = false;
        d->nkids = 0;
        for (i = 0; i < ncur; i++) {
            ventry *e = &cur[i];
            bool complete = true;
            int side = e->side;
            for (k = 0; k < d->nsrc && complete; k++)
                for (s = 0; s < 2 && complete; s++) {
                    int p = s == side ? ply : ply + 1;
                    int slot = slot_of(d, k, e, p, s);
                    while (slot < 0)
                        slot += 2;
                    if (slot <= last_of(d, k, slot))
                        complete = false;
                }
            if (complete) {
                st = add_final(d, e, ply, false);
                if (st != XQ_OK)
                    goto out;
                if (e->on_truth)
                    trace_live = false;   /* finished, not lost */
                continue;
            }
            if (i == 0) {
                for (k = 0; k < d->nsrc; k++) {
                    vsit si = situation(d, k, e, ply, side);
                    if (si.state == VK_BLANK)
                        blank = true;
                }
            }
            if (e->score > bestp)
                bestp = e->score;
            xq_board_load_pos(wb, &e->pos);
            st = expand(d, (int32_t)i, e, wb, ply, &bestc, &badcorr);
            if (st != XQ_OK)
                goto out;
        }
        if (badcorr)
            d->res->bad_corrections++;
        if (d->nkids == 0)
            break;
        if (trace_live && (size_t)ply > d->ntrace)
            trace_live = false;   /* the true game is over */
        if (blank)
            cap = capent;
        refp = d->nfinals && d->best_final > bestc ? d->best_final : bestc;
        if (trace_live)
            trace_children(d, cur, ply, bestp, bestc, refp);
        /* Children within a few nats of the best prefix (finished games
         * included) are real alternatives: widen the beam to keep them
         * all; if even the wide beam cannot, mark the ply so that the
         * plies around it are not trusted. */
        {
            size_t close;
            st = group_kids(d, cur, bestp, bestc, refp, &n0, &n1, &close);
            if (st != XQ_OK)
                goto out;
            sorted_to = n1;
            if (close > cap)
                cap = close < capent ? close : capent;
            if (close > capent && (size_t)ply < d->caplost)
                d->lost[ply] = 1.0;
        }
        memset(slots, 0xff, tabsz * sizeof *slots);
        nnxt = 0;
        /* Two passes: first the realignments (skip, junk cell) of the best
         * prefix, so that they are never crowded out by old long shots
         * that keep reading well; then the rest by score, a full beam. */
        for (pass = 0; pass < 2; pass++, npass0 = nnxt)
        for (i = pass ? n0 : 0; i < (pass ? d->nkids : n0); i++) {
            const vchild *c;
            ventry *ne;
            int32_t nidx;
            size_t h;
            bool shift;
            if (i == sorted_to) {
                /* past refp - VD_LOST_RANGE a child that finds the beam
                 * full is not even lost mass: the rest are put in order
                 * only as far as they can still enter (a few more than
                 * the places left: some merge, some fall below the drop),
                 * and again if those did not fill the beam */
                size_t room, take;
                if (nnxt >= capent || nnxt >= npass0 + cap)
                    break;
                room = npass0 + cap - nnxt;
                if (room > capent - nnxt)
                    room = capent - nnxt;
                take = room + room / 2 + 16;
                st = sort_kids(d, d->kids + i, d->nkids - i, take);
                if (st != XQ_OK)
                    goto out;
                sorted_to = i + take;
            }
            c = &d->kids[i];
            shift = child_shifts(d, c);
            if (!shift && !c->guided && c->score < bestc - VD_BEAM_DROP)
                continue;
            if (nnxt >= capent ||
                (!c->guided && nnxt >= (pass == 0 ? (size_t)XQ_MAX_MOVES
                                                  : npass0 + cap))) {
                /* cut: an alternative history that reads its cells well
                 * is probability mass the posterior must not forget */
                if (pass == 1 && c->em > -VD_LOST_READ &&
                    c->score > refp - VD_LOST_RANGE && !shift) {
                    double m = exp(c->score - refp);
                    d->lostp[c->entry] += m;
                    keep_cut(d, cur[c->entry].node, c->mv, ply, m);
                    st = lost_move(d, c->mv, ply, m);
                    if (st != XQ_OK)
                        goto out;
                } else if (shift && c->score > refp - VD_LOST_RANGE) {
                    double m = exp(c->score - refp);
                    d->slostp[c->entry] += m;
                    if (m > d->slostx[c->entry])
                        d->slostx[c->entry] = m;
                }
                continue;
            }
            ne = &nxt[nnxt];
            xq_board_load_pos(wb, &cur[c->entry].pos);
            /* a child's move is one of its position's legal moves (a
             * correction's, from its text: checked) */
            if (!(c->forced ? xq_board_make_move(wb, c->mv, NULL)
                            : xq_board_play_legal(wb, c->mv)))
                continue;
            xq_board_save_pos(&ne->pos, wb);
            ne->side = (int8_t)xq_board_side(wb);
            memcpy(ne->off, cur[c->entry].off, sizeof ne->off);
            memcpy(ne->sh, cur[c->entry].sh, sizeof ne->sh);
            for (k = 0; k < d->nsrc; k++) {
                ne->off[k][cur[c->entry].side] += c->doff[k];
                ne->sh[k] += c->dsh[k];
            }
            ne->key = entry_key(ne, xq_board_hash(wb), d->nsrc);
            st = new_node(d, c, cur[c->entry].node, ply, &nidx);
            if (st != XQ_OK)
                goto out;
            memcpy(d->nodes[nidx].off, ne->off, sizeof ne->off);
            memcpy(d->nodes[nidx].sh, ne->sh, sizeof ne->sh);
            h = (size_t)(ne->key & (tabsz - 1));
            while (slots[h] >= 0 && keys[h] != ne->key)
                h = (h + 1) & (tabsz - 1);
            if (slots[h] >= 0) {
                /* same position and alignment: merge, the lighter one as
                 * a ghost of the heavier. The first pass's realignments
                 * come before heavier children of other prefixes: one of
                 * those reaching the same place (a move and a skip played
                 * the other way round) takes the entry over. */
                ventry *se = &nxt[slots[h]];
                int32_t keep = se->node, ghost = nidx;
                vghost *g;
                se->guided |= c->guided;
                se->on_truth |= child_on_truth(d, cur, c, ply);
                st = grow((void **)&d->ghosts, &d->capghosts, d->nghosts + 1,
                          sizeof *d->ghosts);
                if (st != XQ_OK)
                    goto out;
                if (c->score > se->score) {
                    keep = nidx;
                    ghost = se->node;
                    d->nodes[keep].ghost = d->nodes[ghost].ghost;
                    d->nodes[ghost].ghost = -1;
                    se->node = nidx;
                    se->score = c->score;
                }
                g = &d->ghosts[d->nghosts];
                g->node = ghost;
                g->score = d->nodes[ghost].score;
                g->next = d->nodes[keep].ghost;
                d->nodes[keep].ghost = (int32_t)d->nghosts++;
                continue;
            }
            keys[h] = ne->key;
            slots[h] = (int32_t)nnxt;
            ne->guided = c->guided;
            ne->on_truth = child_on_truth(d, cur, c, ply);
            ne->score = c->score;
            ne->node = nidx;
            nnxt++;
        }
        st = attribute_lost(d, cur, ncur, ply);
        if (st != XQ_OK)
            goto out;
        merge_lost_moves(d, nlmv0);
        if ((size_t)ply < d->caplost) {
            d->refps[ply] = refp;
            for (i = 0; i < nnxt; i++)
                d->keptm[ply] += exp(nxt[i].score - refp);
        }
        st = keep_scuts(d, cur, ncur, ply);
        if (st != XQ_OK)
            goto out;
        if (trace_live) {
            bool kept = false;
            for (i = 0; i < nnxt && !kept; i++)
                kept = nxt[i].on_truth;
            if (!kept) {
                d->res->trace_ply = ply;
                d->res->trace_kept = nnxt;
                trace_live = false;
            }
        }
        {
            ventry *t = cur;
            cur = nxt;
            nxt = t;
            ncur = nnxt;
        }
    }
    /* whatever is left unfinished is weighed with its unexplained cells */
    for (f = 0; f < ncur; f++) {
        st = add_final(d, &cur[f], ply, false);
        if (st != XQ_OK)
            goto out;
    }
    if (d->nfinals == 0) {
        ventry e0;
        memset(&e0, 0, sizeof e0);
        xq_board_save_pos(&e0.pos, start);
        e0.side = (int8_t)xq_board_side(start);
        e0.node = -1;
        st = add_final(d, &e0, 1, false);
        if (st != XQ_OK)
            goto out;
    }
    best = 0;
    for (f = 1; f < d->nfinals; f++)
        if (d->finals[f].score > d->finals[best].score)
            best = f;
    nd = d->finals[best].node;
    len = nd >= 0 ? (size_t)d->nodes[nd].ply : 0;
    d->res->plies = xq_calloc(len + 1, sizeof *d->res->plies);
    path = xq_calloc(len + 1, sizeof *path);
    if (!d->res->plies || !path) {
        st = XQ_ENOMEM;
        goto out;
    }
    d->res->nplies = len;
    d->res->score = d->finals[best].score;
    for (; nd >= 0; nd = d->nodes[nd].parent) {
        const vnode *n = &d->nodes[nd];
        vd_ply *p = &d->res->plies[n->ply - 1];
        bool misfit = false;
        p->mv = n->mv;
        p->forced = n->forced;
        for (k = 0; k < VD_MAXSRC; k++) {
            p->kind[k] = n->kind[k];
            p->slot[k] = n->slot[k];
            p->sc[k] = n->sc[k];
            if (k < d->nsrc && n->kind[k] == VK_READ && n->slot[k] >= 0 &&
                (size_t)n->slot[k] < d->res->ncells[k] &&
                cell_gap(d, k, n->slot[k], n->sc[k]) < -VD_MISFIT)
                misfit = true;
        }
        p->misfit = misfit && !n->forced;
        d->res->misfits += p->misfit;
        path[n->ply - 1] = nd;
    }
    for (k = 0; k < d->nsrc; k++)
        d->res->after_end[k] = d->finals[best].after_end[k];
    d->res->no_moves_left = d->finals[best].nomoves;
    for (f = 0; f < d->caplost; f++)
        d->res->lost += d->lost[f];   /* plies where the beam overflowed */
    st = posterior(d, best, start, path, len);
out:
    xq_free(path);
    xq_free(cur);
    xq_free(nxt);
    xq_free(keys);
    xq_free(slots);
    return st;
}

/* What the decodings of one vd_decode share: the score caches (the same
 * cells, score scale and spellings each time) and the largest arrays,
 * kept allocated between them. (Freed and allocated again, each decoding
 * touched hundreds of megabytes of fresh pages: a tenth of the decoder's
 * time went to page faults, and every decoding after the first spelt and
 * scored again the moves the first one had.) */
typedef struct {
    vnode   *nodes;
    size_t   capnodes;
    vchild  *kids, *sorted;
    size_t   capkids, capsorted;
    vkey    *keys;
    size_t   capkeys;
    uint8_t *group;
    size_t   capgroup;
    vcache  *cache[VD_MAXSRC], *mcache[VD_MAXSRC];
    size_t   ncells[VD_MAXSRC];   /* cells of each sheet the caches are for */
    vspell  *spells;              /* for spell_kinds (any cells) */
    unsigned spell_kinds;
    const xq_move *trace;         /* the true game every decoding traces
                                     (vd_decode_traced), or NULL */
    const int *trace_cells;       /* ... its cells, or NULL */
    size_t   ntrace;
} vshare;

static void vshare_free(vshare *sh)
{
    int k;
    xq_free(sh->nodes);
    xq_free(sh->kids);
    xq_free(sh->sorted);
    xq_free(sh->keys);
    xq_free(sh->group);
    for (k = 0; k < VD_MAXSRC; k++) {
        cache_free(&sh->cache[k], sh->ncells[k]);
        cache_free(&sh->mcache[k], sh->ncells[k]);
    }
    xq_free(sh->spells);
    memset(sh, 0, sizeof *sh);
}

#define VD_SWAP(type, a, b) do { type t_ = (a); (a) = (b); (b) = t_; } while (0)

/* Exchange sh's arrays and caches with d's: before a decoding (d's all
 * NULL; cells_init done) it lends them to d, the caches only where d's
 * sheets have as many cells; after it, takes them back. */
static void vshare_swap(vshare *sh, vdec *d)
{
    int k;
    VD_SWAP(vnode *, sh->nodes, d->nodes);
    VD_SWAP(size_t, sh->capnodes, d->capnodes);
    VD_SWAP(vchild *, sh->kids, d->kids);
    VD_SWAP(size_t, sh->capkids, d->capkids);
    VD_SWAP(vchild *, sh->sorted, d->sorted);
    VD_SWAP(size_t, sh->capsorted, d->capsorted);
    VD_SWAP(vkey *, sh->keys, d->keys);
    VD_SWAP(size_t, sh->capkeys, d->capkeys);
    VD_SWAP(uint8_t *, sh->group, d->group);
    VD_SWAP(size_t, sh->capgroup, d->capgroup);
    VD_SWAP(vspell *, sh->spells, d->spells);
    VD_SWAP(unsigned, sh->spell_kinds, d->spell_kinds);
    for (k = 0; k < VD_MAXSRC; k++) {
        size_t n = k < d->nsrc ? d->res->ncells[k] : 0;
        if (sh->ncells[k] != n) {   /* lending to other cells: none */
            cache_free(&sh->cache[k], sh->ncells[k]);
            cache_free(&sh->mcache[k], sh->ncells[k]);
        }
        VD_SWAP(vcache *, sh->cache[k], d->cache[k]);
        VD_SWAP(vcache *, sh->mcache[k], d->mcache[k]);
        sh->ncells[k] = n;
    }
}

/* One decoding; guide (NULL none): its repair histories are kept in the
 * beam; wide_at (NULL none): the plies ply < nwide with wide_at[ply] set
 * keep a beam of wide_beam; sh (NULL none): what it shares with the other
 * decodings of the same cells. */
static xq_status decode_once(const xq_cell_source *const *src, int nsrc,
                             const xq_verify_options *opts, bool exact,
                             const xq_board *start, const vd_result *guide,
                             const uint8_t *wide_at, size_t nwide,
                             int wide_beam, vd_result *res, vshare *sh)
{
    vdec d;
    xq_status st;
    int k;
    XQ_FAIL_IF(!src || nsrc < 1 || nsrc > VD_MAXSRC || !start || !res,
               XQ_EINVAL, "decode arguments");
    for (k = 0; k < nsrc; k++)
        XQ_FAIL_IF(!src[k] || (src[k]->ncells && !src[k]->score), XQ_EINVAL,
                   "cell source without score");
    memset(res, 0, sizeof *res);
    memset(&d, 0, sizeof d);
    res->nsrc = nsrc;
    res->exact = exact;
    d.src = src;
    d.nsrc = nsrc;
    d.res = res;
    d.opts = opts;
    d.scale = opts && opts->score_scale > 0 ? opts->score_scale : 1.0;
    d.kinds = opts && opts->variants ? opts->variants : XQ_VARIANTS_CHINESE;
    d.black_first = xq_board_side(start) == XQ_BLACK;
    d.wide_at = wide_at;
    d.nwide = nwide;
    d.wide_beam = wide_beam;
    if (sh) {
        d.trace = sh->trace;
        d.trace_cells = sh->trace_cells;
        d.ntrace = sh->ntrace;
    }
    if (guide && guide->nrepair) {
        d.guide = guide->repair;
        d.nguide = guide->nrepair;
        d.guide_len = guide->repair_len;
    }
    st = cells_init(&d);
    if (st == XQ_OK && sh)
        vshare_swap(sh, &d);   /* lent */
    if (st == XQ_OK)
        st = run(&d, start);
    if (st == XQ_OK && sh)   /* taken back (a failed one frees what it had) */
        vshare_swap(sh, &d);
    dec_free(&d);
    if (st != XQ_OK)
        vd_result_free(res);
    return st;
}

/* Keep the decoding that scores better in *res, free the other; true
 * when *res2 replaced it. */
static bool keep_better(vd_result *res, vd_result *res2)
{
    if (res2->score > res->score) {
        vd_result_free(res);
        *res = *res2;
        return true;
    }
    vd_result_free(res2);
    return false;
}

/* Decode again keeping games[0..ngames) (len moves each, XQ_MOVE_NONE past
 * a shorter one's end; at most 16) in the beam; the decoding replaces *res
 * (*preplaced) where it scores better. */
static xq_status decode_guided(const xq_cell_source *const *src, int nsrc,
                               const xq_verify_options *opts, bool exact,
                               const xq_board *start, const xq_move *games,
                               size_t ngames, size_t len, vd_result *res,
                               vshare *sh, bool *preplaced)
{
    vd_result guide, res2;
    xq_status st;
    *preplaced = false;
    XQ_FAIL_IF(!games || !ngames || ngames > 16 || !res, XQ_EINVAL,
               "guide games");
    memset(&guide, 0, sizeof guide);
    guide.repair = (xq_move *)games;
    guide.nrepair = ngames;
    guide.repair_len = len;
    st = decode_once(src, nsrc, opts, exact, start, &guide, NULL, 0, 0, &res2,
                     sh);
    if (st != XQ_OK)
        return st;
    *preplaced = keep_better(res, &res2);
    return XQ_OK;
}

xq_status vd_decode_guided(const xq_cell_source *const *src, int nsrc,
                           const xq_verify_options *opts, bool exact,
                           const xq_board *start, const xq_move *games,
                           size_t ngames, size_t len, vd_result *res,
                           bool *preplaced)
{
    return decode_guided(src, nsrc, opts, exact, start, games, ngames, len,
                         res, NULL, preplaced);
}

/* A ply where the decoded game changes a record's alignment (a skip, a
 * junk cell) on some sheet. */
static bool realigned(const vd_result *res, size_t t)
{
    int k;
    for (k = 0; k < res->nsrc; k++)
        if (res->plies[t].kind[k] == VK_SKIP || res->plies[t].kind[k] == VK_EXTRA)
            return true;
    return false;
}

/* How much of the decoded game the cells do not tell plainly: its misfits
 * and its realignments (vd_decode retries a game with VD_RETRY_MISFITS of
 * them). A history with several skips close together can read every
 * record (test_slip_before_blank, corpus line 221: a skip of Black's, an
 * illegal record of Red's 11 plies later and a blank four plies after it;
 * the true history, a skip's penalty behind the best until the records
 * tell, was cut at the blank, and the one left read the rest of the game
 * through three more skips, 12 plies of it sure and wrong): no misfit
 * called for the wider retries, yet it scores far below the true one. */
static int trouble(const vd_result *res)
{
    int n = res->misfits;
    size_t t;
    for (t = 0; t < res->nplies; t++)
        n += realigned(res, t);
    return n;
}

/* Whether a misfit of the decoded game follows, within VD_WINDOW_BACK
 * plies, a cell that told nothing (blank, or ink that is no writing):
 * every legal move there was near-equal, a crowd that pushes the true
 * history out of the beam before the records after it tell (a scribble
 * over Black's 6th move, the true one reading it worst of all; Black's
 * 16th record then illegal on every board the beam still held). */
static bool misfit_after_unread(const vd_result *res)
{
    size_t t;
    long a;
    int k;
    for (t = 0; t < res->nplies; t++) {
        if (!res->plies[t].misfit)
            continue;
        for (a = (long)t - VD_WINDOW_BACK; a < (long)t; a++) {
            if (a < 0)
                continue;
            for (k = 0; k < res->nsrc; k++) {
                const vd_ply *q = &res->plies[a];
                if (q->kind[k] == VK_BLANK ||
                    (q->kind[k] == VK_READ && q->slot[k] >= 0 &&
                     (size_t)q->slot[k] < res->ncells[k] &&
                     res->cells[k][q->slot[k]].illegible))
                    return true;
            }
        }
    }
    return false;
}

/* A game that still has VD_RETRY_MISFITS misfits and realignments
 * (trouble) is decoded once more with a beam VD_WINDOW_WIDEN times wider
 * on the plies leading to each misfit and realignment (VD_WINDOW_BACK
 * before it to 2 after it); the better scoring
 * decoding is kept. Where the true game is lost it is usually many
 * near-equal histories at once (a blank cell's moves, each with the ~40
 * moves a skip may have left unwritten) that no beam of 1,024 holds, a
 * few plies before the records stop fitting; a beam that wide over the
 * whole game would cost twice the time for what the window finds. */
static void window_retry(const xq_cell_source *const *src, int nsrc,
                         const xq_verify_options *opts, bool exact,
                         const xq_board *start, vd_result *res, vshare *sh)
{
    size_t nw = res->nplies + 3, t;
    uint8_t *wa;
    vd_result res2;
    wa = xq_calloc(nw, 1);
    if (!wa)
        return;   /* the decoding already made stands */
    for (t = 0; t < res->nplies; t++) {
        long ply = (long)t + 1, a;
        if (!res->plies[t].misfit && !realigned(res, t))
            continue;
        for (a = ply - VD_WINDOW_BACK; a <= ply + 2; a++)
            if (a >= 1 && (size_t)a < nw)
                wa[a] = 1;
    }
    if (decode_once(src, nsrc, opts, exact, start, NULL, wa, nw,
                    VD_BEAM * VD_WINDOW_WIDEN, &res2, sh) == XQ_OK)
        keep_better(res, &res2);
    xq_free(wa);
}

/* Decode; at the default beam, a decoded game with VD_RETRY_MISFITS plies
 * whose cells read poorly as their moves or that realign a record
 * (trouble) is decoded again with a wider
 * beam, and the history scoring better under the model is kept. Such a
 * game is often one whose true history fell out of the beam among a crowd
 * of near-equal ones (an illegal record, a blank and a skip close
 * together: every move of every prefix at a cell nobody reads well), the
 * rest of the sheet then corrected record after record; a clean sheet
 * pays nothing. Then, up to VD_REPAIR_ROUNDS times, a decoded game with
 * histories of a skip or misreading fewer (find_repairs) is decoded again
 * keeping them in the beam, while that scores better; then one with
 * VD_RETRY_MISFITS misfits and realignments still, or with a misfit
 * after a cell that told nothing (misfit_after_unread), is decoded with a
 * wide beam around them (window_retry). All at the default beam only. */
static xq_status decode_all(const xq_cell_source *const *src, int nsrc,
                            const xq_verify_options *opts, bool exact,
                            const xq_board *start, const xq_move *trace,
                            const int *trace_cells, size_t ntrace,
                            vd_result *res)
{
    xq_verify_options wide;
    vd_result res2;
    vshare sh;
    int round;
    xq_status st;
    memset(&sh, 0, sizeof sh);
    sh.trace = trace;
    sh.trace_cells = trace_cells;
    sh.ntrace = ntrace;
    st = decode_once(src, nsrc, opts, exact, start, NULL, NULL, 0, 0, res, &sh);
    if (st == XQ_OK && trouble(res) >= VD_RETRY_MISFITS &&
        !(opts && opts->beam > 0)) {   /* a beam asked for is kept to */
        if (opts)
            wide = *opts;
        else
            memset(&wide, 0, sizeof wide);
        wide.beam = VD_BEAM * VD_RETRY_WIDEN;
        if (decode_once(src, nsrc, &wide, exact, start, NULL, NULL, 0, 0,
                        &res2, &sh) == XQ_OK)
            keep_better(res, &res2);
    }
    /* histories with a skip fewer (find_repairs): decoded again with
     * them kept in the beam, the better decoding kept (not where a beam
     * was asked for: those histories pass its caps) */
    for (round = 0; st == XQ_OK && res->nrepair &&
                        !(opts && opts->beam > 0) && round < VD_REPAIR_ROUNDS;
         round++) {
        if (decode_once(src, nsrc, opts, exact, start, res, NULL, 0, 0,
                        &res2, &sh) != XQ_OK)
            break;
        if (res2.score <= res->score) {
            vd_result_free(&res2);
            break;
        }
        vd_result_free(res);
        *res = res2;
    }
    if (st == XQ_OK &&
        (trouble(res) >= VD_RETRY_MISFITS || misfit_after_unread(res)) &&
        !(opts && opts->beam > 0))
        window_retry(src, nsrc, opts, exact, start, res, &sh);
    /* histories with an untold ply further back played otherwise
     * (far_repairs): the same, while that scores better */
    for (round = 0; st == XQ_OK && res->nfar && !(opts && opts->beam > 0) &&
                        round < VD_REPAIR_ROUNDS;
         round++) {
        bool better;
        if (decode_guided(src, nsrc, opts, exact, start, res->far, res->nfar,
                          res->repair_len, res, &sh, &better) != XQ_OK ||
            !better)
            break;
    }
    vshare_free(&sh);
    return st;
}

/* decode_all without a trace. */
xq_status vd_decode(const xq_cell_source *const *src, int nsrc,
                    const xq_verify_options *opts, bool exact,
                    const xq_board *start, vd_result *res)
{
    return decode_all(src, nsrc, opts, exact, start, NULL, NULL, 0, res);
}

xq_status vd_decode_traced(const xq_cell_source *const *src, int nsrc,
                           const xq_verify_options *opts, bool exact,
                           const xq_board *start, const xq_move *truth,
                           const int *cells, size_t ntruth, vd_result *res)
{
    XQ_FAIL_IF(!truth && ntruth, XQ_EINVAL, "traced game");
    return decode_all(src, nsrc, opts, exact, start, truth, cells, ntruth,
                      res);
}

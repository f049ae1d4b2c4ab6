/* sheet.c - a decoding (vd_result) -> the verified-game record of one sheet
 * or of a reconciled pair: per-ply status, move texts, confidence, review,
 * candidates, cells, and the per-ply findings. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verify_internal.h"
#include "xq_core.h"

static const char *side_name(int sd)
{
    return sd == XQ_BLACK ? "Black" : "Red";
}

/* What one sheet says about one ply. */
typedef struct {
    int          kind;       /* VK_* */
    int          slot;       /* cell of the move (-1 none) */
    int          junk;       /* VK_EXTRA: the junk cell before it */
    const vd_cell *cell;
    double       rel;        /* scale * (sc - ref) */
    double       gap;        /* scale * (text_score - sc) */
    bool         supports;   /* the cell reads as the move */
    bool         clear_other;/* the cell clearly reads something else */
} vview;

static vview view_of(const vd_result *res, int k, const vd_ply *p,
                     double scale)
{
    vview v;
    memset(&v, 0, sizeof v);
    v.kind = p->kind[k];
    v.slot = p->slot[k];
    v.junk = -1;
    if ((v.kind == VK_READ || v.kind == VK_EXTRA) && v.slot >= 0 &&
        (size_t)v.slot < res->ncells[k]) {
        v.cell = &res->cells[k][v.slot];
        if (v.kind == VK_EXTRA)
            v.junk = v.slot - 2;
        v.rel = scale * ((double)p->sc[k] - v.cell->ref);
        v.gap = v.cell->text[0] ? scale * (v.cell->text_score - p->sc[k]) : -1e9;
        v.supports = (v.cell->text[0] && v.gap <= VD_OK_GAP) ||
                     (!v.cell->text[0] && v.rel >= -VD_OK_GAP);
        /* a typed record is what was written: any difference is clear */
        v.clear_other = v.cell->text[0] &&
                        v.gap >= (res->exact ? 1e-6 : VD_ILL_GAP);
        if (v.cell->illegible)  /* scribbled: says nothing either way */
            v.supports = v.clear_other = false;
    } else if (v.kind == VK_BLANK && v.slot >= 0 &&
               (size_t)v.slot < res->ncells[k]) {
        v.cell = &res->cells[k][v.slot];
    }
    return v;
}

static void set_cell(xq_ply *q, const xq_cell_source *src, int slot)
{
    int page = 0, box[4] = { 0, 0, 0, 0 };
    q->has_cell = true;
    q->cell_page = 0;
    memset(q->cell_box, 0, sizeof q->cell_box);
    if (src && src->box && src->box(src->ud, (size_t)slot, &page, box)) {
        q->cell_page = page;
        memcpy(q->cell_box, box, sizeof box);
    }
}

static bool is_legal(xq_board *b, xq_move mv)
{
    xq_move l[XQ_MAX_MOVES];
    int n = xq_board_legal_moves(b, l), i;
    for (i = 0; i < n; i++)
        if (l[i] == mv)
            return true;
    return false;
}

void vs_add_candidate(xq_ply *q, xq_board *b, xq_move mv, double p,
                      bool evict)
{
    xq_candidate *c;
    char wxf[16];
    int i;
    /* an alternative of another history that is no legal move here is no
     * candidate an arbiter can use at this ply (and has no Chinese text) */
    if ((q->ncand >= XQ_MAX_CANDIDATES && !evict) || mv == XQ_MOVE_NONE ||
        !is_legal(b, mv))
        return;
    for (i = 0; i < q->ncand; i++)
        if (q->cand[i].mv == mv)
            return;
    c = &q->cand[q->ncand < XQ_MAX_CANDIDATES ? q->ncand++ : q->ncand - 1];
    c->mv = mv;
    c->score = p < 0 ? 0 : p > 1 ? 1 : p;
    vs_write_all(b, mv, c->chinese, wxf, c->iccs);
}

/* Candidates of a ply under review: the posterior alternatives, then the
 * legal moves the cell matches best. */
static void fill_candidates(xq_ply *q, const vd_ply *p, xq_board *b,
                            const xq_cell_source *src, const vview *v,
                            double scale)
{
    int i;
    q->ncand = 0;
    for (i = 0; i < p->nalt && q->ncand < XQ_MAX_CANDIDATES; i++)
        if (p->alt[i].p > 1e-4 || p->alt[i].mv == p->mv)
            vs_add_candidate(q, b, p->alt[i].mv, p->alt[i].p, false);
    if (q->ncand < XQ_MAX_CANDIDATES && v && v->cell && v->slot >= 0 && src &&
        src->score) {
        xq_move l[XQ_MAX_MOVES];
        double s[XQ_MAX_MOVES];
        vs_spellings sp;
        int n = xq_board_legal_moves(b, l), j;
        for (i = 0; i < n; i++) {
            size_t t;
            s[i] = -1e30;
            if (vs_spellings_get(b, l[i], XQ_VARIANTS_CHINESE, &sp) != XQ_OK)
                continue;
            for (t = 0; t < sp.n; t++) {
                double x = src->score(src->ud, (size_t)v->slot, sp.v[t].text);
                if (x > s[i])
                    s[i] = x;
            }
        }
        while (q->ncand < XQ_MAX_CANDIDATES) {
            int bi = -1;
            for (j = 0; j < n; j++) {
                bool have = false;
                for (i = 0; i < q->ncand; i++)
                    if (q->cand[i].mv == l[j])
                        have = true;
                if (!have && s[j] > -1e29 && (bi < 0 || s[j] > s[bi]))
                    bi = j;
            }
            if (bi < 0)
                break;
            /* cell evidence only: a small share of what is left */
            double share = 1.0 - (q->ncand ? q->cand[0].score : 0.0);
            vs_add_candidate(q, b, l[bi],
                             share * exp(scale * (s[bi] - v->cell->ref)) * 0.5,
                             false);
            s[bi] = -1e30;
        }
    }
}

/* A ply whose record was put right from the rest of the sheet: an
 * arbiter confirms it. */
static void set_corrected(xq_ply *q)
{
    q->status = XQ_PLY_CORRECTED;
    q->source = XQ_SRC_CORRECTED;
    q->review = true;
}

/* Ply q (number plyno, its move set) is an unreadable record: one that
 * reads as text, matching no legal move, or scribbled over (text NULL). Its
 * move is reconstructed (sure) or most likely; under review, counted as
 * unrecorded (WXF 7.6). */
static xq_status set_unreadable(xq_game *game, xq_ply *q, int plyno,
                                bool sure, const char *text)
{
    const char *how = sure ? "reconstructed" : "most likely";
    q->status = XQ_PLY_UNREADABLE;
    q->source = XQ_SRC_RECONSTRUCTED;
    q->review = true;
    if (!text)
        return xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
            "unreadable_move", "WXF 7.6", "ply %d (%s): the record is "
            "scribbled over, no move can be read; %s %s", plyno,
            side_name(q->side), how, q->chinese);
    return xq_game_add_finding(game, plyno, XQ_SEV_WARNING, "unreadable_move",
        "WXF 7.6", "ply %d (%s): the record \"%s\" matches no legal move; "
        "%s %s", plyno, side_name(q->side), text, how, q->chinese);
}

/* Pick the sheet that best supports the move for the reconciled record. */
static int pick_sheet(const vd_result *res, const vd_ply *p, double scale,
                      vview *pv)
{
    int k, best = -1;
    vview v[VD_MAXSRC];
    for (k = 0; k < res->nsrc; k++) {
        v[k] = view_of(res, k, p, scale);
        if (v[k].kind != VK_READ && v[k].kind != VK_EXTRA)
            continue;
        if (best < 0 || (v[k].supports && !v[best].supports) ||
            (v[k].supports == v[best].supports && v[k].rel > v[best].rel))
            best = k;
    }
    if (best < 0)
        for (k = 0; k < res->nsrc; k++)
            if (v[k].kind == VK_BLANK) {
                best = k;
                break;
            }
    if (best < 0)
        best = 0;
    *pv = v[best];
    return best;
}

xq_status vs_fill_game(const vd_result *res, const xq_cell_source *const *src,
                       int k, const xq_verify_options *opts,
                       const xq_board *start, xq_game *game)
{
    xq_board b = *start;
    double scale = opts && opts->score_scale > 0 ? opts->score_scale : 1.0;
    double below = vd_review_below(opts);
    double below_rec = below > 0.999 ? below : 0.999;
    size_t t;
    int threshold = opts && opts->threshold > 0 ? opts->threshold : 16;

    for (t = 0; t < res->nplies; t++) {
        const vd_ply *p = &res->plies[t];
        xq_ply *q;
        vview v;
        int sk = k, plyno = (int)t + 1, sd = xq_board_side(&b);
        const xq_cell_source *s;
        char msg[256], rule[64];

        XQ_TRY(xq_game_add_ply(game, &q));
        q->side = sd;
        if (k >= 0)
            v = view_of(res, k, p, scale);
        else
            sk = pick_sheet(res, p, scale, &v);
        s = src[sk];
        q->mv = p->mv;
        vs_write_all(&b, p->mv, q->chinese, q->wxf, q->iccs);
        q->confidence = p->conf;

        switch (v.kind) {
        case VK_READ:
        case VK_EXTRA:
            XQ_TRY(xq_game_set_str(&q->read, v.cell->text));
            set_cell(q, s, v.slot);
            if (v.kind == VK_EXTRA)   /* typed: one list, not columns */
                XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                    "extra_record", "WXF 7.7",
                    "the %s before the record of ply %d (%s's move) %s no "
                    "move of the game (a repeated or stray entry); the %s",
                    res->exact ? "entry" : "cell", plyno, side_name(sd),
                    res->exact ? "is" : "holds",
                    res->exact ? "record goes on with the next entry"
                               : "column continues one cell later"));
            if (v.cell->illegible) {
                /* scribbled over or out: no record, whatever it reads as */
                XQ_TRY(set_unreadable(game, q, plyno, p->conf >= below_rec,
                                      NULL));
            } else if (v.supports) {
                q->status = XQ_PLY_OK;
                q->source = XQ_SRC_READ;
                q->review = p->conf < below;
            } else {
                xq_move tmv = XQ_MOVE_NONE;
                xq_resolve_code rc = vs_read(&b, v.cell->text, &tmv, msg,
                                             sizeof msg, rule, sizeof rule);
                if (rc == XQ_RES_OK && tmv != p->mv && v.clear_other) {
                    char cz[32], wz[16], iz[8];
                    vs_write_all(&b, tmv, cz, wz, iz);
                    set_corrected(q);
                    XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                        "inconsistent_move", "WXF 7.7",
                        "ply %d (%s) reads \"%s\" (%s), a legal move, but the "
                        "rest of the record shows %s was played",
                        plyno, side_name(sd), v.cell->text, cz, q->chinese));
                } else if (rc != XQ_RES_OK && rc != XQ_RES_UNPARSEABLE &&
                           v.clear_other) {
                    /* a clear reading of no legal move: illegal, or, where
                     * another move at an earlier ply makes it legal
                     * (illegal_doubt), doubtful: the board, not the player,
                     * may be wrong */
                    bool doubt = p->ill_alt_ply > 0;
                    q->status = doubt ? XQ_PLY_CORRECTED : XQ_PLY_ILLEGAL;
                    q->source = doubt ? XQ_SRC_CORRECTED : XQ_SRC_ASSUMED;
                    q->review = true;
                    if (doubt)
                        XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                            "doubtful_illegal_move", "WXF 7.7",
                            "ply %d (%s): \"%s\" is no legal move in the game "
                            "as reconstructed (%s), but it is one if ply %d was "
                            "%s: one of the two records is wrong; assumed %s, "
                            "check both plies", plyno, side_name(sd),
                            v.cell->text, msg, p->ill_alt_ply, p->ill_alt_text,
                            q->chinese));
                    else
                        XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_ERROR,
                            "illegal_move", rule[0] ? rule : "WXF 4.5",
                            "ply %d (%s): \"%s\" is not a legal move: %s; "
                            "assumed %s", plyno, side_name(sd), v.cell->text,
                            msg, q->chinese));
                } else if (v.rel > VD_NEAR_READ && !res->exact) {
                    /* the cell reads nearly as the move: it was put right
                     * from the rest of the sheet, which an arbiter
                     * confirms. (Calling a reading two glyphs off the
                     * move "unreadable" was tried: it counted a poorly
                     * read printed sheet's records as unrecorded, 16 of
                     * them, a false WXF 3.1.F finding.) */
                    set_corrected(q);
                } else if (s->illegible) {
                    /* the source tells writing from other ink (the OCR),
                     * and this is writing that reads as no legal move:
                     * a record misread, not an illegible one, so not
                     * counted as unrecorded. (Counted, a photo too coarse
                     * to read made 16 legible records a false WXF 3.1.F
                     * finding; on rendered sheets the 39 such plies were
                     * 37 legible records and 2 illegal ones, none
                     * illegible.) */
                    set_corrected(q);
                    XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                        "misread_move", "WXF 7.6",
                        "ply %d (%s): the record %s%s%s, but it is writing, "
                        "not scribbled: a misreading (not counted as "
                        "unrecorded); %s %s", plyno, side_name(sd),
                        v.cell->text[0] ? "reads \"" : "could not be read",
                        v.cell->text,
                        v.cell->text[0] ? "\", no legal move" : "",
                        p->conf >= below_rec ? "reconstructed" : "most likely",
                        q->chinese));
                } else {
                    XQ_TRY(set_unreadable(game, q, plyno,
                                          p->conf >= below_rec, v.cell->text));
                }
            }
            break;
        case VK_BLANK:
            q->status = XQ_PLY_MISSING;
            q->source = XQ_SRC_RECONSTRUCTED;
            set_cell(q, s, v.slot);
            q->review = p->conf < below_rec;
            XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                "unrecorded_move", "WXF 7.6",
                "ply %d (%s) was not recorded (blank cell); %s %s", plyno,
                side_name(sd), p->conf >= below_rec ? "reconstructed as"
                                                    : "most likely", q->chinese));
            break;
        case VK_SKIP:
            q->status = XQ_PLY_MISSING;
            q->source = XQ_SRC_RECONSTRUCTED;
            q->has_cell = false;
            q->review = p->conf < below_rec;
            XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                "skipped_move", "WXF 7.6",
                "ply %d (%s) was skipped: the column continues with the next "
                "move in its cell; %s %s", plyno, side_name(sd),
                p->conf >= below_rec ? "reconstructed as" : "most likely",
                q->chinese));
            break;
        default: { /* VK_NONE: past this sheet's records */
            int slot = p->slot[sk];
            q->status = XQ_PLY_MISSING;
            q->source = XQ_SRC_RECONSTRUCTED;
            q->review = p->conf < below_rec;
            if (slot >= 0 && (size_t)slot < res->ncells[sk])
                set_cell(q, s, slot);
            XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                "unrecorded_move", "WXF 7.6",
                "ply %d (%s) is not on this sheet (the game went on)", plyno,
                side_name(sd)));
            break;
        }
        }
        if (p->forced) {
            q->source = XQ_SRC_CORRECTED;
            q->confidence = 1.0;
            q->review = false;
        }
        /* pair: disagreements between the sheets */
        if (k < 0 && res->nsrc == 2) {
            vview a = view_of(res, 0, p, scale), c = view_of(res, 1, p, scale);
            if (a.cell && c.cell && (a.kind == VK_READ || a.kind == VK_EXTRA) &&
                (c.kind == VK_READ || c.kind == VK_EXTRA) &&
                ((a.supports && c.clear_other) || (c.supports && a.clear_other)))
                XQ_TRY(xq_game_add_finding(game, plyno, XQ_SEV_WARNING,
                    "sheets_disagree", "WXF 7.7",
                    "ply %d (%s): one sheet reads \"%s\", the other \"%s\"; "
                    "the game continues with %s", plyno, side_name(sd),
                    a.cell->text, c.cell->text, q->chinese));
        }
        if (q->review && !p->forced)
            fill_candidates(q, p, &b, s, &v, scale);
        if (!xq_board_make_move(&b, p->mv, NULL))
            break;   /* cannot happen: decoded moves are legal */
    }
    if (res->bad_corrections)
        XQ_TRY(xq_game_add_finding(game, 0, XQ_SEV_WARNING, "bad_correction", "",
            "%d correction(s) named no legal move and were ignored",
            res->bad_corrections));
    {
        int kk, after = 0;
        for (kk = 0; kk < res->nsrc; kk++)
            if (k < 0 || kk == k)
                after += res->after_end[kk];
        if (after)
            XQ_TRY(xq_game_add_finding(game, 0, XQ_SEV_WARNING,
                "moves_after_end", "WXF 7.7",
                "%d recorded cell(s) could not be placed in the game%s", after,
                res->no_moves_left ? " (written after the game had ended)" : ""));
    }
    return vf_finish(game, threshold);
}

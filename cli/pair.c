/* pair.c - which sheets of a batch are the Red and Black sheets of one game
 * (rules in pair.h). Pure functions over names and header texts: no file
 * is read here. */
#include "pair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "utf8.h"
#include "xq_core.h"
#include "xqscan/xq_types.h"

/* Words that name a side wherever they stand in a token. */
static const struct {
    const char *w;
    int side;
} embedded[] = {
    { "红方", XQ_RED }, { "紅方", XQ_RED }, { "红棋", XQ_RED }, { "紅棋", XQ_RED },
    { "黑方", XQ_BLACK }, { "黑棋", XQ_BLACK },
};

/* Words that name a side only as a whole token. */
static const struct {
    const char *w;
    int side;
} whole[] = {
    { "red", XQ_RED }, { "红", XQ_RED }, { "紅", XQ_RED }, { "black", XQ_BLACK },
    { "黑", XQ_BLACK },
};

static bool is_sep(char c)
{
    return c == '-' || c == '_' || c == '.' || c == '+' || c == ',' || c == ' ' ||
           c == '(' || c == ')' || c == '[' || c == ']';
}

static bool eq_fold(const char *a, size_t n, const char *w)
{
    size_t i;
    if (strlen(w) != n)
        return false;
    for (i = 0; i < n; i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return false;
    }
    return true;
}

const char *xq_pair_owner_str(int owner)
{
    return owner == XQ_RED ? "red" : owner == XQ_BLACK ? "black" : NULL;
}

int xq_pair_owner_from_name(const char *name, char *key, size_t keylen)
{
    const char *stem, *p;
    size_t hit_at = 0, hit_len = 0, k;
    int owner = -1, hits = 0, sides = 0;
    if (key && keylen)
        snprintf(key, keylen, "%s", name ? name : "");
    if (!name)
        return -1;
    stem = strrchr(name, '/');
    stem = stem ? stem + 1 : name;
    p = stem;
    while (*p) {
        const char *t0, *t1;
        while (*p && is_sep(*p))
            p++;
        if (!*p)
            break;
        t0 = p;
        while (*p && !is_sep(*p))
            p++;
        t1 = p;
        for (k = 0; k < XQ_ARRAY_LEN(whole); k++)
            if (eq_fold(t0, (size_t)(t1 - t0), whole[k].w)) {
                hits++;
                sides |= 1 << whole[k].side;
                owner = whole[k].side;
                hit_at = (size_t)(t0 - name);
                hit_len = (size_t)(t1 - t0);
            }
        for (k = 0; k < XQ_ARRAY_LEN(embedded); k++) {
            const char *q = t0;
            size_t wl = strlen(embedded[k].w);
            while ((size_t)(t1 - q) >= wl) {
                if (!memcmp(q, embedded[k].w, wl)) {
                    hits++;
                    sides |= 1 << embedded[k].side;
                    owner = embedded[k].side;
                    hit_at = (size_t)(q - name);
                    hit_len = wl;
                    q += wl;
                } else {
                    q++;
                }
            }
        }
    }
    if (hits != 1 || (sides != 1 && sides != 2))
        return -1;
    if (key && keylen) {
        /* the name without the word; separators around it collapse */
        xq_strbuf sb = XQ_STRBUF_INIT;
        size_t a = hit_at, b = hit_at + hit_len, s0 = (size_t)(stem - name);
        size_t n = strlen(name);
        bool left_sep = a > s0 && is_sep(name[a - 1]);
        bool right_sep = b < n && is_sep(name[b]);
        if (left_sep && right_sep)
            b++;                        /* "b07-red-x" -> "b07-x" */
        else if (left_sep && b == n)
            a--;                        /* "b07-red" -> "b07" */
        else if (right_sep && a == s0)
            b++;                        /* "red-b07" -> "b07" */
        if (!xq_strbuf_append(&sb, name, a) && !xq_strbuf_puts(&sb, name + b)) {
            const char *r = xq_strbuf_cstr(&sb);
            size_t rl = strlen(r), st = (size_t)(stem - name);
            if (rl <= st)                 /* nothing left of the stem */
                snprintf(key, keylen, "%sgame", r);
            else
                snprintf(key, keylen, "%s", r);
        }
        xq_strbuf_free(&sb);
    }
    return owner;
}

void xq_pair_shard_key(const xq_batch_input *in, char *key, size_t keylen)
{
    if (!key || !keylen)
        return;
    if (xq_pair_owner_from_name(in->name, key, keylen) < 0)
        snprintf(key, keylen, "%s", in->source);
}

/* Append the normalised form of s: ASCII letters folded, digits and
 * letters and CJK kept, spaces and punctuation (ASCII, CJK, full-width)
 * dropped. */
static xq_status norm_into(xq_strbuf *sb, const char *s)
{
    size_t n = s ? strlen(s) : 0, i = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = xq_utf8_decode(s + i, n - i, &cp);
        char buf[4];
        i += k;
        cp = xq_utf8_halfwidth(cp);
        if (cp < 0x80) {
            if ((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z'))
                XQ_TRY(xq_strbuf_putc(sb, (char)cp));
            else if (cp >= 'A' && cp <= 'Z')
                XQ_TRY(xq_strbuf_putc(sb, (char)(cp - 'A' + 'a')));
            continue;
        }
        if ((cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFF65) ||
            (cp >= 0x2000 && cp <= 0x206F) || cp == 0xFFFD || cp == 0x00B7)
            continue;
        k = xq_utf8_encode(cp, buf);
        XQ_TRY(xq_strbuf_append(sb, buf, k));
    }
    return XQ_OK;
}

char *xq_pair_norm(const char *s)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    char *r;
    if (norm_into(&sb, s)) {
        xq_strbuf_free(&sb);
        return NULL;
    }
    r = xq_strbuf_take(&sb);
    return r ? r : xq_strdup("");
}

#define MAX_MOVES 1024

/* Split a move list at spaces: tokens (not NUL-terminated) and lengths. */
static size_t split_moves(const char *s, const char **tok, size_t *len)
{
    size_t n = 0;
    while (s && *s && n < MAX_MOVES) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        tok[n] = s;
        while (*s && *s != ' ')
            s++;
        len[n] = (size_t)(s - tok[n]);
        n++;
    }
    return n;
}

static bool tok_eq(const char *a, size_t la, const char *b, size_t lb)
{
    return la == lb && !memcmp(a, b, la) && !(la == 1 && a[0] == '-');
}

bool xq_pair_same_moves(const char *a, const char *b, double *pagree)
{
    static const char *ta[MAX_MOVES], *tb[MAX_MOVES];
    static size_t la[MAX_MOVES], lb[MAX_MOVES];
    size_t na, nb, n, i, same = 0, diff, tol;
    double agree;
    if (pagree)
        *pagree = 0;
    na = split_moves(a, ta, la);
    nb = split_moves(b, tb, lb);
    n = na < nb ? na : nb;
    if (n < 30)
        return false;
    diff = na > nb ? na - nb : nb - na;
    tol = (na > nb ? na : nb) / 10;
    if (tol < 4)
        tol = 4;
    for (i = 0; i < n; i++)
        same += tok_eq(ta[i], la[i], tb[i], lb[i]);
    agree = (double)same / (double)n;
    if (pagree)
        *pagree = agree;
    return diff <= tol && agree >= 0.9;
}

char *xq_pair_header_key(const char *event, const char *round, const char *board,
                         const char *red, const char *black)
{
    const char *f[5];
    size_t len[5];
    xq_strbuf sb = XQ_STRBUF_INIT;
    int i;
    f[0] = event; f[1] = round; f[2] = board; f[3] = red; f[4] = black;
    for (i = 0; i < 5; i++) {
        size_t before = sb.len;
        if ((i && xq_strbuf_puts(&sb, "|")) || norm_into(&sb, f[i])) {
            xq_strbuf_free(&sb);
            return NULL;
        }
        len[i] = sb.len - before - (i ? 1 : 0);
    }
    if (!len[3] || !len[4] || (!len[1] && !len[2])) {
        xq_strbuf_free(&sb);
        return NULL;
    }
    return xq_strbuf_take(&sb);
}

void xq_pair_free(xq_batch_pair *pairs, size_t n)
{
    size_t i;
    if (!pairs)
        return;
    for (i = 0; i < n; i++) {
        xq_free(pairs[i].in.name);
        xq_free(pairs[i].in.source);
    }
    xq_free(pairs);
}

typedef struct {
    char *key;
    size_t idx;
    int owner;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->idx < y->idx ? -1 : x->idx > y->idx);
}

static bool name_taken(const xq_batch_inputs *in, const char *name)
{
    size_t i;
    for (i = 0; i < in->n; i++)
        if (!strcmp(in->v[i].name, name))
            return true;
    return false;
}

static xq_status add_pair(const xq_batch_inputs *in, size_t a, int oa, size_t b, int ob,
                          const char *game, int how,
                          void (*note)(void *ud, const char *line), void *ud,
                          xq_batch_pair **ppairs, size_t *pn, size_t *pcap)
{
    xq_batch_pair *p;
    xq_strbuf nm = XQ_STRBUF_INIT, src = XQ_STRBUF_INIT;
    xq_status st;
    if (ob == XQ_RED || oa == XQ_BLACK) {   /* in[0] is Red's when known */
        size_t t = a;
        int to = oa;
        a = b; oa = ob;
        b = t; ob = to;
    }
    st = xq_strbuf_printf(&nm, "%s.pair", game);
    if (!st)
        st = xq_strbuf_printf(&src, "%s + %s", in->v[a].source, in->v[b].source);
    if (st)
        goto out;
    if (name_taken(in, xq_strbuf_cstr(&nm))) {
        if (note) {
            char line[1024];
            snprintf(line, sizeof line, "%s and %s are not reconciled: an input is "
                     "already named %s", in->v[a].source, in->v[b].source, xq_strbuf_cstr(&nm));
            note(ud, line);
        }
        goto out;
    }
    if (*pn == *pcap) {
        size_t ncap = *pcap ? *pcap * 2 : 16;
        xq_batch_pair *v = xq_realloc(*ppairs, ncap * sizeof *v);
        if (!v) {
            st = XQ_ENOMEM;
            goto out;
        }
        *ppairs = v;
        *pcap = ncap;
    }
    p = &(*ppairs)[*pn];
    memset(p, 0, sizeof *p);
    p->idx[0] = a;
    p->idx[1] = b;
    p->owner[0] = oa;
    p->owner[1] = ob;
    p->by_header = how == 1;
    p->by_moves = how == 2;
    p->in.name = xq_strbuf_take(&nm);
    p->in.source = xq_strbuf_take(&src);
    if (!p->in.name || !p->in.source) {
        xq_free(p->in.name);
        xq_free(p->in.source);
        st = XQ_ENOMEM;
        goto out;
    }
    (*pn)++;
out:
    xq_strbuf_free(&nm);
    xq_strbuf_free(&src);
    return st;
}

typedef struct {
    size_t a, b;
} cand;

static int cmp_cand(const void *x, const void *y)
{
    const cand *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* Rule 3 (pair.h): the same moves. */
static xq_status by_moves(const xq_batch_inputs *in, const xq_pair_header *hdr, bool *paired,
                          void (*note)(void *ud, const char *line), void *ud,
                          xq_batch_pair **ppairs, size_t *pn, size_t *pcap)
{
    static const size_t windows[3] = { 20, 30, 40 };
    static const char *tok[MAX_MOVES];
    static size_t len[MAX_MOVES];
    keyed *kv = NULL;
    cand *cv = NULL;
    size_t nk = 0, nc = 0, capc = 0, i, j, k, w;
    size_t *nmatch = NULL;
    xq_status st = XQ_OK;
    kv = xq_calloc(in->n * 3 + 1, sizeof *kv);
    nmatch = xq_calloc(in->n, sizeof *nmatch);
    if (!kv || !nmatch) {
        st = XQ_ENOMEM;
        goto out;
    }
    for (i = 0; i < in->n; i++) {
        size_t n;
        if (paired[i] || !hdr[i].moves)
            continue;
        n = split_moves(hdr[i].moves, tok, len);
        for (w = 0; w < 3; w++) {
            xq_strbuf sb = XQ_STRBUF_INIT;
            bool bad = n < windows[w] + 4 || n < 30;
            for (k = windows[w]; k < windows[w] + 4 && !bad; k++)
                bad = len[k] == 1 && tok[k][0] == '-';
            if (bad)
                continue;
            if (xq_strbuf_printf(&sb, "%zu:", windows[w]) ||
                xq_strbuf_append(&sb, tok[windows[w]],
                                 (size_t)(tok[windows[w] + 3] + len[windows[w] + 3] -
                                          tok[windows[w]]))) {
                xq_strbuf_free(&sb);
                st = XQ_ENOMEM;
                goto out;
            }
            kv[nk].key = xq_strbuf_take(&sb);
            kv[nk].idx = i;
            kv[nk].owner = hdr[i].owner;
            if (!kv[nk++].key) {
                st = XQ_ENOMEM;
                goto out;
            }
        }
    }
    qsort(kv, nk, sizeof *kv, cmp_keyed);
    for (i = 0; i < nk; i = j) {
        for (j = i; j < nk && !strcmp(kv[j].key, kv[i].key); j++)
            ;
        if (j - i < 2 || j - i > 8)     /* a line many games share says nothing */
            continue;
        for (k = i; k < j; k++)
            for (w = k + 1; w < j; w++) {
                if (nc == capc) {
                    size_t ncap = capc ? capc * 2 : 64;
                    cand *v = xq_realloc(cv, ncap * sizeof *v);
                    if (!v) {
                        st = XQ_ENOMEM;
                        goto out;
                    }
                    cv = v;
                    capc = ncap;
                }
                cv[nc].a = kv[k].idx < kv[w].idx ? kv[k].idx : kv[w].idx;
                cv[nc].b = kv[k].idx < kv[w].idx ? kv[w].idx : kv[k].idx;
                if (cv[nc].a != cv[nc].b)
                    nc++;
            }
    }
    if (nc > 1)
        qsort(cv, nc, sizeof *cv, cmp_cand);
    /* each candidate once; keep those that are the same game */
    for (i = 0, k = 0; i < nc; i++) {
        const xq_pair_header *x, *y;
        if (i && cv[i].a == cv[i - 1].a && cv[i].b == cv[i - 1].b)
            continue;
        x = &hdr[cv[i].a];
        y = &hdr[cv[i].b];
        if (x->sha256 && y->sha256 && !strcmp(x->sha256, y->sha256))
            continue;                   /* one sheet scanned twice */
        if (x->owner >= 0 && x->owner == y->owner)
            continue;
        if ((x->round && y->round && *x->round && *y->round && strcmp(x->round, y->round)) ||
            (x->board && y->board && *x->board && *y->board && strcmp(x->board, y->board)))
            continue;
        if (!xq_pair_same_moves(x->moves, y->moves, NULL))
            continue;
        cv[k++] = cv[i];
        nmatch[cv[i].a]++;
        nmatch[cv[i].b]++;
    }
    nc = k;
    for (i = 0; i < nc && !st; i++) {
        size_t a = cv[i].a, b = cv[i].b;
        if (nmatch[a] != 1 || nmatch[b] != 1) {
            if (note) {
                char line[1024];
                snprintf(line, sizeof line, "%s has the moves of more than one other sheet: "
                         "not reconciled", in->v[nmatch[a] != 1 ? a : b].source);
                note(ud, line);
            }
            continue;
        }
        st = add_pair(in, a, hdr[a].owner, b, hdr[b].owner, in->v[a].name, 2, note, ud,
                      ppairs, pn, pcap);
        paired[a] = paired[b] = true;
    }
out:
    for (i = 0; i < nk; i++)
        xq_free(kv[i].key);
    xq_free(kv);
    xq_free(cv);
    xq_free(nmatch);
    return st;
}

static int cmp_pair(const void *a, const void *b)
{
    return strcmp(((const xq_batch_pair *)a)->in.name, ((const xq_batch_pair *)b)->in.name);
}

xq_status xq_pair_find(const xq_batch_inputs *in, const xq_pair_header *hdr,
                       void (*note)(void *ud, const char *line), void *ud,
                       xq_batch_pair **ppairs, size_t *pnpairs)
{
    keyed *kv = NULL;
    bool *paired = NULL;
    xq_batch_pair *pairs = NULL;
    size_t np = 0, cap = 0, nk = 0, i, j;
    xq_status st = XQ_OK;
    char key[4096];
    XQ_FAIL_IF(!in || !ppairs || !pnpairs, XQ_EINVAL, "pair_find: NULL");
    *ppairs = NULL;
    *pnpairs = 0;
    if (in->n < 2)
        return XQ_OK;
    kv = xq_calloc(in->n, sizeof *kv);
    paired = xq_calloc(in->n, sizeof *paired);
    if (!kv || !paired) {
        st = XQ_ENOMEM;
        goto out;
    }
    /* rule 1: file names */
    for (i = 0; i < in->n; i++) {
        int o = xq_pair_owner_from_name(in->v[i].name, key, sizeof key);
        if (o < 0)
            continue;
        kv[nk].key = xq_strdup(key);
        kv[nk].idx = i;
        kv[nk].owner = o;
        if (!kv[nk++].key) {
            st = XQ_ENOMEM;
            goto out;
        }
    }
    qsort(kv, nk, sizeof *kv, cmp_keyed);
    for (i = 0; i < nk && !st; i = j) {
        size_t nred = 0, nblack = 0, r = 0, b = 0;
        for (j = i; j < nk && !strcmp(kv[j].key, kv[i].key); j++) {
            if (kv[j].owner == XQ_RED)
                nred++, r = j;
            else
                nblack++, b = j;
        }
        if (nred == 1 && nblack == 1) {
            st = add_pair(in, kv[r].idx, XQ_RED, kv[b].idx, XQ_BLACK, kv[i].key, 0,
                          note, ud, &pairs, &np, &cap);
            paired[kv[r].idx] = paired[kv[b].idx] = true;
        } else if (nred + nblack > 1 && note) {
            char line[1024];
            snprintf(line, sizeof line, "%zu Red and %zu Black sheets are named for game %s: "
                     "none of them is reconciled with another", nred, nblack, kv[i].key);
            note(ud, line);
        }
    }
    for (i = 0; i < nk; i++)
        xq_free(kv[i].key);
    nk = 0;
    /* rule 2: headers, for the rest */
    if (hdr && !st) {
        for (i = 0; i < in->n; i++) {
            if (paired[i] || !hdr[i].key)
                continue;
            kv[nk].key = hdr[i].key;      /* borrowed */
            kv[nk].idx = i;
            kv[nk++].owner = hdr[i].owner;
        }
        qsort(kv, nk, sizeof *kv, cmp_keyed);
        for (i = 0; i < nk && !st; i = j) {
            for (j = i; j < nk && !strcmp(kv[j].key, kv[i].key); j++)
                ;
            if (j - i == 2 && !(kv[i].owner >= 0 && kv[i].owner == kv[i + 1].owner)) {
                st = add_pair(in, kv[i].idx, kv[i].owner, kv[i + 1].idx, kv[i + 1].owner,
                              in->v[kv[i].idx].name, 1, note, ud, &pairs, &np, &cap);
                paired[kv[i].idx] = paired[kv[i + 1].idx] = true;
            } else if (j - i > 2 && note) {
                char line[1024];
                snprintf(line, sizeof line, "%zu sheets share the header of %s: none of "
                         "them is reconciled with another", j - i, in->v[kv[i].idx].source);
                note(ud, line);
            }
        }
        nk = 0;
        if (!st)
            st = by_moves(in, hdr, paired, note, ud, &pairs, &np, &cap);
    }
    if (!st && np > 1)
        qsort(pairs, np, sizeof *pairs, cmp_pair);
out:
    for (i = 0; i < nk; i++)
        xq_free(kv[i].key);
    xq_free(kv);
    xq_free(paired);
    if (st) {
        xq_pair_free(pairs, np);
        return st;
    }
    *ppairs = pairs;
    *pnpairs = np;
    return XQ_OK;
}

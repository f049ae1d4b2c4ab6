/* record.c - typed game records: PGN (Xiangqi tags, comments, variations,
 * NAGs, results) and plain numbered move lists, several games per file, in
 * UTF-8 (BOM or not), UTF-16 (BOM), GB18030/GBK or Big5 (detected). */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "notation_internal.h"
#include "strbuf.h"
#include "utf8.h"
#include "xq_core.h"

struct xq_record {
    xq_record_game    *games;
    size_t             ngames, cap;
    xq_record_encoding enc;
};

/* Largest record accepted (bytes). */
#define MAX_RECORD_BYTES ((size_t)1 << 30)

static const char *const enc_names[] = {
    "UTF-8", "UTF-8 with BOM", "GB18030", "Big5", "UTF-16LE", "UTF-16BE",
    "UTF-8 with invalid bytes"
};

const char *xq_record_encoding_name(xq_record_encoding enc)
{
    if ((unsigned)enc >= XQ_ARRAY_LEN(enc_names))
        return "unknown";
    return enc_names[enc];
}

/* --- encodings ------------------------------------------------------------- */

/* Convert with iconv; undecodable bytes become U+FFFD. *perrors counts
 * them. XQ_EINVAL if iconv does not know the encoding. */
static xq_status convert_lossy(const char *from, const char *in, size_t len,
                               xq_strbuf *out, size_t *perrors)
{
    iconv_t cd = iconv_open("UTF-8", from);
    char buf[4096];
    char *ip = (char *)in;
    size_t il = len;
    xq_status st = XQ_OK;
    *perrors = 0;
    if (cd == (iconv_t)-1)
        return XQ_EINVAL;
    while (il > 0) {
        char *op = buf;
        size_t ol = sizeof buf;
        size_t r = iconv(cd, &ip, &il, &op, &ol);
        int e = errno;
        if ((st = xq_strbuf_append(out, buf, (size_t)(op - buf))) != XQ_OK)
            break;
        if (r == (size_t)-1) {
            if (e == E2BIG)
                continue;
            /* EILSEQ / EINVAL: one bad byte */
            if ((st = xq_strbuf_append(out, "\xEF\xBF\xBD", 3)) != XQ_OK)
                break;
            (*perrors)++;
            ip++;
            il--;
            iconv(cd, NULL, NULL, NULL, NULL);
        }
    }
    iconv_close(cd);
    return st;
}

/* How Xiangqi-like is a UTF-8 text: count lexicon glyphs. */
static size_t glyph_score(const char *s, size_t n)
{
    size_t i = 0, score = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = xq_utf8_decode(s + i, n - i, &cp);
        if (k == 0)
            break;
        if (cp >= 0x2E80) {
            xq_glyph g;
            xq_lexicon_classify(cp, &g);
            if (g.cls == XQ_SYM_PIECE || g.cls == XQ_SYM_DIR ||
                g.cls == XQ_SYM_CNUM || g.cls == XQ_SYM_POS)
                score++;
        }
        i += k;
    }
    return score;
}

/* UTF-8 with each invalid byte replaced by U+FFFD; counts valid multibyte
 * sequences and invalid bytes. */
static xq_status utf8_repair(const char *in, size_t len, xq_strbuf *out,
                             size_t *pvalid_mb, size_t *pinvalid)
{
    size_t i = 0, start = 0;
    *pvalid_mb = 0;
    *pinvalid = 0;
    while (i < len) {
        uint32_t cp;
        size_t k = xq_utf8_decode(in + i, len - i, &cp);
        if (cp == 0xFFFD && !(k == 3 && (unsigned char)in[i] == 0xEF)) {
            if (out) {
                XQ_TRY(xq_strbuf_append(out, in + start, i - start));
                XQ_TRY(xq_strbuf_append(out, "\xEF\xBF\xBD", 3));
            }
            (*pinvalid)++;
            i += k;
            start = i;
            continue;
        }
        if (k > 1)
            (*pvalid_mb)++;
        i += k;
    }
    if (out)
        XQ_TRY(xq_strbuf_append(out, in + start, len - start));
    return XQ_OK;
}

static xq_status decode(const char *data, size_t len, xq_strbuf *out,
                        xq_record_encoding *penc)
{
    const unsigned char *u = (const unsigned char *)data;
    size_t valid_mb, invalid;
    *penc = XQ_ENC_UTF8;
    if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
        *penc = XQ_ENC_UTF8_BOM;
        data += 3;
        len -= 3;
    } else if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) ||
                            (u[0] == 0xFE && u[1] == 0xFF))) {
        size_t errors;
        int le = u[0] == 0xFF;
        *penc = le ? XQ_ENC_UTF16LE : XQ_ENC_UTF16BE;
        return convert_lossy(le ? "UTF-16LE" : "UTF-16BE", data + 2, len - 2,
                             out, &errors);
    }
    XQ_TRY(utf8_repair(data, len, NULL, &valid_mb, &invalid));
    if (invalid == 0)
        return xq_strbuf_append(out, data, len);
    if (valid_mb > 0 && invalid * 20 <= valid_mb) {
        /* Mostly UTF-8: keep it, the bad bytes become U+FFFD. */
        if (*penc == XQ_ENC_UTF8)
            *penc = XQ_ENC_UTF8_INVALID;
        return utf8_repair(data, len, out, &valid_mb, &invalid);
    }
    {
        /* Not UTF-8: decode as GB18030, as Big5 and as repaired UTF-8;
         * keep the reading with the most move glyphs, then the fewest
         * undecodable bytes (a Big5 file read as GBK gives other glyphs,
         * and vice versa). */
        xq_strbuf gb = XQ_STRBUF_INIT, big5 = XQ_STRBUF_INIT, u8 = XQ_STRBUF_INIT;
        size_t egb = (size_t)-1, ebig5 = (size_t)-1, sgb = 0, sbig5 = 0, su8;
        xq_status st = convert_lossy("GB18030", data, len, &gb, &egb);
        if (st == XQ_ENOMEM)
            goto done;
        st = convert_lossy("BIG5", data, len, &big5, &ebig5);
        if (st == XQ_EINVAL)
            st = convert_lossy("CP950", data, len, &big5, &ebig5);
        if (st == XQ_ENOMEM)
            goto done;
        if ((st = utf8_repair(data, len, &u8, &valid_mb, &invalid)) != XQ_OK)
            goto done;
        su8 = glyph_score(xq_strbuf_cstr(&u8), u8.len);
        if (egb != (size_t)-1)
            sgb = glyph_score(xq_strbuf_cstr(&gb), gb.len);
        if (ebig5 != (size_t)-1)
            sbig5 = glyph_score(xq_strbuf_cstr(&big5), big5.len);
        if (su8 >= sgb && su8 >= sbig5 &&
            (su8 > sgb || egb == (size_t)-1 || invalid <= egb) &&
            (su8 > sbig5 || ebig5 == (size_t)-1 || invalid <= ebig5)) {
            *penc = XQ_ENC_UTF8_INVALID;
            st = xq_strbuf_append(out, xq_strbuf_cstr(&u8), u8.len);
        } else if (egb != (size_t)-1 &&
                   (sgb > sbig5 || (sgb == sbig5 && egb <= ebig5))) {
            *penc = XQ_ENC_GB18030;
            st = xq_strbuf_append(out, xq_strbuf_cstr(&gb), gb.len);
        } else {
            *penc = XQ_ENC_BIG5;
            st = xq_strbuf_append(out, xq_strbuf_cstr(&big5), big5.len);
        }
done:
        xq_strbuf_free(&gb);
        xq_strbuf_free(&big5);
        xq_strbuf_free(&u8);
        return st;
    }
}

/* --- the record ------------------------------------------------------------ */

static void game_free(xq_record_game *g)
{
    size_t i;
    for (i = 0; i < g->ntags; i++) {
        xq_free(g->tags[i].name);
        xq_free(g->tags[i].value);
    }
    xq_free(g->tags);
    for (i = 0; i < g->nmoves; i++)
        xq_free(g->moves[i].text);
    xq_free(g->moves);
    xq_free(g->movetext_result);
}

void xq_record_destroy(xq_record **prec)
{
    size_t i;
    if (!prec || !*prec)
        return;
    for (i = 0; i < (*prec)->ngames; i++)
        game_free(&(*prec)->games[i]);
    xq_free((*prec)->games);
    xq_free(*prec);
    *prec = NULL;
}

size_t xq_record_count(const xq_record *rec)
{
    return rec ? rec->ngames : 0;
}

const xq_record_game *xq_record_game_at(const xq_record *rec, size_t i)
{
    if (!rec || i >= rec->ngames)
        return NULL;
    return &rec->games[i];
}

xq_record_encoding xq_record_get_encoding(const xq_record *rec)
{
    return rec ? rec->enc : XQ_ENC_UTF8;
}

const char *xq_record_game_tag(const xq_record_game *g, const char *name)
{
    size_t i;
    if (!g || !name)
        return NULL;
    for (i = 0; i < g->ntags; i++)
        if (!strcasecmp(g->tags[i].name, name))
            return g->tags[i].value;
    return NULL;
}

static xq_status new_game(xq_record *rec, int line, xq_record_game **pg)
{
    if (rec->ngames == rec->cap) {
        size_t cap = rec->cap ? rec->cap * 2 : 8;
        xq_record_game *p = xq_realloc(rec->games, cap * sizeof *p);
        if (!p)
            return XQ_ENOMEM;
        rec->games = p;
        rec->cap = cap;
    }
    *pg = &rec->games[rec->ngames++];
    memset(*pg, 0, sizeof **pg);
    (*pg)->line = line;
    return XQ_OK;
}

static xq_status add_tag(xq_record_game *g, const char *name, size_t nlen,
                         const char *value, size_t vlen)
{
    xq_record_tag *p;
    char *n, *v;
    if ((g->ntags & (g->ntags - 1)) == 0) {   /* 0, 1, 2, 4, ...: grow */
        p = xq_realloc(g->tags, (g->ntags ? g->ntags * 2 : 1) * sizeof *p);
        if (!p)
            return XQ_ENOMEM;
        g->tags = p;
    }
    n = xq_strndup(name, nlen);
    v = xq_strndup(value, vlen);
    if (!n || !v) {
        xq_free(n);
        xq_free(v);
        return XQ_ENOMEM;
    }
    g->tags[g->ntags].name = n;
    g->tags[g->ntags].value = v;
    g->ntags++;
    return XQ_OK;
}

static xq_status add_move(xq_record_game *g, const char *text, size_t n,
                          int line)
{
    xq_record_move *p;
    char *t;
    if ((g->nmoves & (g->nmoves - 1)) == 0) {
        p = xq_realloc(g->moves, (g->nmoves ? g->nmoves * 2 : 1) * sizeof *p);
        if (!p)
            return XQ_ENOMEM;
        g->moves = p;
    }
    t = xq_strndup(text, n);
    if (!t)
        return XQ_ENOMEM;
    g->moves[g->nmoves].text = t;
    g->moves[g->nmoves].line = line;
    g->moves[g->nmoves].ply = (int)g->nmoves + 1;
    g->nmoves++;
    return XQ_OK;
}

static void finalize(xq_record *rec)
{
    size_t i;
    for (i = 0; i < rec->ngames; i++) {
        xq_record_game *g = &rec->games[i];
        g->event = xq_record_game_tag(g, "Event");
        g->site = xq_record_game_tag(g, "Site");
        g->date = xq_record_game_tag(g, "Date");
        g->round = xq_record_game_tag(g, "Round");
        g->red = xq_record_game_tag(g, "Red");
        g->black = xq_record_game_tag(g, "Black");
        g->fen = xq_record_game_tag(g, "FEN");
        g->format = xq_record_game_tag(g, "Format");
        g->result = xq_record_game_tag(g, "Result");
        if ((!g->result || !*g->result) && g->movetext_result)
            g->result = g->movetext_result;
        if (g->fen && !*g->fen)
            g->fen = NULL;
    }
}

/* --- the PGN / move-list scanner ------------------------------------------ */

typedef struct {
    const char *s;
    size_t      n, i;
    int         line;
} scanner;

static uint32_t peek_cp(const scanner *sc, size_t *pk)
{
    uint32_t cp = 0;
    size_t k = xq_utf8_decode(sc->s + sc->i, sc->n - sc->i, &cp);
    if (pk)
        *pk = k;
    return cp;
}

static int is_ws(uint32_t cp)
{
    return cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n' || cp == '\v' ||
           cp == '\f' || cp == 0x3000 || cp == 0xA0 || cp == 0xFEFF;
}

static void skip_to_eol(scanner *sc)
{
    while (sc->i < sc->n && sc->s[sc->i] != '\n')
        sc->i++;
}

static void skip_braces(scanner *sc)
{
    sc->i++;   /* '{' */
    while (sc->i < sc->n && sc->s[sc->i] != '}') {
        if (sc->s[sc->i] == '\n')
            sc->line++;
        sc->i++;
    }
    if (sc->i < sc->n)
        sc->i++;
}

static void skip_variation(scanner *sc)
{
    int depth = 0;
    while (sc->i < sc->n) {
        char c = sc->s[sc->i];
        if (c == '{') {
            skip_braces(sc);
            continue;
        }
        if (c == '\n')
            sc->line++;
        sc->i++;
        if (c == '(')
            depth++;
        else if (c == ')' && --depth <= 0)
            return;
    }
}

/* Result marker (after full-width normalisation) -> canonical text. */
static const char *result_of(const char *tok, size_t n)
{
    char a[32];
    size_t i = 0, j = 0;
    while (i < n && j + 1 < sizeof a) {
        uint32_t cp;
        size_t k = xq_utf8_decode(tok + i, n - i, &cp);
        if (k == 0)
            break;
        cp = xq_utf8_halfwidth(cp);
        if (cp == 0xBD) {               /* ½ */
            if (j + 4 >= sizeof a)
                return NULL;
            memcpy(a + j, "1/2", 3);
            j += 3;
        } else if (cp < 0x80) {
            a[j++] = (char)cp;
        } else {
            break;
        }
        i += k;
    }
    if (i == n) {
        a[j] = '\0';
        if (!strcmp(a, "1-0")) return "1-0";
        if (!strcmp(a, "0-1")) return "0-1";
        if (!strcmp(a, "1/2-1/2") || !strcmp(a, "1/2")) return "1/2-1/2";
        if (!strcmp(a, "*")) return "*";
        return NULL;
    }
#define IS(lit) (n == sizeof(lit) - 1 && !memcmp(tok, lit, n))
    if (IS("红胜") || IS("紅勝") || IS("红方胜") || IS("紅方勝")) return "1-0";
    if (IS("黑胜") || IS("黑勝") || IS("黑方胜") || IS("黑方勝")) return "0-1";
    if (IS("和") || IS("和棋") || IS("和局")) return "1/2-1/2";
#undef IS
    return NULL;
}

/* Length of a leading move number ("12." "12..." "１２．" "3、"), 0 if none;
 * *pnum gets the number. */
static size_t move_number(const char *tok, size_t n, long *pnum, int *pblack)
{
    size_t i = 0, k, digits = 0, dots = 0;
    long num = 0;
    uint32_t cp;
    int ellipsis = 0;
    *pnum = 0;
    *pblack = 0;
    while (i < n) {
        k = xq_utf8_decode(tok + i, n - i, &cp);
        cp = xq_utf8_halfwidth(cp);
        if (cp < '0' || cp > '9')
            break;
        if (num < 100000)
            num = num * 10 + (long)(cp - '0');
        digits++;
        i += k;
    }
    while (i < n) {
        k = xq_utf8_decode(tok + i, n - i, &cp);
        cp = xq_utf8_halfwidth(cp);
        if (cp != '.' && cp != 0x3002 && cp != 0x3001 && cp != 0xFF64 &&
            cp != 0x2026)
            break;
        ellipsis |= cp == 0x2026;
        dots++;
        i += k;
    }
    if (dots == 0)
        return 0;
    if (digits == 0 && dots < 2)
        return 0;   /* "." alone is not a number; "..." is a placeholder */
    *pnum = num;
    *pblack = dots >= 2 || ellipsis; /* "12..." continues with Black's move */
    return i;
}

/* Only annotation characters? */
static int is_annotation(const char *tok, size_t n)
{
    size_t i;
    if (n == 0)
        return 1;
    if (tok[0] == '$')
        return 1;
    for (i = 0; i < n; i++)
        if (tok[i] != '!' && tok[i] != '?' && tok[i] != '+' && tok[i] != '#')
            return 0;
    return 1;
}

/* A token that does not lex may be several Chinese moves written without
 * spaces ("炮二平五马８进７"): split it into lexable four-glyph pieces. */
static xq_status add_move_token(xq_record_game *g, const char *tok, size_t n,
                                int line)
{
    char buf[300];
    xq_token t;
    size_t starts[65], ncp = 0, i = 0, parts, p;
    if (n < sizeof buf) {
        memcpy(buf, tok, n);
        buf[n] = '\0';
        if (xq_notation_lex(buf, 0, &t) == XQ_OK)
            return add_move(g, tok, n, line);
        while (i < n && ncp < 64) {
            uint32_t cp;
            starts[ncp++] = i;
            i += xq_utf8_decode(tok + i, n - i, &cp);
        }
        starts[ncp] = i;
        if (i == n && ncp >= 8 && ncp % 4 == 0) {
            parts = ncp / 4;
            for (p = 0; p < parts; p++) {
                size_t a = starts[p * 4], b = starts[p * 4 + 4];
                memcpy(buf, tok + a, b - a);
                buf[b - a] = '\0';
                if (xq_notation_lex(buf, 0, &t) != XQ_OK)
                    break;
            }
            if (p == parts) {
                for (p = 0; p < parts; p++)
                    XQ_TRY(add_move(g, tok + starts[p * 4],
                                    starts[p * 4 + 4] - starts[p * 4], line));
                return XQ_OK;
            }
        }
    }
    return add_move(g, tok, n, line);
}

static xq_status parse_tag(scanner *sc, xq_record_game *g)
{
    size_t i = sc->i + 1, ns, ne, vs;
    xq_strbuf v = XQ_STRBUF_INIT;
    xq_status st = XQ_OK;
    const char *s = sc->s;
    while (i < sc->n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    ns = i;
    while (i < sc->n && s[i] != ' ' && s[i] != '\t' && s[i] != '"' &&
           s[i] != ']' && s[i] != '\n')
        i++;
    ne = i;
    while (i < sc->n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < sc->n && s[i] == '"') {
        i++;
        vs = i;
        while (i < sc->n && s[i] != '"' && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < sc->n &&
                (s[i + 1] == '"' || s[i + 1] == '\\')) {
                if ((st = xq_strbuf_append(&v, s + vs, i - vs)) != XQ_OK)
                    goto out;
                vs = i + 1;
                i += 2;
                continue;
            }
            i++;
        }
        if ((st = xq_strbuf_append(&v, s + vs, i - vs)) != XQ_OK)
            goto out;
    }
    if (ne > ns)
        st = add_tag(g, s + ns, ne - ns, xq_strbuf_cstr(&v), v.len);
out:
    xq_strbuf_free(&v);
    /* The rest of the line belongs to the tag. */
    sc->i = i;
    skip_to_eol(sc);
    return st;
}

xq_status xq_record_read_mem(const char *data, size_t len, xq_record **prec)
{
    xq_record *rec;
    xq_strbuf text = XQ_STRBUF_INIT;
    scanner sc;
    xq_record_game *g = NULL;
    int ended = 0, in_moves = 0, line_start = 1;
    xq_status st;
    if (prec)
        *prec = NULL;
    if (!prec || (!data && len))
        return XQ_EINVAL;
    if (len > MAX_RECORD_BYTES)
        return XQ_ERANGE;
    rec = xq_calloc(1, sizeof *rec);
    if (!rec)
        return XQ_ENOMEM;
    if ((st = decode(data ? data : "", len, &text, &rec->enc)) != XQ_OK)
        goto fail;
    sc.s = xq_strbuf_cstr(&text);
    sc.n = text.len;
    sc.i = 0;
    sc.line = 1;
    while (sc.i < sc.n) {
        size_t k, start;
        uint32_t cp = peek_cp(&sc, &k);
        if (cp == '\n') {
            sc.line++;
            sc.i++;
            line_start = 1;
            continue;
        }
        if (is_ws(cp)) {
            sc.i += k;
            continue;
        }
        if (cp == '[' && line_start) {
            if (!g || in_moves || ended) {
                if ((st = new_game(rec, sc.line, &g)) != XQ_OK)
                    goto fail;
                in_moves = ended = 0;
            }
            if ((st = parse_tag(&sc, g)) != XQ_OK)
                goto fail;
            continue;
        }
        line_start = 0;
        if (cp == '%' ) {
            skip_to_eol(&sc);
            continue;
        }
        if (cp == '{') {
            skip_braces(&sc);
            continue;
        }
        if (cp == ';') {
            skip_to_eol(&sc);
            continue;
        }
        if (cp == '(') {
            skip_variation(&sc);
            continue;
        }
        /* A token: up to whitespace or a comment/variation opener. */
        start = sc.i;
        while (sc.i < sc.n) {
            uint32_t c2 = peek_cp(&sc, &k);
            if (is_ws(c2) || c2 == '{' || c2 == '(' || c2 == ';')
                break;
            sc.i += k;
        }
        {
            const char *tok = sc.s + start;
            size_t n = sc.i - start, numlen;
            long num;
            int black_cont;
            const char *res;
            numlen = move_number(tok, n, &num, &black_cont);
            if (numlen) {
                /* a plain list restarting at "1.": a new game; never "1..."
                 * (Black's move after a comment), nor inside a tagged game
                 * before its first full move */
                if (num == 1 && !black_cont && g && in_moves &&
                    (g->nmoves >= 2 || (g->nmoves > 0 && g->ntags == 0)))
                    ended = 1;
                tok += numlen;
                n -= numlen;
                if (n == 0)
                    continue;
            }
            if ((res = result_of(tok, n)) != NULL) {
                if (g && !g->movetext_result) {
                    g->movetext_result = xq_strdup(res);
                    if (!g->movetext_result) {
                        st = XQ_ENOMEM;
                        goto fail;
                    }
                }
                if (g && (in_moves || g->ntags))
                    ended = 1;
                continue;
            }
            if (is_annotation(tok, n))
                continue;
            while (n > 0 && (tok[n - 1] == '!' || tok[n - 1] == '?'))
                n--;
            if (!g || ended) {
                if ((st = new_game(rec, sc.line, &g)) != XQ_OK)
                    goto fail;
                ended = 0;
            }
            in_moves = 1;
            if ((st = add_move_token(g, tok, n, sc.line)) != XQ_OK)
                goto fail;
        }
    }
    xq_strbuf_free(&text);
    finalize(rec);
    *prec = rec;
    return XQ_OK;
fail:
    xq_strbuf_free(&text);
    xq_record_destroy(&rec);
    return st;
}

xq_status xq_record_read_file(const char *path, xq_record **prec)
{
    FILE *f;
    xq_strbuf sb = XQ_STRBUF_INIT;
    char buf[65536];
    size_t n;
    xq_status st = XQ_OK;
    int is_stdin;
    if (prec)
        *prec = NULL;
    if (!path || !prec)
        return XQ_EINVAL;
    is_stdin = !strcmp(path, "-");
    f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return XQ_EIO;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (sb.len + n > MAX_RECORD_BYTES) {
            st = XQ_ERANGE;
            break;
        }
        if ((st = xq_strbuf_append(&sb, buf, n)) != XQ_OK)
            break;
    }
    if (st == XQ_OK && ferror(f))
        st = XQ_EIO;
    if (!is_stdin)
        fclose(f);
    if (st == XQ_OK)
        st = xq_record_read_mem(sb.data ? sb.data : "", sb.len, prec);
    xq_strbuf_free(&sb);
    return st;
}

unsigned xq_record_game_lex_flags(const xq_record_game *g)
{
    size_t i;
    int has10 = 0, has0 = 0;
    if (!g)
        return 0;
    if (g->format) {
        if (!strcasecmp(g->format, "UCI") || !strncasecmp(g->format, "Fairy", 5) ||
            !strcasecmp(g->format, "FSF"))
            return XQ_LEX_UCI;
        if (!strcasecmp(g->format, "ICCS"))
            return 0;
    }
    for (i = 0; i < g->nmoves; i++) {
        const char *s = g->moves[i].text;
        xq_token t;
        size_t j;
        if (xq_notation_lex(s, XQ_LEX_UCI, &t) != XQ_OK || t.form != XQ_TOK_COORD)
            continue;
        for (j = 0; s[j]; j++) {
            if (s[j] >= '0' && s[j] <= '9' && (j == 0 || !(s[j - 1] >= '0' && s[j - 1] <= '9'))) {
                if (s[j] == '1' && s[j + 1] == '0')
                    has10 = 1;
                else if (s[j] == '0')
                    has0 = 1;
            }
        }
    }
    return has10 && !has0 ? XQ_LEX_UCI : 0;
}

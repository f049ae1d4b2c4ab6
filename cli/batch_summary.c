/* batch_summary.c - summary.csv and index.html from the sheets' JSON files
 * (one row per sheet, sorted by NAME), and finding the sheets of an output
 * folder for `xqscan merge`. No timestamps: two runs over the same inputs
 * give the same bytes. */
#define _GNU_SOURCE
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_json.h"
#include "strbuf.h"
#include "xq_core.h"

void xq_batch_names_free(char **names, size_t n)
{
    size_t i;
    if (!names)
        return;
    for (i = 0; i < n; i++)
        xq_free(names[i]);
    xq_free(names);
}

static xq_status csv_field(xq_strbuf *sb, const char *s, bool last)
{
    if (!s)
        s = "";
    if (strpbrk(s, ",\"\r\n")) {
        XQ_TRY(xq_strbuf_putc(sb, '"'));
        for (; *s; s++) {
            if (*s == '"')
                XQ_TRY(xq_strbuf_putc(sb, '"'));
            XQ_TRY(xq_strbuf_putc(sb, *s));
        }
        XQ_TRY(xq_strbuf_putc(sb, '"'));
    } else {
        XQ_TRY(xq_strbuf_puts(sb, s));
    }
    return xq_strbuf_puts(sb, last ? "\r\n" : ",");
}

static xq_status html_text(xq_strbuf *sb, const char *s)
{
    if (!s)
        return XQ_OK;
    for (; *s; s++) {
        switch (*s) {
        case '<': XQ_TRY(xq_strbuf_puts(sb, "&lt;")); break;
        case '>': XQ_TRY(xq_strbuf_puts(sb, "&gt;")); break;
        case '&': XQ_TRY(xq_strbuf_puts(sb, "&amp;")); break;
        case '"': XQ_TRY(xq_strbuf_puts(sb, "&quot;")); break;
        case '\'': XQ_TRY(xq_strbuf_puts(sb, "&#39;")); break;
        default: XQ_TRY(xq_strbuf_putc(sb, *s));
        }
    }
    return XQ_OK;
}

/* A path for an href: every byte outside a safe set is %-encoded. */
static xq_status href(xq_strbuf *sb, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("/-_.~", c))
            XQ_TRY(xq_strbuf_putc(sb, (char)c));
        else
            XQ_TRY(xq_strbuf_printf(sb, "%%%02X", c));
    }
    return XQ_OK;
}

typedef struct {
    const char *status, *error, *source, *owner, *fields[7], *end;
    size_t plies, review, errors, warnings;
    long unrecorded;
    bool exceeded;
} row;

static const char *const HDR[7] = { "event", "round", "board", "red", "black", "date", "result" };

static void read_row(const xq_json *j, row *r)
{
    const xq_json *h = xq_json_get(j, "header"), *c, *u;
    size_t k;
    memset(r, 0, sizeof *r);
    r->status = xq_json_str(xq_json_get(j, "status"));
    if (!r->status)
        r->status = "error";
    r->error = xq_json_str(xq_json_get(j, "error"));
    r->source = xq_json_str(xq_json_get(j, "source"));
    r->owner = xq_json_str(xq_json_get(j, "owner"));
    for (k = 0; k < 7; k++)
        r->fields[k] = xq_json_str(xq_json_get(h, HDR[k]));
    for (c = xq_json_get(j, "plies") ? xq_json_get(j, "plies")->child : NULL; c; c = c->next) {
        const xq_json *rv = xq_json_get(c, "review");
        r->plies++;
        if (rv && rv->type == XQ_JSON_BOOL && rv->b)
            r->review++;
    }
    for (c = xq_json_get(j, "findings") ? xq_json_get(j, "findings")->child : NULL; c; c = c->next) {
        const char *sev = xq_json_str(xq_json_get(c, "severity"));
        if (sev && !strcmp(sev, "error"))
            r->errors++;
        else if (sev && !strcmp(sev, "warning"))
            r->warnings++;
    }
    u = xq_json_get(j, "unrecorded");
    c = xq_json_get(u, "total");
    r->unrecorded = c && c->type == XQ_JSON_NUMBER ? (long)c->num : 0;
    c = xq_json_get(u, "exceeded");
    r->exceeded = c && c->type == XQ_JSON_BOOL && c->b;
    r->end = xq_json_str(xq_json_get(xq_json_get(j, "end"), "position"));
}

static const char INDEX_HEAD[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>xqscan: sheets</title>\n<style>\n"
    "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}\n"
    "td,th{border:1px solid #bbb;padding:.25em .5em;text-align:left}\n"
    "tr.error td{background:#fdd}tr.review td{background:#ffd}\n"
    "</style></head><body>\n<h1>xqscan: %zu sheets</h1>\n"
    "<p>%zu clean, %zu for an arbiter, %zu could not be read. "
    "Also in this folder: <a href=\"summary.csv\">summary.csv</a>.</p>\n"
    "<table>\n<tr><th>sheet</th><th>status</th><th>event</th><th>round</th>"
    "<th>board</th><th>red</th><th>black</th><th>result</th><th>plies</th>"
    "<th>to review</th><th>unrecorded</th><th>errors</th><th>warnings</th></tr>\n";

xq_status xq_batch_write_summary(const char *out_dir, char *const *names,
                                 size_t n, int *pexit, size_t *psheets,
                                 size_t *pfindings)
{
    xq_strbuf csv = XQ_STRBUF_INIT, rows = XQ_STRBUF_INIT, html = XQ_STRBUF_INIT;
    size_t i, clean = 0, review = 0, bad = 0;
    int outfd = -1, exitc = 0;
    xq_status st = XQ_OK;
    char **sorted = NULL;
    if (pexit) *pexit = 0;
    if (psheets) *psheets = 0;
    if (pfindings) *pfindings = 0;
    XQ_FAIL_IF(!out_dir || (!names && n), XQ_EINVAL, "summary: NULL argument");
    outfd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    XQ_FAIL_IF(outfd < 0, XQ_EIO, "summary: output folder");
    sorted = xq_calloc(n ? n : 1, sizeof *sorted);
    if (!sorted) {
        st = XQ_ENOMEM;
        goto out;
    }
    if (n)
        memcpy(sorted, names, n * sizeof *sorted);
    /* names arrive sorted by input; parts keep them grouped: sort by NAME */
    {
        size_t a, b;
        for (a = 1; a < n; a++) /* insertion sort: nearly sorted already */
            for (b = a; b > 0 && strcmp(sorted[b - 1], sorted[b]) > 0; b--) {
                char *t = sorted[b];
                sorted[b] = sorted[b - 1];
                sorted[b - 1] = t;
            }
    }
    st = xq_strbuf_puts(&csv, "name,source,status,owner,event,round,board,red,black,date,"
                              "result,plies,review,unrecorded,unrecorded_exceeded,errors,"
                              "warnings,end,error\r\n");
    for (i = 0; i < n && !st; i++) {
        char path[PATH_MAX], num[6][32];
        xq_json *j = NULL;
        row r;
        int fd;
        const char *cls;
        snprintf(path, sizeof path, "%s.json", sorted[i]);
        fd = openat(outfd, path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
            if (xq_json_parse_file(proc, &j))
                j = NULL;
            close(fd);
        }
        if (j) {
            read_row(j, &r);
        } else {
            memset(&r, 0, sizeof r);
            r.status = "error";
            r.error = fd < 0 ? "no report was written for this sheet"
                             : "its JSON report cannot be read";
        }
        if (strcmp(r.status, "ok") != 0) {
            bad++;
            exitc = 2;
            cls = "error";
        } else if (r.errors || r.warnings || r.review) {
            review++;
            if (exitc < 1)
                exitc = 1;
            cls = "review";
        } else {
            clean++;
            cls = "ok";
        }
        snprintf(num[0], 32, "%zu", r.plies);
        snprintf(num[1], 32, "%zu", r.review);
        snprintf(num[2], 32, "%ld", r.unrecorded);
        snprintf(num[3], 32, "%zu", r.errors);
        snprintf(num[4], 32, "%zu", r.warnings);
        st = csv_field(&csv, sorted[i], false);
        if (!st) st = csv_field(&csv, r.source, false);
        if (!st) st = csv_field(&csv, r.status, false);
        if (!st) st = csv_field(&csv, r.owner, false);
        {
            size_t k;
            for (k = 0; k < 7 && !st; k++)
                st = csv_field(&csv, r.fields[k], false);
        }
        if (!st) st = csv_field(&csv, num[0], false);
        if (!st) st = csv_field(&csv, num[1], false);
        if (!st) st = csv_field(&csv, num[2], false);
        if (!st) st = csv_field(&csv, r.exceeded ? "true" : "false", false);
        if (!st) st = csv_field(&csv, num[3], false);
        if (!st) st = csv_field(&csv, num[4], false);
        if (!st) st = csv_field(&csv, r.end, false);
        if (!st) st = csv_field(&csv, r.error, true);
        /* index row: link the HTML report when there is one, else the JSON */
        {
            struct stat sb;
            bool has_html;
            snprintf(path, sizeof path, "%s.html", sorted[i]);
            has_html = fstatat(outfd, path, &sb, 0) == 0;
            if (!st) st = xq_strbuf_printf(&rows, "<tr class=\"%s\"><td><a href=\"", cls);
            if (!st) st = href(&rows, sorted[i]);
            if (!st) st = xq_strbuf_puts(&rows, has_html ? ".html\">" : ".json\">");
            if (!st) st = html_text(&rows, sorted[i]);
            if (!st) st = xq_strbuf_puts(&rows, "</a></td><td>");
            if (!st) st = html_text(&rows, r.status);
            if (!st && r.error) {
                st = xq_strbuf_puts(&rows, ": ");
                if (!st) st = html_text(&rows, r.error);
            }
            {
                static const int order[] = { 0, 1, 2, 3, 4, 6 };
                size_t k;
                for (k = 0; k < XQ_ARRAY_LEN(order) && !st; k++) {
                    st = xq_strbuf_puts(&rows, "</td><td>");
                    if (!st) st = html_text(&rows, r.fields[order[k]]);
                }
            }
            if (!st) st = xq_strbuf_printf(&rows, "</td><td>%s</td><td>%s</td><td>%s%s</td>"
                                           "<td>%s</td><td>%s</td></tr>\n",
                                           num[0], num[1], num[2], r.exceeded ? " (over)" : "",
                                           num[3], num[4]);
        }
        xq_json_free(&j);
    }
    if (!st) st = xq_strbuf_printf(&html, INDEX_HEAD, n, clean, review, bad);
    if (!st) st = xq_strbuf_append(&html, xq_strbuf_cstr(&rows), rows.len);
    if (!st) st = xq_strbuf_puts(&html, "</table>\n</body></html>\n");
    if (!st) st = xq_batch_write_at(outfd, "summary.csv", xq_strbuf_cstr(&csv), csv.len);
    if (!st) st = xq_batch_write_at(outfd, "index.html", xq_strbuf_cstr(&html), html.len);
    if (!st) {
        if (pexit) *pexit = exitc;
        if (psheets) *psheets = n;
        if (pfindings) *pfindings = review;
    }
out:
    xq_free(sorted);
    xq_strbuf_free(&csv);
    xq_strbuf_free(&rows);
    xq_strbuf_free(&html);
    if (outfd >= 0)
        close(outfd);
    return st;
}

/* ---- merge: every sheet JSON under a folder ------------------------------ */

typedef struct {
    char **v;
    size_t n, cap;
} namelist;

static xq_status find_in(int dfd, const char *rel, namelist *nl, int depth)
{
    DIR *d;
    struct dirent *de;
    xq_status st = XQ_OK;
    if (depth > 64) {
        close(dfd);
        return XQ_OK;
    }
    d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return XQ_EIO;
    }
    while (!st && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        char *r;
        struct stat sb;
        if (de->d_name[0] == '.')
            continue; /* ., .., temp files, the output marker */
        if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        r = *rel ? xq_malloc(strlen(rel) + len + 2) : xq_strdup(de->d_name);
        if (!r) {
            st = XQ_ENOMEM;
            break;
        }
        if (*rel)
            sprintf(r, "%s/%s", rel, de->d_name);
        if (S_ISDIR(sb.st_mode)) {
            int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                st = find_in(sub, r, nl, depth + 1);
        } else if (S_ISREG(sb.st_mode) && len > 5 && !strcmp(de->d_name + len - 5, ".json")) {
            xq_json *j = NULL;
            int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC);
            if (fd >= 0) {
                char proc[64];
                snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
                if (xq_json_parse_file(proc, &j))
                    j = NULL;
                close(fd);
            }
            if (j && xq_json_str(xq_json_get(j, "schema")) &&
                !strcmp(xq_json_str(xq_json_get(j, "schema")), "xqscan/1")) {
                if (nl->n == nl->cap) {
                    size_t ncap = nl->cap ? nl->cap * 2 : 256;
                    char **v = xq_realloc(nl->v, ncap * sizeof *v);
                    if (!v)
                        st = XQ_ENOMEM;
                    else
                        nl->v = v, nl->cap = ncap;
                }
                if (!st) {
                    r[strlen(r) - 5] = '\0';
                    nl->v[nl->n++] = r;
                    r = NULL;
                }
            }
            xq_json_free(&j);
        }
        xq_free(r);
    }
    closedir(d);
    return st;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

xq_status xq_batch_find_names(const char *dir, char ***pnames, size_t *pn)
{
    namelist nl = { NULL, 0, 0 };
    xq_status st;
    int fd;
    if (pnames) *pnames = NULL;
    if (pn) *pn = 0;
    XQ_FAIL_IF(!dir || !pnames || !pn, XQ_EINVAL, "find_names: NULL");
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    XQ_FAIL_IF(fd < 0, XQ_EIO, "find_names: folder");
    st = find_in(fd, "", &nl, 0);
    if (st) {
        xq_batch_names_free(nl.v, nl.n);
        return st;
    }
    if (nl.n)
        qsort(nl.v, nl.n, sizeof *nl.v, cmp_names);
    *pnames = nl.v;
    *pn = nl.n;
    return XQ_OK;
}

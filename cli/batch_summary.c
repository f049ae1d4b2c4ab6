/* batch_summary.c - summary.csv and index.html from the sheets' JSON files
 * (one row per sheet, sorted by NAME; the writers are report/'s), and finding the sheets of an output
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
#include "xqscan/xq_report.h"

void xq_batch_names_free(char **names, size_t n)
{
    size_t i;
    if (!names)
        return;
    for (i = 0; i < n; i++)
        xq_free(names[i]);
    xq_free(names);
}

static int cmp_names(const void *a, const void *b);

/* A row for a sheet whose JSON is missing or unreadable. */
static xq_status failed_row(const char *name, const char *why, xq_summary_row *r)
{
    memset(r, 0, sizeof *r);
    r->name = xq_strdup(name);
    r->file = xq_strdup(name);
    r->event = xq_strdup("");
    r->round = xq_strdup("");
    r->board = xq_strdup("");
    r->red = xq_strdup("");
    r->black = xq_strdup("");
    r->result = xq_strdup("");
    r->error = xq_strdup(why);
    r->status = XQ_SUMMARY_FAILED;
    r->consistent = true;
    if (!r->name || !r->file || !r->event || !r->round || !r->board || !r->red ||
        !r->black || !r->result || !r->error) {
        xq_summary_row_clear(r);
        return XQ_ENOMEM;
    }
    return XQ_OK;
}

xq_status xq_batch_write_summary(const char *out_dir, char *const *names,
                                 size_t n, int *pexit, size_t *psheets,
                                 size_t *pfindings)
{
    xq_strbuf csv = XQ_STRBUF_INIT, html = XQ_STRBUF_INIT, path = XQ_STRBUF_INIT;
    xq_summary_row *rows = NULL;
    size_t i, nrows = 0, review = 0;
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
    rows = xq_calloc(n ? n : 1, sizeof *rows);
    if (!sorted || !rows) {
        st = XQ_ENOMEM;
        goto out;
    }
    if (n)
        memcpy(sorted, names, n * sizeof *sorted);
    if (n > 1) /* one row per sheet, sorted by NAME */
        qsort(sorted, n, sizeof *sorted, cmp_names);
    for (i = 0; i < n && !st; i++) {
        xq_status rst;
        xq_strbuf_reset(&path);
        st = xq_strbuf_printf(&path, "%s/%s.json", out_dir, sorted[i]);
        if (st)
            break;
        rst = xq_summary_row_read_json(xq_strbuf_cstr(&path), sorted[i], &rows[i]);
        if (rst == XQ_ENOMEM) {
            st = rst;
            break;
        }
        if (rst)
            st = failed_row(sorted[i], rst == XQ_EIO ? "no report was written for this sheet"
                                                     : "its JSON report cannot be read", &rows[i]);
        if (st)
            break;
        nrows++;
        if (rows[i].status == XQ_SUMMARY_FAILED) {
            exitc = 2;
        } else if (rows[i].status == XQ_SUMMARY_REVIEW) {
            review++;
            if (exitc < 1)
                exitc = 1;
        }
    }
    if (!st) st = xq_report_summary_csv(rows, nrows, &csv);
    if (!st) st = xq_report_index_html(rows, nrows, &html);
    if (!st) st = xq_batch_write_at(outfd, "summary.csv", xq_strbuf_cstr(&csv), csv.len);
    if (!st) st = xq_batch_write_at(outfd, "index.html", xq_strbuf_cstr(&html), html.len);
    if (!st) {
        if (pexit) *pexit = exitc;
        if (psheets) *psheets = n;
        if (pfindings) *pfindings = review;
    }
out:
    for (i = 0; i < nrows; i++)
        xq_summary_row_clear(&rows[i]);
    xq_free(rows);
    xq_free(sorted);
    xq_strbuf_free(&csv);
    xq_strbuf_free(&html);
    xq_strbuf_free(&path);
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
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            !strncmp(de->d_name, ".xqtmp-", 7) || !strcmp(de->d_name, ".xqscan-output"))
            continue; /* temp files of a killed run, the output marker */
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

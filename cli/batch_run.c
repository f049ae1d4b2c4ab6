/* batch_run.c - the worker pool, resume, progress and the batch summary
 * (see batch.h). */
#define _GNU_SOURCE
#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "batch_json.h"
#include "cli.h"
#include "pair.h"
#include "sha256.h"
#include "strbuf.h"
#include "xq_core.h"
#include "xqscan/xq_game.h"
#include "xqscan/xq_report.h"

#define OUTPUT_MARKER ".xqscan-output"
#define MARKER_TEXT "This folder holds xqscan reports; xqscan never reads it as input.\n"


/* ---- one job ----------------------------------------------------------- */

struct xq_batch_job {
    xq_batch_info info;
    int outfd;
    char *main_json;       /* held back until the end */
    size_t main_len;
    bool has_main;
    bool findings;
    int max_part[2];       /* highest -p<k>, -g<k> emitted */
    xq_status write_st;
    char write_err[256];
};

const xq_batch_info *xq_batch_job_info(const xq_batch_job *job)
{
    return job ? &job->info : NULL;
}

void xq_batch_job_flag_findings(xq_batch_job *job)
{
    if (job)
        job->findings = true;
}

static bool safe_suffix(const char *s)
{
    const char *p;
    for (p = s; *p; p++)
        if (*p == '/' && (p[1] == '/' || !strncmp(p + 1, "../", 3) ||
                          !strcmp(p + 1, "..") || !strncmp(p + 1, "./", 2)))
            return false;
    return !strstr(s, "\\") && strcmp(s, "/..") != 0;
}

xq_status xq_batch_emit(xq_batch_job *job, const char *part, const char *ext,
                        const void *data, size_t len)
{
    xq_strbuf path = XQ_STRBUF_INIT;
    xq_status st;
    XQ_FAIL_IF(!job || !ext || !*ext || (!data && len), XQ_EINVAL, "emit: bad argument");
    if (!part)
        part = "";
    XQ_FAIL_IF(!safe_suffix(part) || !safe_suffix(ext) || strchr(part, '/'),
               XQ_EINVAL, "emit: unsafe suffix");
    if (!*part && !strcmp(ext, ".json")) {
        char *copy = xq_malloc(len + 1);
        XQ_FAIL_IF(!copy, XQ_ENOMEM, "emit: main json");
        memcpy(copy, data, len);
        copy[len] = '\0';
        xq_free(job->main_json);
        job->main_json = copy;
        job->main_len = len;
        job->has_main = true;
        return XQ_OK;
    }
    if ((part[0] == '-' && (part[1] == 'p' || part[1] == 'g'))) {
        long k = strtol(part + 2, NULL, 10);
        int which = part[1] == 'g';
        if (k > job->max_part[which])
            job->max_part[which] = (int)k;
    }
    st = xq_strbuf_printf(&path, "%s%s%s", job->info.in->name, part, ext);
    if (!st)
        st = xq_batch_write_at(job->outfd, xq_strbuf_cstr(&path), data, len);
    if (st && !job->write_st) {
        job->write_st = st;
        snprintf(job->write_err, sizeof job->write_err, "cannot write %s: %s",
                 xq_strbuf_cstr(&path), strerror(errno));
    }
    xq_strbuf_free(&path);
    return st;
}

/* An error record: the game says status "error" and why. */
static xq_status error_game(const xq_batch_info *info, const char *message,
                            xq_game **pgame)
{
    xq_game *g = NULL;
    xq_status st;
    *pgame = NULL;
    XQ_TRY(xq_game_create(&g));
    g->is_error = true;
    if (info->opts)
        g->unrecorded.threshold = info->opts->threshold;
    st = xq_game_set_str(&g->version, info->version);
    if (!st) st = xq_game_set_str(&g->input_sha256, info->sha256 && *info->sha256 ? info->sha256 : NULL);
    if (!st) st = xq_game_set_str(&g->options_json, info->options_json);
    if (!st) st = xq_game_set_str(&g->source, info->in->source);
    if (!st) st = xq_game_set_str(&g->error, message ? message : "unknown error");
    if (st) {
        xq_game_destroy(&g);
        return st;
    }
    g->end.consistent = true;
    *pgame = g;
    return XQ_OK;
}

xq_status xq_batch_error_json(const xq_batch_info *info, const char *part,
                              const char *message, char **pjson)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_game *g = NULL;
    xq_status st;
    (void)part;
    if (pjson)
        *pjson = NULL;
    XQ_FAIL_IF(!info || !info->in || !pjson, XQ_EINVAL, "error_json: NULL");
    XQ_TRY(error_game(info, message, &g));
    st = xq_report_json(g, &sb);
    xq_game_destroy(&g);
    if (st) {
        xq_strbuf_free(&sb);
        return st;
    }
    *pjson = xq_strbuf_take(&sb);
    return *pjson ? XQ_OK : XQ_ENOMEM;
}

/* "../../index.html" for NAME "a/b/c" */
xq_status xq_batch_index_href(const char *name, xq_strbuf *sb)
{
    const char *p;
    for (p = name; (p = strchr(p, '/')); p++)
        XQ_TRY(xq_strbuf_puts(sb, "../"));
    return xq_strbuf_puts(sb, "index.html");
}

/* Canonical text of a JSON value, for comparing options objects. */
static bool same_json(const xq_json *a, const char *btext)
{
    xq_json *b = NULL;
    xq_strbuf sa = XQ_STRBUF_INIT, sb = XQ_STRBUF_INIT;
    bool same = false;
    if (a && btext && !xq_json_parse(btext, strlen(btext), &b) &&
        !xq_json_write(&sa, a) && !xq_json_write(&sb, b))
        same = !strcmp(xq_strbuf_cstr(&sa), xq_strbuf_cstr(&sb));
    xq_json_free(&b);
    xq_strbuf_free(&sa);
    xq_strbuf_free(&sb);
    return same;
}

/* Resume: is NAME.json complete, not an error, from these bytes, options and
 * version? *pfindings from its content. */
static bool up_to_date(int outfd, const xq_batch_info *info, bool *pfindings)
{
    xq_strbuf path = XQ_STRBUF_INIT;
    xq_json *j = NULL;
    const xq_json *x, *f, *p;
    bool ok = false;
    int fd;
    *pfindings = false;
    if (xq_strbuf_printf(&path, "%s.json", info->in->name))
        return false;
    fd = openat(outfd, xq_strbuf_cstr(&path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    xq_strbuf_free(&path);
    if (fd < 0)
        return false;
    {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (xq_json_parse_file(proc, &j))
            j = NULL;
    }
    close(fd);
    if (!j)
        return false;
    x = xq_json_get(j, "xqscan");
    if (xq_json_str(xq_json_get(j, "schema")) && !strcmp(xq_json_str(xq_json_get(j, "schema")), "xqscan/1") &&
        xq_json_str(xq_json_get(j, "status")) && !strcmp(xq_json_str(xq_json_get(j, "status")), "ok") &&
        xq_json_str(xq_json_get(x, "version")) && !strcmp(xq_json_str(xq_json_get(x, "version")), info->version) &&
        xq_json_str(xq_json_get(x, "input_sha256")) &&
        !strcmp(xq_json_str(xq_json_get(x, "input_sha256")), info->sha256) &&
        same_json(xq_json_get(x, "options"), info->options_json))
        ok = true;
    for (f = xq_json_get(j, "findings") ? xq_json_get(j, "findings")->child : NULL; f; f = f->next) {
        const char *sev = xq_json_str(xq_json_get(f, "severity"));
        if (sev && (!strcmp(sev, "error") || !strcmp(sev, "warning")))
            *pfindings = true;
    }
    for (p = xq_json_get(j, "plies") ? xq_json_get(j, "plies")->child : NULL; p; p = p->next) {
        const xq_json *r = xq_json_get(p, "review");
        if (r && r->type == XQ_JSON_BOOL && r->b)
            *pfindings = true;
    }
    xq_json_free(&j);
    return ok;
}

/* Remove NAME<part>.{json,pgn,html} for parts k = from, from+1, ... while the
 * JSON exists: stale pages of an earlier run of a changed input. */
static void remove_stale_parts(int outfd, const char *name, char kind, int from)
{
    static const char *const exts[] = { ".pgn", ".html", ".json" };
    char path[PATH_MAX];
    int k;
    size_t e;
    for (k = from; k < 100000; k++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s-%c%d.json", name, kind, k);
        if (fstatat(outfd, path, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            break;
        for (e = 0; e < XQ_ARRAY_LEN(exts); e++) {
            snprintf(path, sizeof path, "%s-%c%d%s", name, kind, k, exts[e]);
            unlinkat(outfd, path, 0);
        }
    }
}

/* The input failed: NAME.json says so (NAME.html too, for the index's
 * link); outputs of an earlier good run of the input go. */
static xq_status write_error(int outfd, const xq_batch_info *info, const char *msg)
{
    char path[PATH_MAX];
    xq_strbuf json = XQ_STRBUF_INIT, html = XQ_STRBUF_INIT, href = XQ_STRBUF_INIT;
    xq_html_options ho;
    xq_game *g = NULL;
    xq_status st;
    snprintf(path, sizeof path, "%s.pgn", info->in->name);
    unlinkat(outfd, path, 0);
    remove_stale_parts(outfd, info->in->name, 'p', 2);
    remove_stale_parts(outfd, info->in->name, 'g', 2);
    XQ_TRY(error_game(info, msg, &g));
    memset(&ho, 0, sizeof ho);
    st = xq_batch_index_href(info->in->name, &href);
    ho.index_href = xq_strbuf_cstr(&href);
    if (!st) st = xq_report_json(g, &json);
    if (!st) st = xq_report_html(g, &ho, &html);
    if (!st) {
        snprintf(path, sizeof path, "%s.html", info->in->name);
        st = xq_batch_write_at(outfd, path, xq_strbuf_cstr(&html), html.len);
    }
    if (!st) {
        snprintf(path, sizeof path, "%s.json", info->in->name);
        st = xq_batch_write_at(outfd, path, xq_strbuf_cstr(&json), json.len);
    }
    xq_game_destroy(&g);
    xq_strbuf_free(&json);
    xq_strbuf_free(&html);
    xq_strbuf_free(&href);
    return st;
}

/* ---- messages between parent and workers -------------------------------- */

enum { RES_OK = 1, RES_FINDINGS, RES_ERROR, RES_RESUMED, RES_RESUMED_FINDINGS, RES_FATAL };

typedef struct {
    int32_t idx;
    int32_t kind;
    char    msg[1000];     /* < PIPE_BUF: one atomic write */
} result_msg;

typedef struct {
    const xq_batch_opts *opts;
    const xq_batch_inputs *in;
    const xq_batch_proc *proc;
    const char *options_json;
    int outfd;
    const xq_batch_pair *pairs;   /* job idx >= in->n: pair idx - in->n */
    size_t npairs;
    xq_batch_pair_fn run_pair;
} shared;

/* The input a job index stands for (a pair's synthetic input). */
static const xq_batch_input *job_input(const shared *sh, int32_t idx)
{
    if ((size_t)idx >= sh->in->n)
        return &sh->pairs[(size_t)idx - sh->in->n].in;
    return &sh->in->v[idx];
}

/* SHA-256 of a job's input; of a pair: of "SHA0 SHA1", each sheet's own
 * in sha2. -1 with errno when a file cannot be read. */
static int job_sha(const shared *sh, int32_t idx, char sha[65], char sha2[2][65])
{
    const xq_batch_pair *pr;
    char both[2 * 65 + 1];
    int k;
    sha[0] = '\0';
    if ((size_t)idx < sh->in->n)
        return xq_sha256_file(sh->in->v[idx].path, sha) == XQ_OK ? 0 : -1;
    pr = &sh->pairs[(size_t)idx - sh->in->n];
    for (k = 0; k < 2; k++)
        if (xq_sha256_file(sh->in->v[pr->idx[k]].path, sha2[k]) != XQ_OK)
            return -1;
    snprintf(both, sizeof both, "%s %s", sha2[0], sha2[1]);
    xq_sha256_hex(both, strlen(both), sha);
    return 0;
}

static int write_full(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int read_full(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void process_one(const shared *sh, void *state, int32_t idx, result_msg *res)
{
    xq_batch_job job;
    char sha[65], sha2[2][65], err[900];
    xq_status st;
    bool findings = false;
    const xq_batch_pair *pr = (size_t)idx >= sh->in->n ? &sh->pairs[(size_t)idx - sh->in->n] : NULL;
    memset(&job, 0, sizeof job);
    job.info.in = job_input(sh, idx);
    job.info.sha256 = sha;
    if (pr) {
        int k;
        job.info.pair = pr;
        for (k = 0; k < 2; k++) {
            job.info.pair_in[k] = &sh->in->v[pr->idx[k]];
            job.info.pair_sha256[k] = sha2[k];
        }
    }
    job.info.version = XQ_VERSION;
    job.info.options_json = sh->options_json;
    job.info.opts = sh->opts;
    job.info.ninputs = sh->in->n;
    job.outfd = sh->outfd;
    res->idx = idx;
    res->msg[0] = '\0';
    err[0] = '\0';
    if (job_sha(sh, idx, sha, sha2) != 0) {
        snprintf(err, sizeof err, "cannot read: %s", strerror(errno));
        goto fail;
    }
    if (sh->opts->resume && up_to_date(sh->outfd, &job.info, &findings)) {
        res->kind = findings ? RES_RESUMED_FINDINGS : RES_RESUMED;
        return;
    }
    st = pr ? sh->run_pair(state, &job, err, sizeof err)
            : sh->proc->run(state, &job, err, sizeof err);
    if (st == XQ_OK && job.write_st) {
        snprintf(err, sizeof err, "%s", job.write_err);
        goto fail;
    }
    if (st != XQ_OK) {
        if (!err[0])
            snprintf(err, sizeof err, "%s", xq_status_str(st));
        goto fail;
    }
    if (!job.has_main) {
        snprintf(err, sizeof err, "internal error: no JSON was produced");
        goto fail;
    }
    remove_stale_parts(sh->outfd, job.info.in->name, 'p', job.max_part[0] + 1 < 2 ? 2 : job.max_part[0] + 1);
    remove_stale_parts(sh->outfd, job.info.in->name, 'g', job.max_part[1] + 1 < 2 ? 2 : job.max_part[1] + 1);
    {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s.json", job.info.in->name);
        if (xq_batch_write_at(sh->outfd, path, job.main_json, job.main_len)) {
            snprintf(err, sizeof err, "cannot write its JSON report: %s", strerror(errno));
            goto fail;
        }
    }
    xq_free(job.main_json);
    res->kind = job.findings ? RES_FINDINGS : RES_OK;
    return;
fail:
    xq_free(job.main_json);
    res->kind = RES_ERROR;
    snprintf(res->msg, sizeof res->msg, "%s", err);
    if (write_error(sh->outfd, &job.info, err)) {
        size_t n = strlen(res->msg);
        snprintf(res->msg + n, sizeof res->msg - n, " (and its error JSON could not be written: %s)",
                 strerror(errno));
    }
}

/* ---- workers ------------------------------------------------------------ */

typedef struct {
    pid_t pid;
    int job_fd, res_fd;
    int32_t cur;            /* input being processed, -1 idle */
    double started;
    bool timed_out;
    int done;               /* inputs finished by this worker */
} worker;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static _Noreturn void worker_main(const shared *sh, int job_fd, int res_fd)
{
    void *state = NULL;
    char err[900] = "";
    int32_t idx;
    result_msg res;
    /* a crash kills this worker (the parent reports it), whatever handlers
     * the parent process had installed */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    signal(SIGFPE, SIG_DFL);
    signal(SIGILL, SIG_DFL);
    signal(SIGABRT, SIG_DFL);
    setenv("OMP_THREAD_LIMIT", "1", 1);
    if (sh->proc->init && sh->proc->init(sh->proc->ud, &state, err, sizeof err) != XQ_OK) {
        memset(&res, 0, sizeof res);
        res.idx = -1;
        res.kind = RES_FATAL;
        snprintf(res.msg, sizeof res.msg, "%s", err[0] ? err : "worker initialisation failed");
        write_full(res_fd, &res, sizeof res);
        _exit(3);
    }
    while (read_full(job_fd, &idx, sizeof idx) == 0) {
        if (idx < 0 || (size_t)idx >= sh->in->n + sh->npairs)
            break;
        memset(&res, 0, sizeof res);
        process_one(sh, state, idx, &res);
        if (write_full(res_fd, &res, sizeof res))
            break;
    }
    if (sh->proc->fini)
        sh->proc->fini(state);
    _exit(0);
}

static int spawn(const shared *sh, worker *ws, int nw, int j)
{
    int jp[2], rp[2], k;
    pid_t pid;
    if (pipe2(jp, O_CLOEXEC))
        return -1;
    if (pipe2(rp, O_CLOEXEC)) {
        close(jp[0]);
        close(jp[1]);
        return -1;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        close(jp[0]); close(jp[1]); close(rp[0]); close(rp[1]);
        return -1;
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        for (k = 0; k < nw; k++)
            if (k != j && ws[k].pid > 0) {
                close(ws[k].job_fd);
                close(ws[k].res_fd);
            }
        close(jp[1]);
        close(rp[0]);
        worker_main(sh, jp[0], rp[1]);
    }
    close(jp[0]);
    close(rp[1]);
    ws[j].pid = pid;
    ws[j].job_fd = jp[1];
    ws[j].res_fd = rp[0];
    ws[j].cur = -1;
    ws[j].timed_out = false;
    ws[j].done = 0;
    return 0;
}

/* ---- progress ------------------------------------------------------------ */

typedef struct {
    const xq_batch_opts *opts;
    bool tty, line_shown;
    double start, last;
    size_t total, done, problems, resumed;
} progress;

static void fmt_eta(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%lds", t);
}

static void progress_show(progress *p, bool force)
{
    double t = now_s(), el = t - p->start, rate;
    size_t worked = p->done - p->resumed;
    char eta[32] = "?";
    if (p->opts->quiet)
        return;
    if (!force && t - p->last < (p->tty ? 0.2 : 30.0))
        return;
    p->last = t;
    rate = el > 0 ? worked / el : 0;
    if (rate > 0)
        fmt_eta((p->total - p->done) / rate, eta, sizeof eta);
    if (p->tty) {
        fprintf(stderr, "\r\033[Kxqscan: %zu/%zu sheets  %.2f/s  ETA %s  problems %zu",
                p->done, p->total, rate, p->done == p->total ? "0s" : eta, p->problems);
        p->line_shown = true;
    } else {
        fprintf(stderr, "xqscan: %zu/%zu inputs, %.2f/s, ETA %s, %zu problems\n",
                p->done, p->total, rate, p->done == p->total ? "0s" : eta, p->problems);
    }
    fflush(stderr);
}

static void progress_clear(progress *p)
{
    if (p->tty && p->line_shown) {
        fputs("\r\033[K", stderr);
        p->line_shown = false;
    }
}

/* A bad input, named with its reason: always printed, even with -q. */
static void say_error(progress *p, const char *source, const char *msg)
{
    progress_clear(p);
    fprintf(stderr, "xqscan: %s: %s\n", source, msg);
    if (p->tty)
        progress_show(p, true);
}

static void warn_line(void *ud, const char *line)
{
    progress *p = ud;
    if (p->opts->quiet)
        return;
    progress_clear(p);
    fprintf(stderr, "xqscan: note: %s\n", line);
}

/* ---- the batch ------------------------------------------------------------ */

static int mkdir_p(const char *dir)
{
    char buf[PATH_MAX];
    size_t i, n = strlen(dir);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            buf[i] = c;
        }
    }
    return 0;
}

/* Crash or timeout of a worker on input idx: the parent writes its error. */
static void worker_lost(const shared *sh, progress *pg, worker *w, int wstatus,
                        char **errors)
{
    const xq_batch_input *in = job_input(sh, w->cur);
    xq_batch_info info;
    char sha[65], sha2[2][65], msg[512];
    if (w->timed_out)
        snprintf(msg, sizeof msg, "gave up after %.0f s (worker stopped; --timeout)",
                 sh->opts->timeout);
    else if (WIFSIGNALED(wstatus))
        snprintf(msg, sizeof msg, "the worker crashed on this input (signal %d, %s)",
                 WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
    else
        snprintf(msg, sizeof msg, "the worker exited unexpectedly (status %d) on this input",
                 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    memset(&info, 0, sizeof info);
    info.in = in;
    info.sha256 = job_sha(sh, w->cur, sha, sha2) == 0 ? sha : "";
    info.version = XQ_VERSION;
    info.options_json = sh->options_json;
    info.opts = sh->opts;
    info.ninputs = sh->in->n;
    if (write_error(sh->outfd, &info, msg)) {
        size_t n = strlen(msg);
        snprintf(msg + n, sizeof msg - n, " (error JSON not written: %s)", strerror(errno));
    }
    errors[w->cur] = xq_strdup(msg);
    pg->done++;
    pg->problems++;
    say_error(pg, in->source, msg);
}

static int ncores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static xq_status sheet_stems(int outfd, const xq_batch_inputs *in, char ***pstems,
                             size_t *pn)
{
    char **v = NULL;
    size_t n = 0, cap = 0, i;
    static const char kinds[2] = { 'p', 'g' };
    *pstems = NULL;
    *pn = 0;
    for (i = 0; i < in->n; i++) {
        int k, t;
        for (t = -1; t < 2; t++) {
            for (k = 2; k < 100000; k++) {
                char path[PATH_MAX];
                struct stat sb;
                if (t < 0) {
                    snprintf(path, sizeof path, "%s", in->v[i].name);
                } else {
                    snprintf(path, sizeof path, "%s-%c%d.json", in->v[i].name, kinds[t], k);
                    if (fstatat(outfd, path, &sb, AT_SYMLINK_NOFOLLOW) != 0)
                        break;
                    path[strlen(path) - 5] = '\0';
                }
                if (n == cap) {
                    size_t ncap = cap ? cap * 2 : 256;
                    char **nv = xq_realloc(v, ncap * sizeof *nv);
                    if (!nv)
                        goto oom;
                    v = nv;
                    cap = ncap;
                }
                if (!(v[n] = xq_strdup(path)))
                    goto oom;
                n++;
                if (t < 0)
                    break;
            }
        }
    }
    *pstems = v;
    *pn = n;
    return XQ_OK;
oom:
    xq_batch_names_free(v, n);
    return XQ_ENOMEM;
}

/* Run jobs [first, last) (indices as in job_input) on a fresh pool of up to
 * nwmax worker processes. errors[idx] gets the message of a failed job.
 * Returns true when nothing can work any more (no worker starts, or a
 * worker cannot initialise: e.g. no Tesseract data). */
static bool run_pool(const shared *sh, progress *pg, int nwmax, int32_t first, int32_t last,
                     char **errors, long *peak_kb)
{
    const xq_batch_opts *opts = sh->opts;
    worker *ws;
    size_t i, count = (size_t)(last - first), done = 0;
    int32_t next = first;
    int nw = nwmax, j;
    bool fatal = false;
    struct sigaction sa_old, sa_ign;

    if (count == 0)
        return false;
    if ((size_t)nw > count)
        nw = (int)count;
    ws = xq_calloc((size_t)nw, sizeof *ws);
    if (!ws)
        return true;
    memset(&sa_ign, 0, sizeof sa_ign);
    sa_ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa_ign, &sa_old);
    for (j = 0; j < nw; j++) {
        ws[j].pid = -1;
        ws[j].job_fd = ws[j].res_fd = -1;
    }
    for (j = 0; j < nw; j++)
        if (spawn(sh, ws, nw, j)) {
            fprintf(stderr, "xqscan %s: cannot start a worker: %s\n", opts->command,
                    strerror(errno));
            fatal = true;
            break;
        }
    if (pg->tty)
        progress_show(pg, true);

    while (!fatal && done < count) {
        struct pollfd pfd[1024];
        int np = 0, map[1024];
        double t = now_s();
        /* hand out work */
        for (j = 0; j < nw; j++) {
            if (ws[j].pid > 0 && ws[j].cur < 0 && next < last) {
                int32_t idx = next;
                if (write_full(ws[j].job_fd, &idx, sizeof idx) == 0) {
                    ws[j].cur = idx;
                    ws[j].started = t;
                    next++;
                }
            }
            if (ws[j].pid > 0 && ws[j].cur < 0 && next >= last && ws[j].job_fd >= 0) {
                close(ws[j].job_fd); /* no more work: the worker exits */
                ws[j].job_fd = -1;
            }
            if (ws[j].pid > 0 && ws[j].cur >= 0 && opts->timeout > 0 &&
                t - ws[j].started > opts->timeout && !ws[j].timed_out) {
                ws[j].timed_out = true;
                kill(ws[j].pid, SIGKILL);
            }
            if (ws[j].pid > 0) {
                pfd[np].fd = ws[j].res_fd;
                pfd[np].events = POLLIN;
                map[np++] = j;
            }
        }
        if (np == 0) {
            fprintf(stderr, "xqscan %s: no worker left\n", opts->command);
            fatal = true;
            break;
        }
        if (poll(pfd, (nfds_t)np, pg->tty ? 200 : 1000) < 0 && errno != EINTR)
            break;
        for (i = 0; i < (size_t)np; i++) {
            worker *w = &ws[map[i]];
            result_msg res;
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if ((pfd[i].revents & POLLIN) && read_full(w->res_fd, &res, sizeof res) == 0) {
                if (res.kind == RES_FATAL) {
                    fprintf(stderr, "xqscan %s: %s\n", opts->command, res.msg);
                    fatal = true; /* e.g. no Tesseract data: nothing can work */
                    break;
                }
                if (res.idx != w->cur)
                    continue;
                w->cur = -1;
                w->done++;
                done++;
                pg->done++;
                if (res.kind == RES_RESUMED || res.kind == RES_RESUMED_FINDINGS)
                    pg->resumed++;
                if (res.kind == RES_FINDINGS || res.kind == RES_RESUMED_FINDINGS)
                    pg->problems++;
                if (res.kind == RES_ERROR) {
                    pg->problems++;
                    errors[res.idx] = xq_strdup(res.msg);
                    say_error(pg, job_input(sh, res.idx)->source, res.msg);
                }
                continue;
            }
            /* EOF: the worker is gone */
            {
                int wstatus = 0;
                struct rusage ru;
                memset(&ru, 0, sizeof ru);
                if (wait4(w->pid, &wstatus, 0, &ru) > 0 && ru.ru_maxrss > *peak_kb)
                    *peak_kb = ru.ru_maxrss;
                close(w->res_fd);
                if (w->job_fd >= 0)
                    close(w->job_fd);
                w->res_fd = w->job_fd = -1;
                w->pid = -1;
                if (w->cur >= 0) {
                    worker_lost(sh, pg, w, wstatus, errors);
                    w->cur = -1;
                    done++;
                }
                if (next < last && spawn(sh, ws, nw, (int)(w - ws))) {
                    fprintf(stderr, "xqscan %s: cannot start a worker: %s\n",
                            opts->command, strerror(errno));
                }
            }
        }
        progress_show(pg, false);
    }
    /* reap the rest */
    for (j = 0; j < nw; j++) {
        if (ws[j].pid > 0) {
            int wstatus;
            struct rusage ru;
            if (ws[j].job_fd >= 0)
                close(ws[j].job_fd);
            if (fatal)
                kill(ws[j].pid, SIGKILL);
            memset(&ru, 0, sizeof ru);
            if (wait4(ws[j].pid, &wstatus, 0, &ru) > 0 && ru.ru_maxrss > *peak_kb)
                *peak_kb = ru.ru_maxrss;
            close(ws[j].res_fd);
        }
    }
    sigaction(SIGPIPE, &sa_old, NULL);
    xq_free(ws);
    return fatal;
}

/* For pairing by header: each sheet's JSON read back (main page only).
 * ok[i]: the sheet's JSON is there with status ok. */
static xq_status read_headers(int outfd, const xq_batch_inputs *in, xq_pair_header *hdr,
                              bool *ok)
{
    size_t i;
    for (i = 0; i < in->n; i++) {
        char path[PATH_MAX], proc[64];
        xq_json *j = NULL;
        const xq_json *h;
        const char *status, *owner;
        int fd;
        hdr[i].key = NULL;
        hdr[i].owner = -1;
        ok[i] = false;
        snprintf(path, sizeof path, "%s.json", in->v[i].name);
        fd = openat(outfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (xq_json_parse_file(proc, &j))
            j = NULL;
        close(fd);
        if (!j)
            continue;
        status = xq_json_str(xq_json_get(j, "status"));
        ok[i] = status && !strcmp(status, "ok");
        owner = xq_json_str(xq_json_get(j, "owner"));
        if (owner)
            hdr[i].owner = !strcmp(owner, "red") ? 0 : !strcmp(owner, "black") ? 1 : -1;
        h = xq_json_get(j, "header");
        if (ok[i] && h) {
            const xq_json *p;
            xq_strbuf mv = XQ_STRBUF_INIT;
            xq_status st = XQ_OK;
            hdr[i].key = xq_pair_header_key(xq_json_str(xq_json_get(h, "event")),
                                            xq_json_str(xq_json_get(h, "round")),
                                            xq_json_str(xq_json_get(h, "board")),
                                            xq_json_str(xq_json_get(h, "red")),
                                            xq_json_str(xq_json_get(h, "black")));
            hdr[i].round = xq_pair_norm(xq_json_str(xq_json_get(h, "round")));
            hdr[i].board = xq_pair_norm(xq_json_str(xq_json_get(h, "board")));
            if (xq_json_str(xq_json_get(xq_json_get(j, "xqscan"), "input_sha256")))
                hdr[i].sha256 = xq_strdup(xq_json_str(xq_json_get(xq_json_get(j, "xqscan"),
                                                                  "input_sha256")));
            for (p = xq_json_get(j, "plies") ? xq_json_get(j, "plies")->child : NULL; p && !st;
                 p = p->next) {
                const char *m = xq_json_str(xq_json_get(xq_json_get(p, "move"), "iccs"));
                st = xq_strbuf_printf(&mv, "%s%s", mv.len ? " " : "", m && *m ? m : "-");
            }
            hdr[i].moves = st ? NULL : xq_strbuf_take(&mv);
            xq_strbuf_free(&mv);
        }
        xq_json_free(&j);
    }
    return XQ_OK;
}

/* The pairs of this run whose two sheets were read (phase 2's jobs). */
static xq_status find_pairs(int outfd, const xq_batch_inputs *in, progress *pg,
                            xq_batch_pair **ppairs, size_t *pn)
{
    xq_pair_header *hdr = NULL;
    bool *ok = NULL;
    xq_batch_pair *pairs = NULL;
    size_t np = 0, i, k = 0;
    xq_status st = XQ_OK;
    *ppairs = NULL;
    *pn = 0;
    if (in->n < 2)
        return XQ_OK;
    hdr = xq_calloc(in->n, sizeof *hdr);
    ok = xq_calloc(in->n, sizeof *ok);
    if (!hdr || !ok) {
        st = XQ_ENOMEM;
        goto out;
    }
    st = read_headers(outfd, in, hdr, ok);
    if (!st)
        st = xq_pair_find(in, hdr, warn_line, pg, &pairs, &np);
    if (st)
        goto out;
    for (i = 0; i < np; i++) {
        if (ok[pairs[i].idx[0]] && ok[pairs[i].idx[1]]) {
            pairs[k++] = pairs[i];
        } else {
            xq_free(pairs[i].in.name);
            xq_free(pairs[i].in.source);
        }
    }
    *ppairs = pairs;
    *pn = k;
    pairs = NULL;
out:
    if (hdr)
        for (i = 0; i < in->n; i++) {
            xq_free(hdr[i].key);
            xq_free(hdr[i].moves);
            xq_free(hdr[i].round);
            xq_free(hdr[i].board);
            xq_free(hdr[i].sha256);
        }
    xq_free(hdr);
    xq_free(ok);
    xq_pair_free(pairs, np);
    return st;
}

int xq_batch_run(const xq_batch_opts *opts, char *const *paths, int npaths,
                 xq_batch_sniff_fn sniff, const xq_batch_proc *proc,
                 xq_batch_stats *stats)
{
    return xq_batch_run_pairs(opts, paths, npaths, sniff, proc, NULL, stats);
}

int xq_batch_run_pairs(const xq_batch_opts *opts, char *const *paths, int npaths,
                       xq_batch_sniff_fn sniff, const xq_batch_proc *proc,
                       xq_batch_pair_fn run_pair, xq_batch_stats *stats)
{
    xq_batch_inputs all, in;
    shared sh;
    progress pg;
    char **errors = NULL, *options_json = NULL, **stems = NULL;
    xq_batch_pair *pairs = NULL;
    size_t i, nstems = 0, nsheets = 0, nfind = 0, npairs = 0, resumed_sheets = 0;
    int nw, rc = XQ_EXIT_OK, outfd = -1, sum_exit = 0;
    long peak_kb = 0;
    xq_status st;
    bool fatal = false;

    if (stats)
        memset(stats, 0, sizeof *stats);
    memset(&pg, 0, sizeof pg);
    memset(&all, 0, sizeof all);
    memset(&in, 0, sizeof in);
    memset(&sh, 0, sizeof sh);
    pg.opts = opts;
    pg.tty = isatty(STDERR_FILENO);
    pg.start = pg.last = now_s();

    if (xq_batch_options_json(opts, &options_json) != XQ_OK) {
        fprintf(stderr, "xqscan %s: --corrections %s: %s\n", opts->command,
                opts->corrections ? opts->corrections : "", strerror(errno));
        return XQ_EXIT_USAGE;
    }
    if (mkdir_p(opts->out_dir) != 0 ||
        (outfd = open(opts->out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        fprintf(stderr, "xqscan %s: cannot create the output folder %s: %s\n",
                opts->command, opts->out_dir, strerror(errno));
        xq_free(options_json);
        return XQ_EXIT_USAGE;
    }
    xq_batch_write_at(outfd, OUTPUT_MARKER, MARKER_TEXT, strlen(MARKER_TEXT));
    xq_batch_clean_temps(opts->out_dir);

    st = xq_batch_collect(paths, npaths, opts->out_dir, sniff, warn_line, &pg, &all);
    if (st) {
        fprintf(stderr, "xqscan %s: %s while listing the inputs\n", opts->command,
                xq_status_str(st));
        rc = XQ_EXIT_INPUT;
        goto out;
    }
    /* shard after naming, so that names agree across shards; the two
     * sheets of a game named as a pair go to the same shard (pair.h) */
    in = all;
    if (opts->shard_n > 1) {
        size_t k = 0;
        for (i = 0; i < all.n; i++) {
            char key[PATH_MAX * 2];
            if (run_pair)
                xq_pair_shard_key(&all.v[i], key, sizeof key);
            else
                snprintf(key, sizeof key, "%s", all.v[i].source);
            if (xq_batch_in_shard(key, opts->shard_k, opts->shard_n)) {
                all.v[k++] = all.v[i];
            } else {
                xq_free(all.v[i].path);
                xq_free(all.v[i].source);
                xq_free(all.v[i].name);
            }
        }
        all.n = k;
        in = all;
    }
    pg.total = in.n;
    errors = xq_calloc(in.n ? in.n : 1, sizeof *errors);
    if (!errors) {
        rc = XQ_EXIT_INPUT;
        goto out;
    }
    sh.opts = opts;
    sh.in = &in;
    sh.proc = proc;
    sh.options_json = options_json;
    sh.outfd = outfd;
    sh.run_pair = run_pair;

    nw = opts->jobs > 0 ? opts->jobs : ncores();
    /* phase 1: every input alone */
    fatal = run_pool(&sh, &pg, nw, 0, (int32_t)in.n, errors, &peak_kb);
    resumed_sheets = pg.resumed;
    /* phase 2: the pairs of sheets of one game */
    if (!fatal && run_pair) {
        if (find_pairs(outfd, &in, &pg, &pairs, &npairs) != XQ_OK) {
            fprintf(stderr, "xqscan %s: out of memory while pairing sheets\n", opts->command);
            npairs = 0;
        }
        if (npairs) {
            char **e2 = xq_realloc(errors, (in.n + npairs) * sizeof *errors);
            if (!e2) {
                fprintf(stderr, "xqscan %s: out of memory while pairing sheets\n",
                        opts->command);
                xq_pair_free(pairs, npairs);
                pairs = NULL;
                npairs = 0;
                goto phase2_done;
            }
            errors = e2;
            memset(errors + in.n, 0, npairs * sizeof *errors);
            sh.pairs = pairs;
            sh.npairs = npairs;
            pg.total += npairs;
            fatal = run_pool(&sh, &pg, nw, (int32_t)in.n, (int32_t)(in.n + npairs), errors,
                             &peak_kb);
        }
    }
phase2_done:
    /* temp files of workers killed in this run (crash, timeout) */
    xq_batch_clean_temps(opts->out_dir);
    if (fatal) {
        progress_clear(&pg);
        rc = XQ_EXIT_INPUT;
        goto out;
    }
    if (pg.tty)
        progress_show(&pg, true);
    progress_clear(&pg);

    /* summary.csv and index.html over every sheet (and pair) of this run */
    st = sheet_stems(outfd, &in, &stems, &nstems);
    for (i = 0; i < npairs && !st; i++) {
        char **v = xq_realloc(stems, (nstems + 1) * sizeof *stems);
        if (!v) {
            st = XQ_ENOMEM;
            break;
        }
        stems = v;
        if (!(stems[nstems] = xq_strdup(pairs[i].in.name)))
            st = XQ_ENOMEM;
        else
            nstems++;
    }
    if (st || xq_batch_write_summary(opts->out_dir, stems, nstems, &sum_exit, &nsheets, &nfind)) {
        fprintf(stderr, "xqscan %s: cannot write summary.csv / index.html in %s: %s\n",
                opts->command, opts->out_dir, strerror(errno));
        sum_exit = XQ_EXIT_INPUT;
    }
    rc = sum_exit;
    for (i = 0; i < in.n + npairs; i++)
        if (errors[i])
            rc = XQ_EXIT_INPUT;
    if (stats) {
        stats->inputs = in.n;
        stats->processed = in.n - resumed_sheets;
        stats->resumed = resumed_sheets;
        for (i = 0; i < in.n; i++)
            stats->errors += errors[i] != NULL;
        stats->sheets = nsheets - npairs;
        stats->pairs = npairs;
        stats->pairs_resumed = pg.resumed - resumed_sheets;
        stats->findings = nfind;
        stats->skipped = in.skipped;
        stats->seconds = now_s() - pg.start;
        stats->peak_worker_kb = peak_kb;
    }
    if (!opts->quiet) {
        size_t nerr = 0;
        double el = now_s() - pg.start;
        char pairs_txt[64] = "";
        for (i = 0; i < in.n + npairs; i++)
            nerr += errors[i] != NULL;
        if (npairs)
            snprintf(pairs_txt, sizeof pairs_txt, ", %zu pairs of sheets reconciled", npairs);
        fprintf(stderr,
                "xqscan: %zu inputs (%zu sheets%s): %zu need an arbiter, %zu could not be "
                "processed; %zu resumed; %zu files skipped (not %s); %.1f s, %.2f inputs/s, "
                "peak worker memory %.0f MB; reports in %s/index.html\n",
                in.n, nsheets - npairs, pairs_txt, nfind, nerr, pg.resumed, in.skipped,
                !strcmp(opts->command, "verify") ? "game records" : "images", el,
                el > 0 ? (in.n - resumed_sheets) / el : 0.0, peak_kb / 1024.0, opts->out_dir);
    }
out:
    if (errors)
        for (i = 0; i < in.n + npairs; i++)
            xq_free(errors[i]);
    xq_free(errors);
    xq_batch_names_free(stems, nstems);
    xq_pair_free(pairs, npairs);
    xq_batch_inputs_free(&all);
    xq_free(options_json);
    if (outfd >= 0)
        close(outfd);
    return rc;
}

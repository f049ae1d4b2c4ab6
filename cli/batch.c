/* batch.c - options, walking, naming, sharding, atomic output (see batch.h).
 * The worker pool and the summary live in batch_run.c. */
#define _GNU_SOURCE
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_json.h"
#include "cli.h"
#include "sha256.h"
#include "strbuf.h"
#include "utf8.h"
#include "xq_core.h"

/* ---- options ---------------------------------------------------------- */

void xq_batch_opts_init(xq_batch_opts *opts, const char *command)
{
    memset(opts, 0, sizeof *opts);
    opts->command = command ? command : "scan";
    opts->out_dir = "xqscan-out";
    opts->threshold = 16;
    opts->notation = "chinese";
    opts->timeout = 600;
}

static const char *const NOTATIONS[] = { "chinese", "traditional", "wxf", "iccs" };

static int usage_error(const xq_batch_opts *opts, const char *fmt, const char *arg)
{
    fprintf(stderr, "xqscan %s: ", opts->command);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(xqscan --help lists the options)\n");
    return XQ_EXIT_USAGE;
}

static int parse_int(const char *s, long lo, long hi, long *pv)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *pv = v;
    return 0;
}

int xq_batch_parse_args(int argc, char **argv, xq_batch_opts *opts,
                        char ***ppaths, int *pnpaths)
{
    enum { O_THRESHOLD = 256, O_NOTATION, O_CORRECTIONS, O_RESUME, O_SHARD,
           O_TIMEOUT };
    static const struct option longopts[] = {
        { "out", required_argument, NULL, 'o' },
        { "jobs", required_argument, NULL, 'j' },
        { "threshold", required_argument, NULL, O_THRESHOLD },
        { "notation", required_argument, NULL, O_NOTATION },
        { "corrections", required_argument, NULL, O_CORRECTIONS },
        { "resume", no_argument, NULL, O_RESUME },
        { "shard", required_argument, NULL, O_SHARD },
        { "timeout", required_argument, NULL, O_TIMEOUT },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    long v;
    size_t i;
    if (ppaths)
        *ppaths = NULL;
    if (pnpaths)
        *pnpaths = 0;
    if (!opts || !ppaths || !pnpaths || argc < 1)
        return XQ_EXIT_USAGE;
    optind = 0; /* 0, not 1: glibc then also resets its state inside an argument */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:j:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (!*optarg)
                return usage_error(opts, "-o needs a folder name%s", "");
            opts->out_dir = optarg;
            break;
        case 'j':
            if (parse_int(optarg, 1, 1024, &v))
                return usage_error(opts, "--jobs wants a number from 1 to 1024, not '%s'", optarg);
            opts->jobs = (int)v;
            break;
        case O_THRESHOLD:
            if (parse_int(optarg, 1, 10000, &v))
                return usage_error(opts, "--threshold wants a positive number, not '%s'", optarg);
            opts->threshold = (int)v;
            break;
        case O_NOTATION:
            for (i = 0; i < XQ_ARRAY_LEN(NOTATIONS); i++)
                if (!strcmp(optarg, NOTATIONS[i]))
                    break;
            if (i == XQ_ARRAY_LEN(NOTATIONS))
                return usage_error(opts, "--notation: '%s' is not one of chinese, traditional, wxf, iccs", optarg);
            opts->notation = NOTATIONS[i];
            break;
        case O_CORRECTIONS:
            opts->corrections = optarg;
            break;
        case O_RESUME:
            opts->resume = true;
            break;
        case O_SHARD: {
            char *slash = strchr(optarg, '/'), kbuf[32];
            long k, n;
            if (!slash || (size_t)(slash - optarg) >= sizeof kbuf)
                return usage_error(opts, "--shard wants K/N, as 3/8, not '%s'", optarg);
            memcpy(kbuf, optarg, (size_t)(slash - optarg));
            kbuf[slash - optarg] = '\0';
            if (parse_int(kbuf, 1, 1000000, &k) || parse_int(slash + 1, 1, 1000000, &n) || k > n)
                return usage_error(opts, "--shard wants K/N with 1 <= K <= N, not '%s'", optarg);
            opts->shard_k = (int)k;
            opts->shard_n = (int)n;
            break;
        }
        case O_TIMEOUT:
            if (parse_int(optarg, 0, 1000000, &v))
                return usage_error(opts, "--timeout wants seconds (0: none), not '%s'", optarg);
            opts->timeout = (double)v;
            break;
        case 'q':
            opts->quiet = true;
            break;
        case 'h':
            cli_usage(stdout);
            return 0;
        case ':':
            return usage_error(opts, "option %s needs a value", argv[optind - 1]);
        default:
            return usage_error(opts, "unknown option %s", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return usage_error(opts, "no input given%s", "");
    *ppaths = argv + optind;
    *pnpaths = argc - optind;
    return 0;
}

xq_status xq_batch_options_json(const xq_batch_opts *opts, char **pjson)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    char hex[65];
    xq_status st;
    if (pjson)
        *pjson = NULL;
    XQ_FAIL_IF(!opts || !pjson, XQ_EINVAL, "options_json: NULL");
    if (opts->corrections)
        XQ_TRY(xq_sha256_file(opts->corrections, hex));
    st = xq_strbuf_printf(&sb, "{\"threshold\":%d,\"notation\":", opts->threshold);
    if (!st) st = xq_json_put_str(&sb, opts->notation);
    if (!st) st = xq_strbuf_puts(&sb, ",\"corrections_sha256\":");
    if (!st) st = xq_json_put_str(&sb, opts->corrections ? hex : NULL);
    if (!st) st = xq_strbuf_putc(&sb, '}');
    if (st) {
        xq_strbuf_free(&sb);
        return st;
    }
    *pjson = xq_strbuf_take(&sb);
    return *pjson ? XQ_OK : XQ_ENOMEM;
}

/* ---- names ------------------------------------------------------------ */

char *xq_batch_escape_name(const char *bytes)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    size_t n, i = 0;
    if (!bytes)
        return NULL;
    n = strlen(bytes);
    while (i < n) {
        uint32_t cp;
        size_t k = xq_utf8_decode(bytes + i, n - i, &cp);
        unsigned char c = (unsigned char)bytes[i];
        bool bad = (cp == 0xFFFD && !(k == 3 && !memcmp(bytes + i, "\xEF\xBF\xBD", 3)));
        if (bad || c < 0x20 || c == 0x7f || c == '%' || c == '\\') {
            if (xq_strbuf_printf(&sb, "%%%02X", c))
                goto oom;
            i++;
            continue;
        }
        if (xq_strbuf_append(&sb, bytes + i, k))
            goto oom;
        i += k;
    }
    if (!sb.data)
        return xq_strdup("");
    return xq_strbuf_take(&sb);
oom:
    xq_strbuf_free(&sb);
    return NULL;
}

bool xq_batch_in_shard(const char *source, int k, int n)
{
    char hex[65];
    uint64_t h = 0;
    int i;
    if (n <= 1)
        return true;
    xq_sha256_hex(source, strlen(source), hex);
    for (i = 0; i < 16; i++)
        h = h << 4 | (uint64_t)(hex[i] <= '9' ? hex[i] - '0' : hex[i] - 'a' + 10);
    return (int)(h % (uint64_t)n) == k - 1;
}

/* ---- walking ---------------------------------------------------------- */

#define OUTPUT_MARKER ".xqscan-output"

typedef struct {
    dev_t dev;
    ino_t ino;
} devino;

typedef struct {
    xq_batch_inputs *in;
    devino *seen;
    size_t nseen, capseen;
    bool has_out;
    devino out;
    xq_batch_sniff_fn sniff;
    void (*warn)(void *ud, const char *line);
    void *ud;
} walker;

static void note(walker *w, const char *fmt, const char *a, const char *b)
{
    char line[1024], *ea = xq_batch_escape_name(a);
    if (!w->warn) {
        xq_free(ea);
        return;
    }
    snprintf(line, sizeof line, fmt, ea ? ea : "?", b);
    w->warn(w->ud, line);
    xq_free(ea);
}

static xq_status add_input(walker *w, const char *path, const char *rel, bool named)
{
    xq_batch_inputs *in = w->in;
    xq_batch_input *it;
    if (in->n == in->cap) {
        size_t ncap = in->cap ? in->cap * 2 : 256;
        xq_batch_input *v = xq_realloc(in->v, ncap * sizeof *v);
        XQ_FAIL_IF(!v, XQ_ENOMEM, "inputs");
        in->v = v;
        in->cap = ncap;
    }
    it = &in->v[in->n];
    memset(it, 0, sizeof *it);
    it->path = xq_strdup(path);
    it->source = xq_batch_escape_name(rel);
    it->named = named;
    if (!it->path || !it->source) {
        xq_free(it->path);
        xq_free(it->source);
        return XQ_ENOMEM;
    }
    in->n++;
    return XQ_OK;
}

static bool seen_before(walker *w, const struct stat *sb, xq_status *pst)
{
    size_t i;
    *pst = XQ_OK;
    for (i = 0; i < w->nseen; i++)
        if (w->seen[i].dev == sb->st_dev && w->seen[i].ino == sb->st_ino)
            return true;
    if (w->nseen == w->capseen) {
        size_t ncap = w->capseen ? w->capseen * 2 : 64;
        devino *v = xq_realloc(w->seen, ncap * sizeof *v);
        if (!v) {
            *pst = XQ_ENOMEM;
            return true;
        }
        w->seen = v;
        w->capseen = ncap;
    }
    w->seen[w->nseen].dev = sb->st_dev;
    w->seen[w->nseen].ino = sb->st_ino;
    w->nseen++;
    return false;
}

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = xq_malloc(na + nb + 2);
    if (!s)
        return NULL;
    memcpy(s, a, na);
    s[na] = '/';
    memcpy(s + na + 1, b, nb + 1);
    if (na && a[na - 1] == '/')
        memmove(s + na, s + na + 1, nb + 1);
    return s;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static xq_status walk(walker *w, const char *dir, const char *rel, const struct stat *dsb)
{
    DIR *d;
    struct dirent *de;
    char **names = NULL;
    size_t nn = 0, cap = 0, i;
    xq_status st = XQ_OK;
    int dfd;

    if (w->has_out && dsb->st_dev == w->out.dev && dsb->st_ino == w->out.ino)
        return XQ_OK; /* the output folder is never input */
    if (seen_before(w, dsb, &st)) {
        if (!st) {
            w->in->loops++;
            note(w, "%s: folder already walked (symlink loop or second link), skipped%s", dir, "");
        }
        return st;
    }
    d = opendir(dir);
    if (!d) {
        note(w, "%s: cannot open folder: %s", dir, strerror(errno));
        return XQ_OK;
    }
    dfd = dirfd(d);
    if (faccessat(dfd, OUTPUT_MARKER, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
        closedir(d);
        note(w, "%s: an xqscan output folder, not walked%s", dir, "");
        return XQ_OK;
    }
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (nn == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            char **v = xq_realloc(names, ncap * sizeof *v);
            if (!v) { st = XQ_ENOMEM; goto out; }
            names = v;
            cap = ncap;
        }
        if (!(names[nn] = xq_strdup(de->d_name))) { st = XQ_ENOMEM; goto out; }
        nn++;
    }
    if (nn)
        qsort(names, nn, sizeof *names, cmp_cstr);
    for (i = 0; i < nn && !st; i++) {
        struct stat sb;
        char *path = join(dir, names[i]);
        char *r = *rel ? join(rel, names[i]) : xq_strdup(names[i]);
        if (!path || !r) {
            st = XQ_ENOMEM;
        } else if (fstatat(dfd, names[i], &sb, 0) != 0) {
            /* dangling link, symlink loop, no permission: an input that
             * will fail with its reason, so that it is not lost silently */
            st = add_input(w, path, r, false);
        } else if (S_ISDIR(sb.st_mode)) {
            st = walk(w, path, r, &sb);
        } else if (S_ISREG(sb.st_mode)) {
            uint8_t head[4096];
            ssize_t got = 0;
            int fd = openat(dfd, names[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd >= 0) {
                got = read(fd, head, sizeof head);
                close(fd);
            }
            if (fd < 0 || got < 0 || w->sniff(head, (size_t)got, names[i]))
                st = add_input(w, path, r, false);
            else
                w->in->skipped++;
        } else {
            w->in->skipped++; /* fifo, socket, device */
        }
        xq_free(path);
        xq_free(r);
    }
out:
    for (i = 0; i < nn; i++)
        xq_free(names[i]);
    xq_free(names);
    closedir(d);
    return st;
}

static const char *base_name(const char *path)
{
    const char *end = path + strlen(path), *p;
    while (end > path && end[-1] == '/')
        end--;
    for (p = end; p > path && p[-1] != '/'; p--)
        ;
    return p;
}

/* NAME from source: drop the extension of the last component. */
static char *strip_ext(const char *source)
{
    const char *last = strrchr(source, '/');
    const char *dot = strrchr(last ? last + 1 : source, '.');
    if (!dot || dot == (last ? last + 1 : source))
        return xq_strdup(source);
    return xq_strndup(source, (size_t)(dot - source));
}

static int cmp_input_name(const void *a, const void *b)
{
    const xq_batch_input *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    c = strcmp(x->source, y->source);
    return c ? c : strcmp(x->path, y->path);
}

static xq_status assign_names(xq_batch_inputs *in)
{
    size_t i, j;
    for (i = 0; i < in->n; i++)
        XQ_FAIL_IF(!(in->v[i].name = strip_ext(in->v[i].source)), XQ_ENOMEM, "name");
    if (in->n < 2)
        return XQ_OK;
    qsort(in->v, in->n, sizeof *in->v, cmp_input_name);
    /* a.png beside a.jpg: both keep their extensions */
    for (i = 0; i < in->n; i = j) {
        for (j = i + 1; j < in->n && !strcmp(in->v[j].name, in->v[i].name); j++)
            ;
        if (j - i > 1) {
            size_t k;
            for (k = i; k < j; k++) {
                xq_free(in->v[k].name);
                XQ_FAIL_IF(!(in->v[k].name = xq_strdup(in->v[k].source)), XQ_ENOMEM, "name");
            }
        }
    }
    qsort(in->v, in->n, sizeof *in->v, cmp_input_name);
    /* still the same (the same relative path under two roots): ~2, ~3 */
    for (i = 0; i < in->n; i = j) {
        for (j = i + 1; j < in->n && !strcmp(in->v[j].name, in->v[i].name); j++) {
            xq_strbuf sb = XQ_STRBUF_INIT;
            if (xq_strbuf_printf(&sb, "%s~%zu", in->v[j].name, j - i + 1)) {
                xq_strbuf_free(&sb);
                return XQ_ENOMEM;
            }
            xq_free(in->v[j].name);
            in->v[j].name = xq_strbuf_take(&sb);
        }
    }
    qsort(in->v, in->n, sizeof *in->v, cmp_input_name);
    return XQ_OK;
}

xq_status xq_batch_collect(char *const *paths, int npaths, const char *out_dir,
                           xq_batch_sniff_fn sniff,
                           void (*warn)(void *ud, const char *line), void *ud,
                           xq_batch_inputs *pin)
{
    walker w;
    struct stat sb;
    xq_status st = XQ_OK;
    int i;
    if (pin)
        memset(pin, 0, sizeof *pin);
    XQ_FAIL_IF(!paths || !pin || !sniff, XQ_EINVAL, "collect: NULL argument");
    memset(&w, 0, sizeof w);
    w.in = pin;
    w.sniff = sniff;
    w.warn = warn;
    w.ud = ud;
    if (out_dir && stat(out_dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        w.has_out = true;
        w.out.dev = sb.st_dev;
        w.out.ino = sb.st_ino;
    }
    for (i = 0; i < npaths && !st; i++) {
        if (stat(paths[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            if (w.has_out && sb.st_dev == w.out.dev && sb.st_ino == w.out.ino)
                note(&w, "%s: the output folder is never read as input%s", paths[i], "");
            else
                st = walk(&w, paths[i], "", &sb);
        } else {
            /* named on the command line: always an input */
            st = add_input(&w, paths[i], base_name(paths[i]), true);
        }
    }
    xq_free(w.seen);
    if (!st)
        st = assign_names(pin);
    if (st)
        xq_batch_inputs_free(pin);
    return st;
}

void xq_batch_inputs_free(xq_batch_inputs *in)
{
    size_t i;
    if (!in)
        return;
    for (i = 0; i < in->n; i++) {
        xq_free(in->v[i].path);
        xq_free(in->v[i].source);
        xq_free(in->v[i].name);
    }
    xq_free(in->v);
    memset(in, 0, sizeof *in);
}

/* ---- atomic files ------------------------------------------------------ */

#define TMP_PREFIX ".xqtmp-"

static bool bad_component(const char *c, size_t n)
{
    return n == 0 || n > NAME_MAX || (n == 1 && c[0] == '.') ||
           (n == 2 && c[0] == '.' && c[1] == '.');
}

xq_status xq_batch_write_at(int dirfd, const char *relpath, const void *data,
                            size_t len)
{
    static unsigned long seq;
    const char *p, *slash;
    char comp[NAME_MAX + 1], tmp[64];
    int cur = dirfd, fd, rc;
    const char *bytes = data;
    size_t done = 0;

    XQ_FAIL_IF(!relpath || (!data && len) || relpath[0] == '/', XQ_EINVAL,
               "write_at: bad path");
    /* check every component before creating anything */
    for (p = relpath;; p = slash + 1) {
        slash = strchr(p, '/');
        if (bad_component(p, slash ? (size_t)(slash - p) : strlen(p))) {
            errno = EINVAL;
            return XQ_EINVAL;
        }
        if (!slash)
            break;
    }
    for (p = relpath; (slash = strchr(p, '/')); p = slash + 1) {
        int next;
        size_t n = (size_t)(slash - p);
        if (bad_component(p, n))
            goto bad;
        memcpy(comp, p, n);
        comp[n] = '\0';
        if (mkdirat(cur, comp, 0777) != 0 && errno != EEXIST)
            goto io;
        /* O_NOFOLLOW: a symlink planted in the output folder cannot lead
         * the write outside it */
        next = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            goto io;
        if (cur != dirfd)
            close(cur);
        cur = next;
    }
    if (bad_component(p, strlen(p)))
        goto bad;
    snprintf(tmp, sizeof tmp, TMP_PREFIX "%ld-%lu", (long)getpid(), ++seq);
    fd = openat(cur, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        goto io;
    while (done < len) {
        ssize_t k = write(fd, bytes + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = errno;
            close(fd);
            unlinkat(cur, tmp, 0);
            errno = e;
            goto io;
        }
        done += (size_t)k;
    }
    rc = fdatasync(fd);
    if (close(fd) != 0 || rc != 0) {
        unlinkat(cur, tmp, 0);
        goto io;
    }
    if (renameat(cur, tmp, cur, p) != 0) {
        int e = errno;
        unlinkat(cur, tmp, 0);
        errno = e;
        goto io;
    }
    if (cur != dirfd)
        close(cur);
    return XQ_OK;
bad:
    if (cur != dirfd)
        close(cur);
    errno = EINVAL;
    return XQ_EINVAL;
io:
    {
        int e = errno;
        if (cur != dirfd)
            close(cur);
        errno = e;
    }
    return XQ_EIO;
}

/* Is PID a live process? A zombie is not: a killed worker stays a zombie
 * until its new parent reaps it, and in a container PID 1 may never do. */
static bool pid_alive(long pid)
{
    char path[64], buf[512];
    const char *rp;
    FILE *f;
    size_t n;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return false;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (!f)
        return true; /* no /proc: trust kill() */
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    rp = strrchr(buf, ')');
    return !(rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X'));
}

static size_t clean_dir(int dfd)
{
    DIR *d = fdopendir(dfd);
    struct dirent *de;
    size_t removed = 0;
    if (!d) {
        close(dfd);
        return 0;
    }
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (!strncmp(de->d_name, TMP_PREFIX, strlen(TMP_PREFIX))) {
            long pid = strtol(de->d_name + strlen(TMP_PREFIX), NULL, 10);
            if (pid > 0 && pid != (long)getpid() && !pid_alive(pid) &&
                unlinkat(dirfd(d), de->d_name, 0) == 0)
                removed++;
            continue;
        }
        if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN) {
            int sub = openat(dirfd(d), de->d_name,
                             O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                removed += clean_dir(sub);
        }
    }
    closedir(d);
    return removed;
}

size_t xq_batch_clean_temps(const char *dir)
{
    int fd;
    if (!dir)
        return 0;
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return fd < 0 ? 0 : clean_dir(fd);
}

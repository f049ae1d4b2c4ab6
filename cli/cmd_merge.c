/* cmd_merge.c - `xqscan merge [-o DIR] DIR...`: join the outputs of several
 * shards (xqscan --shard K/N -o DIR_K ...) into one folder with one
 * index.html and one summary.csv. Every file of each DIR (except its own
 * index.html, summary.csv, temp files and its marker) is copied to -o, keeping the
 * layout; a DIR that is the -o folder itself is only read. Two DIRs holding
 * different bytes under the same name is an error (exit 1): shards of one
 * batch never overlap. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "strbuf.h"
#include "xq_core.h"

static int read_all(int dfd, const char *name, xq_strbuf *sb)
{
    char buf[65536];
    ssize_t k;
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    xq_strbuf_reset(sb);
    while ((k = read(fd, buf, sizeof buf)) > 0)
        if (xq_strbuf_append(sb, buf, (size_t)k)) {
            k = -1;
            break;
        }
    close(fd);
    return k < 0 ? -1 : 0;
}

/* Copy the tree under dfd (relative path rel) into outfd. Returns the
 * number of problems (printed). */
static int copy_tree(int dfd, const char *dname, const char *rel, int outfd, int depth)
{
    DIR *d = fdopendir(dfd);
    struct dirent *de;
    xq_strbuf src = XQ_STRBUF_INIT, old = XQ_STRBUF_INIT;
    int problems = 0;
    if (!d) {
        close(dfd);
        fprintf(stderr, "xqscan merge: %s: %s\n", dname, strerror(errno));
        return 1;
    }
    while ((de = readdir(d))) {
        struct stat sb;
        char path[4096];
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            !strncmp(de->d_name, ".xqtmp-", 7) || !strcmp(de->d_name, ".xqscan-output"))
            continue; /* temp files of a killed run, the output marker */
        if (!*rel && (!strcmp(de->d_name, "index.html") || !strcmp(de->d_name, "summary.csv")))
            continue;
        snprintf(path, sizeof path, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(sb.st_mode) && depth < 64) {
            int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                problems += copy_tree(sub, dname, path, outfd, depth + 1);
            continue;
        }
        if (!S_ISREG(sb.st_mode))
            continue;
        if (read_all(dirfd(d), de->d_name, &src)) {
            fprintf(stderr, "xqscan merge: %s/%s: %s\n", dname, path, strerror(errno));
            problems++;
            continue;
        }
        if (read_all(outfd, path, &old) == 0) {
            if (old.len == src.len && !memcmp(xq_strbuf_cstr(&old), xq_strbuf_cstr(&src), src.len))
                continue;
            fprintf(stderr, "xqscan merge: %s/%s differs from a file of the same name "
                            "from another folder; kept the first\n", dname, path);
            problems++;
            continue;
        }
        if (xq_batch_write_at(outfd, path, xq_strbuf_cstr(&src), src.len)) {
            fprintf(stderr, "xqscan merge: cannot write %s: %s\n", path, strerror(errno));
            problems++;
        }
    }
    closedir(d);
    xq_strbuf_free(&src);
    xq_strbuf_free(&old);
    return problems;
}

static int cmp_dirs(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_merge(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "out", required_argument, NULL, 'o' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *out = "xqscan-out";
    char **all = NULL;
    size_t nall = 0, i, nsheets = 0, nfind = 0;
    int c, problems = 0, outfd, sum_exit = 0;
    bool quiet = false;
    struct stat osb;

    optind = 0; /* 0, not 1: glibc then also resets its state inside an argument */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'q': quiet = true; break;
        case 'h': cli_usage(stdout); return XQ_EXIT_OK;
        default:
            fprintf(stderr, "xqscan merge: bad option %s\nusage: xqscan merge [-o DIR] DIR...\n",
                    argv[optind - 1]);
            return XQ_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "usage: xqscan merge [-o DIR] DIR...\n");
        return XQ_EXIT_USAGE;
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "xqscan merge: cannot create %s: %s\n", out, strerror(errno));
        return XQ_EXIT_USAGE;
    }
    outfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (outfd < 0 || fstat(outfd, &osb) != 0) {
        fprintf(stderr, "xqscan merge: cannot open %s: %s\n", out, strerror(errno));
        return XQ_EXIT_USAGE;
    }
    for (; optind < argc; optind++) {
        const char *dir = argv[optind];
        char **names = NULL;
        size_t n = 0;
        struct stat sb;
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 || fstat(dfd, &sb) != 0) {
            fprintf(stderr, "xqscan merge: %s: %s\n", dir, strerror(errno));
            if (dfd >= 0)
                close(dfd);
            problems++;
            continue;
        }
        if (xq_batch_find_names(dir, &names, &n) != XQ_OK || n == 0) {
            fprintf(stderr, "xqscan merge: %s holds no xqscan reports\n", dir);
            close(dfd);
            problems++;
            xq_batch_names_free(names, n);
            continue;
        }
        if (sb.st_dev == osb.st_dev && sb.st_ino == osb.st_ino)
            close(dfd); /* the output folder itself: nothing to copy */
        else
            problems += copy_tree(dfd, dir, "", outfd, 0);
        {
            char **v = xq_realloc(all, (nall + n) * sizeof *v);
            if (!v) {
                xq_batch_names_free(names, n);
                problems++;
                break;
            }
            all = v;
            memcpy(all + nall, names, n * sizeof *names);
            nall += n;
            xq_free(names);
        }
    }
    close(outfd);
    if (nall) {
        size_t k = 0;
        qsort(all, nall, sizeof *all, cmp_dirs);
        for (i = 0; i < nall; i++) {
            if (k && !strcmp(all[k - 1], all[i]))
                xq_free(all[i]);
            else
                all[k++] = all[i];
        }
        nall = k;
    }
    if (xq_batch_write_summary(out, all, nall, &sum_exit, &nsheets, &nfind) != XQ_OK) {
        fprintf(stderr, "xqscan merge: cannot write the summary in %s: %s\n", out, strerror(errno));
        problems++;
    }
    {
        int ofd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        static const char marker[] =
            "This folder holds xqscan reports; xqscan never reads it as input.\n";
        if (ofd >= 0) {
            xq_batch_write_at(ofd, ".xqscan-output", marker, strlen(marker));
            close(ofd);
        }
    }
    if (!quiet)
        fprintf(stderr, "xqscan merge: %zu sheets (%zu need an arbiter) in %s/index.html\n",
                nsheets, nfind, out);
    xq_batch_names_free(all, nall);
    return problems ? XQ_EXIT_FINDINGS : XQ_EXIT_OK;
}

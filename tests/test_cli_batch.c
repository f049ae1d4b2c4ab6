/* test_cli_batch.c - the batch machinery of cli/ (batch.h, sha256.h,
 * batch_json.h, cmd_merge.c): walking, naming, shards, atomic files, worker
 * processes (crash, timeout, init once), kill -9 then --resume, merge.
 *
 * The cli sources are compiled into this test directly (cli/ is a program,
 * not a library). The processor used here is a real one: it checks each
 * image's structure (xq_batch_image_check) and writes outputs derived from
 * the input bytes; PNG text chunks in the inputs ask it to crash, hang, be
 * slow, report findings or produce several pages, so the machinery can be
 * tested without the OCR stages. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_shard.h"

#include "../cli/batch.c"
#include "../cli/batch_image.c"
#include "../cli/batch_json.c"
#include "../cli/batch_run.c"
#include "../cli/batch_summary.c"
#include "../cli/sha256.c"
#include "../cli/cmd_merge.c"
#include "../cli/pair.c"

/* cli_usage lives in xqscan.c (main); --help output is not tested here. */
void cli_usage(FILE *f)
{
    fputs("usage: xqscan ...\n", f);
}

/* ---- helpers ------------------------------------------------------------- */

static char tmpdir[256];

static void sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    assert_int_equal(system(cmd), 0);
}

static void be32put(FILE *f, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    fwrite(b, 1, 4, f);
}

static void chunk(FILE *f, const char *type, const void *data, uint32_t n)
{
    be32put(f, n);
    fwrite(type, 1, 4, f);
    if (n)
        fwrite(data, 1, n, f);
    be32put(f, 0); /* CRC is not checked by the structural check */
}

/* A structurally valid PNG whose tEXt chunk carries text (instructions for
 * the test processor). */
static void make_png(const char *path, int w, int h, const char *text)
{
    FILE *f = fopen(path, "wb");
    uint8_t ihdr[13] = { 0 }, idat[16] = { 0x78, 0x9c, 0x63, 0x60, 0, 0, 0, 2, 0, 1 };
    assert_non_null(f);
    fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
    ihdr[0] = (uint8_t)(w >> 24); ihdr[1] = (uint8_t)(w >> 16);
    ihdr[2] = (uint8_t)(w >> 8);  ihdr[3] = (uint8_t)w;
    ihdr[4] = (uint8_t)(h >> 24); ihdr[5] = (uint8_t)(h >> 16);
    ihdr[6] = (uint8_t)(h >> 8);  ihdr[7] = (uint8_t)h;
    ihdr[8] = 8;
    chunk(f, "IHDR", ihdr, 13);
    if (text)
        chunk(f, "tEXt", text, (uint32_t)strlen(text));
    chunk(f, "IDAT", idat, 10);
    chunk(f, "IEND", NULL, 0);
    fclose(f);
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (n)
        assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static char *slurp(const char *path, size_t *pn)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    buf[n] = '\0';
    fclose(f);
    if (pn)
        *pn = (size_t)n;
    return buf;
}

static bool file_has(const char *path, const char *needle)
{
    char *s = slurp(path, NULL);
    bool yes = s && strstr(s, needle);
    free(s);
    return yes;
}

/* The string at a dotted key path ("xqscan.version") of a JSON file, or "". */
static const char *json_at(const char *path, const char *keys)
{
    static char out[1024];
    xq_json *j = NULL;
    const xq_json *v;
    char buf[256], *k, *save = NULL;
    out[0] = '\0';
    if (xq_json_parse_file(path, &j))
        return out;
    v = j;
    snprintf(buf, sizeof buf, "%s", keys);
    for (k = strtok_r(buf, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
        v = xq_json_get(v, k);
    if (xq_json_str(v))
        snprintf(out, sizeof out, "%s", xq_json_str(v));
    xq_json_free(&j);
    return out;
}

static bool exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/xq_batch_test_XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sh("chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", tmpdir, tmpdir);
    return 0;
}

/* Run with stderr captured into tmpdir/stderr.txt. */
static int run_batch(const xq_batch_opts *o, char *const *paths, int n,
                     const xq_batch_proc *proc, xq_batch_stats *stats)
{
    char path[512];
    int saved = dup(2), fd, rc;
    snprintf(path, sizeof path, "%s/stderr.txt", tmpdir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    fflush(stderr);
    dup2(fd, 2);
    close(fd);
    rc = xq_batch_run(o, paths, n, xq_batch_sniff_image, proc, stats);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    return rc;
}

/* ---- the test processor -------------------------------------------------- */

typedef struct {
    bool show_pid;        /* outputs name the worker's pid and init count */
} tproc_cfg;

typedef struct {
    int inits;
    bool show_pid;
} tproc_state;

static int process_inits; /* per process: how many times init ran */

static xq_status tp_init(void *ud, void **pstate, char *err, size_t errlen)
{
    tproc_state *s = calloc(1, sizeof *s);
    const tproc_cfg *cfg = ud;
    (void)err;
    (void)errlen;
    s->inits = ++process_inits;
    s->show_pid = cfg && cfg->show_pid;
    *pstate = s;
    return XQ_OK;
}

static xq_status tp_run(void *state, xq_batch_job *job, char *err, size_t errlen)
{
    tproc_state *s = state;
    const xq_batch_info *info = xq_batch_job_info(job);
    int pages = 0, w, h, k, npages = 1;
    char *bytes, body[512], *json;
    const char *p;
    size_t n;
    xq_strbuf sb = XQ_STRBUF_INIT;
    bool findings;
    xq_status st = xq_batch_image_check(info->in->path, 0, &pages, &w, &h, err, errlen);
    if (st)
        return st;
    bytes = slurp(info->in->path, &n);
    if (!bytes) {
        snprintf(err, errlen, "cannot read");
        return XQ_EIO;
    }
    if (memmem(bytes, n, "CRASH", 5))
        raise(SIGSEGV);
    if (memmem(bytes, n, "HANG", 4))
        sleep(100);
    if (memmem(bytes, n, "SLOWER", 6))
        usleep(100000);
    else if (memmem(bytes, n, "SLOW", 4))
        usleep(25000);
    if (memmem(bytes, n, "REFUSE", 6)) {
        free(bytes);
        snprintf(err, errlen, "refused by the processor");
        return XQ_EINVAL;
    }
    findings = memmem(bytes, n, "FINDINGS", 8) != NULL;
    if ((p = memmem(bytes, n, "PAGES=", 6)))
        npages = p[6] - '0';
    free(bytes);
    if (findings)
        xq_batch_job_flag_findings(job);
    for (k = npages; k >= 1; k--) {
        char part[16] = "";
        if (k > 1)
            snprintf(part, sizeof part, "-p%d", k);
        if (s->show_pid)
            snprintf(body, sizeof body, "pid %ld inits %d\n", (long)getpid(), s->inits);
        else
            snprintf(body, sizeof body, "sheet %s page %d sha %s\n", info->in->source, k,
                     info->sha256);
        XQ_TRY(xq_batch_emit(job, part, ".pgn", body, strlen(body)));
        XQ_TRY(xq_batch_emit(job, part, ".html", body, strlen(body)));
        xq_strbuf_reset(&sb);
        st = xq_strbuf_printf(&sb,
            "{\"schema\":\"xqscan/1\",\"xqscan\":{\"version\":\"%s\",\"input_sha256\":\"%s\","
            "\"options\":%s},\"source\":", info->version, info->sha256, info->options_json);
        if (!st) st = xq_json_put_str(&sb, info->in->source);
        if (!st) st = xq_strbuf_printf(&sb,
            ",\"status\":\"ok\",\"owner\":null,\"header\":{\"event\":\"t\",\"round\":\"1\","
            "\"board\":\"%d\",\"red\":\"R%.8s\",\"black\":\"B\",\"date\":null,\"result\":null},"
            "\"plies\":[{\"ply\":1,\"side\":\"red\",\"status\":\"ok\",\"read\":\"\",\"review\":%s}],\"unrecorded\":{\"total\":0,\"exceeded\":false},"
            "\"findings\":[],\"end\":{\"position\":\"normal\"}}\n", k, info->sha256,
            findings ? "true" : "false");
        json = (char *)xq_strbuf_cstr(&sb);
        if (!st) st = xq_batch_emit(job, part, ".json", json, strlen(json));
        if (st) {
            xq_strbuf_free(&sb);
            return st;
        }
    }
    xq_strbuf_free(&sb);
    return XQ_OK;
}

static void tp_fini(void *state)
{
    free(state);
}

static const tproc_cfg CFG_PLAIN = { false }, CFG_PID = { true };
static const xq_batch_proc TPROC = { tp_init, tp_run, tp_fini, (void *)&CFG_PLAIN };

static void opts_for(xq_batch_opts *o, const char *out, int jobs)
{
    xq_batch_opts_init(o, "scan");
    o->out_dir = out;
    o->jobs = jobs;
    o->quiet = true;
}

/* ---- sha256 -------------------------------------------------------------- */

static void test_sha256_vectors(void **state)
{
    char hex[65], path[512];
    xq_sha256 ctx;
    uint8_t d[32];
    static char million[1000000];
    int i;
    (void)state;
    xq_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    xq_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    xq_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a', fed in uneven pieces */
    memset(million, 'a', sizeof million);
    xq_sha256_init(&ctx);
    for (i = 0; i < 1000000;) {
        int k = (i % 7 + 1) * 13;
        if (k > 1000000 - i)
            k = 1000000 - i;
        xq_sha256_update(&ctx, million + i, (size_t)k);
        i += k;
    }
    xq_sha256_final(&ctx, d);
    snprintf(hex, sizeof hex, "%02x%02x%02x%02x", d[0], d[1], d[2], d[3]);
    assert_string_equal(hex, "cdc76e5c");
    snprintf(path, sizeof path, "%s/abc", tmpdir);
    write_bytes(path, "abc", 3);
    assert_int_equal(xq_sha256_file(path, hex), XQ_OK);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    snprintf(path, sizeof path, "%s/missing", tmpdir);
    assert_int_equal(xq_sha256_file(path, hex), XQ_EIO);
    assert_string_equal(hex, "");
}

/* ---- JSON reader ----------------------------------------------------------- */

static void test_json(void **state)
{
    static const char *const bad[] = {
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"", "\"\x01\"", "tru",
        "{\"a\":1}x", "1e", "1e+", ".5", "+1", "00", "-01", "1.e5", "[1 2]", "{\"a\":}", "\"\\ud800\"", "\"\\u0000\"", "\"\xff\"", "-", "nan",
    };
    xq_json *j = NULL;
    xq_strbuf sb = XQ_STRBUF_INIT;
    const char *text = " {\"a\": [1, -2.5e1, true, false, null], \"b\": \"x\\u00e9\\ud83d\\ude00\\n\","
                       " \"c\": {\"d\": \"象棋\"}} ";
    char deep[200];
    size_t i;
    (void)state;
    assert_int_equal(xq_json_parse(text, strlen(text), &j), XQ_OK);
    assert_int_equal(xq_json_len(xq_json_get(j, "a")), 5);
    assert_true(xq_json_get(j, "a")->child->next->num == -25.0);
    assert_string_equal(xq_json_str(xq_json_get(j, "b")), "x\xc3\xa9\xf0\x9f\x98\x80\n");
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "c"), "d")), "象棋");
    assert_null(xq_json_get(j, "zz"));
    assert_null(xq_json_str(xq_json_get(j, "a")));
    assert_int_equal(xq_json_write(&sb, j), XQ_OK);
    assert_string_equal(xq_strbuf_cstr(&sb),
        "{\"a\":[1,-25,true,false,null],\"b\":\"x\xc3\xa9\xf0\x9f\x98\x80\\n\",\"c\":{\"d\":\"象棋\"}}");
    xq_json_free(&j);
    assert_null(j);
    for (i = 0; i < XQ_ARRAY_LEN(bad); i++) {
        assert_int_not_equal(xq_json_parse(bad[i], strlen(bad[i]), &j), XQ_OK);
        assert_null(j);
    }
    memset(deep, '[', sizeof deep);
    assert_int_equal(xq_json_parse(deep, sizeof deep, &j), XQ_EINVAL);
    xq_strbuf_reset(&sb);
    assert_int_equal(xq_json_put_str(&sb, "a\"b\\c\x01\x7f"), XQ_OK);
    assert_string_equal(xq_strbuf_cstr(&sb), "\"a\\\"b\\\\c\\u0001\\u007f\"");
    xq_strbuf_free(&sb);
    /* out of memory on the way: no leak, an error */
    for (i = 0; i < 40; i++) {
        xq_alloc_fail_after((long)i);
        if (xq_json_parse(text, strlen(text), &j) == XQ_OK)
            xq_json_free(&j);
        xq_alloc_fail_after(-1);
        assert_null(j);
    }
}

/* ---- names ------------------------------------------------------------------ */

static void test_escape_name(void **state)
{
    char *s;
    (void)state;
    s = xq_batch_escape_name("round3/board07.png");
    assert_string_equal(s, "round3/board07.png");
    xq_free(s);
    s = xq_batch_escape_name("caf\xe9 100%\n\xe8\xb1\xa1.png");
    assert_string_equal(s, "caf%E9 100%25%0A\xe8\xb1\xa1.png");
    xq_free(s);
    s = xq_batch_escape_name("\xef\xbf\xbd ok \xc0\xaf overlong \\");
    assert_string_equal(s, "\xef\xbf\xbd ok %C0%AF overlong %5C");
    xq_free(s);
    assert_null(xq_batch_escape_name(NULL));
}

static void test_shard_partition(void **state)
{
    int counts[5] = { 0 }, i, k, owners;
    char name[64];
    (void)state;
    for (i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "round%d/board%02d.png", i / 40, i % 40);
        owners = 0;
        for (k = 1; k <= 5; k++)
            if (xq_batch_in_shard(name, k, 5)) {
                owners++;
                counts[k - 1]++;
            }
        assert_int_equal(owners, 1);
        assert_true(xq_batch_in_shard(name, 1, 1));
        /* stable: the same answer every time */
        assert_int_equal(xq_batch_in_shard(name, 2, 5), xq_batch_in_shard(name, 2, 5));
    }
    for (k = 0; k < 5; k++)
        assert_true(counts[k] > 300 && counts[k] < 500);
}

static void test_parse_args(void **state)
{
    xq_batch_opts o;
    char **paths;
    int n, rc;
    char a0[] = "scan", a1[] = "-o", a2[] = "out", a3[] = "-j", a4[] = "3",
         a5[] = "--threshold", a6[] = "12", a7[] = "--notation", a8[] = "wxf",
         a9[] = "--resume", a10[] = "--shard", a11[] = "2/4", a12[] = "-q", a13[] = "dir1",
         a14[] = "dir2";
    char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, NULL };
    (void)state;
    xq_batch_opts_init(&o, "scan");
    rc = xq_batch_parse_args(15, argv, &o, &paths, &n);
    assert_int_equal(rc, 0);
    assert_int_equal(n, 2);
    assert_string_equal(paths[0], "dir1");
    assert_string_equal(o.out_dir, "out");
    assert_int_equal(o.jobs, 3);
    assert_int_equal(o.threshold, 12);
    assert_string_equal(o.notation, "wxf");
    assert_true(o.resume && o.quiet);
    assert_int_equal(o.shard_k, 2);
    assert_int_equal(o.shard_n, 4);
    {
        static const char *const bad[][3] = {
            { "scan", "--shard", "5/4" }, { "scan", "--shard", "0/4" }, { "scan", "--shard", "x" },
            { "scan", "-j", "0" },        { "scan", "--notation", "klingon" },
            { "scan", "--threshold", "-1" }, { "scan", "--bogus", "x" },
        };
        size_t i;
        for (i = 0; i < XQ_ARRAY_LEN(bad); i++) {
            char b0[32], b1[32], b2[32], p[] = "p";
            char *av[] = { b0, b1, b2, p, NULL };
            int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
            strcpy(b0, bad[i][0]);
            strcpy(b1, bad[i][1]);
            strcpy(b2, bad[i][2]);
            dup2(devnull, 2);
            xq_batch_opts_init(&o, "scan");
            rc = xq_batch_parse_args(4, av, &o, &paths, &n);
            dup2(saved, 2);
            close(saved);
            close(devnull);
            assert_int_equal(rc, XQ_EXIT_USAGE);
        }
    }
    {
        char *av[] = { a0, a12, NULL };
        int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        rc = xq_batch_parse_args(2, av, &o, &paths, &n);
        dup2(saved, 2);
        close(saved);
        close(devnull);
        assert_int_equal(rc, XQ_EXIT_USAGE); /* no input */
    }
}

/* ---- image check ------------------------------------------------------------ */

static void tiff_pages(const char *path, int npages, int cut)
{
    /* little-endian, each page: IFD with 5 entries then 16 bytes of strip */
    uint8_t buf[1024];
    size_t n = 8, k;
    int p;
    memcpy(buf, "II*\0\x08\0\0\0", 8);
    for (p = 0; p < npages; p++) {
        size_t ifd = n, data = ifd + 2 + 5 * 12 + 4;
        uint16_t tags[5] = { 256, 257, 258, 273, 279 };
        uint32_t vals[5] = { 4, 4, 8, (uint32_t)data, 16 };
        buf[n++] = 5, buf[n++] = 0;
        for (k = 0; k < 5; k++) {
            uint16_t type = k == 2 ? 3 : 4;
            memcpy(buf + n, &tags[k], 2);
            memcpy(buf + n + 2, &type, 2);
            buf[n + 4] = 1, buf[n + 5] = buf[n + 6] = buf[n + 7] = 0;
            memcpy(buf + n + 8, &vals[k], 4);
            n += 12;
        }
        {
            uint32_t next = p + 1 < npages ? (uint32_t)(data + 16) : 0;
            memcpy(buf + n, &next, 4);
            n += 4;
        }
        memset(buf + n, 0x55, 16);
        n += 16;
    }
    write_bytes(path, buf, n - (size_t)cut);
}

static void test_image_check(void **state)
{
    char path[512], err[256];
    int pages, w, h;
    (void)state;
    snprintf(path, sizeof path, "%s/ok.png", tmpdir);
    make_png(path, 640, 480, NULL);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_OK);
    assert_int_equal(pages, 1);
    assert_int_equal(w, 640);
    assert_int_equal(h, 480);
    make_png(path, 50000, 50000, NULL);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_EIMAGE);
    assert_non_null(strstr(err, "too large"));
    assert_int_equal(w, 0);
    make_png(path, 0, 10, NULL);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_EIMAGE);
    /* truncations of a PNG: every cut is refused */
    {
        char good[512];
        size_t n, cut;
        char *bytes;
        snprintf(good, sizeof good, "%s/good.png", tmpdir);
        make_png(good, 100, 100, "hello");
        bytes = slurp(good, &n);
        for (cut = 1; cut < n; cut++) {
            write_bytes(path, bytes, n - cut);
            assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err),
                             XQ_EIMAGE);
            assert_true(err[0] != '\0');
        }
        free(bytes);
    }
    snprintf(path, sizeof path, "%s/empty.png", tmpdir);
    write_bytes(path, "", 0);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_EIMAGE);
    assert_string_equal(err, "empty file (0 bytes)");
    write_bytes(path, "hello, world\n", 13);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_EIMAGE);
    assert_non_null(strstr(err, "text"));
    /* JPEG: SOI, SOF0 200x100, SOS, data, EOI; cut before EOI = truncated */
    {
        static const uint8_t jpg[] = {
            0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0, 100, 0, 200, 1, 1, 0x11, 0,
            0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0, 0x12, 0x34, 0xFF, 0x00, 0x56,
            0xFF, 0xD9 };
        snprintf(path, sizeof path, "%s/a.jpg", tmpdir);
        write_bytes(path, jpg, sizeof jpg);
        assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_OK);
        assert_int_equal(w, 200);
        assert_int_equal(h, 100);
        write_bytes(path, jpg, sizeof jpg - 2);
        assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_EIMAGE);
        assert_non_null(strstr(err, "truncated JPEG"));
    }
    /* TIFF: pages counted; a cut strip is refused */
    snprintf(path, sizeof path, "%s/p.tif", tmpdir);
    tiff_pages(path, 3, 0);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_OK);
    assert_int_equal(pages, 3);
    assert_int_equal(w, 4);
    tiff_pages(path, 3, 5);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_EIMAGE);
    assert_non_null(strstr(err, "truncated TIFF"));
    /* a folder, a missing file */
    assert_int_equal(xq_batch_image_check(tmpdir, 0, &pages, &w, &h, err, sizeof err), XQ_EIO);
    snprintf(path, sizeof path, "%s/none.png", tmpdir);
    assert_int_equal(xq_batch_image_check(path, 0, &pages, &w, &h, err, sizeof err), XQ_EIO);
    assert_non_null(strstr(err, "No such file"));
    /* sniffing */
    assert_true(xq_batch_sniff_image((const uint8_t *)"\x89PNG\r\n\x1a\n", 8, "x.dat"));
    assert_true(xq_batch_sniff_image((const uint8_t *)"text", 4, "x.JPEG"));
    assert_false(xq_batch_sniff_image((const uint8_t *)"text", 4, "x.txt"));
    assert_false(xq_batch_sniff_image((const uint8_t *)"", 0, ".png"));
}

/* ---- walking and naming ------------------------------------------------------ */

static void collect_warn(void *ud, const char *line)
{
    (*(int *)ud)++;
    (void)line;
}

static void test_collect(void **state)
{
    char p[1024], root[600], other[600], out[600];
    char *paths[3];
    xq_batch_inputs in;
    int warns = 0;
    size_t i;
    (void)state;
    snprintf(root, sizeof root, "%s/scans", tmpdir);
    snprintf(other, sizeof other, "%s/more", tmpdir);
    snprintf(out, sizeof out, "%s/scans/out", tmpdir);
    sh("mkdir -p '%s/r1' '%s/x.png' '%s/loop' '%s' '%s/r1'", root, root, root, out, other);
    snprintf(p, sizeof p, "%s/r1/a.png", root);       make_png(p, 10, 10, NULL);
    snprintf(p, sizeof p, "%s/r1/a.jpg", root);       write_bytes(p, "\xff\xd8\xff", 3);
    snprintf(p, sizeof p, "%s/r1/b.png", root);       make_png(p, 10, 10, NULL);
    snprintf(p, sizeof p, "%s/r1/notes.txt", root);   write_bytes(p, "hi", 2);
    snprintf(p, sizeof p, "%s/r1/image.dat", root);   make_png(p, 10, 10, NULL);
    snprintf(p, sizeof p, "%s/x.png/in.png", root);   make_png(p, 10, 10, NULL);
    snprintf(p, sizeof p, "%s/r1/\xff\xfe.png", root); make_png(p, 10, 10, NULL);
    snprintf(p, sizeof p, "%s/out/old.png", root);    make_png(p, 10, 10, NULL);
    snprintf(p, sizeof p, "%s/r1/b.png", other);      make_png(p, 10, 10, NULL);
    sh("ln -s .. '%s/loop/up' && ln -s self.png '%s/loop/self.png' && mkfifo '%s/r1/fifo.png'",
       root, root, root);
    paths[0] = root;
    paths[1] = other;
    snprintf(p, sizeof p, "%s/r1/b.png", root);
    paths[2] = p;
    assert_int_equal(xq_batch_collect(paths, 3, out, xq_batch_sniff_image, collect_warn, &warns,
                                      &in), XQ_OK);
    for (i = 0; i < in.n; i++)
        fprintf(stdout, "# %s <- %s\n", in.v[i].name, in.v[i].source);
    assert_int_equal(in.n, 9);
    assert_string_equal(in.v[0].name, "b");              /* the named file */
    assert_true(in.v[0].named);
    assert_string_equal(in.v[1].name, "loop/self");      /* a symlink loop: an input that fails */
    assert_string_equal(in.v[2].name, "r1/%FF%FE");
    assert_string_equal(in.v[3].name, "r1/a.jpg");       /* a.png beside a.jpg */
    assert_string_equal(in.v[4].name, "r1/a.png");
    /* r1/b.png in scans and in more: the extension stays, then ~2 */
    assert_string_equal(in.v[5].name, "r1/b.png");
    assert_string_equal(in.v[6].name, "r1/b.png~2");
    assert_string_equal(in.v[7].name, "r1/image");       /* image by content */
    assert_string_equal(in.v[8].name, "x.png/in");       /* folder named like an image */
    assert_int_equal(in.skipped, 2);                     /* notes.txt, the fifo */
    assert_int_equal(in.loops, 1);
    assert_true(warns >= 1);
    for (i = 0; i < in.n; i++)
        assert_null(strstr(in.v[i].name, "out/"));       /* -o never walked */
    xq_batch_inputs_free(&in);
    /* an output marker keeps an old output folder out too */
    sh("touch '%s/r1/.xqscan-output'", other);
    paths[0] = other;
    assert_int_equal(xq_batch_collect(paths, 1, "/nonexistent", xq_batch_sniff_image, NULL,
                                      NULL, &in), XQ_OK);
    assert_int_equal(in.n, 0);
    xq_batch_inputs_free(&in);
}

/* ---- atomic files: never outside the folder ------------------------------------ */

static void list_tree(const char *dir, char *buf, size_t n)
{
    char cmd[1024];
    FILE *f;
    size_t got;
    snprintf(cmd, sizeof cmd, "cd '%s' && find . | LC_ALL=C sort", dir);
    f = popen(cmd, "r");
    got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    pclose(f);
}

static void test_write_at(void **state)
{
    char out[600], p[1024], before[8192], after[8192];
    int fd;
    static const char *const bad[] = {
        "../x.json", "a/../../x.json", "/tmp/x.json", "a/./b.json", "", "a//b.json",
        "..", "a/..", "sub/../../../etc",
    };
    size_t i;
    (void)state;
    snprintf(out, sizeof out, "%s/out", tmpdir);
    sh("mkdir -p '%s' '%s/elsewhere'", out, tmpdir);
    fd = open(out, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    list_tree(tmpdir, before, sizeof before);
    for (i = 0; i < XQ_ARRAY_LEN(bad); i++)
        assert_int_equal(xq_batch_write_at(fd, bad[i], "x", 1), XQ_EINVAL);
    list_tree(tmpdir, after, sizeof after);
    assert_string_equal(before, after);
    /* a symlink planted inside the output folder is not followed */
    sh("ln -s '%s/elsewhere' '%s/link'", tmpdir, out);
    assert_int_equal(xq_batch_write_at(fd, "link/x.json", "x", 1), XQ_EIO);
    snprintf(p, sizeof p, "%s/elsewhere/x.json", tmpdir);
    assert_false(exists(p));
    sh("ln -s '%s/elsewhere/target' '%s/file.json'", tmpdir, out);
    assert_int_equal(xq_batch_write_at(fd, "file.json", "x", 1), XQ_OK); /* replaces the link */
    snprintf(p, sizeof p, "%s/elsewhere/target", tmpdir);
    assert_false(exists(p));
    /* names with dots that are not "..": fine, inside */
    assert_int_equal(xq_batch_write_at(fd, "a..b/..c.json", "yes", 3), XQ_OK);
    snprintf(p, sizeof p, "%s/a..b/..c.json", out);
    assert_true(file_has(p, "yes"));
    /* replace: complete new content, no temp left */
    assert_int_equal(xq_batch_write_at(fd, "a..b/..c.json", "second", 6), XQ_OK);
    assert_true(file_has(p, "second"));
    list_tree(out, after, sizeof after);
    assert_null(strstr(after, ".xqtmp-"));
    close(fd);
}

static void test_clean_temps(void **state)
{
    char p[1024];
    pid_t dead, zombie;
    int st;
    (void)state;
    dead = fork();
    if (dead == 0)
        _exit(0);
    waitpid(dead, &st, 0);
    sh("mkdir -p '%s/o/sub'", tmpdir);
    snprintf(p, sizeof p, "%s/o/sub/.xqtmp-%ld-1", tmpdir, (long)dead);
    write_bytes(p, "partial", 7);
    snprintf(p, sizeof p, "%s/o/.xqtmp-%ld-2", tmpdir, (long)getppid()); /* alive */
    write_bytes(p, "busy", 4);
    /* a killed writer left unreaped (a zombie) is dead too */
    zombie = fork();
    if (zombie == 0)
        _exit(0);
    {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        assert_int_equal(waitid(P_PID, (id_t)zombie, &si, WEXITED | WNOWAIT), 0);
    }
    snprintf(p, sizeof p, "%s/o/sub/.xqtmp-%ld-3", tmpdir, (long)zombie);
    write_bytes(p, "partial", 7);
    snprintf(p, sizeof p, "%s/o", tmpdir);
    assert_int_equal(xq_batch_clean_temps(p), 2);
    snprintf(p, sizeof p, "%s/o/.xqtmp-%ld-2", tmpdir, (long)getppid());
    assert_true(exists(p));
    waitpid(zombie, &st, 0);
}

/* ---- whole batches ------------------------------------------------------------ */

static void make_inputs(const char *dir, int n, const char *extra)
{
    char p[1024], text[64];
    int i;
    sh("mkdir -p '%s/round1' '%s/round2'", dir, dir);
    for (i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/round%d/board%02d.png", dir, i % 2 + 1, i);
        snprintf(text, sizeof text, "sheet %d %s", i, extra ? extra : "");
        make_png(p, 100 + i, 100, text);
    }
}

static void test_run_mixed(void **state)
{
    char in[600], out[600], p[1024];
    char *paths[1];
    xq_batch_opts o;
    xq_batch_stats stats;
    int rc;
    (void)state;
    snprintf(in, sizeof in, "%s/in", tmpdir);
    snprintf(out, sizeof out, "%s/in/out", tmpdir); /* -o inside the walked folder */
    make_inputs(in, 6, NULL);
    snprintf(p, sizeof p, "%s/round1/trunc.png", in);   write_bytes(p, "\x89PNG\r\n\x1a\n\0\0", 10);
    snprintf(p, sizeof p, "%s/round1/text.png", in);    write_bytes(p, "not an image", 12);
    snprintf(p, sizeof p, "%s/round1/refuse.png", in);  make_png(p, 10, 10, "REFUSE");
    snprintf(p, sizeof p, "%s/round2/find.png", in);    make_png(p, 10, 10, "FINDINGS");
    snprintf(p, sizeof p, "%s/round2/three.png", in);   make_png(p, 10, 10, "PAGES=3");
    snprintf(p, sizeof p, "%s/round2/readme.txt", in);  write_bytes(p, "x", 1);
    paths[0] = in;
    opts_for(&o, out, 2);
    rc = run_batch(&o, paths, 1, &TPROC, &stats);
    assert_int_equal(rc, XQ_EXIT_INPUT);
    assert_int_equal(stats.inputs, 11);
    assert_int_equal(stats.errors, 3);
    assert_int_equal(stats.sheets, 13);     /* 11 inputs, one of them 3 pages */
    assert_int_equal(stats.findings, 1);
    assert_int_equal(stats.skipped, 1);
    /* each bad input named with a reason on stderr, even with -q */
    snprintf(p, sizeof p, "%s/stderr.txt", tmpdir);
    assert_true(file_has(p, "xqscan: round1/trunc.png: truncated PNG"));
    assert_true(file_has(p, "xqscan: round1/text.png: not an image: the file holds text"));
    assert_true(file_has(p, "xqscan: round1/refuse.png: refused by the processor"));
    /* outputs */
    snprintf(p, sizeof p, "%s/round1/trunc.json", out);
    assert_string_equal(json_at(p, "status"), "error");
    assert_string_equal(json_at(p, "source"), "round1/trunc.png");
    assert_string_equal(json_at(p, "schema"), "xqscan/1");
    assert_non_null(strstr(json_at(p, "error"), "truncated PNG"));
    assert_int_equal(strlen(json_at(p, "xqscan.input_sha256")), 64);
    snprintf(p, sizeof p, "%s/round1/trunc.html", out); /* the index links it */
    assert_true(file_has(p, "truncated PNG"));
    snprintf(p, sizeof p, "%s/round2/three-p3.pgn", out);
    assert_true(exists(p));
    snprintf(p, sizeof p, "%s/round1/board00.html", out);
    assert_true(file_has(p, "sheet round1/board00.png page 1 sha "));
    snprintf(p, sizeof p, "%s/summary.csv", out);
    {
        char *csv = slurp(p, NULL), *line;
        int rows = 0, failed = 0, review = 0;
        for (line = strtok(csv, "\n"); line; line = strtok(NULL, "\n"), rows++) {
            failed += strstr(line, ",failed\r") != NULL;
            review += strstr(line, ",review\r") != NULL;
        }
        assert_int_equal(rows, 1 + 13);   /* header + one row per sheet */
        assert_int_equal(failed, 3);
        assert_int_equal(review, 1);
        free(csv);
    }
    snprintf(p, sizeof p, "%s/index.html", out);
    assert_true(file_has(p, "href=\"round2/find.html\""));
    assert_true(file_has(p, "href=\"round2/three-p3.html\""));
    /* no findings, no errors: exit 0; findings only: exit 1 */
    {
        char in2[600], out2[600];
        snprintf(in2, sizeof in2, "%s/clean", tmpdir);
        snprintf(out2, sizeof out2, "%s/clean-out", tmpdir);
        make_inputs(in2, 3, NULL);
        paths[0] = in2;
        opts_for(&o, out2, 1);
        assert_int_equal(run_batch(&o, paths, 1, &TPROC, NULL), XQ_EXIT_OK);
        snprintf(p, sizeof p, "%s/round2/f.png", in2);
        make_png(p, 10, 10, "FINDINGS");
        assert_int_equal(run_batch(&o, paths, 1, &TPROC, NULL), XQ_EXIT_FINDINGS);
    }
}

static void test_run_named_unreadable(void **state)
{
    char out[600], p[1024];
    char *paths[1];
    xq_batch_opts o;
    (void)state;
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(p, sizeof p, "%s/missing.png", tmpdir);
    paths[0] = p;
    opts_for(&o, out, 1);
    assert_int_equal(run_batch(&o, paths, 1, &TPROC, NULL), XQ_EXIT_INPUT);
    snprintf(p, sizeof p, "%s/missing.json", out);
    assert_string_equal(json_at(p, "error"), "cannot read: No such file or directory");
}

static void test_run_crash_timeout(void **state)
{
    char in[600], out[600], p[1024];
    char *paths[1];
    xq_batch_opts o;
    xq_batch_stats stats;
    (void)state;
    snprintf(in, sizeof in, "%s/in", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    make_inputs(in, 8, NULL);
    snprintf(p, sizeof p, "%s/round1/crash.png", in);  make_png(p, 10, 10, "CRASH");
    snprintf(p, sizeof p, "%s/round1/crash2.png", in); make_png(p, 10, 10, "CRASH");
    snprintf(p, sizeof p, "%s/round2/hang.png", in);   make_png(p, 10, 10, "HANG");
    paths[0] = in;
    opts_for(&o, out, 2);
    o.timeout = 1;
    assert_int_equal(run_batch(&o, paths, 1, &TPROC, &stats), XQ_EXIT_INPUT);
    assert_int_equal(stats.inputs, 11);
    assert_int_equal(stats.errors, 3);
    assert_int_equal(stats.sheets, 11);
    snprintf(p, sizeof p, "%s/stderr.txt", tmpdir);
    assert_true(file_has(p, "round1/crash.png: the worker crashed on this input (signal 11"));
    assert_true(file_has(p, "round1/crash2.png: the worker crashed"));
    assert_true(file_has(p, "round2/hang.png: gave up after 1 s"));
    snprintf(p, sizeof p, "%s/round1/crash.json", out);
    assert_string_equal(json_at(p, "status"), "error");
    assert_int_equal(strlen(json_at(p, "xqscan.input_sha256")), 64);
    snprintf(p, sizeof p, "%s/round2/board07.json", out); /* the batch went on */
    assert_string_equal(json_at(p, "status"), "ok");
}

static void test_run_init_once(void **state)
{
    static const xq_batch_proc pidproc = { tp_init, tp_run, tp_fini, (void *)&CFG_PID };
    char in[600], out[600], p[1024], pids[8][32];
    char *paths[1];
    xq_batch_opts o;
    int i, k, npids = 0;
    (void)state;
    snprintf(in, sizeof in, "%s/in", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    make_inputs(in, 30, NULL);
    paths[0] = in;
    opts_for(&o, out, 3);
    assert_int_equal(run_batch(&o, paths, 1, &pidproc, NULL), XQ_EXIT_OK);
    for (i = 0; i < 30; i++) {
        char *s, pid[32];
        int inits;
        snprintf(p, sizeof p, "%s/round%d/board%02d.pgn", out, i % 2 + 1, i);
        s = slurp(p, NULL);
        assert_non_null(s);
        assert_int_equal(sscanf(s, "pid %31s inits %d", pid, &inits), 2);
        assert_int_equal(inits, 1); /* the engine was set up once per worker */
        for (k = 0; k < npids && strcmp(pids[k], pid); k++)
            ;
        if (k == npids) {
            assert_true(npids < 3); /* never more workers than -j */
            strcpy(pids[npids++], pid);
        }
        free(s);
    }
    assert_int_not_equal(pids[0][0], 0);
    assert_int_equal(process_inits, 0); /* never in the parent */
}

/* Every file of a against b, byte for byte; temp files are reported. */
static void assert_same_tree(const char *a, const char *b)
{
    char la[65536], lb[65536], cmd[2048];
    list_tree(a, la, sizeof la);
    list_tree(b, lb, sizeof lb);
    if (strcmp(la, lb) != 0) {
        /* print only the lines that differ: cmocka truncates long strings */
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && find . | LC_ALL=C sort > /tmp/xq-tree-a.$$ && cd '%s' && "
                 "find . | LC_ALL=C sort | diff /tmp/xq-tree-a.$$ - >&2; rm -f /tmp/xq-tree-a.$$",
                 a, b);
        if (system(cmd) == -1)
            fail_msg("cannot run diff");
        fail_msg("trees %s and %s differ (listed above)", a, b);
    }
    assert_null(strstr(la, ".xqtmp-"));
    snprintf(cmd, sizeof cmd, "diff -r '%s' '%s' >/dev/null", a, b);
    assert_int_equal(system(cmd), 0);
}

static int count_json(const char *dir)
{
    char cmd[1024];
    int n = 0;
    FILE *f;
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.json' 2>/dev/null | wc -l", dir);
    f = popen(cmd, "r");
    if (fscanf(f, "%d", &n) != 1)
        n = 0;
    pclose(f);
    return n;
}

static void test_kill_resume(void **state)
{
    char in[600], ref[600], out[600], p[1024];
    char *paths[1];
    xq_batch_opts o;
    xq_batch_stats stats;
    pid_t child;
    int st, attempt;
    (void)state;
    snprintf(in, sizeof in, "%s/in", tmpdir);
    snprintf(ref, sizeof ref, "%s/ref", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    /* 100 ms a sheet: a loaded machine still sees the batch midway */
    make_inputs(in, 80, "SLOWER");
    snprintf(p, sizeof p, "%s/round1/bad.png", in);
    write_bytes(p, "\x89PNG\r\n\x1a\n", 8);
    snprintf(p, sizeof p, "%s/round2/three.png", in);
    make_png(p, 10, 10, "SLOWER PAGES=3");
    paths[0] = in;
    opts_for(&o, ref, 2);
    assert_int_equal(run_batch(&o, paths, 1, &TPROC, &stats), XQ_EXIT_INPUT);
    assert_int_equal(stats.inputs, 82);

    for (attempt = 0; attempt < 3; attempt++) {
        /* a batch killed with SIGKILL midway (the whole process group) */
        child = fork();
        if (child == 0) {
            xq_batch_opts oc;
            int devnull = open("/dev/null", O_WRONLY);
            setpgid(0, 0);
            dup2(devnull, 2);
            opts_for(&oc, out, 2);
            oc.resume = attempt > 0;
            _exit(xq_batch_run(&oc, paths, 1, xq_batch_sniff_image, &TPROC, NULL));
        }
        setpgid(child, child);
        /* kill once 15, 35, 55 of the 82 inputs are done */
        {
            time_t give_up = time(NULL) + 120;
            while (count_json(out) < 15 + 20 * attempt && time(NULL) < give_up)
                usleep(2000);
        }
        kill(-child, SIGKILL);
        waitpid(child, &st, 0);
        assert_true(WIFSIGNALED(st));
        usleep(50000); /* workers die with their parent (PDEATHSIG) */
        /* no partial file: whatever exists under a final name is complete and
         * equals the uninterrupted run's file */
        {
            char cmd[2048];
            snprintf(cmd, sizeof cmd,
                     "cd '%s' && for f in $(find . -type f ! -name '.xqtmp-*'); do "
                     "case $f in ./index.html|./summary.csv) continue;; esac; "
                     "cmp -s \"$f\" '%s'/\"$f\" || { echo \"partial: $f\"; exit 1; }; done",
                     out, ref);
            assert_int_equal(system(cmd), 0);
        }
    }
    snprintf(p, sizeof p, "%s/summary.csv", out);
    /* resume: finishes the rest; equal to the uninterrupted run */
    opts_for(&o, out, 2);
    o.resume = true;
    assert_int_equal(run_batch(&o, paths, 1, &TPROC, &stats), XQ_EXIT_INPUT);
    assert_true(stats.resumed > 0);
    assert_true(stats.resumed < 82);
    assert_int_equal(stats.resumed + stats.processed, 82);
    assert_same_tree(ref, out);

    /* resume again: everything good is skipped (the bad one is retried) */
    assert_int_equal(run_batch(&o, paths, 1, &TPROC, &stats), XQ_EXIT_INPUT);
    assert_int_equal(stats.resumed, 81);
    assert_same_tree(ref, out);

    /* changed bytes: that input is redone; fewer pages: stale pages go */
    snprintf(p, sizeof p, "%s/round2/three.png", in);
    make_png(p, 10, 10, "SLOW PAGES=1");
    assert_int_equal(run_batch(&o, paths, 1, &TPROC, &stats), XQ_EXIT_INPUT);
    assert_int_equal(stats.resumed, 80);
    snprintf(p, sizeof p, "%s/round2/three-p2.json", out);
    assert_false(exists(p));
    snprintf(p, sizeof p, "%s/round2/three-p3.pgn", out);
    assert_false(exists(p));

    /* other options: nothing is skipped */
    o.threshold = 10;
    assert_int_equal(run_batch(&o, paths, 1, &TPROC, &stats), XQ_EXIT_INPUT);
    assert_int_equal(stats.resumed, 0);
    snprintf(p, sizeof p, "%s/round1/board00.json", out);
    assert_true(file_has(p, "\"threshold\":10"));
}

static void test_shards_and_merge(void **state)
{
    char in[600], whole[600], s1[600], s2[600], s3[600], merged[600], p[1024];
    char *paths[1];
    xq_batch_opts o;
    xq_batch_stats a, b, c;
    (void)state;
    snprintf(in, sizeof in, "%s/in", tmpdir);
    snprintf(whole, sizeof whole, "%s/whole", tmpdir);
    snprintf(s1, sizeof s1, "%s/s1", tmpdir);
    snprintf(s2, sizeof s2, "%s/s2", tmpdir);
    snprintf(s3, sizeof s3, "%s/s3", tmpdir);
    snprintf(merged, sizeof merged, "%s/merged", tmpdir);
    make_inputs(in, 40, NULL);
    snprintf(p, sizeof p, "%s/round1/x.png", in);  make_png(p, 10, 10, "PAGES=2");
    snprintf(p, sizeof p, "%s/round1/x.jpg", in);  write_bytes(p, "\xff\xd8\xff\xd9", 4);
    snprintf(p, sizeof p, "%s/round2/f.png", in);  make_png(p, 10, 10, "FINDINGS");
    snprintf(p, sizeof p, "%s/round2/..dots.png", in); make_png(p, 10, 10, NULL);
    paths[0] = in;
    opts_for(&o, whole, 2);
    run_batch(&o, paths, 1, &TPROC, NULL);
    o.shard_n = 3;
    o.shard_k = 1, o.out_dir = s1;
    run_batch(&o, paths, 1, &TPROC, &a);
    o.shard_k = 2, o.out_dir = s2;
    run_batch(&o, paths, 1, &TPROC, &b);
    o.shard_k = 3, o.out_dir = s3;
    run_batch(&o, paths, 1, &TPROC, &c);
    assert_int_equal(a.inputs + b.inputs + c.inputs, 44);
    assert_true(a.inputs > 0 && b.inputs > 0 && c.inputs > 0);
    {
        char a0[] = "merge", a1[] = "-o", a2[] = "-q";
        char *argv[] = { a0, a1, merged, a2, s1, s2, s3, NULL };
        assert_int_equal(cli_merge(7, argv), XQ_EXIT_OK);
    }
    assert_same_tree(whole, merged);
    /* merging into one of the shard folders works too */
    {
        char a0[] = "merge", a1[] = "-o", a2[] = "-q";
        char *argv[] = { a0, a1, s1, a2, s1, s2, s3, NULL };
        assert_int_equal(cli_merge(7, argv), XQ_EXIT_OK);
        assert_same_tree(whole, s1);
    }
    /* a folder without reports is an error */
    {
        char a0[] = "merge", a1[] = "-o", a2[] = "-q";
        char *argv[] = { a0, a1, merged, a2, in, NULL };
        int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        assert_int_equal(cli_merge(5, argv), XQ_EXIT_FINDINGS);
        dup2(saved, 2);
        close(saved);
        close(devnull);
    }
}

/* ---- pairs of sheets (pair.h) ------------------------------------------- */

static void test_pair_names(void **state)
{
    char key[256];
    (void)state;
    assert_int_equal(xq_pair_owner_from_name("round3/b07-red", key, sizeof key), XQ_RED);
    assert_string_equal(key, "round3/b07");
    assert_int_equal(xq_pair_owner_from_name("round3/b07-Black", key, sizeof key), XQ_BLACK);
    assert_string_equal(key, "round3/b07");
    assert_int_equal(xq_pair_owner_from_name("RED_b07", key, sizeof key), XQ_RED);
    assert_string_equal(key, "b07");
    assert_int_equal(xq_pair_owner_from_name("b07 red copy", key, sizeof key), XQ_RED);
    assert_string_equal(key, "b07 copy");
    assert_int_equal(xq_pair_owner_from_name("r1/b2/red", key, sizeof key), XQ_RED);
    assert_string_equal(key, "r1/b2/game");
    assert_int_equal(xq_pair_owner_from_name("black", key, sizeof key), XQ_BLACK);
    assert_string_equal(key, "game");
    assert_int_equal(xq_pair_owner_from_name("第7台红方", key, sizeof key), XQ_RED);
    assert_string_equal(key, "第7台");
    assert_int_equal(xq_pair_owner_from_name("第7台-黑", key, sizeof key), XQ_BLACK);
    assert_string_equal(key, "第7台");
    assert_int_equal(xq_pair_owner_from_name("紅方_07", key, sizeof key), XQ_RED);
    assert_string_equal(key, "07");
    /* no owner word: the key is the name itself */
    assert_int_equal(xq_pair_owner_from_name("redmond/board", key, sizeof key), -1);
    assert_string_equal(key, "redmond/board");
    assert_int_equal(xq_pair_owner_from_name("fred-blackburn", key, sizeof key), -1);
    assert_int_equal(xq_pair_owner_from_name("黑龙江-7", key, sizeof key), -1);
    assert_int_equal(xq_pair_owner_from_name("red/board07", key, sizeof key), -1); /* folder */
    /* both sides named: unknown */
    assert_int_equal(xq_pair_owner_from_name("red-vs-black", key, sizeof key), -1);
    assert_int_equal(xq_pair_owner_from_name("b7-red-red", key, sizeof key), -1);
    assert_int_equal(xq_pair_owner_from_name(NULL, NULL, 0), -1);
    assert_string_equal(xq_pair_owner_str(XQ_RED), "red");
    assert_string_equal(xq_pair_owner_str(XQ_BLACK), "black");
    assert_null(xq_pair_owner_str(-1));
    {
        xq_batch_input a = { (char *)"x", (char *)"r/b7-red.png", (char *)"r/b7-red", false };
        xq_batch_input b = { (char *)"y", (char *)"r/b7-black.jpg", (char *)"r/b7-black", false };
        xq_batch_input c = { (char *)"z", (char *)"r/b8.png", (char *)"r/b8", false };
        char ka[256], kb[256], kc[256];
        xq_pair_shard_key(&a, ka, sizeof ka);
        xq_pair_shard_key(&b, kb, sizeof kb);
        xq_pair_shard_key(&c, kc, sizeof kc);
        assert_string_equal(ka, kb);
        assert_string_equal(kc, "r/b8.png");
    }
}

static void test_pair_header_key(void **state)
{
    char *a, *b, *c;
    (void)state;
    a = xq_pair_header_key("Open 2024", "3", "7", "Li Wei", "Wang Hao");
    b = xq_pair_header_key(" open  2024 ", "3.", "7", "LI WEI", "wang hao");
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    c = xq_pair_header_key("Open 2024", "3", "8", "Li Wei", "Wang Hao");
    assert_non_null(c);
    assert_string_not_equal(a, c);
    xq_free(a); xq_free(b); xq_free(c);
    a = xq_pair_header_key("全国赛", "第３轮", "", "许银川", "吕钦");
    b = xq_pair_header_key("全国赛，", "第3轮", NULL, "许 银川", "吕钦。");
    assert_non_null(a);
    assert_string_equal(a, b);
    xq_free(a); xq_free(b);
    /* not enough to pair on: a player missing, or neither round nor board */
    assert_null(xq_pair_header_key("E", "3", "7", "", "Wang"));
    assert_null(xq_pair_header_key("E", "3", "7", "Li", "  "));
    assert_null(xq_pair_header_key("E", "", " ", "Li", "Wang"));
}

static void free_inputs(xq_batch_inputs *in)
{
    xq_batch_inputs_free(in);
}

static void pair_add_input(xq_batch_inputs *in, const char *name)
{
    char src[256];
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 8;
        in->v = xq_realloc(in->v, in->cap * sizeof *in->v);
        assert_non_null(in->v);
    }
    snprintf(src, sizeof src, "%s.png", name);
    in->v[in->n].path = xq_strdup(src);
    in->v[in->n].source = xq_strdup(src);
    in->v[in->n].name = xq_strdup(name);
    in->v[in->n].named = false;
    in->n++;
}

static void note_count(void *ud, const char *line)
{
    (void)line;
    ++*(int *)ud;
}

static void test_pair_find(void **state)
{
    xq_batch_inputs in;
    xq_pair_header hdr[9];
    xq_batch_pair *pairs = NULL;
    size_t np = 0, i;
    int notes = 0;
    (void)state;
    memset(&in, 0, sizeof in);
    pair_add_input(&in, "a/b1-black");    /* 0 */
    pair_add_input(&in, "a/b1-red");      /* 1 */
    pair_add_input(&in, "a/b2-red");      /* 2: two Red sheets for b2 */
    pair_add_input(&in, "a/b2_red");      /* 3 */
    pair_add_input(&in, "a/b2-black");    /* 4 */
    pair_add_input(&in, "b/x");           /* 5: same header as 6 */
    pair_add_input(&in, "c/y");           /* 6 */
    pair_add_input(&in, "c/z");           /* 7: header read badly */
    pair_add_input(&in, "c/b1-black");    /* 8: a different folder than a/b1 */
    memset(hdr, 0, sizeof hdr);
    for (i = 0; i < 9; i++)
        hdr[i].owner = -1;
    hdr[5].key = xq_pair_header_key("E", "3", "7", "Li", "Wang");
    hdr[6].key = xq_pair_header_key("e", "3", "7", "li", "wang");
    hdr[7].key = xq_pair_header_key("E", "3", "7", "Li", "Wan9");
    /* rule 1 only */
    assert_int_equal(xq_pair_find(&in, NULL, note_count, &notes, &pairs, &np), XQ_OK);
    assert_int_equal(np, 1);
    assert_string_equal(pairs[0].in.name, "a/b1.pair");
    assert_string_equal(pairs[0].in.source, "a/b1-red.png + a/b1-black.png");
    assert_int_equal(pairs[0].idx[0], 1);   /* Red's first */
    assert_int_equal(pairs[0].idx[1], 0);
    assert_int_equal(pairs[0].owner[0], XQ_RED);
    assert_int_equal(pairs[0].owner[1], XQ_BLACK);
    assert_false(pairs[0].by_header);
    assert_null(pairs[0].in.path);
    assert_int_equal(notes, 1);             /* b2 is ambiguous */
    xq_pair_free(pairs, np);
    /* both rules */
    notes = 0;
    assert_int_equal(xq_pair_find(&in, hdr, note_count, &notes, &pairs, &np), XQ_OK);
    assert_int_equal(np, 2);
    assert_string_equal(pairs[0].in.name, "a/b1.pair");
    assert_string_equal(pairs[1].in.name, "b/x.pair");
    assert_true(pairs[1].by_header);
    assert_int_equal(pairs[1].idx[0], 5);
    assert_int_equal(pairs[1].idx[1], 6);
    xq_pair_free(pairs, np);
    /* the same known owner twice is no pair */
    hdr[5].owner = hdr[6].owner = XQ_BLACK;
    assert_int_equal(xq_pair_find(&in, hdr, NULL, NULL, &pairs, &np), XQ_OK);
    assert_int_equal(np, 1);
    xq_pair_free(pairs, np);
    /* a pair name that is an input's own NAME is not used */
    pair_add_input(&in, "a/b1.pair");
    notes = 0;
    assert_int_equal(xq_pair_find(&in, NULL, note_count, &notes, &pairs, &np), XQ_OK);
    assert_int_equal(np, 0);
    assert_int_equal(notes, 2);
    xq_pair_free(pairs, np);
    for (i = 0; i < 9; i++)
        xq_free(hdr[i].key);
    free_inputs(&in);
}

/* A move list of n plies: game g's moves (distinct per g after ply 10),
 * with ply "wrong" (0-based; -1 none) changed and ply "gap" without a move. */
static char *moves_of(int g, int n, int wrong, int gap)
{
    xq_strbuf sb = XQ_STRBUF_INIT;
    int i;
    for (i = 0; i < n; i++) {
        char m[8];
        if (i == gap)
            snprintf(m, sizeof m, "-");
        else
            snprintf(m, sizeof m, "%c%d%c%d", 'a' + (i < 10 ? i % 9 : (i * 7 + g * 3) % 9),
                     (i + (i < 10 ? 0 : g)) % 10, 'a' + (i + (i == wrong)) % 9, (i * 3) % 10);
        assert_int_equal(xq_strbuf_printf(&sb, "%s%s", i ? " " : "", m), XQ_OK);
    }
    return xq_strbuf_take(&sb);
}

static void test_pair_moves(void **state)
{
    xq_batch_inputs in;
    xq_pair_header hdr[6];
    xq_batch_pair *pairs = NULL;
    size_t np = 0, i;
    char *a = moves_of(1, 80, -1, -1), *b = moves_of(1, 78, 40, 50), *c = moves_of(2, 80, -1, -1);
    char *d, *n1;
    double agree;
    (void)state;
    /* the same game with an error and a blank; another game; too short */
    assert_true(xq_pair_same_moves(a, b, &agree));
    assert_true(agree > 0.95 && agree < 1.0);
    assert_false(xq_pair_same_moves(a, c, &agree));
    assert_true(agree < 0.5);
    d = moves_of(1, 29, -1, -1);
    assert_false(xq_pair_same_moves(d, d, NULL));
    xq_free(d);
    d = moves_of(1, 60, -1, -1);     /* same moves but much shorter */
    assert_false(xq_pair_same_moves(a, d, NULL));
    xq_free(d);
    assert_false(xq_pair_same_moves(NULL, a, NULL));
    n1 = xq_pair_norm(" Round ３. ");
    assert_string_equal(n1, "round3");
    xq_free(n1);

    memset(&in, 0, sizeof in);
    pair_add_input(&in, "x/scan001");   /* 0: game 1 */
    pair_add_input(&in, "x/scan002");   /* 1: game 2 */
    pair_add_input(&in, "y/scan101");   /* 2: game 1, other sheet */
    pair_add_input(&in, "y/scan102");   /* 3: game 3 */
    pair_add_input(&in, "y/scan103");   /* 4: game 2 but another board read */
    pair_add_input(&in, "y/scan104");   /* 5: game 3 again, same bytes as 3 */
    memset(hdr, 0, sizeof hdr);
    for (i = 0; i < 6; i++)
        hdr[i].owner = -1;
    hdr[0].moves = moves_of(1, 80, -1, -1);
    hdr[2].moves = moves_of(1, 78, 40, 50);
    hdr[1].moves = moves_of(2, 64, -1, -1);
    hdr[4].moves = moves_of(2, 64, 33, -1);
    hdr[1].board = xq_pair_norm("7");
    hdr[4].board = xq_pair_norm("8");
    hdr[3].moves = moves_of(3, 90, -1, -1);
    hdr[5].moves = moves_of(3, 90, -1, -1);
    hdr[3].sha256 = xq_strdup("abc");
    hdr[5].sha256 = xq_strdup("abc");
    assert_int_equal(xq_pair_find(&in, hdr, NULL, NULL, &pairs, &np), XQ_OK);
    assert_int_equal(np, 1);
    assert_string_equal(pairs[0].in.name, "x/scan001.pair");
    assert_true(pairs[0].by_moves);
    assert_false(pairs[0].by_header);
    assert_int_equal(pairs[0].idx[0] + pairs[0].idx[1], 2);
    xq_pair_free(pairs, np);
    /* a third sheet of game 1: no pair (which two go together?) */
    pair_add_input(&in, "z/scan201");
    {
        xq_pair_header h7[7];
        int notes = 0;
        memcpy(h7, hdr, sizeof hdr);
        memset(&h7[6], 0, sizeof h7[6]);
        h7[6].owner = -1;
        h7[6].moves = moves_of(1, 80, 12, -1);
        assert_int_equal(xq_pair_find(&in, h7, note_count, &notes, &pairs, &np), XQ_OK);
        assert_int_equal(np, 0);
        assert_true(notes > 0);
        xq_free(h7[6].moves);
    }
    for (i = 0; i < 6; i++) {
        xq_free(hdr[i].moves);
        xq_free(hdr[i].board);
        xq_free(hdr[i].sha256);
    }
    xq_free(a);
    xq_free(b);
    xq_free(c);
    free_inputs(&in);
}

/* The test pair processor: GAME.pair.json names both sheets and SHAs. */
static xq_status tp_run_pair(void *state, xq_batch_job *job, char *err, size_t errlen)
{
    const xq_batch_info *info = xq_batch_job_info(job);
    xq_strbuf sb = XQ_STRBUF_INIT;
    xq_status st;
    char both[200], sha[65];
    (void)state;
    (void)err;
    (void)errlen;
    assert_non_null(info->pair);
    snprintf(both, sizeof both, "%s %s", info->pair_sha256[0], info->pair_sha256[1]);
    xq_sha256_hex(both, strlen(both), sha);
    assert_string_equal(sha, info->sha256);
    st = xq_batch_emit(job, "", ".pgn", "pair\n", 5);
    if (!st) st = xq_batch_emit(job, "", ".html", "pair\n", 5);
    if (!st) st = xq_strbuf_printf(&sb,
        "{\"schema\":\"xqscan/1\",\"xqscan\":{\"version\":\"%s\",\"input_sha256\":\"%s\","
        "\"options\":%s},\"source\":", info->version, info->sha256, info->options_json);
    if (!st) st = xq_json_put_str(&sb, info->in->source);
    if (!st) st = xq_strbuf_printf(&sb,
        ",\"status\":\"ok\",\"owner\":null,\"header\":{},\"plies\":[],"
        "\"unrecorded\":{\"total\":0,\"exceeded\":false},\"findings\":[],"
        "\"end\":{\"position\":\"normal\"},\"pair\":{\"sheets\":[");
    if (!st) st = xq_json_put_str(&sb, info->pair_in[0]->source);
    if (!st) st = xq_strbuf_puts(&sb, ",");
    if (!st) st = xq_json_put_str(&sb, info->pair_in[1]->source);
    if (!st) st = xq_strbuf_puts(&sb, "]}}\n");
    if (!st) st = xq_batch_emit(job, "", ".json", xq_strbuf_cstr(&sb), sb.len);
    xq_strbuf_free(&sb);
    return st;
}

static int run_batch_pairs(const xq_batch_opts *o, char *const *paths, int n,
                           xq_batch_stats *stats)
{
    char path[512];
    int saved = dup(2), fd, rc;
    snprintf(path, sizeof path, "%s/stderr.txt", tmpdir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    fflush(stderr);
    dup2(fd, 2);
    close(fd);
    rc = xq_batch_run_pairs(o, paths, n, xq_batch_sniff_image, &TPROC, tp_run_pair, stats);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    return rc;
}

static void test_run_pairs(void **state)
{
    char in[600], out[600], s[3][600], merged[600], p[1024];
    char *paths[1];
    xq_batch_opts o;
    xq_batch_stats st;
    int k, found = 0;
    (void)state;
    snprintf(in, sizeof in, "%s/in", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(merged, sizeof merged, "%s/merged", tmpdir);
    make_inputs(in, 12, NULL);
    sh("mkdir -p '%s/r1'", in);
    snprintf(p, sizeof p, "%s/r1/b07-red.png", in);   make_png(p, 10, 10, "red sheet");
    snprintf(p, sizeof p, "%s/r1/b07-black.png", in); make_png(p, 10, 10, "black sheet");
    snprintf(p, sizeof p, "%s/r1/b08-red.png", in);   make_png(p, 10, 10, "REFUSE");
    snprintf(p, sizeof p, "%s/r1/b08-black.png", in); make_png(p, 10, 10, "ok");
    paths[0] = in;
    opts_for(&o, out, 2);
    assert_int_equal(run_batch_pairs(&o, paths, 1, &st), XQ_EXIT_INPUT); /* b08-red refused */
    assert_int_equal(st.inputs, 16);
    assert_int_equal(st.pairs, 1);           /* b08: one sheet failed, no pair */
    assert_int_equal(st.sheets, 16);
    snprintf(p, sizeof p, "%s/r1/b07.pair.json", out);
    assert_true(exists(p));
    assert_string_equal(json_at(p, "source"), "r1/b07-red.png + r1/b07-black.png");
    assert_true(file_has(p, "\"r1/b07-red.png\",\"r1/b07-black.png\""));
    snprintf(p, sizeof p, "%s/r1/b07.pair.pgn", out);
    assert_true(exists(p));
    snprintf(p, sizeof p, "%s/r1/b08.pair.json", out);
    assert_false(exists(p));
    snprintf(p, sizeof p, "%s/summary.csv", out);
    assert_true(file_has(p, "r1/b07-red.png + r1/b07-black.png"));

    /* resume: the pair is skipped too; a changed sheet redoes its pair */
    o.resume = true;
    assert_int_equal(run_batch_pairs(&o, paths, 1, &st), XQ_EXIT_INPUT);
    assert_int_equal(st.pairs, 1);
    assert_int_equal(st.pairs_resumed, 1);
    assert_int_equal(st.resumed, 15);
    snprintf(p, sizeof p, "%s/r1/b07-black.png", in); make_png(p, 10, 10, "black sheet v2");
    assert_int_equal(run_batch_pairs(&o, paths, 1, &st), XQ_EXIT_INPUT);
    assert_int_equal(st.pairs_resumed, 0);
    assert_int_equal(st.resumed, 14);
    snprintf(p, sizeof p, "%s/r1/b08-red.png", in);   make_png(p, 10, 10, "fixed");
    assert_int_equal(run_batch_pairs(&o, paths, 1, &st), XQ_EXIT_OK);
    assert_int_equal(st.pairs, 2);
    assert_int_equal(st.pairs_resumed, 1);

    /* shards keep both sheets of a named pair together; merge = whole run */
    o.resume = false;
    o.shard_n = 3;
    for (k = 0; k < 3; k++) {
        snprintf(s[k], sizeof s[k], "%s/s%d", tmpdir, k + 1);
        o.shard_k = k + 1;
        o.out_dir = s[k];
        assert_int_equal(run_batch_pairs(&o, paths, 1, &st), XQ_EXIT_OK);
        found += (int)st.pairs;
    }
    assert_int_equal(found, 2);
    {
        /* getopt keeps state between parses (an option cluster left half
         * read by an earlier test); optind 0 re-initialises it fully */
        char d0[] = "x", *dv[] = { d0, NULL };
        optind = 0;
        (void)getopt(1, dv, "");
    }
    {
        char a0[] = "merge", a1[] = "-o", a2[] = "-q";
        char *argv[] = { a0, a1, merged, a2, s[0], s[1], s[2], NULL };
        assert_int_equal(cli_merge(7, argv), XQ_EXIT_OK);
    }
    assert_same_tree(out, merged);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sha256_vectors, setup, teardown),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_escape_name),
        cmocka_unit_test(test_shard_partition),
        cmocka_unit_test(test_parse_args),
        cmocka_unit_test_setup_teardown(test_image_check, setup, teardown),
        cmocka_unit_test_setup_teardown(test_collect, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_at, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clean_temps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_mixed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_named_unreadable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_crash_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_init_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill_resume, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shards_and_merge, setup, teardown),
        cmocka_unit_test(test_pair_names),
        cmocka_unit_test(test_pair_header_key),
        cmocka_unit_test(test_pair_find),
        cmocka_unit_test(test_pair_moves),
        cmocka_unit_test_setup_teardown(test_run_pairs, setup, teardown),
    };
    /* e.g. XQ_TEST_FILTER=test_run_pairs (test_shard.h) */
    return xq_run_tests("test_cli_batch", tests, sizeof tests / sizeof tests[0]);
}

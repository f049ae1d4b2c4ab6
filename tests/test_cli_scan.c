/* test_cli_scan.c - xq_scan_file() and the scanner (include/xqscan/xqscan.h,
 * cli/scan_file.c): one image through ocr -> verify -> report. Needs
 * Tesseract (label ocr). Inputs: xqscan's own blank form (xq_form_write_png),
 * the committed samples/ when present, and bad files. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../cli/scan_file.c"
#include "../cli/batch_json.c"
#include "xqscan/xq_ocr.h"

typedef struct {
    int calls;
    int pages[16];
    char exts[16][8];
    char *json[16];
    int fail_at;          /* make the n-th call fail (0: never) */
} sink;

static xq_status collect(void *ud, int page, const char *ext, const char *data, size_t len)
{
    sink *s = ud;
    int i = s->calls++;
    if (s->fail_at && s->calls == s->fail_at)
        return XQ_EIO;
    if (i < 16) {
        s->pages[i] = page;
        snprintf(s->exts[i], sizeof s->exts[i], "%s", ext);
        if (!strcmp(ext, ".json"))
            s->json[i] = strndup(data, len);
    }
    return XQ_OK;
}

static void sink_free(sink *s)
{
    int i;
    for (i = 0; i < 16; i++)
        free(s->json[i]);
    memset(s, 0, sizeof *s);
}

static xq_scanner *scanner(void)
{
    xq_scanner *sc = NULL;
    xq_scan_options o;
    char err[256];
    xq_scan_options_init(&o);
    assert_int_equal(xq_scanner_create(&sc, &o, err, sizeof err), XQ_OK);
    assert_non_null(sc);
    return sc;
}

static void test_blank_form(void **state)
{
    char path[] = "/tmp/xq_scan_form_XXXXXX.png", err[256];
    xq_scanner *sc = scanner();
    xq_scan_input in = { "forms/blank.png", "00ff", "{\"threshold\":16}", "../index.html", NULL };
    sink s;
    xq_json *j = NULL;
    int fd, flags = -1;
    size_t nsheets = 0;
    (void)state;
    memset(&s, 0, sizeof s);
    fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(xq_form_write_png(path), XQ_OK);
    assert_int_equal(xq_scan_file(sc, path, &in, collect, &s, &flags, &nsheets, err, sizeof err),
                     XQ_OK);
    assert_int_equal(nsheets, 1);
    assert_int_equal(s.calls, 3);
    assert_string_equal(s.exts[0], ".pgn");
    assert_string_equal(s.exts[1], ".html");
    assert_string_equal(s.exts[2], ".json");  /* the JSON last */
    assert_int_equal(s.pages[2], 1);
    assert_int_equal(xq_json_parse(s.json[2], strlen(s.json[2]), &j), XQ_OK);
    assert_string_equal(xq_json_str(xq_json_get(j, "schema")), "xqscan/1");
    assert_string_equal(xq_json_str(xq_json_get(j, "status")), "ok");
    assert_string_equal(xq_json_str(xq_json_get(j, "source")), "forms/blank.png");
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "xqscan"), "input_sha256")), "00ff");
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "xqscan"), "version")), XQ_VERSION);
    /* an empty form is not a clean sheet: nothing was read */
    assert_int_equal(xq_json_len(xq_json_get(j, "plies")), 0);
    assert_string_equal(xq_json_str(xq_json_get(xq_json_get(j, "findings")->child, "code")),
                        "no_moves_read");
    assert_true(flags & XQ_SCAN_NEEDS_ARBITER);
    xq_json_free(&j);
    /* an emit failure stops the scan with its status */
    sink_free(&s);
    s.fail_at = 2;
    assert_int_equal(xq_scan_file(sc, path, &in, collect, &s, &flags, &nsheets, err, sizeof err),
                     XQ_EIO);
    assert_int_equal(nsheets, 0);
    sink_free(&s);
    unlink(path);
    xq_scanner_destroy(&sc);
    assert_null(sc);
    xq_scanner_destroy(&sc);
}

static void test_bad_inputs(void **state)
{
    char path[] = "/tmp/xq_scan_bad_XXXXXX.png", err[256];
    xq_scanner *sc = scanner();
    sink s;
    int fd, flags;
    (void)state;
    memset(&s, 0, sizeof s);
    assert_int_equal(xq_scan_file(sc, "/nonexistent/x.png", NULL, collect, &s, &flags, NULL,
                                  err, sizeof err), XQ_EIO);
    assert_true(err[0] != '\0');
    fd = mkstemps(path, 4);
    assert_int_equal(write(fd, "just text\n", 10), 10);
    close(fd);
    assert_int_equal(xq_scan_file(sc, path, NULL, collect, &s, &flags, NULL, err, sizeof err),
                     XQ_EIMAGE);
    assert_true(err[0] != '\0');
    assert_int_equal(s.calls, 0);
    assert_int_equal(xq_scan_file(NULL, path, NULL, collect, &s, &flags, NULL, err, sizeof err),
                     XQ_EINVAL);
    unlink(path);
    xq_scanner_destroy(&sc);
}

static void test_options(void **state)
{
    xq_scanner *sc = NULL;
    xq_scan_options o;
    char err[256];
    (void)state;
    xq_scan_options_init(&o);
    assert_int_equal(o.threshold, 16);
    o.notation = "klingon";
    assert_int_equal(xq_scanner_create(&sc, &o, err, sizeof err), XQ_EINVAL);
    assert_null(sc);
    assert_non_null(strstr(err, "klingon"));
    xq_scan_options_init(&o);
    o.corrections = "/nonexistent/corrections.json";
    assert_int_equal(xq_scanner_create(&sc, &o, err, sizeof err), XQ_EIO);
    assert_null(sc);
    assert_string_equal(xq_version(), XQ_VERSION);
    assert_string_equal(norm_result("红胜"), "1-0");
    assert_string_equal(norm_result(" 0-1 "), "0-1");
    assert_string_equal(norm_result("和棋"), "1/2-1/2");
    assert_null(norm_result("???"));
    assert_null(norm_result(NULL));
}

/* The committed samples: each is read as at least one sheet with plies. */
static void test_samples(void **state)
{
    static const char *const names[] = { "kai-form.jpg", "errors.jpg" };
    xq_scanner *sc = scanner();
    size_t i;
    (void)state;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024], err[256];
        sink s;
        xq_json *j = NULL;
        int flags;
        size_t n;
        snprintf(path, sizeof path, "%s/samples/%s", XQ_SOURCE_DIR, names[i]);
        if (access(path, R_OK) != 0)
            continue; /* samples/ not there yet */
        memset(&s, 0, sizeof s);
        assert_int_equal(xq_scan_file(sc, path, NULL, collect, &s, &flags, &n, err, sizeof err),
                         XQ_OK);
        assert_int_equal(n, 1);
        assert_int_equal(xq_json_parse(s.json[2], strlen(s.json[2]), &j), XQ_OK);
        assert_true(xq_json_len(xq_json_get(j, "plies")) >= 10);
        xq_json_free(&j);
        sink_free(&s);
    }
    xq_scanner_destroy(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_blank_form),
        cmocka_unit_test(test_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Tests of ocr/form.c: the geometry of `xqscan form` equals
 * tools/render/form_geometry.json rectangle for rectangle, and a rendered
 * blank form reads back as 240 blank cells at the JSON's cell rectangles. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <leptonica/allheaders.h>

#include "../ocr/ocr_internal.h"

#define GEOM XQ_SOURCE_DIR "/tools/render/form_geometry.json"

/* The JSON is written one item per line (xqform.py dumps()): the section a
 * line belongs to is the last "key": [ seen. */
typedef struct {
    ocr_rect lines[512], cells[512], guides[2048], fid[8], texts[512];
    ocr_rect hrect[16], hlabel[16], hwrite[16];
    char     text[512][48];
    int      theight[512];
    int      nl, nc, ng, nf, nt, nh;
} geom;

static geom G;

static int rect_after(const char *s, const char *key, ocr_rect *r)
{
    const char *p = strstr(s, key);
    if (!p)
        return 0;
    p += strlen(key);
    return sscanf(p, " [%d, %d, %d, %d]", &r->x, &r->y, &r->w, &r->h) == 4;
}

static int load(void **state)
{
    FILE *f = fopen(GEOM, "r");
    static char line[4096];
    char section[32] = "";
    (void)state;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        char *k = strstr(line, "\": [");
        if (line[0] == ' ' && line[1] == ' ' && line[2] == '"' && k) {
            size_t n = (size_t)(k - line - 3);
            if (n >= sizeof section)
                n = sizeof section - 1;
            memcpy(section, line + 3, n);
            section[n] = '\0';
            continue;
        }
        if (!strcmp(section, "lines")) {
            if (sscanf(line, " [%d, %d, %d, %d]", &G.lines[G.nl].x, &G.lines[G.nl].y,
                       &G.lines[G.nl].w, &G.lines[G.nl].h) == 4)
                G.nl++;
        } else if (!strcmp(section, "fiducials")) {
            G.nf += rect_after(line, "\"rect\":", &G.fid[G.nf]);
        } else if (!strcmp(section, "header")) {
            if (rect_after(line, "\"rect\":", &G.hrect[G.nh])
                && rect_after(line, "\"label_rect\":", &G.hlabel[G.nh])
                && rect_after(line, "\"write_rect\":", &G.hwrite[G.nh]))
                G.nh++;
        } else if (!strcmp(section, "cells")) {
            const char *g = strstr(line, "\"guides\": [");
            if (rect_after(line, "\"rect\":", &G.cells[G.nc]) && g) {
                int k2;
                g += strlen("\"guides\": [");
                for (k2 = 0; k2 < 4; k2++) {
                    ocr_rect *r = &G.guides[G.nc * 4 + k2];
                    if (sscanf(g, "[%d, %d, %d, %d]", &r->x, &r->y, &r->w, &r->h) != 4)
                        break;
                    g = strchr(g, ']');
                    g += 3;                         /* "], " */
                }
                G.nc++;
            }
        } else if (!strcmp(section, "texts")) {
            const char *t = strstr(line, "\"text\": \"");
            const char *h = strstr(line, "\"height\":");
            if (t && h && rect_after(line, "\"rect\":", &G.texts[G.nt])) {
                const char *e;
                t += strlen("\"text\": \"");
                e = strchr(t, '"');
                snprintf(G.text[G.nt], sizeof G.text[G.nt], "%.*s", (int)(e - t), t);
                G.theight[G.nt] = atoi(h + strlen("\"height\":"));
                G.nt++;
            }
        }
    }
    fclose(f);
    return G.nl > 0 && G.nc > 0 ? 0 : -1;
}

static void same_rect(ocr_rect a, ocr_rect b)
{
    assert_int_equal(a.x, b.x);
    assert_int_equal(a.y, b.y);
    assert_int_equal(a.w, b.w);
    assert_int_equal(a.h, b.h);
}

static void test_geometry_equals_json(void **state)
{
    static ocr_rect lines[512], cells[512], guides[2048], fid[8];
    static ocr_rect hr[16], hl[16], hw[16];
    static ocr_form_text texts[512];
    int i, n;
    (void)state;
    n = ocr_form_lines(lines, 512);
    assert_int_equal(n, G.nl);
    for (i = 0; i < n; i++)
        same_rect(lines[i], G.lines[i]);
    n = ocr_form_cells(cells, guides, 512);
    assert_int_equal(n, G.nc);
    assert_int_equal(n, 240);
    for (i = 0; i < n; i++)
        same_rect(cells[i], G.cells[i]);
    for (i = 0; i < 4 * n; i++)
        same_rect(guides[i], G.guides[i]);
    assert_int_equal(ocr_form_fiducials(fid, 8), G.nf);
    for (i = 0; i < G.nf; i++)
        same_rect(fid[i], G.fid[i]);
    assert_int_equal(ocr_form_header(hr, hl, hw, NULL, 16), G.nh);
    for (i = 0; i < G.nh; i++) {
        same_rect(hr[i], G.hrect[i]);
        same_rect(hl[i], G.hlabel[i]);
        same_rect(hw[i], G.hwrite[i]);
    }
    n = ocr_form_texts(texts, 512);
    assert_int_equal(n, G.nt);
    for (i = 0; i < n; i++) {
        assert_string_equal(texts[i].text, G.text[i]);
        same_rect(texts[i].r, G.texts[i]);
        assert_int_equal(texts[i].height, G.theight[i]);
    }
}

static void test_render_reads_back(void **state)
{
    PIX *pix = NULL;
    xq_ocr *ocr = NULL;
    xq_sheet *sh = NULL;
    char err[200];
    size_t i;
    (void)state;
    assert_int_equal(xq_form_render(&pix), XQ_OK);
    assert_int_equal(pixGetWidth(pix), 2480);
    assert_int_equal(pixGetHeight(pix), 3508);
    assert_int_equal(xq_ocr_create(&ocr, NULL), XQ_OK);
    assert_int_equal(xq_ocr_read_pix(ocr, pix, 0, &sh, err, sizeof err), XQ_OK);
    assert_int_equal(xq_sheet_nblocks(sh), 3);
    assert_int_equal(xq_sheet_ncells(sh), 240);
    for (i = 0; i < 240; i++) {
        int box[4];
        assert_int_equal(xq_sheet_cell_box(sh, i, box), XQ_OK);
        /* exact geometry, give or take one pixel of line-centre rounding */
        assert_true(abs(box[0] - G.cells[i].x) <= 1);
        assert_true(abs(box[1] - G.cells[i].y) <= 1);
        assert_true(abs(box[2] - G.cells[i].w) <= 2);
        assert_true(abs(box[3] - G.cells[i].h) <= 2);
        assert_true(xq_sheet_cell_blank(sh, i));   /* guides are not ink */
    }
    xq_sheet_destroy(&sh);
    assert_null(sh);
    xq_ocr_destroy(&ocr);
    pixDestroy(&pix);
}

static void test_write_png(void **state)
{
    char path[] = "/tmp/xq_form_test_XXXXXX";
    int fd = mkstemp(path);
    PIX *pix;
    (void)state;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(xq_form_write_png(path), XQ_OK);
    pix = pixRead(path);
    assert_non_null(pix);
    assert_int_equal(pixGetWidth(pix), 2480);
    pixDestroy(&pix);
    unlink(path);
    assert_int_equal(xq_form_write_png("/nonexistent/dir/form.png"), XQ_EIO);
    assert_int_equal(xq_form_write_png(NULL), XQ_EINVAL);
    assert_int_equal(xq_form_render(NULL), XQ_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_equals_json),
        cmocka_unit_test(test_render_reads_back),
        cmocka_unit_test(test_write_png),
    };
    return cmocka_run_group_tests(tests, load, NULL);
}

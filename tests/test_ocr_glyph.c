/* Tests of ocr/glyph.c: the class table matches the embedded sprite's
 * manifest, code points fold to classes and variant groups, features are
 * normalised, and simple drawn glyphs are classified as what they are. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "../ocr/ocr_internal.h"

static void test_classes_match_manifest(void **state)
{
    FILE *f = fopen(XQ_SOURCE_DIR "/ocr/data/glyphs.txt", "r");
    char line[64];
    int i = 0, tile, cols;
    (void)state;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%d %d\n", &tile, &cols), 2);
    assert_int_equal(tile, OCR_NORM);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        assert_true(i < ocr_glyph_class_count());
        assert_string_equal(line, ocr_glyph_classes[i]);
        i++;
    }
    fclose(f);
    assert_int_equal(i, ocr_glyph_class_count());
    assert_true(i <= OCR_MAX_CLASSES);
}

static int cls(const char *s)
{
    uint32_t cp = 0;
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80)
        cp = u[0];
    else if ((u[0] & 0xe0) == 0xc0)
        cp = ((u[0] & 0x1fu) << 6) | (u[1] & 0x3fu);
    else
        cp = ((u[0] & 0x0fu) << 12) | ((u[1] & 0x3fu) << 6) | (u[2] & 0x3fu);
    return ocr_glyph_class_of(cp);
}

static void test_folding(void **state)
{
    (void)state;
    assert_int_equal(cls("８"), cls("8"));       /* full-width digit */
    assert_int_equal(cls("c"), cls("C"));        /* WXF letter case */
    assert_true(cls("8") >= 0);
    assert_int_equal(cls("字"), -1);
    assert_int_equal(ocr_glyph_group(cls("馬")), ocr_glyph_group(cls("马")));
    assert_int_equal(ocr_glyph_group(cls("傌")), ocr_glyph_group(cls("马")));
    assert_int_equal(ocr_glyph_group(cls("俥")), ocr_glyph_group(cls("车")));
    assert_int_equal(ocr_glyph_group(cls("進")), ocr_glyph_group(cls("进")));
    assert_int_equal(ocr_glyph_group(cls("後")), ocr_glyph_group(cls("后")));
    assert_int_equal(ocr_glyph_group(cls("包")), ocr_glyph_group(cls("炮")));
    assert_true(ocr_glyph_group(cls("帅")) != ocr_glyph_group(cls("将")));
    assert_true(ocr_glyph_group(cls("八")) != ocr_glyph_group(cls("8")));
    assert_int_equal(ocr_glyph_group(-1), -1);
}

/* Draw horizontal bars (一 二 三) with a given stroke width and slant. */
static void bars(ocr_img *im, int n, int stroke, int slant)
{
    int b, x, y;
    memset(im->px, 255, (size_t)im->w * im->h);
    for (b = 0; b < n; b++) {
        /* 二 is about 0.55 as high as wide, 三 about 0.8 */
        int span = n == 2 ? 28 : 42, top = (im->h - span) / 2;
        int yc = n == 1 ? im->h / 2 : top + b * span / (n - 1);
        int len = b == n - 1 ? im->w - 8 : im->w - 14;   /* last bar longest */
        for (x = (im->w - len) / 2; x < (im->w + len) / 2; x++)
            for (y = yc - stroke / 2; y <= yc + stroke / 2; y++) {
                int yy = y + (x - im->w / 2) * slant / im->w;
                if (yy >= 0 && yy < im->h)
                    im->px[yy * im->w + x] = 0;
            }
    }
}

static void test_classify_drawn(void **state)
{
    ocr_glyph_model m;
    uint8_t buf[64 * 64];
    ocr_img im = { 64, 64, buf };
    float feat[OCR_FEAT_DIM], logp[OCR_MAX_CLASSES], sum = 0;
    int n, stroke, k;
    (void)state;
    assert_int_equal(ocr_glyph_model_load(&m), XQ_OK);
    assert_true(m.nproto >= m.nclass * 8);
    memset(buf, 255, sizeof buf);
    assert_false(ocr_glyph_features(&im, 0, 0, 64, 64, feat));
    for (n = 2; n <= 3; n++)
        for (stroke = 3; stroke <= 7; stroke += 4) {
            int best = 0;
            bars(&im, n, stroke, n == 3 ? 4 : -3);
            assert_true(ocr_glyph_features(&im, 0, 0, 64, 64, feat));
            for (sum = 0, k = 0; k < OCR_FEAT_DIM; k++)
                sum += feat[k] * feat[k];
            assert_true(fabsf(sum - 1.0f) < 1e-3f);
            ocr_glyph_classify(&m, feat, logp);
            for (sum = 0, k = 0; k < m.nclass; k++) {
                sum += expf(logp[k]);
                if (logp[k] > logp[best])
                    best = k;
            }
            assert_true(fabsf(sum - 1.0f) < 1e-3f);       /* log-probabilities */
            /* two bars are 二 or "=" (the same shape; only size tells) */
            if (n == 2)
                assert_true(!strcmp(ocr_glyph_classes[best], "二")
                            || !strcmp(ocr_glyph_classes[best], "="));
            else
                assert_string_equal(ocr_glyph_classes[best], "三");
        }
    ocr_glyph_model_free(&m);
    ocr_glyph_model_free(&m);
}

/* classify returns how much like its nearest reference glyph the ink is:
 * a drawn 三 is close to one; a zigzag scribble of the same size, which is
 * no glyph, is much less like any. */
static void test_classify_similarity(void **state)
{
    ocr_glyph_model m;
    uint8_t buf[64 * 64];
    ocr_img im = { 64, 64, buf };
    float feat[OCR_FEAT_DIM], logp[OCR_MAX_CLASSES], s3, sz;
    int x, y;
    (void)state;
    assert_int_equal(ocr_glyph_model_load(&m), XQ_OK);
    bars(&im, 3, 5, 0);
    assert_true(ocr_glyph_features(&im, 0, 0, 64, 64, feat));
    s3 = ocr_glyph_classify(&m, feat, logp);
    memset(buf, 255, sizeof buf);
    for (x = 4; x < 60; x++) {          /* teeth 8 px wide, 40 px high */
        int yc = 12 + abs((x % 16) - 8) * 5;
        for (y = yc - 2; y <= yc + 2; y++)
            buf[y * 64 + x] = 0;
    }
    assert_true(ocr_glyph_features(&im, 0, 0, 64, 64, feat));
    sz = ocr_glyph_classify(&m, feat, logp);
    print_message("similarity: drawn 三 %.3f, zigzag %.3f\n", s3, sz);
    assert_true(s3 > 0.85f && s3 <= 1.0001f);
    assert_true(sz < s3 - 0.1f);
    ocr_glyph_model_free(&m);
}

/* A pen stroke slanted either way, as writers slant digits, reads as 1
 * (the model holds slanted variants of its references; without them the
 * steeper slants read as N). */
static void test_classify_slanted(void **state)
{
    static const float shears[] = { 0.45f, -0.35f, 0.0f };
    ocr_glyph_model m;
    uint8_t buf[64 * 64];
    ocr_img im = { 64, 64, buf };
    float feat[OCR_FEAT_DIM], logp[OCR_MAX_CLASSES];
    size_t i;
    (void)state;
    assert_int_equal(ocr_glyph_model_load(&m), XQ_OK);
    for (i = 0; i < sizeof shears / sizeof *shears; i++) {
        int x, y, best = 0, k;
        memset(buf, 255, sizeof buf);
        for (y = 8; y < 56; y++) {
            float xc = 32 + shears[i] * (32 - y);
            for (x = 0; x < 64; x++)
                if (fabsf(x - xc) <= 2.0f)
                    buf[y * 64 + x] = 0;
        }
        assert_true(ocr_glyph_features(&im, 0, 0, 64, 64, feat));
        ocr_glyph_classify(&m, feat, logp);
        for (k = 0; k < m.nclass; k++)
            if (logp[k] > logp[best])
                best = k;
        assert_string_equal(ocr_glyph_classes[best], "1");
    }
    ocr_glyph_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_match_manifest),
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_classify_drawn),
        cmocka_unit_test(test_classify_slanted),
        cmocka_unit_test(test_classify_similarity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

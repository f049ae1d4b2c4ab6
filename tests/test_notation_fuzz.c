/* CI smoke run of the libFuzzer harnesses of tests/fuzz/ (the full runs are
 * tools/fuzz.sh): every seed of tests/fuzz/corpus_move and corpus_record,
 * then a fixed number of deterministic random mutations of them (byte
 * flips, insertions, deletions, splices). A crash, sanitizer report or
 * broken round trip aborts the test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define LLVMFuzzerTestOneInput fuzz_move_one
#include "fuzz/fuzz_move.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_record_one
#include "fuzz/fuzz_record.c"
#undef LLVMFuzzerTestOneInput

typedef struct {
    uint8_t *data[64];
    size_t   len[64];
    size_t   n;
} seeds;

static void load_seeds(const char *dir, seeds *s)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    s->n = 0;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL && s->n < 64) {
        char path[1024];
        FILE *f;
        long n;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        f = fopen(path, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        s->data[s->n] = malloc((size_t)n + 1);
        if (fread(s->data[s->n], 1, (size_t)n, f) == (size_t)n)
            s->len[s->n++] = (size_t)n;
        else
            free(s->data[s->n]);
        fclose(f);
    }
    closedir(d);
}

static void free_seeds(seeds *s)
{
    size_t i;
    for (i = 0; i < s->n; i++)
        free(s->data[i]);
    s->n = 0;
}

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Mutate a copy of seed i into out (capacity cap); returns its length. */
static size_t mutate(const seeds *s, uint64_t *rng, uint8_t *out, size_t cap)
{
    size_t i = rng_next(rng) % s->n, n = s->len[i], k, m;
    memcpy(out, s->data[i], n < cap ? n : cap);
    n = n < cap ? n : cap;
    m = 1 + rng_next(rng) % 4;
    for (k = 0; k < m; k++) {
        size_t pos = n ? rng_next(rng) % n : 0;
        switch (rng_next(rng) % 5) {
        case 0:   /* flip a byte */
            if (n)
                out[pos] = (uint8_t)rng_next(rng);
            break;
        case 1:   /* insert a byte */
            if (n < cap) {
                memmove(out + pos + 1, out + pos, n - pos);
                out[pos] = (uint8_t)rng_next(rng);
                n++;
            }
            break;
        case 2:   /* delete a byte */
            if (n) {
                memmove(out + pos, out + pos + 1, n - pos - 1);
                n--;
            }
            break;
        case 3: { /* splice another seed in */
            size_t j = rng_next(rng) % s->n, take = s->len[j] / 2;
            if (n + take <= cap) {
                memmove(out + pos + take, out + pos, n - pos);
                memcpy(out + pos, s->data[j], take);
                n += take;
            }
            break;
        }
        default:  /* truncate */
            n = pos;
            break;
        }
    }
    return n;
}

static void run(const char *dir, int (*one)(const uint8_t *, size_t), int rounds,
                size_t cap)
{
    seeds s;
    uint8_t *buf = malloc(cap);
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    size_t i;
    int r;
    load_seeds(dir, &s);
    assert_true(s.n >= 5);
    for (i = 0; i < s.n; i++)
        one(s.data[i], s.len[i]);
    for (r = 0; r < rounds; r++) {
        size_t n = mutate(&s, &rng, buf, cap);
        one(buf, n);
    }
    print_message("%s: %zu seeds, %d mutations, no crash\n", dir, s.n, rounds);
    free_seeds(&s);
    free(buf);
}

static void test_fuzz_move_smoke(void **state)
{
    (void)state;
    run(XQ_SOURCE_DIR "/tests/fuzz/corpus_move", fuzz_move_one, 20000, 256);
}

static void test_fuzz_record_smoke(void **state)
{
    (void)state;
    run(XQ_SOURCE_DIR "/tests/fuzz/corpus_record", fuzz_record_one, 1500, 20000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_move_smoke),
        cmocka_unit_test(test_fuzz_record_smoke),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* sha256.c - SHA-256 after FIPS 180-4, section 6.2. */
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0]; b = h[1]; c = h[2]; d = h[3];
    e = h[4]; f = h[5]; g = h[6]; hh = h[7];
    for (i = 0; i < 64; i++) {
        t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) +
             K[i] + w[i];
        t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void xq_sha256_init(xq_sha256 *ctx)
{
    static const uint32_t H0[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    memcpy(ctx->h, H0, sizeof H0);
    ctx->nbytes = 0;
    ctx->nbuf = 0;
}

void xq_sha256_update(xq_sha256 *ctx, const void *data, size_t n)
{
    const uint8_t *p = data;
    ctx->nbytes += n;
    if (ctx->nbuf) {
        size_t take = 64 - ctx->nbuf < n ? 64 - ctx->nbuf : n;
        memcpy(ctx->buf + ctx->nbuf, p, take);
        ctx->nbuf += take;
        p += take;
        n -= take;
        if (ctx->nbuf < 64)
            return;
        block(ctx->h, ctx->buf);
        ctx->nbuf = 0;
    }
    for (; n >= 64; p += 64, n -= 64)
        block(ctx->h, p);
    memcpy(ctx->buf, p, n);
    ctx->nbuf = n;
}

void xq_sha256_final(xq_sha256 *ctx, uint8_t digest[32])
{
    uint64_t bits = ctx->nbytes * 8;
    int i;
    ctx->buf[ctx->nbuf++] = 0x80;
    if (ctx->nbuf > 56) {
        memset(ctx->buf + ctx->nbuf, 0, 64 - ctx->nbuf);
        block(ctx->h, ctx->buf);
        ctx->nbuf = 0;
    }
    memset(ctx->buf + ctx->nbuf, 0, 56 - ctx->nbuf);
    for (i = 0; i < 8; i++)
        ctx->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    block(ctx->h, ctx->buf);
    for (i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(ctx->h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(ctx->h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(ctx->h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)ctx->h[i];
    }
}

static void to_hex(const uint8_t d[32], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    int i;
    for (i = 0; i < 32; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[64] = '\0';
}

void xq_sha256_hex(const void *data, size_t n, char hex[65])
{
    xq_sha256 ctx;
    uint8_t d[32];
    xq_sha256_init(&ctx);
    xq_sha256_update(&ctx, data, n);
    xq_sha256_final(&ctx, d);
    to_hex(d, hex);
}

xq_status xq_sha256_file(const char *path, char hex[65])
{
    uint8_t buf[65536], d[32];
    xq_sha256 ctx;
    ssize_t got;
    int fd, saved;
    hex[0] = '\0';
    if (!path)
        return XQ_EINVAL;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return XQ_EIO;
    xq_sha256_init(&ctx);
    for (;;) {
        got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        xq_sha256_update(&ctx, buf, (size_t)got);
    }
    saved = errno;
    close(fd);
    if (got < 0) {
        errno = saved;
        return XQ_EIO;
    }
    xq_sha256_final(&ctx, d);
    to_hex(d, hex);
    return XQ_OK;
}

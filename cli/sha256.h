/* sha256.h - SHA-256 (FIPS 180-4) of files and buffers, for the JSON's
 * "input_sha256" and for --resume. Small and self-contained (no OpenSSL
 * dependency); checked against the FIPS test vectors in tests/test_cli_batch.c.
 */
#ifndef XQ_SHA256_H
#define XQ_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include "xqscan/xq_status.h"

typedef struct {
    uint32_t h[8];
    uint64_t nbytes;
    uint8_t  buf[64];
    size_t   nbuf;
} xq_sha256;

void xq_sha256_init(xq_sha256 *ctx);
void xq_sha256_update(xq_sha256 *ctx, const void *data, size_t n);
/* Writes 32 bytes to digest; ctx must be re-initialised before reuse. */
void xq_sha256_final(xq_sha256 *ctx, uint8_t digest[32]);

/* Lower-case hex (64 chars + NUL) of the SHA-256 of n bytes. */
void xq_sha256_hex(const void *data, size_t n, char hex[65]);

/* Hex SHA-256 of a whole file. XQ_EIO when it cannot be opened or read
 * (errno is kept for the caller's message); hex is "" then. */
xq_status xq_sha256_file(const char *path, char hex[65]);

#endif

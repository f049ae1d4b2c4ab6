/* batch_json.h - a small strict JSON reader (RFC 8259) for the batch: the
 * sheets' own JSON files are read back for --resume, summary.csv, index.html
 * and merge. Plus JSON string escaping for the writers. cli/ only.
 */
#ifndef XQ_BATCH_JSON_H
#define XQ_BATCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include "strbuf.h"
#include "xqscan/xq_status.h"

typedef enum {
    XQ_JSON_NULL, XQ_JSON_BOOL, XQ_JSON_NUMBER, XQ_JSON_STRING,
    XQ_JSON_ARRAY, XQ_JSON_OBJECT
} xq_json_type;

typedef struct xq_json xq_json;
struct xq_json {
    xq_json_type type;
    bool    b;
    double  num;
    char   *str;        /* STRING value (UTF-8, NUL-terminated) */
    char   *key;        /* member name when inside an object */
    xq_json *child;     /* first element / member */
    xq_json *next;      /* next sibling */
};

/* Parse exactly one JSON value (surrounding white space allowed). Nesting
 * deeper than 64 levels and invalid UTF-8 are rejected (XQ_EINVAL). */
xq_status xq_json_parse(const char *text, size_t len, xq_json **pjson);
/* Read and parse a whole file (at most 64 MB). XQ_EIO if unreadable. */
xq_status xq_json_parse_file(const char *path, xq_json **pjson);
void xq_json_free(xq_json **pjson);

/* Member of an object (NULL when absent or j is not an object). */
const xq_json *xq_json_get(const xq_json *j, const char *key);
/* String value or NULL when j is not a string. */
const char *xq_json_str(const xq_json *j);
/* The n-th element (NULL if out of range). */
size_t xq_json_len(const xq_json *j);

/* Re-serialise j compactly (object members in their order). */
xq_status xq_json_write(xq_strbuf *sb, const xq_json *j);
/* Append s as a JSON string literal (quotes included; NULL -> null). */
xq_status xq_json_put_str(xq_strbuf *sb, const char *s);

#endif

/* jsonl_field.h - fields of one line of the corpus's JSONL files
 * (ccpd-dev.iccs.jsonl), for tests and benchmarks only. The values used
 * there hold no escapes, so a plain search is enough; the product reads JSON
 * with a real parser. */
#ifndef XQ_TESTS_JSONL_FIELD_H
#define XQ_TESTS_JSONL_FIELD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy the string value of "key" into out; 0 if absent or too long. */
static inline int json_str(const char *line, const char *key, char *out, size_t n)
{
    char pat[64];
    const char *p, *e;
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    p = strstr(line, pat);
    if (!p)
        return 0;
    p += strlen(pat);
    e = strchr(p, '"');
    if (!e || (size_t)(e - p) >= n)
        return 0;
    memcpy(out, p, (size_t)(e - p));
    out[e - p] = 0;
    return 1;
}

/* The integer value of "key"; 0 if absent. */
static inline int json_int(const char *line, const char *key, int *pv)
{
    char pat[64];
    const char *p;
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    p = strstr(line, pat);
    if (!p)
        return 0;
    *pv = atoi(p + strlen(pat));
    return 1;
}

#endif

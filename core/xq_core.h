/* xq_core.h - internal helpers shared by every stage (not public API). */
#ifndef XQ_CORE_H
#define XQ_CORE_H

#include "xqscan/xq_status.h"
#include "xq_alloc.h"

/* XQ_TRY(expr): evaluate an xq_status expression; return it if not OK. */
#define XQ_TRY(expr)                                                        \
    do {                                                                    \
        xq_status xq_try_st_ = (expr);                                      \
        if (xq_try_st_ != XQ_OK) {                                          \
            xq_status_note(xq_try_st_, __FILE__, __LINE__, #expr);          \
            return xq_try_st_;                                              \
        }                                                                   \
    } while (0)

/* XQ_FAIL_IF(cond, code, msg): return code (recording msg) when cond holds. */
#define XQ_FAIL_IF(cond, code, msg)                                         \
    do {                                                                    \
        if (cond) {                                                         \
            xq_status_note((code), __FILE__, __LINE__, (msg));              \
            return (code);                                                  \
        }                                                                   \
    } while (0)

/* Record where the last error arose (per thread); read with
 * xq_status_last_site(). Never prints. */
void xq_status_note(xq_status st, const char *file, int line, const char *what);
const char *xq_status_last_site(void);

#define XQ_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif

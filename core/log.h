/* log.h - the library's only route to output: a caller-supplied sink. */
#ifndef XQ_LOG_H
#define XQ_LOG_H

typedef enum { XQ_LOG_DEBUG, XQ_LOG_INFO, XQ_LOG_WARN, XQ_LOG_ERROR } xq_log_level;

/* A sink receives one complete message line without a trailing newline. */
typedef void (*xq_log_fn)(void *ud, xq_log_level level, const char *msg);

typedef struct {
    xq_log_fn fn;   /* NULL: messages are dropped */
    void     *ud;
} xq_log_sink;

void xq_log(const xq_log_sink *sink, xq_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

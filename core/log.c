#include "log.h"

#include <stdarg.h>
#include <stdio.h>

void xq_log(const xq_log_sink *sink, xq_log_level level, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    if (!sink || !sink->fn || !fmt)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sink->fn(sink->ud, level, buf);
}

#include "xq_core.h"

#include <stdio.h>

const char *xq_status_str(xq_status st)
{
    switch (st) {
    case XQ_OK:        return "ok";
    case XQ_ENOMEM:    return "out of memory";
    case XQ_EIO:       return "input/output error";
    case XQ_EIMAGE:    return "bad or unsupported image";
    case XQ_EOCR:      return "OCR engine failure";
    case XQ_EINVAL:    return "invalid argument or input";
    case XQ_ERANGE:    return "value out of range";
    case XQ_ENOTFOUND: return "not found";
    }
    return "unknown status";
}

static _Thread_local char last_site[256];

void xq_status_note(xq_status st, const char *file, int line, const char *what)
{
    snprintf(last_site, sizeof last_site, "%s:%d: %s (%s)", file, line,
             what ? what : "", xq_status_str(st));
}

const char *xq_status_last_site(void) { return last_site; }

/* files.c - whole-file reading and atomic file writing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "report_internal.h"
#include "xq_core.h"
#include "xqscan/xq_report.h"

xq_status rep_read_file(const char *path, char **ptext, size_t *plen)
{
    FILE *f;
    xq_strbuf sb = XQ_STRBUF_INIT;
    char buf[65536];
    size_t n;
    xq_status st = XQ_OK;
    *ptext = NULL;
    *plen = 0;
    f = fopen(path, "rb");
    XQ_FAIL_IF(!f, XQ_EIO, "open");
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if ((st = xq_strbuf_append(&sb, buf, n)) != XQ_OK)
            break;
    if (st == XQ_OK && ferror(f))
        st = XQ_EIO;
    fclose(f);
    if (st == XQ_OK && !sb.data)
        st = xq_strbuf_append(&sb, "", 0);
    if (st != XQ_OK) {
        xq_strbuf_free(&sb);
        return st;
    }
    *plen = sb.len;
    *ptext = xq_strbuf_take(&sb);
    return XQ_OK;
}

xq_status xq_report_write_file_atomic(const char *path, const void *data,
                                      size_t len)
{
    xq_strbuf tmp = XQ_STRBUF_INIT;
    FILE *f;
    int ok;
    XQ_FAIL_IF(!path || !*path || (!data && len), XQ_EINVAL, "write arguments");
    XQ_TRY(xq_strbuf_printf(&tmp, "%s.tmp.%ld", path, (long)getpid()));
    f = fopen(tmp.data, "wb");
    if (!f) {
        xq_strbuf_free(&tmp);
        return XQ_EIO;
    }
    ok = (len == 0 || fwrite(data, 1, len, f) == len);
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    ok = ok && rename(tmp.data, path) == 0;
    if (!ok)
        remove(tmp.data);
    xq_strbuf_free(&tmp);
    return ok ? XQ_OK : XQ_EIO;
}

/* cmd_form.c - `xqscan form [-o FILE]`: write xqscan's blank printable
 * scoresheet (PNG, A4 at 300 dpi; default file xqscan-form.png).
 * Exit: 0 written, 1 cannot write, 64 usage error. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "xqscan/xq_ocr.h"

static int usage(const char *msg)
{
    if (msg)
        fprintf(stderr, "xqscan form: %s\n", msg);
    fputs("usage: xqscan form [-o FILE]   (PNG, A4, 300 dpi; default "
          "xqscan-form.png)\n", stderr);
    return XQ_EXIT_USAGE;
}

int cli_form(int argc, char **argv)
{
    const char *out = "xqscan-form.png";
    xq_status st;
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            if (i + 1 >= argc)
                return usage("-o needs a file name");
            out = argv[++i];
        } else if (!strncmp(a, "--out=", 6)) {
            out = a + 6;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(NULL);
            return XQ_EXIT_OK;
        } else {
            return usage("unexpected argument");
        }
    }
    if (!*out)
        return usage("empty file name");
    st = xq_form_write_png(out);
    if (st != XQ_OK) {
        fprintf(stderr, "xqscan form: cannot write %s: %s\n", out,
                xq_status_str(st));
        return 1;
    }
    return XQ_EXIT_OK;
}

/* cmd_scan.c - `xqscan [scan] [OPTIONS] PATH...`: scoresheet images through
 * the batch machinery (batch.h). Each worker process starts its engines
 * once; each input is checked structurally (batch_image.c) and then read,
 * verified and reported by xq_scan_file(). */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "cli.h"
#include "xq_core.h"

static xq_status scan_init(void *ud, void **pstate, char *err, size_t errlen)
{
    (void)ud;
    (void)err;
    (void)errlen;
    *pstate = NULL;
    return XQ_OK;
}

static xq_status scan_run(void *state, xq_batch_job *job, char *err, size_t errlen)
{
    const xq_batch_info *info = xq_batch_job_info(job);
    int pages = 0, w = 0, h = 0;
    xq_status st;
    (void)state;
    st = xq_batch_image_check(info->in->path, 0, &pages, &w, &h, err, errlen);
    if (st)
        return st;
    snprintf(err, errlen, "this build of xqscan has no OCR stage yet");
    return XQ_EOCR;
}

static void scan_fini(void *state)
{
    (void)state;
}

int cli_scan(int argc, char **argv)
{
    xq_batch_opts opts;
    xq_batch_proc proc = { scan_init, scan_run, scan_fini, NULL };
    char **paths;
    int npaths, rc;
    xq_batch_opts_init(&opts, "scan");
    rc = xq_batch_parse_args(argc, argv, &opts, &paths, &npaths);
    if (rc || npaths == 0)
        return rc;
    return xq_batch_run(&opts, paths, npaths, xq_batch_sniff_image, &proc, NULL);
}

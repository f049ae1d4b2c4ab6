/* cmd_scan.c - `xqscan [scan] [OPTIONS] PATH...`: scoresheet images through
 * the batch machinery (batch.h). Each worker process starts its engines
 * once (xq_scanner_create: Tesseract + glyph models); each input is first
 * checked structurally (xq_batch_image_check: truncated, mislabelled or
 * absurdly large files are refused before decoding), then read, verified
 * and reported by xq_scan_file() (include/xqscan/xqscan.h). */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "cli.h"
#include "pair.h"
#include "strbuf.h"
#include "xq_core.h"
#include "xqscan/xqscan.h"

static xq_status scan_init(void *ud, void **pstate, char *err, size_t errlen)
{
    const xq_batch_opts *opts = ud;
    xq_scan_options so;
    xq_scanner *sc = NULL;
    xq_status st;
    xq_scan_options_init(&so);
    so.threshold = opts->threshold;
    so.notation = opts->notation;
    so.corrections = opts->corrections;
    st = xq_scanner_create(&sc, &so, err, errlen);
    *pstate = sc;
    return st;
}

typedef struct {
    xq_batch_job *job;
} emit_ctx;

static xq_status scan_emit(void *ud, int page, const char *ext, const char *data, size_t len)
{
    emit_ctx *ctx = ud;
    char part[32] = "";
    if (page > 1)
        snprintf(part, sizeof part, "-p%d", page);
    return xq_batch_emit(ctx->job, part, ext, data, len);
}

static xq_status scan_run(void *state, xq_batch_job *job, char *err, size_t errlen)
{
    const xq_batch_info *info = xq_batch_job_info(job);
    xq_scanner *sc = state;
    xq_scan_input in;
    xq_strbuf href = XQ_STRBUF_INIT;
    emit_ctx ctx = { job };
    int pages = 0, w = 0, h = 0, flags = 0;
    xq_status st;
    st = xq_batch_image_check(info->in->path, 0, &pages, &w, &h, err, errlen);
    if (st)
        return st;
    XQ_TRY(xq_batch_index_href(info->in->name, &href));
    memset(&in, 0, sizeof in);
    in.source = info->in->source;
    in.input_sha256 = info->sha256;
    in.options_json = info->options_json;
    in.index_href = xq_strbuf_cstr(&href);
    in.owner = xq_pair_owner_str(xq_pair_owner_from_name(info->in->name, NULL, 0));
    st = xq_scan_file(sc, info->in->path, &in, scan_emit, &ctx, &flags, NULL, err, errlen);
    xq_strbuf_free(&href);
    if (!st && (flags & XQ_SCAN_NEEDS_ARBITER))
        xq_batch_job_flag_findings(job);
    return st;
}

/* The Red and Black sheets of one game (pair.h): GAME.pair.* */
static xq_status scan_run_pair(void *state, xq_batch_job *job, char *err, size_t errlen)
{
    const xq_batch_info *info = xq_batch_job_info(job);
    xq_scanner *sc = state;
    xq_scan_input in[2], pin;
    const char *path[2];
    xq_strbuf href = XQ_STRBUF_INIT;
    emit_ctx ctx = { job };
    int k, flags = 0;
    xq_status st;
    for (k = 0; k < 2; k++) {
        int pages = 0, w = 0, h = 0;
        char e[512];
        st = xq_batch_image_check(info->pair_in[k]->path, 0, &pages, &w, &h, e, sizeof e);
        if (st) {
            snprintf(err, errlen, "%s: %s", info->pair_in[k]->source, e);
            return st;
        }
        path[k] = info->pair_in[k]->path;
        memset(&in[k], 0, sizeof in[k]);
        in[k].source = info->pair_in[k]->source;
        in[k].input_sha256 = info->pair_sha256[k];
        in[k].options_json = info->options_json;
        in[k].owner = xq_pair_owner_str(info->pair->owner[k]);
    }
    XQ_TRY(xq_batch_index_href(info->in->name, &href));
    memset(&pin, 0, sizeof pin);
    pin.source = info->in->source;
    pin.input_sha256 = info->sha256;
    pin.options_json = info->options_json;
    pin.index_href = xq_strbuf_cstr(&href);
    st = xq_scan_pair(sc, path, in, &pin, info->pair->by_header ? "header"
                      : info->pair->by_moves ? "moves" : "file name",
                      scan_emit, &ctx, &flags, err, errlen);
    xq_strbuf_free(&href);
    if (!st && (flags & XQ_SCAN_NEEDS_ARBITER))
        xq_batch_job_flag_findings(job);
    return st;
}

static void scan_fini(void *state)
{
    xq_scanner *sc = state;
    xq_scanner_destroy(&sc);
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
    proc.ud = &opts;
    return xq_batch_run_pairs(&opts, paths, npaths, xq_batch_sniff_image, &proc,
                              scan_run_pair, NULL);
}

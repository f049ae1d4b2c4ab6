/* batch.h - the batch machinery shared by `xqscan scan` and `xqscan verify`.
 *
 * What it does, in order (xq_batch_run):
 *   1. walk the PATHs: folders recursively (symlink loops and the -o folder
 *      are never walked; any folder holding an xqscan output marker is
 *      skipped); inside folders a file is an input when the sniffer says so
 *      (for scan: image bytes, or an image file name); a file named on the
 *      command line is always an input;
 *   2. name the outputs (INTERFACE.md): NAME = path relative to the folder
 *      given, without extension; a.png beside a.jpg keep their extensions;
 *      invalid UTF-8 bytes and control characters are written %XX; stable
 *      sort by NAME;
 *   3. --shard K/N keeps the inputs whose SHA-256(source) mod N == K-1;
 *   4. fork -j N worker processes; each runs proc->init ONCE (Tesseract),
 *      then processes many inputs; OMP_THREAD_LIMIT=1; a worker killed by a
 *      signal, or stuck past the time limit, is replaced and the input it was
 *      on becomes an error; one bad input never stops the batch;
 *   5. every file is written under a temporary name in its folder and
 *      renamed (never outside -o: each folder is opened with O_NOFOLLOW);
 *      the sheet's NAME.json is renamed last, so its presence with the same
 *      input SHA-256, options and version means the input is complete
 *      (--resume skips it);
 *   6. progress on stderr (one updating line on a terminal, plain lines
 *      otherwise, nothing with -q); each bad input named with a reason;
 *   7. pairs (pair.h, xq_batch_run_pairs): the Red and Black sheets of one
 *      game, found by file name or by header, go through run_pair as one
 *      more job each
 *      (GAME.pair.*; --resume skips a pair whose JSON records the same two
 *      input SHA-256s, options and version);
 *   8. summary.csv and index.html from the sheets' JSON files (and the
 *      pairs', one row each); exit status 0 / 1 / 2 from them
 *      (INTERFACE.md).
 * Only cli/ uses this; it prints to stderr (a library would not).
 */
#ifndef XQ_BATCH_H
#define XQ_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "xqscan/xq_status.h"

/* ---- options ---------------------------------------------------------- */
typedef struct {
    const char *command;      /* "scan" / "verify": used in messages */
    const char *out_dir;      /* default "xqscan-out" */
    int         jobs;         /* worker processes; 0 = number of cores */
    int         threshold;    /* unrecorded-move threshold, default 16 */
    const char *notation;     /* PGN notation, default "chinese" */
    const char *corrections;  /* corrections file or NULL */
    bool        resume;
    int         shard_k, shard_n;  /* 0, 0: no sharding */
    bool        quiet;
    double      timeout;      /* seconds per input before the worker is
                                 killed; 0 = no limit (default 600) */
} xq_batch_opts;

/* Defaults above. */
void xq_batch_opts_init(xq_batch_opts *opts, const char *command);

/* Parse argv (argv[0] = the subcommand's name) into opts and the PATH
 * list (*ppaths points into argv; *pnpaths >= 1 on success). Returns 0, or
 * the exit status to return at once: 64 after printing a usage message, or
 * 0 with *pnpaths == 0 after printing --help. */
int xq_batch_parse_args(int argc, char **argv, xq_batch_opts *opts,
                        char ***ppaths, int *pnpaths);

/* The "options" object recorded in each JSON ("xqscan" object) and compared
 * by --resume: only what changes the results (threshold, notation, the
 * SHA-256 of the corrections file). *pjson is owned (xq_free). XQ_EIO when
 * the corrections file cannot be read. */
xq_status xq_batch_options_json(const xq_batch_opts *opts, char **pjson);

/* ---- inputs ----------------------------------------------------------- */
typedef struct {
    char *path;       /* path to open (bytes as found) */
    char *source;     /* relative path, printable UTF-8 (JSON "source") */
    char *name;       /* output NAME: relative, no extension, safe */
    bool  named;      /* named on the command line */
} xq_batch_input;

typedef struct {
    xq_batch_input *v;
    size_t n, cap;
    size_t skipped;   /* files in walked folders that are not inputs */
    size_t loops;     /* folders not walked twice (symlink loops) */
} xq_batch_inputs;

/* Sniffer: is a file inside a walked folder an input? head = its first
 * bytes (n <= 4096, maybe 0), name = its file name. */
typedef bool (*xq_batch_sniff_fn)(const uint8_t *head, size_t n,
                                  const char *name);

/* Image sniffer for scan: PNG, JPEG or TIFF magic bytes, or a file name
 * ending .png .jpg .jpeg .tif .tiff (any case; such a file that is not an
 * image becomes an input error with a reason, not a silent skip). */
bool xq_batch_sniff_image(const uint8_t *head, size_t n, const char *name);

/* Walk paths into *pin (sorted by name, names unique). out_dir (may not
 * exist yet) is never walked. warn(ud, line) receives one-line notes about
 * skipped loops and unreadable folders (may be NULL). */
xq_status xq_batch_collect(char *const *paths, int npaths, const char *out_dir,
                           xq_batch_sniff_fn sniff,
                           void (*warn)(void *ud, const char *line), void *ud,
                           xq_batch_inputs *pin);
void xq_batch_inputs_free(xq_batch_inputs *in);

/* Printable UTF-8 form of a byte string: invalid UTF-8 bytes, control
 * characters and '%' itself are written %XX, so distinct byte names stay
 * distinct. Owned result (xq_free); NULL on out of memory. */
char *xq_batch_escape_name(const char *bytes);

/* 1 if the input with this source path belongs to shard k of n. */
bool xq_batch_in_shard(const char *source, int k, int n);

/* ---- image check ------------------------------------------------------- */
/* Reads the image's structure without decoding pixels: PNG (chunks to
 * IEND), JPEG (segments to the scan and EOI), TIFF (every IFD, strip and
 * tile inside the file). Returns XQ_OK with the page count and the first
 * page's size, XQ_EIMAGE with a one-line reason in err (not an image,
 * truncated, larger than max_pixels (0: 100 megapixels), ...) or XQ_EIO. */
xq_status xq_batch_image_check(const char *path, long max_pixels, int *ppages,
                               int *pw, int *ph, char *err, size_t errlen);

/* ---- pairs: the Red and Black sheets of one game (pair.h) --------------- */
typedef struct {
    size_t idx[2];          /* the two inputs; [0] is Red's sheet when known */
    int    owner[2];        /* XQ_RED, XQ_BLACK or -1 (unknown) */
    bool   by_header;       /* paired by header (else by file name) */
    bool   by_moves;        /* paired by the moves read (pair.h rule 3) */
    xq_batch_input in;      /* the pair as one job: name "GAME.pair" (its
                               outputs GAME.pair.json/.pgn/.html), source
                               "SRC0 + SRC1", path NULL */
} xq_batch_pair;

/* ---- processing one input ---------------------------------------------- */
typedef struct xq_batch_job xq_batch_job;

/* Read-only facts about the input being processed. */
typedef struct {
    const xq_batch_input *in;
    const char *sha256;        /* hex SHA-256 of the input bytes; for a pair
                                  the SHA-256 of "SHA0 SHA1" */
    const char *version;       /* XQ_VERSION */
    const char *options_json;  /* see xq_batch_options_json */
    const xq_batch_opts *opts;
    size_t ninputs;            /* inputs in this run (this shard) */
    /* pair jobs only (NULL / unset otherwise): */
    const xq_batch_pair *pair;
    const xq_batch_input *pair_in[2];  /* the two sheets' inputs */
    const char *pair_sha256[2];        /* their own SHA-256 */
} xq_batch_info;

const xq_batch_info *xq_batch_job_info(const xq_batch_job *job);

/* Write one output file of this input: NAME + part + ext, e.g. part "" or
 * "-p2" or "-g3", ext ".json" ".pgn" ".html" (or "-cells/12.png": any
 * relative suffix without ".." components). Atomic (temp + rename). The
 * main JSON (part "", ext ".json") is held back and written after every
 * other output of the input, when the processor returns XQ_OK. Parts must
 * be numbered 2, 3, ... without gaps. */
xq_status xq_batch_emit(xq_batch_job *job, const char *part, const char *ext,
                        const void *data, size_t len);

/* The processor found something an arbiter must see (exit status 1). */
void xq_batch_job_flag_findings(xq_batch_job *job);

typedef struct {
    /* Once per worker process. */
    xq_status (*init)(void *ud, void **pstate, char *err, size_t errlen);
    /* One input: emit outputs and return XQ_OK, or return an error with a
     * one-line reason in err: the batch then writes the error JSON. */
    xq_status (*run)(void *state, xq_batch_job *job, char *err, size_t errlen);
    void (*fini)(void *state);
    void *ud;
} xq_batch_proc;

/* One pair of sheets of one game (info->pair set): same contract as
 * proc->run (emit with part "" writes GAME.pair.*). */
typedef xq_status (*xq_batch_pair_fn)(void *state, xq_batch_job *job, char *err,
                                      size_t errlen);

/* Relative link from NAME.html to the batch's index.html ("../index.html"
 * for NAME "round3/board07"), appended to sb. */
xq_status xq_batch_index_href(const char *name, xq_strbuf *sb);

/* Error JSON (schema xqscan/1, status "error") for an input; owned. */
xq_status xq_batch_error_json(const xq_batch_info *info, const char *part,
                              const char *message, char **pjson);

/* ---- the whole batch --------------------------------------------------- */
typedef struct {
    size_t inputs, processed, resumed, errors, sheets, findings, skipped;
    size_t pairs;              /* pairs of sheets of one game (jobs) */
    size_t pairs_resumed;      /* of which skipped by --resume */
    long   peak_worker_kb;     /* largest worker max RSS */
    double seconds;
} xq_batch_stats;

/* Runs everything and returns the process exit status (0, 1, 2; 64 for a
 * bad -o). stats may be NULL. */
int xq_batch_run(const xq_batch_opts *opts, char *const *paths, int npaths,
                 xq_batch_sniff_fn sniff, const xq_batch_proc *proc,
                 xq_batch_stats *stats);

/* The same, then pairs (step 7): after every input is done, the sheets
 * paired by pair.h's rules run through run_pair (in fresh workers, with
 * proc->init), one job per pair. xq_batch_run = this with run_pair NULL
 * (no pairing, and --shard by source alone). */
int xq_batch_run_pairs(const xq_batch_opts *opts, char *const *paths, int npaths,
                       xq_batch_sniff_fn sniff, const xq_batch_proc *proc,
                       xq_batch_pair_fn run_pair, xq_batch_stats *stats);

/* ---- files and output folders ------------------------------------------ */
/* Atomically write bytes to dirfd/relpath (folders created as needed;
 * relpath must be relative without "." or ".." components; no folder on the
 * way may be a symlink). */
xq_status xq_batch_write_at(int dirfd, const char *relpath, const void *data,
                            size_t len);

/* Remove temporary files left in dir (recursively) by killed runs (only
 * those whose process is gone). Returns how many were removed. */
size_t xq_batch_clean_temps(const char *dir);

/* Write summary.csv and index.html in out_dir over the sheets' JSON files
 * of the given NAMEs (each with its -p<k>/-g<k> parts), sorted by NAME.
 * Sets *pexit to 0/1/2 from the sheets (2 if some JSON is missing or has
 * status error) and counts sheets/findings when the pointers are not NULL. */
xq_status xq_batch_write_summary(const char *out_dir, char *const *names,
                                 size_t n, int *pexit, size_t *psheets,
                                 size_t *pfindings);

/* All sheet NAMEs found under dir (every *.json of schema xqscan/1 that is
 * a main or part file), sorted; for merge. */
xq_status xq_batch_find_names(const char *dir, char ***pnames, size_t *pn);
void xq_batch_names_free(char **names, size_t n);

#endif

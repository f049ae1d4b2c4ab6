/* xq_game.h - a verified game: what the verifier decides and report/ formats.
 *
 * This is the in-memory form of one JSON object of schema "xqscan/1"
 * (../shared/INTERFACE.md). The verifier (replay/) and the typed-record
 * path (`xqscan verify`) fill it; report/ only reads it. It is a plain
 * record on purpose: every field is data, every string is owned by the
 * game (UTF-8, allocated with xq_malloc) and freed by xq_game_destroy.
 */
#ifndef XQ_GAME_H
#define XQ_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xq_status.h"
#include "xq_types.h"

typedef enum {
    XQ_PLY_OK = 0,       /* the cell reads as a legal move */
    XQ_PLY_CORRECTED,    /* read text differs from the legal move chosen */
    XQ_PLY_UNREADABLE,   /* ink that matches no legal move well enough */
    XQ_PLY_ILLEGAL,      /* a clear reading that is not a legal move */
    XQ_PLY_MISSING       /* blank cell, or ply skipped altogether */
} xq_ply_status;

typedef enum {
    XQ_SRC_NONE = 0,     /* no move (move is null in JSON) */
    XQ_SRC_READ,
    XQ_SRC_CORRECTED,
    XQ_SRC_RECONSTRUCTED,
    XQ_SRC_ASSUMED
} xq_move_source;

typedef enum { XQ_SEV_INFO = 0, XQ_SEV_WARNING, XQ_SEV_ERROR } xq_severity;

typedef enum {
    XQ_END_NORMAL = 0, XQ_END_IN_CHECK, XQ_END_CHECKMATE, XQ_END_STALEMATE
} xq_end_position;

#define XQ_MAX_CANDIDATES 3

typedef struct {
    xq_move mv;
    char    iccs[8];       /* "h2e2" */
    char    chinese[32];   /* simplified Chinese, UTF-8 */
    double  score;         /* 0..1 */
} xq_candidate;

/* A grey-level image of a cell (row-major, 8 bits, 0 = black), owned. */
typedef struct {
    int      w, h;
    uint8_t *px;
} xq_crop;

typedef struct {
    int            ply;            /* 1 = Red's first move */
    int            side;           /* XQ_RED / XQ_BLACK */
    xq_ply_status  status;
    char          *read;           /* text read from the cell; "" if none */
    xq_move        mv;             /* XQ_MOVE_NONE: JSON null */
    char           iccs[8];
    char           chinese[32];
    char           wxf[16];
    xq_move_source source;
    double         confidence;     /* 0..1 */
    bool           review;
    int            ncand;
    xq_candidate   cand[XQ_MAX_CANDIDATES];
    bool           has_cell;       /* false: JSON cell null */
    int            cell_page;
    int            cell_box[4];    /* x, y, w, h in input image pixels */
    xq_crop        crop;           /* optional cell image for reports */
} xq_ply;

typedef struct {
    int         ply;               /* 0: JSON null (whole-sheet finding) */
    xq_severity severity;
    char       *code;              /* "illegal_move" ... */
    char       *rule;              /* "WXF 7.6, 3.1.F" ... ("" if none) */
    char       *message;
} xq_finding;

typedef struct {
    char *event, *round, *board, *red, *black, *date;
    char *result;                  /* "1-0" "0-1" "1/2-1/2" "*" or NULL */
} xq_header;

typedef struct xq_game {
    /* "xqscan" object */
    char *version;
    char *input_sha256;
    char *options_json;            /* a JSON object as text, or NULL ({}) */

    char *source;                  /* path relative to the input root */
    bool  is_error;                /* JSON status "error" */
    char *error;                   /* message when is_error */
    int   owner;                   /* -1 unknown, XQ_RED, XQ_BLACK */
    xq_header header;
    char  start_fen[128];

    xq_ply *plies;
    size_t  nplies, cap_plies;

    struct {
        int  red, black, total, longest_run, threshold;
        bool exceeded;
    } unrecorded;

    xq_finding *findings;
    size_t      nfindings, cap_findings;

    struct {
        xq_end_position position;
        char *recorded_result;     /* NULL: JSON null */
        bool  consistent;
    } end;
} xq_game;

/* Create an empty game (standard start FEN, owner unknown, threshold 16). */
xq_status xq_game_create(xq_game **pgame);
/* Frees the game and everything it owns; NULL is fine; sets *pgame = NULL. */
void xq_game_destroy(xq_game **pgame);

/* Append a zeroed ply numbered nplies + 1 and return it in *pply (borrowed,
 * valid until the next append). Its side follows the ply number and the
 * side to move of start_fen is the caller's business: side is set to
 * (ply - 1) % 2 and may be overwritten. */
xq_status xq_game_add_ply(xq_game *game, xq_ply **pply);

/* Append a finding; strings are copied. ply 0 = whole-sheet finding. */
xq_status xq_game_add_finding(xq_game *game, int ply, xq_severity sev,
                              const char *code, const char *rule,
                              const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The first finding with this code at this ply (ply < 0: any ply); NULL
 * when there is none or an argument is NULL. */
const xq_finding *xq_game_find_finding(const xq_game *game, const char *code,
                                       int ply);

/* True when an arbiter must look at the game: a warning or error finding,
 * or a ply under review (the CLI's exit status 1 and the summary's
 * needs_arbiter). NULL: false. */
bool xq_game_needs_arbiter(const xq_game *game);

/* Replace an owned string field (copies s; NULL allowed). */
xq_status xq_game_set_str(char **field, const char *s);

/* JSON names of the enums. */
const char *xq_ply_status_name(xq_ply_status st);
const char *xq_move_source_name(xq_move_source src);
const char *xq_severity_name(xq_severity sev);
const char *xq_end_position_name(xq_end_position pos);

#endif

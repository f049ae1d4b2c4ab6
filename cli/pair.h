/* pair.h - the two sheets of one game (Red's and Black's) in a batch.
 *
 * Pairing rules (also in `xqscan --help`):
 *   1. by file name: the file name (without extension) holds one owner
 *      word as a whole token - red, black (any case), 红, 紅, 黑 - or one of
 *      红方 紅方 黑方 红棋 黑棋 anywhere; tokens are separated by
 *      - _ . + , ( ) [ ] and spaces. The name with that word removed (and
 *      its folder) is the GAME key: round3/b07-red.jpg and
 *      round3/b07-black.png are the sheets of game round3/b07; red.jpg and
 *      black.jpg in one folder are game "game" there. Exactly one Red and
 *      one Black sheet per key make a pair (more: no pair, a note).
 *   2. by header, for sheets not paired by name: identical normalised
 *      header fields event, round, board, red, black as read from the
 *      sheets (spaces and punctuation dropped, Latin letters folded),
 *      Red's and Black's names both read and round or board read; exactly
 *      two sheets with that header, not both of the same known owner.
 *      The GAME key is then the first sheet's NAME.
 *   3. by moves, for sheets still unpaired (any file names, headers not
 *      read): two sheets of at least 30 decoded plies whose moves agree on
 *      at least 90% of the plies of the shorter record, with lengths within
 *      10% (at least 4 plies) of each other, each the other's only such
 *      match, from different input bytes, and whose headers do not
 *      contradict (round or board read on both and different). Candidates
 *      share the moves of plies 21-24, 31-34 or 41-44 (an opening shared
 *      by many games is never enough). GAME key: the first sheet's NAME.
 * A pair's outputs are GAME.pair.{json,pgn,html}. With --shard, a sheet
 * whose name has an owner word is sharded by its GAME key, so both sheets
 * of a name pair land in the same shard; header pairs are found only
 * within a shard.
 */
#ifndef XQ_PAIR_H
#define XQ_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include "batch.h"
#include "xqscan/xq_status.h"

/* Owner word of an output NAME ("dir/stem"): XQ_RED, XQ_BLACK, or -1 when
 * the name has none or words of both sides. When key is not NULL it gets
 * the GAME key ("dir/stem" without the word; "dir/game" when nothing is
 * left), or NAME itself when there is no owner word. */
int xq_pair_owner_from_name(const char *name, char *key, size_t keylen);

/* "red" / "black" / NULL for an owner value. */
const char *xq_pair_owner_str(int owner);

/* The key --shard uses for an input: its GAME key when its name has an
 * owner word, else its source (unchanged from before pairing existed). */
void xq_pair_shard_key(const xq_batch_input *in, char *key, size_t keylen);

/* Header fields of a sheet, as read back from its JSON (for rule 2). */
typedef struct {
    char *key;          /* normalised event|round|board|red|black, or NULL */
    int   owner;        /* from the JSON "owner", -1 unknown */
    /* for rule 3 (all may be NULL): */
    char *moves;        /* decoded moves, ICCS, one space between, "-" for
                           a ply without a move */
    char *round, *board;   /* normalised, "" when not read */
    char *sha256;       /* input SHA-256 */
} xq_pair_header;

/* Rule 3's test on two move lists (as in xq_pair_header.moves): 1 when
 * they are the same game by the thresholds above; *pagree gets the share
 * of agreeing plies (may be NULL). */
bool xq_pair_same_moves(const char *a, const char *b, double *pagree);

/* Normalised form of one header value (the form xq_pair_header_key
 * compares); owned, NULL on out of memory. */
char *xq_pair_norm(const char *s);

/* Find the pairs among n inputs (sorted by name). hdr may be NULL (rule 1
 * only) or hold n entries (rules 2 and 3 for the rest). Pairs are appended to
 * *pairs (n_pairs); each gets its synthetic input (name GAME.pair, source
 * "SRC0 + SRC1", no path) and in[0] Red's sheet when known. note(ud, line)
 * gets one line per ambiguous group (may be NULL). A GAME.pair name that
 * is some input's own NAME is not used (no pair, a note). */
xq_status xq_pair_find(const xq_batch_inputs *in, const xq_pair_header *hdr,
                       void (*note)(void *ud, const char *line), void *ud,
                       xq_batch_pair **ppairs, size_t *pnpairs);
void xq_pair_free(xq_batch_pair *pairs, size_t n);

/* Normalised header key of a sheet JSON's "header" object (NULL when it
 * does not satisfy rule 2); owned. */
char *xq_pair_header_key(const char *event, const char *round, const char *board,
                         const char *red, const char *black);

#endif

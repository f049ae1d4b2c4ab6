/* report_internal.h - helpers shared by the report/ sources (not public API). */
#ifndef XQ_REPORT_INTERNAL_H
#define XQ_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "xqscan/xq_game.h"
#include "xqscan/xq_types.h"

/* escape.c */
/* Valid UTF-8 copy of s (invalid bytes -> U+FFFD, NUL-terminated); NULL
 * in gives "". Free with xq_free. */
char *rep_utf8_clean(const char *s);
/* HTML text and attribute values: & < > " ' as entities; C0 controls
 * other than TAB/LF dropped; invalid UTF-8 -> U+FFFD. NULL is "". */
xq_status rep_html_esc(xq_strbuf *sb, const char *s);
/* JSON text to embed in <script>: < > & U+2028 U+2029 as \u escapes. */
xq_status rep_script_json(xq_strbuf *sb, const char *json);
/* One CSV cell: quoted, quotes doubled, formula-leading chars neutralised. */
xq_status rep_csv_cell(xq_strbuf *sb, const char *s);
/* PGN tag value (inside quotes): \ and " backslash-escaped, controls
 * dropped. */
xq_status rep_pgn_tag(xq_strbuf *sb, const char *s);
/* PGN comment text: '}' cannot appear in a comment; it becomes '）'. */
xq_status rep_pgn_comment(xq_strbuf *sb, const char *s);
/* Simplified -> traditional glyphs of move text (车→車 马→馬 帅→帥 将→將
 * 进→進 后→後 ...). */
xq_status rep_traditional(xq_strbuf *sb, const char *s);
/* A relative path as a URL path: bytes other than A-Z a-z 0-9 - . _ ~ /
 * percent-encoded (so ':' cannot start a scheme, '#' '?' stay literal). */
xq_status rep_url_path(xq_strbuf *sb, const char *s);
/* Base64 (RFC 4648, padded). */
xq_status rep_base64(xq_strbuf *sb, const uint8_t *data, size_t n);

/* png.c: grey crop -> "data:image/png;base64,..." appended to sb. */
xq_status rep_crop_data_uri(xq_strbuf *sb, const xq_crop *crop);
/* grey image -> PNG bytes in out (8-bit grey). */
xq_status rep_png_encode(const xq_crop *crop, xq_strbuf *out);

/* position.c: diagram positions, replayed with the rules engine. */
typedef struct {
    xq_piece sq[XQ_NSQ];   /* sq = file * 10 + rank */
    int      side;         /* side to move */
} rep_pos;
/* Side to move and full-move number of a FEN (Red and 1 when absent). */
void rep_fen_counters(const char *fen, int *pside, int *pfullmove);
/* 1 if fen is the standard start with Red to move (or empty). */
int rep_fen_is_standard(const char *fen);
/* (*ppos)[i] = position before plies[i], i = 0..nplies, valid for
 * i <= *pknown (-1: the start FEN is invalid); replay stops at the first
 * ply without a move or with a move the engine refuses. Free with xq_free. */
xq_status rep_replay(const xq_game *g, rep_pos **ppos, long *pknown);
/* "h2e2" -> move; XQ_MOVE_NONE when not ICCS. */
xq_move rep_iccs_parse(const char *s);
/* The ply's move: mv, or its iccs text when mv is 0. */
xq_move rep_ply_move(const xq_ply *p);

/* board_svg.c */
typedef struct {
    xq_move mv;
    int     style;   /* 0 chosen move (solid), 1 candidate (dashed) */
} rep_arrow;
xq_status rep_board_svg(xq_strbuf *sb, const rep_pos *pos,
                        const rep_arrow *arrows, size_t narrows,
                        const char *caption);

/* files.c: read a whole file (NUL-terminated; free with xq_free). */
xq_status rep_read_file(const char *path, char **ptext, size_t *plen);

/* Count helpers (csv/index/html). */
int rep_count_status(const xq_game *g, xq_ply_status st);
int rep_count_review(const xq_game *g);
int rep_count_severity(const xq_game *g, xq_severity sev);

#endif

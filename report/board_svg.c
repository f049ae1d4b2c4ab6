/* board_svg.c - an inline SVG Xiangqi board: 9x10 points, river with
 * 楚河 漢界, palaces with diagonals, pieces as circles with Chinese glyphs,
 * moves drawn as arrows (polygons, so no ids clash between diagrams). */
#include <math.h>
#include "report_internal.h"
#include "xq_core.h"

#define STEP 40
#define MARGIN 40
#define PX(f) (MARGIN + STEP * (f))
#define PY(r) (MARGIN + STEP * (9 - (r)))

static const char *const RED_GLYPH[8] = { "", "帥", "仕", "相", "傌", "俥", "炮", "兵" };
static const char *const BLACK_GLYPH[8] = { "", "將", "士", "象", "馬", "車", "砲", "卒" };
static const char *const RED_FILE[9] = { "九", "八", "七", "六", "五", "四", "三", "二", "一" };

static xq_status line(xq_strbuf *sb, int x1, int y1, int x2, int y2)
{
    return xq_strbuf_printf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
                            x1, y1, x2, y2);
}

static xq_status arrow(xq_strbuf *sb, xq_move mv, int style)
{
    double x1 = PX(XQ_SQ_FILE(XQ_MOVE_FROM(mv))), y1 = PY(XQ_SQ_RANK(XQ_MOVE_FROM(mv)));
    double x2 = PX(XQ_SQ_FILE(XQ_MOVE_TO(mv))), y2 = PY(XQ_SQ_RANK(XQ_MOVE_TO(mv)));
    double dx = x2 - x1, dy = y2 - y1, len = sqrt(dx * dx + dy * dy);
    double ux, uy, bx, by, head = 16, half = 9;
    const char *color = style ? "#e65100" : "#1565c0";
    if (XQ_MOVE_FROM(mv) >= XQ_NSQ || XQ_MOVE_TO(mv) >= XQ_NSQ || len < 1)
        return XQ_OK;
    ux = dx / len;
    uy = dy / len;
    bx = x2 - ux * head;
    by = y2 - uy * head;
    XQ_TRY(xq_strbuf_printf(sb,
        "<g class=\"arrow%s\" stroke=\"%s\" fill=\"%s\" opacity=\"0.85\">"
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"5\"%s/>"
        "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" stroke-width=\"1\"/></g>",
        style ? " cand" : "", color, color, x1, y1, bx, by,
        style ? " stroke-dasharray=\"8 5\"" : "", x2, y2, bx - uy * half,
        by + ux * half, bx + uy * half, by - ux * half));
    return XQ_OK;
}

xq_status rep_board_svg(xq_strbuf *sb, const rep_pos *pos,
                        const rep_arrow *arrows, size_t narrows,
                        const char *caption)
{
    int f, r, w = 2 * MARGIN + 8 * STEP, h = 2 * MARGIN + 9 * STEP;
    size_t i;
    XQ_FAIL_IF(!sb || !pos, XQ_EINVAL, "board arguments");
    XQ_TRY(xq_strbuf_printf(sb,
        "<svg class=\"board\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" "
        "role=\"img\" aria-label=\"", w, h));
    XQ_TRY(rep_html_esc(sb, caption ? caption : "board"));
    XQ_TRY(xq_strbuf_printf(sb, "\"><rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
                                "rx=\"8\" fill=\"#f3d9a4\"/>", w, h));
    XQ_TRY(xq_strbuf_puts(sb, "<g stroke=\"#5d4037\" stroke-width=\"1.5\">"));
    for (r = 0; r <= 9; r++)
        XQ_TRY(line(sb, PX(0), PY(r), PX(8), PY(r)));
    for (f = 0; f <= 8; f++) {
        if (f == 0 || f == 8) {
            XQ_TRY(line(sb, PX(f), PY(0), PX(f), PY(9)));
        } else {
            XQ_TRY(line(sb, PX(f), PY(0), PX(f), PY(4)));
            XQ_TRY(line(sb, PX(f), PY(5), PX(f), PY(9)));
        }
    }
    /* palaces */
    XQ_TRY(line(sb, PX(3), PY(0), PX(5), PY(2)));
    XQ_TRY(line(sb, PX(5), PY(0), PX(3), PY(2)));
    XQ_TRY(line(sb, PX(3), PY(7), PX(5), PY(9)));
    XQ_TRY(line(sb, PX(5), PY(7), PX(3), PY(9)));
    XQ_TRY(xq_strbuf_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                                "fill=\"none\" stroke-width=\"3\"/></g>",
                            PX(0) - 4, PY(9) - 4, 8 * STEP + 8, 9 * STEP + 8));
    /* river */
    XQ_TRY(xq_strbuf_printf(sb,
        "<g font-size=\"24\" fill=\"#6d4c41\" text-anchor=\"middle\" "
        "dominant-baseline=\"central\" font-family=\"'Noto Serif CJK SC','Noto Sans CJK SC',"
        "'AR PL UKai CN',serif\"><text x=\"%d\" y=\"%d\">楚 河</text>"
        "<text x=\"%d\" y=\"%d\">漢 界</text></g>",
        PX(2), (PY(4) + PY(5)) / 2, PX(6), (PY(4) + PY(5)) / 2));
    /* file labels: Black's 1..9 on top, Red's 九..一 at the bottom */
    XQ_TRY(xq_strbuf_puts(sb, "<g font-size=\"13\" fill=\"#4e342e\" "
                              "text-anchor=\"middle\" font-family=\"sans-serif\">"));
    for (f = 0; f <= 8; f++) {
        XQ_TRY(xq_strbuf_printf(sb, "<text x=\"%d\" y=\"%d\">%d</text>", PX(f),
                                MARGIN - 24, f + 1));
        XQ_TRY(xq_strbuf_printf(sb, "<text x=\"%d\" y=\"%d\">%s</text>", PX(f),
                                h - 8, RED_FILE[f]));
    }
    XQ_TRY(xq_strbuf_puts(sb, "</g>"));
    /* pieces */
    XQ_TRY(xq_strbuf_puts(sb, "<g font-size=\"21\" text-anchor=\"middle\" "
        "dominant-baseline=\"central\" font-family=\"'Noto Serif CJK SC','Noto Serif CJK TC',"
        "'Noto Sans CJK SC','AR PL UKai TW',serif\" font-weight=\"bold\">"));
    for (f = 0; f <= 8; f++)
        for (r = 0; r <= 9; r++) {
            xq_piece pc = pos->sq[XQ_SQ(f, r)];
            int pt = XQ_PIECE_TYPE(pc), black;
            if (!pc || pt < 1 || pt > 7)
                continue;
            black = XQ_PIECE_SIDE(pc) == XQ_BLACK;
            XQ_TRY(xq_strbuf_printf(sb,
                "<g class=\"pc %s\"><circle cx=\"%d\" cy=\"%d\" r=\"17\" fill=\"#fff8e1\" "
                "stroke=\"%s\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text></g>",
                black ? "b" : "r", PX(f), PY(r), black ? "#212121" : "#c62828",
                PX(f), PY(r), black ? "#212121" : "#c62828",
                black ? BLACK_GLYPH[pt] : RED_GLYPH[pt]));
        }
    XQ_TRY(xq_strbuf_puts(sb, "</g>"));
    /* candidates first, the chosen move on top */
    for (i = 0; i < narrows; i++)
        if (arrows[i].style)
            XQ_TRY(arrow(sb, arrows[i].mv, arrows[i].style));
    for (i = 0; i < narrows; i++)
        if (!arrows[i].style)
            XQ_TRY(arrow(sb, arrows[i].mv, 0));
    return xq_strbuf_puts(sb, "</svg>");
}

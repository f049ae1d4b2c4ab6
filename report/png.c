/* png.c - grey cell crops -> PNG (libpng, in memory) -> data URI. */
#include <png.h>
#include <setjmp.h>
#include <string.h>
#include "report_internal.h"
#include "xq_core.h"

typedef struct {
    xq_strbuf *out;
    xq_status  st;
} sink;

static void write_fn(png_structp png, png_bytep data, png_size_t n)
{
    sink *s = png_get_io_ptr(png);
    if (s->st == XQ_OK)
        s->st = xq_strbuf_append(s->out, (const char *)data, n);
    if (s->st != XQ_OK)
        png_error(png, "out of memory");
}

static void flush_fn(png_structp png) { (void)png; }

/* libpng would print to stderr; the library prints nothing. */
static void error_fn(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void warning_fn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* The row pointers live in a heap block referenced from a volatile local
 * so that longjmp from libpng cannot leak them. */
xq_status rep_png_encode(const xq_crop *crop, xq_strbuf *out)
{
    png_structp png;
    png_infop info;
    sink s;
    png_bytep *volatile rows = NULL;
    int y;
    XQ_FAIL_IF(!crop || !out || !crop->px || crop->w <= 0 || crop->h <= 0 ||
               crop->w > 20000 || crop->h > 20000, XQ_EINVAL, "crop");
    s.out = out;
    s.st = XQ_OK;
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, error_fn,
                                  warning_fn);
    XQ_FAIL_IF(!png, XQ_ENOMEM, "png");
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return XQ_ENOMEM;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        xq_free((void *)rows);
        return s.st != XQ_OK ? s.st : XQ_EIMAGE;
    }
    rows = xq_malloc(sizeof *rows * (size_t)crop->h);
    if (!rows) {
        s.st = XQ_ENOMEM;
        png_error(png, "out of memory");
    }
    for (y = 0; y < crop->h; y++)
        rows[y] = crop->px + (size_t)y * (size_t)crop->w;
    png_set_write_fn(png, &s, write_fn, flush_fn);
    png_set_IHDR(png, info, (png_uint_32)crop->w, (png_uint_32)crop->h, 8,
                 PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    xq_free((void *)rows);
    return s.st;
}

xq_status rep_crop_data_uri(xq_strbuf *sb, const xq_crop *crop)
{
    xq_strbuf png = XQ_STRBUF_INIT;
    xq_status st = rep_png_encode(crop, &png);
    if (st == XQ_OK)
        st = xq_strbuf_puts(sb, "data:image/png;base64,");
    if (st == XQ_OK)
        st = rep_base64(sb, (const uint8_t *)png.data, png.len);
    xq_strbuf_free(&png);
    return st;
}

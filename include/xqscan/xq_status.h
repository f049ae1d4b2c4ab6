/* xq_status.h - the one status enum of the library (0 means success).
 *
 * Errors are not findings: an illegal or unreadable move on a scoresheet is
 * data (see xq_game.h). Only I/O failures, out-of-memory, bad images and bad
 * arguments return non-OK.
 */
#ifndef XQ_STATUS_H
#define XQ_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    XQ_OK = 0,
    XQ_ENOMEM,   /* out of memory */
    XQ_EIO,      /* file could not be read or written */
    XQ_EIMAGE,   /* not an image, corrupt image, image too large */
    XQ_EOCR,     /* the OCR engine failed */
    XQ_EINVAL,   /* bad argument or malformed input (FEN, move, record) */
    XQ_ERANGE,   /* a value is out of the allowed range */
    XQ_ENOTFOUND /* a requested thing does not exist */
} xq_status;

/* A short English name for the status ("out of memory"). Never NULL. */
const char *xq_status_str(xq_status st);

#ifdef __cplusplus
}
#endif
#endif

/* form.c - xqscan's own printable form (placeholder until geometry lands) */
#include "ocr_internal.h"

/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * zstd frames around a log (lkst_logzst.c), for lkst_logwrite.c and lkst_logload.c: the
 * library's inside, not its surface.
 */
#ifndef LKST_LOGZST_H
#define LKST_LOGZST_H

#include <stddef.h>
#include <stdio.h>

#include "lkst_util.h"

/* The bytes start with a zstd frame's magic number, or a skippable frame's. */
int logzst_is_zstd(const void *bytes, size_t len);
/* The name ends in ".zst": lkst_log_create() compresses. */
int logzst_path_zstd(const char *path);
/*
 * Copies all of in (from its start) to out_fd, zstd-compressed when
 * compress; what names the output in messages.  0, or -1 with err set.
 */
int logzst_copy(FILE *in, int out_fd, int compress, const char *what,
		   struct lkst_err *err);
/*
 * Streaming decompression (any number of frames, skippable ones passed
 * over), so that no more than a window and one output buffer are held
 * whatever the data claims.  step: decompresses what it can of in into
 * out, *in_used and *out_len set; call it again with the rest of in, and
 * with no new input while it fills out; 0, or -1 with err set (naming
 * path) on corrupt data.  ended: the last frame is complete (at the end
 * of the input, anything else is a cut-short file).
 */
struct logzst_dec;
struct logzst_dec *logzst_dec_new(struct lkst_err *err);
void logzst_dec_free(struct logzst_dec *d);
/* The output buffer size that suits the decoder. */
size_t logzst_dec_out_size(void);
int logzst_dec_step(struct logzst_dec *d, const void *in, size_t in_len, size_t *in_used,
		    void *out, size_t out_cap, size_t *out_len, const char *path,
		    struct lkst_err *err);
int logzst_dec_ended(const struct logzst_dec *d);

#endif /* LKST_LOGZST_H */

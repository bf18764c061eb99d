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

/* The bytes start with a zstd frame's magic number. */
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
 * The decompressed bytes of src (any number of frames), malloc'd, at most
 * LKST_LOG_MAX_READ; NULL with err set (naming path) when the data is
 * corrupt, cut short, too big, or memory runs out.
 */
void *logzst_decompress(const void *src, size_t src_len, size_t *out_len,
			   const char *path, struct lkst_err *err);

#endif /* LKST_LOGZST_H */

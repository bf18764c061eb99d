// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * zstd-compressed logs (lkst_logio.h): a log file compressed whole into
 * standard zstd frames, so that `zstd -d` gives the plain log and a log
 * compressed by `zstd` reads as one written here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "lkst_logio.h"
#include "lkst_logzst.h"

/* Fast, and still about as small as the default level on records. */
#define LKST_ZSTD_LEVEL	3

int logzst_is_zstd(const void *bytes, size_t len)
{
	static const unsigned char magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	const unsigned char *b = bytes;

	if (len < sizeof(magic))
		return 0;
	/*
	 * pzstd and seekable-format writers start with a skippable frame
	 * (magic 0x184D2A50..5F), which a zstd decoder passes over.
	 */
	return !memcmp(b, magic, sizeof(magic)) ||
		((b[0] & 0xf0) == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18);
}

int logzst_path_zstd(const char *path)
{
	size_t len = strlen(path);

	return len > 4 && !strcmp(path + len - 4, ".zst");
}

static int write_out(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int logzst_copy(FILE *in, int out_fd, int compress, const char *what,
		   struct lkst_err *err)
{
	size_t in_size = ZSTD_CStreamInSize(), out_size = ZSTD_CStreamOutSize();
	unsigned char *ibuf = malloc(in_size), *obuf = malloc(out_size);
	ZSTD_CCtx *cctx = compress ? ZSTD_createCCtx() : NULL;
	int ret = -1, last = 0;
	size_t n, left;

	if (!ibuf || !obuf || (compress && !cctx)) {
		lkst_seterr(err, "out of memory; free some memory");
		goto out;
	}
	if (compress) {
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, LKST_ZSTD_LEVEL);
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	}
	rewind(in);
	while (!last) {
		n = fread(ibuf, 1, in_size, in);
		if (ferror(in)) {
			lkst_seterr(err, "cannot read back %s: %s", what, strerror(errno));
			goto out;
		}
		last = n < in_size;
		if (!compress) {
			if (write_out(out_fd, ibuf, n))
				goto write_failed;
			continue;
		}
		ZSTD_inBuffer ib = { ibuf, n, 0 };
		do {
			ZSTD_outBuffer ob = { obuf, out_size, 0 };

			left = ZSTD_compressStream2(cctx, &ob, &ib, last ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(left)) {
				lkst_seterr(err, "compressing %s: %s", what, ZSTD_getErrorName(left));
				goto out;
			}
			if (write_out(out_fd, obuf, ob.pos))
				goto write_failed;
		} while (last ? left != 0 : ib.pos < ib.size);
	}
	ret = 0;
	goto out;
write_failed:
	lkst_seterr(err, "cannot write %s: %s; check free space", what,
		    strerror(errno ? errno : EIO));
out:
	ZSTD_freeCCtx(cctx);
	free(ibuf);
	free(obuf);
	return ret;
}

struct logzst_dec {
	ZSTD_DCtx *dctx;
	size_t last;			/* ZSTD_decompressStream()'s last hint; 0: a frame ended */
};

struct logzst_dec *logzst_dec_new(struct lkst_err *err)
{
	struct logzst_dec *d = calloc(1, sizeof(*d));

	if (d)
		d->dctx = ZSTD_createDCtx();
	if (!d || !d->dctx) {
		logzst_dec_free(d);
		lkst_seterr(err, "out of memory; free some memory");
		return NULL;
	}
	return d;
}

void logzst_dec_free(struct logzst_dec *d)
{
	if (!d)
		return;
	ZSTD_freeDCtx(d->dctx);
	free(d);
}

size_t logzst_dec_out_size(void)
{
	return ZSTD_DStreamOutSize();
}

int logzst_dec_step(struct logzst_dec *d, const void *in, size_t in_len, size_t *in_used,
		    void *out, size_t out_cap, size_t *out_len, const char *path,
		    struct lkst_err *err)
{
	ZSTD_inBuffer ib = { in, in_len, 0 };
	ZSTD_outBuffer ob = { out, out_cap, 0 };
	size_t ret = ZSTD_decompressStream(d->dctx, &ob, &ib);

	if (ZSTD_isError(ret)) {
		lkst_seterr(err, "%s: corrupt zstd data (%s); the file is damaged",
			    path, ZSTD_getErrorName(ret));
		return -1;
	}
	d->last = ret;
	*in_used = ib.pos;
	*out_len = ob.pos;
	return 0;
}

int logzst_dec_ended(const struct logzst_dec *d)
{
	return d->last == 0;
}

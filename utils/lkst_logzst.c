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
/* Logs compress about 12x; a claimed size beyond this is allocated as it comes. */
#define TRUSTED_RATIO	64

int logzst_is_zstd(const void *bytes, size_t len)
{
	static const unsigned char magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	return len >= sizeof(magic) && !memcmp(bytes, magic, sizeof(magic));
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

void *logzst_decompress(const void *src, size_t src_len, size_t *out_len,
			   const char *path, struct lkst_err *err)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { src, src_len, 0 };
	unsigned long long hint = ZSTD_getFrameContentSize(src, src_len);
	size_t cap, used = 0, ret = 1, want;
	unsigned char *buf = NULL, *bigger;

	/*
	 * The size a frame claims is only a first guess (frames can lie), and
	 * no more than a log compresses to is taken on trust: the buffer
	 * grows as the data really decompresses.
	 */
	cap = hint != ZSTD_CONTENTSIZE_UNKNOWN && hint != ZSTD_CONTENTSIZE_ERROR &&
		hint && hint <= TRUSTED_RATIO * (unsigned long long)src_len + (1 << 20) ?
		hint : 1 << 20;
	if (dctx)
		buf = malloc(cap);
	if (!dctx || !buf)
		goto oom;
	for (;;) {
		ZSTD_outBuffer ob = { buf + used, cap - used, 0 };

		ret = ZSTD_decompressStream(dctx, &ob, &ib);
		if (ZSTD_isError(ret)) {
			lkst_seterr(err, "%s: corrupt zstd data (%s); the file is damaged",
				    path, ZSTD_getErrorName(ret));
			goto fail;
		}
		used += ob.pos;
		/* All input taken: done, or cut short if the frame wants more. */
		if (ib.pos == ib.size && (!ret || used < cap))
			break;
		if (used < cap)
			continue;
		if (cap >= LKST_LOG_MAX_READ) {
			lkst_seterr(err, "%s: decompresses to more than %llu MiB, the most lkbuf reads; decompress it with zstd -d and give the plain file, if it is a log",
				    path, LKST_LOG_MAX_READ >> 20);
			goto fail;
		}
		want = cap * 2 > LKST_LOG_MAX_READ ? LKST_LOG_MAX_READ : cap * 2;
		bigger = realloc(buf, want);
		if (!bigger)
			goto oom;
		buf = bigger;
		cap = want;
	}
	if (ret) {
		lkst_seterr(err, "%s: the zstd data is cut short (a truncated .zst file); the file is incomplete",
			    path);
		goto fail;
	}
	ZSTD_freeDCtx(dctx);
	*out_len = used;
	return buf;
oom:
	lkst_seterr(err, "out of memory decompressing %s; free some memory", path);
fail:
	ZSTD_freeDCtx(dctx);
	free(buf);
	return NULL;
}

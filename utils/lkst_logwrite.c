// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkst log files, writing: the header and event table, CPU sections and
 * metadata into path.tmp renamed at the commit (or an unnamed file
 * compressed with zstd, or copied to standard output, a device or a FIFO,
 * at the commit).  Where path leads is lkst_outfile.h's rule.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst_logio.h"
#include "lkst_logio_int.h"
#include "lkst_logzst.h"
#include "lkst_outfile.h"

void lkst_log_header_init(struct lkst_log_header *h)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, LKST_LOG_MAGIC, LKST_LOG_MAGIC_LEN);
	h->byte_order = LKST_LOG_BYTE_ORDER;
	h->version = LKST_LOG_VERSION;
	h->header_size = sizeof(*h);
	h->record_size = sizeof(struct lkst_record);
	h->nr_event_ids = LKST_NR_EVENT_IDS;
	h->clock = LKST_CLOCK_MONOTONIC;
	h->abi_version = LKST_ABI_VERSION;
	strncpy(h->layout, LKST_LOG_LAYOUT, sizeof(h->layout) - 1);
}

/* ---- Writing -------------------------------------------------------- */

/* A log being written (lkst_logio.h); lkst_log_create() makes one. */
struct lkst_log_writer {
	FILE *fp;
	char *path;
	char *tmp_path;			/* out.tmp, or what names the unnamed file */
	struct outfile out;
	int out_fd;			/* standard output, a device or a FIFO; or -1 */
	struct lkst_log_header header;
	unsigned int nr_meta;
	struct lkst_log_pending_meta {
		__u32 type;
		void *data;
		size_t len;
	} *meta;
	int zstd;			/* compress at the commit */
	int to_stdout;			/* path "-" */
	int stream;			/* written through out_fd at the commit */
	int anon;			/* fp is an unnamed temporary file */
};

static int write_all(struct lkst_log_writer *w, const void *buf, size_t len,
		     struct lkst_err *err)
{
	if (len && fwrite(buf, len, 1, w->fp) != 1) {
		lkst_seterr(err, "cannot write %s: %s; check free space", w->tmp_path,
			    strerror(errno));
		return -1;
	}
	return 0;
}

/* The active event table, packed (lkst_log.h); the caller frees *out. */
static int encode_events(unsigned char **out, size_t *out_len, struct lkst_err *err)
{
	struct lkst_event_desc *descs = malloc(LKST_NR_EVENT_IDS * sizeof(*descs));
	struct lkst_log_events head = { 0 };
	struct lkst_log_event ev;
	unsigned char *buf = NULL, *p;
	unsigned int i, a;
	size_t len;

	if (descs) {
		head.nr = lkst_events_describe(descs);
		buf = malloc(sizeof(head) + (size_t)head.nr * (sizeof(ev) + sizeof(descs[0])));
	}
	if (!buf) {
		free(descs);
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	memcpy(buf, &head, sizeof(head));
	p = buf + sizeof(head);
	for (i = 0; i < head.nr; i++) {
		const struct lkst_event_desc *d = &descs[i];
		unsigned char *text = p + sizeof(ev);

		memset(&ev, 0, sizeof(ev));
		ev.id = d->id;
		ev.category = d->category;
		ev.flags = d->flags;
		memcpy(ev.arg_type, d->arg_type, sizeof(ev.arg_type));
		len = strlen(d->mnemonic) + 1;
		memcpy(text, d->mnemonic, len);
		text += len;
		len = strlen(d->description) + 1;
		memcpy(text, d->description, len);
		text += len;
		for (a = 0; a < LKST_NR_ARGS; a++) {
			len = strlen(d->arg_desc[a]) + 1;
			memcpy(text, d->arg_desc[a], len);
			text += len;
		}
		ev.text_size = text - (p + sizeof(ev));
		memcpy(p, &ev, sizeof(ev));
		p = text;
	}
	free(descs);
	*out = buf;
	*out_len = p - buf;
	return 0;
}

size_t lkst_log_meta_bytes(size_t payload)
{
	return sizeof(struct lkst_log_meta) + (payload + 7) / 8 * 8;
}

size_t lkst_log_event_table_bytes(void)
{
	struct lkst_err err;
	unsigned char *buf;
	size_t len;

	if (encode_events(&buf, &len, &err))
		return 0;
	free(buf);
	return lkst_log_meta_bytes(len);
}

static int add_event_table(struct lkst_log_writer *w, struct lkst_err *err)
{
	unsigned char *buf;
	size_t len;
	int ret;

	if (encode_events(&buf, &len, err))
		return -1;
	ret = lkst_log_add_meta(w, LKST_META_EVENTS, buf, len, err);
	free(buf);
	return ret;
}

static void writer_release(struct lkst_log_writer *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_meta; i++)
		free(w->meta[i].data);
	free(w->meta);
	free(w->path);
	free(w->tmp_path);
	outfile_free(&w->out);
	free(w);
}

/* The plain log of a compressed one or of standard output: an unnamed file. */
static FILE *open_anon(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = NULL;
	FILE *fp = NULL;
	int fd;

	if (strcmp(path, "-")) {
		dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) :
			strdup(".");
		fd = dir ? open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600) : -1;
		free(dir);
		if (fd >= 0 && !(fp = fdopen(fd, "w+b")))
			close(fd);
	}
	return fp ? fp : tmpfile();
}

/* A new path.tmp opened with mode (w+: read back if compressed at the commit). */
static FILE *create_tmp(struct lkst_log_writer *w, const char *mode, struct lkst_err *err)
{
	int fd = outfile_create_tmp(&w->out, err);
	FILE *fp;

	if (fd < 0)
		return NULL;
	fp = fdopen(fd, mode);
	if (!fp) {
		lkst_seterr(err, "cannot create %s: %s; free some memory", w->tmp_path,
			    strerror(errno));
		close(fd);
		unlink(w->tmp_path);
	}
	return fp;
}

struct lkst_log_writer *lkst_log_create(const char *path, const struct lkst_log_header *h,
					struct lkst_err *err)
{
	struct lkst_log_writer *w = calloc(1, sizeof(*w));

	if (!w) {
		lkst_seterr(err, "out of memory; free some memory");
		return NULL;
	}
	w->out_fd = -1;
	w->to_stdout = !strcmp(path, "-");
	w->zstd = logzst_path_zstd(path);
	if (!w->to_stdout && outfile_resolve(&w->out, path, "the log", 0, err)) {
		writer_release(w);
		return NULL;
	}
	w->stream = w->to_stdout || w->out.kind == OUTFILE_STREAM;
	w->path = strdup(path);
	if (w->to_stdout)
		w->tmp_path = strdup("a temporary file for standard output");
	else if (!w->stream)
		w->tmp_path = strdup(w->out.tmp);
	else if (asprintf(&w->tmp_path, "a temporary file for %s", path) < 0)
		w->tmp_path = NULL;
	if (!w->path || !w->tmp_path) {
		writer_release(w);
		lkst_seterr(err, "out of memory; free some memory");
		return NULL;
	}
	/* Opened first, as a shell's > would: a FIFO waits for its reader here. */
	if (w->stream) {
		w->out_fd = w->to_stdout ? STDOUT_FILENO : outfile_open_stream(&w->out, err);
		if (w->out_fd < 0) {
			writer_release(w);
			return NULL;
		}
	}
	w->anon = w->zstd || w->stream;
	if (w->anon) {
		/* A device's directory (/dev) is no place for the scratch copy. */
		w->fp = open_anon(w->stream ? "-" : w->out.target);
		if (!w->fp)
			lkst_seterr(err, "cannot create a temporary file (TMPDIR): %s; check the directory and its permissions",
				    strerror(errno));
	} else {
		w->fp = create_tmp(w, "w+b", err);
	}
	if (!w->fp) {
		if (w->out_fd >= 0 && !w->to_stdout)
			close(w->out_fd);
		writer_release(w);
		return NULL;
	}
	w->header = *h;
	if (write_all(w, h, sizeof(*h), err) || add_event_table(w, err)) {
		lkst_log_abort(w);
		return NULL;
	}
	return w;
}

void lkst_log_set_zstd(struct lkst_log_writer *w, int on)
{
	w->zstd = on;
}

int lkst_log_add_meta(struct lkst_log_writer *w, __u32 type, const void *data,
		      size_t len, struct lkst_err *err)
{
	struct lkst_log_pending_meta *m;

	m = realloc(w->meta, (w->nr_meta + 1) * sizeof(*m));
	if (!m) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	w->meta = m;
	m = &w->meta[w->nr_meta];
	m->type = type;
	m->len = len;
	m->data = malloc(len ? len : 1);
	if (!m->data) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	memcpy(m->data, data, len);
	w->nr_meta++;
	return 0;
}

/* Metadata after the last CPU section; then the header says where. */
static int write_meta(struct lkst_log_writer *w, struct lkst_err *err)
{
	static const char zeros[8];
	struct lkst_log_meta m = { 0 };
	off_t start = ftello(w->fp);
	unsigned int i;

	if (start < 0) {
		lkst_seterr(err, "cannot write %s: %s", w->tmp_path, strerror(errno));
		return -1;
	}
	for (i = 0; i < w->nr_meta; i++) {
		m.type = w->meta[i].type;
		m.size = w->meta[i].len;
		if (write_all(w, &m, sizeof(m), err) ||
		    write_all(w, w->meta[i].data, m.size, err) ||
		    write_all(w, zeros, (8 - m.size % 8) % 8, err))
			return -1;
	}
	w->header.meta_offset = start;
	w->header.meta_size = ftello(w->fp) - start;
	w->header.nr_meta = w->nr_meta;
	if (fseeko(w->fp, 0, SEEK_SET) ||
	    write_all(w, &w->header, sizeof(w->header), err)) {
		lkst_seterr(err, "cannot write %s: %s; check free space", w->tmp_path,
			    strerror(errno));
		return -1;
	}
	return 0;
}

/* The section's numbers account for its range (see lkst_log.h). */
static int check_seq_range(const struct lkst_log_cpu *c, const __u64 *seqs,
			   struct lkst_err *err)
{
	if (check_seq_count(c, err))
		return -1;
	return seqs ? check_seqs(c, seqs, 0, c->nr_records, err) : 0;
}

int lkst_log_write_cpu_seqs(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
			    const struct lkst_record *records, const __u64 *seqs,
			    struct lkst_err *err)
{
	struct lkst_log_cpu c = *cpu;
	uint64_t i, seq;

	if (!seqs && !c.seq_end && !c.lost)
		c.seq_end = c.seq_start + c.nr_records;
	if (check_seq_range(&c, seqs, err) ||
	    write_all(w, &c, sizeof(c), err) ||
	    write_all(w, records, c.nr_records * sizeof(*records), err))
		return -1;
	if (seqs)
		return write_all(w, seqs, c.nr_records * sizeof(*seqs), err);
	for (i = 0; i < c.nr_records; i++) {
		seq = c.seq_start + i;
		if (write_all(w, &seq, sizeof(seq), err))
			return -1;
	}
	return 0;
}

int lkst_log_write_cpu(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
		       const struct lkst_record *records, struct lkst_err *err)
{
	return lkst_log_write_cpu_seqs(w, cpu, records, NULL, err);
}

/*
 * Standard output, a device or a FIFO gets the log, compressed or not, at
 * the commit, written through in order.
 */
static int commit_stream(struct lkst_log_writer *w, struct lkst_err *err)
{
	int ret;

	if (fflush(w->fp)) {
		lkst_seterr(err, "cannot write %s: %s; check free space", w->tmp_path,
			    strerror(errno));
		return -1;
	}
	if (w->to_stdout) {
		fflush(stdout);
		return logzst_copy(w->fp, STDOUT_FILENO, w->zstd, "the log to standard output",
				   err);
	}
	ret = logzst_copy(w->fp, w->out_fd, w->zstd, w->path, err);
	if (close(w->out_fd) && !ret) {
		lkst_seterr(err, "cannot write %s: %s", w->path, strerror(errno));
		ret = -1;
	}
	w->out_fd = -1;
	return ret;
}

/*
 * A plain log written to an unnamed file (lkst_log_set_zstd() turned on
 * later, or a .zst name): compressed, or copied, into path.tmp.
 */
static int finish_anon(struct lkst_log_writer *w, struct lkst_err *err)
{
	FILE *out;
	int ret;

	if (fflush(w->fp)) {
		lkst_seterr(err, "cannot write %s: %s; check free space", w->tmp_path,
			    strerror(errno));
		return -1;
	}
	out = create_tmp(w, "wb", err);
	if (!out)
		return -1;
	ret = logzst_copy(w->fp, fileno(out), w->zstd, w->tmp_path, err);
	fclose(w->fp);
	w->fp = out;
	w->anon = 0;		/* from here on, abort removes path.tmp */
	return ret;
}

/* A plain path.tmp made compressed later: its name goes, its data stays open. */
static int finish_anon_or_compress(struct lkst_log_writer *w, struct lkst_err *err)
{
	if (!w->anon) {
		if (fflush(w->fp) || unlink(w->tmp_path)) {
			lkst_seterr(err, "cannot write %s: %s; check free space", w->tmp_path,
				    strerror(errno));
			return -1;
		}
		w->anon = 1;
	}
	return finish_anon(w, err);
}

int lkst_log_commit(struct lkst_log_writer *w, struct lkst_err *err)
{
	if (write_meta(w, err)) {
		lkst_log_abort(w);
		return -1;
	}
	if (w->stream) {
		if (commit_stream(w, err)) {
			lkst_log_abort(w);
			return -1;
		}
		fclose(w->fp);
		writer_release(w);
		return 0;
	}
	if ((w->anon || w->zstd) && finish_anon_or_compress(w, err)) {
		lkst_log_abort(w);
		return -1;
	}
	/* Data must be on disk before the rename makes it the real file. */
	if (fflush(w->fp) || fsync(fileno(w->fp))) {
		lkst_seterr(err, "cannot write %s: %s; check free space", w->tmp_path,
			    strerror(errno));
		lkst_log_abort(w);
		return -1;
	}
	if (fclose(w->fp)) {
		w->fp = NULL;
		lkst_seterr(err, "cannot write %s: %s; check free space", w->tmp_path,
			    strerror(errno));
		lkst_log_abort(w);
		return -1;
	}
	w->fp = NULL;
	if (outfile_commit(&w->out, err)) {
		lkst_log_abort(w);
		return -1;
	}
	writer_release(w);
	return 0;
}

void lkst_log_abort(struct lkst_log_writer *w)
{
	if (!w)
		return;
	if (w->fp)
		fclose(w->fp);
	if (w->out_fd >= 0 && !w->to_stdout)
		close(w->out_fd);
	if (!w->anon && !w->stream)
		outfile_discard(&w->out);
	writer_release(w);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lkst log files: writing with an atomic rename, strict reading.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst_logio.h"

_Static_assert(sizeof(struct lkst_record) == LKST_RECORD_SIZE, "record size");
_Static_assert(sizeof(struct lkst_log_header) % 8 == 0, "header keeps records aligned");
_Static_assert(sizeof(struct lkst_log_cpu) % 8 == 0, "cpu header keeps records aligned");
_Static_assert(sizeof(struct lkst_log_cpu_v1) == 40, "version 1 cpu header");

/* No CPU can hold more: LKST_MAX_BLOCKS blocks of the largest size. */
#define LKST_LOG_MAX_CPU_RECORDS \
	((uint64_t)LKST_MAX_BLOCKS * (LKST_BLOCK_MAX_SIZE / LKST_RECORD_SIZE))

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

int lkst_log_create(struct lkst_log_writer *w, const char *path,
		    const struct lkst_log_header *h, struct lkst_err *err)
{
	memset(w, 0, sizeof(*w));
	w->path = strdup(path);
	if (!w->path || asprintf(&w->tmp_path, "%s.tmp", path) < 0) {
		free(w->path);
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	w->fp = fopen(w->tmp_path, "wb");
	if (!w->fp) {
		lkst_seterr(err, "cannot create %s: %s; check the directory and its permissions",
			    w->tmp_path, strerror(errno));
		free(w->path);
		free(w->tmp_path);
		return -1;
	}
	if (write_all(w, h, sizeof(*h), err)) {
		lkst_log_abort(w);
		return -1;
	}
	return 0;
}

/* The section's numbers account for its range (see lkst_log.h). */
static int check_seq_range(const struct lkst_log_cpu *c, const __u64 *seqs,
			   struct lkst_err *err)
{
	uint64_t i;

	if (c->seq_end < c->seq_start || c->lost > c->seq_end - c->seq_start ||
	    c->nr_records != c->seq_end - c->seq_start - c->lost) {
		lkst_seterr(err, "cpu %u: %llu records and %llu lost do not fill sequence numbers %llu..%llu; the file is corrupt",
			    c->cpu, (unsigned long long)c->nr_records,
			    (unsigned long long)c->lost,
			    (unsigned long long)c->seq_start,
			    (unsigned long long)c->seq_end);
		return -1;
	}
	for (i = 0; seqs && i < c->nr_records; i++) {
		if (seqs[i] < c->seq_start || seqs[i] >= c->seq_end ||
		    (i && seqs[i] <= seqs[i - 1])) {
			lkst_seterr(err, "cpu %u: record %llu has sequence number %llu, out of order or outside %llu..%llu; the file is corrupt",
				    c->cpu, (unsigned long long)i,
				    (unsigned long long)seqs[i],
				    (unsigned long long)c->seq_start,
				    (unsigned long long)c->seq_end);
			return -1;
		}
	}
	return 0;
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

static void writer_release(struct lkst_log_writer *w)
{
	free(w->path);
	free(w->tmp_path);
	memset(w, 0, sizeof(*w));
}

int lkst_log_commit(struct lkst_log_writer *w, struct lkst_err *err)
{
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
	if (rename(w->tmp_path, w->path)) {
		lkst_seterr(err, "cannot rename %s to %s: %s; check the directory",
			    w->tmp_path, w->path, strerror(errno));
		lkst_log_abort(w);
		return -1;
	}
	writer_release(w);
	return 0;
}

void lkst_log_abort(struct lkst_log_writer *w)
{
	if (w->fp)
		fclose(w->fp);
	if (w->tmp_path)
		unlink(w->tmp_path);
	writer_release(w);
}

/* ---- Reading -------------------------------------------------------- */

static size_t section_size(unsigned int version)
{
	return version == 1 ? sizeof(struct lkst_log_cpu_v1) : sizeof(struct lkst_log_cpu);
}

static int check_header(const struct lkst_log_header *h, size_t len,
			struct lkst_err *err)
{
	size_t layout_len = strnlen(h->layout, sizeof(h->layout));

	if (h->byte_order != LKST_LOG_BYTE_ORDER) {
		if (h->byte_order == __builtin_bswap32(LKST_LOG_BYTE_ORDER))
			lkst_seterr(err, "saved on a machine of the other byte order; print it on a machine of the byte order that saved it");
		else
			lkst_seterr(err, "corrupt header: byte order mark 0x%08x, expected 0x%08x; the file is damaged",
				    h->byte_order, LKST_LOG_BYTE_ORDER);
		return -1;
	}
	if (h->version > LKST_LOG_VERSION) {
		lkst_seterr(err, "log format version %u is newer than this lkbuf, which reads versions %u to %u; use a newer lkbuf",
			    h->version, LKST_LOG_VERSION_MIN, LKST_LOG_VERSION);
		return -1;
	}
	if (h->version < LKST_LOG_VERSION_MIN) {
		lkst_seterr(err, "log format version %u does not exist (this lkbuf reads versions %u to %u); the file is damaged",
			    h->version, LKST_LOG_VERSION_MIN, LKST_LOG_VERSION);
		return -1;
	}
	if (h->header_size != sizeof(*h)) {
		lkst_seterr(err, "header size %u, expected %zu; use the lkbuf that saved it",
			    h->header_size, sizeof(*h));
		return -1;
	}
	if (h->record_size != sizeof(struct lkst_record)) {
		lkst_seterr(err, "record size %u, expected %zu; use the lkbuf that saved it",
			    h->record_size, sizeof(struct lkst_record));
		return -1;
	}
	if (layout_len == sizeof(h->layout) || strcmp(h->layout, LKST_LOG_LAYOUT)) {
		lkst_seterr(err, "record layout \"%.*s\", expected \"%s\"; use the lkbuf that saved it",
			    (int)layout_len, h->layout, LKST_LOG_LAYOUT);
		return -1;
	}
	if (h->nr_cpus > (len - sizeof(*h)) / section_size(h->version)) {
		lkst_seterr(err, "header claims %u CPU sections but the file holds at most %zu; the file is truncated or corrupt",
			    h->nr_cpus, (len - sizeof(*h)) / section_size(h->version));
		return -1;
	}
	return 0;
}

static int check_records(const struct lkst_log_section *s, struct lkst_err *err)
{
	uint64_t i;

	for (i = 0; i < s->info.nr_records; i++) {
		if (s->records[i].context > LKST_CTX_NMI) {
			lkst_seterr(err, "corrupt record %llu of cpu %u: context %u (0..3 are valid); the file is damaged",
				    (unsigned long long)i, s->info.cpu,
				    s->records[i].context);
			return -1;
		}
	}
	return 0;
}

/* Reads one CPU section of a version @version file at *offset; advances *offset. */
static int parse_section(const unsigned char *image, size_t len, size_t *offset,
			 unsigned int version, unsigned int index,
			 struct lkst_log_section *s, struct lkst_err *err)
{
	size_t left = len - *offset, hsize = section_size(version);
	size_t per_record = sizeof(struct lkst_record) + (version == 1 ? 0 : sizeof(__u64));
	uint64_t room;

	if (left < hsize) {
		lkst_seterr(err, "truncated: CPU section %u is cut short (%zu of %zu header bytes); the file is incomplete",
			    index, left, hsize);
		return -1;
	}
	memset(&s->info, 0, sizeof(s->info));
	memcpy(&s->info, image + *offset, hsize);	/* v1: a prefix of v2 */
	*offset += hsize;
	left -= hsize;

	room = left / per_record;
	if (s->info.nr_records > LKST_LOG_MAX_CPU_RECORDS) {
		lkst_seterr(err, "corrupt: cpu %u claims %llu records, more than any buffer holds; the file is damaged",
			    s->info.cpu, (unsigned long long)s->info.nr_records);
		return -1;
	}
	if (s->info.nr_records > room) {
		lkst_seterr(err, "truncated: expected %llu records for cpu %u, found %llu; the file is incomplete",
			    (unsigned long long)s->info.nr_records, s->info.cpu,
			    (unsigned long long)room);
		return -1;
	}
	s->records = (const struct lkst_record *)(image + *offset);
	*offset += s->info.nr_records * sizeof(struct lkst_record);
	s->seqs = NULL;
	if (version > 1) {
		s->seqs = (const __u64 *)(image + *offset);
		*offset += s->info.nr_records * sizeof(__u64);
		if (check_seq_range(&s->info, s->seqs, err))
			return -1;
	}
	return check_records(s, err);
}

int lkst_log_parse(void *image, size_t len, struct lkst_log *log,
		   struct lkst_err *err)
{
	const unsigned char *bytes = image;
	size_t offset, magic_len = len < LKST_LOG_MAGIC_LEN ? len : LKST_LOG_MAGIC_LEN;
	unsigned int i;

	memset(log, 0, sizeof(*log));
	if (len == 0) {
		lkst_seterr(err, "empty file, not an lkst log file; save one with lkbuf read");
		return -1;
	}
	if (memcmp(bytes, LKST_LOG_MAGIC, magic_len)) {
		lkst_seterr(err, "not an lkst log file (bad magic); give a file saved by lkbuf read");
		return -1;
	}
	if (len < sizeof(log->header)) {
		lkst_seterr(err, "truncated header: %zu of %zu bytes; the file is incomplete",
			    len, sizeof(log->header));
		return -1;
	}
	memcpy(&log->header, bytes, sizeof(log->header));
	if (check_header(&log->header, len, err))
		return -1;
	log->header.nodename[sizeof(log->header.nodename) - 1] = '\0';
	log->header.release[sizeof(log->header.release) - 1] = '\0';

	log->nr_sections = log->header.nr_cpus;
	log->sections = calloc(log->nr_sections ? log->nr_sections : 1,
			       sizeof(*log->sections));
	if (!log->sections) {
		lkst_seterr(err, "out of memory for %u CPU sections; free some memory",
			    log->nr_sections);
		return -1;
	}
	offset = sizeof(log->header);
	for (i = 0; i < log->nr_sections; i++) {
		if (parse_section(bytes, len, &offset, log->header.version, i,
				  &log->sections[i], err))
			goto fail;
	}
	if (offset != len) {
		lkst_seterr(err, "%zu bytes after the last CPU section; the file is corrupt",
			    len - offset);
		goto fail;
	}
	log->image = image;
	return 0;
fail:
	free(log->sections);
	log->sections = NULL;
	return -1;
}

static void *read_file(int fd, size_t *len, struct lkst_err *err, const char *path)
{
	size_t cap = 1 << 16, used = 0;
	unsigned char *buf = malloc(cap), *bigger;
	ssize_t n;

	while (buf) {
		if (used == cap) {
			bigger = realloc(buf, cap * 2);
			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			lkst_seterr(err, "cannot read %s: %s; give a regular log file",
				    path, strerror(errno));
			free(buf);
			return NULL;
		}
		if (n == 0) {
			*len = used;
			return buf;
		}
		used += n;
		/*
		 * Not a log: stop at its first bytes, so that /dev/zero or an
		 * endless pipe is refused (by the parser's magic check) instead
		 * of filling memory.
		 */
		if (used >= LKST_LOG_MAGIC_LEN &&
		    memcmp(buf, LKST_LOG_MAGIC, LKST_LOG_MAGIC_LEN)) {
			*len = used;
			return buf;
		}
	}
	free(buf);
	lkst_seterr(err, "out of memory reading %s; free some memory", path);
	return NULL;
}

int lkst_log_load(const char *path, struct lkst_log *log, struct lkst_err *err)
{
	struct lkst_err why;
	size_t len = 0;
	void *image;
	int fd;

	memset(log, 0, sizeof(*log));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lkst_seterr(err, "cannot open %s: %s; check the file name", path,
			    strerror(errno));
		return -1;
	}
	image = read_file(fd, &len, err, path);
	close(fd);
	if (!image)
		return -1;
	if (lkst_log_parse(image, len, log, &why)) {
		lkst_seterr(err, "%s: %s", path, why.msg);
		free(image);
		return -1;
	}
	return 0;
}

void lkst_log_free(struct lkst_log *log)
{
	free(log->sections);
	free(log->image);
	memset(log, 0, sizeof(*log));
}

/* ---- All sections in time order --------------------------------------- */

struct sort_key {
	__u64 time_ns;
	__u32 index;
};

static int compare_keys(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts a section by time only if it is not in time order already. */
static int init_run(const struct lkst_log_section *sec, struct lkst_log_run *run,
		    struct lkst_err *err)
{
	__u64 i, n = sec->info.nr_records;
	struct sort_key *keys;

	run->sec = sec;
	run->order = NULL;
	run->next = 0;
	for (i = 1; i < n; i++)
		if (sec->records[i].time_ns < sec->records[i - 1].time_ns)
			break;
	if (i >= n)
		return 0;
	keys = malloc(n * sizeof(*keys));
	run->order = malloc(n * sizeof(*run->order));
	if (!keys || !run->order) {
		free(keys);
		free(run->order);
		run->order = NULL;
		lkst_seterr(err, "out of memory sorting %llu records of cpu %u; free some memory",
			    (unsigned long long)n, sec->info.cpu);
		return -1;
	}
	for (i = 0; i < n; i++) {
		keys[i].time_ns = sec->records[i].time_ns;
		keys[i].index = i;
	}
	qsort(keys, n, sizeof(*keys), compare_keys);
	for (i = 0; i < n; i++)
		run->order[i] = keys[i].index;
	free(keys);
	return 0;
}

int lkst_log_merge_init(struct lkst_log_merge *m, const struct lkst_log *log,
			struct lkst_err *err)
{
	unsigned int s;

	m->log = log;
	m->runs = calloc(log->nr_sections ? log->nr_sections : 1, sizeof(*m->runs));
	if (!m->runs) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	for (s = 0; s < log->nr_sections; s++) {
		if (init_run(&log->sections[s], &m->runs[s], err)) {
			lkst_log_merge_free(m);
			return -1;
		}
	}
	return 0;
}

void lkst_log_merge_free(struct lkst_log_merge *m)
{
	unsigned int s;

	for (s = 0; m->runs && s < m->log->nr_sections; s++)
		free(m->runs[s].order);
	free(m->runs);
	m->runs = NULL;
}

void lkst_log_merge_rewind(struct lkst_log_merge *m)
{
	unsigned int s;

	for (s = 0; s < m->log->nr_sections; s++)
		m->runs[s].next = 0;
}

const struct lkst_record *lkst_log_merge_next(struct lkst_log_merge *m,
					      unsigned int *section)
{
	const struct lkst_record *best = NULL, *r;
	unsigned int s, best_s = 0;

	for (s = 0; s < m->log->nr_sections; s++) {
		struct lkst_log_run *run = &m->runs[s];

		if (run->next >= run->sec->info.nr_records)
			continue;
		r = lkst_log_run_record(run, run->next);
		if (!best || r->time_ns < best->time_ns ||
		    (r->time_ns == best->time_ns &&
		     run->sec->info.cpu < m->runs[best_s].sec->info.cpu)) {
			best = r;
			best_s = s;
		}
	}
	if (best) {
		m->runs[best_s].next++;
		*section = best_s;
	}
	return best;
}

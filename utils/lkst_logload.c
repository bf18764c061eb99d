// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkst log files, loading: a file mapped, or a pipe, device or standard
 * input read to its end, zstd or plain; the header, CPU sections and
 * metadata strictly checked and parsed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkst_logio.h"
#include "lkst_logio_int.h"
#include "lkst_logzst.h"

/* No CPU can hold more: LKST_MAX_BLOCKS blocks of the largest size. */
#define LKST_LOG_MAX_CPU_RECORDS \
	((uint64_t)LKST_MAX_BLOCKS * (LKST_BLOCK_MAX_SIZE / LKST_RECORD_SIZE))

/* ---- Reading -------------------------------------------------------- */

/*
 * One string of a packed event into a field of @size bytes: it must end
 * within the text and fit.  Returns its length + 1, or 0.
 */
static size_t take_string(const unsigned char *text, size_t left, char *field,
			  size_t size)
{
	const unsigned char *end = memchr(text, 0, left);
	size_t len;

	if (!end)
		return 0;
	len = end - text;
	if (len >= size)
		return 0;
	memcpy(field, text, len + 1);
	return len + 1;
}

/* A packed event table into descriptions (nr set); 0, or -1 with err. */
static int decode_events(const unsigned char *data, size_t len,
			 struct lkst_event_desc **out, unsigned int *nr,
			 struct lkst_err *err)
{
	struct lkst_log_events head;
	struct lkst_event_desc *descs, *d;
	struct lkst_log_event ev;
	size_t off = sizeof(head), left, used;
	unsigned int i, a;
	struct lkst_err why;

	if (len < sizeof(head)) {
		lkst_seterr(err, "event table of %zu bytes is cut short; the file is damaged",
			    len);
		return -1;
	}
	memcpy(&head, data, sizeof(head));
	if (head.nr > LKST_NR_EVENT_IDS ||
	    head.nr > (len - sizeof(head)) / sizeof(ev)) {
		lkst_seterr(err, "event table claims %u events in %zu bytes; the file is damaged",
			    head.nr, len);
		return -1;
	}
	descs = calloc(head.nr ? head.nr : 1, sizeof(*descs));
	if (!descs) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	for (i = 0; i < head.nr; i++) {
		d = &descs[i];
		if (len - off < sizeof(ev))
			goto cut;
		memcpy(&ev, data + off, sizeof(ev));
		off += sizeof(ev);
		if (ev.text_size > len - off)
			goto cut;
		d->id = ev.id;
		d->category = ev.category;
		d->flags = ev.flags;
		memcpy(d->arg_type, ev.arg_type, sizeof(ev.arg_type));
		left = ev.text_size;
		used = take_string(data + off, left, d->mnemonic, sizeof(d->mnemonic));
		if (!used)
			goto bad_text;
		off += used;
		left -= used;
		used = take_string(data + off, left, d->description, sizeof(d->description));
		if (!used)
			goto bad_text;
		off += used;
		left -= used;
		for (a = 0; a < LKST_NR_ARGS; a++) {
			used = take_string(data + off, left, d->arg_desc[a],
					   sizeof(d->arg_desc[a]));
			if (!used)
				goto bad_text;
			off += used;
			left -= used;
		}
		if (left) {
			lkst_seterr(err, "event 0x%02x: %zu bytes of text too many; the file is damaged",
				    ev.id, left);
			goto fail;
		}
	}
	if (off != len) {
		lkst_seterr(err, "%zu bytes after the event table; the file is damaged",
			    len - off);
		goto fail;
	}
	if (lkst_events_check(descs, head.nr, sizeof(*descs), &why)) {
		lkst_seterr(err, "the log's event table: %s", why.msg);
		goto fail;
	}
	*out = descs;
	*nr = head.nr;
	return 0;
cut:
	lkst_seterr(err, "event table cut short at event %u of %u; the file is damaged",
		    i, head.nr);
	goto fail;
bad_text:
	lkst_seterr(err, "event %u of the table (ID 0x%02x): a name or description unterminated or too long; the file is damaged",
		    i, ev.id);
fail:
	free(descs);
	return -1;
}

static size_t header_size_of(unsigned int version)
{
	return version < 3 ? LKST_LOG_HEADER_V2_SIZE : sizeof(struct lkst_log_header);
}

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
	if (h->header_size != header_size_of(h->version)) {
		lkst_seterr(err, "header size %u, expected %zu; use the lkbuf that saved it",
			    h->header_size, header_size_of(h->version));
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
	if (len < h->header_size) {
		lkst_seterr(err, "truncated header: %zu of %u bytes; the file is incomplete",
			    len, h->header_size);
		return -1;
	}
	if (h->nr_cpus > (len - h->header_size) / section_size(h->version)) {
		lkst_seterr(err, "header claims %u CPU sections but the file holds at most %zu; the file is truncated or corrupt",
			    h->nr_cpus, (len - h->header_size) / section_size(h->version));
		return -1;
	}
	if (h->version >= 3 && h->meta_offset <= len && h->meta_size <= len &&
	    h->meta_offset + h->meta_size < len) {
		lkst_seterr(err, "%llu bytes after the end of the log; the file is corrupt",
			    (unsigned long long)(len - h->meta_offset - h->meta_size));
		return -1;
	}
	if (h->version >= 3 &&
	    (h->meta_offset < h->header_size || h->meta_offset > len ||
	     h->meta_size != len - h->meta_offset ||
	     h->nr_meta > h->meta_size / sizeof(struct lkst_log_meta))) {
		lkst_seterr(err, "metadata of %llu bytes at %llu in %u sections does not end the %zu-byte file; the file is truncated or corrupt",
			    (unsigned long long)h->meta_size,
			    (unsigned long long)h->meta_offset, h->nr_meta, len);
		return -1;
	}
	return 0;
}
/* Every record's context is valid; notes whether they are in time order. */
static int check_records(struct lkst_log_section *s, int mapped, struct lkst_err *err)
{
	const struct lkst_record *r = s->records;
	uint64_t i, n = s->info.nr_records, from, to;
	int ordered = 1;

	for (from = 0; from < n; from = to) {
		to = n - from > RELEASE_RECORDS ? from + RELEASE_RECORDS : n;
		for (i = from; i < to; i++) {
			if (r[i].context > LKST_CTX_NMI) {
				lkst_seterr(err, "corrupt record %llu of cpu %u: context %u (0..3 are valid); the file is damaged",
					    (unsigned long long)i, s->info.cpu,
					    r[i].context);
				return -1;
			}
			ordered &= !i || r[i].time_ns >= r[i - 1].time_ns;
		}
		release_range(mapped, &r[from], &r[to]);
	}
	s->time_ordered = ordered;
	return 0;
}

/* Reads one CPU section of a version @version file at *offset; advances *offset. */
static int parse_section(const unsigned char *image, size_t len, size_t *offset,
			 unsigned int version, unsigned int index, int mapped,
			 struct lkst_log_section *s, struct lkst_err *err)
{
	size_t left = len - *offset, hsize = section_size(version);
	size_t per_record = sizeof(struct lkst_record) + (version == 1 ? 0 : sizeof(__u64));
	uint64_t room, from, to, n;

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
	n = s->info.nr_records;
	if (n > LKST_LOG_MAX_CPU_RECORDS) {
		lkst_seterr(err, "corrupt: cpu %u claims %llu records, more than any buffer holds; the file is damaged",
			    s->info.cpu, (unsigned long long)n);
		return -1;
	}
	if (n > room) {
		lkst_seterr(err, "truncated: expected %llu records for cpu %u, found %llu; the file is incomplete",
			    (unsigned long long)n, s->info.cpu,
			    (unsigned long long)room);
		return -1;
	}
	s->records = (const struct lkst_record *)(image + *offset);
	*offset += n * sizeof(struct lkst_record);
	s->seqs = NULL;
	if (version > 1) {
		s->seqs = (const __u64 *)(image + *offset);
		*offset += n * sizeof(__u64);
		if (check_seq_count(&s->info, err))
			return -1;
		for (from = 0; from < n; from = to) {
			to = n - from > RELEASE_RECORDS ? from + RELEASE_RECORDS : n;
			if (check_seqs(&s->info, s->seqs, from, to, err))
				return -1;
			release_range(mapped, &s->seqs[from], &s->seqs[to]);
		}
	}
	return check_records(s, mapped, err);
}

/* Metadata sections, from meta_offset to the end (checked by the header). */
static int parse_meta(const unsigned char *image, size_t len, struct lkst_log *log,
		      struct lkst_err *err)
{
	size_t offset = log->header.meta_offset;
	struct lkst_log_meta m;
	unsigned int i, events = 0, tasks = 0;

	log->nr_meta = log->header.nr_meta;
	log->meta = calloc(log->nr_meta ? log->nr_meta : 1, sizeof(*log->meta));
	if (!log->meta) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	for (i = 0; i < log->nr_meta; i++) {
		if (len - offset < sizeof(m)) {
			lkst_seterr(err, "metadata section %u is cut short; the file is damaged", i);
			return -1;
		}
		memcpy(&m, image + offset, sizeof(m));
		offset += sizeof(m);
		if (m.size > len - offset || (m.size + 7) / 8 * 8 > len - offset) {
			lkst_seterr(err, "metadata section %u claims %llu bytes, %zu are left; the file is damaged",
				    i, (unsigned long long)m.size, len - offset);
			return -1;
		}
		log->meta[i].type = m.type;
		log->meta[i].data = image + offset;
		log->meta[i].len = m.size;
		offset += (m.size + 7) / 8 * 8;
		/* Task names are checked whole here, so every tool may trust them. */
		if (m.type == LKST_META_TASKS) {
			if (tasks++) {
				lkst_seterr(err, "two task name tables; the file is damaged");
				return -1;
			}
			if (lkst_tasks_load(log->meta[i].data, m.size, NULL, err))
				return -1;
			continue;
		}
		/* Other types (later versions' too) are kept unread. */
		if (m.type != LKST_META_EVENTS)
			continue;
		if (events++) {
			lkst_seterr(err, "two event tables; the file is damaged");
			return -1;
		}
		if (decode_events(log->meta[i].data, m.size, &log->events,
				  &log->nr_events, err))
			return -1;
	}
	if (offset != len) {
		lkst_seterr(err, "%zu bytes after the last metadata section; the file is corrupt",
			    len - offset);
		return -1;
	}
	if (!events) {
		lkst_seterr(err, "a version %u log without its event table; the file is damaged",
			    log->header.version);
		return -1;
	}
	return 0;
}

static int parse_image(void *image, size_t len, int mapped, struct lkst_log *log,
		       struct lkst_err *err)
{
	const unsigned char *bytes = image;
	size_t offset, end, magic_len = len < LKST_LOG_MAGIC_LEN ? len : LKST_LOG_MAGIC_LEN;
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
	if (len < LKST_LOG_HEADER_V2_SIZE) {
		lkst_seterr(err, "truncated header: %zu of %zu bytes; the file is incomplete",
			    len, LKST_LOG_HEADER_V2_SIZE);
		return -1;
	}
	/* A version 1 or 2 header is a prefix; the rest stays zero. */
	memcpy(&log->header, bytes, LKST_LOG_HEADER_V2_SIZE);
	if (log->header.version >= 3 && len >= sizeof(log->header))
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
	offset = log->header.header_size;
	end = log->header.version >= 3 ? log->header.meta_offset : len;
	for (i = 0; i < log->nr_sections; i++) {
		if (parse_section(bytes, end, &offset, log->header.version, i, mapped,
				  &log->sections[i], err))
			goto fail;
	}
	if (offset != end) {
		lkst_seterr(err, "%zu bytes after the last CPU section; the file is corrupt",
			    end - offset);
		goto fail;
	}
	if (log->header.version >= 3 && parse_meta(bytes, len, log, err))
		goto fail;
	log->image = image;
	log->image_len = len;
	log->mapped = mapped;
	return 0;
fail:
	free(log->sections);
	log->sections = NULL;
	free(log->meta);
	log->meta = NULL;
	free(log->events);
	log->events = NULL;
	return -1;
}

int logio_parse(void *image, size_t len, struct lkst_log *log, struct lkst_err *err)
{
	return parse_image(image, len, 0, log, err);
}

/* ---- Mapping a file ---------------------------------------------------- */

/*
 * A mapped file that shrinks under us (another program truncates it, or
 * its storage fails) raises SIGBUS where its pages are gone.  The library
 * does not handle it (it never exits); a program can, through these hooks
 * (lkst_cli.c's lkst_log_exit_on_sigbus()).
 */
static const struct lkst_log_map_hooks *map_hooks;

void lkst_log_set_map_hooks(const struct lkst_log_map_hooks *hooks)
{
	map_hooks = hooks;
}

static void watch_mapping(const void *start, size_t len, const char *path)
{
	if (map_hooks && map_hooks->mapped)
		map_hooks->mapped(start, len, path);
}

static void unwatch_mapping(const void *start)
{
	if (map_hooks && map_hooks->unmapped)
		map_hooks->unmapped(start);
}

/* A read-only private mapping of a regular file; NULL if it cannot be mapped. */
static void *map_file(int fd, size_t *len)
{
	struct stat st;
	void *image;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (unsigned long long)st.st_size > SIZE_MAX)
		return NULL;
	image = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (image == MAP_FAILED)
		return NULL;
	/* Each section is read front to back: read ahead far. */
	madvise(image, st.st_size, MADV_SEQUENTIAL);
	*len = st.st_size;
	return image;
}

/* ---- Spooling what cannot be mapped as it is ---------------------------- */

/*
 * A pipe, a device, standard input or a zstd stream is copied, as it is
 * read or decompressed, into an unnamed temporary file which is then
 * mapped and parsed as a file is: the process holds one buffer of it at a
 * time, however big the log, and a corrupt or hostile input is refused
 * from its first bytes, before any of it is kept.
 */

int logio_tmpfile(const char *near, struct lkst_err *err)
{
	const char *env = getenv("TMPDIR");
	char dir[4096], tried[3][4096];
	const char *cand[3];
	unsigned int i, n = 0;
	int fd, saved = 0;
	char *slash;

	/*
	 * TMPDIR when set; else beside the input, on the file system that
	 * held it; else /tmp.  A directory we cannot write is passed over.
	 */
	if (env && *env)
		cand[n++] = env;
	if (near && strlen(near) < sizeof(dir)) {
		strcpy(dir, near);
		slash = strrchr(dir, '/');
		if (slash) {
			*(slash == dir ? slash + 1 : slash) = '\0';
			cand[n++] = dir;
		} else if (strcmp(near, "-")) {
			cand[n++] = ".";
		}
	}
	cand[n++] = "/tmp";
	for (i = 0; i < n; i++) {
		snprintf(tried[i], sizeof(tried[i]), "%s", cand[i]);
		fd = open(cand[i], O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		saved = errno;
		/* A file system without O_TMPFILE: a named file, unlinked at once. */
		if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) {
			char tmpl[4200];

			snprintf(tmpl, sizeof(tmpl), "%s/.lkst-read.XXXXXX", cand[i]);
			fd = mkostemp(tmpl, O_CLOEXEC);
			if (fd >= 0) {
				unlink(tmpl);
				return fd;
			}
			saved = errno;
		}
	}
	lkst_seterr(err, "cannot create a temporary file in %s: %s; set TMPDIR to a writable directory",
		    tried[0], strerror(saved));
	return -1;
}

int logio_write_tmp(int fd, const void *buf, size_t len, struct lkst_err *err)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			lkst_seterr(err, "cannot write a temporary file: %s; set TMPDIR to a directory with room",
				    n < 0 ? strerror(errno) : "no room");
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int logio_parse_tmp(int fd, size_t len, const char *name, const char *what,
		    struct lkst_log *log, struct lkst_err *err)
{
	struct lkst_err why;
	void *image = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;

	close(fd);
	memset(log, 0, sizeof(*log));
	if (image == MAP_FAILED) {
		lkst_seterr(err, "%s: cannot map its temporary copy: %s; free some memory",
			    name, len ? strerror(errno) : "empty");
		return -1;
	}
	madvise(image, len, MADV_SEQUENTIAL);
	watch_mapping(image, len, name);
	if (parse_image(image, len, 1, log, &why)) {
		lkst_seterr(err, "%s%s: %s", name, what, why.msg);
		unwatch_mapping(image);
		munmap(image, len);
		return -1;
	}
	return 0;
}

/*
 * Follows the header and the section headers as the bytes pass, keeping
 * only the one being read, to know how long the log is before all of it
 * is there: reading stops where it must end, or at the first bytes of
 * what cannot be a log.
 */
struct stream_walk {
	int have_header, done, bad;
	unsigned int version;
	uint32_t section, nr_sections;
	uint64_t offset;		/* of the header being read; done: the length */
	uint64_t meta_offset, meta_size;	/* version 3 */
	unsigned char cap[sizeof(struct lkst_log_header)];
	size_t cap_len;			/* bytes of it in cap */
};

/* Bytes of the header being read that the walk needs (cap holds some). */
static size_t walk_need(const struct stream_walk *w)
{
	struct lkst_log_header h;

	if (w->have_header)
		return section_size(w->version);
	if (w->cap_len < LKST_LOG_HEADER_V2_SIZE)
		return LKST_LOG_HEADER_V2_SIZE;
	memcpy(&h, w->cap, LKST_LOG_HEADER_V2_SIZE);
	return h.version >= 3 ? sizeof(h) : LKST_LOG_HEADER_V2_SIZE;
}

/* Feeds the n bytes at position at of the stream (positions contiguous). */
static void walk_feed(struct stream_walk *w, uint64_t at, const unsigned char *buf, size_t n)
{
	struct lkst_log_header h;
	uint64_t from, nr;
	size_t need, k;

	while (!w->done && !w->bad) {
		if (w->have_header && w->section == w->nr_sections) {
			/* Version 3: the metadata follows the sections and ends the log. */
			if (w->version >= 3) {
				if (w->offset != w->meta_offset ||
				    w->meta_size > UINT64_MAX - w->offset) {
					w->bad = 1;
					return;
				}
				w->offset += w->meta_size;
			}
			w->done = 1;
			return;
		}
		/* Take what this chunk holds of the header being read. */
		for (;;) {
			need = walk_need(w);
			from = w->offset + w->cap_len;
			if (w->cap_len >= need || from < at || from >= at + n)
				break;
			k = need - w->cap_len;
			if (k > at + n - from)
				k = at + n - from;
			memcpy(w->cap + w->cap_len, buf + (from - at), k);
			w->cap_len += k;
		}
		/* Not a log: refused at its first bytes (/dev/zero, yes, a zstd bomb). */
		if (!w->have_header &&
		    memcmp(w->cap, LKST_LOG_MAGIC,
			   w->cap_len < LKST_LOG_MAGIC_LEN ? w->cap_len : LKST_LOG_MAGIC_LEN)) {
			w->bad = 1;
			return;
		}
		if (w->cap_len < need)
			return;
		if (!w->have_header) {
			memset(&h, 0, sizeof(h));
			memcpy(&h, w->cap, need);
			if (h.byte_order != LKST_LOG_BYTE_ORDER ||
			    h.version < LKST_LOG_VERSION_MIN || h.version > LKST_LOG_VERSION ||
			    h.header_size != header_size_of(h.version) ||
			    h.record_size != sizeof(struct lkst_record)) {
				w->bad = 1;
				return;
			}
			w->have_header = 1;
			w->version = h.version;
			w->nr_sections = h.nr_cpus;
			w->offset = h.header_size;
			w->meta_offset = h.meta_offset;
			w->meta_size = h.meta_size;
			w->cap_len = 0;
			continue;
		}
		memcpy(&nr, w->cap + offsetof(struct lkst_log_cpu, nr_records), sizeof(nr));
		if (nr > LKST_LOG_MAX_CPU_RECORDS) {
			w->bad = 1;
			return;
		}
		w->offset += need + nr * (sizeof(struct lkst_record) +
					  (w->version == 1 ? 0 : sizeof(__u64)));
		w->section++;
		w->cap_len = 0;
	}
}

/* Bytes read past the end of a complete log to count them for the message. */
#define STREAM_EXTRA	(1u << 20)
/*
 * Logs compress about 10x, their symbol tables 5x; zstd can compress a run
 * of zeros 30000x.  A stream that decompresses to more than this many
 * times what it has consumed, beyond the first ZSTD_SLACK bytes, is not a
 * log: it is refused before it fills the disk.
 */
#define ZSTD_MAX_RATIO	1024
#define ZSTD_SLACK	(64ull << 20)
#define SPOOL_CHUNK	(128u << 10)

/* Where the bytes come from: mem first (a mapping or what was read), then fd. */
struct spool_src {
	const unsigned char *mem;
	size_t mem_len;
	int mem_mapped;			/* mem is a mapping: give back what was read */
	int fd;				/* -1: nothing after mem */
};

/* The next input chunk (0 at the end), or -1 with err set. */
static ssize_t spool_in(struct spool_src *src, unsigned char *buf, const unsigned char **out,
			const char *name, struct lkst_err *err)
{
	size_t k;
	ssize_t n;

	if (src->mem_len) {
		k = src->mem_len < (1u << 20) ? src->mem_len : (1u << 20);
		*out = src->mem;
		src->mem += k;
		src->mem_len -= k;
		return k;
	}
	if (src->fd < 0)
		return 0;
	do
		n = read(src->fd, buf, SPOOL_CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		lkst_seterr(err, "cannot read %s: %s; give a regular log file", name, strerror(errno));
		return -1;
	}
	*out = buf;
	return n;
}

struct spool {
	struct stream_walk walk;
	uint64_t pos;			/* bytes of the log seen */
	uint64_t kept;			/* of them written */
	int fd;				/* the temporary file, once the header is good */
	int stop;			/* the walk says not a log, or the end is past */
	int endless;			/* more than STREAM_EXTRA after the end */
	const char *near;
	const char *name;		/* the input, in messages */
	int zstd;
};

/*
 * The least the whole log can take: every section left has a header.
 * What is spooled is bounded by what its header claims, so that a pipe
 * of zeros after a header that claims billions of empty sections, or a
 * zstd stream that would decompress to them, is refused at once instead
 * of filling the disk.
 */
static uint64_t stream_least(const struct stream_walk *w)
{
	uint64_t least;

	if (!w->have_header)
		return 0;
	if (w->done)
		return w->offset;
	least = w->offset + (uint64_t)(w->nr_sections - w->section) * section_size(w->version);
	if (w->version >= 3)
		least = w->meta_size > UINT64_MAX - least ? UINT64_MAX : least + w->meta_size;
	return least;
}

/* n more bytes of the log: walked, then kept. */
static int spool_out(struct spool *sp, const unsigned char *buf, size_t n,
		     struct lkst_err *err)
{
	struct stream_walk *w = &sp->walk;
	unsigned char prefix[sizeof(w->cap)];
	size_t prefix_len = 0;

	/* Until the header is whole, what came before is only in the walk. */
	if (!w->have_header) {
		prefix_len = sp->pos;
		memcpy(prefix, w->cap, prefix_len);
	}
	walk_feed(w, sp->pos, buf, n);
	sp->pos += n;
	if (w->bad && !w->have_header) {
		sp->stop = 1;
		return 0;
	}
	if (!w->have_header)
		return 0;		/* the header so far is in the walk */
	if (sp->fd < 0) {
		sp->fd = logio_tmpfile(sp->near, err);
		if (sp->fd < 0 || logio_write_tmp(sp->fd, prefix, prefix_len, err))
			return -1;
		sp->kept = prefix_len;
	}
	if (stream_least(w) > LKST_LOG_MAX_READ) {
		lkst_seterr(err, "%s: the log claims more than %llu MiB (%u CPU sections), the most lkbuf reads from %s; if it is that big, %s, else it is corrupt",
			    sp->name, LKST_LOG_MAX_READ >> 20, w->nr_sections,
			    sp->zstd ? "zstd data" : "a pipe or a device",
			    sp->zstd ? "decompress it with zstd -d and give the plain file" :
			    "save it to a file and give the file");
		return -1;
	}
	if (w->bad)
		sp->stop = 1;
	if (w->done && sp->pos > w->offset + STREAM_EXTRA)
		sp->stop = sp->endless = 1;
	if (logio_write_tmp(sp->fd, buf, n, err))
		return -1;
	sp->kept += n;
	return 0;
}

/*
 * Reads src to its end (or to where the walk stops it), decompressing it
 * when zstd, into a temporary file, and parses that.  name names the input
 * in messages; near is a path beside which a temporary file may go.
 */
static int spool_load(struct spool_src *src, int zstd, const char *name, const char *near,
		      struct lkst_log *log, struct lkst_err *err)
{
	struct spool sp = { .fd = -1, .near = near, .name = name, .zstd = zstd };
	struct logzst_dec *dec = NULL;
	size_t out_cap = zstd ? logzst_dec_out_size() : 0, used, made;
	unsigned char *inbuf = malloc(SPOOL_CHUNK), *obuf = zstd ? malloc(out_cap) : NULL;
	const unsigned char *in, *release_from = src->mem;
	const char *what = zstd ? " (decompressed)" : "";
	uint64_t consumed = 0;
	struct lkst_log scratch;
	struct lkst_err why;
	ssize_t n;
	int ret = -1;

	memset(log, 0, sizeof(*log));
	if (!inbuf || (zstd && (!obuf || !(dec = logzst_dec_new(err))))) {
		lkst_seterr(err, "out of memory reading %s; free some memory", name);
		goto out;
	}
	while (!sp.stop) {
		n = spool_in(src, inbuf, &in, name, err);
		if (n < 0)
			goto out;
		if (n == 0)
			break;
		if (!zstd) {
			if (spool_out(&sp, in, n, err))
				goto out;
			continue;
		}
		/* Each input chunk until it is taken and the output drained. */
		do {
			if (logzst_dec_step(dec, in, n, &used, obuf, out_cap, &made, name, err))
				goto out;
			in += used;
			n -= used;
			consumed += used;
			if (made && spool_out(&sp, obuf, made, err))
				goto out;
			if (sp.pos > ZSTD_SLACK + ZSTD_MAX_RATIO * consumed) {
				lkst_seterr(err, "%s: decompresses to more than %u times its size, which no log does; the file is not a log (a zstd bomb?)",
					    name, ZSTD_MAX_RATIO);
				goto out;
			}
		} while (!sp.stop && (n > 0 || made == out_cap));
		if (src->mem_mapped)
			release_range(1, release_from, src->mem);
		release_from = src->mem;
	}
	if (zstd && !sp.stop && !logzst_dec_ended(dec)) {
		lkst_seterr(err, "%s: the zstd data is cut short (a truncated .zst file); the file is incomplete",
			    name);
		goto out;
	}
	if (sp.fd < 0) {
		/* Nothing kept: what there is of a header says why it is not a log. */
		if (!parse_image(sp.walk.cap, sp.walk.cap_len, 0, &scratch, &why)) {
			free(scratch.sections);
			free(scratch.meta);
			free(scratch.events);
			lkst_seterr(&why, "not an lkst log file; give a file saved by lkbuf read");
		}
		lkst_seterr(err, "%s%s: %s", name, what, why.msg);
		goto out;
	}
	ret = logio_parse_tmp(sp.fd, sp.endless ? sp.walk.offset : sp.kept, name, what, log, err);
	sp.fd = -1;
	if (!ret && sp.endless) {
		logio_release(log);
		lkst_seterr(err, "%s%s: more than %u MiB after the last CPU section, and no end; the input is corrupt",
			    name, what, STREAM_EXTRA >> 20);
		ret = -1;
	}
out:
	if (sp.fd >= 0)
		close(sp.fd);
	logzst_dec_free(dec);
	free(inbuf);
	free(obuf);
	return ret;
}

int logio_load_zstd_mem(const void *bytes, size_t len, const char *name,
			struct lkst_log *log, struct lkst_err *err)
{
	struct spool_src src = { bytes, len, 0, -1 };

	return spool_load(&src, 1, name, NULL, log, err);
}

int logio_load(const char *path, struct lkst_log *log, struct lkst_err *err)
{
	struct spool_src src = { NULL, 0, 0, -1 };
	struct lkst_err why;
	int fd, ret, is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "standard input" : path;
	unsigned char head[4];
	size_t len = 0;
	ssize_t n;
	void *image;
	struct stat st;

	memset(log, 0, sizeof(*log));
	if (!is_stdin && !stat(path, &st) && S_ISDIR(st.st_mode))
		return logio_load_dir(path, log, err);
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lkst_seterr(err, "cannot open %s: %s; check the file name", path,
			    strerror(errno));
		return -1;
	}
	image = map_file(fd, &len);
	if (image) {
		if (!is_stdin)
			close(fd);
		if (logzst_is_zstd(image, len)) {
			src.mem = image;
			src.mem_len = len;
			src.mem_mapped = 1;
			watch_mapping(image, len, name);
			ret = spool_load(&src, 1, name, is_stdin ? NULL : path, log, err);
			unwatch_mapping(image);
			munmap(image, len);
			return ret;
		}
		watch_mapping(image, len, name);
		if (parse_image(image, len, 1, log, &why)) {
			lkst_seterr(err, "%s: %s", name, why.msg);
			unwatch_mapping(image);
			munmap(image, len);
			return -1;
		}
		return 0;
	}
	/* The first bytes say zstd or not; they are read again from head. */
	while (len < sizeof(head)) {
		n = read(fd, head + len, sizeof(head) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			lkst_seterr(err, "cannot read %s: %s; give a regular log file",
				    name, strerror(errno));
			if (!is_stdin)
				close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += n;
	}
	src.mem = head;
	src.mem_len = len;
	src.fd = fd;
	ret = spool_load(&src, logzst_is_zstd(head, len), name, is_stdin ? NULL : path, log, err);
	if (!is_stdin)
		close(fd);
	return ret;
}

void logio_release(struct lkst_log *log)
{
	free(log->file_gaps);
	free(log->sections);
	free(log->meta);
	free(log->events);
	if (log->mapped) {
		unwatch_mapping(log->image);
		munmap(log->image, log->image_len);
	} else {
		free(log->image);
	}
	memset(log, 0, sizeof(*log));
}

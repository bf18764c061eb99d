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

/* ---- Reading what cannot be mapped (a pipe, a device) ------------------ */

/*
 * Follows the header and the section headers as the bytes come in, to know
 * how long the log is before all of it is there: reading stops where it
 * must end, at the first bytes of what cannot be a log, or at the limit.
 */
struct stream_walk {
	int have_header, done, bad;
	unsigned int version;
	uint32_t section, nr_sections;
	uint64_t offset;		/* of the next section; done: the length */
	uint64_t header_size, meta_offset, meta_size;	/* version 3 */
};

/* Bytes needed before the walk can go on (done: the length). */
static uint64_t stream_need(const struct stream_walk *w)
{
	if (!w->have_header)
		return LKST_LOG_HEADER_V2_SIZE;
	return w->offset + (w->done ? 0 : section_size(w->version));
}

/* The least the whole log can take: every section left has a header. */
static uint64_t stream_least(const struct stream_walk *w)
{
	if (!w->have_header)
		return LKST_LOG_HEADER_V2_SIZE;
	return w->offset + (uint64_t)(w->nr_sections - w->section) * section_size(w->version) +
		w->meta_size;
}

static void walk_stream(struct stream_walk *w, const unsigned char *buf, size_t used)
{
	struct lkst_log_header h;
	size_t per_record;
	uint64_t nr;

	while (!w->done && !w->bad) {
		if (!w->have_header) {
			if (!used)
				return;
			/* Not a log: refused at its first bytes (/dev/zero, yes). */
			if (memcmp(buf, LKST_LOG_MAGIC,
				   used < LKST_LOG_MAGIC_LEN ? used : LKST_LOG_MAGIC_LEN)) {
				w->bad = 1;
				return;
			}
			if (used < LKST_LOG_HEADER_V2_SIZE)
				return;
			memset(&h, 0, sizeof(h));
			memcpy(&h, buf, LKST_LOG_HEADER_V2_SIZE);
			if (h.version >= 3) {
				if (used < sizeof(h))
					return;
				memcpy(&h, buf, sizeof(h));
			}
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
			continue;
		}
		if (w->section == w->nr_sections) {
			/* Version 3: the metadata follows the sections and ends the log. */
			if (w->version >= 3) {
				if (w->offset != w->meta_offset) {
					w->bad = 1;
					return;
				}
				w->offset += w->meta_size;
			}
			w->done = 1;
			return;
		}
		if (used < stream_need(w))
			return;
		memcpy(&nr, buf + w->offset + offsetof(struct lkst_log_cpu, nr_records),
		       sizeof(nr));
		if (nr > LKST_LOG_MAX_CPU_RECORDS) {
			w->bad = 1;
			return;
		}
		per_record = sizeof(struct lkst_record) + (w->version == 1 ? 0 : sizeof(__u64));
		w->offset += section_size(w->version) + nr * per_record;
		w->section++;
	}
}

/* Bytes read past the end of a complete log to count them for the message. */
#define STREAM_EXTRA	(1u << 20)

/*
 * Reads fd to its end into a growing buffer, after the *len bytes already
 * in buf (NULL: none).  With a walk (w), a log from what cannot be mapped:
 * stops at EOF, at the first bytes of something that is not a log (the
 * parser says why), or a little past the end its sections give (*endless
 * when more follows); refuses a log bigger than LKST_LOG_MAX_READ.  With
 * none (w NULL), the rest of a zstd stream after its first bytes, up to
 * the limit.
 */
static void *read_fd(int fd, const char *path, unsigned char *buf, size_t *len,
		     struct stream_walk *w, int *endless, struct lkst_err *err)
{
	size_t used = *len, cap = used, want;
	unsigned char *bigger;
	uint64_t need = 0;
	ssize_t n;

	if (w) {
		*endless = 0;
		memset(w, 0, sizeof(*w));
	}
	for (;;) {
		if (w) {
			walk_stream(w, buf, used);
			if (w->bad)
				break;
			need = stream_need(w);
			if (w->done && used > need + STREAM_EXTRA) {
				*endless = 1;
				break;
			}
			if (stream_least(w) > LKST_LOG_MAX_READ) {
				lkst_seterr(err, "%s: the log claims more than %llu MiB (%u CPU sections), the most lkbuf reads from a pipe or a device; if it is that big, save it to a file and give the file, else it is corrupt",
					    path, LKST_LOG_MAX_READ >> 20, w->nr_sections);
				free(buf);
				return NULL;
			}
		}
		if (used == cap) {
			if (!w && cap > LKST_LOG_MAX_READ) {
				lkst_seterr(err, "%s: more than %llu MiB of zstd data, the most lkbuf reads from a pipe or a device; save it to a file and give the file",
					    path, LKST_LOG_MAX_READ >> 20);
				free(buf);
				return NULL;
			}
			/* At least twice the last; a log: room for what the sections need. */
			want = cap < (1 << 16) ? 1 << 16 : cap * 2;
			if (w) {
				if (!w->done && need > want)
					want = need;
				if (w->done && need + STREAM_EXTRA + 1 < want)
					want = need + STREAM_EXTRA + 1;
				if (want > LKST_LOG_MAX_READ + STREAM_EXTRA + 1)
					want = LKST_LOG_MAX_READ + STREAM_EXTRA + 1;
			}
			bigger = realloc(buf, want);
			if (!bigger) {
				free(buf);
				lkst_seterr(err, "out of memory reading %s; free some memory%s",
					    path, w ? ", or save it to a file and give the file" : "");
				return NULL;
			}
			buf = bigger;
			cap = want;
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
		if (n == 0)
			break;
		used += n;
	}
	if (!buf && !(buf = malloc(1))) {
		lkst_seterr(err, "out of memory reading %s; free some memory", path);
		return NULL;
	}
	*len = used;
	return buf;
}

/* A zstd-compressed log (src, len bytes) decompressed and parsed. */
static int load_zstd(const void *src, size_t len, const char *path,
		     struct lkst_log *log, struct lkst_err *err)
{
	struct lkst_err why;
	size_t plain_len;
	void *plain = logzst_decompress(src, len, &plain_len, path, err);

	if (!plain)
		return -1;
	if (parse_image(plain, plain_len, 0, log, &why)) {
		lkst_seterr(err, "%s (decompressed): %s", path, why.msg);
		free(plain);
		return -1;
	}
	return 0;
}

int logio_load(const char *path, struct lkst_log *log, struct lkst_err *err)
{
	struct stream_walk walk;
	struct lkst_err why;
	int fd, endless = 0, ret, is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "standard input" : path;
	size_t len = 0;
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
	if (image && logzst_is_zstd(image, len)) {
		if (!is_stdin)
			close(fd);
		ret = load_zstd(image, len, name, log, err);
		munmap(image, len);
		return ret;
	}
	if (image) {
		if (!is_stdin)
			close(fd);
		watch_mapping(image, len, name);
		if (parse_image(image, len, 1, log, &why)) {
			lkst_seterr(err, "%s: %s", name, why.msg);
			unwatch_mapping(image);
			munmap(image, len);
			return -1;
		}
		return 0;
	}
	len = 0;
	image = read_fd(fd, name, NULL, &len, &walk, &endless, err);
	if (image && walk.bad && logzst_is_zstd(image, len)) {
		image = read_fd(fd, name, image, &len, NULL, NULL, err);
		if (!is_stdin)
			close(fd);
		if (!image)
			return -1;
		ret = load_zstd(image, len, name, log, err);
		free(image);
		return ret;
	}
	if (!is_stdin)
		close(fd);
	if (!image)
		return -1;
	/* Endless: what its sections hold must be right, and nothing may follow. */
	if (parse_image(image, endless ? stream_need(&walk) : len, 0, log, &why)) {
		lkst_seterr(err, "%s: %s", name, why.msg);
		free(image);
		return -1;
	}
	if (endless) {
		lkst_seterr(err, "%s: more than %u MiB after the last CPU section, and no end; the input is corrupt",
			    name, STREAM_EXTRA >> 20);
		logio_release(log);
		return -1;
	}
	return 0;
}

void logio_release(struct lkst_log *log)
{
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

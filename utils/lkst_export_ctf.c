// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkbuf convert --to ctf: a log as a CTF 1.8 trace.
 *
 *   DIR/metadata   TSDL text: the trace clock with its offset to the time
 *                  of day (the log's anchor), and one event class per
 *                  event of the table, its fields named and typed after
 *                  the arguments (lkst_event_fields())
 *   DIR/cpuN       one stream per CPU section, records in time order
 *
 * Every field is byte aligned and in this machine's byte order (the log's:
 * the reader refuses a foreign one), so an event is its fields' bytes one
 * after the other.  Where sequence numbers say records were lost, the
 * packet ends and an empty one from its last record to the next record
 * carries the loss in its events_discarded counter: readers report the
 * difference between the two packets' counters as discarded between their
 * ends, which are the records around the gap.
 *
 * lkst_export_ctf_lttng() writes the same streams in LTTng's layout
 * (lkst_export_ctf_lttng.c): the events Trace Compass's kernel analysis
 * knows under lttng-modules' names and fields, lkst's for the rest.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkst_export_ctf_int.h"
#include "lkst_export_kernel.h"
#include "lkst_logio_int.h"

#define PACKET_HEADER_SIZE	(4 + 16 + 4)
#define PACKET_CONTEXT_SIZE	(6 * 8 + 4)
#define PACKET_MAX		(1u << 20)	/* bytes of events in a packet */
#define NR_IDS			65536		/* record event IDs are __u16 */

/* ---- Output directory ----------------------------------------------- */

/* cpuN or cpuN-S: a stream file this writer names. */
static int is_stream_name(const char *name)
{
	const char *p = name + 3;

	if (strncmp(name, "cpu", 3) || !(*p >= '0' && *p <= '9'))
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '-' && p[1] >= '0' && p[1] <= '9')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	return !*p;
}

/*
 * A new directory, an empty one, or one holding only what an earlier
 * conversion wrote, whose files are removed: a stale stream of a CPU the
 * new trace lacks would be read with the new metadata.
 */
static int prepare_dir(const char *dir, struct lkst_err *err)
{
	char path[4096];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int pass;

	if (stat(dir, &st)) {
		if (errno != ENOENT) {
			lkst_seterr(err, "cannot use %s: %s; check the path", dir, strerror(errno));
			return -1;
		}
		if (mkdir(dir, 0755)) {
			lkst_seterr(err, "cannot create directory %s: %s; check the path",
				    dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		lkst_seterr(err, "%s exists and is not a directory; give a new or empty directory for the CTF trace",
			    dir);
		return -1;
	}
	/* First check everything, then remove: refuse without touching. */
	for (pass = 0; pass < 2; pass++) {
		d = opendir(dir);
		if (!d) {
			lkst_seterr(err, "cannot open directory %s: %s; check its permissions",
				    dir, strerror(errno));
			return -1;
		}
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (strcmp(e->d_name, "metadata") && !is_stream_name(e->d_name)) {
				lkst_seterr(err, "%s holds %s, which lkbuf convert did not write; give a new or empty directory",
					    dir, e->d_name);
				closedir(d);
				return -1;
			}
			if (pass == 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (unlink(path)) {
				lkst_seterr(err, "cannot remove %s of an earlier conversion: %s; remove it yourself",
					    path, strerror(errno));
				closedir(d);
				return -1;
			}
		}
		closedir(d);
	}
	return 0;
}

int ctf_write_failed(const char *path, int errnum, struct lkst_err *err)
{
	lkst_seterr(err, "cannot write %s: %s; check the space and permissions there",
		    path, strerror(errnum));
	return -1;
}

/* ---- Streams -------------------------------------------------------- */

/* Writes the packet built so far (possibly without events) and starts the next. */
static int flush_packet(struct ctf_writer *w, struct ctf_stream *s)
{
	unsigned char head[PACKET_HEADER_SIZE + PACKET_CONTEXT_SIZE], *p = head;
	__u64 bits = (sizeof(head) + s->len) * 8, v[6];
	__u32 magic = CTF_MAGIC, stream_id = 0, cpu = s->cpu;

	memcpy(p, &magic, 4);
	memcpy(p + 4, w->uuid, 16);
	memcpy(p + 20, &stream_id, 4);
	p += PACKET_HEADER_SIZE;
	v[0] = s->begin;		/* timestamp_begin */
	v[1] = s->end;			/* timestamp_end */
	v[2] = bits;			/* content_size */
	v[3] = bits;			/* packet_size: no padding */
	v[4] = s->seq_num++;		/* packet_seq_num */
	v[5] = s->discarded;		/* events_discarded, a running total */
	memcpy(p, v, sizeof(v));
	memcpy(p + sizeof(v), &cpu, 4);
	if (fwrite(head, sizeof(head), 1, s->fp) != 1 ||
	    (s->len && fwrite(s->buf, s->len, 1, s->fp) != 1))
		return ctf_write_failed(s->path, errno, w->err);
	s->len = 0;
	s->events = 0;
	s->begin = s->end;	/* an empty packet after it spans no time */
	return 0;
}

const struct ctf_class *ctf_class_of(const struct ctf_writer *w, unsigned int id)
{
	if (id < LKST_NR_EVENT_IDS && w->known[id].in_table)
		return &w->known[id];
	return &w->unknown;
}

static void put_sysname(struct ctf_stream *s, __u64 value)
{
	const char *name = lkst_syscall_name(LKST_SYSCALL_ABI(value), LKST_SYSCALL_NR(value));

	put_bytes(s, name ? name : "", name ? strlen(name) + 1 : 1);
}

void ctf_put_fields(struct ctf_stream *s, const struct ctf_class *c,
		    const struct lkst_record *r)
{
	char text[LKST_FIELD_TEXT_LEN];
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		const struct lkst_field *f = &c->fields[i];
		__u64 value = r->arg[f->arg];

		switch (f->type) {
		case LKST_FIELD_SYSNR:
			PUT(s, __s32, LKST_SYSCALL_NR(value));
			PUT(s, __u32, LKST_SYSCALL_ABI(value));
			/* The call's name, "" when it has none. */
			put_sysname(s, value);
			break;
		case LKST_FIELD_TEXT:
			lkst_field_text(r, f, text, sizeof(text));
			put_bytes(s, text, strlen(text) + 1);
			break;
		default:
			PUT(s, __u64, value);
			break;
		}
	}
}

static int put_event(struct ctf_writer *w, struct ctf_stream *s,
		     const struct lkst_record *r)
{
	if (put_reserve(s, EVENT_MAX, w->err))
		return -1;
	if (!s->events)
		s->begin = r->time_ns;
	s->end = r->time_ns;
	s->events++;
	if (w->lttng) {
		ctf_lttng_event(w, s, r);
		return 0;
	}
	PUT(s, __u16, r->event);
	PUT(s, __u64, r->time_ns);
	PUT(s, __u32, r->pid);
	PUT(s, __u8, r->context);
	ctf_put_fields(s, ctf_class_of(w, r->event), r);
	return 0;
}

/*
 * lost records before the next one, at time until: the packet so far ends
 * (at the record before them), and an empty packet from there to until
 * holds the new count.
 */
static int put_loss(struct ctf_writer *w, struct ctf_stream *s, __u64 lost, __u64 until)
{
	if (s->events && flush_packet(w, s))
		return -1;
	s->discarded += lost;
	s->end = until;
	return flush_packet(w, s);
}

static int write_stream(struct ctf_writer *w, unsigned int index, struct ctf_stream *s)
{
	const struct lkst_log_section *sec = &w->x->log->sections[index];
	__u64 j, n = sec->info.nr_records, lost, trailing = 0, prev = ~0ull;
	struct lkst_trace_rec r;
	unsigned int k;
	int dup = 0, more;

	for (k = 0; k < index; k++)
		dup |= w->x->log->sections[k].info.cpu == sec->info.cpu;
	s->cpu = sec->info.cpu;
	if (dup)
		snprintf(s->path, sizeof(s->path), "%s/cpu%u-%u", w->dir, s->cpu, index);
	else
		snprintf(s->path, sizeof(s->path), "%s/cpu%u", w->dir, s->cpu);
	s->fp = fopen(s->path, "we");
	if (!s->fp)
		return ctf_write_failed(s->path, errno, w->err);
	setvbuf(s->fp, NULL, _IOFBF, 1 << 20);

	if (sec->seqs)
		trailing = sec->info.seq_end - (n ? sec->seqs[n - 1] + 1 : sec->info.seq_start);
	/*
	 * Losses before the first record: babeltrace2 counts a stream's
	 * losses from its first packet's counter on, so an empty packet
	 * saying 0 goes first (else they show as "may have discarded").  A
	 * section without records lost them by the time the log was read:
	 * the end of the whole log.
	 */
	s->discarded = 0;
	/* The section's records in time order, from the reader. */
	lkst_trace_rewind_section(w->x->iter, index);
	more = lkst_trace_next(w->x->iter, &r);
	/* None selected: every loss goes before the end, as for an empty section. */
	if (!more && sec->seqs && n)
		trailing = sec->info.lost;
	lost = lkst_log_lost_before(sec) + (more ? kx_gaps_since(sec, prev, r.index) : trailing);
	if (lost) {
		s->begin = s->end = more ? r.rec->time_ns : w->last_ns;
		if (flush_packet(w, s) || put_loss(w, s, lost, s->end))
			return -1;
	}
	for (j = 0; more; j++, more = lkst_trace_next(w->x->iter, &r)) {
		lost = j ? kx_gaps_since(sec, prev, r.index) : 0;
		prev = r.index;
		if (lost && put_loss(w, s, lost, r.rec->time_ns))
			return -1;
		if (put_event(w, s, r.rec))
			return -1;
		w->x->written++;
		if (s->len >= PACKET_MAX && flush_packet(w, s))
			return -1;
		if ((j & 0xffff) == 0xffff)
			lkst_export_step(w->x, 0x10000);
	}
	lkst_export_step(w->x, n & 0xffff);
	/* Numbers lost after the last record handed on (a selection skips some). */
	if (j && prev < n - 1)
		trailing += kx_gaps_since(sec, prev, n - 1);
	/* Losses after the last record, right after it; a stream needs a packet. */
	if (j && trailing && put_loss(w, s, trailing, s->end))
		return -1;
	if ((s->events || !s->seq_num) && flush_packet(w, s))
		return -1;
	if (fclose(s->fp)) {
		s->fp = NULL;
		return ctf_write_failed(s->path, errno, w->err);
	}
	s->fp = NULL;
	return 0;
}

/* ---- Metadata ------------------------------------------------------- */

/*
 * A TSDL string literal's content, from untrusted text (the log's header
 * and event table): quotes and backslashes escaped, every other byte
 * outside printable ASCII as a three-digit octal escape (a \x escape
 * would swallow hex digits after it), so the metadata stays ASCII and
 * readers get the bytes back.
 */
void ctf_put_tsdl_string(FILE *out, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\%03o", c);
		else
			fputc(c, out);
	}
}

static void put_uuid(FILE *out, const unsigned char u[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		fprintf(out, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
}

/* Field declarations; a leading '_' is TSDL's escape (any name may be a keyword). */
static void put_fields(FILE *out, const struct ctf_class *c)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		const struct lkst_field *f = &c->fields[i];

		switch (f->type) {
		case LKST_FIELD_S64:
			fprintf(out, "\t\tint64_t _%s;\n", f->name);
			break;
		case LKST_FIELD_U64:
			fprintf(out, "\t\tuint64_t _%s;\n", f->name);
			break;
		case LKST_FIELD_HEX:
			fprintf(out, "\t\thex64_t _%s;\n", f->name);
			break;
		case LKST_FIELD_SYSNR:
			fprintf(out, "\t\tint32_t _%s;\n", f->name);
			fprintf(out, "\t\tenum lkst_syscall_abi _%s_abi;\n", f->name);
			fprintf(out, "\t\tstring _%s_name;\n", f->name);
			break;
		case LKST_FIELD_TEXT:
			fprintf(out, "\t\tstring _%s;\n", f->name);
			break;
		}
	}
}

void ctf_put_comment(FILE *out, const char *desc)
{
	fprintf(out, "\t/* ");
	/*
	 * A description ending the comment early would break the
	 * metadata; other bytes are kept to printable ASCII.
	 */
	for (; *desc; desc++) {
		unsigned char c = *desc;

		fputc(c == '*' && desc[1] == '/' ? '.' : c >= 0x20 && c < 0x7f ? c : '?', out);
	}
	fprintf(out, " */\n");
}

static void put_class(FILE *out, const char *name, const char *desc, unsigned int id,
		      const struct ctf_class *c)
{
	fprintf(out, "\nevent {\n");
	if (desc)
		ctf_put_comment(out, desc);
	/* The loader admits only [A-Za-z0-9_] names; quoted all the same. */
	fprintf(out, "\tname = \"");
	ctf_put_tsdl_string(out, name, strlen(name));
	fprintf(out, "\";\n\tid = %u;\n\tstream_id = 0;\n", id);
	if (c->nr) {
		fprintf(out, "\tfields := struct {\n");
		put_fields(out, c);
		fprintf(out, "\t};\n");
	}
	fprintf(out, "};\n");
}

/* Nanoseconds from the epoch to trace time 0; 0 without an anchor (1970). */
static long long clock_offset(const struct lkst_log_header *h)
{
	if (h->anchor_realtime_ns < h->anchor_trace_ns ||
	    h->anchor_realtime_ns - h->anchor_trace_ns > INT64_MAX)
		return 0;
	return h->anchor_realtime_ns - h->anchor_trace_ns;
}

static void put_header(FILE *out, const struct ctf_writer *w)
{
	const struct lkst_log_header *h = &w->x->log->header;
	long long offset = clock_offset(h);
	unsigned int s;
	fprintf(out, "/* CTF 1.8 */\n\n"
		"/* lkst trace converted by lkbuf convert; see lkbuf(1). */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; base = 16; } := hex64_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
	put_uuid(out, w->uuid);
	fprintf(out, "\";\n\tbyte_order = %s;\n",
		__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "le" : "be");
	fprintf(out, "\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n"
		"\t};\n};\n\n");

	fprintf(out, "env {\n\tdomain = \"kernel\";\n");
	if (w->lttng)
		ctf_lttng_env(out, w);
	else
		fprintf(out, "\ttracer_name = \"lkst\";\n");
	fprintf(out, "\thostname = \"");
	ctf_put_tsdl_string(out, h->nodename, sizeof(h->nodename));
	fprintf(out, "\";\n\tkernel_release = \"");
	ctf_put_tsdl_string(out, h->release, sizeof(h->release));
	fprintf(out, "\";\n\tlkst_abi = %u;\n\tlkst_log_version = %u;\n",
		h->abi_version, h->version);
	/* The kernel's counters since boot, of which the streams show what was lost. */
	for (s = 0; s < w->x->log->nr_sections; s++) {
		const struct lkst_log_cpu *c = &w->x->log->sections[s].info;

		fprintf(out, "\tcpu%u_written = %llu;\n\tcpu%u_overwritten = %llu;\n"
			"\tcpu%u_dropped = %llu;\n", c->cpu, (unsigned long long)c->written,
			c->cpu, (unsigned long long)c->overwritten,
			c->cpu, (unsigned long long)c->dropped);
	}
	fprintf(out, "};\n\n");

	fprintf(out, "clock {\n\tname = \"monotonic\";\n\tuuid = \"");
	put_uuid(out, w->uuid);
	fprintf(out, "\";\n\tdescription = \"CLOCK_MONOTONIC of the traced machine, with its offset to CLOCK_REALTIME when the log was saved\";\n"
		"\tfreq = 1000000000;\n\tprecision = 1;\n"
		"\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = %s;\n};\n\n",
		offset / 1000000000ll, offset % 1000000000ll, offset ? "TRUE" : "FALSE");
	fprintf(out, "typealias integer {\n\tsize = 64; align = 8; signed = false;\n"
		"\tmap = clock.monotonic.value;\n} := uint64_clock_monotonic_t;\n\n");

	fprintf(out, "enum lkst_context : uint8_t { \"task\" = 0, \"softirq\" = 1, \"irq\" = 2, \"nmi\" = 3 };\n"
		"enum lkst_syscall_abi : uint32_t { \"native\" = %u, \"ia32\" = %u };\n\n",
		LKST_SYSCALL_ABI_NATIVE, LKST_SYSCALL_ABI_IA32);
	/* LTTng's layout: 32-bit IDs (a class per system call), its context. */
	fprintf(out, "stream {\n\tid = 0;\n"
		"\tevent.header := struct {\n\t\t%s id;\n"
		"\t\tuint64_clock_monotonic_t timestamp;\n\t};\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\t\tuint64_clock_monotonic_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n\t\tuint64_t events_discarded;\n"
		"\t\tuint32_t cpu_id;\n\t};\n"
		"\tevent.context := struct {\n%s"
		"\t\tenum lkst_context _context;\n\t};\n};\n", w->lttng ? "uint32_t" : "uint16_t",
		w->lttng ? "\t\tint32_t _tid;\n\t\tint32_t _pid;\n" : "\t\tuint32_t _pid;\n");
}

static int write_metadata(struct ctf_writer *w)
{
	char path[4096], name[32];
	unsigned int i;
	FILE *out;

	snprintf(path, sizeof(path), "%s/metadata", w->dir);
	out = fopen(path, "we");
	if (!out)
		return ctf_write_failed(path, errno, w->err);
	put_header(out, w);
	for (i = 0; i < lkst_nr_events; i++)
		if (!w->lttng || !ctf_lttng_class(out, w, lkst_events[i].id))
			put_class(out, lkst_events[i].mnemonic, lkst_events[i].description,
				  lkst_events[i].id, &w->known[lkst_events[i].id]);
	if (w->lttng)
		ctf_lttng_syscall_classes(out, w);
	/* IDs the table lacks: an UNKNOWN_0xNN class each, as lkbuf print names them. */
	for (i = 0; i < NR_IDS; i++) {
		if (!w->seen_unknown[i])
			continue;
		snprintf(name, sizeof(name), "UNKNOWN_0x%02x", i);
		put_class(out, name, NULL, i, &w->unknown);
	}
	if (ferror(out) | fclose(out))
		return ctf_write_failed(path, errno ? errno : EIO, w->err);
	return 0;
}

/* ---- The trace ------------------------------------------------------ */

static __u64 fnv1a(__u64 h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

/* The same log always gives the same UUID: conversions are reproducible. */
static void make_uuid(const struct lkst_log *log, unsigned char uuid[16])
{
	__u64 a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
	unsigned int s;

	a = fnv1a(a, &log->header, sizeof(log->header));
	b = fnv1a(b, &log->header, sizeof(log->header));
	for (s = 0; s < log->nr_sections; s++) {
		const struct lkst_log_section *sec = &log->sections[s];
		size_t n = sec->info.nr_records ? sizeof(*sec->records) : 0;

		a = fnv1a(a, &sec->info, sizeof(sec->info));
		b = fnv1a(b, &sec->info, sizeof(sec->info));
		a = fnv1a(a, sec->records, n);	/* the first and last record */
		b = fnv1a(b, sec->records + (n ? sec->info.nr_records - 1 : 0), n);
	}
	memcpy(uuid, &a, 8);
	memcpy(uuid + 8, &b, 8);
	uuid[6] = (uuid[6] & 0x0f) | 0x40;	/* shaped as a version 4 UUID */
	uuid[8] = (uuid[8] & 0x3f) | 0x80;
}

static int export_ctf(struct lkst_export *x, const char *dir, int lttng,
		      struct lkst_err *err)
{
	__u64 max_ns = INT64_MAX - clock_offset(&x->log->header);
	struct ctf_stream stream;
	struct ctf_writer *w;
	unsigned int i, s;
	int ret = -1;

	w = calloc(1, sizeof(*w));
	if (w)
		w->seen_unknown = calloc(NR_IDS, 1);
	if (!w || !w->seen_unknown) {
		if (w)
			free(w);
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	w->x = x;
	w->dir = dir;
	w->err = err;
	make_uuid(x->log, w->uuid);
	for (i = 0; i < lkst_nr_events; i++) {
		struct ctf_class *c = &w->known[lkst_events[i].id];

		c->in_table = 1;
		c->nr = lkst_event_fields(&lkst_events[i], c->fields);
	}
	w->unknown.nr = lkst_event_fields(NULL, w->unknown.fields);
	/*
	 * Unknown IDs get classes too, so find them first.  Readers count
	 * time in signed 64-bit nanoseconds from the epoch: a corrupt time
	 * beyond that would make them refuse the whole trace.
	 */
	for (s = 0; s < x->log->nr_sections; s++) {
		const struct lkst_log_section *sec = &x->log->sections[s];
		__u64 j;

		for (j = 0; j < sec->info.nr_records; j++) {
			const struct lkst_record *r = &sec->records[j];

			if (ctf_class_of(w, r->event) == &w->unknown)
				w->seen_unknown[r->event] = 1;
			if (r->time_ns > w->last_ns)
				w->last_ns = r->time_ns;
			if (r->time_ns > max_ns) {
				lkst_seterr(err, "record %llu of cpu %u has time %llu ns, beyond what CTF readers take; the file is corrupt",
					    (unsigned long long)j, sec->info.cpu,
					    (unsigned long long)r->time_ns);
				goto out;
			}
		}
	}
	if (lttng && ctf_lttng_new(w))
		goto out;
	x->work = x->records;
	if (prepare_dir(dir, err))
		goto out;
	memset(&stream, 0, sizeof(stream));
	for (s = 0; s < x->log->nr_sections; s++) {
		stream.seq_num = 0;
		stream.len = 0;
		stream.events = 0;
		if (w->lttng)
			ctf_lttng_stream(w, x->log->sections[s].info.cpu);
		if (write_stream(w, s, &stream)) {
			if (stream.fp)
				fclose(stream.fp);
			free(stream.buf);
			goto out;
		}
	}
	free(stream.buf);
	/* Last: a trace cut short by an error has no metadata to be read with. */
	ret = write_metadata(w);
	if (!ret) {
		unsigned long long lost = 0, absent = 0;

		for (s = 0; s < x->log->nr_sections; s++) {
			const struct lkst_log_section *sec = &x->log->sections[s];
			struct lkst_log_gap gap;
			__u64 pos = 0;

			lost += lkst_log_lost_before(sec) + sec->info.lost;
			/* A set's file that is missing is not the kernel's loss. */
			while (sec->seqs && lkst_log_next_gap(sec, &pos, &gap))
				if (lkst_log_gap_in_missing_file(x->log, sec, &gap))
					absent += gap.last - gap.first + 1;
		}
		if (absent)
			snprintf(x->summary, sizeof(x->summary),
				 "%llu records lost as discarded events, %llu of them in a missing file of the set",
				 lost, absent);
		else
			snprintf(x->summary, sizeof(x->summary),
				 "%llu records lost (overwritten before they were read) as discarded events",
				 lost);
	}
out:
	ctf_lttng_free(w);
	free(w->seen_unknown);
	free(w);
	return ret;
}

int lkst_export_ctf(struct lkst_export *x, const char *dir, struct lkst_err *err)
{
	return export_ctf(x, dir, 0, err);
}

int lkst_export_ctf_lttng(struct lkst_export *x, const char *dir, struct lkst_err *err)
{
	return export_ctf(x, dir, 1, err);
}

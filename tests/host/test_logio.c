// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of log files: write then read round trip, and refusal of
 * every kind of bad file with its message.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "lkst_cli.h"
#include "lkst_logio.h"
#include "lkst_logio_int.h"

#define NR_CPU0 3
#define NR_CPU1 2

static char dir[] = "/tmp/lkst_test_logio.XXXXXX";

static void fill_records(struct lkst_record *r, unsigned int n, unsigned int base)
{
	unsigned int i;

	memset(r, 0, n * sizeof(*r));
	for (i = 0; i < n; i++) {
		r[i].time_ns = base + i * 10;
		r[i].pid = 100 + i;
		r[i].event = i == 1 ? 0x99 : LKST_EV_SYSCALL_ENTRY; /* unknown kept */
		r[i].context = i % 4;
		r[i].arg[0] = i;
		r[i].arg[5] = ~0ull - i;
	}
}

static void make_header(struct lkst_log_header *h, unsigned int nr_cpus)
{
	lkst_log_header_init(h);
	h->nr_cpus = nr_cpus;
	h->anchor_trace_ns = 111;
	h->anchor_realtime_ns = 222;
	strcpy(h->nodename, "testhost");
	strcpy(h->release, "6.12.0-lkst");
}

/* Writes a two-CPU log to path with the log writer. */
static int write_log(const char *path, struct lkst_record *r0, struct lkst_record *r1)
{
	struct lkst_log_cpu c0 = { .cpu = 0, .nr_records = NR_CPU0, .written = 10,
				   .overwritten = 7 };
	struct lkst_log_cpu c1 = { .cpu = 3, .nr_records = NR_CPU1, .written = 2,
				   .dropped = 1 };
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_err err;

	make_header(&h, 2);
	if (!(w = lkst_log_create(path, &h, &err)) ||
	    lkst_log_write_cpu(w, &c0, r0, &err) ||
	    lkst_log_write_cpu(w, &c1, r1, &err))
		return -1;
	return lkst_log_commit(w, &err);
}

static void test_round_trip(const char *path, void **image, size_t *len)
{
	struct lkst_record r0[NR_CPU0], r1[NR_CPU1];
	struct lkst_log *log;
	struct lkst_err err;
	char tmp[300];
	FILE *f;

	fill_records(r0, NR_CPU0, 1000);
	fill_records(r1, NR_CPU1, 5);
	CHECK(write_log(path, r0, r1) == 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	CHECK(access(tmp, F_OK) != 0);		/* renamed away */

	CHECK((log = lkst_log_load(path, &err)) != NULL);
	CHECK(lkst_log_nr_sections(log) == 2);
	CHECK(lkst_log_get_header(log)->anchor_trace_ns == 111 && lkst_log_get_header(log)->anchor_realtime_ns == 222);
	CHECK_STR(lkst_log_get_header(log)->nodename, "testhost");
	CHECK_STR(lkst_log_get_header(log)->release, "6.12.0-lkst");
	CHECK_STR(lkst_log_get_header(log)->layout, LKST_LOG_LAYOUT);
	CHECK(lkst_log_get_section(log, 0)->info.cpu == 0 && lkst_log_get_section(log, 0)->info.nr_records == NR_CPU0);
	CHECK(lkst_log_get_section(log, 0)->info.overwritten == 7 && lkst_log_get_section(log, 0)->info.written == 10);
	CHECK(lkst_log_get_section(log, 1)->info.cpu == 3 && lkst_log_get_section(log, 1)->info.dropped == 1);
	CHECK(memcmp(lkst_log_get_section(log, 0)->records, r0, sizeof(r0)) == 0);
	CHECK(memcmp(lkst_log_get_section(log, 1)->records, r1, sizeof(r1)) == 0);
	lkst_log_free(log);

	/* Keep the file's bytes for the corruption tests. */
	f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	*image = malloc(*len);
	CHECK(fread(*image, *len, 1, f) == 1);
	fclose(f);
	CHECK(((struct lkst_log_header *)*image)->meta_offset ==
	      sizeof(struct lkst_log_header) + 2 * sizeof(struct lkst_log_cpu) +
	      (NR_CPU0 + NR_CPU1) * (sizeof(struct lkst_record) + sizeof(__u64)));
}

/* The same log as version 2 wrote it: the short header, no metadata. */
static unsigned char *as_version_2(const unsigned char *v3, size_t *len)
{
	struct lkst_log_header h;
	unsigned char *v2;
	size_t body;

	memcpy(&h, v3, sizeof(h));
	body = h.meta_offset - sizeof(h);
	*len = LKST_LOG_HEADER_V2_SIZE + body;
	v2 = malloc(*len);
	h.version = 2;
	h.header_size = LKST_LOG_HEADER_V2_SIZE;
	memcpy(v2, &h, LKST_LOG_HEADER_V2_SIZE);
	memcpy(v2 + LKST_LOG_HEADER_V2_SIZE, v3 + sizeof(h), body);
	return v2;
}

/* Parses a modified copy of the good image; expects refusal with msg. */
static void expect_refused(const void *good, size_t good_len, size_t len,
			   void (*edit)(unsigned char *image), const char *msg)
{
	unsigned char *copy = malloc(good_len ? good_len : 1);
	struct lkst_log *log;
	struct lkst_err err = { "" };

	memcpy(copy, good, good_len);
	if (edit)
		edit(copy);
	CHECK(!(log = lkst_log_parse(copy, len, &err)));
	CHECK_HAS(err.msg, msg);
	free(copy);
}

#define HDR ((struct lkst_log_header *)image)
/* The refusals below edit a version 2 image. */
#define CPU0 ((struct lkst_log_cpu *)(image + LKST_LOG_HEADER_V2_SIZE))
#define REC0 ((struct lkst_record *)(image + LKST_LOG_HEADER_V2_SIZE + \
				     sizeof(struct lkst_log_cpu)))

static void bad_magic(unsigned char *image) { image[0] = 'X'; }
static void other_order(unsigned char *image) { HDR->byte_order = 0x04030201; }
static void bad_order(unsigned char *image) { HDR->byte_order = 0x11111111; }
static void other_version(unsigned char *image) { HDR->version = 4; }
static void version_0(unsigned char *image) { HDR->version = 0; }
/* Sequence numbers of cpu 0 (written as 0, 1, 2 by write_log()). */
#define SEQ0 ((__u64 *)((unsigned char *)REC0 + NR_CPU0 * sizeof(struct lkst_record)))
static void seq_backwards(unsigned char *image) { SEQ0[2] = 1; }
static void seq_outside(unsigned char *image) { SEQ0[2] = 7; CPU0->seq_end = 5; CPU0->lost = 2; }
static void lost_mismatch(unsigned char *image) { CPU0->lost = 1; }
static void end_before_start(unsigned char *image) { CPU0->seq_start = 9; }
static void other_hsize(unsigned char *image) { HDR->header_size = 300; }
static void other_rsize(unsigned char *image) { HDR->record_size = 128; }
static void other_layout(unsigned char *image) { HDR->layout[0] = 'T'; }
static void unterminated_layout(unsigned char *image)
{
	memset(HDR->layout, 'x', sizeof(HDR->layout));
}
static void many_cpus(unsigned char *image) { HDR->nr_cpus = 4000000000u; }
static void many_records(unsigned char *image) { CPU0->nr_records = 1000; }
static void absurd_records(unsigned char *image) { CPU0->nr_records = 1ull << 60; }
static void bad_context(unsigned char *image) { REC0[1].context = 4; }
static void fewer_cpus(unsigned char *image) { HDR->nr_cpus = 1; }

static void test_refusals(const void *good, size_t len)
{
	size_t hsize = LKST_LOG_HEADER_V2_SIZE;

	expect_refused(good, len, 0, NULL, "empty file");
	expect_refused(good, len, len, bad_magic, "not an lkst log file");
	expect_refused(good, len, 4, bad_magic, "not an lkst log file");
	expect_refused(good, len, len, other_order, "saved on a machine of the other byte order");
	expect_refused(good, len, len, bad_order, "byte order mark 0x11111111");
	expect_refused(good, len, len, other_version,
		       "log format version 4 is newer than this lkbuf, which reads versions 1 to 3; use a newer lkbuf");
	expect_refused(good, len, len, version_0, "log format version 0 does not exist");
	expect_refused(good, len, len, seq_backwards,
		       "cpu 0: record 2 has sequence number 1, out of order");
	expect_refused(good, len, len, seq_outside, "record 2 has sequence number 7");
	expect_refused(good, len, len, lost_mismatch,
		       "cpu 0: 3 records and 1 lost do not fill sequence numbers 0..3");
	expect_refused(good, len, len, end_before_start, "do not fill sequence numbers 9..3");
	expect_refused(good, len, len, other_hsize, "header size 300, expected 288");
	expect_refused(good, len, len, other_rsize, "record size 128, expected 64");
	expect_refused(good, len, len, other_layout, "record layout \"Time_ns");
	expect_refused(good, len, len, unterminated_layout, "record layout");
	expect_refused(good, len, 5, NULL, "truncated header: 5 of 288 bytes");
	expect_refused(good, len, hsize - 1, NULL, "truncated header");
	expect_refused(good, len, len, many_cpus, "claims 4000000000 CPU sections");
	expect_refused(good, len, hsize + 10, NULL, "CPU sections but the file holds at most 0");
	expect_refused(good, len, len - 10, NULL, "truncated: expected 2 records for cpu 3, found 1");
	expect_refused(good, len, len - 144, NULL, "truncated: expected 2 records for cpu 3, found 0");
	expect_refused(good, len, len, many_records, "truncated: expected 1000 records for cpu 0, found 5");
	expect_refused(good, len, len, absurd_records, "cpu 0 claims 1152921504606846976 records");
	expect_refused(good, len, len, bad_context, "corrupt record 1 of cpu 0: context 4");
	expect_refused(good, len, len, fewer_cpus, "bytes after the last CPU section");
}

/* ---- Version 3: the log describes itself ---------------------------- */

#define META0 ((struct lkst_log_meta *)(image + HDR->meta_offset))
#define EVENTS0 ((struct lkst_log_events *)(META0 + 1))
#define EV0 ((struct lkst_log_event *)(EVENTS0 + 1))
#define EV0_TEXT ((char *)(EV0 + 1))
/* The second packed event, after the first one's text. */
#define EV1 ((struct lkst_log_event *)(EV0_TEXT + EV0->text_size))

static void meta_longer(unsigned char *image) { HDR->meta_size += 8; }
static void meta_shorter(unsigned char *image) { HDR->meta_size -= 16; }
static void meta_many(unsigned char *image) { HDR->nr_meta = 1000000; }
static void meta_cut(unsigned char *image) { META0->size = 1ull << 40; }
static void events_renamed(unsigned char *image) { META0->type = 99; }
static void events_many(unsigned char *image) { EVENTS0->nr = 300; }
static void events_more(unsigned char *image) { EVENTS0->nr += 1; }
static void events_fewer(unsigned char *image) { EVENTS0->nr -= 1; }
static void name_unterminated(unsigned char *image)
{
	memset(EV0_TEXT, 'A', strlen(EV0_TEXT) + 1);
}
static void name_too_long(unsigned char *image) { EV0->text_size = 0; }
static void text_too_long(unsigned char *image) { EV0->text_size += 2; }
static void new_arg_type(unsigned char *image) { EV1->arg_type[3] = 200; }
static void id_order(unsigned char *image) { EV1->id = EV0->id; }
/* Names the kernel never gives: they would be quoted into TSDL and CSV. */
static void name_quote(unsigned char *image) { EV0_TEXT[1] = '"'; }
static void name_byte(unsigned char *image) { EV0_TEXT[0] = (char)0xff; }

static void test_self_describing(const char *path, const void *good, size_t len)
{
	static struct lkst_event_desc descs[LKST_NR_EVENT_IDS];
	struct lkst_record r0[NR_CPU0], r1[NR_CPU1];
	unsigned int n, i, exit_index = 0;
	size_t meta_len = 0;
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_log *log;
	struct lkst_err err;

	/* The writer's table is the active one: here one from another kernel. */
	unsigned int builtin = lkst_nr_events;

	n = lkst_events_describe(descs);
	CHECK(n == builtin);
	for (i = 0; i < n; i++)
		if (descs[i].id == LKST_EV_SYSCALL_EXIT)
			exit_index = i;
	strcpy(descs[exit_index].mnemonic, "OLD_SYSCALL_EXIT");
	descs[n].id = LKST_EV_PROBE_FIRST;
	descs[n].category = LKST_CAT_PROBE;
	descs[n].flags = LKST_EVENT_DYNAMIC;
	strcpy(descs[n].mnemonic, "myprobe");
	descs[n].arg_type[0] = LKST_ARG_HEX;
	strcpy(descs[n].arg_desc[0], "%di");
	CHECK(lkst_events_use(descs, n + 1, sizeof(descs[0]), &err) == 0);
	fill_records(r0, NR_CPU0, 1);
	fill_records(r1, NR_CPU1, 2);
	make_header(&h, 1);
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_add_meta(w, LKST_META_SOURCE, "unit test", 10, &err) == 0);
	CHECK(lkst_log_add_meta(w, 77, "odd", 3, &err) == 0);	/* unknown: skipped */
	CHECK(lkst_log_write_cpu(w, &(struct lkst_log_cpu){ .nr_records = NR_CPU0 },
				 r0, &err) == 0);
	CHECK(lkst_log_commit(w, &err) == 0);

	/* Read back with the built-in table active: the log's own one wins. */
	lkst_events_use_builtin();
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	CHECK(lkst_log_get_header(log)->version == 3 && lkst_log_nr_meta(log) == 3);
	CHECK_STR(lkst_log_source(log), "unit test");
	CHECK(lkst_log_meta(log, 77, &meta_len) && meta_len == 3);
	CHECK(lkst_log_use_events(log, &err) == 0);
	CHECK(lkst_nr_events == builtin + 1);
	CHECK_STR(lkst_event_by_id(LKST_EV_SYSCALL_EXIT)->mnemonic, "OLD_SYSCALL_EXIT");
	CHECK_STR(lkst_event_by_id(LKST_EV_PROBE_FIRST)->mnemonic, "myprobe");
	CHECK_STR(lkst_event_by_id(LKST_EV_PROBE_FIRST)->args[0].desc, "%di");
	CHECK(lkst_event_by_id(LKST_EV_PROBE_FIRST)->category == LKST_CAT_PROBE);
	lkst_log_free(log);
	lkst_events_use_builtin();
	CHECK_STR(lkst_event_by_id(LKST_EV_SYSCALL_EXIT)->mnemonic, "SYSCALL_EXIT");
	CHECK(lkst_event_by_id(LKST_EV_PROBE_FIRST) == NULL);

	/* A version 2 log has no table: the built-in one decodes it. */
	{
		size_t v2len;
		unsigned char *v2 = as_version_2(good, &v2len);

		CHECK((log = lkst_log_parse(v2, v2len, &err)) != NULL);
		CHECK(lkst_log_nr_meta(log) == 0 && lkst_log_source(log) == NULL);
		CHECK(lkst_log_use_events(log, &err) == 0);
		CHECK(lkst_nr_events == builtin);
		lkst_log_free(log);
	}

	expect_refused(good, len, len, meta_longer, "does not end the");
	expect_refused(good, len, len - 8, meta_shorter, "8 bytes after the end of the log");
	expect_refused(good, len, len - 8, NULL, "does not end the");
	expect_refused(good, len, len, meta_many, "does not end the");
	expect_refused(good, len, len, meta_cut, "metadata section 0 claims 1099511627776 bytes");
	expect_refused(good, len, len, events_renamed, "a version 3 log without its event table");
	expect_refused(good, len, len, events_many, "event table claims 300 events");
	expect_refused(good, len, len, events_more, "event table cut short at event");
	expect_refused(good, len, len, events_fewer, "bytes after the event table");
	expect_refused(good, len, len, name_unterminated,
		       "a name or description unterminated or too long");
	expect_refused(good, len, len, name_too_long, "unterminated or too long");
	expect_refused(good, len, len, text_too_long, "2 bytes of text too many");
	expect_refused(good, len, len, new_arg_type,
		       "argument 4 has type 200, unknown to this version; use a newer lkbuf");
	expect_refused(good, len, len, id_order, "out of order or range");
	expect_refused(good, len, len, name_quote,
		       "has byte 0x22 at 1, but event names are letters, digits and '_' only; the file is damaged");
	expect_refused(good, len, len, name_byte, "has byte 0xff at 0, but event names are");
}

static void test_load_errors(void)
{
	struct lkst_log *log;
	struct lkst_err err;
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/missing", dir);
	CHECK(!(log = lkst_log_load(path, &err)));
	CHECK_HAS(err.msg, "cannot open");
	/* A directory without lkbuf record's files (test_logset.c: with them). */
	CHECK(!(log = lkst_log_load(dir, &err)));
	CHECK_HAS(err.msg, "holds no lkst-*.log");
	snprintf(path, sizeof(path), "%s/empty", dir);
	f = fopen(path, "w");
	fclose(f);
	CHECK(!(log = lkst_log_load(path, &err)));
	CHECK_HAS(err.msg, "empty file");
	CHECK_HAS(err.msg, path);
	unlink(path);
}

static void test_create_errors(void)
{
	struct lkst_log_header h;
	struct lkst_err err;

	make_header(&h, 0);
	CHECK(lkst_log_create("/nonexistent/dir/log", &h, &err) == NULL);
	CHECK_HAS(err.msg, "cannot create /nonexistent/dir/log.tmp");
}

/*
 * A version 1 file, as lkbuf wrote them before sequence numbers: 40-byte
 * CPU sections and records only.  Built by hand, not with the writer.
 */
static void test_reads_version_1(void)
{
	struct lkst_log_cpu_v1 c = { .cpu = 1, .nr_records = 2, .written = 9,
				     .overwritten = 7, .dropped = 3 };
	size_t hsize = LKST_LOG_HEADER_V2_SIZE;
	size_t len = hsize + sizeof(c) + 2 * sizeof(struct lkst_record);
	unsigned char *image = calloc(1, len);
	struct lkst_log_header h;
	struct lkst_record r[2];
	struct lkst_log *log;
	struct lkst_err err = { "" };

	make_header(&h, 1);
	h.version = 1;
	h.header_size = hsize;
	fill_records(r, 2, 500);
	memcpy(image, &h, hsize);
	memcpy(image + hsize, &c, sizeof(c));
	memcpy(image + hsize + sizeof(c), r, sizeof(r));
	CHECK((log = lkst_log_parse(image, len, &err)) != NULL);
	CHECK_STR(err.msg, "");
	CHECK(lkst_log_get_header(log)->version == 1 && lkst_log_nr_sections(log) == 1);
	CHECK(lkst_log_get_section(log, 0)->info.cpu == 1 && lkst_log_get_section(log, 0)->info.nr_records == 2);
	CHECK(lkst_log_get_section(log, 0)->info.written == 9 && lkst_log_get_section(log, 0)->info.overwritten == 7 &&
	      lkst_log_get_section(log, 0)->info.dropped == 3);
	CHECK(lkst_log_get_section(log, 0)->seqs == NULL && lkst_log_get_section(log, 0)->info.seq_end == 0 &&
	      lkst_log_get_section(log, 0)->info.lost == 0);
	CHECK(memcmp(lkst_log_get_section(log, 0)->records, r, sizeof(r)) == 0);
	lkst_log_free(log);	/* owns image */

	/* The same file cut by one byte is refused as truncated. */
	image = calloc(1, len);
	memcpy(image, &h, hsize);
	memcpy(image + hsize, &c, sizeof(c));
	CHECK(!(log = lkst_log_parse(image, len - 1, &err)));
	CHECK_HAS(err.msg, "truncated: expected 2 records for cpu 1, found 1");
	free(image);
}

/* Sections with explicit numbers and losses round-trip; bad ones are not written. */
static void test_seq_sections(const char *path)
{
	struct lkst_log_cpu c = { .cpu = 0, .nr_records = 3, .seq_start = 10,
				  .seq_end = 20, .lost = 7 };
	__u64 seqs[3] = { 12, 13, 19 }, bad[3] = { 12, 12, 19 };
	struct lkst_record r[3];
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_log *log;
	struct lkst_err err;

	fill_records(r, 3, 1);
	make_header(&h, 1);
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_write_cpu_seqs(w, &c, r, bad, &err) < 0);
	CHECK_HAS(err.msg, "record 1 has sequence number 12, out of order");
	lkst_log_abort(w);
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_write_cpu_seqs(w, &c, r, seqs, &err) == 0);
	CHECK(lkst_log_commit(w, &err) == 0);
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	CHECK(lkst_log_get_header(log)->version == LKST_LOG_VERSION);
	CHECK(lkst_log_get_section(log, 0)->info.seq_start == 10 && lkst_log_get_section(log, 0)->info.seq_end == 20 &&
	      lkst_log_get_section(log, 0)->info.lost == 7);
	CHECK(lkst_log_get_section(log, 0)->seqs && lkst_log_get_section(log, 0)->seqs[2] == 19);
	lkst_log_free(log);
}

/* Each gap in a section's numbers, where it is; the numbers before it. */
static void test_gaps(void)
{
	__u64 seqs[3] = { 12, 13, 19 }, pos = 0;
	struct lkst_log_section sec = {
		.info = { .nr_records = 3, .seq_start = 10, .seq_end = 22, .lost = 9 },
		.seqs = seqs,
	};
	struct lkst_log_gap gap;

	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 1);
	CHECK(gap.first == 10 && gap.last == 11 && gap.index == 0);
	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 1);
	CHECK(gap.first == 14 && gap.last == 18 && gap.index == 2);
	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 1);
	CHECK(gap.first == 20 && gap.last == 21 && gap.index == 3);
	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 0);
	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 0);
	/* Numbers from boot: those before seq_start were overwritten... */
	sec.info.overwritten = 19;
	CHECK(lkst_log_lost_before(&sec) == 10);
	/* ...unless the count is too small: the file continues an earlier one. */
	sec.info.overwritten = 18;
	CHECK(lkst_log_lost_before(&sec) == 0);
	/* No records: one gap, the whole range. */
	sec.info.nr_records = 0;
	pos = 0;
	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 1);
	CHECK(gap.first == 10 && gap.last == 21 && gap.index == 0);
	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 0);
	/* Version 1: no numbers, no gaps; the overwritten count is before it. */
	sec.seqs = NULL;
	pos = 0;
	CHECK(lkst_log_next_gap(&sec, &pos, &gap) == 0);
	CHECK(lkst_log_lost_before(&sec) == 18);
}

/* A regular file is mapped, not read; its log reads the same. */
static void test_load_maps(const char *path, const void *image, size_t len)
{
	struct sigaction before, sa;
	struct lkst_log *log;
	struct lkst_err err;
	size_t got;

	sigaction(SIGBUS, NULL, &before);
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	CHECK(lkst_log_mapped(log) && lkst_log_image(log, &got) && got == len);
	CHECK(memcmp(lkst_log_image(log, NULL), image, len) == 0);
	CHECK(lkst_log_get_section(log, 0)->time_ordered && lkst_log_get_section(log, 1)->time_ordered);
	/* The library alone leaves SIGBUS to the program. */
	CHECK(sigaction(SIGBUS, NULL, &sa) == 0 && sa.sa_sigaction == before.sa_sigaction &&
	      sa.sa_handler == before.sa_handler);
	lkst_log_free(log);

	/*
	 * The tools opt in (lkst_cli.h): while mapped, a SIGBUS (the file cut
	 * short) ends with a message.
	 */
	lkst_log_exit_on_sigbus();
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	CHECK(lkst_log_mapped(log));
	CHECK(sigaction(SIGBUS, NULL, &sa) == 0 && (sa.sa_flags & SA_SIGINFO) &&
	      sa.sa_sigaction != before.sa_sigaction);
	lkst_log_free(log);
	CHECK(sigaction(SIGBUS, NULL, &sa) == 0 && sa.sa_sigaction == before.sa_sigaction);
	lkst_log_set_map_hooks(NULL);
}

/*
 * Loads len bytes of data written into a FIFO by a child (then, if
 * endless, zeros until the reader goes away): the path for what cannot
 * be mapped.  0 with *log set, or -1 as lkst_log_load.
 */
static int load_from_pipe(const void *data, size_t len, int endless,
			  struct lkst_log **log, struct lkst_err *err)
{
	static const char zeros[4096];
	char fifo[300];
	pid_t pid;
	int rc, fd;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	unlink(fifo);
	if (mkfifo(fifo, 0600))
		return -2;
	pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		fd = open(fifo, O_WRONLY);
		if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len))
			_exit(1);
		while (endless && write(fd, zeros, sizeof(zeros)) > 0)
			;
		_exit(0);
	}
	*log = lkst_log_load(fifo, err);
	rc = *log ? 0 : -1;
	/* The writer of an endless stream stops when the reader is gone. */
	waitpid(pid, NULL, 0);
	unlink(fifo);
	return rc;
}

static void test_load_pipe(const unsigned char *image, size_t len)
{
	unsigned char *copy = malloc(len + 16);
	struct lkst_log_header *h = (struct lkst_log_header *)copy;
	struct lkst_log *log;
	struct lkst_err err = { "" };
	size_t got;

	/*
	 * A whole log through a pipe reads the same as from the file (copied
	 * into a temporary file as it is read, and mapped).
	 */
	CHECK(load_from_pipe(image, len, 0, &log, &err) == 0);
	CHECK_STR(err.msg, "");
	CHECK(lkst_log_mapped(log) && lkst_log_image(log, &got) && got == len &&
	      memcmp(lkst_log_image(log, NULL), image, len) == 0);
	CHECK(lkst_log_nr_sections(log) == 2 && lkst_log_get_section(log, 0)->info.nr_records == NR_CPU0);
	lkst_log_free(log);

	/* Cut short, or with bytes after it: refused as the file would be. */
	CHECK(load_from_pipe(image, len - 10, 0, &log, &err) < 0);
	CHECK_HAS(err.msg, "does not end the");
	memcpy(copy, image, len);
	memset(copy + len, 'x', 16);
	CHECK(load_from_pipe(copy, len + 16, 0, &log, &err) < 0);
	CHECK_HAS(err.msg, "16 bytes after the end of the log");

	/* Endless: zeros after a whole log, and zeros that are no log. */
	CHECK(load_from_pipe(image, len, 1, &log, &err) < 0);
	CHECK_HAS(err.msg, "more than 1 MiB after the last CPU section, and no end");
	CHECK(load_from_pipe(NULL, 0, 1, &log, &err) < 0);
	CHECK_HAS(err.msg, "bad magic");

	/*
	 * Endless zeros are valid empty sections: a header claiming billions of
	 * them is refused at once, as is a section claiming too many records.
	 */
	memcpy(copy, image, sizeof(*h));
	h->nr_cpus = 4000000000u;
	CHECK(load_from_pipe(copy, sizeof(*h), 1, &log, &err) < 0);
	CHECK_HAS(err.msg, "the log claims more than 4096 MiB (4000000000 CPU sections)");
	memcpy(copy, image, len);
	h->nr_cpus = 2;
	((struct lkst_log_cpu *)(copy + sizeof(*h)))->nr_records = 100000000;
	CHECK(load_from_pipe(copy, sizeof(*h) + sizeof(struct lkst_log_cpu), 1, &log, &err) < 0);
	CHECK_HAS(err.msg, "the most lkbuf reads from a pipe or a device");
	free(copy);
}

/* The merge as a scan of every run's next record (what it must equal). */
static const struct lkst_record *scan_next(struct lkst_log_run *runs, unsigned int n,
					   unsigned int *section)
{
	const struct lkst_record *best = NULL, *r;
	unsigned int s, best_s = 0;

	for (s = 0; s < n; s++) {
		if (runs[s].next >= runs[s].sec->info.nr_records)
			continue;
		r = lkst_log_run_record(&runs[s], runs[s].next);
		if (!best || r->time_ns < best->time_ns ||
		    (r->time_ns == best->time_ns &&
		     runs[s].sec->info.cpu < runs[best_s].sec->info.cpu)) {
			best = r;
			best_s = s;
		}
	}
	if (best) {
		runs[best_s].next++;
		*section = best_s;
	}
	return best;
}

/*
 * Sections of random lengths and CPUs (some the same), in time order or
 * not, with many equal times: the merge gives exactly the scan's order,
 * also after a rewind.
 */
static void test_merge_order(void)
{
	enum { NSEC = 7, MAXREC = 300 };
	static struct lkst_record recs[NSEC][MAXREC];
	struct lkst_log_section secs[NSEC];
	struct lkst_log_run ref[NSEC];
	struct lkst_log_merge *m;
	struct lkst_log fake, *log = &fake;	/* lkst_logio_int.h: no file needed */
	struct lkst_err err;
	const struct lkst_record *a, *b;
	unsigned int round, s, i, sa, sb, n, bad, total;

	srand(1234);
	for (round = 0; round < 200; round++) {
		memset(&fake, 0, sizeof(fake));
		memset(secs, 0, sizeof(secs));
		fake.nr_sections = 1 + rand() % NSEC;
		fake.sections = secs;
		for (s = 0; s < lkst_log_nr_sections(log); s++) {
			n = rand() % 4 ? rand() % MAXREC : 0;
			secs[s].info.cpu = rand() % 3;
			secs[s].info.nr_records = n;
			secs[s].records = recs[s];
			for (i = 0; i < n; i++) {
				recs[s][i].time_ns = round % 2 ? i * (rand() % 3) : (unsigned int)rand() % 40;
				recs[s][i].pid = s * 1000 + i;
			}
			secs[s].time_ordered = round % 4 == 1;	/* else found out */
		}
		m = lkst_log_merge_new(log, &err);
		CHECK(m != NULL);
		for (s = 0; s < lkst_log_nr_sections(log); s++) {
			ref[s] = m->runs[s];
			ref[s].next = 0;
		}
		bad = total = 0;
		do {
			a = lkst_log_merge_next(m, &sa);
			b = scan_next(ref, lkst_log_nr_sections(log), &sb);
			bad += a != b || (a && sa != sb);
			total += !!a;
		} while (a && b);
		CHECK(!bad);
		for (s = 0, n = 0; s < lkst_log_nr_sections(log); s++)
			n += secs[s].info.nr_records;
		CHECK(total == n);
		lkst_log_merge_rewind(m);
		for (s = 0; s < lkst_log_nr_sections(log); s++)
			ref[s].next = 0;
		bad = 0;
		do {
			a = lkst_log_merge_next(m, &sa);
			b = scan_next(ref, lkst_log_nr_sections(log), &sb);
			bad += a != b || (a && sa != sb);
		} while (a && b);
		CHECK(!bad);
		lkst_log_merge_free(m);
	}
}

int main(void)
{
	char path[256];
	void *image = NULL;
	size_t len = 0;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/trace.lkst", dir);
	test_round_trip(path, &image, &len);
	test_load_maps(path, image, len);
	test_load_pipe(image, len);
	test_merge_order();
	{
		size_t v2len;
		unsigned char *v2 = as_version_2(image, &v2len);

		test_refusals(v2, v2len);
		free(v2);
	}
	test_self_describing(path, image, len);
	test_load_errors();
	test_create_errors();
	test_reads_version_1();
	test_seq_sections(path);
	test_gaps();
	free(image);
	unlink(path);
	rmdir(dir);
	return check_report();
}

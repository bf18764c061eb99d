// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of logs that travel (lkst_logzst.c, lkst_logset.c): zstd
 * logs written and read back record for record, refused when corrupt or
 * cut short; rotated sets joined into one log, continuing sequence
 * numbers, a gap between files placed as a loss, overlaps and other
 * hosts refused.  The command-line side is test_logset.sh.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lkst_logio.h"

static char dir[] = "/tmp/lkst_test_logset.XXXXXX";

#define NR 64

static void make_header(struct lkst_log_header *h, const char *host)
{
	lkst_log_header_init(h);
	h->nr_cpus = 1;
	h->anchor_trace_ns = 1000;
	h->anchor_realtime_ns = 5000000000ull;
	strcpy(h->nodename, host);
	strcpy(h->release, "6.12.0-lkst");
}

/* Records from..to-1 of a syscall stream, numbered from..to-1 + base. */
static void fill(struct lkst_record *r, __u64 *seqs, unsigned int from, unsigned int to,
		 __u64 base)
{
	unsigned int i;

	memset(r, 0, (to - from) * sizeof(*r));
	for (i = from; i < to; i++) {
		r[i - from].time_ns = 1000000 + i * 100;
		r[i - from].pid = 10 + i % 3;
		r[i - from].event = LKST_EV_SYSCALL_ENTRY;
		r[i - from].arg[0] = i;
		seqs[i - from] = base + i;
	}
}

/* One CPU's records from..to-1, numbers [seq_start, seq_end). */
static int write_part(const char *path, const char *host, unsigned int from,
		      unsigned int to, __u64 seq_start, __u64 seq_end, int zstd)
{
	struct lkst_record r[NR];
	__u64 seqs[NR];
	struct lkst_log_cpu c = { .cpu = 1, .nr_records = to - from, .written = seq_end };
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_err err;

	fill(r, seqs, from, to, 0);
	c.seq_start = seq_start;
	c.seq_end = seq_end;
	c.lost = seq_end - seq_start - (to - from);
	make_header(&h, host);
	if (!(w = lkst_log_create(path, &h, &err)))
		return -1;
	if (zstd)
		lkst_log_set_zstd(w, 1);
	if (lkst_log_write_cpu_seqs(w, &c, r, seqs, &err))
		return -1;
	return lkst_log_commit(w, &err);
}

static void test_zstd(void)
{
	char plain[256], packed[256], forced[256], cut[256], tmp[300];
	struct lkst_log *a, *b, *c;
	size_t alen, blen;
	struct lkst_err err;
	struct stat st;
	unsigned char magic[4];
	int fd;

	snprintf(plain, sizeof(plain), "%s/p.log", dir);
	snprintf(packed, sizeof(packed), "%s/p.log.zst", dir);
	snprintf(forced, sizeof(forced), "%s/forced.log", dir);
	CHECK(write_part(plain, "h", 0, NR, 0, NR, 0) == 0);
	CHECK(write_part(packed, "h", 0, NR, 0, NR, 0) == 0);
	CHECK(write_part(forced, "h", 0, NR, 0, NR, 1) == 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", packed);
	CHECK(stat(tmp, &st) < 0);		/* renamed into place */
	fd = open(forced, O_RDONLY);
	CHECK(fd >= 0 && read(fd, magic, 4) == 4 && magic[0] == 0x28 && magic[3] == 0xfd);
	close(fd);
	CHECK(stat(plain, &st) == 0);
	CHECK((a = lkst_log_load(plain, &err)) != NULL);
	CHECK((b = lkst_log_load(packed, &err)) != NULL);
	CHECK((c = lkst_log_load(forced, &err)) != NULL);
	CHECK(lkst_log_nr_sections(b) == 1 && lkst_log_get_section(b, 0)->info.nr_records == NR);
	CHECK(!memcmp(lkst_log_get_section(a, 0)->records, lkst_log_get_section(b, 0)->records, NR * 64));
	CHECK(!memcmp(lkst_log_get_section(a, 0)->seqs, lkst_log_get_section(c, 0)->seqs, NR * 8));
	lkst_log_image(a, &alen);
	lkst_log_image(b, &blen);
	CHECK(blen == alen && !memcmp(lkst_log_image(a, NULL), lkst_log_image(b, NULL), alen));
	/* Decompressed as a stream into a temporary file, which is mapped. */
	CHECK(lkst_log_mapped(b));
	lkst_log_free(a);
	lkst_log_free(b);
	lkst_log_free(c);

	/* Cut short and corrupted: refused with a message. */
	snprintf(cut, sizeof(cut), "%s/cut.zst", dir);
	CHECK(stat(packed, &st) == 0 && truncate(packed, st.st_size - 5) == 0);
	CHECK(!(a = lkst_log_load(packed, &err)));
	CHECK_HAS(err.msg, "cut short");
	fd = open(forced, O_WRONLY);
	CHECK(fd >= 0 && pwrite(fd, "XXXXXXXX", 8, 40) == 8);
	close(fd);
	CHECK(!(a = lkst_log_load(forced, &err)));
	CHECK_HAS(err.msg, "zstd");
	unlink(plain);
	unlink(packed);
	unlink(forced);
}

static void test_join(void)
{
	char p1[256], p2[256], p3[256], other[256];
	const char *paths[2] = { p1, p2 };
	struct lkst_log *log;
	struct lkst_log_gap gap;
	struct lkst_err err;
	__u64 pos = 0;

	snprintf(p1, sizeof(p1), "%s/lkst-000001.log", dir);
	snprintf(p2, sizeof(p2), "%s/lkst-000002.log.zst", dir);
	snprintf(p3, sizeof(p3), "%s/p3.log", dir);
	snprintf(other, sizeof(other), "%s/other.log", dir);
	/* Numbers 0..29 and 30..63: one trace of 64 records. */
	CHECK(write_part(p1, "h", 0, 30, 0, 30, 0) == 0);
	CHECK(write_part(p2, "h", 30, NR, 30, NR, 0) == 0);
	CHECK((log = lkst_log_load_files(paths, 2, &err)) != NULL);
	CHECK(lkst_log_nr_sections(log) == 1 && lkst_log_get_section(log, 0)->info.nr_records == NR);
	CHECK(lkst_log_get_section(log, 0)->info.seq_start == 0 && lkst_log_get_section(log, 0)->info.seq_end == NR);
	CHECK(lkst_log_get_section(log, 0)->info.lost == 0 && lkst_log_get_section(log, 0)->records[NR - 1].arg[0] == NR - 1);
	CHECK(lkst_log_get_section(log, 0)->info.written == NR);	/* the last file's counters */
	CHECK(lkst_log_next_gap(lkst_log_get_section(log, 0), &pos, &gap) == 0);
	lkst_log_free(log);
	/* The directory: the same, by name. */
	CHECK((log = lkst_log_load(dir, &err)) != NULL);
	CHECK(lkst_log_nr_sections(log) == 1 && lkst_log_get_section(log, 0)->info.nr_records == NR);
	lkst_log_free(log);

	/* 33..63 after 0..29: numbers 30..32 lost between the files. */
	CHECK(write_part(p2, "h", 33, NR, 33, NR, 0) == 0);
	CHECK((log = lkst_log_load_files(paths, 2, &err)) != NULL);
	CHECK(lkst_log_get_section(log, 0)->info.nr_records == NR - 3 && lkst_log_get_section(log, 0)->info.lost == 3);
	pos = 0;
	CHECK(lkst_log_next_gap(lkst_log_get_section(log, 0), &pos, &gap) == 1);
	CHECK(gap.first == 30 && gap.last == 32 && gap.index == 30);
	lkst_log_free(log);

	/* Overlapping numbers, files in the wrong order, another host. */
	CHECK(write_part(p2, "h", 29, NR, 29, NR, 0) == 0);
	CHECK(!(log = lkst_log_load_files(paths, 2, &err)));
	CHECK_HAS(err.msg, "overlap");
	CHECK(write_part(p2, "h", 30, NR, 30, NR, 0) == 0);
	paths[0] = p2;
	paths[1] = p1;
	CHECK(!(log = lkst_log_load_files(paths, 2, &err)));
	CHECK_HAS(err.msg, "out of order");
	CHECK(write_part(other, "elsewhere", 30, NR, 30, NR, 0) == 0);
	paths[0] = p1;
	paths[1] = other;
	CHECK(!(log = lkst_log_load_files(paths, 2, &err)));
	CHECK_HAS(err.msg, "host elsewhere");
	/* A missing file is named. */
	paths[1] = p3;
	CHECK(!(log = lkst_log_load_files(paths, 2, &err)));
	CHECK_HAS(err.msg, "p3.log");
	unlink(p1);
	unlink(p2);
	unlink(other);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_zstd();
	test_join();
	rmdir(dir);
	return check_report();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Splits a log into a rotated set as lkbuf record --rotate writes one, for
 * the tests of reading a set as one trace (test_logset.sh):
 *
 *   split_log IN DIR FILES [gap|overlap] [zst]
 *
 * writes DIR/lkst-000001.log ... (.log.zst with zst): each CPU's records
 * cut into FILES pieces in stored order, each file accounting for the
 * numbers from the end of the one before it to just after its last
 * record.  gap: the second file leaves out its first record of each CPU
 * and starts its numbers after it (a loss between files); overlap: the
 * second file starts its numbers one too early (refused when read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_logio.h"

static void die(const char *what, const struct lkst_err *err)
{
	fprintf(stderr, "split_log: %s: %s\n", what, err ? err->msg : "bad arguments");
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned int files, f, s, i;
	struct lkst_log *log;
	struct lkst_err err;
	int gap = 0, overlap = 0, zst = 0;
	char path[4096];

	if (argc < 4)
		die("usage: split_log IN DIR FILES [gap|overlap] [zst]", NULL);
	files = strtoul(argv[3], NULL, 0);
	for (i = 4; i < (unsigned int)argc; i++) {
		gap |= !strcmp(argv[i], "gap");
		overlap |= !strcmp(argv[i], "overlap");
		zst |= !strcmp(argv[i], "zst");
	}
	if (!files || !(log = lkst_log_load(argv[1], &err)) || lkst_log_use_events(log, &err))
		die(argv[1], files ? &err : NULL);
	for (f = 0; f < files; f++) {
		struct lkst_log_writer *w;
		__u32 type;
		size_t len;

		snprintf(path, sizeof(path), "%s/lkst-%06u.log%s", argv[2], f + 1, zst ? ".zst" : "");
		if (!(w = lkst_log_create(path, lkst_log_get_header(log), &err)))
			die(path, &err);
		for (i = 0; i < lkst_log_nr_meta(log); i++) {
			const void *data = lkst_log_get_meta(log, i, &type, &len);

			if (type != LKST_META_EVENTS &&
			    lkst_log_add_meta(w, type, data, len, &err))
				die(path, &err);
		}
		for (s = 0; s < lkst_log_nr_sections(log); s++) {
			const struct lkst_log_section *sec = lkst_log_get_section(log, s);
			__u64 n = sec->info.nr_records, a = n * f / files, b = n * (f + 1) / files;
			struct lkst_log_cpu c = sec->info;

			c.seq_start = a ? sec->seqs[a - 1] + 1 : sec->info.seq_start;
			c.seq_end = f == files - 1 ? sec->info.seq_end :
				b ? sec->seqs[b - 1] + 1 : sec->info.seq_start;
			if (f == 1 && gap && a < b) {
				a++;
				c.seq_start = sec->seqs[a - 1] + 1;
			}
			if (f == 1 && overlap && c.seq_start)
				c.seq_start--;
			c.nr_records = b - a;
			c.lost = c.seq_end - c.seq_start - c.nr_records;
			if (lkst_log_write_cpu_seqs(w, &c, sec->records + a, sec->seqs + a, &err))
				die(path, &err);
		}
		if (lkst_log_commit(w, &err))
			die(path, &err);
	}
	lkst_log_free(log);
	return 0;
}

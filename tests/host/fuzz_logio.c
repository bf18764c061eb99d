// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the log reader: any bytes go to lkst_log_parse (in
 * memory, no file I/O), zstd data through a temporary file as a .zst file
 * goes; an accepted log is walked and formatted in every mode, as lkbuf
 * print would, so the records it vouches for are used, and merged in time
 * order, which must give every record once, in order.
 */
#include <stdlib.h>
#include <string.h>

#include "lkst_format.h"
#include "lkst_logio.h"
#include "lkst_logio_int.h"
#include "lkst_logzst.h"
#include "lkst_ksym.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct lkst_outbuf *out;
	struct lkst_format_opts opts = { 0 };
	const struct lkst_record *rec, *prev = NULL;
	struct lkst_comm_map *comms;
	struct lkst_log_merge *merge;
	unsigned int prev_cpu = 0;
	unsigned long long total = 0, merged = 0;
	struct lkst_ksym_table *symbols;
	struct lkst_log *log;
	struct lkst_err err;
	unsigned int s, mode;
	unsigned long long i;
	void *image = malloc(size ? size : 1);
	FILE *null;

	if (!image)
		return 0;
	memcpy(image, data, size);
	/* zstd data: streamed through a temporary file as lkst_log_load() does. */
	if (logzst_is_zstd(data, size)) {
		free(image);
		log = calloc(1, sizeof(*log));
		if (!log)
			return 0;
		if (logio_load_zstd_mem(data, size, "fuzz", log, &err)) {
			free(log);
			return 0;
		}
	} else if (!(log = lkst_log_parse(image, size, &err))) {
		free(image);		/* refused: the image stays the caller's */
		return 0;
	}
	if (lkst_log_use_events(log, &err)) {
		fprintf(stderr, "a parsed log's event table refused: %s\n", err.msg);
		abort();
	}
	null = fopen("/dev/null", "w");
	comms = lkst_comm_map_new();
	if (!out && !(out = lkst_outbuf_new(null)))
		abort();
	lkst_outbuf_init(out, null);
	opts.comms = comms;
	/* Kernel symbols: validated strictly, refused ones print as hex. */
	symbols = lkst_ksym_table_from_log(log, &err);
	opts.symbols = symbols;
	opts.realtime_offset_ns = (long long)(lkst_log_get_header(log)->anchor_realtime_ns -
					      lkst_log_get_header(log)->anchor_trace_ns);
	for (mode = 0; mode < 4; mode++) {
		opts.csv = mode & 1;
		opts.raw = mode == 2;
		opts.seconds = mode == 3;
		opts.verbose = mode == 1;
		opts.human = mode == 0;
		for (s = 0; s < lkst_log_nr_sections(log); s++) {
			const struct lkst_log_section *sec = lkst_log_get_section(log, s);

			for (i = 0; i < sec->info.nr_records; i++) {
				if (comms)
					lkst_comm_map_learn(comms, &sec->records[i], sec->info.cpu);
				lkst_format_record_buf(out, &sec->records[i], sec->info.cpu, &opts);
			}
		}
	}
	lkst_outbuf_flush(out);
	merge = lkst_log_merge_new(log, &err);
	if (merge) {
		while ((rec = lkst_log_merge_next(merge, &s))) {
			unsigned int cpu = lkst_log_get_section(log, s)->info.cpu;

			if (prev && (rec->time_ns < prev->time_ns ||
				     (rec->time_ns == prev->time_ns && cpu < prev_cpu)))
				abort();	/* out of time order */
			prev = rec;
			prev_cpu = cpu;
			merged++;
		}
		for (s = 0; s < lkst_log_nr_sections(log); s++)
			total += lkst_log_get_section(log, s)->info.nr_records;
		if (merged != total)
			abort();	/* a record lost or given twice */
		lkst_log_merge_free(merge);
	}
	lkst_comm_map_free(comms);
	if (null)
		fclose(null);
	lkst_ksym_table_free(symbols);
	lkst_log_free(log);
	return 0;
}

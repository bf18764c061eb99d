/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing and strictly reading lkst log files (format: lkst_log.h).
 *
 * Reading loads the whole file and validates every size and count against
 * the bytes actually present before anything is allocated from them, so a
 * corrupt or hostile file is refused with a message instead of crashing.
 */
#ifndef LKST_LOGIO_H
#define LKST_LOGIO_H

#include <stddef.h>
#include <stdio.h>

#include "lkst_log.h"
#include "lkst_util.h"

/*
 * One CPU section; records and seqs point into the loaded file image.
 * A version 1 file has no sequence numbers: seqs is NULL and the seq_*
 * and lost fields of info are 0.
 */
struct lkst_log_section {
	struct lkst_log_cpu info;
	const struct lkst_record *records;
	const __u64 *seqs;
};

struct lkst_log {
	struct lkst_log_header header;
	unsigned int nr_sections;
	struct lkst_log_section *sections;
	void *image;			/* the file's bytes, owned */
};

/* Header fields that do not come from the kernel are filled in here. */
void lkst_log_header_init(struct lkst_log_header *h);

/* Writing: open path.tmp, write, then commit (rename) or abort (unlink). */
struct lkst_log_writer {
	FILE *fp;
	char *path;
	char *tmp_path;
};

int lkst_log_create(struct lkst_log_writer *w, const char *path,
		    const struct lkst_log_header *h, struct lkst_err *err);
/*
 * seqs: the records' sequence numbers, or NULL for seq_start, seq_start+1,
 * ...; then a seq_end of 0 with no loss means seq_start + nr_records.
 */
int lkst_log_write_cpu_seqs(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
			    const struct lkst_record *records, const __u64 *seqs,
			    struct lkst_err *err);
int lkst_log_write_cpu(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
		       const struct lkst_record *records, struct lkst_err *err);
int lkst_log_commit(struct lkst_log_writer *w, struct lkst_err *err);
void lkst_log_abort(struct lkst_log_writer *w);

/* Validates a file image; on success log takes ownership of image. */
int lkst_log_parse(void *image, size_t len, struct lkst_log *log,
		   struct lkst_err *err);
int lkst_log_load(const char *path, struct lkst_log *log, struct lkst_err *err);
void lkst_log_free(struct lkst_log *log);

#endif /* LKST_LOGIO_H */

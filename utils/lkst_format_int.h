/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the formatter's files (lkst_format.c, lkst_format_record.c) share
 * and the library does not export (hidden: not in liblkst.so's symbols);
 * the record selection's layout (lkst_select.c, the trace reader's).
 */
#ifndef LKST_FORMAT_INT_H
#define LKST_FORMAT_INT_H

#include <stddef.h>

#include "lkst_format.h"

#define LKST_HIDDEN __attribute__((visibility("hidden")))

/* struct lkst_select, opaque to callers (lkst_format.h). */
struct lkst_select {
	int by_event;
	unsigned char event[LKST_NR_EVENT_IDS];
	__u32 *pids;			/* -p */
	size_t nr_pids;
	char **comms;			/* -n, escaped as printed */
	size_t nr_comms;
	int by_time;
	unsigned long long start_ns, end_ns;	/* inclusive */
	__u32 *cpus;			/* -c */
	size_t nr_cpus;
};

/* Frees what f holds and empties it (it passes every record again). */
LKST_HIDDEN void lkst_select_reset(struct lkst_select *f);

LKST_HIDDEN extern const char lkst_fmt_hex_digits[];
/* Bytes escaped printable into buf. */
LKST_HIDDEN void lkst_fmt_escape_bytes(const unsigned char *bytes, size_t n, char *buf,
				       size_t len);
/* Whether argument index continues a run of TEXT arguments; its length. */
LKST_HIDDEN int lkst_fmt_text_continues(const struct lkst_event_info *ev, unsigned int index);
LKST_HIDDEN unsigned int lkst_fmt_text_run(const struct lkst_event_info *ev, unsigned int index);
/* A stack record's frame slot past its last frame. */
LKST_HIDDEN int lkst_fmt_stack_slot_unused(const struct lkst_record *rec, unsigned int index);
/* Whether the options show argument index of ev. */
LKST_HIDDEN int lkst_fmt_arg_is_shown(const struct lkst_event_info *ev, unsigned int index,
				      const struct lkst_format_opts *opts);
/*
 * The decoded flags of argument index of a SYSCALL_ENTRY or SYSCALL_ERROR
 * record ("O_RDONLY|O_CLOEXEC"), when its call has them there; the
 * length, 0 (buf "") for an argument without.
 */
LKST_HIDDEN size_t lkst_fmt_syscall_flags(const struct lkst_record *rec, unsigned int index,
					  char *buf, size_t len);
/* struct lkst_outbuf, opaque to callers (lkst_format.h). */
#define LKST_OUTBUF_SIZE	(1 << 16)
struct lkst_outbuf {
	FILE *fp;
	size_t len;
	/*
	 * What the formatter keeps from one record to the next (the output's
	 * own, so that formatting is reentrant); lkst_outbuf_init() clears it.
	 */
	struct lkst_outbuf_cache {
		/* Leading digits of the last time printed (~0: none). */
		struct lkst_outbuf_digits {
			unsigned long long value;
			unsigned int len;
			char text[8];
		} time_high, time_secs;
		/* -H: the last second's "hh:mm:ss". */
		int clock_valid;
		long long clock_sec;
		char clock_hms[16];
		/* The last task states decoded, by a hash of the state. */
		struct lkst_outbuf_state {
			unsigned long long state;
			int valid;
			size_t len;
			char text[LKST_FIELD_TEXT_LEN];	/* every bit named: 222 */
		} state[64];
	} cache;
	char buf[LKST_OUTBUF_SIZE];
};

/* A dynamic probe's argument key from its description. */
LKST_HIDDEN size_t lkst_fmt_probe_key(const char *desc, unsigned int i, char *key);

#endif /* LKST_FORMAT_INT_H */

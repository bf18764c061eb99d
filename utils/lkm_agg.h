/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkm agg: in-kernel aggregations of the lkst_agg handler.  The pure
 * parsing and formatting its verbs (lkm_agg_cmd.c) are made of, unit
 * tested on the host.
 */
#ifndef LKM_AGG_H
#define LKM_AGG_H

#include <stdio.h>

#include "lkst_agg.h"
#include "lkst_cli.h"

/* ---- Parsing (pure) --------------------------------------------------- */

/* count, sum, min, max, avg, quantize (case-insensitive). */
int lkm_agg_parse_func(const char *s, __u32 *func, struct lkst_err *err);
/* arg1..arg6 */
int lkm_agg_parse_value(const char *s, __u32 *value, struct lkst_err *err);
/* syscall, sched, irq */
int lkm_agg_parse_latency(const char *s, __u32 *value, struct lkst_err *err);
/* Comma-separated: event, pid, comm, cpu, arg1..arg6; at most 3 words. */
int lkm_agg_parse_keys(const char *s, __u8 keys[LKST_AGG_MAX_KEYS + 1],
		       struct lkst_err *err);
/*
 * A name of 1-15 letters, digits or '_'.
 */
int lkm_agg_parse_name(const char *s, char name[LKST_AGG_NAME_LEN],
		       struct lkst_err *err);

/* What `lkm agg set` was given; NULL for an option not given. */
struct lkm_agg_args {
	const char *name, *func, *value, *latency, *keys, *size;
	const char *const *events;	/* NULL terminated, may be NULL */
};

/*
 * The configuration the kernel is sent, checked as the kernel checks it:
 * 0, or -1 with err set.  The size is rounded up to a power of two.
 */
int lkm_agg_config(const struct lkm_agg_args *args,
		   struct lkst_agg_config *cfg, struct lkst_err *err);

/* ---- Formatting (pure) ------------------------------------------------ */

const char *lkm_agg_func_name(__u32 func);
const char *lkm_agg_key_name(unsigned int key);
/* "arg4", "latency syscall", "" for none. */
const char *lkm_agg_value_name(__u32 value);

/* "count() by comm, arg1 of SYSCALL_ENTRY" */
void lkm_agg_describe(const struct lkst_agg_config *cfg, char *buf,
		      size_t len);

/*
 * Key field @field (0..2) of @key, as text: names decoded, args by type
 * (system calls by name; lkm agg print -C keeps their numbers).
 */
void lkm_agg_format_key(const struct lkst_agg_config *cfg,
			const __u64 key[LKST_AGG_KEY_WORDS],
			unsigned int field, char *buf, size_t len);

/* The function's result for an entry: count, sum, min, max or sum/count. */
long long lkm_agg_result(__u32 func, const struct lkst_agg_entry *e);

/* DTrace's quantize: value / distribution / count rows of one key. */
void lkm_agg_print_quantize(FILE *out, const __u64 buckets[LKST_AGG_NR_BUCKETS]);

/*
 * One aggregation's entries, sorted by result (quantize: by count) then
 * key, as text or as CSV rows (lkm_agg_csv_header() first).  Sorts
 * entries[] and buckets[] in place.
 */
void lkm_agg_print(FILE *out, const struct lkst_agg_config *cfg,
		   struct lkst_agg_entry *entries, __u64 *buckets,
		   unsigned int n, int csv);
void lkm_agg_csv_header(FILE *out);

#endif /* LKM_AGG_H */

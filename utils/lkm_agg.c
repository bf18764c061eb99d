// SPDX-License-Identifier: GPL-2.0
/*
 * lkm agg: aggregations kept in the kernel by the lkst_agg handler; the
 * parsing and formatting of its verbs (lkm_agg_cmd.c), pure so that they
 * are tested on the host.
 *
 *   lkm agg set [-N NAME] -m ID -F FUNC [-v argN | -L LATENCY] [-K KEYS]
 *               [-s SLOTS] [--record] [EVENT...]
 *       configure aggregation NAME (default "agg", replacing one of that
 *       name) and route its events in maskset ID to the agg handler
 *       (agg-record with --record, which also records them)
 *   lkm agg print [-N NAME] [-C]      DTrace-like output, or CSV
 *   lkm agg list                      configurations and counters
 *   lkm agg clear [-N NAME]           empty one or all
 *   lkm agg delete [-N NAME]          remove one or all
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lkm_agg.h"
#include "lkst_format.h"

#define AGG_DEFAULT_NAME "agg"

static const char *const func_names[LKST_AGG_NR_FUNCS] = {
	[LKST_AGG_F_COUNT] = "count",
	[LKST_AGG_F_SUM] = "sum",
	[LKST_AGG_F_MIN] = "min",
	[LKST_AGG_F_MAX] = "max",
	[LKST_AGG_F_AVG] = "avg",
	[LKST_AGG_F_QUANTIZE] = "quantize",
};

static const char *const key_names[LKST_AGG_NR_KEYS] = {
	[LKST_AGG_KEY_EVENT] = "event",
	[LKST_AGG_KEY_PID] = "pid",
	[LKST_AGG_KEY_COMM] = "comm",
	[LKST_AGG_KEY_CPU] = "cpu",
	[LKST_AGG_KEY_ARG1] = "arg1",
	[LKST_AGG_KEY_ARG1 + 1] = "arg2",
	[LKST_AGG_KEY_ARG1 + 2] = "arg3",
	[LKST_AGG_KEY_ARG1 + 3] = "arg4",
	[LKST_AGG_KEY_ARG1 + 4] = "arg5",
	[LKST_AGG_KEY_ARG6] = "arg6",
};

static const char *const value_names[LKST_AGG_NR_VALUES] = {
	[LKST_AGG_VAL_NONE] = "",
	[LKST_AGG_VAL_ARG1] = "arg1",
	[LKST_AGG_VAL_ARG1 + 1] = "arg2",
	[LKST_AGG_VAL_ARG1 + 2] = "arg3",
	[LKST_AGG_VAL_ARG1 + 3] = "arg4",
	[LKST_AGG_VAL_ARG1 + 4] = "arg5",
	[LKST_AGG_VAL_ARG6] = "arg6",
	[LKST_AGG_VAL_LAT_SYSCALL] = "latency syscall",
	[LKST_AGG_VAL_LAT_SCHED] = "latency sched",
	[LKST_AGG_VAL_LAT_IRQ] = "latency irq",
};

static const char *const latency_names[LKST_AGG_NR_LAT] = {
	"syscall", "sched", "irq",
};

/* ---- Parsing ---------------------------------------------------------- */

int lkm_agg_parse_func(const char *s, __u32 *func, struct lkst_err *err)
{
	__u32 f;

	for (f = LKST_AGG_F_COUNT; f < LKST_AGG_NR_FUNCS; f++)
		if (!strcasecmp(s, func_names[f])) {
			*func = f;
			return 0;
		}
	lkst_seterr(err, "unknown function '%s'; use count, sum, min, max, avg or quantize",
		    s);
	return -1;
}

int lkm_agg_parse_value(const char *s, __u32 *value, struct lkst_err *err)
{
	if (!strncasecmp(s, "arg", 3) && s[3] >= '1' && s[3] <= '6' && !s[4]) {
		*value = LKST_AGG_VAL_ARG1 + (s[3] - '1');
		return 0;
	}
	lkst_seterr(err, "unknown value '%s'; use arg1..arg6 (the event's arguments as lkm events lists them), or --latency",
		    s);
	return -1;
}

int lkm_agg_parse_latency(const char *s, __u32 *value, struct lkst_err *err)
{
	unsigned int i;

	for (i = 0; i < LKST_AGG_NR_LAT; i++)
		if (!strcasecmp(s, latency_names[i])) {
			*value = LKST_AGG_VAL_LAT_SYSCALL + i;
			return 0;
		}
	lkst_seterr(err, "unknown latency '%s'; use syscall (entry to exit), sched (wakeup to running) or irq (handler entry to exit)",
		    s);
	return -1;
}

static int parse_key(const char *s, size_t len, unsigned int *key)
{
	unsigned int k;

	for (k = LKST_AGG_KEY_EVENT; k < LKST_AGG_NR_KEYS; k++)
		if (strlen(key_names[k]) == len &&
		    !strncasecmp(s, key_names[k], len)) {
			*key = k;
			return 0;
		}
	return -1;
}

int lkm_agg_parse_keys(const char *s, __u8 keys[LKST_AGG_MAX_KEYS + 1],
		       struct lkst_err *err)
{
	unsigned int n = 0, words = 0, key;
	const char *p = s, *end;
	size_t len;

	memset(keys, 0, LKST_AGG_MAX_KEYS + 1);
	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (parse_key(p, len, &key)) {
			lkst_seterr(err, "unknown key '%.*s' in '%s'; use event, pid, comm, cpu or arg1..arg6, comma-separated",
				    (int)len, p, s);
			return -1;
		}
		words += lkst_agg_key_words(key);
		if (n == LKST_AGG_MAX_KEYS || words > LKST_AGG_KEY_WORDS) {
			lkst_seterr(err, "too many keys in '%s'; at most three, and comm counts as two",
				    s);
			return -1;
		}
		keys[n++] = key;
		if (!end)
			return 0;
		p = end + 1;
	}
}

int lkm_agg_parse_name(const char *s, char name[LKST_AGG_NAME_LEN],
		       struct lkst_err *err)
{
	size_t len = strlen(s), i;

	for (i = 0; i < len; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_')
			break;
	if (!len || len >= LKST_AGG_NAME_LEN || i < len) {
		lkst_seterr(err, "bad aggregation name '%s'; use 1 to %d letters, digits or '_'",
			    s, LKST_AGG_NAME_LEN - 1);
		return -1;
	}
	memset(name, 0, LKST_AGG_NAME_LEN);
	memcpy(name, s, len);
	return 0;
}

int lkm_agg_config(const struct lkm_agg_args *args,
		   struct lkst_agg_config *cfg, struct lkst_err *err)
{
	unsigned char sel[LKST_NR_EVENT_IDS];
	__u32 max_slots, slots = LKST_AGG_DEFAULT_SLOTS;
	unsigned int i, n = 0;
	uint64_t size;

	memset(cfg, 0, sizeof(*cfg));
	memset(sel, 0, sizeof(sel));
	if (lkm_agg_parse_name(args->name ? args->name : AGG_DEFAULT_NAME,
			       cfg->name, err))
		return -1;
	if (!args->func) {
		lkst_seterr(err, "no function; give one with -F count|sum|min|max|avg|quantize");
		return -1;
	}
	if (lkm_agg_parse_func(args->func, &cfg->func, err))
		return -1;
	if (args->value && args->latency) {
		lkst_seterr(err, "give either a value (-v argN) or a latency (-l), not both");
		return -1;
	}
	if (args->value && lkm_agg_parse_value(args->value, &cfg->value, err))
		return -1;
	if (args->latency && lkm_agg_parse_latency(args->latency, &cfg->value, err))
		return -1;
	if (cfg->func == LKST_AGG_F_COUNT && cfg->value != LKST_AGG_VAL_NONE) {
		lkst_seterr(err, "count takes no value; drop -v/-l, or use sum, min, max, avg or quantize");
		return -1;
	}
	if (cfg->func != LKST_AGG_F_COUNT && cfg->value == LKST_AGG_VAL_NONE) {
		lkst_seterr(err, "%s needs a value: -v arg1..arg6 or -L syscall|sched|irq",
			    func_names[cfg->func]);
		return -1;
	}
	if (args->keys && lkm_agg_parse_keys(args->keys, cfg->keys, err))
		return -1;
	max_slots = cfg->func == LKST_AGG_F_QUANTIZE ? LKST_AGG_MAX_QSLOTS :
						       LKST_AGG_MAX_SLOTS;
	if (args->size) {
		if (lkst_parse_u64(args->size, UINT32_MAX, &size) ||
		    size < LKST_AGG_MIN_SLOTS || size > max_slots) {
			lkst_seterr(err, "bad size '%s'; give %u..%u slots per CPU%s",
				    args->size, LKST_AGG_MIN_SLOTS, max_slots,
				    cfg->func == LKST_AGG_F_QUANTIZE ? " for quantize" : "");
			return -1;
		}
		for (slots = LKST_AGG_MIN_SLOTS; slots < size; slots <<= 1)
			;
	}
	cfg->slots = slots;
	for (i = 0; args->events && args->events[i]; i++)
		if (lkst_parse_event_item(args->events[i], sel, err) < 0)
			return -1;
	for (i = 0; i < LKST_NR_EVENT_IDS; i++)
		if (sel[i]) {
			lkst_agg_event_set(cfg->events, i);
			n++;
		}
	if (LKST_AGG_IS_LAT(cfg->value) && n) {
		lkst_seterr(err, "a latency takes no EVENT: its events are the pair's (lkm agg list shows them)");
		return -1;
	}
	if (!LKST_AGG_IS_LAT(cfg->value) && !n) {
		lkst_seterr(err, "no EVENT; name the events (or categories) to aggregate, e.g. SYSCALL_ENTRY");
		return -1;
	}
	return 0;
}

/* ---- Formatting ------------------------------------------------------- */

const char *lkm_agg_func_name(__u32 func)
{
	return func < LKST_AGG_NR_FUNCS && func_names[func] ? func_names[func] : "?";
}

const char *lkm_agg_key_name(unsigned int key)
{
	return key < LKST_AGG_NR_KEYS && key_names[key] ? key_names[key] : "?";
}

const char *lkm_agg_value_name(__u32 value)
{
	return value < LKST_AGG_NR_VALUES ? value_names[value] : "?";
}

static unsigned int nr_keys(const struct lkst_agg_config *cfg)
{
	unsigned int n = 0;

	while (n < LKST_AGG_MAX_KEYS && cfg->keys[n])
		n++;
	return n;
}

/* The events whose arguments a key or value reads: a latency's end. */
static void arg_events(const struct lkst_agg_config *cfg,
		       __u64 events[LKST_NR_EVENT_IDS / 64])
{
	__u64 start[LKST_NR_EVENT_IDS / 64];

	if (LKST_AGG_IS_LAT(cfg->value))
		lkst_agg_lat_events(cfg->value, start, events);
	else
		memcpy(events, cfg->events, sizeof(cfg->events));
}

void lkm_agg_describe(const struct lkst_agg_config *cfg, char *buf,
		      size_t len)
{
	unsigned int i, n = 0, shown = 0;
	size_t used;

	used = snprintf(buf, len, "%s(%s)", lkm_agg_func_name(cfg->func),
			lkm_agg_value_name(cfg->value));
	for (i = 0; i < nr_keys(cfg) && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s",
				 i ? ", " : " by ", lkm_agg_key_name(cfg->keys[i]));
	if (LKST_AGG_IS_LAT(cfg->value))
		return;
	for (i = 0; i < LKST_NR_EVENT_IDS; i++)
		n += lkst_agg_event_test(cfg->events, i);
	for (i = 0; i < LKST_NR_EVENT_IDS && used < len; i++) {
		const struct lkst_event_info *ev = lkst_event_by_id(i);

		if (!lkst_agg_event_test(cfg->events, i))
			continue;
		if (n > 4) {
			used += snprintf(buf + used, len - used, " of %u events", n);
			break;
		}
		used += snprintf(buf + used, len - used, "%s%s",
				 shown++ ? "," : " of ",
				 ev ? ev->mnemonic : "?");
	}
}

/* Word offset of key field @field. */
static unsigned int key_word(const struct lkst_agg_config *cfg,
			     unsigned int field)
{
	unsigned int i, w = 0;

	for (i = 0; i < field; i++)
		w += lkst_agg_key_words(cfg->keys[i]);
	return w;
}

/*
 * Argument @index of a key, as the event table types it when all agree;
 * CSV as lkbuf print -C has it (system call numbers, not names).
 */
static void format_arg_key(const struct lkst_agg_config *cfg,
			   unsigned int index, __u64 value, char *buf,
			   size_t len, int csv)
{
	struct lkst_format_opts opts = { .csv = csv };
	__u64 events[LKST_NR_EVENT_IDS / 64];
	const struct lkst_event_info *first = NULL;
	struct lkst_record rec;
	unsigned int i;

	arg_events(cfg, events);
	for (i = 0; i < LKST_NR_EVENT_IDS; i++) {
		const struct lkst_event_info *ev = lkst_event_by_id(i);

		if (!lkst_agg_event_test(events, i) || !ev)
			continue;
		if (!first) {
			first = ev;
		} else if (ev->args[index].type != first->args[index].type) {
			first = NULL;
			break;
		}
	}
	buf[0] = '\0';
	if (first) {
		memset(&rec, 0, sizeof(rec));
		rec.event = first->id;
		rec.arg[index] = value;
		lkst_format_arg(&rec, index, &opts, buf, len);
	}
	if (!buf[0])
		snprintf(buf, len, "0x%llx", (unsigned long long)value);
}

static void format_key(const struct lkst_agg_config *cfg,
		       const __u64 key[LKST_AGG_KEY_WORDS],
		       unsigned int field, char *buf, size_t len, int csv)
{
	unsigned int w = key_word(cfg, field), k = cfg->keys[field];
	const struct lkst_event_info *ev;

	if (w >= LKST_AGG_KEY_WORDS) {
		snprintf(buf, len, "?");
		return;
	}
	switch (k) {
	case LKST_AGG_KEY_EVENT:
		ev = lkst_event_by_id(key[w]);
		if (ev)
			snprintf(buf, len, "%s", ev->mnemonic);
		else
			snprintf(buf, len, "0x%llx", (unsigned long long)key[w]);
		break;
	case LKST_AGG_KEY_PID:
	case LKST_AGG_KEY_CPU:
		snprintf(buf, len, "%llu", (unsigned long long)key[w]);
		break;
	case LKST_AGG_KEY_COMM:
		lkst_format_comm(key[w], w + 1 < LKST_AGG_KEY_WORDS ? key[w + 1] : 0,
				 buf, len);
		break;
	default:
		if (k >= LKST_AGG_KEY_ARG1 && k <= LKST_AGG_KEY_ARG6)
			format_arg_key(cfg, k - LKST_AGG_KEY_ARG1, key[w], buf, len, csv);
		else
			snprintf(buf, len, "0x%llx", (unsigned long long)key[w]);
	}
}

void lkm_agg_format_key(const struct lkst_agg_config *cfg,
			const __u64 key[LKST_AGG_KEY_WORDS],
			unsigned int field, char *buf, size_t len)
{
	format_key(cfg, key, field, buf, len, 0);
}

long long lkm_agg_result(__u32 func, const struct lkst_agg_entry *e)
{
	switch (func) {
	case LKST_AGG_F_SUM:
		return e->sum;
	case LKST_AGG_F_MIN:
		return e->min;
	case LKST_AGG_F_MAX:
		return e->max;
	case LKST_AGG_F_AVG:
		return e->count ? e->sum / (long long)e->count : 0;
	default:
		return (long long)e->count;
	}
}

#define BAR_WIDTH 40

void lkm_agg_print_quantize(FILE *out, const __u64 buckets[LKST_AGG_NR_BUCKETS])
{
	static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	int first = -1, last = -1, b;
	unsigned long long total = 0;
	unsigned int depth;

	for (b = 0; b < LKST_AGG_NR_BUCKETS; b++) {
		if (!buckets[b])
			continue;
		if (first < 0)
			first = b;
		last = b;
		total += buckets[b];
	}
	if (first < 0)
		return;
	/* One empty bucket either side, as DTrace shows them. */
	if (first > 0)
		first--;
	if (last < LKST_AGG_NR_BUCKETS - 1)
		last++;
	fprintf(out, "%16s  %s %s\n", "value",
		"------------- Distribution -------------", "count");
	for (b = first; b <= last; b++) {
		depth = (unsigned int)(((long double)buckets[b] * BAR_WIDTH) / total + 0.5L);
		fprintf(out, "%16lld |%s%*s %llu\n", (long long)lkst_agg_bucket_label(b),
			ats + BAR_WIDTH - depth, (int)(BAR_WIDTH - depth), "",
			(unsigned long long)buckets[b]);
	}
}

struct sort_ctx {
	const struct lkst_agg_config *cfg;
	const struct lkst_agg_entry *entries;
};

static int cmp_entries(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct lkst_agg_entry *x = &ctx->entries[*(const unsigned int *)a];
	const struct lkst_agg_entry *y = &ctx->entries[*(const unsigned int *)b];
	__u32 func = ctx->cfg->func == LKST_AGG_F_QUANTIZE ? LKST_AGG_F_COUNT :
							     ctx->cfg->func;
	long long rx = lkm_agg_result(func, x), ry = lkm_agg_result(func, y);
	unsigned int i;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	for (i = 0; i < LKST_AGG_KEY_WORDS; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return 0;
}

/* Sorts entries[] (and the buckets that go with them) in place. */
static void sort_entries(const struct lkst_agg_config *cfg,
			 struct lkst_agg_entry *entries, __u64 *buckets,
			 unsigned int n)
{
	struct sort_ctx ctx = { cfg, entries };
	unsigned int *order, i;
	struct lkst_agg_entry *e;
	__u64 *bk;

	/* Nothing to order; an empty table's entries may be NULL (no memcpy of it). */
	if (n < 2)
		return;
	order = calloc(n, sizeof(*order));
	e = calloc(n, sizeof(*e));
	bk = buckets ? calloc((size_t)n * LKST_AGG_NR_BUCKETS, sizeof(*bk)) : NULL;
	if (!order || !e || (buckets && !bk))
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), cmp_entries, &ctx);
	for (i = 0; i < n; i++) {
		e[i] = entries[order[i]];
		if (buckets)
			memcpy(&bk[(size_t)i * LKST_AGG_NR_BUCKETS],
			       &buckets[(size_t)order[i] * LKST_AGG_NR_BUCKETS],
			       LKST_AGG_NR_BUCKETS * sizeof(*bk));
	}
	memcpy(entries, e, n * sizeof(*e));
	if (buckets)
		memcpy(buckets, bk, (size_t)n * LKST_AGG_NR_BUCKETS * sizeof(*bk));
	free(bk);
	free(e);
	free(order);
}

void lkm_agg_csv_header(FILE *out)
{
	fputs("aggregation,function,key1,key2,key3,count,sum,min,max,value,bucket_min,bucket_max,bucket_count\n",
	      out);
}

static void csv_row(FILE *out, const struct lkst_agg_config *cfg,
		    const struct lkst_agg_entry *e, const __u64 *buckets)
{
	unsigned int i, b, keys = nr_keys(cfg);
	char field[128];

	for (b = 0; b < (buckets ? LKST_AGG_NR_BUCKETS : 1); b++) {
		if (buckets && !buckets[b])
			continue;
		fprintf(out, "%s,%s", cfg->name, lkm_agg_func_name(cfg->func));
		for (i = 0; i < LKST_AGG_MAX_KEYS; i++) {
			field[0] = '\0';
			if (i < keys)
				format_key(cfg, e->key, i, field, sizeof(field), 1);
			fputc(',', out);
			lkst_csv_field(out, field);
		}
		fprintf(out, ",%llu,%lld,%lld,%lld,", (unsigned long long)e->count,
			(long long)e->sum, (long long)e->min, (long long)e->max);
		if (buckets)
			fprintf(out, ",%lld,%lld,%llu\n",
				(long long)lkst_agg_bucket_min(b),
				(long long)lkst_agg_bucket_max(b),
				(unsigned long long)buckets[b]);
		else
			fprintf(out, "%lld,,,\n", lkm_agg_result(cfg->func, e));
	}
}

void lkm_agg_print(FILE *out, const struct lkst_agg_config *cfg,
		   struct lkst_agg_entry *entries, __u64 *buckets,
		   unsigned int n, int csv)
{
	unsigned int keys = nr_keys(cfg), i, k;
	size_t width[LKST_AGG_MAX_KEYS] = { 0 }, vwidth, l;
	char desc[256], field[128], num[32];

	sort_entries(cfg, entries, buckets, n);
	if (csv) {
		for (i = 0; i < n; i++)
			csv_row(out, cfg, &entries[i],
				buckets ? &buckets[(size_t)i * LKST_AGG_NR_BUCKETS] : NULL);
		return;
	}
	lkm_agg_describe(cfg, desc, sizeof(desc));
	fprintf(out, "%s: %s\n", cfg->name, desc);
	if (!n)
		return;
	fputc('\n', out);
	for (k = 0; k < keys; k++)
		width[k] = strlen(lkm_agg_key_name(cfg->keys[k]));
	vwidth = strlen(lkm_agg_func_name(cfg->func));
	for (i = 0; i < n; i++) {
		for (k = 0; k < keys; k++) {
			lkm_agg_format_key(cfg, entries[i].key, k, field, sizeof(field));
			l = strlen(field);
			width[k] = l > width[k] ? l : width[k];
		}
		l = snprintf(num, sizeof(num), "%lld",
			     lkm_agg_result(cfg->func, &entries[i]));
		vwidth = l > vwidth ? l : vwidth;
	}
	if (cfg->func != LKST_AGG_F_QUANTIZE) {
		fputs(" ", out);
		for (k = 0; k < keys; k++)
			fprintf(out, " %-*s", (int)width[k],
				lkm_agg_key_name(cfg->keys[k]));
		fprintf(out, " %*s\n", (int)vwidth, lkm_agg_func_name(cfg->func));
	}
	for (i = 0; i < n; i++) {
		fputs(" ", out);
		for (k = 0; k < keys; k++) {
			lkm_agg_format_key(cfg, entries[i].key, k, field, sizeof(field));
			if (cfg->func == LKST_AGG_F_QUANTIZE && k == keys - 1)
				fprintf(out, " %s", field);
			else
				fprintf(out, " %-*s", (int)width[k], field);
		}
		if (cfg->func == LKST_AGG_F_QUANTIZE) {
			if (keys)
				fputc('\n', out);
			lkm_agg_print_quantize(out, &buckets[(size_t)i * LKST_AGG_NR_BUCKETS]);
			fputc('\n', out);
			continue;
		}
		fprintf(out, " %*lld\n", (int)vwidth,
			lkm_agg_result(cfg->func, &entries[i]));
	}
}

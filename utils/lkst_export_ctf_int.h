/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CTF writer's insides, shared by its two layouts: lkst's own
 * (lkst_export_ctf.c) and LTTng's (lkst_export_ctf_lttng.c).  Not installed.
 */
#ifndef LKST_EXPORT_CTF_INT_H
#define LKST_EXPORT_CTF_INT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_export_int.h"
#include "lkst_format.h"

#define CTF_MAGIC		0xc1fc1fc1u
/* An event at most: header, context, six 8-byte numbers or strings. */
#define EVENT_MAX		(4 + 8 + 4 + 4 + 1 + LKST_NR_ARGS * LKST_FIELD_TEXT_LEN)

struct ctf_lttng;

struct ctf_class {
	int in_table;
	unsigned int nr;
	struct lkst_field fields[LKST_NR_ARGS];
};

struct ctf_stream {
	FILE *fp;
	char path[4096];
	unsigned int cpu;
	__u64 seq_num, discarded;
	/* The packet being built: its events only. */
	unsigned char *buf;
	size_t len, cap;
	__u64 events, begin, end;
};

struct ctf_writer {
	struct lkst_export *x;
	const char *dir;
	unsigned char uuid[16];
	struct ctf_class known[LKST_NR_EVENT_IDS];	/* by ID */
	struct ctf_class unknown;
	unsigned char *seen_unknown;			/* NR_IDS flags */
	__u64 last_ns;					/* of the whole log */
	struct lkst_err *err;
	struct ctf_lttng *lttng;			/* the LTTng layout, or NULL */
};

static inline int put_reserve(struct ctf_stream *s, size_t n, struct lkst_err *err)
{
	unsigned char *p;
	size_t cap;

	if (s->len + n <= s->cap)
		return 0;
	cap = s->cap ? s->cap * 2 : 1 << 16;
	while (cap < s->len + n)
		cap *= 2;
	p = realloc(s->buf, cap);
	if (!p) {
		lkst_seterr(err, "out of memory for a packet of cpu %u; free some memory", s->cpu);
		return -1;
	}
	s->buf = p;
	s->cap = cap;
	return 0;
}

static inline void put_bytes(struct ctf_stream *s, const void *p, size_t n)
{
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static inline void put_string(struct ctf_stream *s, const char *text)
{
	put_bytes(s, text, strlen(text) + 1);
}

#define PUT(s, type, v)	do { type v_ = (v); put_bytes((s), &v_, sizeof(v_)); } while (0)

int ctf_write_failed(const char *path, int errnum, struct lkst_err *err);
const struct ctf_class *ctf_class_of(const struct ctf_writer *w, unsigned int id);
void ctf_put_tsdl_string(FILE *out, const char *s, size_t max);
void ctf_put_comment(FILE *out, const char *desc);

/* ---- The LTTng layout (lkst_export_ctf_lttng.c) ---------------------- */

/* Its state for the trace (tasks, system calls seen); 0, or -1 with err set. */
int ctf_lttng_new(struct ctf_writer *w);
void ctf_lttng_free(struct ctf_writer *w);
/* A stream starts: the CPU's task is not known yet. */
void ctf_lttng_stream(struct ctf_writer *w, unsigned int cpu);
/*
 * r's event header, context and fields (the caller reserved EVENT_MAX
 * bytes); lkst's own fields for events LTTng has no name for.
 */
void ctf_lttng_event(struct ctf_writer *w, struct ctf_stream *s, const struct lkst_record *r);
/* The metadata's env additions and event classes. */
void ctf_lttng_env(FILE *out, const struct ctf_writer *w);
/* Puts event id's class when LTTng names it (1), else 0. */
int ctf_lttng_class(FILE *out, const struct ctf_writer *w, unsigned int id);
void ctf_lttng_syscall_classes(FILE *out, const struct ctf_writer *w);
/* lkst's fields of r (class c), as the lkst layout writes them. */
void ctf_put_fields(struct ctf_stream *s, const struct ctf_class *c, const struct lkst_record *r);

#endif /* LKST_EXPORT_CTF_INT_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the kernel symbols saved with a log (utils/lkst_ksym.c):
 * kallsyms parsing, the section built from the addresses of stack records,
 * its strict validation (every truncation and corruption refused), lookups
 * at the edges, the text lkbuf print shows for stack records, and a log
 * written and read back with its symbols.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lkst_format.h"
#include "lkst_logio.h"
#include "lkst_ksym.h"

/* Core text, data, an alias, a __pfx_, and two modules. */
static const char fixture[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 t helper\n"
	"ffffffff81000130 D some_data\n"
	"ffffffff81000200 T __pfx_vfs_read\n"
	"ffffffff81000210 T vfs_read\n"
	"ffffffff81000370 W weak_fn\n"
	"ffffffff810003a0 r rodata_thing\n"
	"ffffffff81000400 T _etext\n"
	"ffffffffc0001000 t stack_handle\t[lkst_stack]\n"
	"ffffffffc0001080 T stack_init\t[lkst_stack]\n"
	"ffffffffc0001100 d stack_data\t[lkst_stack]\n"
	"ffffffffc0002000 t other_fn\t[other]\n";

static FILE *mem(const char *text)
{
	return fmemopen((void *)text, strlen(text), "r");
}

static int parse(const char *text, struct lkst_ksym_kallsyms **ks, struct lkst_err *err)
{
	FILE *f = mem(text);

	*ks = lkst_ksym_kallsyms_read(f, err);
	fclose(f);
	return *ks ? 0 : -1;
}

static void test_kallsyms(void)
{
	struct lkst_ksym_kallsyms *ks;
	struct lkst_err err;
	const struct lkst_ksym *k;

	CHECK(parse(fixture, &ks, &err) == 0);
	CHECK(!lkst_ksym_kallsyms_restricted(ks));
	/* _stext (startup_64 an alias), helper, __pfx_vfs_read, vfs_read,
	 * weak_fn, _etext, stack_handle, stack_init, other_fn */
	CHECK(lkst_ksym_kallsyms_nr(ks) == 9);
	CHECK_STR(lkst_ksym_kallsyms_get(ks, 0)->name, "_stext");
	CHECK(lkst_ksym_kallsyms_get(ks, 0)->size == 0x100);
	CHECK_STR(lkst_ksym_kallsyms_get(ks, 1)->name, "helper");
	CHECK(lkst_ksym_kallsyms_get(ks, 1)->size == 0x30);		/* to some_data, a D */
	CHECK_STR(lkst_ksym_kallsyms_get(ks, 3)->name, "vfs_read");
	CHECK(lkst_ksym_kallsyms_get(ks, 3)->size == 0x160);
	CHECK_STR(lkst_ksym_kallsyms_get(ks, 4)->name, "weak_fn");
	CHECK(lkst_ksym_kallsyms_get(ks, 4)->size == 0x30);		/* to rodata_thing */
	CHECK_STR(lkst_ksym_kallsyms_get(ks, 6)->name, "stack_handle [lkst_stack]");
	CHECK(lkst_ksym_kallsyms_get(ks, 6)->size == 0x80);
	CHECK(lkst_ksym_kallsyms_get(ks, 7)->size == 0x80);		/* to stack_data */
	CHECK_STR(lkst_ksym_kallsyms_get(ks, 8)->name, "other_fn [other]");
	CHECK(lkst_ksym_kallsyms_get(ks, 8)->size == 0);		/* the last: unknown */

	CHECK(lkst_ksym_kallsyms_find(ks, 0xffffffff80ffffffULL) == NULL);
	k = lkst_ksym_kallsyms_find(ks, 0xffffffff81000210ULL);
	CHECK(k && !strcmp(k->name, "vfs_read"));
	k = lkst_ksym_kallsyms_find(ks, 0xffffffff8100036fULL);
	CHECK(k && !strcmp(k->name, "vfs_read"));
	k = lkst_ksym_kallsyms_find(ks, 0xffffffff81000370ULL);
	CHECK(k && !strcmp(k->name, "weak_fn"));
	/* helper ends where some_data starts: data is no text symbol. */
	CHECK(lkst_ksym_kallsyms_find(ks, 0xffffffff81000130ULL) == NULL);
	CHECK(lkst_ksym_kallsyms_find(ks, 0xffffffffc0002000ULL) != NULL);
	CHECK(lkst_ksym_kallsyms_find(ks, 0xffffffffc0002001ULL) == NULL);
	lkst_ksym_kallsyms_free(ks);

	/* kptr_restrict: every address 0. */
	CHECK(parse("0000000000000000 T _stext\n0000000000000000 t helper\n", &ks, &err) == 0);
	CHECK(lkst_ksym_kallsyms_restricted(ks));
	CHECK(lkst_ksym_kallsyms_nr(ks) == 0);
	lkst_ksym_kallsyms_free(ks);

	CHECK(parse("", &ks, &err) == 0);
	CHECK(lkst_ksym_kallsyms_nr(ks) == 0 && !lkst_ksym_kallsyms_restricted(ks));
	lkst_ksym_kallsyms_free(ks);
}

static void test_kallsyms_bad(void)
{
	static const char *const bad[] = {
		"ffffffff81000000 T\n",
		"zzzz T foo\n",
		"ffffffff81000000 T foo bar\n",
		"ffffffff81000000 T foo\t[mod\n",
		"ffffffff81000000 T foo\t[]\n",
		"ffffffff81000000 T foo\t[mod] x\n",
		"ffffffff81000000 T foo\n\n",
		"ffffffff81000000 T f\x01o\n",
	};
	char longline[2048];
	struct lkst_ksym_kallsyms *ks;
	struct lkst_err err;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(bad[i], &ks, &err) == -1);
		CHECK_HAS(err.msg, "kernel symbols, line");
		CHECK(ks == NULL);
	}
	CHECK(parse("ffffffff81000000 T ok\nffffffff81000010 T\n", &ks, &err) == -1);
	CHECK_HAS(err.msg, "line 2");
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, "ffffffff81000000 T ", 19);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	CHECK(parse(longline, &ks, &err) == -1);
}

/* A STACK_KERNEL record of frames first.. of total, for event ev. */
static void stack_rec(struct lkst_record *r, unsigned int ev, unsigned int first,
		      unsigned int total, const __u64 *frames)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->event = LKST_EV_STACK_KERNEL;
	r->pid = 42;
	r->arg[0] = LKST_STACK_POS(ev, first, total);
	for (i = 0; i < LKST_STACK_FRAMES_PER_RECORD && first + i < total; i++)
		r->arg[1 + i] = frames[first + i];
}

static const __u64 frames[7] = {
	0xffffffff81000220ULL,		/* vfs_read+0x10 */
	0xffffffff81000108ULL,		/* helper+0x8 */
	0xffffffffc0001010ULL,		/* stack_handle+0x10 [lkst_stack] */
	0xffffffff81000230ULL,		/* vfs_read+0x20 again */
	0xffffffff81000140ULL,		/* some_data: no text symbol */
	0xffffffffc0002000ULL,		/* other_fn+0x0, size unknown */
	0xffffffff81000108ULL,		/* helper+0x8 again */
};

/* The section for frames[], from the fixture. */
static void build_blob(void **blob, size_t *len)
{
	struct lkst_record recs[3];
	struct lkst_ksym_set *s = lkst_ksym_set_new(&(struct lkst_err){ 0 });
	struct lkst_ksym_kallsyms *ks;
	struct lkst_err err;

	stack_rec(&recs[0], LKST_EV_IPC_PIPE_READ, 0, 7, frames);
	stack_rec(&recs[1], LKST_EV_IPC_PIPE_READ, 5, 7, frames);
	memset(&recs[2], 0, sizeof(recs[2]));
	recs[2].event = LKST_EV_SYSCALL_ENTRY;	/* no KSYM arguments */
	recs[2].arg[0] = 0xffffffff81000210ULL;
	CHECK(lkst_ksym_set_add_records(s, recs, 3) == 0);
	CHECK(lkst_ksym_set_nr(s) == 7);
	CHECK(parse(fixture, &ks, &err) == 0);
	CHECK(lkst_ksym_build(ks, s, blob, len, &err) == 0);
	lkst_ksym_kallsyms_free(ks);
	lkst_ksym_set_free(s);
}

static void test_build_and_lookup(void)
{
	struct lkst_ksym_table *st;
	struct lkst_err err;
	char buf[128];
	void *blob;
	size_t len;
	__u32 head[2];
	struct lkst_ksym_entry e;

	build_blob(&blob, &len);
	CHECK(blob != NULL);
	/* helper, vfs_read, stack_handle, other_fn: 4 entries */
	memcpy(head, blob, sizeof(head));
	CHECK(head[0] == 4);
	CHECK(head[1] == sizeof("helper") + sizeof("vfs_read") +
	      sizeof("stack_handle [lkst_stack]") + sizeof("other_fn [other]"));
	CHECK(len == 8 + 4 * 16 + head[1]);
	memcpy(&e, (char *)blob + 8, sizeof(e));
	CHECK(e.addr == 0xffffffff81000100ULL && e.size == 0x30 && e.name == 0);

	st = lkst_ksym_table_load(blob, len, &err);
	CHECK(st != NULL);
	CHECK(st && lkst_ksym_table_nr(st) == 4);
	CHECK(lkst_ksym_table_format(st, frames[0], buf, sizeof(buf)) == 1);
	CHECK_STR(buf, "vfs_read+0x10/0x160");
	lkst_ksym_table_format(st, frames[1], buf, sizeof(buf));
	CHECK_STR(buf, "helper+0x8/0x30");
	lkst_ksym_table_format(st, frames[2], buf, sizeof(buf));
	CHECK_STR(buf, "stack_handle+0x10/0x80 [lkst_stack]");
	lkst_ksym_table_format(st, frames[5], buf, sizeof(buf));
	CHECK_STR(buf, "other_fn+0x0 [other]");
	/* Edges: first byte, last byte, one past, before all, after all. */
	lkst_ksym_table_format(st, 0xffffffff81000100ULL, buf, sizeof(buf));
	CHECK_STR(buf, "helper+0x0/0x30");
	lkst_ksym_table_format(st, 0xffffffff8100012fULL, buf, sizeof(buf));
	CHECK_STR(buf, "helper+0x2f/0x30");
	CHECK(lkst_ksym_table_format(st, 0xffffffff81000130ULL, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "");
	CHECK(lkst_ksym_table_format(st, 0xffffffff810000ffULL, buf, sizeof(buf)) == 0);
	CHECK(lkst_ksym_table_format(st, 0xffffffffc0002001ULL, buf, sizeof(buf)) == 0);
	CHECK(lkst_ksym_table_format(st, 0, buf, sizeof(buf)) == 0);
	CHECK(lkst_ksym_table_format(st, ~0ULL, buf, sizeof(buf)) == 0);
	/* The 200-byte bound of the printer; a tiny buffer truncates. */
	lkst_ksym_table_format(st, frames[2], buf, 8);
	CHECK_STR(buf, "stack_h");
	CHECK(lkst_ksym_table_format(NULL, frames[0], buf, sizeof(buf)) == 0);
	CHECK(lkst_ksym_table_find(st, frames[2]) != NULL);
	CHECK_STR(lkst_ksym_table_name(st, lkst_ksym_table_find(st, frames[2])), "stack_handle [lkst_stack]");
	lkst_ksym_table_free(st);
	free(blob);

	/* Nothing to symbolize, or nothing covered: no section. */
	{
		struct lkst_ksym_set *s = lkst_ksym_set_new(&(struct lkst_err){ 0 });
		struct lkst_ksym_kallsyms *ks;

		CHECK(parse(fixture, &ks, &err) == 0);
		CHECK(lkst_ksym_build(ks, s, &blob, &len, &err) == 0);
		CHECK(blob == NULL && len == 0);
		CHECK(lkst_ksym_set_add(s, 0x1234) == 0);
		CHECK(lkst_ksym_build(ks, s, &blob, &len, &err) == 0);
		CHECK(blob == NULL && len == 0);
		lkst_ksym_kallsyms_free(ks);
		lkst_ksym_set_free(s);
	}
}

static int load_bytes(const unsigned char *b, size_t len, struct lkst_err *err)
{
	struct lkst_ksym_table *st;
	st = lkst_ksym_table_load(b, len, err);
	lkst_ksym_table_free(st);
	return st ? 0 : -1;
}

static void put32(unsigned char *b, size_t off, __u32 v)
{
	memcpy(b + off, &v, sizeof(v));
}

static void put64(unsigned char *b, size_t off, __u64 v)
{
	memcpy(b + off, &v, sizeof(v));
}

static void test_corrupt(void)
{
	unsigned char *b, *c;
	struct lkst_err err;
	size_t len, i, refused = 0, strtab;
	void *blob;

	build_blob(&blob, &len);
	b = blob;
	strtab = 8 + 4 * 16;
	CHECK(load_bytes(b, len, &err) == 0);
	/* Every truncation. */
	for (i = 0; i < len; i++)
		refused += load_bytes(b, i, &err) == -1;
	CHECK(refused == len);
	c = malloc(len + 1);
	memcpy(c, b, len);
	c[len] = 0;
	CHECK(load_bytes(c, len + 1, &err) == -1);	/* a byte too many */
	CHECK_HAS(err.msg, "do not make");

#define CORRUPT(stmt, want) do {					\
		memcpy(c, b, len);				\
		stmt;						\
		CHECK(load_bytes(c, len, &err) == -1);		\
		CHECK_HAS(err.msg, want);			\
	} while (0)
	CORRUPT(put32(c, 0, 0), "empty");
	CORRUPT(put32(c, 0, 5), "do not make");
	CORRUPT(put32(c, 0, 0xffffffffu), "do not make");
	CORRUPT(put32(c, 4, 0), "do not make");
	CORRUPT(put32(c, 4, 0xffffffffu), "do not make");
	CORRUPT(c[len - 1] = 'x', "NUL");
	CORRUPT(put32(c, 8 + 12, len - strtab), "bad name");	/* past the table */
	CORRUPT(put32(c, 8 + 12, 0xffffffffu), "bad name");
	CORRUPT(put32(c, 8 + 16 + 12, sizeof("helper") - 1), "bad name"); /* "" */
	CORRUPT(c[strtab] = '\n', "bad name");			/* "\nelper" */
	CORRUPT(c[strtab + 1] = (char)0x80, "bad name");
	/* Out of order, a duplicate, an overlap, past the address space. */
	CORRUPT(put64(c, 8 + 16, 0xffffffff81000000ULL), "out of order");
	CORRUPT(put64(c, 8 + 16, 0xffffffff81000100ULL), "out of order");
	CORRUPT(put32(c, 8 + 8, 0x200), "overlaps");
	CORRUPT(put64(c, 8 + 3 * 16, 0xfffffffffffffff0ULL);
		put32(c, 8 + 3 * 16 + 8, 0x20), "address space");
#undef CORRUPT
	free(c);
	free(blob);
}

/* What lkbuf print shows of stack records, with and without symbols. */
static void test_format(void)
{
	struct lkst_format_opts opts = { 0 };
	struct lkst_record r;
	struct lkst_ksym_table *st;
	struct lkst_outbuf *o = lkst_outbuf_new(NULL);
	struct lkst_err err;
	char buf[256], *text = NULL;
	size_t len, tlen = 0;
	void *blob;
	FILE *f;

	build_blob(&blob, &len);
	st = lkst_ksym_table_load(blob, len, &err);
	CHECK(st != NULL);
	free(blob);
	stack_rec(&r, LKST_EV_IPC_PIPE_READ, 5, 7, frames);

	lkst_format_arg(&r, 0, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "IPC_PIPE_READ frames 5-6 of 7");
	lkst_format_arg(&r, 1, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "0xffffffffc0002000");		/* no symbols given */
	opts.symbols = st;
	lkst_format_arg(&r, 1, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "other_fn+0x0 [other]");
	lkst_format_arg(&r, 2, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "helper+0x8/0x30");
	lkst_format_arg(&r, 3, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "");				/* past the stack */
	opts.raw = 1;
	lkst_format_arg(&r, 1, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "0xffffffffc0002000");
	opts.raw = 0;

	/* The buffered text and CSV paths. */
	f = open_memstream(&text, &tlen);
	lkst_outbuf_init(o, f);
	r.time_ns = 1000000000ULL;
	lkst_format_record_buf(o, &r, 1, &opts);
	opts.csv = 1;
	lkst_format_record_buf(o, &r, 1, &opts);
	stack_rec(&r, LKST_EV_IPC_PIPE_READ, 0, 7, frames);
	lkst_format_record_buf(o, &r, 1, &opts);
	opts.csv = 0;
	opts.symbols = NULL;
	lkst_format_record_buf(o, &r, 1, &opts);
	lkst_outbuf_flush(o);
	fclose(f);
	CHECK_HAS(text, " STACK_KERNEL stack=IPC_PIPE_READ frames 5-6 of 7 "
		  "frame=other_fn+0x0 [other] frame=helper+0x8/0x30\n");
	CHECK_HAS(text, ",STACK_KERNEL,0xe1,IPC_PIPE_READ frames 5-6 of 7,"
		  "other_fn+0x0 [other],helper+0x8/0x30,,,\n");
	CHECK_HAS(text, ",IPC_PIPE_READ frames 0-4 of 7,vfs_read+0x10/0x160,"
		  "helper+0x8/0x30,stack_handle+0x10/0x80 [lkst_stack],"
		  "vfs_read+0x20/0x160,0xffffffff81000140\n");
	CHECK_HAS(text, "stack=IPC_PIPE_READ frames 0-4 of 7 frame=0xffffffff81000220 ");
	free(text);

	/* --stacks: a line per frame; other records as ever; not in CSV. */
	f = open_memstream(&text, &tlen);
	lkst_outbuf_init(o, f);
	opts.symbols = st;
	opts.stacks = 1;
	stack_rec(&r, LKST_EV_IPC_PIPE_READ, 5, 7, frames);
	lkst_format_record_buf(o, &r, 1, &opts);
	r.event = LKST_EV_STACK_USER;
	lkst_format_record_buf(o, &r, 1, &opts);
	memset(&r, 0, sizeof(r));
	r.event = LKST_EV_USER_MARK;
	r.pid = 42;
	r.time_ns = 1000000000ULL;
	memcpy(r.arg, "mark", 4);
	lkst_format_record_buf(o, &r, 1, &opts);
	lkst_outbuf_flush(o);
	fclose(f);
	CHECK_STR(text, "    kernel #5  other_fn+0x0 [other]\n"
		  "    kernel #6  helper+0x8/0x30\n"
		  "    user   #5  0xffffffffc0002000\n"
		  "    user   #6  0xffffffff81000108\n"
		  "1000000000 cpu=1 pid=42 ctx=task USER_MARK text=mark\n");
	free(text);
	opts.stacks = 0;
	lkst_outbuf_free(o);
	lkst_ksym_table_free(st);

	/* A position naming an unknown event, or an empty stack. */
	memset(&r, 0, sizeof(r));
	r.event = LKST_EV_STACK_USER;
	r.arg[0] = LKST_STACK_POS(0x99, 0, 1);
	r.arg[1] = 0x401000;
	lkst_format_arg(&r, 0, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "0x99 frames 0-0 of 1");
	lkst_format_arg(&r, 1, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "0x401000");
	r.arg[0] = LKST_STACK_POS(LKST_EV_SYSCALL_ENTRY, 10, 0);
	lkst_format_arg(&r, 0, &opts, buf, sizeof(buf));
	CHECK_STR(buf, "SYSCALL_ENTRY frames 10-10 of 0");
}

/* lkbuf's path: records written, symbols saved at the commit, read back. */
static void test_log(void)
{
	char dir[] = "/tmp/lkst_test_symbols.XXXXXX", path[300], ksyms[300];
	struct lkst_log_cpu c0 = { .cpu = 0, .nr_records = 2 };
	struct lkst_ksym_set *s = lkst_ksym_set_new(&(struct lkst_err){ 0 });
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_record recs[2];
	struct lkst_ksym_table *st;
	struct lkst_log *log;
	struct lkst_err err;
	char buf[128];
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/t.log", dir);
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	f = fopen(ksyms, "w");
	fputs(fixture, f);
	fclose(f);
	stack_rec(&recs[0], LKST_EV_SYSCALL_ENTRY, 0, 7, frames);
	stack_rec(&recs[1], LKST_EV_SYSCALL_ENTRY, 5, 7, frames);
	recs[1].time_ns = 5;

	lkst_log_header_init(&h);
	h.nr_cpus = 1;
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_write_cpu(w, &c0, recs, &err) == 0);
	CHECK(lkst_ksym_set_add_records(s, recs, 2) == 0);
	CHECK(lkst_ksym_save(w, s, ksyms, &err) == 0);
	CHECK(lkst_ksym_set_nr(s) == 0);
	CHECK(lkst_log_commit(w, &err) == 0);
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	st = lkst_ksym_table_from_log(log, &err);
	CHECK(st != NULL);
	CHECK(st && lkst_ksym_table_nr(st) == 4);
	lkst_ksym_table_format(st, frames[2], buf, sizeof(buf));
	CHECK_STR(buf, "stack_handle+0x10/0x80 [lkst_stack]");
	lkst_ksym_table_free(st);
	lkst_log_free(log);

	/* No KSYM records: no section, and kallsyms is not even opened. */
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_write_cpu(w, &c0, recs, &err) == 0);
	CHECK(lkst_ksym_save(w, s, "/nonexistent/kallsyms", &err) == 0);
	CHECK(lkst_log_commit(w, &err) == 0);
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	st = lkst_ksym_table_from_log(log, &err);
	CHECK(st != NULL);
	CHECK(st && lkst_ksym_table_nr(st) == 0);
	lkst_ksym_table_free(st);
	lkst_log_free(log);

	/* kallsyms unreadable: an error, the log itself still fine. */
	CHECK(lkst_ksym_set_add(s, frames[0]) == 0);
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_write_cpu(w, &c0, recs, &err) == 0);
	CHECK(lkst_ksym_save(w, s, "/nonexistent/kallsyms", &err) == -1);
	CHECK_HAS(err.msg, "cannot open /nonexistent/kallsyms");
	CHECK(lkst_log_commit(w, &err) == 0);

	/* Hidden addresses: a warning, no section. */
	CHECK(lkst_ksym_set_nr(s) == 0);	/* emptied by the failure too */
	CHECK(lkst_ksym_set_add(s, frames[0]) == 0);
	f = fopen(ksyms, "w");
	fputs("0000000000000000 T _stext\n0000000000000000 T vfs_read\n", f);
	fclose(f);
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_write_cpu(w, &c0, recs, &err) == 0);
	CHECK(lkst_ksym_save(w, s, ksyms, &err) == 0);
	CHECK(lkst_log_commit(w, &err) == 0);
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	CHECK(lkst_log_meta(log, LKST_META_SYMBOLS, &(size_t){ 0 }) == NULL);
	lkst_log_free(log);
	lkst_ksym_set_free(s);

	/* A corrupt section in a log: lkbuf print's load refuses it. */
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_write_cpu(w, &c0, recs, &err) == 0);
	CHECK(lkst_log_add_meta(w, LKST_META_SYMBOLS, "\1\0\0\0\1\0\0\0", 8, &err) == 0);
	CHECK(lkst_log_commit(w, &err) == 0);
	CHECK((log = lkst_log_load(path, &err)) != NULL);
	CHECK(lkst_ksym_table_from_log(log, &err) == NULL);
	CHECK_HAS(err.msg, "kernel symbols");
	lkst_log_free(log);

	unlink(path);
	unlink(ksyms);
	rmdir(dir);
}

int main(void)
{
	lkst_events_use_builtin();
	test_kallsyms();
	test_kallsyms_bad();
	test_build_and_lookup();
	test_corrupt();
	test_format();
	test_log();
	return check_report();
}

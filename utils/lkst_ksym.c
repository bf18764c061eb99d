// SPDX-License-Identifier: LGPL-2.1-or-later
/* Kernel symbols saved with a log: see lkst_ksym.h. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_logio.h"
#include "lkst_ksym_int.h"

/* ---- /proc/kallsyms ---------------------------------------------------- */

static int is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* Every symbol, for the sizes; only text ones are kept. */
struct raw_sym {
	__u64 addr;
	size_t line;			/* file order, for a stable sort */
	char *name;			/* NULL: not a text symbol */
};

static int raw_cmp(const void *a, const void *b)
{
	const struct raw_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

struct lkst_ksym_kallsyms *lkst_ksym_kallsyms_read(FILE *in, struct lkst_err *err)
{
	struct lkst_ksym_kallsyms *ks;
	struct raw_sym *raw = NULL;
	size_t nr = 0, cap = 0, i, j, lineno = 0;
	char line[1024];
	int all_zero = 1;

	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		lkst_seterr(err, "out of memory reading the kernel symbols; free some memory");
		return NULL;
	}
	while (fgets(line, sizeof(line), in)) {
		char name[512], module[512], type;
		unsigned long long addr;
		size_t l = strlen(line);
		int n, used = 0;

		lineno++;
		if (l && line[l - 1] == '\n')
			line[--l] = '\0';
		else if (!feof(in))
			goto bad;
		module[0] = '\0';
		n = sscanf(line, "%llx %c %511s %n", &addr, &type, name, &used);
		if (n != 3)
			goto bad;
		if (line[used] == '[') {
			char *end = strchr(line + used, ']');

			if (!end || end[1] || end - line - used - 1 >= (long)sizeof(module) ||
			    end == line + used + 1)
				goto bad;
			memcpy(module, line + used + 1, end - line - used - 1);
			module[end - line - used - 1] = '\0';
		} else if (line[used]) {
			goto bad;
		}
		if (!name_ok(name) || (module[0] && !name_ok(module)) ||
		    strchr(module, ' '))
			goto bad;
		if (addr)
			all_zero = 0;
		if (nr == cap) {
			struct raw_sym *r;

			cap = cap ? cap * 2 : 4096;
			r = realloc(raw, cap * sizeof(*raw));
			if (!r)
				goto nomem;
			raw = r;
		}
		raw[nr].addr = addr;
		raw[nr].line = lineno;
		raw[nr].name = NULL;
		if (is_text_type(type)) {
			size_t len = strlen(name) + (module[0] ? strlen(module) + 3 : 0) + 1;

			raw[nr].name = malloc(len);
			if (!raw[nr].name)
				goto nomem;
			if (module[0])
				snprintf(raw[nr].name, len, "%s [%s]", name, module);
			else
				snprintf(raw[nr].name, len, "%s", name);
		}
		nr++;
	}
	if (ferror(in)) {
		lkst_seterr(err, "cannot read the kernel symbols: %s", strerror(errno));
		goto fail;
	}
	if (all_zero && nr) {
		ks->restricted = 1;
		for (i = 0; i < nr; i++)
			free(raw[i].name);
		free(raw);
		return ks;
	}
	qsort(raw, nr, sizeof(*raw), raw_cmp);
	ks->sym = calloc(nr ? nr : 1, sizeof(*ks->sym));
	if (!ks->sym)
		goto nomem;
	for (i = 0; i < nr; i++) {
		struct lkst_ksym *k;

		if (!raw[i].name)
			continue;
		/* An alias at the same address as the symbol before: skip. */
		if (ks->nr && ks->sym[ks->nr - 1].addr == raw[i].addr) {
			free(raw[i].name);
			continue;
		}
		k = &ks->sym[ks->nr++];
		k->addr = raw[i].addr;
		k->name = raw[i].name;
		k->size = 0;
		for (j = i + 1; j < nr && raw[j].addr == raw[i].addr; j++)
			;
		if (j < nr && raw[j].addr - raw[i].addr <= UINT32_MAX)
			k->size = raw[j].addr - raw[i].addr;
	}
	free(raw);
	return ks;
bad:
	lkst_seterr(err, "kernel symbols, line %zu: not \"ADDRESS TYPE NAME [MODULE]\"; is it a kallsyms file?",
		    lineno);
	goto fail;
nomem:
	lkst_seterr(err, "out of memory reading the kernel symbols; free some memory");
fail:
	for (i = 0; i < nr; i++)
		free(raw[i].name);
	free(raw);
	lkst_ksym_kallsyms_free(ks);
	return NULL;
}

void lkst_ksym_kallsyms_free(struct lkst_ksym_kallsyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; ks->sym && i < ks->nr; i++)
		free(ks->sym[i].name);
	free(ks->sym);
	free(ks);
}

size_t lkst_ksym_kallsyms_nr(const struct lkst_ksym_kallsyms *ks)
{
	return ks->nr;
}

const struct lkst_ksym *lkst_ksym_kallsyms_get(const struct lkst_ksym_kallsyms *ks, size_t i)
{
	return i < ks->nr ? &ks->sym[i] : NULL;
}

int lkst_ksym_kallsyms_restricted(const struct lkst_ksym_kallsyms *ks)
{
	return ks->restricted;
}

/*
 * Both tables are sorted by address and start each entry with it: the
 * index of the last entry at or below addr whose span (its size; just
 * addr when the size is unknown, 0) holds addr, or -1.
 */
_Static_assert(offsetof(struct lkst_ksym, addr) == 0, "addr leads struct lkst_ksym");
_Static_assert(offsetof(struct lkst_ksym_entry, addr) == 0, "addr leads struct lkst_ksym_entry");

static long find_sorted(const void *table, size_t nr, size_t stride, __u64 addr,
			__u64 (*size_of)(const void *entry))
{
	size_t lo = 0, hi = nr;
	const void *e;
	__u64 start;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		memcpy(&start, (const char *)table + mid * stride, sizeof(start));
		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	e = (const char *)table + (lo - 1) * stride;
	memcpy(&start, e, sizeof(start));
	if (size_of(e) ? addr - start < size_of(e) : addr == start)
		return lo - 1;
	return -1;
}

static __u64 ksym_size(const void *e)
{
	return ((const struct lkst_ksym *)e)->size;
}

const struct lkst_ksym *lkst_ksym_kallsyms_find(const struct lkst_ksym_kallsyms *ks, __u64 addr)
{
	long i = find_sorted(ks->sym, ks->nr, sizeof(*ks->sym), addr, ksym_size);

	return i < 0 ? NULL : &ks->sym[i];
}

/* ---- Addresses ------------------------------------------------------------ */

struct lkst_ksym_set *lkst_ksym_set_new(struct lkst_err *err)
{
	struct lkst_ksym_set *s = calloc(1, sizeof(*s));

	if (!s)
		lkst_seterr(err, "out of memory collecting kernel addresses; free some memory");
	return s;
}

size_t lkst_ksym_set_nr(const struct lkst_ksym_set *s)
{
	return s->nr;
}

int lkst_ksym_set_add(struct lkst_ksym_set *s, __u64 addr)
{
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		__u64 *a = realloc(s->addr, cap * sizeof(*a));

		if (!a)
			return -1;
		s->addr = a;
		s->cap = cap;
	}
	s->addr[s->nr++] = addr;
	return 0;
}

int lkst_ksym_set_add_records(struct lkst_ksym_set *s,
			      const struct lkst_record *recs, size_t n)
{
	const struct lkst_event_info *ev;
	size_t r;
	unsigned int i;

	for (r = 0; r < n; r++) {
		ev = lkst_event_by_id(recs[r].event);
		if (!ev)
			continue;
		for (i = 0; i < LKST_NR_ARGS; i++)
			if (ev->args[i].type == LKST_ARG_KSYM && recs[r].arg[i] &&
			    lkst_ksym_set_add(s, recs[r].arg[i]))
				return -1;
	}
	return 0;
}

void lkst_ksym_set_free(struct lkst_ksym_set *s)
{
	if (!s)
		return;
	free(s->addr);
	free(s);
}

static int u64_cmp(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* ---- The section ----------------------------------------------------------- */

int lkst_ksym_build(const struct lkst_ksym_kallsyms *ks, struct lkst_ksym_set *s,
		       void **blob, size_t *len, struct lkst_err *err)
{
	const struct lkst_ksym **used;
	size_t i, nr = 0, strtab = 0, off;
	struct lkst_ksym_entry e;
	__u32 head[2];
	char *out;

	*blob = NULL;
	*len = 0;
	if (!s->nr)
		return 0;
	qsort(s->addr, s->nr, sizeof(*s->addr), u64_cmp);
	used = malloc(s->nr * sizeof(*used));
	if (!used) {
		lkst_seterr(err, "out of memory collecting kernel symbols; free some memory");
		return -1;
	}
	/* Addresses are sorted, so the symbols come in order too. */
	for (i = 0; i < s->nr; i++) {
		const struct lkst_ksym *k = lkst_ksym_kallsyms_find(ks, s->addr[i]);

		if (k && (!nr || used[nr - 1] != k)) {
			used[nr++] = k;
			strtab += strlen(k->name) + 1;
		}
	}
	if (!nr || nr > UINT32_MAX || strtab > UINT32_MAX) {
		free(used);
		return 0;
	}
	*len = LKST_KSYM_HEAD_SIZE + nr * sizeof(e) + strtab;
	out = malloc(*len);
	if (!out) {
		free(used);
		*len = 0;
		lkst_seterr(err, "out of memory collecting kernel symbols; free some memory");
		return -1;
	}
	head[0] = nr;
	head[1] = strtab;
	memcpy(out, head, sizeof(head));
	off = 0;
	for (i = 0; i < nr; i++) {
		size_t l = strlen(used[i]->name) + 1;

		e.addr = used[i]->addr;
		e.size = used[i]->size;
		e.name = off;
		memcpy(out + LKST_KSYM_HEAD_SIZE + i * sizeof(e), &e, sizeof(e));
		memcpy(out + LKST_KSYM_HEAD_SIZE + nr * sizeof(e) + off, used[i]->name, l);
		off += l;
	}
	free(used);
	*blob = out;
	return 0;
}

/* Fills st (zeroed) from the section blob: 0, or -1 with err set. */
static int symtab_load(const void *blob, size_t len, struct lkst_ksym_table *st,
		       struct lkst_err *err)
{
	const unsigned char *p = blob;
	__u32 head[2];
	size_t i, nr, strtab_size;

	if (len < LKST_KSYM_HEAD_SIZE) {
		lkst_seterr(err, "kernel symbols: %zu bytes, shorter than their %d-byte head",
			    len, LKST_KSYM_HEAD_SIZE);
		return -1;
	}
	memcpy(head, p, sizeof(head));
	nr = head[0];
	strtab_size = head[1];
	if (!nr) {
		lkst_seterr(err, "kernel symbols: the table is empty");
		return -1;
	}
	if (nr > (len - LKST_KSYM_HEAD_SIZE) / sizeof(struct lkst_ksym_entry) ||
	    strtab_size != len - LKST_KSYM_HEAD_SIZE - nr * sizeof(struct lkst_ksym_entry)) {
		lkst_seterr(err, "kernel symbols: %zu entries and %zu bytes of names do not make the %zu bytes of the section",
			    nr, strtab_size, len);
		return -1;
	}
	if (!strtab_size || p[len - 1] != '\0') {
		lkst_seterr(err, "kernel symbols: the names do not end in a NUL");
		return -1;
	}
	st->ent = malloc(nr * sizeof(*st->ent));
	st->strtab = malloc(strtab_size);
	if (!st->ent || !st->strtab) {
		lkst_seterr(err, "out of memory loading %zu kernel symbols; free some memory", nr);
		return -1;
	}
	memcpy(st->ent, p + LKST_KSYM_HEAD_SIZE, nr * sizeof(*st->ent));
	memcpy(st->strtab, p + LKST_KSYM_HEAD_SIZE + nr * sizeof(*st->ent), strtab_size);
	st->nr = nr;
	st->strtab_size = strtab_size;
	for (i = 0; i < nr; i++) {
		const struct lkst_ksym_entry *e = &st->ent[i];

		if (e->name >= strtab_size || !name_ok(st->strtab + e->name)) {
			lkst_seterr(err, "kernel symbols: entry %zu has a bad name (offset %u of %zu)",
				    i, e->name, strtab_size);
			goto bad;
		}
		if (e->addr + e->size < e->addr) {
			lkst_seterr(err, "kernel symbols: entry %zu ends past the address space",
				    i);
			goto bad;
		}
		if (i && (e->addr <= e[-1].addr || e[-1].addr + e[-1].size > e->addr)) {
			lkst_seterr(err, "kernel symbols: entry %zu is out of order or overlaps the one before",
				    i);
			goto bad;
		}
	}
	return 0;
bad:
	return -1;
}

struct lkst_ksym_table *lkst_ksym_table_load(const void *blob, size_t len, struct lkst_err *err)
{
	struct lkst_ksym_table *st = calloc(1, sizeof(*st));

	if (!st) {
		lkst_seterr(err, "out of memory loading kernel symbols; free some memory");
		return NULL;
	}
	if (symtab_load(blob, len, st, err)) {
		lkst_ksym_table_free(st);
		return NULL;
	}
	return st;
}

void lkst_ksym_table_free(struct lkst_ksym_table *st)
{
	if (!st)
		return;
	free(st->ent);
	free(st->strtab);
	free(st);
}

size_t lkst_ksym_table_nr(const struct lkst_ksym_table *st)
{
	return st->nr;
}

const char *lkst_ksym_table_name(const struct lkst_ksym_table *st, const struct lkst_ksym_entry *e)
{
	return e->name < st->strtab_size ? st->strtab + e->name : "";
}

static __u64 sym_entry_size(const void *e)
{
	return ((const struct lkst_ksym_entry *)e)->size;
}

const struct lkst_ksym_entry *lkst_ksym_table_find(const struct lkst_ksym_table *st, __u64 addr)
{
	long i = find_sorted(st->ent, st->nr, sizeof(*st->ent), addr, sym_entry_size);

	return i < 0 ? NULL : &st->ent[i];
}

int lkst_ksym_table_format(const struct lkst_ksym_table *st, __u64 addr, char *buf, size_t len)
{
	const struct lkst_ksym_entry *e = st ? lkst_ksym_table_find(st, addr) : NULL;
	const char *name, *module;
	char size[32] = "";

	if (len)
		buf[0] = '\0';
	if (!e)
		return 0;
	name = st->strtab + e->name;
	module = strchr(name, ' ');
	if (e->size)
		snprintf(size, sizeof(size), "/0x%x", e->size);
	snprintf(buf, len, "%.*s+0x%llx%s%s",
		 (int)(module ? (size_t)(module - name) : strlen(name)), name,
		 (unsigned long long)(addr - e->addr), size, module ? module : "");
	return 1;
}

/* ---- lkbuf ---------------------------------------------------------------- */

int lkst_ksym_save(struct lkst_log_writer *w, struct lkst_ksym_set *s,
		      const char *kallsyms_path, struct lkst_err *err)
{
	struct lkst_ksym_kallsyms *ks;
	void *blob;
	size_t len;
	FILE *in;
	int ret;

	if (!s->nr)
		return 0;
	in = fopen(kallsyms_path, "r");
	if (!in) {
		lkst_seterr(err, "cannot open %s: %s; the stacks cannot be symbolized",
			    kallsyms_path, strerror(errno));
		s->nr = 0;
		return -1;
	}
	ks = lkst_ksym_kallsyms_read(in, err);
	fclose(in);
	if (!ks) {
		s->nr = 0;
		return -1;
	}
	if (ks->restricted) {
		lkst_ksym_kallsyms_free(ks);
		if (!s->warned)
			lkst_msg(LKST_MSG_WARNING, 0,
				 "%s shows no addresses (kptr_restrict); the log's kernel stacks are saved without symbols",
				 kallsyms_path);
		s->warned = 1;
		s->nr = 0;
		return 0;
	}
	ret = lkst_ksym_build(ks, s, &blob, &len, err);
	lkst_ksym_kallsyms_free(ks);
	s->nr = 0;
	if (ret)
		return -1;
	if (blob)
		ret = lkst_log_add_meta(w, LKST_META_SYMBOLS, blob, len, err);
	free(blob);
	return ret;
}

struct lkst_ksym_table *lkst_ksym_table_from_log(const struct lkst_log *log, struct lkst_err *err)
{
	size_t len;
	const void *blob = lkst_log_meta(log, LKST_META_SYMBOLS, &len);
	struct lkst_ksym_table *st;

	if (blob)
		return lkst_ksym_table_load(blob, len, err);
	st = calloc(1, sizeof(*st));
	if (!st)
		lkst_seterr(err, "out of memory; free some memory");
	return st;
}

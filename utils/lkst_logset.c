// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Several log files read as one (lkst_logio.h): lkbuf record --rotate's
 * DIR/lkst-NNNNNN.log[.zst] files, or any list of logs of one trace.
 *
 * The files are loaded, checked to be of one boot (host, kernel, event
 * table, clock anchor) and to continue each other's sequence numbers per
 * CPU, then joined into one image in the log format, CPU by CPU, in a
 * temporary file which is mapped and parsed as any file is: the result is an ordinary struct lkst_log, as if
 * one file had held every record.  A gap between two files' numbers is a
 * loss, counted and placed as any gap inside a file.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkst_logio.h"
#include "lkst_logio_int.h"
#include "lkst_format_int.h"
#include "lkst_ksym_int.h"

/* Boot times (realtime minus trace clock) of one boot differ by NTP's slew. */
#define BOOT_SLACK_NS	2000000000ll

static long long boot_time(const struct lkst_log_header *h)
{
	return (long long)(h->anchor_realtime_ns - h->anchor_trace_ns);
}

/* Whether b was taken in the same boot, host and event table as a. */
static int check_same(const struct lkst_log *a, const char *pa,
		      const struct lkst_log *b, const char *pb, struct lkst_err *err)
{
	const struct lkst_log_header *x = &a->header, *y = &b->header;
	const void *ea, *eb;
	size_t la = 0, lb = 0;
	long long d = boot_time(x) - boot_time(y);

	if (x->version != y->version || x->version < 2) {
		lkst_seterr(err, "%s and %s: log format versions %u and %u; only version 2 or later logs of one version join (their sequence numbers show the order)",
			    pa, pb, x->version, y->version);
		return -1;
	}
	if (strcmp(x->nodename, y->nodename) || strcmp(x->release, y->release)) {
		/* The names may hold terminal escapes: shown escaped. */
		char xn[4 * sizeof(x->nodename) + 1], xr[4 * sizeof(x->release) + 1];
		char yn[sizeof(xn)], yr[sizeof(xr)];

		lkst_fmt_escape_bytes((const unsigned char *)x->nodename, sizeof(x->nodename),
				      xn, sizeof(xn));
		lkst_fmt_escape_bytes((const unsigned char *)x->release, sizeof(x->release),
				      xr, sizeof(xr));
		lkst_fmt_escape_bytes((const unsigned char *)y->nodename, sizeof(y->nodename),
				      yn, sizeof(yn));
		lkst_fmt_escape_bytes((const unsigned char *)y->release, sizeof(y->release),
				      yr, sizeof(yr));
		lkst_seterr(err, "%s is of host %s, kernel %s, but %s of host %s, kernel %s; give the files of one trace",
			    pa, xn, xr, pb, yn, yr);
		return -1;
	}
	if (x->abi_version != y->abi_version || x->nr_event_ids != y->nr_event_ids ||
	    x->clock != y->clock || strcmp(x->layout, y->layout)) {
		lkst_seterr(err, "%s and %s were saved by different lkst versions; give the files of one trace",
			    pa, pb);
		return -1;
	}
	ea = lkst_log_meta(a, LKST_META_EVENTS, &la);
	eb = lkst_log_meta(b, LKST_META_EVENTS, &lb);
	if (la != lb || (la && memcmp(ea, eb, la))) {
		lkst_seterr(err, "%s and %s have different event tables (probes added or removed between them?); give the files of one trace",
			    pa, pb);
		return -1;
	}
	if (d > BOOT_SLACK_NS || d < -BOOT_SLACK_NS) {
		lkst_seterr(err, "%s and %s are of different boots (their clocks started %.1f s apart); give the files of one boot",
			    pa, pb, (double)(d < 0 ? -d : d) / 1e9);
		return -1;
	}
	return 0;
}

/* The symbols of every file, one table: entries by address, first file's wins. */
struct sym_ref {
	__u64 addr;
	__u32 size, name;
	unsigned int file;
};

static int compare_refs(const void *a, const void *b)
{
	const struct sym_ref *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

static int merge_symbols(const struct lkst_log *const *logs, unsigned int n, void **blob,
			 size_t *len, struct lkst_err *err)
{
	struct lkst_ksym_table **tabs = calloc(n, sizeof(*tabs));
	struct lkst_ksym_entry *ent;
	struct sym_ref *refs = NULL;
	size_t nr = 0, strsize = 0, i, k, out = 0, soff = 0, l;
	unsigned char *b = NULL;
	unsigned int f;
	__u32 head[2];
	int ret = -1;

	*blob = NULL;
	*len = 0;
	if (!tabs)
		goto oom;
	for (f = 0; f < n; f++) {
		tabs[f] = lkst_ksym_table_from_log(logs[f], err);
		if (!tabs[f])
			goto out;
		nr += tabs[f]->nr;
		strsize += tabs[f]->strtab_size;
	}
	if (!nr) {
		ret = 0;
		goto out;
	}
	refs = malloc(nr * sizeof(*refs));
	b = malloc(LKST_KSYM_HEAD_SIZE + nr * sizeof(*ent) + strsize);
	if (!refs || !b)
		goto oom;
	for (f = 0, k = 0; f < n; f++) {
		for (i = 0; i < tabs[f]->nr; i++, k++) {
			refs[k].addr = tabs[f]->ent[i].addr;
			refs[k].size = tabs[f]->ent[i].size;
			refs[k].name = tabs[f]->ent[i].name;
			refs[k].file = f;
		}
	}
	qsort(refs, nr, sizeof(*refs), compare_refs);
	ent = (struct lkst_ksym_entry *)(b + LKST_KSYM_HEAD_SIZE);
	for (k = 0; k < nr; k++) {
		if (out && refs[k].addr == ent[out - 1].addr)
			continue;
		/* Entries must not overlap: a symbol ends where the next starts. */
		if (out && ent[out - 1].size &&
		    ent[out - 1].addr + ent[out - 1].size > refs[k].addr)
			ent[out - 1].size = refs[k].addr - ent[out - 1].addr;
		ent[out].addr = refs[k].addr;
		ent[out].size = refs[k].size;
		ent[out].name = soff;
		out++;
		/* Names are copied after the entries are known: note the source. */
		soff += strlen(tabs[refs[k].file]->strtab + refs[k].name) + 1;
	}
	/* The string table right after the entries kept, in the same order. */
	{
		unsigned char *str = b + LKST_KSYM_HEAD_SIZE + out * sizeof(*ent);
		size_t pos = 0;

		for (k = 0; k < nr; k++) {
			const char *name = tabs[refs[k].file]->strtab + refs[k].name;

			if (k && refs[k].addr == refs[k - 1].addr)
				continue;
			l = strlen(name) + 1;
			memcpy(str + pos, name, l);
			pos += l;
		}
	}
	head[0] = out;
	head[1] = soff;
	memcpy(b, head, sizeof(head));
	*len = LKST_KSYM_HEAD_SIZE + out * sizeof(*ent) + soff;
	*blob = b;
	b = NULL;
	ret = 0;
	goto out;
oom:
	lkst_seterr(err, "out of memory; free some memory");
out:
	for (f = 0; tabs && f < n; f++)
		lkst_ksym_table_free(tabs[f]);
	free(tabs);
	free(refs);
	free(b);
	return ret;
}

/*
 * The task names of every file, one table as a section (*blob NULL when
 * none has any): a pid's name is the first file's that has one, as it is
 * the first file's symbol.
 */
static int merge_tasks(const struct lkst_log *const *logs, unsigned int n, void **blob,
		       size_t *len, struct lkst_err *err)
{
	struct lkst_tasks all = { NULL, 0, 0 }, one = { NULL, 0, 0 };
	struct lkst_log_tasks head = { 0, 0 };
	unsigned char *b;
	unsigned int f;
	size_t i;

	*blob = NULL;
	*len = 0;
	for (f = 0; f < n; f++) {
		if (lkst_log_tasks(logs[f], &one, err))
			goto fail;
		for (i = 0; i < one.nr; i++)
			if (lkst_tasks_put(&all, one.ent[i].pid, one.ent[i].tgid,
					   one.ent[i].comm, 0, err)) {
				logio_tasks_clear(&one);
				goto fail;
			}
		logio_tasks_clear(&one);
	}
	if (!all.nr)
		return 0;
	head.nr = all.nr;
	*len = sizeof(head) + all.nr * sizeof(*all.ent);
	b = malloc(*len);
	if (!b) {
		lkst_seterr(err, "out of memory; free some memory");
		goto fail;
	}
	memcpy(b, &head, sizeof(head));
	memcpy(b + sizeof(head), all.ent, all.nr * sizeof(*all.ent));
	*blob = b;
	logio_tasks_clear(&all);
	return 0;
fail:
	logio_tasks_clear(&all);
	*len = 0;
	return -1;
}

/* One CPU's sections over the files, in file order. */
struct cpu_join {
	unsigned int cpu;
	struct lkst_log_cpu info;	/* the joined accounting */
	unsigned int nr;		/* files that have the CPU */
	const struct lkst_log_section **secs;
};

static int compare_cpus(const void *a, const void *b)
{
	const struct cpu_join *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/*
 * Accounts for each CPU: numbers from the first file's start to the last
 * one's end, records and losses summed, the gaps between files added to
 * the losses; the counters since boot are the last file's.
 */
static int join_cpu(struct cpu_join *c, const char *const *paths,
		    const unsigned int *file_of, struct lkst_err *err)
{
	const struct lkst_log_cpu *prev = NULL, *cur;
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		cur = &c->secs[i]->info;
		if (!prev) {
			c->info = *cur;
		} else {
			if (cur->seq_start < prev->seq_end) {
				lkst_seterr(err, "%s: cpu %u's numbers start at %llu, before the end (%llu) of the previous file's; the files overlap or are out of order",
					    paths[file_of[i]], c->cpu,
					    (unsigned long long)cur->seq_start,
					    (unsigned long long)prev->seq_end);
				return -1;
			}
			c->info.nr_records += cur->nr_records;
			c->info.lost += cur->lost + (cur->seq_start - prev->seq_end);
			c->info.seq_end = cur->seq_end;
			c->info.written = cur->written;
			c->info.overwritten = cur->overwritten;
			c->info.dropped = cur->dropped;
		}
		prev = cur;
	}
	return 0;
}

/* Which file of logs a section is of: whether its image is a mapping. */
static int mapped_of(const struct lkst_log *const *logs, unsigned int n,
		     const struct lkst_log_section *sec)
{
	unsigned int f;

	for (f = 0; f < n; f++)
		if (sec >= logs[f]->sections && sec < logs[f]->sections + logs[f]->nr_sections)
			return logs[f]->mapped;
	return 0;
}

/*
 * Copies a part of a file's image into the joined file, giving back the
 * mapped pages it has passed: a set is read a file at a time, and no more
 * than a chunk of it is held however big it is.
 */
static int copy_out(int fd, const void *src, size_t len, int mapped, struct lkst_err *err)
{
	const unsigned char *p = src;
	size_t k;

	while (len) {
		k = len < (4u << 20) ? len : (4u << 20);
		if (logio_write_tmp(fd, p, k, err))
			return -1;
		release_range(mapped, p, p + k);
		p += k;
		len -= k;
	}
	return 0;
}

int logio_join(const struct lkst_log *const *logs, const char *const *paths,
	       unsigned int n, struct lkst_log *log, struct lkst_err *err)
{
	struct cpu_join *cpus = NULL;
	unsigned int *file_of = NULL, nr_cpus = 0, f, s, c, i;
	struct lkst_log_header h;
	void *syms = NULL, *tasks = NULL;
	size_t syms_len = 0, tasks_len = 0, off;
	struct lkst_log_meta m;
	size_t total_secs = 0;
	int fd = -1, ret;
	char what[64];
	struct lkst_log_file_gap *gaps = NULL;
	unsigned int nr_gaps = 0, k;

	memset(log, 0, sizeof(*log));
	for (f = 1; f < n; f++)
		if (check_same(logs[0], paths[0], logs[f], paths[f], err))
			return -1;
	for (f = 0; f < n; f++)
		total_secs += logs[f]->nr_sections;
	cpus = calloc(total_secs ? total_secs : 1, sizeof(*cpus));
	file_of = calloc(total_secs ? total_secs : 1, sizeof(*file_of));
	if (!cpus || !file_of)
		goto oom;
	/* The CPUs of all files; each file has a CPU once at most. */
	for (f = 0; f < n; f++) {
		for (s = 0; s < logs[f]->nr_sections; s++) {
			unsigned int cpu = logs[f]->sections[s].info.cpu;

			for (c = 0; c < nr_cpus && cpus[c].cpu != cpu; c++)
				;
			if (c == nr_cpus) {
				cpus[c].cpu = cpu;
				cpus[c].secs = calloc(n, sizeof(*cpus[c].secs));
				if (!cpus[c].secs)
					goto oom;
				nr_cpus++;
			}
			if (cpus[c].nr && cpus[c].secs[cpus[c].nr - 1] >= logs[f]->sections &&
			    cpus[c].secs[cpus[c].nr - 1] < logs[f]->sections + logs[f]->nr_sections) {
				lkst_seterr(err, "%s has cpu %u twice; join only logs of one section per CPU",
					    paths[f], cpu);
				goto fail;
			}
			cpus[c].secs[cpus[c].nr++] = &logs[f]->sections[s];
		}
	}
	qsort(cpus, nr_cpus, sizeof(*cpus), compare_cpus);
	if (merge_symbols(logs, n, &syms, &syms_len, err) ||
	    merge_tasks(logs, n, &tasks, &tasks_len, err))
		goto fail;

	for (c = 0; c < nr_cpus; c++) {
		for (i = 0; i < cpus[c].nr; i++) {
			const struct lkst_log_section *sec = cpus[c].secs[i];

			/* Which file each section came from, for messages. */
			for (f = 0; f < n; f++)
				if (sec >= logs[f]->sections &&
				    sec < logs[f]->sections + logs[f]->nr_sections)
					file_of[i] = f;
		}
		if (join_cpu(&cpus[c], paths, file_of, err))
			goto fail;
	}
	fd = logio_tmpfile(paths[0], err);
	if (fd < 0)
		goto fail;

	h = logs[0]->header;
	h.nr_cpus = nr_cpus;
	off = h.version >= 3 ? sizeof(h) : LKST_LOG_HEADER_V2_SIZE;
	/* The header is written last, when the metadata's place is known. */
	if (lseek(fd, off, SEEK_SET) < 0) {
		lkst_seterr(err, "cannot seek in a temporary file: %s; set TMPDIR to a local directory",
			    strerror(errno));
		goto fail;
	}
	for (c = 0; c < nr_cpus; c++) {
		if (logio_write_tmp(fd, &cpus[c].info, sizeof(cpus[c].info), err))
			goto fail;
		off += sizeof(cpus[c].info);
		for (i = 0; i < cpus[c].nr; i++) {
			const struct lkst_log_section *sec = cpus[c].secs[i];
			size_t bytes = sec->info.nr_records * sizeof(struct lkst_record);

			if (copy_out(fd, sec->records, bytes, mapped_of(logs, n, sec), err))
				goto fail;
			off += bytes;
		}
		for (i = 0; i < cpus[c].nr; i++) {
			const struct lkst_log_section *sec = cpus[c].secs[i];
			size_t bytes = sec->info.nr_records * sizeof(__u64);

			if (copy_out(fd, sec->seqs, bytes, mapped_of(logs, n, sec), err))
				goto fail;
			off += bytes;
		}
	}
	if (h.version >= 3) {
		h.meta_offset = off;
		h.nr_meta = 0;
		/* The first file's sections, then the merged symbols and names. */
		for (i = 0; i < logs[0]->nr_meta + 2; i++) {
			int own = i < logs[0]->nr_meta;
			int merged_type = i == logs[0]->nr_meta ? LKST_META_SYMBOLS : LKST_META_TASKS;
			const void *data = own ? logs[0]->meta[i].data :
					   merged_type == LKST_META_SYMBOLS ? syms : tasks;
			size_t len = own ? logs[0]->meta[i].len :
				     merged_type == LKST_META_SYMBOLS ? syms_len : tasks_len;
			__u32 type = own ? logs[0]->meta[i].type : (__u32)merged_type;
			static const unsigned char zeros[8];

			if ((own && (type == LKST_META_SYMBOLS || type == LKST_META_TASKS)) ||
			    !data)
				continue;
			memset(&m, 0, sizeof(m));
			m.type = type;
			m.size = len;
			if (logio_write_tmp(fd, &m, sizeof(m), err) ||
			    logio_write_tmp(fd, data, len, err) ||
			    logio_write_tmp(fd, zeros, lkst_log_meta_bytes(len) - sizeof(m) - len, err))
				goto fail;
			off += lkst_log_meta_bytes(len);
			h.nr_meta++;
		}
		h.meta_size = off - h.meta_offset;
	}
	if (pwrite(fd, &h, h.version >= 3 ? sizeof(h) : LKST_LOG_HEADER_V2_SIZE, 0) !=
	    (ssize_t)(h.version >= 3 ? sizeof(h) : LKST_LOG_HEADER_V2_SIZE)) {
		lkst_seterr(err, "cannot write a temporary file: %s; set TMPDIR to a directory with room",
			    strerror(errno));
		goto fail;
	}
	/* Where the files' numbers do not meet, a file of the set is missing. */
	for (c = 0; c < nr_cpus; c++)
		for (i = 1; i < cpus[c].nr; i++)
			if (cpus[c].secs[i]->info.seq_start > cpus[c].secs[i - 1]->info.seq_end)
				nr_gaps++;
	if (nr_gaps && !(gaps = calloc(nr_gaps, sizeof(*gaps))))
		goto oom;
	for (c = 0, k = 0; c < nr_cpus; c++) {
		for (i = 1; i < cpus[c].nr; i++) {
			const struct lkst_log_cpu *a = &cpus[c].secs[i - 1]->info;
			const struct lkst_log_cpu *b = &cpus[c].secs[i]->info;

			if (b->seq_start <= a->seq_end)
				continue;
			gaps[k].cpu = cpus[c].cpu;
			gaps[k].first = a->seq_end;
			gaps[k].last = b->seq_start - 1;
			k++;
		}
	}
	snprintf(what, sizeof(what), " and the %u files after it, joined", n - 1);
	ret = logio_parse_tmp(fd, off, paths[0], what, log, err);
	fd = -1;
	if (ret)
		goto fail;
	log->file_gaps = gaps;
	log->nr_file_gaps = nr_gaps;
	gaps = NULL;
	free(syms);
	free(tasks);
	for (c = 0; c < total_secs; c++)
		free(cpus[c].secs);
	free(cpus);
	free(file_of);
	return 0;
oom:
	lkst_seterr(err, "out of memory joining %u log files; free some memory", n);
fail:
	free(gaps);
	if (fd >= 0)
		close(fd);
	free(syms);
	free(tasks);
	for (c = 0; cpus && c < total_secs; c++)
		free(cpus[c].secs);
	free(cpus);
	free(file_of);
	return -1;
}

int logio_load_files(const char *const *paths, unsigned int n, struct lkst_log *log,
		     struct lkst_err *err)
{
	struct lkst_log **logs;
	unsigned int f, loaded;
	int ret = -1;

	if (!n) {
		memset(log, 0, sizeof(*log));
		lkst_seterr(err, "no log file given");
		return -1;
	}
	if (n == 1)
		return logio_load(paths[0], log, err);
	logs = calloc(n, sizeof(*logs));
	if (!logs) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	for (loaded = 0; loaded < n; loaded++) {
		logs[loaded] = lkst_log_load(paths[loaded], err);
		if (!logs[loaded])
			goto out;
	}
	ret = logio_join((const struct lkst_log *const *)logs, paths, n, log, err);
out:
	for (f = 0; f < loaded; f++)
		lkst_log_free(logs[f]);
	free(logs);
	return ret;
}

/* lkst-NNNNNN.log or lkst-NNNNNN.log.zst, as lkbuf record names them. */
static int is_set_member(const char *name)
{
	size_t len = strlen(name);

	if (strncmp(name, "lkst-", 5))
		return 0;
	return (len > 9 && !strcmp(name + len - 4, ".log")) ||
		(len > 13 && !strcmp(name + len - 8, ".log.zst"));
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int logio_load_dir(const char *dir, struct lkst_log *log, struct lkst_err *err)
{
	char **paths = NULL, **bigger;
	unsigned int n = 0, cap = 0, i;
	struct dirent *e;
	DIR *d;
	int ret = -1;

	memset(log, 0, sizeof(*log));
	d = opendir(dir);
	if (!d) {
		lkst_seterr(err, "cannot open directory %s: %s; check the name", dir,
			    strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (!is_set_member(e->d_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			bigger = realloc(paths, cap * sizeof(*paths));
			if (!bigger)
				goto oom;
			paths = bigger;
		}
		if (asprintf(&paths[n], "%s/%s", dir, e->d_name) < 0)
			goto oom;
		n++;
	}
	if (!n) {
		lkst_seterr(err, "%s holds no lkst-*.log or lkst-*.log.zst files; give the directory lkbuf record -o wrote, or a log file",
			    dir);
		goto out;
	}
	/* lkbuf record's numbers are zero-padded: names sort in file order. */
	qsort(paths, n, sizeof(*paths), compare_names);
	ret = logio_load_files((const char *const *)paths, n, log, err);
	goto out;
oom:
	lkst_seterr(err, "out of memory; free some memory");
out:
	closedir(d);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return ret;
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Task names saved with a log (LKST_META_TASKS, lkst_log.h): the table
 * lkbuf read and lkbuf record fill from /proc, its section written and
 * strictly validated.  The reader names pids by it (lkst_reader.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst_logio.h"
#include "lkst_logio_int.h"

#define COMM_LEN	16		/* the kernel's TASK_COMM_LEN */

/* Index of pid's entry, or where it would go. */
static size_t tasks_index(const struct lkst_tasks *t, __u32 pid)
{
	size_t lo = 0, hi = t->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->ent[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct lkst_log_task *lkst_tasks_find(const struct lkst_tasks *t, __u32 pid)
{
	size_t i = tasks_index(t, pid);

	return i < t->nr && t->ent[i].pid == pid ? &t->ent[i] : NULL;
}

int lkst_tasks_put(struct lkst_tasks *t, __u32 pid, __u32 tgid, const char *comm,
		   int replace, struct lkst_err *err)
{
	size_t i = tasks_index(t, pid), len = strnlen(comm, COMM_LEN - 1);
	struct lkst_log_task *e;

	if (!pid || !len)
		return 0;
	if (i < t->nr && t->ent[i].pid == pid) {
		if (!replace)
			return 0;
		e = &t->ent[i];
	} else {
		if (t->nr >= LKST_LOG_TASKS_MAX)
			return 0;	/* bounded: later pids stay unnamed */
		if (t->nr == t->cap) {
			size_t cap = t->cap ? t->cap * 2 : 256;
			struct lkst_log_task *bigger = realloc(t->ent, cap * sizeof(*bigger));

			if (!bigger) {
				lkst_seterr(err, "out of memory for %zu task names; free some memory",
					    cap);
				return -1;
			}
			t->ent = bigger;
			t->cap = cap;
		}
		/* /proc lists pids in increasing order: mostly an append. */
		memmove(&t->ent[i + 1], &t->ent[i], (t->nr - i) * sizeof(*t->ent));
		t->nr++;
		e = &t->ent[i];
	}
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->tgid = tgid;
	memcpy(e->comm, comm, len);
	return 0;
}

void logio_tasks_clear(struct lkst_tasks *t)
{
	free(t->ent);
	memset(t, 0, sizeof(*t));
}

struct lkst_tasks *lkst_tasks_new(struct lkst_err *err)
{
	struct lkst_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		lkst_seterr(err, "out of memory; free some memory");
	return t;
}

void lkst_tasks_free(struct lkst_tasks *t)
{
	if (!t)
		return;
	logio_tasks_clear(t);
	free(t);
}

size_t lkst_tasks_nr(const struct lkst_tasks *t)
{
	return t->nr;
}

const struct lkst_log_task *lkst_tasks_get(const struct lkst_tasks *t, size_t i)
{
	return i < t->nr ? &t->ent[i] : NULL;
}

/* A small /proc file into buf (NUL-terminated); its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, size - 1)) < 0 && errno == EINTR)
		;
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* PROC/DIR/comm and, when tgid is 0, the Tgid in PROC/DIR/status. */
static int read_task(const char *proc, const char *dir, __u32 *tgid, char comm[COMM_LEN])
{
	char path[4096], buf[4096];
	const char *p;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/comm", proc, dir);
	n = read_small(path, buf, sizeof(buf));
	if (n <= 0)
		return 0;
	/* The kernel ends it with a newline; a name may hold one itself. */
	if (buf[n - 1] == '\n')
		buf[--n] = 0;
	memset(comm, 0, COMM_LEN);
	memcpy(comm, buf, n < COMM_LEN - 1 ? (size_t)n : COMM_LEN - 1);
	if (*tgid)
		return 1;
	snprintf(path, sizeof(path), "%s/%s/status", proc, dir);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "\nTgid:");
	if (!p)
		return 0;
	*tgid = strtoul(p + 6, NULL, 10);
	return 1;
}

int lkst_tasks_read_pid(struct lkst_tasks *t, const char *proc, __u32 pid,
			struct lkst_err *err)
{
	char dir[16], comm[COMM_LEN];
	__u32 tgid = 0;

	if (lkst_tasks_find(t, pid))
		return 1;
	snprintf(dir, sizeof(dir), "%u", pid);
	if (!read_task(proc, dir, &tgid, comm))
		return 0;
	if (lkst_tasks_put(t, pid, tgid, comm, 0, err))
		return -1;
	return 1;
}

/* A decimal directory name, as /proc names processes and threads. */
static int pid_name(const char *name, __u32 *pid)
{
	char *end;
	unsigned long v;

	if (*name < '1' || *name > '9')
		return 0;
	errno = 0;
	v = strtoul(name, &end, 10);
	if (*end || errno || !v || v > 0xffffffffu)
		return 0;
	*pid = v;
	return 1;
}

int lkst_tasks_scan(struct lkst_tasks *t, const char *proc, struct lkst_err *err)
{
	char path[4096], dir[64], comm[COMM_LEN];
	struct dirent *p, *th;
	__u32 tgid, tid;
	DIR *d, *td;
	int ret = 0;

	d = opendir(proc);
	if (!d) {
		lkst_seterr(err, "cannot read %s: %s", proc, strerror(errno));
		return -1;
	}
	while (!ret && (p = readdir(d))) {
		if (!pid_name(p->d_name, &tgid))
			continue;
		snprintf(path, sizeof(path), "%s/%s/task", proc, p->d_name);
		td = opendir(path);
		if (!td)
			continue;	/* exited meanwhile */
		while (!ret && (th = readdir(td))) {
			__u32 g = tgid;

			if (!pid_name(th->d_name, &tid))
				continue;
			snprintf(dir, sizeof(dir), "%u/task/%u", tgid, tid);
			if (read_task(proc, dir, &g, comm))
				ret = lkst_tasks_put(t, tid, tgid, comm, 0, err);
		}
		closedir(td);
	}
	closedir(d);
	return ret;
}

int lkst_tasks_load(const void *blob, size_t len, struct lkst_tasks *t,
		    struct lkst_err *err)
{
	const unsigned char *b = blob;
	struct lkst_log_tasks head;
	struct lkst_log_task e;
	__u32 prev = 0;
	size_t i, n;

	if (t)
		logio_tasks_clear(t);
	if (len < sizeof(head)) {
		lkst_seterr(err, "task names: a section of %zu bytes has no header; the file is damaged", len);
		return -1;
	}
	memcpy(&head, b, sizeof(head));
	n = head.nr;
	if (n > LKST_LOG_TASKS_MAX || len != sizeof(head) + n * sizeof(e)) {
		lkst_seterr(err, "task names: %zu entries do not fill the %zu-byte section (or are more than %u); the file is damaged",
			    n, len, LKST_LOG_TASKS_MAX);
		return -1;
	}
	if (t && n) {
		t->ent = malloc(n * sizeof(*t->ent));
		if (!t->ent) {
			lkst_seterr(err, "out of memory for %zu task names; free some memory", n);
			return -1;
		}
		t->cap = n;
	}
	for (i = 0; i < n; i++) {
		size_t l;

		memcpy(&e, b + sizeof(head) + i * sizeof(e), sizeof(e));
		l = strnlen(e.comm, sizeof(e.comm));
		if (!e.pid || e.pid <= prev || !l || l == sizeof(e.comm) ||
		    memcmp(e.comm + l, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", sizeof(e.comm) - l)) {
			lkst_seterr(err, "task names: entry %zu (pid %u) is %s; the file is damaged",
				    i, e.pid, !e.pid ? "pid 0" : e.pid <= prev ?
				    "out of order (pids must increase)" :
				    "not a NUL-padded name of 1 to 15 bytes");
			if (t)
				logio_tasks_clear(t);
			return -1;
		}
		prev = e.pid;
		if (t)
			t->ent[t->nr++] = e;
	}
	return 0;
}

int lkst_log_tasks(const struct lkst_log *log, struct lkst_tasks *t, struct lkst_err *err)
{
	size_t len = 0;
	const void *blob = lkst_log_meta(log, LKST_META_TASKS, &len);

	logio_tasks_clear(t);
	return blob ? lkst_tasks_load(blob, len, t, err) : 0;
}

int lkst_log_add_tasks(struct lkst_log_writer *w, const struct lkst_tasks *t,
		       struct lkst_err *err)
{
	struct lkst_log_tasks head = { 0, 0 };
	unsigned char *blob;
	size_t len;
	int ret;

	if (!t->nr)
		return 0;
	head.nr = t->nr;
	len = sizeof(head) + t->nr * sizeof(*t->ent);
	blob = malloc(len);
	if (!blob) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	memcpy(blob, &head, sizeof(head));
	memcpy(blob + sizeof(head), t->ent, t->nr * sizeof(*t->ent));
	ret = lkst_log_add_meta(w, LKST_META_TASKS, blob, len, err);
	free(blob);
	return ret;
}

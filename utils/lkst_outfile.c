// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where a writer's output goes (lkst_outfile.h): links followed, regular
 * files replaced by a rename, devices and FIFOs written through.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkst_outfile.h"

/* As many links as the kernel follows in one path (MAXSYMLINKS). */
#define MAX_LINKS	40

static const char *kind_name(mode_t mode)
{
	if (S_ISCHR(mode))
		return "character device";
	if (S_ISBLK(mode))
		return "block device";
	if (S_ISFIFO(mode))
		return "FIFO";
	if (S_ISSOCK(mode))
		return "socket";
	if (S_ISDIR(mode))
		return "directory";
	return "special file";
}

/*
 * path with the links of its last component followed, malloc'd: the name
 * to rename over, so that the link stays and its target is written.  A
 * dangling link gives its target, to be created, as a shell's > does.
 */
static char *follow_links(const char *path, struct lkst_err *err)
{
	char *cur = strdup(path), *next, *slash;
	char link[PATH_MAX];
	struct stat st;
	unsigned int hops;
	ssize_t len;

	for (hops = 0; cur; hops++) {
		if (lstat(cur, &st))
			return cur;		/* nothing there: created */
		if (!S_ISLNK(st.st_mode))
			return cur;
		if (hops == MAX_LINKS) {
			lkst_seterr(err, "%s: too many levels of symbolic links; give the file itself",
				    path);
			free(cur);
			return NULL;
		}
		len = readlink(cur, link, sizeof(link) - 1);
		if (len < 0) {
			lkst_seterr(err, "cannot read the link %s: %s; give the file itself",
				    cur, strerror(errno));
			free(cur);
			return NULL;
		}
		link[len] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash)
			next = strdup(link);
		else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, link) < 0)
			next = NULL;
		free(cur);
		cur = next;
	}
	lkst_seterr(err, "out of memory; free some memory");
	return NULL;
}

int outfile_resolve(struct outfile *o, const char *path, const char *what,
		    unsigned int flags, struct lkst_err *err)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	/* stat follows every link, /proc/self/fd/N's to a pipe too. */
	if (stat(path, &st)) {
		if (errno != ENOENT) {
			lkst_seterr(err, "cannot use %s: %s; check the path", path,
				    strerror(errno));
			return -1;
		}
		st.st_mode = S_IFREG;
	}
	if (S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode)) {
		lkst_seterr(err, "%s is a %s; give a file name for %s", path,
			    kind_name(st.st_mode), what);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		if (flags & OUTFILE_SEEKS) {
			lkst_seterr(err, "%s is a %s, and %s is written by seeking in a file; give a regular file's name",
				    path, kind_name(st.st_mode), what);
			return -1;
		}
		o->kind = OUTFILE_STREAM;
		if (!(o->path = strdup(path)))
			goto oom;
		return 0;
	}
	o->kind = OUTFILE_REPLACE;
	if (!(o->path = strdup(path)))
		goto oom;
	o->target = follow_links(path, err);
	if (!o->target) {
		outfile_free(o);
		return -1;
	}
	if (asprintf(&o->tmp, "%s.tmp", o->target) < 0) {
		o->tmp = NULL;
		goto oom;
	}
	return 0;
oom:
	outfile_free(o);
	lkst_seterr(err, "out of memory; free some memory");
	return -1;
}

int outfile_create_tmp(struct outfile *o, struct lkst_err *err)
{
	int fd;

	/* One left by a crash, or anything else by that name: never written through. */
	if (unlink(o->tmp) && errno != ENOENT) {
		lkst_seterr(err, "cannot remove %s: %s; remove it yourself", o->tmp,
			    strerror(errno));
		return -1;
	}
	fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		lkst_seterr(err, "cannot create %s: %s; check the directory and its permissions",
			    o->tmp, strerror(errno));
	return fd;
}

int outfile_open_stream(const struct outfile *o, struct lkst_err *err)
{
	int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		lkst_seterr(err, "cannot open %s for writing: %s; check its permissions",
			    o->path, strerror(errno));
	return fd;
}

int outfile_commit(struct outfile *o, struct lkst_err *err)
{
	struct stat st;

	/* Only a regular file the user named is replaced, never what took its place. */
	if (!lstat(o->target, &st) && !S_ISREG(st.st_mode)) {
		lkst_seterr(err, "%s became a %s while it was written; it is not replaced",
			    o->target, S_ISLNK(st.st_mode) ? "symbolic link" :
			    kind_name(st.st_mode));
		return -1;
	}
	if (rename(o->tmp, o->target)) {
		lkst_seterr(err, "cannot rename %s to %s: %s; check the directory",
			    o->tmp, o->target, strerror(errno));
		return -1;
	}
	return 0;
}

void outfile_discard(const struct outfile *o)
{
	if (o->kind == OUTFILE_REPLACE && o->tmp)
		unlink(o->tmp);
}

void outfile_free(struct outfile *o)
{
	free(o->path);
	free(o->target);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

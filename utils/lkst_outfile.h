/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where a writer's output goes (lkst_outfile.c): one rule for every
 * writer of an output file (the log writer behind read, record and
 * extract, the exporters of convert, lkbuf sql).  The library's inside,
 * not its surface: the outfile_* names lack the lkst_ prefix, so the
 * version script keeps them local.
 *
 * The rule is what a shell's > does, made atomic where it can be: a
 * symbolic link is followed (its target is written, the link stays); a
 * regular file, or nothing, is replaced whole by a temporary file renamed
 * over it; a character or block device or a FIFO is written through, in
 * order, or refused with a message when the format has to seek (SQLite).
 * Nothing but a regular file is ever renamed over.
 */
#ifndef LKST_OUTFILE_H
#define LKST_OUTFILE_H

#include "lkst_util.h"

enum outfile_kind {
	OUTFILE_REPLACE,	/* a regular file or nothing: tmp renamed over target */
	OUTFILE_STREAM,		/* a device or a FIFO: opened and written through */
};

/* outfile_resolve()'s flags. */
#define OUTFILE_SEEKS	1u	/* the format seeks in its file: refuse a stream */

struct outfile {
	enum outfile_kind kind;
	char *path;		/* as given */
	char *target;		/* REPLACE: the file to replace, links followed */
	char *tmp;		/* REPLACE: target.tmp */
};

/*
 * What path is, for writing what ("the SQLite database", in messages):
 * fills o (outfile_free() frees it).  0, or -1 with err set and o empty:
 * a directory, a socket, a link loop, a stream when flags has
 * OUTFILE_SEEKS.
 */
int outfile_resolve(struct outfile *o, const char *path, const char *what,
		    unsigned int flags, struct lkst_err *err);
/*
 * REPLACE: creates o->tmp anew, never through a link (an earlier one is
 * removed first), mode 0666 less the umask.  The descriptor, or -1 with err.
 */
int outfile_create_tmp(struct outfile *o, struct lkst_err *err);
/* STREAM: opens o->path for writing (a FIFO waits for its reader); fd or -1. */
int outfile_open_stream(const struct outfile *o, struct lkst_err *err);
/*
 * REPLACE: renames o->tmp over o->target, unless target has become
 * something other than a regular file meanwhile.  0, or -1 with err (tmp
 * stays: outfile_discard() removes it).
 */
int outfile_commit(struct outfile *o, struct lkst_err *err);
/* REPLACE: removes o->tmp, if there. */
void outfile_discard(const struct outfile *o);
void outfile_free(struct outfile *o);

#endif /* LKST_OUTFILE_H */

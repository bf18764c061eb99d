/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --where EXPR of lkbuf print, convert and report: lkm filter's expression
 * language (lkst_pred.h) applied to the records of a log.  The
 * expression is compiled per event, as lkm filter compiles it for the
 * kernel (arguments signed as that event's table says), and run by the
 * kernel's own evaluator, lkst_filter_eval() of lkst_filter.h, over fields
 * read from the record: argN its arguments, pid its pid, cpu the CPU that
 * recorded it, ctx its context, comm the name the log last gave its pid
 * (PROCESS_CONTEXTSWITCH and PROCESS_WAKEUP teach names; one not taught yet
 * reads as ""), so a record passes exactly when lkst_filter would have
 * handed its event on.  tgid and cgroup are not in a log: refused.
 */
#ifndef LKST_WHERE_H
#define LKST_WHERE_H

#include <linux/lkst_record.h>

#include "lkst_util.h"

/* The reader's helpers: not exported by liblkst.so. */
#ifndef LKST_HIDDEN
#define LKST_HIDDEN __attribute__((visibility("hidden")))
#endif

struct lkst_where;

/*
 * Compiles @text for every event of the table in use (lkst_event_by_id):
 * a new predicate, or NULL with @err set ("--where: ... at offset N").
 */
LKST_HIDDEN struct lkst_where *lkst_where_new(const char *text, struct lkst_err *err);
LKST_HIDDEN void lkst_where_free(struct lkst_where *w);
/* Whether it reads comm, so that its reader must learn names. */
LKST_HIDDEN int lkst_where_needs_comm(const struct lkst_where *w);
/*
 * Whether @rec, recorded by @cpu, passes; @comm is the escaped name of its
 * pid as lkst_comm_map_name() gives it, or NULL when not known.
 */
LKST_HIDDEN int lkst_where_match(const struct lkst_where *w, const struct lkst_record *rec,
				 unsigned int cpu, const char *comm);
/* The 16 bytes of current->comm an escaped name stands for (NUL padded). */
LKST_HIDDEN void lkst_where_comm_bytes(const char *escaped, unsigned char bytes[16]);

#endif /* LKST_WHERE_H */

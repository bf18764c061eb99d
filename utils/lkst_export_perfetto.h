/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkbuf convert --to perfetto (lkst_export_perfetto.c): Perfetto's native
 * protobuf trace.  Built into lkbuf, not liblkst: it needs libprotobuf-c.
 */
#ifndef LKST_EXPORT_PERFETTO_H
#define LKST_EXPORT_PERFETTO_H

#include "lkst_export.h"

/* To path ("-": standard output); 0, or -1 with err set (then it is incomplete). */
int lkst_export_perfetto(struct lkst_export *x, const char *path, struct lkst_err *err);

#endif /* LKST_EXPORT_PERFETTO_H */

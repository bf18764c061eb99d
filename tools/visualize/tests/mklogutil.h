/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test log makers (mklog.c, mkpagelog.c): record builders
 * and the two-CPU writer.
 */
#ifndef LKST_VIZ_MKLOGUTIL_H
#define LKST_VIZ_MKLOGUTIL_H

#include <stddef.h>

#include "lkst_cli.h"
#include "lkst_logio.h"

#define NR(a)	(sizeof(a) / sizeof((a)[0]))
#define T(ms)	(1000000000ull + (ms) * 1000000ull)	/* 1 s + ms */

/* The comm as the hooks store it: 16 bytes in arg5 and arg6. */
void set_comm(struct lkst_record *r, const char *comm);

/* PROCESS_CONTEXTSWITCH from prev (in state) to next, named comm. */
struct lkst_record sw(unsigned long long t, unsigned int prev,
		      unsigned int next, unsigned long long state,
		      const char *comm);

/*
 * main() of a log maker: writes argv[1] with CPU 1's section first, as
 * lkbuf may do.  Dies on a usage or write error.
 */
int write_two_cpus(const char *progname, int argc, char **argv,
		   struct lkst_record *cpu0, size_t n0,
		   struct lkst_record *cpu1, size_t n1);

#endif /* LKST_VIZ_MKLOGUTIL_H */

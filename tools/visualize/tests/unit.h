/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks of the unit tests (test_procstate.c, test_pagemap.c): each counts
 * as passed or failed; unit_report() prints the "N passed, M failed" line
 * the run_*tests.sh scripts read and gives main()'s exit status.
 */
#ifndef LKST_VIZ_UNIT_H
#define LKST_VIZ_UNIT_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		passed++;						\
	} else {							\
		failed++;						\
		printf("FAIL %s:%d: ", __func__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

#define CHECK_EQ(got, want, what)					\
	CHECK((unsigned long long)(got) == (unsigned long long)(want),	\
	      "%s: got %llu, want %llu", what,				\
	      (unsigned long long)(got), (unsigned long long)(want))

static inline int unit_report(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

#endif /* LKST_VIZ_UNIT_H */

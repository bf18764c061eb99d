/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal check runner for the host unit tests: every CHECK counts, a
 * failure prints where and why, check_report() prints "N passed, M failed".
 */
#ifndef LKST_CHECK_H
#define LKST_CHECK_H

#include <stdio.h>
#include <string.h>

static int checks_passed, checks_failed;

#define CHECK(cond) check_bool(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), __FILE__, __LINE__)
#define CHECK_HAS(got, part) check_has((got), (part), __FILE__, __LINE__)

static inline void check_bool(int ok, const char *what, const char *file, int line)
{
	if (ok) {
		checks_passed++;
		return;
	}
	checks_failed++;
	fprintf(stderr, "%s:%d: FAIL: %s\n", file, line, what);
}

static inline void check_str(const char *got, const char *want, const char *file,
			     int line)
{
	if (got && !strcmp(got, want)) {
		checks_passed++;
		return;
	}
	checks_failed++;
	fprintf(stderr, "%s:%d: FAIL:\n  got:  \"%s\"\n  want: \"%s\"\n", file, line,
		got ? got : "(null)", want);
}

static inline void check_has(const char *got, const char *part, const char *file,
			     int line)
{
	if (got && strstr(got, part)) {
		checks_passed++;
		return;
	}
	checks_failed++;
	fprintf(stderr, "%s:%d: FAIL: \"%s\" does not contain \"%s\"\n", file, line,
		got ? got : "(null)", part);
}

static inline int check_report(void)
{
	printf("%d passed, %d failed\n", checks_passed, checks_failed);
	return checks_failed != 0;
}

#endif /* LKST_CHECK_H */

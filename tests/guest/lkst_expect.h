/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the guest programs that check /dev/lkst's answers one request at a
 * time: one "ok"/"FAIL" line per request, failures counted.
 */
#ifndef LKST_EXPECT_H
#define LKST_EXPECT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int failures;

/* @ret of a request wanted to fail with @want_errno, or succeed if 0. */
static void expect(const char *what, int ret, int want_errno)
{
	int got = ret < 0 ? errno : 0;

	if (got == want_errno) {
		printf("ok   %s -> %s\n", what, want_errno ? strerror(got) : "0");
	} else {
		printf("FAIL %s -> %s, wanted %s\n", what,
		       got ? strerror(got) : "success",
		       want_errno ? strerror(want_errno) : "success");
		failures++;
	}
}

#endif

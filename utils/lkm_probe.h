/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkm probe: dynamic probes, events fired by a kprobe or a kretprobe made
 * at run time (LKST_IOC_PROBE_ADD / PROBE_DEL).  The fetch arguments are
 * written as kprobe_events writes them and parsed here into struct
 * lkst_fetch; the kernel only checks the binary form.
 */
#ifndef LKM_PROBE_H
#define LKM_PROBE_H

#include <stdbool.h>
#include "lkst_cli.h"

/*
 * One fetch argument, "[NAME=]FETCH[:TYPE]" with FETCH one of %REG, $argN,
 * $retval, $comm or +OFF(FETCH) (at most LKST_PROBE_MAX_DEREF deep), and
 * TYPE one of u8..u64, s8..s64, x8..x64, symbol, errno, pid, uaddr.  Fills
 * fetch[0] (and fetch[1] for $comm, which takes two slots) and returns the
 * number of slots, or -1 with err pointing at the bad part.  @room is the
 * number of slots left.
 */
int lkm_probe_parse_fetch(const char *text, bool is_return,
			  struct lkst_fetch *fetch, unsigned int room,
			  struct lkst_err *err);

/*
 * The whole request: NAME, FUNCTION[+OFF] and the fetch arguments.  0, or
 * -1 with err.
 */
int lkm_probe_parse(const char *name, const char *function,
		    const char *const *fetch_args, bool is_return,
		    struct lkst_probe *req, struct lkst_err *err);

#endif /* LKM_PROBE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process events for lkst-procstate (and process names for lkst-pagemap):
 * the kind of event (evarray.h) that the input reader makes of
 * PROCESS_CONTEXTSWITCH and PROCESS_WAKEUP records of a log file or rows
 * of any CSV variant of `lkbuf print -C`; viz_walk() hands on each as a
 * const struct ps_event *.
 */
#ifndef LKST_PROCSTATE_INPUT_H
#define LKST_PROCSTATE_INPUT_H

#include "evarray.h"
#include "procstate.h"

extern const struct viz_kind ps_kind;

#endif /* LKST_PROCSTATE_INPUT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory events for lkst-pagemap: the kind of event (evarray.h) the input
 * reader makes of MEM_PAGE_ALLOC, MEM_PAGE_FREE and MEM_PAGE_SNAPSHOT
 * records of a log file or rows of any CSV of `lkbuf print -C`; viz_walk()
 * hands on each as a const struct pm_event *.
 */
#ifndef LKST_PAGEINPUT_H
#define LKST_PAGEINPUT_H

#include "evarray.h"
#include "pagemap.h"

extern const struct viz_kind pm_kind;

#endif /* LKST_PAGEINPUT_H */

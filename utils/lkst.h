/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblkst: lkst trace logs for programs.  Link with
 * `pkg-config --cflags --libs liblkst` (liblkst.so.0; liblkst.a for a
 * self-contained program, as lkm and lkbuf are).
 *
 * The stable surface, the headers below and nothing else; the shared
 * library exports exactly their lkst_* functions and variables, at symbol
 * version LKST_0, the trace reader's (lkst_trace_*) at LKST_1 (liblkst.map):
 *
 *   lkst_util.h        errors (struct lkst_err), the active event table,
 *                      parsing numbers, events, categories and handlers
 *   lkst_log.h         the log file format (with <linux/lkst_*.h>)
 *   lkst_logio.h       writing and reading logs (a regular file is mapped,
 *                      never copied whole), the time-ordered merge of all
 *                      CPUs' records (lkst_log_merge: a heap), the gaps
 *                      in a CPU's sequence numbers (lkst_log_next_gap);
 *                      the trace reader every tool reads logs with
 *                      (lkst_trace: an opened log with its event table
 *                      and symbols, record selection by events, pids,
 *                      commands, time window and CPUs, iterators over
 *                      its records merged in time order)
 *   lkst_format.h      argument decoding and typed fields, text and CSV
 *                      formatters, command names of pids, record selection
 *                      (events, pids, commands, time windows), masksets
 *   lkst_ksym.h        kernel symbols: saved with a log, read from
 *                      /proc/kallsyms (lkst_ksym_*)
 *   lkst_export.h      CTF 1.8 and Chrome trace JSON exporters
 *   lkst_drain.h       ordering what LKST_IOC_BUFFER_DRAIN returned
 *   lkst_vmcore.h      lkst's buffers out of a kdump vmcore
 *   lkst_pred.h        predicates compiled for the lkst_filter handler
 *                      (lkst_filter.h), as lkm filter and --where take them
 *   lkst_sysnames.h    system call and errno names, flags of a few
 *                      system call arguments (from the kernel's tables)
 *
 *   lkst_logboot.h     the boot a log was recorded in (LKST_META_BOOT)
 *
 * The library never exits, never touches /dev/lkst and prints nothing:
 * every failure is a return value with a one-line message in a struct
 * lkst_err; progress and warnings go to the message handler the calling
 * thread installed (lkst_set_msg_handler(), lkst_util.h), nowhere without
 * one.  (The tools' exiting half, lkst_cli.h, is not part of it.)  A
 * mapped log cut short while it is read raises SIGBUS;
 * lkst_log_set_map_hooks() lets a program catch it.
 *
 * Threads: everything works on what the caller passes (a trace handle,
 * struct lkst_outbuf, lkst_format_opts, lkst_log, ...) or on per-thread
 * state: the active event table that names and decodes records
 * (lkst_events, lkst_nr_events; lkst_events_use(), lkst_log_use_events())
 * with what is derived from it (an index by ID, the formatters' per-event
 * cache), and the message handler.  A trace handle owns its log's event
 * table and makes it the active one of the thread that calls it, so two
 * threads, each with its own handles, work at once; one handle is used by
 * one thread at a time.  Process-wide, set once before threads start: the
 * log map hooks.
 *
 * License: LGPL-2.1-or-later (LICENSES/ at the top of the tree); the
 * uapi headers it includes are GPL-2.0 WITH Linux-syscall-note; the
 * kernel buffer code lkst_vmcore builds in is GPL-2.0 (LICENSES/README).
 * docs/library.md is the guide; man3 pages document each function.
 */
#ifndef LKST_H
#define LKST_H

#include "lkst_util.h"
#include "lkst_log.h"
#include "lkst_logio.h"
#include "lkst_format.h"
#include "lkst_ksym.h"
#include "lkst_export.h"
#include "lkst_drain.h"
#include "lkst_vmcore.h"
#include "lkst_pred.h"
#include "lkst_sysnames.h"
#include "lkst_logboot.h"

#endif /* LKST_H */

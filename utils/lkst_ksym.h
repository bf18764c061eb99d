/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel symbols saved with a log (LKST_META_SYMBOLS), so that the stack
 * records (STACK_KERNEL, and any KSYM argument) print symbolized on any
 * machine, after a reboot or with another kernel.
 *
 * When lkbuf read or lkbuf record saves a log, the KSYM arguments of the
 * records it saved are collected; the text symbols of /proc/kallsyms that
 * cover them (t, T, w, W; module symbols too) are saved, only those, and
 * only when there is at least one such argument.  /proc/kallsyms showing
 * zero addresses (kptr_restrict, not root) saves nothing, with a warning.
 * The previous boot's trace (read --previous-boot) gets none: its modules
 * were not where this boot's are.
 *
 * The section's layout, native byte order like the rest of the log:
 *
 *   __u32 nr                  entries, at least 1
 *   __u32 strtab_size         bytes of the string table
 *   struct lkst_ksym_entry[nr] sorted by addr, strictly increasing
 *   char strtab[strtab_size]  NUL-terminated names, the last byte a NUL
 *
 * and nothing else: the section is exactly 8 + 16 * nr + strtab_size
 * bytes.  An entry's size is the distance from its address to the next
 * symbol's in /proc/kallsyms (any type), 0 when unknown (the last one, or
 * 4 GiB or more); entries do not overlap (addr + size <= next addr).  A
 * name is the symbol's ("vfs_read"), or for a module's symbol the symbol,
 * one space and the module in brackets ("lkst_stack_handle [lkst_stack]"):
 * printable ASCII, never empty.  A section that breaks any of this is
 * refused whole.
 */
#ifndef LKST_KSYM_H
#define LKST_KSYM_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/lkst_record.h>

#include "lkst_util.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lkst_log;
struct lkst_log_writer;

struct lkst_ksym_entry {
	__u64 addr;
	__u32 size;			/* 0: unknown */
	__u32 name;			/* offset in the string table */
};

#define LKST_KSYM_HEAD_SIZE	8

/* A loaded (validated) table; owns its copies.  Opaque. */
struct lkst_ksym_table;

/* ---- /proc/kallsyms ---------------------------------------------------- */

struct lkst_ksym {
	__u64 addr;
	__u64 size;			/* to the next symbol; 0: unknown */
	char *name;			/* "name" or "name [module]" */
};

/* The text symbols of a kallsyms file, sorted by address.  Opaque. */
struct lkst_ksym_kallsyms;

/*
 * Parses kallsyms text ("ADDR TYPE NAME[\t[MODULE]]" lines) into a new
 * table; NULL with err set for a malformed line (named) or no memory.
 */
struct lkst_ksym_kallsyms *lkst_ksym_kallsyms_read(FILE *in, struct lkst_err *err);
/* Frees ks (NULL: nothing). */
void lkst_ksym_kallsyms_free(struct lkst_ksym_kallsyms *ks);
/* How many text symbols ks holds (0 when restricted). */
size_t lkst_ksym_kallsyms_nr(const struct lkst_ksym_kallsyms *ks);
/* Symbol i of ks, by address (i < lkst_ksym_kallsyms_nr()). */
const struct lkst_ksym *lkst_ksym_kallsyms_get(const struct lkst_ksym_kallsyms *ks, size_t i);
/* Whether every address read as 0 (kptr_restrict): then it holds none. */
int lkst_ksym_kallsyms_restricted(const struct lkst_ksym_kallsyms *ks);
/* The text symbol covering addr, or NULL. */
const struct lkst_ksym *lkst_ksym_kallsyms_find(const struct lkst_ksym_kallsyms *ks, __u64 addr);

/* ---- Addresses to symbolize --------------------------------------------- */

/*
 * The KSYM addresses of the records a log saves.  Opaque:
 * lkst_ksym_set_new(), the adders, lkst_ksym_save() (which empties it),
 * lkst_ksym_set_free().
 */
struct lkst_ksym_set;

/* An empty set; NULL with err set when out of memory. */
struct lkst_ksym_set *lkst_ksym_set_new(struct lkst_err *err);
/*
 * Adds the KSYM arguments (of the active event table) of n records; 0, or
 * -1 when out of memory.
 */
int lkst_ksym_set_add_records(struct lkst_ksym_set *s,
			      const struct lkst_record *recs, size_t n);
int lkst_ksym_set_add(struct lkst_ksym_set *s, __u64 addr);
/* Addresses added since it was last emptied (duplicates counted). */
size_t lkst_ksym_set_nr(const struct lkst_ksym_set *s);
/* Frees s (NULL: nothing). */
void lkst_ksym_set_free(struct lkst_ksym_set *s);

/* ---- The section -------------------------------------------------------- */

/*
 * The section for the addresses of s (sorted and deduplicated in place):
 * *blob malloc'd, or NULL with *len 0 when no symbol covers any.  0, or -1
 * with err set.
 */
int lkst_ksym_build(const struct lkst_ksym_kallsyms *ks, struct lkst_ksym_set *s,
		       void **blob, size_t *len, struct lkst_err *err);

/*
 * Validates a section strictly (see the layout above) and copies it into
 * a new table; NULL with err saying what is wrong.
 */
struct lkst_ksym_table *lkst_ksym_table_load(const void *blob, size_t len, struct lkst_err *err);
/* Frees st (NULL: nothing). */
void lkst_ksym_table_free(struct lkst_ksym_table *st);
/* How many symbols st holds. */
size_t lkst_ksym_table_nr(const struct lkst_ksym_table *st);
/* The entry covering addr (size 0: addr itself only), or NULL. */
const struct lkst_ksym_entry *lkst_ksym_table_find(const struct lkst_ksym_table *st, __u64 addr);
/* The name of st's entry e ("name [module]" for a module's symbol). */
const char *lkst_ksym_table_name(const struct lkst_ksym_table *st, const struct lkst_ksym_entry *e);
/*
 * "name+0xOFF/0xSIZE" ("name+0xOFF" for an unknown size), a module's
 * symbol followed by " [module]"; 1, or 0 with buf "" when addr has none.
 */
int lkst_ksym_table_format(const struct lkst_ksym_table *st, __u64 addr, char *buf, size_t len);

/* ---- lkbuf ---------------------------------------------------------------- */

/*
 * Adds the symbols of s's addresses, read from kallsyms_path, to the log
 * being written, and empties s (whatever the outcome).  Nothing when s is
 * empty; a warning to the message handler (once per set, however often it
 * is emptied) and nothing when the addresses are hidden.  0, or -1 with
 * err set (kallsyms unreadable or malformed, no memory).
 */
int lkst_ksym_save(struct lkst_log_writer *w, struct lkst_ksym_set *s,
		      const char *kallsyms_path, struct lkst_err *err);

/*
 * A log's symbols: a new table, empty when the log has none; NULL with
 * err set.
 */
struct lkst_ksym_table *lkst_ksym_table_from_log(const struct lkst_log *log, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_KSYM_H */

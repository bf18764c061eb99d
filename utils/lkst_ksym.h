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

/**
 * lkst_ksym_kallsyms_read(), lkst_ksym_kallsyms_free() - read /proc/kallsyms
 * @in: a stream of kallsyms text: "ADDR TYPE NAME[\t[MODULE]]" lines
 * @err: the message, when it fails
 * @ks: a table; lkst_ksym_kallsyms_free() of NULL does nothing
 *
 * Keeps the text symbols (types t, T, w, W; module symbols too) sorted by
 * address, each with its size (the distance to the next symbol of any
 * type, 0 when unknown) and its name ("name" or "name [module]").  Text
 * whose addresses all read 0 (kptr_restrict, not root) gives a table
 * without symbols (lkst_ksym_kallsyms_restricted()).
 *
 * Return: lkst_ksym_kallsyms_read(): a new table, to free with
 * lkst_ksym_kallsyms_free(); NULL with @err set for a malformed line
 * (named) or when out of memory.
 */
struct lkst_ksym_kallsyms *lkst_ksym_kallsyms_read(FILE *in, struct lkst_err *err);
void lkst_ksym_kallsyms_free(struct lkst_ksym_kallsyms *ks);
/**
 * lkst_ksym_kallsyms_nr(), lkst_ksym_kallsyms_get(), lkst_ksym_kallsyms_restricted(), lkst_ksym_kallsyms_find() - the symbols read from kallsyms
 * @ks: a table (lkst_ksym_kallsyms_read())
 * @i: a symbol's index in address order, below lkst_ksym_kallsyms_nr()
 * @addr: a kernel address
 *
 * Return: lkst_ksym_kallsyms_nr(): how many text symbols @ks holds (0
 * when restricted).  lkst_ksym_kallsyms_get(): symbol @i (not checked:
 * @i must be in range).  lkst_ksym_kallsyms_restricted(): 1 when every
 * address read as 0 (kptr_restrict), so that it holds none; else 0.
 * lkst_ksym_kallsyms_find(): the text symbol covering @addr, or NULL.
 * Symbols are valid until lkst_ksym_kallsyms_free().
 */
size_t lkst_ksym_kallsyms_nr(const struct lkst_ksym_kallsyms *ks);
const struct lkst_ksym *lkst_ksym_kallsyms_get(const struct lkst_ksym_kallsyms *ks, size_t i);
int lkst_ksym_kallsyms_restricted(const struct lkst_ksym_kallsyms *ks);
const struct lkst_ksym *lkst_ksym_kallsyms_find(const struct lkst_ksym_kallsyms *ks, __u64 addr);

/* ---- Addresses to symbolize --------------------------------------------- */

/*
 * The KSYM addresses of the records a log saves.  Opaque:
 * lkst_ksym_set_new(), the adders, lkst_ksym_save() (which empties it),
 * lkst_ksym_set_free().
 */
struct lkst_ksym_set;

/**
 * lkst_ksym_set_new() - a set of addresses to symbolize
 * @err: the message, when it fails
 *
 * Return: lkst_ksym_set_new(): an empty set, to free with
 * lkst_ksym_set_free(); NULL with @err set when out of memory.
 */
struct lkst_ksym_set *lkst_ksym_set_new(struct lkst_err *err);
/**
 * lkst_ksym_set_add_records(), lkst_ksym_set_add() - add addresses to a set
 * @s: the set
 * @recs: @n records, of the active event table
 * @n: how many
 * @addr: a kernel address
 *
 * lkst_ksym_set_add_records() adds each KSYM argument of the records that
 * is not 0 (the active table says which arguments are);
 * lkst_ksym_set_add() adds @addr.  Duplicates are kept until the set is
 * built (lkst_ksym_build()).
 *
 * Return: 0, or -1 when out of memory (the addresses before kept).
 * Errors: %ENOMEM from realloc(3).
 */
int lkst_ksym_set_add_records(struct lkst_ksym_set *s,
			      const struct lkst_record *recs, size_t n);
int lkst_ksym_set_add(struct lkst_ksym_set *s, __u64 addr);
/**
 * lkst_ksym_set_nr() - how many addresses a set holds
 * @s: the set
 *
 * Return: the addresses added since it was last emptied, duplicates
 * counted.
 */
size_t lkst_ksym_set_nr(const struct lkst_ksym_set *s);
/**
 * lkst_ksym_set_free() - free a set of addresses
 * @s: the set; NULL does nothing
 */
void lkst_ksym_set_free(struct lkst_ksym_set *s);

/* ---- The section -------------------------------------------------------- */

/**
 * lkst_ksym_build() - the symbols section for a set of addresses
 * @ks: the kernel's symbols (lkst_ksym_kallsyms_read())
 * @s: the addresses, sorted and deduplicated in place
 * @blob: set to the section (%LKST_META_SYMBOLS), from malloc(3), the
 *        caller's to free; NULL when no symbol covers any address
 * @len: set to its length (0 with no section)
 * @err: the message, when it fails
 *
 * Keeps only the symbols that cover an address of @s, in the layout
 * described at the top of lkst_ksym.h.
 *
 * Return: 0, or -1 with @err set when out of memory.
 */
int lkst_ksym_build(const struct lkst_ksym_kallsyms *ks, struct lkst_ksym_set *s,
		       void **blob, size_t *len, struct lkst_err *err);

/**
 * lkst_ksym_table_load(), lkst_ksym_table_free() - load a symbols section
 * @blob: an %LKST_META_SYMBOLS section's data
 * @len: its length in bytes
 * @err: the message, when it fails
 * @st: a table; lkst_ksym_table_free() of NULL does nothing
 *
 * Validates the section strictly (the layout at the top of lkst_ksym.h:
 * sizes, entries sorted and not overlapping, names printable and
 * terminated) and copies it: the table does not point into @blob.
 *
 * Return: lkst_ksym_table_load(): a new table, to free with
 * lkst_ksym_table_free(); NULL with @err saying what is wrong (or out of
 * memory).
 */
struct lkst_ksym_table *lkst_ksym_table_load(const void *blob, size_t len, struct lkst_err *err);
void lkst_ksym_table_free(struct lkst_ksym_table *st);
/**
 * lkst_ksym_table_nr(), lkst_ksym_table_find(), lkst_ksym_table_name() - look up saved symbols
 * @st: a table (lkst_ksym_table_load(), lkst_ksym_table_from_log())
 * @addr: a kernel address
 * @e: an entry of @st
 *
 * Return: lkst_ksym_table_nr(): how many symbols @st holds.
 * lkst_ksym_table_find(): the entry covering @addr (an entry of unknown
 * size covers its own address only), or NULL.  lkst_ksym_table_name():
 * @e's name, "name [module]" for a module's symbol ("" for an offset
 * past the string table).  Both valid until lkst_ksym_table_free().
 */
size_t lkst_ksym_table_nr(const struct lkst_ksym_table *st);
const struct lkst_ksym_entry *lkst_ksym_table_find(const struct lkst_ksym_table *st, __u64 addr);
const char *lkst_ksym_table_name(const struct lkst_ksym_table *st, const struct lkst_ksym_entry *e);
/**
 * lkst_ksym_table_format() - an address as symbol and offset
 * @st: a table, or NULL (no symbol)
 * @addr: a kernel address
 * @buf: where the text goes, always terminated (cut short to fit)
 * @len: the size of @buf in bytes
 *
 * Writes "name+0xOFF/0xSIZE" ("name+0xOFF" for an unknown size), a
 * module's symbol followed by " [module]", as lkbuf print shows a KSYM
 * argument.
 *
 * Return: 1, or 0 with @buf "" when no symbol covers @addr.
 */
int lkst_ksym_table_format(const struct lkst_ksym_table *st, __u64 addr, char *buf, size_t len);

/* ---- lkbuf ---------------------------------------------------------------- */

/**
 * lkst_ksym_save() - save the symbols of a set's addresses with a log
 * @w: the log being written (lkst_log_create())
 * @s: the addresses, emptied whatever the outcome
 * @kallsyms_path: the kernel's symbols, "/proc/kallsyms"
 * @err: the message, when it fails
 *
 * Reads @kallsyms_path and adds the symbols covering @s's addresses as
 * the log's %LKST_META_SYMBOLS section (lkst_ksym_build()).  Nothing when
 * @s is empty or no symbol covers an address; when the addresses are
 * hidden (kptr_restrict), nothing but a warning to the message handler,
 * once per set however often it is emptied.
 *
 * Return: 0, or -1 with @err set: @kallsyms_path unreadable or malformed,
 * or out of memory.
 */
int lkst_ksym_save(struct lkst_log_writer *w, struct lkst_ksym_set *s,
		      const char *kallsyms_path, struct lkst_err *err);

/**
 * lkst_ksym_table_from_log() - the kernel symbols saved with a log
 * @log: a loaded log
 * @err: the message, when it fails
 *
 * Loads the log's %LKST_META_SYMBOLS section (lkst_ksym_table_load()).
 *
 * Return: a new table, empty when the log has none, to free with
 * lkst_ksym_table_free(); NULL with @err set (a bad section, or out of
 * memory).
 */
struct lkst_ksym_table *lkst_ksym_table_from_log(const struct lkst_log *log, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_KSYM_H */

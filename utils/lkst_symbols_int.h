/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct lkst_symtab, which programs see only as a handle
 * (lkst_symbols.h): for the library's own readers of its entries
 * (lkst_symbols.c, the rotated set's merge in lkst_logset.c).  Not
 * installed.
 */
#ifndef LKST_SYMBOLS_INT_H
#define LKST_SYMBOLS_INT_H

#include "lkst_symbols.h"

struct lkst_symtab {
	size_t nr;
	struct lkst_sym_entry *ent;	/* by address, none overlapping */
	char *strtab;
	size_t strtab_size;
};

#endif /* LKST_SYMBOLS_INT_H */

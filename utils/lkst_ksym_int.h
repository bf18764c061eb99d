/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct lkst_ksym_table, which programs see only as a handle
 * (lkst_ksym.h): for the library's own readers of its entries
 * (lkst_ksym.c, the rotated set's merge in lkst_logset.c).  Not
 * installed.
 */
#ifndef LKST_KSYM_INT_H
#define LKST_KSYM_INT_H

#include "lkst_ksym.h"

struct lkst_ksym_table {
	size_t nr;
	struct lkst_ksym_entry *ent;	/* by address, none overlapping */
	char *strtab;
	size_t strtab_size;
};

#endif /* LKST_KSYM_INT_H */

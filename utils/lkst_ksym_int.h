/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct lkst_ksym_table, struct lkst_ksym_kallsyms and struct
 * lkst_ksym_set, which programs see only as handles (lkst_ksym.h): for
 * the library's own readers of their fields (lkst_ksym.c, the rotated
 * set's merge in lkst_logset.c).  Not installed.
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

struct lkst_ksym_kallsyms {
	size_t nr;
	struct lkst_ksym *sym;
	int restricted;			/* every address read as 0 */
};

struct lkst_ksym_set {
	__u64 *addr;
	size_t nr, cap;
	int warned;			/* told of a restricted kallsyms once */
};

#endif /* LKST_KSYM_INT_H */

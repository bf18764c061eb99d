/* SPDX-License-Identifier: GPL-2.0 */
/* lkm verbs kept out of lkm.c: lkst_filter's predicates. */
#ifndef LKM_FILTER_H
#define LKM_FILTER_H

/* lkm filter -m ID EVENT 'EXPR' [--to HANDLER] | --list | --clear [EVENT] */
int lkm_verb_filter(int argc, const char **argv);

#endif /* LKM_FILTER_H */

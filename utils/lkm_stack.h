/* SPDX-License-Identifier: GPL-2.0 */
/* lkm verbs kept out of lkm.c: lkst_stack's configuration. */
#ifndef LKM_STACK_H
#define LKM_STACK_H

/*
 * lkm stack [--depth N] [--user | --no-user]: configure the stack handler
 * (lkst_stack.ko); without options, show its configuration and counters.
 */
int lkm_verb_stack(int argc, const char **argv);

#endif /* LKM_STACK_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LKBUF_PRINT_H
#define LKBUF_PRINT_H

/* lkbuf print -f LOG [filters] (lkbuf_print.c) */
int lkbuf_verb_print(int argc, const char **argv);

#endif /* LKBUF_PRINT_H */

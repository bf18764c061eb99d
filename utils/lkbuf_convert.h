/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LKBUF_CONVERT_H
#define LKBUF_CONVERT_H

/* lkbuf convert -f LOG --to ctf|json -o OUT (lkbuf_convert.c) */
int lkbuf_verb_convert(int argc, const char **argv);

#endif /* LKBUF_CONVERT_H */

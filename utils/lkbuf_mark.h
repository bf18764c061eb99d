/* SPDX-License-Identifier: GPL-2.0 */
/* lkbuf verbs kept out of lkbuf.c. */
#ifndef LKBUF_MARK_H
#define LKBUF_MARK_H

/* lkbuf mark TEXT...: records a USER_MARK event with the text. */
int lkbuf_verb_mark(int argc, const char **argv);

#endif /* LKBUF_MARK_H */

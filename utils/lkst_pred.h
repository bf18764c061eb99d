/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The predicate compiler (lkst_pred_*): predicates for the lkst_filter
 * handler, as lkm filter and --where take them, compiled into the postfix
 * programs of handlers/lkst_filter.h.  Pure: unit tested on the host.
 *
 *   expr    := and ('||' and)*
 *   and     := unary ('&&' unary)*
 *   unary   := '!' unary | '(' expr ')' | test
 *   test    := FIELD ['&' NUMBER] [CMP VALUE]     (no CMP: "!= 0")
 *   FIELD   := arg1..arg6 | pid | tgid | cpu | ctx | cgroup | comm
 *   CMP     := == != < <= > >=
 *   VALUE   := a number (decimal, 0x hex, negative) or, for comm only, a
 *              "quoted name" (exact) or "prefix*" with == and !=
 * Arguments the event table calls signed (decimal, return value, system
 * call number) and negative numbers compare as signed 64-bit values.
 */
#ifndef LKST_PRED_H
#define LKST_PRED_H

#include <stddef.h>
#include "lkst_filter.h"
#include "lkst_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * lkst_pred_compile() - compile a filter predicate
 * @text: the predicate, in the grammar at the top of lkst_pred.h:
 *        arg1 == 3 && comm == "bash*"
 * @event: the event it filters; the active table gives its arguments'
 *         signedness
 * @prog: filled for the lkst_filter handler: event, insns and text
 *        (target is left to the caller)
 * @errpos: set on failure to the byte offset in @text where the problem is
 * @err: the message, when it fails
 *
 * Compiles @text into the postfix program handlers/lkst_filter.h runs
 * (lkst_filter_check() accepts it), as lkm filter and --where take it.
 *
 * Return: 0, or -1 with @err and *@errpos set: a syntax error, an unknown
 * field, a value out of range, or a program too long.
 */
int lkst_pred_compile(const char *text, unsigned int event,
			struct lkst_filter_prog *prog, size_t *errpos,
			struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_PRED_H */

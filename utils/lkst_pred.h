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

/*
 * Fill @prog (event, insns, text; target is left to the caller) from
 * @text for event @event.  Returns 0, or -1 with @err set and *@errpos the
 * byte offset in @text where the problem is.
 */
int lkst_pred_compile(const char *text, unsigned int event,
			struct lkst_filter_prog *prog, size_t *errpos,
			struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_PRED_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* What the KUnit suites of lkst share (defined in lkst_kunit_buffer.c). */
#ifndef _LKST_KUNIT_H
#define _LKST_KUNIT_H

#include <kunit/test.h>
struct lkst_record;

/* Room for a page's records, as lkst_page_read() and the walk need. */
struct lkst_record *lkst_kunit_page_records(struct kunit *test);

#endif /* _LKST_KUNIT_H */

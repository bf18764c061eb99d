/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The boot ID of a log (LKST_META_BOOT, lkst_log.h): reading the running
 * boot's, deriving one for a boot that cannot be asked, saving it with a
 * log and finding it in one.
 */
#ifndef LKST_LOGBOOT_H
#define LKST_LOGBOOT_H

#include "lkst_logio.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The running boot's, from path (/proc/sys/kernel/random/boot_id). */
int lkst_boot_id_read(const char *path, struct lkst_log_boot *b, struct lkst_err *err);
/* LKST_BOOT_ID_DERIVED from h's host name and clock anchor. */
void lkst_boot_id_derive(const struct lkst_log_header *h, struct lkst_log_boot *b);
int lkst_log_add_boot(struct lkst_log_writer *w, const struct lkst_log_boot *b,
		      struct lkst_err *err);
/*
 * Adds the boot of the records to come: derived (a boot that cannot be
 * asked) from h, else the running one's /proc/sys/kernel/random/boot_id.
 */
int lkst_log_add_boot_of(struct lkst_log_writer *w, const struct lkst_log_header *h,
			 int derived, struct lkst_err *err);
/*
 * The log's boot: 1 with b filled from its LKST_META_BOOT, 0 when it has
 * none (b then holds the derived ID), -1 with err when the section is bad.
 */
int lkst_log_boot(const struct lkst_log *log, struct lkst_log_boot *b, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_LOGBOOT_H */

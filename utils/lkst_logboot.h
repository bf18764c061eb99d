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

/**
 * lkst_boot_id_read() - the running boot's ID
 * @path: the kernel's boot ID file, /proc/sys/kernel/random/boot_id
 * @b: cleared, then filled: the UUID as text, and its origin (how)
 *     %LKST_BOOT_ID_KERNEL
 * @err: the message, when it fails
 *
 * Return: 0, or -1 with @err set when @path cannot be read or does not
 * hold a UUID.
 */
int lkst_boot_id_read(const char *path, struct lkst_log_boot *b, struct lkst_err *err);
/**
 * lkst_boot_id_derive() - a boot ID for a boot that cannot be asked
 * @h: a log header: its host name and clock anchor name the boot
 * @b: cleared, then filled: a UUID (RFC 9562 version 8) hashed from them,
 *     and its origin (how) %LKST_BOOT_ID_DERIVED
 *
 * For records of a boot that is over (a vmcore, the previous boot's
 * trace): the same header gives the same ID.
 */
void lkst_boot_id_derive(const struct lkst_log_header *h, struct lkst_log_boot *b);
/**
 * lkst_log_add_boot(), lkst_log_add_boot_of() - save a boot ID with a log being written
 * @w: the writer (lkst_log_create())
 * @b: the boot ID
 * @h: the log's header, for a derived ID
 * @derived: 1: derive the ID from @h (lkst_boot_id_derive()); 0: read the
 *           running boot's from /proc/sys/kernel/random/boot_id
 * @err: the message, when it fails
 *
 * Adds the boot of the records as the log's %LKST_META_BOOT section.
 *
 * Return: 0, or -1 with @err set (the boot ID unreadable, or out of
 * memory).
 */
int lkst_log_add_boot(struct lkst_log_writer *w, const struct lkst_log_boot *b,
		      struct lkst_err *err);
int lkst_log_add_boot_of(struct lkst_log_writer *w, const struct lkst_log_header *h,
			 int derived, struct lkst_err *err);
/**
 * lkst_log_boot() - the boot a log was recorded in
 * @log: a loaded log
 * @b: filled with the boot ID
 * @err: the message, when it fails
 *
 * Return: 1 with @b from the log's %LKST_META_BOOT section; 0 when it has
 * none, @b then holding the ID derived from its header
 * (lkst_boot_id_derive()); -1 with @err set when the section is not a
 * UUID of a known origin.
 */
int lkst_log_boot(const struct lkst_log *log, struct lkst_log_boot *b, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_LOGBOOT_H */

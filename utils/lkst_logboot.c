// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The boot ID of a log (lkst_logboot.h, LKST_META_BOOT in lkst_log.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lkst_logboot.h"
#include "lkst_logio_int.h"

/* 8-4-4-4-12 lower-case hex digits. */
static int valid_uuid(const char *s)
{
	int i;

	for (i = 0; i < LKST_BOOT_ID_LEN; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return 0;
		} else if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i])) {
			return 0;
		}
	}
	return 1;
}

int lkst_boot_id_read(const char *path, struct lkst_log_boot *b, struct lkst_err *err)
{
	char line[64] = "";
	FILE *f = fopen(path, "r");

	memset(b, 0, sizeof(*b));
	if (!f) {
		lkst_seterr(err, "cannot read the boot ID: %s: %s", path, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (strlen(line) != LKST_BOOT_ID_LEN || !valid_uuid(line)) {
		lkst_seterr(err, "%s: \"%s\" is not a boot ID (a UUID)", path, line);
		return -1;
	}
	memcpy(b->id, line, LKST_BOOT_ID_LEN);
	b->how = LKST_BOOT_ID_KERNEL;
	return 0;
}

static __u64 fnv1a(__u64 h, const void *data, size_t n)
{
	const unsigned char *p = data;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

void lkst_boot_id_derive(const struct lkst_log_header *h, struct lkst_log_boot *b)
{
	unsigned char u[16];
	__u64 x[2];
	int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < 2; i++) {
		x[i] = fnv1a(0xcbf29ce484222325ull + i, &h->anchor_trace_ns,
			     sizeof(h->anchor_trace_ns));
		x[i] = fnv1a(x[i], &h->anchor_realtime_ns, sizeof(h->anchor_realtime_ns));
		x[i] = fnv1a(x[i], h->nodename, strnlen(h->nodename, sizeof(h->nodename)));
	}
	memcpy(u, x, sizeof(u));
	u[6] = (u[6] & 0x0f) | 0x80;	/* RFC 9562 version 8: made here */
	u[8] = (u[8] & 0x3f) | 0x80;	/* its variant */
	snprintf(b->id, sizeof(b->id),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10],
		 u[11], u[12], u[13], u[14], u[15]);
	b->how = LKST_BOOT_ID_DERIVED;
}

int lkst_log_add_boot(struct lkst_log_writer *w, const struct lkst_log_boot *b,
		      struct lkst_err *err)
{
	return lkst_log_add_meta(w, LKST_META_BOOT, b, sizeof(*b), err);
}

int lkst_log_add_boot_of(struct lkst_log_writer *w, const struct lkst_log_header *h,
			 int derived, struct lkst_err *err)
{
	struct lkst_log_boot b;

	if (derived)
		lkst_boot_id_derive(h, &b);
	else if (lkst_boot_id_read("/proc/sys/kernel/random/boot_id", &b, err))
		return -1;
	return lkst_log_add_boot(w, &b, err);
}

int lkst_log_boot(const struct lkst_log *log, struct lkst_log_boot *b, struct lkst_err *err)
{
	const struct lkst_log_boot *m;
	size_t len;

	m = lkst_log_meta(log, LKST_META_BOOT, &len);
	if (!m) {
		lkst_boot_id_derive(&log->header, b);
		return 0;
	}
	if (len != sizeof(*b)) {
		lkst_seterr(err, "its boot ID section is %zu bytes, not %zu", len, sizeof(*b));
		return -1;
	}
	memcpy(b, m, sizeof(*b));
	if (memchr(b->id, '\0', sizeof(b->id)) != b->id + LKST_BOOT_ID_LEN ||
	    !valid_uuid(b->id) ||
	    (b->how != LKST_BOOT_ID_KERNEL && b->how != LKST_BOOT_ID_DERIVED)) {
		lkst_seterr(err, "its boot ID section is not a UUID with a known origin");
		return -1;
	}
	return 1;
}

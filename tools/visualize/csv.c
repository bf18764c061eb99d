// SPDX-License-Identifier: GPL-2.0
/*
 * CSV input shared by the visualizers: splits lkbuf's RFC 4180 lines,
 * maps the header to columns and hands each data row to a callback.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "lkst_format.h"

#define CSV_MAX_FIELDS	32

/* Splits one RFC 4180 line in place; quotes never span lines in lkbuf output. */
static int split_csv(char *line, char **field, int max)
{
	char *r = line, *w = line;
	int n = 0;

	for (;;) {
		int quoted = *r == '"';

		if (n == max)
			return -1;
		field[n++] = w;
		if (quoted)
			r++;
		while (*r && (quoted || *r != ',')) {
			if (quoted && *r == '"') {
				if (r[1] != '"') {
					quoted = 0;
					r++;
					continue;
				}
				r++;		/* "" is one quote */
			}
			*w++ = *r++;
		}
		if (quoted)
			return -1;	/* unterminated quote */
		if (!*r) {
			*w = '\0';
			return n;
		}
		*w++ = '\0';
		r++;
		/* w <= r always: the field is rewritten in place, never longer. */
	}
}

/* Maps the header names to column positions; argN_desc columns are skipped. */
static int parse_header(char **field, int n, int *col, struct lkst_err *err)
{
	static const char *const names[CSV_NR] = {
		"time", "cpu", "pid", "id", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6"
	};
	int i, c;

	for (c = 0; c < CSV_NR; c++)
		col[c] = -1;
	for (i = 0; i < n; i++)
		for (c = 0; c < CSV_NR; c++)
			if (!strcmp(field[i], names[c]))
				col[c] = i;
	for (c = 0; c < CSV_NR; c++) {
		if (col[c] < 0) {
			lkst_seterr(err, "CSV header has no '%s' column; give the output of lkbuf print -C",
				    names[c]);
			return -1;
		}
	}
	return 0;
}

/* lkbuf -S prints seconds.nanoseconds, without it plain nanoseconds. */
int csv_parse_time(const char *s, uint64_t *ns)
{
	unsigned long long v;

	if (!strchr(s, '.'))
		return lkst_parse_u64(s, UINT64_MAX, ns);
	if (lkst_parse_seconds(s, &v))
		return -1;
	*ns = v;
	return 0;
}

struct reader {
	const char *what;
	csv_row_fn row;
	void *ctx;
	int col[CSV_NR];
	int have_header;
};

/* One line: 0 kept or skipped, -1 with err set. */
static int csv_line(char *line, struct reader *rd, unsigned long lineno,
		    struct lkst_err *err)
{
	char *field[CSV_MAX_FIELDS];
	int n, c;

	line[strcspn(line, "\r\n")] = '\0';
	if (!*line)
		return 0;
	n = split_csv(line, field, CSV_MAX_FIELDS);
	if (n < 0) {
		lkst_seterr(err, "line %lu: malformed CSV; give the output of lkbuf print -C", lineno);
		return -1;
	}
	if (!rd->have_header) {
		rd->have_header = 1;
		return parse_header(field, n, rd->col, err);
	}
	for (c = 0; c < CSV_NR; c++) {
		if (rd->col[c] >= n) {
			lkst_seterr(err, "line %lu: %d fields, the header has more", lineno, n);
			return -1;
		}
	}
	if (rd->row(field, rd->col, rd->ctx) < 0) {
		lkst_seterr(err, "line %lu: cannot read %s; check the file", lineno, rd->what);
		return -1;
	}
	return 0;
}

int csv_read(const char *path, const char *what, int partial_ok,
	     csv_row_fn row, void *ctx, struct lkst_err *err)
{
	struct reader rd = { .what = what, .row = row, .ctx = ctx };
	FILE *fp = fopen(path, "r");
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	if (!fp) {
		lkst_seterr(err, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	while (!rc && (len = getline(&line, &cap, fp)) >= 0) {
		if (partial_ok && line[len - 1] != '\n')
			break;		/* the writer is still at it */
		rc = csv_line(line, &rd, ++lineno, err);
	}
	if (!rc && ferror(fp)) {
		lkst_seterr(err, "cannot read %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (!rc && !rd.have_header) {
		lkst_seterr(err, "%s is empty; give the output of lkbuf print -C", path);
		rc = -1;
	}
	free(line);
	fclose(fp);
	return rc;
}

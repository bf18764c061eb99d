// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Masksets as text: the line-per-event form lkm read prints and lkm write
 * parses.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "lkst_format.h"
#include "lkst_format_int.h"
#include "lkst_ksym.h"

/* ---- Maskset text --------------------------------------------------- */

#define MASKSET_HEADER "# lkst maskset "

int lkst_maskset_check_name(const char *name, struct lkst_err *err)
{
	const char *p;

	if (!*name || strlen(name) >= LKST_NAME_LEN) {
		lkst_seterr(err, "maskset name \"%s\" must be 1..%d characters; choose another name",
			    name, LKST_NAME_LEN - 1);
		return -1;
	}
	for (p = name; *p; p++) {
		if (!isprint((unsigned char)*p) || *p == '"') {
			lkst_seterr(err, "maskset name may hold printable characters except '\"'; choose another name");
			return -1;
		}
	}
	return 0;
}

void lkst_maskset_format(FILE *out, const struct lkst_maskset_desc *desc,
			 const struct lkst_handler_names *handlers)
{
	char name[LKST_NAME_LEN];
	unsigned int i;

	/* A kernel name we could not parse back is shown with '?'. */
	for (i = 0; i < LKST_NAME_LEN - 1 && desc->name[i]; i++)
		name[i] = isprint((unsigned char)desc->name[i]) &&
			  desc->name[i] != '"' ? desc->name[i] : '?';
	name[i] = '\0';
	fprintf(out, MASKSET_HEADER "%u \"%s\"\n", desc->id, name);
	if (desc->flags)
		fprintf(out, "# flags:%s%s\n",
			desc->flags & LKST_MS_SYSTEM ? " system" : "",
			desc->flags & LKST_MS_ACTIVE ? " active" : "");
	fprintf(out, "# event-id mnemonic handler-id handler-name\n");
	for (i = 0; i < lkst_nr_events; i++) {
		unsigned int h = desc->handler[lkst_events[i].id];
		const char *hname = lkst_handler_name(handlers, h);

		fprintf(out, "0x%02x %s %u %s\n", lkst_events[i].id,
			lkst_events[i].mnemonic, h, hname ? hname : "?");
	}
}

/* Takes the name of a "# lkst maskset N "name"" comment, if it is one. */
static int parse_name_comment(const char *line, char name_out[LKST_NAME_LEN],
			      unsigned int lineno, struct lkst_err *err)
{
	const char *open, *close;
	size_t len;

	if (strncmp(line, MASKSET_HEADER, strlen(MASKSET_HEADER)))
		return 0;
	open = strchr(line, '"');
	close = strrchr(line, '"');
	if (!open || close == open)
		return 0;
	len = close - open - 1;
	if (len == 0 || len >= LKST_NAME_LEN) {
		lkst_seterr(err, "line %u: maskset name must be 1..%d characters; shorten it",
			    lineno, LKST_NAME_LEN - 1);
		return -1;
	}
	memcpy(name_out, open + 1, len);
	name_out[len] = '\0';
	return 0;
}

#define MAX_FIELDS 5

static unsigned int split_fields(char *line, char *fields[MAX_FIELDS])
{
	unsigned int n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(line, " \t\r\n", &save); tok && n < MAX_FIELDS;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		fields[n++] = tok;
	return n;
}

/* "EVENT HANDLER" or "ID MNEMONIC HANDLER-ID HANDLER-NAME". */
static int parse_entry(char *line, unsigned int lineno,
		       const struct lkst_handler_names *handlers,
		       unsigned int *event, unsigned int *handler,
		       struct lkst_err *err)
{
	char *f[MAX_FIELDS];
	unsigned int n = split_fields(line, f);
	struct lkst_err why;
	const char *hname;

	if (n != 2 && n != 4) {
		lkst_seterr(err, "line %u: expected \"EVENT HANDLER\" or \"ID MNEMONIC HANDLER-ID HANDLER-NAME\"; fix the line",
			    lineno);
		return -1;
	}
	if (lkst_parse_event(f[0], event, &why) ||
	    lkst_parse_handler(f[n == 2 ? 1 : 2], handlers, handler, &why)) {
		lkst_seterr(err, "line %u: %s", lineno, why.msg);
		return -1;
	}
	if (n == 2)
		return 0;
	/* The long form repeats names: they must agree with the numbers. */
	if (strcasecmp(f[1], lkst_event_by_id(*event)->mnemonic)) {
		lkst_seterr(err, "line %u: event 0x%02x is %s, not %s; fix the ID or the mnemonic",
			    lineno, *event, lkst_event_by_id(*event)->mnemonic, f[1]);
		return -1;
	}
	hname = lkst_handler_name(handlers, *handler);
	if (strcasecmp(f[3], hname)) {
		lkst_seterr(err, "line %u: handler %u is %s, not %s; fix the ID or the name",
			    lineno, *handler, hname, f[3]);
		return -1;
	}
	return 0;
}

int lkst_maskset_parse(FILE *in, struct lkst_maskset_desc *desc,
		       char name_out[LKST_NAME_LEN],
		       const struct lkst_handler_names *handlers,
		       struct lkst_err *err)
{
	unsigned int set_on_line[LKST_NR_EVENT_IDS] = { 0 };
	unsigned int lineno = 0, event, handler;
	char *line = NULL, *p;
	size_t cap = 0;
	int ret = -1;

	memset(desc->handler, LKST_HANDLER_NOTHING, sizeof(desc->handler));
	name_out[0] = '\0';
	while (getline(&line, &cap, in) >= 0) {
		lineno++;
		if (strlen(line) > 1024) {
			lkst_seterr(err, "line %u: too long; is this a maskset file?", lineno);
			goto out;
		}
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (*p == '#') {
			if (!name_out[0] && parse_name_comment(p, name_out, lineno, err))
				goto out;
			continue;
		}
		if (!*p)
			continue;
		if (parse_entry(p, lineno, handlers, &event, &handler, err))
			goto out;
		if (set_on_line[event]) {
			lkst_seterr(err, "line %u: event 0x%02x was already set on line %u; keep one line per event",
				    lineno, event, set_on_line[event]);
			goto out;
		}
		set_on_line[event] = lineno;
		desc->handler[event] = handler;
	}
	if (ferror(in)) {
		lkst_seterr(err, "cannot read the maskset text; check the input");
		goto out;
	}
	ret = 0;
out:
	free(line);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Text forms of records and masksets.  Pure: no device access.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lkst_format.h"

/* ---- Argument decoding -------------------------------------------- */

static const struct {
	unsigned long long bit;
	const char *name;
} task_state_bits[] = {
	{ 0x0001, "TASK_INTERRUPTIBLE" },
	{ 0x0002, "TASK_UNINTERRUPTIBLE" },
	{ 0x0004, "__TASK_STOPPED" },
	{ 0x0008, "__TASK_TRACED" },
	{ 0x0010, "EXIT_DEAD" },
	{ 0x0020, "EXIT_ZOMBIE" },
	{ 0x0040, "TASK_PARKED" },
	{ 0x0080, "TASK_DEAD" },
	{ 0x0100, "TASK_WAKEKILL" },
	{ 0x0200, "TASK_WAKING" },
	{ 0x0400, "TASK_NOLOAD" },
	{ 0x0800, "TASK_NEW" },
	{ 0x1000, "TASK_RTLOCK_WAIT" },
	{ 0x2000, "TASK_FREEZABLE" },
	{ 0x8000, "TASK_FROZEN" },
};

/* Appends to a NUL-terminated buffer, truncating safely. */
static void append(char *buf, size_t len, const char *text)
{
	size_t used = strnlen(buf, len);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s", text);
}

void lkst_format_state(unsigned long long state, char *buf, size_t len)
{
	unsigned long long unknown = state;
	char hex[24];
	size_t i;

	if (!len)
		return;
	buf[0] = '\0';
	if (state == 0) {
		append(buf, len, "TASK_RUNNING");
		return;
	}
	for (i = 0; i < sizeof(task_state_bits) / sizeof(task_state_bits[0]); i++) {
		if (!(state & task_state_bits[i].bit))
			continue;
		if (buf[0])
			append(buf, len, "|");
		append(buf, len, task_state_bits[i].name);
		unknown &= ~task_state_bits[i].bit;
	}
	if (unknown) {
		snprintf(hex, sizeof(hex), "%s0x%llx", buf[0] ? "|" : "", unknown);
		append(buf, len, hex);
	}
}

void lkst_format_comm(unsigned long long a, unsigned long long b,
		      char *buf, size_t len)
{
	unsigned char bytes[16];
	char esc[8];
	size_t i;

	if (!len)
		return;
	/* The kernel stored the comm bytes in native order: copy them back. */
	memcpy(bytes, &a, 8);
	memcpy(bytes + 8, &b, 8);
	buf[0] = '\0';
	for (i = 0; i < sizeof(bytes) && bytes[i]; i++) {
		/* Backslash is escaped too, so "\x41" in a name stays unambiguous. */
		if (isprint(bytes[i]) && bytes[i] != '\\')
			snprintf(esc, sizeof(esc), "%c", bytes[i]);
		else
			snprintf(esc, sizeof(esc), "\\x%02x", bytes[i]);
		append(buf, len, esc);
	}
}

const char *lkst_context_name(unsigned int context)
{
	static const char *const names[] = { "task", "softirq", "irq", "nmi" };

	return context < 4 ? names[context] : "corrupt";
}

/* An argument slot that carries data (COMM2 is data, shown inside COMM). */
static int arg_has_data(enum lkst_arg_type type)
{
	return type != LKST_ARG_NONE;
}

void lkst_format_arg(const struct lkst_record *rec, unsigned int index,
		     const struct lkst_format_opts *opts, char *buf, size_t len)
{
	const struct lkst_event_info *ev = lkst_event_by_id(rec->event);
	unsigned long long value = rec->arg[index];
	enum lkst_arg_type type;

	buf[0] = '\0';
	if (!ev) {
		snprintf(buf, len, "0x%llx", value);
		return;
	}
	type = ev->args[index].type;
	if (!arg_has_data(type))
		return;
	if (opts->raw) {
		snprintf(buf, len, "0x%llx", value);
		return;
	}
	switch (type) {
	case LKST_ARG_DEC:
	case LKST_ARG_RETVAL:
		snprintf(buf, len, "%lld", (long long)value);
		break;
	case LKST_ARG_UDEC:
	case LKST_ARG_PID:
	case LKST_ARG_SYSNR:
		snprintf(buf, len, "%llu", value);
		break;
	case LKST_ARG_STATE:
		lkst_format_state(value, buf, len);
		break;
	case LKST_ARG_COMM:
		lkst_format_comm(value,
				 index + 1 < LKST_NR_ARGS ? rec->arg[index + 1] : 0,
				 buf, len);
		break;
	case LKST_ARG_COMM2:		/* folded into the COMM before it */
		break;
	case LKST_ARG_HEX:
	default:
		snprintf(buf, len, "0x%llx", value);
		break;
	}
}

/* Whether an argument gets a value in the output at all. */
static int arg_is_shown(const struct lkst_event_info *ev, unsigned int index,
			const struct lkst_format_opts *opts)
{
	if (!ev)
		return 1;
	if (ev->args[index].type == LKST_ARG_COMM2)
		return opts->raw;
	return arg_has_data(ev->args[index].type);
}

/* ---- Records -------------------------------------------------------- */

static void format_time(unsigned long long ns, const struct lkst_format_opts *opts,
			char *buf, size_t len)
{
	if (opts->seconds)
		snprintf(buf, len, "%llu.%09llu", ns / 1000000000ull, ns % 1000000000ull);
	else
		snprintf(buf, len, "%llu", ns);
}

static void format_mnemonic(const struct lkst_record *rec, char *buf, size_t len)
{
	const struct lkst_event_info *ev = lkst_event_by_id(rec->event);

	if (ev)
		snprintf(buf, len, "%s", ev->mnemonic);
	else
		snprintf(buf, len, "UNKNOWN_0x%02x", rec->event);
}

void lkst_csv_field(FILE *out, const char *field)
{
	const char *p;

	if (!strpbrk(field, ",\"\r\n")) {
		fputs(field, out);
		return;
	}
	fputc('"', out);
	for (p = field; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

void lkst_format_csv_header(FILE *out, const struct lkst_format_opts *opts)
{
	unsigned int i;

	fputs("time,cpu,pid,context,event,id", out);
	for (i = 1; i <= LKST_NR_ARGS; i++) {
		if (opts->verbose)
			fprintf(out, ",arg%u_desc", i);
		fprintf(out, ",arg%u", i);
	}
	fputc('\n', out);
}

static void format_csv(FILE *out, const struct lkst_record *rec, unsigned int cpu,
		       const struct lkst_format_opts *opts)
{
	const struct lkst_event_info *ev = lkst_event_by_id(rec->event);
	char time[32], mnemonic[32], value[128];
	unsigned int i;

	format_time(rec->time_ns, opts, time, sizeof(time));
	format_mnemonic(rec, mnemonic, sizeof(mnemonic));
	fprintf(out, "%s,%u,%u,%s,%s,0x%02x", time, cpu, rec->pid,
		lkst_context_name(rec->context), mnemonic, rec->event);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		int shown = arg_is_shown(ev, i, opts);

		if (opts->verbose) {
			fputc(',', out);
			if (shown && ev && ev->args[i].desc)
				lkst_csv_field(out, ev->args[i].desc);
		}
		fputc(',', out);
		if (shown) {
			lkst_format_arg(rec, i, opts, value, sizeof(value));
			lkst_csv_field(out, value);
		}
	}
	fputc('\n', out);
}

/* "prev pid" -> "prev_pid", so text pairs split cleanly on spaces. */
static void text_key(const struct lkst_event_info *ev, unsigned int index,
		     char *buf, size_t len)
{
	char *p;

	if (ev && ev->args[index].desc && ev->args[index].desc[0])
		snprintf(buf, len, "%s", ev->args[index].desc);
	else
		snprintf(buf, len, "arg%u", index + 1);
	for (p = buf; *p; p++)
		if (isspace((unsigned char)*p) || *p == '=')
			*p = '_';
}

static void format_text(FILE *out, const struct lkst_record *rec, unsigned int cpu,
			const struct lkst_format_opts *opts)
{
	const struct lkst_event_info *ev = lkst_event_by_id(rec->event);
	char time[32], mnemonic[32], key[64], value[128];
	unsigned int i;

	format_time(rec->time_ns, opts, time, sizeof(time));
	format_mnemonic(rec, mnemonic, sizeof(mnemonic));
	fprintf(out, "%s cpu=%u pid=%u ctx=%s %s", time, cpu, rec->pid,
		lkst_context_name(rec->context), mnemonic);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		if (!arg_is_shown(ev, i, opts))
			continue;
		text_key(ev, i, key, sizeof(key));
		lkst_format_arg(rec, i, opts, value, sizeof(value));
		fprintf(out, " %s=%s", key, value);
	}
	fputc('\n', out);
}

void lkst_format_record(FILE *out, const struct lkst_record *rec, unsigned int cpu,
			const struct lkst_format_opts *opts)
{
	if (opts->csv)
		format_csv(out, rec, cpu, opts);
	else
		format_text(out, rec, cpu, opts);
}

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

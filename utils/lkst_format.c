// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Argument decoding (states, command names, text, errno names, symbols)
 * and the typed fields exporters use: what an argument of a record says.
 * The text and CSV record formatters are lkst_format_record.c, command
 * names and record filters lkst_select.c, maskset text lkst_maskset.c.
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

const char lkst_fmt_hex_digits[] = "0123456789abcdef";

/*
 * Escapes bytes up to the first NUL: printable ones as they are, others and
 * backslash (so "\\x41" in a name stays unambiguous) as \xNN.  Truncates
 * like snprintf, always terminated.
 */
void lkst_fmt_escape_bytes(const unsigned char *bytes, size_t n, char *buf, size_t len)
{
	size_t i, used = 0;

	if (!len)
		return;
	for (i = 0; i < n && bytes[i]; i++) {
		unsigned char c = bytes[i];

		if (isprint(c) && c != '\\') {
			if (used + 1 >= len)
				break;
			buf[used++] = c;
		} else {
			char esc[4] = { '\\', 'x', lkst_fmt_hex_digits[c >> 4], lkst_fmt_hex_digits[c & 15] };
			size_t k;

			for (k = 0; k < 4 && used + 1 < len; k++)
				buf[used++] = esc[k];
			if (k < 4)
				break;
		}
	}
	buf[used] = '\0';
}

void lkst_format_comm(unsigned long long a, unsigned long long b,
		      char *buf, size_t len)
{
	unsigned char bytes[16];

	/* The kernel stored the comm bytes in native order: copy them back. */
	memcpy(bytes, &a, 8);
	memcpy(bytes + 8, &b, 8);
	lkst_fmt_escape_bytes(bytes, sizeof(bytes), buf, len);
}

void lkst_format_text(const __u64 *args, unsigned int nr_args, char *buf, size_t len)
{
	unsigned char bytes[LKST_NR_ARGS * 8];

	if (nr_args > LKST_NR_ARGS)
		nr_args = LKST_NR_ARGS;
	memcpy(bytes, args, nr_args * 8);
	lkst_fmt_escape_bytes(bytes, nr_args * 8, buf, len);
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

/* A TEXT argument that continues the TEXT before it (shown inside it). */
int lkst_fmt_text_continues(const struct lkst_event_info *ev, unsigned int index)
{
	return ev->args[index].type == LKST_ARG_TEXT && index > 0 &&
	       ev->args[index - 1].type == LKST_ARG_TEXT;
}

/* The number of consecutive TEXT arguments from index on. */
unsigned int lkst_fmt_text_run(const struct lkst_event_info *ev, unsigned int index)
{
	unsigned int n = 0;

	while (index + n < LKST_NR_ARGS && ev->args[index + n].type == LKST_ARG_TEXT)
		n++;
	return n;
}

/* A STACKPOS as "EVENT frames FIRST-LAST of TOTAL". */
static void format_stackpos(unsigned long long value, char *buf, size_t len)
{
	const struct lkst_event_info *of = lkst_event_by_id(LKST_STACK_POS_EVENT(value));
	unsigned int first = LKST_STACK_POS_FIRST(value);
	unsigned int total = LKST_STACK_POS_TOTAL(value);
	unsigned int last = first + LKST_STACK_FRAMES_PER_RECORD - 1;
	char id[16];

	snprintf(id, sizeof(id), "0x%x", LKST_STACK_POS_EVENT(value));
	if (last >= total)
		last = total ? total - 1 : 0;
	snprintf(buf, len, "%s frames %u-%u of %u", of ? of->mnemonic : id,
		 first, last < first ? first : last, total);
}

/* A KSYM as its symbol, at most 200 bytes, or hex. */
static void format_ksym(const struct lkst_format_opts *opts, unsigned long long value,
			char *buf, size_t len)
{
	char sym[201];

	if (lkst_ksym_table_format(opts->symbols, value, sym, sizeof(sym)))
		snprintf(buf, len, "%s", sym);
	else
		snprintf(buf, len, "0x%llx", value);
}

/* Whether argument index of a STACK_* record is past its stack's frames. */
int lkst_fmt_stack_slot_unused(const struct lkst_record *rec, unsigned int index)
{
	unsigned long long pos = rec->arg[0];

	if (rec->event != LKST_EV_STACK_KERNEL && rec->event != LKST_EV_STACK_USER)
		return 0;
	return index > 0 && LKST_STACK_POS_FIRST(pos) + index - 1 >= LKST_STACK_POS_TOTAL(pos) &&
	       !rec->arg[index];
}

size_t lkst_fmt_syscall_flags(const struct lkst_record *rec, unsigned int index,
			      char *buf, size_t len)
{
	enum lkst_flagset set;
	int n;

	buf[0] = '\0';
	/* The call's arguments from arg0 on: SYSCALL_ENTRY's 1-5, SYSCALL_ERROR's 3-5. */
	if (rec->event == LKST_EV_SYSCALL_ENTRY && index >= 1)
		set = lkst_syscall_arg_flags(rec->arg[0], index - 1, NULL);
	else if (rec->event == LKST_EV_SYSCALL_ERROR && index >= 3)
		set = lkst_syscall_arg_flags(rec->arg[0], index - 3, NULL);
	else
		return 0;
	if (set == LKST_FLAGS_NONE)
		return 0;
	n = lkst_format_flags(set, rec->arg[index], buf, len);
	return n > 0 && (size_t)n < len ? (size_t)n : strlen(buf);
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
		snprintf(buf, len, "%llu", value);
		break;
	case LKST_ARG_SYSNR:
		/* CSV keeps the number for programs; text names the call. */
		if (opts->csv)
			snprintf(buf, len, "%s%d",
				 LKST_SYSCALL_ABI(value) == LKST_SYSCALL_ABI_IA32 ? "ia32:" : "",
				 LKST_SYSCALL_NR(value));
		else
			lkst_format_syscall(value, buf, len);
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
	case LKST_ARG_TEXT:		/* a run is shown joined in its first */
		if (!lkst_fmt_text_continues(ev, index))
			lkst_format_text(&rec->arg[index], lkst_fmt_text_run(ev, index), buf, len);
		break;
	case LKST_ARG_STACKPOS:
		format_stackpos(value, buf, len);
		break;
	case LKST_ARG_KSYM:
		if (!lkst_fmt_stack_slot_unused(rec, index))
			format_ksym(opts, value, buf, len);
		break;
	case LKST_ARG_UADDR:
		if (!lkst_fmt_stack_slot_unused(rec, index))
			snprintf(buf, len, "0x%llx", value);
		break;
	case LKST_ARG_HEX:
	default: {
		int n = snprintf(buf, len, "0x%llx", value);
		char flags[256];

		/* Text shows the flags of the decoded calls' arguments. */
		if (!opts->csv && n > 0 && (size_t)n < len &&
		    lkst_fmt_syscall_flags(rec, index, flags, sizeof(flags)))
			snprintf(buf + n, len - n, "(%s)", flags);
		break;
	}
	}
}

/* Whether an argument gets a value in the output at all. */
int lkst_fmt_arg_is_shown(const struct lkst_event_info *ev, unsigned int index,
			const struct lkst_format_opts *opts)
{
	if (!ev)
		return 1;
	if (ev->args[index].type == LKST_ARG_COMM2 || lkst_fmt_text_continues(ev, index))
		return opts->raw;
	return arg_has_data(ev->args[index].type);
}

/* ---- Typed fields ---------------------------------------------------- */

static enum lkst_field_type field_type(enum lkst_arg_type type)
{
	switch (type) {
	case LKST_ARG_DEC:
	case LKST_ARG_RETVAL:
		return LKST_FIELD_S64;
	case LKST_ARG_UDEC:
	case LKST_ARG_PID:
		return LKST_FIELD_U64;
	case LKST_ARG_SYSNR:
		return LKST_FIELD_SYSNR;
	case LKST_ARG_STATE:
	case LKST_ARG_COMM:
	case LKST_ARG_TEXT:
		return LKST_FIELD_TEXT;
	default:
		return LKST_FIELD_HEX;
	}
}

/* "wait queue head, 0 when ..." -> "wait_queue_head"; "" if nothing is left. */
static void field_name(const char *desc, char *name, size_t len);

/*
 * A probe's argument is described by its fetch text, "fd=%di:u32" or
 * "$comm": the key is the name before '=', else the fetch made a name
 * ("comm", "di"), else argN.  Returns the key's length.
 */
size_t lkst_fmt_probe_key(const char *desc, unsigned int i, char *key)
{
	const char *eq = strchr(desc, '=');
	char name[LKST_FIELD_NAME_LEN];

	if (eq) {
		size_t len = eq - desc < 40 ? (size_t)(eq - desc) : 40;

		memcpy(name, desc, len);
		name[len] = '\0';
		field_name(name, key, 48);
	} else {
		field_name(desc[0] == '$' || desc[0] == '%' ? desc + 1 : desc, key, 48);
	}
	if (!key[0])
		return snprintf(key, 16, "arg%u", i + 1);
	return strlen(key);
}

static void field_name(const char *desc, char *name, size_t len)
{
	size_t used = 0;
	const char *p;

	for (p = desc ? desc : ""; *p && !strchr(",:(", *p) && used + 1 < len; p++) {
		char c = *p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p;

		/* ASCII whatever the locale: exporters take names as identifiers. */
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '_';
		if (c == '_' && (!used || name[used - 1] == '_'))
			continue;
		name[used++] = c;
	}
	while (used && name[used - 1] == '_')
		used--;
	name[used] = '\0';
	if (isdigit((unsigned char)name[0]))
		name[0] = '\0';
}

unsigned int lkst_event_fields(const struct lkst_event_info *ev,
			       struct lkst_field fields[LKST_NR_ARGS])
{
	static const struct lkst_format_opts shown = { 0 };
	unsigned int i, j, n = 0;

	for (i = 0; i < LKST_NR_ARGS; i++) {
		struct lkst_field *f = &fields[n];

		if (!lkst_fmt_arg_is_shown(ev, i, &shown))
			continue;
		f->arg = i;
		f->type = ev ? field_type(ev->args[i].type) : LKST_FIELD_HEX;
		if (ev && ev->category == LKST_CAT_PROBE && ev->args[i].desc)
			lkst_fmt_probe_key(ev->args[i].desc, i, f->name);
		else
			field_name(ev ? ev->args[i].desc : NULL, f->name, sizeof(f->name));
		for (j = 0; j < n && f->name[0]; j++)
			if (!strcmp(fields[j].name, f->name))
				f->name[0] = '\0';	/* a repeated description */
		if (!f->name[0])
			snprintf(f->name, sizeof(f->name), "arg%u", i + 1);
		/* Exporters need unique names even if argN was taken too. */
		for (j = 0; j < n; j++)
			if (!strcmp(fields[j].name, f->name)) {
				snprintf(f->name, sizeof(f->name), "arg%u_%u", i + 1, n);
				break;
			}
		n++;
	}
	return n;
}

void lkst_field_text(const struct lkst_record *rec, const struct lkst_field *f,
		     char *buf, size_t len)
{
	static const struct lkst_format_opts decoded = { 0 };

	lkst_format_arg(rec, f->arg, &decoded, buf, len);
}

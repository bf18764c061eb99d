// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkst_filter expressions to programs: a recursive-descent parser that
 * emits postfix instructions as it goes.  See lkst_pred.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lkst_pred.h"

struct parser {
	const char *text;
	const char *p;
	unsigned int event;
	struct lkst_filter_prog *prog;
	const char *err_at;
	struct lkst_err *err;
};

static const struct {
	const char *name;
	enum lkst_filter_field field;
} fields[] = {
	{ "arg1", LKST_FF_ARG1 }, { "arg2", LKST_FF_ARG1 + 1 },
	{ "arg3", LKST_FF_ARG1 + 2 }, { "arg4", LKST_FF_ARG1 + 3 },
	{ "arg5", LKST_FF_ARG1 + 4 }, { "arg6", LKST_FF_ARG6 },
	{ "pid", LKST_FF_PID }, { "tgid", LKST_FF_TGID },
	{ "cpu", LKST_FF_CPU }, { "ctx", LKST_FF_CONTEXT },
	{ "cgroup", LKST_FF_CGROUP }, { "comm", LKST_FF_COMM_LO },
};

static const struct {
	const char *text;
	enum lkst_filter_cmp cmp;
} cmps[] = {	/* two-character operators first */
	{ "==", LKST_FCMP_EQ }, { "!=", LKST_FCMP_NE }, { "<=", LKST_FCMP_LE },
	{ ">=", LKST_FCMP_GE }, { "<", LKST_FCMP_LT }, { ">", LKST_FCMP_GT },
};

static int fail(struct parser *ps, const char *at, const char *what)
{
	if (!ps->err_at) {
		ps->err_at = at;
		lkst_seterr(ps->err, "%s", what);
	}
	return -1;
}

static void skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static bool eat(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	skip_space(ps);
	if (strncmp(ps->p, tok, n))
		return false;
	ps->p += n;
	return true;
}

static int emit(struct parser *ps, const struct lkst_filter_insn *in)
{
	struct lkst_filter_prog *prog = ps->prog;

	if (prog->nr_insns >= LKST_FILTER_MAX_INSNS)
		return fail(ps, ps->p, "expression too long: at most 32 tests and operators");
	prog->insns[prog->nr_insns++] = *in;
	return 0;
}

static int emit_op(struct parser *ps, enum lkst_filter_op op)
{
	struct lkst_filter_insn in = { .op = op };

	return emit(ps, &in);
}

static bool arg_is_signed(unsigned int event, unsigned int arg)
{
	const struct lkst_event_info *info = lkst_event_by_id(event);

	if (!info)
		return false;
	switch (info->args[arg].type) {
	case LKST_ARG_DEC:
	case LKST_ARG_RETVAL:
	case LKST_ARG_SYSNR:
		return true;
	default:
		return false;
	}
}

static int parse_number(struct parser *ps, uint64_t *out, bool *negative)
{
	const char *start;
	char *end;

	skip_space(ps);
	start = ps->p;
	*negative = *start == '-';
	if (!isdigit((unsigned char)start[*negative]))
		return fail(ps, start, "expected a number");
	errno = 0;
	if (*negative)
		*out = (uint64_t)strtoll(start, &end, 0);
	else
		*out = strtoull(start, &end, 0);
	if (errno == ERANGE)
		return fail(ps, start, "number out of 64-bit range");
	if (isalnum((unsigned char)*end) || *end == '_')
		return fail(ps, end, "expected a number");
	ps->p = end;
	return 0;
}

/* comm == "name" (exact) or "prefix*": one or two masked tests. */
static int parse_comm(struct parser *ps, enum lkst_filter_cmp cmp,
		      const char *cmp_at)
{
	unsigned char name[16] = { 0 }, mask[16];
	struct lkst_filter_insn in = { .op = LKST_FOP_TEST, .cmp = LKST_FCMP_EQ };
	const char *start, *end;
	size_t len, cover;
	bool prefix;

	if (cmp != LKST_FCMP_EQ && cmp != LKST_FCMP_NE)
		return fail(ps, cmp_at, "comm compares only with == or !=");
	skip_space(ps);
	start = ps->p;
	if (*start != '"')
		return fail(ps, start, "expected a \"quoted\" command name after comm");
	end = strchr(start + 1, '"');
	if (!end)
		return fail(ps, start, "missing closing quote");
	len = end - start - 1;
	prefix = len && end[-1] == '*';
	len -= prefix;
	if (memchr(start + 1, '*', len))
		return fail(ps, start, "only a trailing * is allowed in a command name");
	if (len > 15)
		return fail(ps, start, "a command name has at most 15 characters (TASK_COMM_LEN)");
	memcpy(name, start + 1, len);
	/* Exact: the name and its NUL padding; prefix: its bytes only. */
	cover = prefix ? len : 16;
	memset(mask, 0, sizeof(mask));
	memset(mask, 0xff, cover);
	ps->p = end + 1;

	memcpy(&in.value, name, 8);
	memcpy(&in.mask, mask, 8);
	in.field = LKST_FF_COMM_LO;
	if (emit(ps, &in))
		return -1;
	if (cover > 8) {
		memcpy(&in.value, name + 8, 8);
		memcpy(&in.mask, mask + 8, 8);
		in.field = LKST_FF_COMM_HI;
		if (emit(ps, &in) || emit_op(ps, LKST_FOP_AND))
			return -1;
	}
	return cmp == LKST_FCMP_NE ? emit_op(ps, LKST_FOP_NOT) : 0;
}

static int parse_test(struct parser *ps)
{
	struct lkst_filter_insn in = { .op = LKST_FOP_TEST, .mask = ~0ULL,
				       .cmp = LKST_FCMP_NE };
	const char *start, *cmp_at;
	bool negative, found = false;
	size_t len, i;
	uint64_t v;

	skip_space(ps);
	start = ps->p;
	for (len = 0; isalnum((unsigned char)start[len]) || start[len] == '_'; len++)
		;
	if (!len)
		return fail(ps, start, "expected a field: arg1..arg6, pid, tgid, cpu, ctx, cgroup or comm");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strlen(fields[i].name) == len &&
		    !strncasecmp(fields[i].name, start, len)) {
			in.field = fields[i].field;
			found = true;
			break;
		}
	}
	if (!found)
		return fail(ps, start, "unknown field; use arg1..arg6, pid, tgid, cpu, ctx, cgroup or comm");
	ps->p = start + len;
	if (in.field <= LKST_FF_ARG6 && arg_is_signed(ps->event, in.field - LKST_FF_ARG1))
		in.flags = LKST_FILTER_SIGNED;

	skip_space(ps);
	cmp_at = ps->p;
	if (in.field == LKST_FF_COMM_LO) {
		for (i = 0; i < sizeof(cmps) / sizeof(cmps[0]); i++)
			if (eat(ps, cmps[i].text))
				return parse_comm(ps, cmps[i].cmp, cmp_at);
		return fail(ps, cmp_at, "expected == or != after comm");
	}
	/* A lone & (not &&) masks the field. */
	if (ps->p[0] == '&' && ps->p[1] != '&') {
		ps->p++;
		if (parse_number(ps, &v, &negative))
			return -1;
		in.mask = v;
	}
	in.value = 0;
	for (i = 0; i < sizeof(cmps) / sizeof(cmps[0]); i++) {
		/* "<" of "<=" was tried after "<=", so the order is right. */
		if (eat(ps, cmps[i].text)) {
			in.cmp = cmps[i].cmp;
			if (parse_number(ps, &v, &negative))
				return -1;
			in.value = v;
			if (negative)
				in.flags = LKST_FILTER_SIGNED;
			break;
		}
	}
	return emit(ps, &in);
}

static int parse_or(struct parser *ps);

static int parse_unary(struct parser *ps)
{
	const char *open;

	skip_space(ps);
	if (ps->p[0] == '!' && ps->p[1] != '=') {
		ps->p++;
		return parse_unary(ps) || emit_op(ps, LKST_FOP_NOT) ? -1 : 0;
	}
	if (*ps->p == '(') {
		open = ps->p++;
		if (parse_or(ps))
			return -1;
		if (!eat(ps, ")"))
			return fail(ps, *ps->p ? ps->p : open, "expected ')'");
		return 0;
	}
	return parse_test(ps);
}

static int parse_and(struct parser *ps)
{
	if (parse_unary(ps))
		return -1;
	while (eat(ps, "&&"))
		if (parse_unary(ps) || emit_op(ps, LKST_FOP_AND))
			return -1;
	return 0;
}

static int parse_or(struct parser *ps)
{
	if (parse_and(ps))
		return -1;
	while (eat(ps, "||"))
		if (parse_and(ps) || emit_op(ps, LKST_FOP_OR))
			return -1;
	return 0;
}

int lkst_pred_compile(const char *text, unsigned int event,
			struct lkst_filter_prog *prog, size_t *errpos,
			struct lkst_err *err)
{
	struct parser ps = {
		.text = text, .p = text, .event = event, .prog = prog, .err = err,
	};

	memset(prog, 0, sizeof(*prog));
	prog->event = event;
	if (strlen(text) >= LKST_FILTER_TEXT_LEN) {
		*errpos = LKST_FILTER_TEXT_LEN - 1;
		lkst_seterr(err, "expression longer than %d bytes",
			    LKST_FILTER_TEXT_LEN - 1);
		return -1;
	}
	if (parse_or(&ps) == 0) {
		skip_space(&ps);
		if (*ps.p)
			fail(&ps, ps.p, "expected && or || or the end of the expression");
	}
	if (ps.err_at) {
		*errpos = ps.err_at - text;
		return -1;
	}
	/* The parser only emits programs the kernel accepts; check anyway. */
	if (lkst_filter_check(prog->insns, prog->nr_insns) < 0) {
		*errpos = 0;
		lkst_seterr(err, "internal error: the program does not check");
		return -1;
	}
	strcpy(prog->text, text);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lkm probe add|del|list: dynamic probes.  A probe is an event of the
 * probe category (IDs 0xf0-0xfe) fired by a kprobe on FUNCTION[+OFF], or
 * by a kretprobe when it returns (--return); lkm config routes it like any
 * other event, by its name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>

#include "lkm_cmds.h"
#include "lkm_probe.h"

/* The registers of the kernel lkm runs on: its own architecture's. */
#ifdef __aarch64__
static const char *const reg_names[LKST_NR_REGS] = {
	[LKST_REG_X0] = "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
	"x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18",
	"x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
	"x29", "x30", "pc", "pstate",
	[LKST_REG_SP] = "sp",
};

#define REG_LIST "x0-x30 sp pc pstate"
#else
static const char *const reg_names[LKST_NR_REGS] = {
	[LKST_REG_AX] = "ax", [LKST_REG_BX] = "bx", [LKST_REG_CX] = "cx",
	[LKST_REG_DX] = "dx", [LKST_REG_SI] = "si", [LKST_REG_DI] = "di",
	[LKST_REG_BP] = "bp", [LKST_REG_SP] = "sp", [LKST_REG_R8] = "r8",
	[LKST_REG_R9] = "r9", [LKST_REG_R10] = "r10", [LKST_REG_R11] = "r11",
	[LKST_REG_R12] = "r12", [LKST_REG_R13] = "r13", [LKST_REG_R14] = "r14",
	[LKST_REG_R15] = "r15", [LKST_REG_IP] = "ip", [LKST_REG_FLAGS] = "flags",
};

#define REG_LIST "ax bx cx dx si di bp sp r8-r15 ip flags (or rax, rdi, ...)"
#endif
#define TYPE_LIST "u8..u64, s8..s64, x8..x64, symbol, errno, pid, uaddr"

/* "di" or "rdi"; -1 when unknown. */
static int find_reg(const char *s, size_t len)
{
	unsigned int i;

	if (len > 1 && s[0] == 'r' && !isdigit((unsigned char)s[1])) {
		s++;
		len--;
	}
	for (i = 0; i < LKST_NR_REGS; i++)
		if (reg_names[i] && strlen(reg_names[i]) == len &&
		    !strncmp(s, reg_names[i], len))
			return i;
	return -1;
}

static int parse_type(const char *s, struct lkst_fetch *f)
{
	static const struct {
		const char *name;
		enum lkst_arg_type type;
	} named[] = {
		{ "symbol", LKST_ARG_KSYM }, { "errno", LKST_ARG_RETVAL },
		{ "pid", LKST_ARG_PID }, { "uaddr", LKST_ARG_UADDR },
	};
	unsigned int i;
	char *end;
	long bits;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (!strcmp(s, named[i].name)) {
			f->type = named[i].type;
			f->size = 8;
			return 0;
		}
	}
	if (s[0] != 'u' && s[0] != 's' && s[0] != 'x')
		return -1;
	if (!isdigit((unsigned char)s[1]))
		return -1;
	bits = strtol(s + 1, &end, 10);
	if (*end || (bits != 8 && bits != 16 && bits != 32 && bits != 64))
		return -1;
	f->type = s[0] == 'u' ? LKST_ARG_UDEC :
		  s[0] == 's' ? LKST_ARG_DEC : LKST_ARG_HEX;
	f->size = bits / 8;
	return 0;
}

/* The base of a fetch, s[0..len): %REG, $argN, $retval or $comm. */
static int parse_base(const char *text, const char *s, size_t len,
		      bool is_return, struct lkst_fetch *f, struct lkst_err *err)
{
	int reg;

	if (len > 1 && s[0] == '%') {
		reg = find_reg(s + 1, len - 1);
		if (reg < 0) {
			lkst_seterr(err, "fetch argument '%s': unknown register '%.*s'; registers are %s",
				    text, (int)len, s, REG_LIST);
			return -1;
		}
		f->kind = LKST_FETCH_REG;
		f->index = reg;
		return 0;
	}
	if (len == 5 && !strncmp(s, "$arg", 4) && s[4] >= '1' &&
	    s[4] <= '0' + LKST_NR_ARGS) {
		f->kind = LKST_FETCH_ARG;
		f->index = s[4] - '0';
		return 0;
	}
	if (len >= 4 && !strncmp(s, "$arg", 4)) {
		lkst_seterr(err, "fetch argument '%s': bad argument '%.*s'; use $arg1..$arg%d",
			    text, (int)len, s, LKST_NR_ARGS);
		return -1;
	}
	if (len == 7 && !strncmp(s, "$retval", 7)) {
		if (!is_return) {
			lkst_seterr(err, "fetch argument '%s': $retval is only known in a return probe (probe add --return)",
				    text);
			return -1;
		}
		f->kind = LKST_FETCH_RETVAL;
		return 0;
	}
	if (len == 5 && !strncmp(s, "$comm", 5)) {
		f->kind = LKST_FETCH_COMM;
		return 0;
	}
	lkst_seterr(err, "fetch argument '%s': unknown fetch '%.*s'; use %%REG, $argN, $retval, $comm or +OFF(FETCH)",
		    text, (int)len, s);
	return -1;
}

int lkm_probe_parse_fetch(const char *text, bool is_return,
			  struct lkst_fetch *fetch, unsigned int room,
			  struct lkst_err *err)
{
	struct lkst_fetch *f = &fetch[0];
	const char *s = text, *eq, *colon, *end;
	long long off;
	int outer[LKST_PROBE_MAX_DEREF + 1];
	unsigned int n = 0, i;
	char *num_end;

	if (!room) {
		lkst_seterr(err, "fetch argument '%s': a probe records at most %d values ($comm takes two)",
			    text, LKST_NR_ARGS);
		return -1;
	}
	memset(f, 0, sizeof(*f));
	eq = strchr(s, '=');
	if (eq) {
		if (eq == s || (size_t)(eq - s) >= sizeof(f->name)) {
			lkst_seterr(err, "fetch argument '%s': the name before '=' must have 1..%zu characters",
				    text, sizeof(f->name) - 1);
			return -1;
		}
		for (i = 0; s + i < eq; i++) {
			if (!isalnum((unsigned char)s[i]) && s[i] != '_') {
				lkst_seterr(err, "fetch argument '%s': bad character '%c' in the name '%.*s'; use letters, digits and '_'",
					    text, s[i], (int)(eq - s), s);
				return -1;
			}
			f->name[i] = s[i];
		}
		s = eq + 1;
	}
	colon = strchr(s, ':');
	end = colon ? colon : s + strlen(s);
	if (end == s) {
		lkst_seterr(err, "fetch argument '%s': nothing to fetch; use %%REG, $argN, $retval, $comm or +OFF(FETCH)",
			    text);
		return -1;
	}
	/* Dereferences from the outside in: +OFF( ... ). */
	while (s < end && (*s == '+' || *s == '-' || isdigit((unsigned char)*s))) {
		errno = 0;
		off = strtoll(s, &num_end, 0);
		if (num_end == s || num_end >= end || *num_end != '(' ||
		    errno || off < INT32_MIN || off > INT32_MAX) {
			lkst_seterr(err, "fetch argument '%s': bad dereference at '%.*s'; write +OFF(FETCH) with OFF a 32-bit decimal or 0x hex offset",
				    text, (int)(end - s), s);
			return -1;
		}
		if (end[-1] != ')') {
			lkst_seterr(err, "fetch argument '%s': '(' at '%.*s' has no closing ')'",
				    text, (int)(end - num_end), num_end);
			return -1;
		}
		if (n == LKST_PROBE_MAX_DEREF) {
			lkst_seterr(err, "fetch argument '%s': more than %d dereferences",
				    text, LKST_PROBE_MAX_DEREF);
			return -1;
		}
		outer[n++] = (int)off;
		s = num_end + 1;
		end--;
	}
	if (parse_base(text, s, end - s, is_return, f, err))
		return -1;
	f->nr_deref = n;
	for (i = 0; i < n; i++)
		f->offset[i] = outer[n - 1 - i];
	if (f->kind == LKST_FETCH_COMM) {
		if (n || colon) {
			lkst_seterr(err, "fetch argument '%s': $comm takes no dereference and no type",
				    text);
			return -1;
		}
		if (room < 2) {
			lkst_seterr(err, "fetch argument '%s': $comm takes two of the %d values and only one is left",
				    text, LKST_NR_ARGS);
			return -1;
		}
		f->type = LKST_ARG_COMM;
		f->size = 8;
		memset(&fetch[1], 0, sizeof(fetch[1]));
		fetch[1].kind = LKST_FETCH_COMM2;
		fetch[1].type = LKST_ARG_COMM2;
		fetch[1].size = 8;
		return 2;
	}
	if (colon) {
		if (parse_type(colon + 1, f)) {
			lkst_seterr(err, "fetch argument '%s': unknown type '%s'; types are %s",
				    text, colon + 1, TYPE_LIST);
			return -1;
		}
	} else {
		f->type = f->kind == LKST_FETCH_RETVAL && !n ? LKST_ARG_RETVAL :
							       LKST_ARG_HEX;
		f->size = 8;
	}
	return 1;
}

static int check_name(const char *name, struct lkst_err *err)
{
	size_t i, len = strlen(name);

	if (!len || len >= LKST_NAME_LEN || !isalpha((unsigned char)name[0])) {
		lkst_seterr(err, "bad probe name '%s'; use a letter then letters, digits or '_', at most %d characters",
			    name, LKST_NAME_LEN - 1);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)name[i]) && name[i] != '_') {
			lkst_seterr(err, "bad probe name '%s': '%c' is not a letter, digit or '_'",
				    name, name[i]);
			return -1;
		}
	}
	return 0;
}

int lkm_probe_parse(const char *name, const char *function,
		    const char *const *fetch_args, bool is_return,
		    struct lkst_probe *req, struct lkst_err *err)
{
	const char *plus = strchr(function, '+');
	size_t len = plus ? (size_t)(plus - function) : strlen(function), i;
	uint64_t off = 0;
	int n;

	memset(req, 0, sizeof(*req));
	if (check_name(name, err))
		return -1;
	strcpy(req->name, name);
	if (!len || len >= LKST_SYM_LEN) {
		lkst_seterr(err, "bad function '%s'; give a kernel function name, at most %d characters",
			    function, LKST_SYM_LEN - 1);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)function[i]) && !strchr("_.:", function[i])) {
			lkst_seterr(err, "bad function '%s': '%c' cannot be in a symbol name",
				    function, function[i]);
			return -1;
		}
	}
	memcpy(req->symbol, function, len);
	if (plus && lkst_parse_u64(plus + 1, UINT32_MAX, &off)) {
		lkst_seterr(err, "bad offset in '%s'; write FUNCTION+OFF with OFF in decimal or 0x hex",
			    function);
		return -1;
	}
	if (is_return && plus) {
		lkst_seterr(err, "a return probe is set on the function itself; drop the '+%s'",
			    plus + 1);
		return -1;
	}
	req->offset = off;
	req->flags = is_return ? LKST_PROBE_RETURN : 0;
	for (i = 0; fetch_args && fetch_args[i]; i++) {
		n = lkm_probe_parse_fetch(fetch_args[i], is_return,
					  &req->fetch[req->nr_args],
					  LKST_NR_ARGS - req->nr_args, err);
		if (n < 0)
			return -1;
		req->nr_args += n;
	}
	return 0;
}

/* ---- Verbs ---------------------------------------------------------- */

static void __attribute__((noreturn))
die_kernel(int err, const struct lkst_probe *req)
{
	const char *name = strerrorname_np(err) ?: "?";

	switch (err) {
	case EEXIST:
		lkst_die(LKST_EXIT_DEVICE, "probe %s: an event has that name already (%s); see lkm events",
			 req->name, name);
	case ENOSPC:
		lkst_die(LKST_EXIT_DEVICE, "probe %s: every probe ID 0x%02x-0x%02x is taken (%s); remove one with lkm probe del",
			 req->name, LKST_EV_PROBE_FIRST, LKST_EV_PROBE_LAST, name);
	case ENOENT:
		lkst_die(LKST_EXIT_DEVICE, "probe %s: no function '%s' the kernel can probe (%s); see /proc/kallsyms",
			 req->name, req->symbol, name);
	case EOPNOTSUPP:
		lkst_die(LKST_EXIT_DEVICE, "probe %s: the kernel has no kprobes (%s); build it with CONFIG_KPROBES=y",
			 req->name, name);
	case EINVAL:
	case EILSEQ:
		lkst_die(LKST_EXIT_DEVICE, "probe %s: the kernel refused %s+%llu or a fetch argument (%s); is the offset on an instruction of a probeable function?",
			 req->name, req->symbol, (unsigned long long)req->offset, name);
	}
	lkst_die(LKST_EXIT_DEVICE, "probe %s: %s (%s)", req->name, strerror(err), name);
}

static int is_return;
static struct lkst_probe req;

/* -8(%bp) is a fetch argument: options only before NAME (LKST_OPTIONS_FIRST). */
static struct poptOption add_options[] = {
	{ "return", '\0', POPT_ARG_NONE, &is_return, 0,
	  "fire when FUNCTION returns (a kretprobe); $retval is its return value", NULL },
	LKST_POPT_TAIL
};

static void check_add(struct lkst_cmd *cmd)
{
	struct lkst_err err;

	if (cmd->nr_args < 2)
		lkst_die(LKST_EXIT_USAGE, "probe add needs NAME FUNCTION[+OFF]; e.g. lkm probe add open_in do_sys_openat2 dfd=$arg1:s32");
	if (lkm_probe_parse(cmd->args[0], cmd->args[1], cmd->args + 2, is_return, &req, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

static int run_add(struct lkst_cmd *cmd)
{
	int ret;

	/* The event ID is the ioctl's return value (lkst_dev_ioctl keeps 0). */
	do
		ret = ioctl(cmd->fd, LKST_IOC_PROBE_ADD, &req);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		die_kernel(errno, &req);
	printf("0x%02x %s\n", ret, req.name);
	return LKST_EXIT_OK;
}

static void check_del(struct lkst_cmd *cmd)
{
	const char *arg = cmd->args ? cmd->args[0] : NULL;
	uint32_t id;

	if (cmd->nr_args != 1)
		lkst_die(LKST_EXIT_USAGE, "probe del takes one probe, by name or ID (see lkm probe list)");
	if (isdigit((unsigned char)arg[0])) {
		if (lkst_parse_u32(arg, LKST_EV_PROBE_LAST, &id) ||
		    id < LKST_EV_PROBE_FIRST)
			lkst_die(LKST_EXIT_USAGE, "bad probe ID '%s'; probes have IDs 0x%02x-0x%02x",
				 arg, LKST_EV_PROBE_FIRST, LKST_EV_PROBE_LAST);
		req.id = id;
	} else if (strlen(arg) >= LKST_NAME_LEN) {
		lkst_die(LKST_EXIT_USAGE, "bad probe name '%s'; names have at most %d characters",
			 arg, LKST_NAME_LEN - 1);
	}
	strcpy(req.name, req.id ? "" : arg);
}

static int run_del(struct lkst_cmd *cmd)
{
	int ret = lkst_dev_ioctl(cmd->fd, LKST_IOC_PROBE_DEL, &req);

	if (ret == -ENOENT)
		lkst_die(LKST_EXIT_DEVICE, "no probe '%s' (ENOENT); see lkm probe list", cmd->args[0]);
	if (ret) {
		strcpy(req.name, cmd->args[0]);
		die_kernel(-ret, &req);
	}
	return LKST_EXIT_OK;
}

static int run_list(struct lkst_cmd *cmd)
{
	struct lkst_event_desc desc;
	unsigned int id, a;

	for (id = LKST_EV_PROBE_FIRST; id <= LKST_EV_PROBE_LAST; id++) {
		memset(&desc, 0, sizeof(desc));
		desc.id = id;
		if (lkst_dev_lookup(cmd->fd, LKST_IOC_EVENT_DESC, &desc,
				    "reading a probe's description"))
			continue;
		desc.mnemonic[LKST_NAME_LEN - 1] = '\0';
		desc.description[LKST_DESC_LEN - 1] = '\0';
		printf("0x%02x %-20s %s\n", id, desc.mnemonic, desc.description);
		for (a = 0; a < LKST_NR_ARGS; a++) {
			desc.arg_desc[a][LKST_ARG_DESC_LEN - 1] = '\0';
			if (desc.arg_desc[a][0])
				printf("       arg%u %s\n", a + 1, desc.arg_desc[a]);
		}
	}
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_DEVICE, "writing the list: %s", strerror(errno));
	return LKST_EXIT_OK;
}

static struct poptOption no_options[] = { LKST_POPT_TAIL };
static const struct lkst_verb_ops add_ops = {
	add_options, "NAME FUNCTION[+OFF] [[NAME=]FETCH[:TYPE]...]", check_add, run_add, NULL
};
static const struct lkst_verb_ops del_ops = { no_options, "NAME|ID", check_del, run_del, NULL };
static const struct lkst_verb_ops list_ops = { no_options, NULL, NULL, run_list, NULL };

#define DEV	LKST_NEEDS_DEVICE

static const struct lkst_verb probe_verbs[] = {
	LKST_VERB("add", DEV | LKST_TAKES_ARGS | LKST_OPTIONS_FIRST, &add_ops,
		  "make a probe: [--return] NAME FUNCTION[+OFF] [FETCH...]"),
	LKST_VERB("del", DEV | LKST_TAKES_ARGS, &del_ops, "remove a probe (NAME|ID), routed or not"),
	LKST_VERB("list", DEV, &list_ops, "list the probes with their fetch arguments"),
	LKST_VERB_END
};

static void probe_help_footer(void)
{
	printf("\nFETCH is [NAME=]%%REG, $argN, $retval (--return only), $comm or +OFF(FETCH)\n"
	       "(at most %d deep), with an optional :TYPE of %s.\n"
	       "Run '%s probe SUBCOMMAND --help' for its options.\n%s\n",
	       LKST_PROBE_MAX_DEREF, TYPE_LIST, lkst_progname, LKST_EXIT_CODES_HELP);
}

const struct lkst_verb_group lkm_probe_group = { "probe", probe_verbs, 5, probe_help_footer };

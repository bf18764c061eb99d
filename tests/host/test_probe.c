// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkm probe's fetch-argument parser (utils/lkm_probe.c):
 * the binary specs the kernel gets for each kprobe_events-style argument,
 * and the message for each kind of bad input.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lkm_probe.h"

static int parse1(const char *text, int is_return, struct lkst_fetch f[2],
		  struct lkst_err *err)
{
	memset(f, 0xaa, 2 * sizeof(*f));
	err->msg[0] = '\0';
	return lkm_probe_parse_fetch(text, is_return, f, 6, err);
}

static void test_good(void)
{
	struct lkst_fetch f[2];
	struct lkst_err err;

	CHECK(parse1("%di", 0, f, &err) == 1);
	CHECK(f[0].kind == LKST_FETCH_REG && f[0].index == LKST_REG_DI);
	CHECK(f[0].type == LKST_ARG_HEX && f[0].size == 8 && !f[0].nr_deref);
	CHECK(!f[0].name[0] && !f[0].offset[0] && !f[0].offset[1]);
	CHECK(!f[0].__pad[0] && !f[0].__pad[1] && !f[0].__pad[2]);

	CHECK(parse1("%rsi:s64", 0, f, &err) == 1);
	CHECK(f[0].kind == LKST_FETCH_REG && f[0].index == LKST_REG_SI);
	CHECK(f[0].type == LKST_ARG_DEC && f[0].size == 8);
	CHECK(parse1("%r8:u8", 0, f, &err) == 1);
	CHECK(f[0].index == LKST_REG_R8 && f[0].type == LKST_ARG_UDEC && f[0].size == 1);
	CHECK(parse1("%r15:x16", 0, f, &err) == 1);
	CHECK(f[0].index == LKST_REG_R15 && f[0].type == LKST_ARG_HEX && f[0].size == 2);
	CHECK(parse1("%flags", 0, f, &err) == 1 && f[0].index == LKST_REG_FLAGS);
	CHECK(parse1("%ip:symbol", 0, f, &err) == 1);
	CHECK(f[0].index == LKST_REG_IP && f[0].type == LKST_ARG_KSYM);

	CHECK(parse1("fd=$arg1:u32", 0, f, &err) == 1);
	CHECK(f[0].kind == LKST_FETCH_ARG && f[0].index == 1);
	CHECK(f[0].type == LKST_ARG_UDEC && f[0].size == 4);
	CHECK_STR(f[0].name, "fd");
	CHECK(parse1("$arg6:pid", 0, f, &err) == 1);
	CHECK(f[0].index == 6 && f[0].type == LKST_ARG_PID);

	CHECK(parse1("$retval", 1, f, &err) == 1);
	CHECK(f[0].kind == LKST_FETCH_RETVAL && f[0].type == LKST_ARG_RETVAL && f[0].size == 8);
	CHECK(parse1("ret=$retval:x32", 1, f, &err) == 1);
	CHECK(f[0].type == LKST_ARG_HEX && f[0].size == 4);
	CHECK(parse1("+8($retval)", 1, f, &err) == 1);
	CHECK(f[0].nr_deref == 1 && f[0].offset[0] == 8 && f[0].type == LKST_ARG_HEX);

	/* Offsets innermost first: +16(+8(%di)) loads at di+8, then +16. */
	CHECK(parse1("v=+16(+8(%di)):s32", 0, f, &err) == 1);
	CHECK(f[0].kind == LKST_FETCH_REG && f[0].index == LKST_REG_DI);
	CHECK(f[0].nr_deref == 2 && f[0].offset[0] == 8 && f[0].offset[1] == 16);
	CHECK(f[0].type == LKST_ARG_DEC && f[0].size == 4);
	CHECK(parse1("-0x10($arg3)", 0, f, &err) == 1);
	CHECK(f[0].nr_deref == 1 && f[0].offset[0] == -16 && !f[0].offset[1]);
	CHECK(parse1("0(%sp)", 0, f, &err) == 1);
	CHECK(f[0].nr_deref == 1 && f[0].offset[0] == 0 && f[0].index == LKST_REG_SP);
	CHECK(parse1("+2147483647(%ax)", 0, f, &err) == 1 && f[0].offset[0] == INT32_MAX);
	CHECK(parse1("-2147483648(%ax)", 0, f, &err) == 1 && f[0].offset[0] == INT32_MIN);

	CHECK(parse1("$comm", 0, f, &err) == 2);
	CHECK(f[0].kind == LKST_FETCH_COMM && f[0].type == LKST_ARG_COMM && f[0].size == 8);
	CHECK(f[1].kind == LKST_FETCH_COMM2 && f[1].type == LKST_ARG_COMM2 && f[1].size == 8);
	CHECK(!f[1].name[0] && !f[1].nr_deref && !f[1].index);
	CHECK(parse1("who=$comm", 1, f, &err) == 2);
	CHECK_STR(f[0].name, "who");
}

static void bad(const char *text, int is_return, const char *msg, int line)
{
	struct lkst_fetch f[2];
	struct lkst_err err;
	int ret = parse1(text, is_return, f, &err);

	if (ret != -1)
		fprintf(stderr, "line %d: '%s' was accepted\n", line, text);
	CHECK(ret == -1);
	CHECK_HAS(err.msg, msg);
	CHECK_HAS(err.msg, text);	/* the message quotes the argument */
}
#define BAD(text, ret, msg) bad(text, ret, msg, __LINE__)

static void test_bad(void)
{
	struct lkst_fetch f[2];
	struct lkst_err err;

	BAD("%zz", 0, "unknown register '%zz'");
	BAD("%", 0, "unknown fetch '%'");
	BAD("%r16", 0, "unknown register");
	BAD("$arg0", 0, "bad argument '$arg0'; use $arg1..$arg6");
	BAD("$arg7", 0, "bad argument '$arg7'");
	BAD("$arg12", 0, "bad argument");
	BAD("$retval", 0, "$retval is only known in a return probe");
	BAD("+8($retval)", 0, "$retval is only known in a return probe");
	BAD("$stack", 0, "unknown fetch '$stack'");
	BAD("di", 0, "unknown fetch 'di'");
	BAD("", 0, "nothing to fetch");
	BAD(":u32", 0, "nothing to fetch");
	BAD("%di:u12", 0, "unknown type 'u12'");
	BAD("%di:q64", 0, "unknown type 'q64'");
	BAD("%di:", 0, "unknown type ''");
	BAD("%di:u64x", 0, "unknown type");
	BAD("+8(+8(+8(%di)))", 0, "more than 2 dereferences");
	BAD("+8(%di", 0, "has no closing ')'");
	BAD("+8%di", 0, "bad dereference at '+8%di'");
	BAD("+0x100000000(%di)", 0, "bad dereference");
	BAD("+(%di)", 0, "bad dereference");
	BAD("=%di", 0, "the name before '=' must have 1..15");
	BAD("a_name_far_too_long=%di", 0, "the name before '='");
	BAD("a-b=%di", 0, "bad character '-' in the name 'a-b'");
	BAD("$comm:u64", 0, "$comm takes no dereference and no type");
	BAD("+8($comm)", 0, "$comm takes no dereference");

	/* Slots: six values, $comm takes two. */
	memset(f, 0, sizeof(f));
	CHECK(lkm_probe_parse_fetch("$comm", 0, f, 1, &err) == -1);
	CHECK_HAS(err.msg, "$comm takes two of the 6 values");
	CHECK(lkm_probe_parse_fetch("%di", 0, f, 0, &err) == -1);
	CHECK_HAS(err.msg, "at most 6 values");
}

static void test_request(void)
{
	const char *args[] = { "fd=$arg1:u32", "$comm", "%si:s64", "+8(%dx)", NULL };
	const char *seven[] = { "%ax", "%bx", "%cx", "%dx", "%si", "%di", "%bp", NULL };
	const char *ret_args[] = { "$retval", "$arg2:s64", NULL };
	struct lkst_probe req;
	struct lkst_err err;

	CHECK(lkm_probe_parse("lseek_in", "ksys_lseek", args, 0, &req, &err) == 0);
	CHECK_STR(req.name, "lseek_in");
	CHECK_STR(req.symbol, "ksys_lseek");
	CHECK(req.offset == 0 && req.flags == 0 && req.nr_args == 5 && !req.id);
	CHECK(req.fetch[0].kind == LKST_FETCH_ARG && req.fetch[1].kind == LKST_FETCH_COMM);
	CHECK(req.fetch[2].kind == LKST_FETCH_COMM2 && req.fetch[3].kind == LKST_FETCH_REG);
	CHECK(req.fetch[4].nr_deref == 1 && req.fetch[4].index == LKST_REG_DX);
	CHECK(req.fetch[5].kind == LKST_FETCH_NONE && !req.fetch[5].type);

	CHECK(lkm_probe_parse("at", "vfs_read+0x14", NULL, 0, &req, &err) == 0);
	CHECK_STR(req.symbol, "vfs_read");
	CHECK(req.offset == 0x14 && req.nr_args == 0);

	CHECK(lkm_probe_parse("lseek_out", "ksys_lseek", ret_args, 1, &req, &err) == 0);
	CHECK(req.flags == LKST_PROBE_RETURN && req.nr_args == 2);
	CHECK(req.fetch[0].kind == LKST_FETCH_RETVAL && req.fetch[1].kind == LKST_FETCH_ARG);

	CHECK(lkm_probe_parse("p", "f", seven, 0, &req, &err) == -1);
	CHECK_HAS(err.msg, "'%bp': a probe records at most 6 values");
	CHECK(lkm_probe_parse("r", "vfs_read+4", NULL, 1, &req, &err) == -1);
	CHECK_HAS(err.msg, "a return probe is set on the function itself");
	CHECK(lkm_probe_parse("9x", "f", NULL, 0, &req, &err) == -1);
	CHECK_HAS(err.msg, "bad probe name '9x'");
	CHECK(lkm_probe_parse("a-b", "f", NULL, 0, &req, &err) == -1);
	CHECK_HAS(err.msg, "'-' is not a letter");
	CHECK(lkm_probe_parse("a_name_that_is_thirty_two_charsx", "f", NULL, 0, &req, &err) == -1);
	CHECK(lkm_probe_parse("a_name_that_is_thirty_one_char", "f", NULL, 0, &req, &err) == 0);
	CHECK(lkm_probe_parse("p", "", NULL, 0, &req, &err) == -1);
	CHECK_HAS(err.msg, "bad function ''");
	CHECK(lkm_probe_parse("p", "vfs read", NULL, 0, &req, &err) == -1);
	CHECK_HAS(err.msg, "' ' cannot be in a symbol name");
	CHECK(lkm_probe_parse("p", "vfs_read+x", NULL, 0, &req, &err) == -1);
	CHECK_HAS(err.msg, "bad offset in 'vfs_read+x'");
	CHECK(lkm_probe_parse("p", "ext4:ext4_sync_file", NULL, 0, &req, &err) == 0);
	CHECK_STR(req.symbol, "ext4:ext4_sync_file");
}

int main(void)
{
	test_good();
	test_bad();
	test_request();
	return check_report();
}

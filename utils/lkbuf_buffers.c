// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf's verbs on the buffers themselves: list, create, link, delete,
 * jump, resize and mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkbuf_cmds.h"

#define CPU_OPTION_MAX	65535u

/* Exits with the message for an errno of a block request. */
static void __attribute__((noreturn))
die_block(int err, unsigned int cpu, unsigned int block, const char *what)
{
	char context[96];

	switch (err) {
	case ENOENT:
		lkst_die(LKST_EXIT_DEVICE, "block %u does not exist on cpu %u; see lkbuf list",
			 block, cpu);
	case EBUSY:
		lkst_die(LKST_EXIT_DEVICE, "block %u on cpu %u is being written; jump to another block first (lkbuf jump)",
			 block, cpu);
	case EPERM:
		/* The kernel refuses what would move the writer off the region. */
		if (!strcmp(what, "jumping to"))
			lkst_die(LKST_EXIT_DEVICE, "cpu %u writes into the persistent buffer (lkst.persist=), kept for the next boot: it cannot jump to block %u; nothing was changed",
				 cpu, block);
		if (!strcmp(what, "linking"))
			lkst_die(LKST_EXIT_DEVICE, "block %u on cpu %u is the persistent buffer (lkst.persist=), kept for the next boot: it cannot be linked to another block; nothing was changed",
				 block, cpu);
		lkst_die(LKST_EXIT_DEVICE, "block %u on cpu %u is the persistent buffer (lkst.persist=), kept for the next boot: it cannot be %s",
			 block, cpu, strcmp(what, "deleting") ? "changed" : "deleted");
	case ENOSPC:
		lkst_die(LKST_EXIT_DEVICE, "cpu %u has no free block ID (at most %u); delete a block first",
			 cpu, LKST_MAX_BLOCKS);
	case EINVAL:
		lkst_die(LKST_EXIT_DEVICE, "%s block %u on cpu %u: the kernel rejected a value; check lkbuf list and sizes (%u..%u bytes)",
			 what, block, cpu, LKST_BLOCK_MIN_SIZE, LKST_BLOCK_MAX_SIZE);
	}
	snprintf(context, sizeof(context), "%s block %u on cpu %u", what, block, cpu);
	lkst_die_errno(err, context);
}

unsigned int lkbuf_cpu_option(const char *value, const char *verb)
{
	lkst_require(value, "-c CPU", verb);
	return lkst_option_u32(value, CPU_OPTION_MAX, "CPU number");
}

static unsigned int block_option(const char *value, const char *verb)
{
	lkst_require(value, "-b ID", verb);
	return lkst_option_u32(value, LKST_MAX_BLOCKS - 1, "block ID");
}

/* "none" means the block wraps onto itself. */
static unsigned int next_option(const char *value)
{
	if (!value || !strcmp(value, "none"))
		return LKST_NO_NEXT;
	return lkst_option_u32(value, LKST_MAX_BLOCKS - 1, "next block ID");
}

void lkbuf_check_cpu(const struct lkst_cmd *cmd, unsigned int cpu)
{
	if (cpu >= cmd->version.nr_cpu_ids)
		lkst_die(LKST_EXIT_USAGE, "cpu %u does not exist; this machine has CPUs 0..%u",
			 cpu, cmd->version.nr_cpu_ids - 1);
}

void lkbuf_cpu_info(int fd, unsigned int cpu, struct lkst_cpu_info *info)
{
	int ret;

	memset(info, 0, sizeof(*info));
	info->cpu = cpu;
	ret = lkst_dev_ioctl(fd, LKST_IOC_CPU_INFO, info);
	if (ret) {
		char what[48];

		snprintf(what, sizeof(what), "reading the state of cpu %u", cpu);
		lkst_die_errno(-ret, what);
	}
}

/* 0, or -ENOENT for an unused block ID; other errors exit. */
static int block_info(int fd, unsigned int cpu, unsigned int block,
		      struct lkst_block_info *info)
{
	int ret;

	memset(info, 0, sizeof(*info));
	info->cpu = cpu;
	info->block = block;
	ret = lkst_dev_ioctl(fd, LKST_IOC_BLOCK_INFO, info);
	if (ret && ret != -ENOENT)
		die_block(-ret, cpu, block, "reading");
	return ret;
}

/* ---- list ----------------------------------------------------------- */

static void list_cpu(int fd, unsigned int cpu)
{
	struct lkst_block_info block;
	struct lkst_cpu_info info;
	unsigned int id;

	lkbuf_cpu_info(fd, cpu, &info);
	if (!info.nr_blocks)
		return;
	printf("cpu %u (%s, %s): %u blocks; written %llu, overwritten %llu, dropped %llu\n",
	       cpu, info.online ? "online" : "offline",
	       info.mode == LKST_MODE_STOP ? "stop" : "overwrite", info.nr_blocks,
	       (unsigned long long)info.written,
	       (unsigned long long)info.overwritten,
	       (unsigned long long)info.dropped);
	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (block_info(fd, cpu, id, &block))
			continue;
		printf("  block %u: size %u, %u pages, next ", id, block.size,
		       block.nr_pages);
		if (block.next == LKST_NO_NEXT)
			printf("wrap");
		else
			printf("%u", block.next);
		if (id == info.current_block)
			printf(" [current: %llu of %u bytes used]",
			       (unsigned long long)info.current_offset, block.size);
		putchar('\n');
	}
}

static int run_list(struct lkst_cmd *cmd)
{
	unsigned int cpu;

	for (cpu = 0; cpu < cmd->version.nr_cpu_ids; cpu++)
		list_cpu(cmd->fd, cpu);
	return LKST_EXIT_OK;
}

static struct poptOption no_options[] = { LKST_POPT_TAIL };
const struct lkst_verb_ops lkbuf_list_ops = { no_options, NULL, NULL, run_list, NULL };

/* ---- create, link, delete, jump, mode, resize ----------------------- */

unsigned int lkbuf_mode_value(const char *value)
{
	if (!strcmp(value, "overwrite"))
		return LKST_MODE_OVERWRITE;
	if (!strcmp(value, "stop"))
		return LKST_MODE_STOP;
	lkst_die(LKST_EXIT_USAGE, "unknown buffer mode '%s'; give overwrite or stop", value);
}

void lkbuf_set_mode(int fd, unsigned int cpu, unsigned int mode)
{
	struct lkst_buffer_mode req = { cpu, mode };
	char what[48];
	int ret;

	ret = lkst_dev_ioctl(fd, LKST_IOC_BUFFER_MODE, &req);
	if (ret) {
		if (cpu == LKST_ALL_CPUS)
			snprintf(what, sizeof(what), "setting the mode of all CPUs");
		else
			snprintf(what, sizeof(what), "setting the mode of cpu %u", cpu);
		lkst_die_errno(-ret, what);
	}
}

unsigned int lkbuf_size_option(const char *value, const char *verb)
{
	uint64_t size;

	lkst_require(value, "-s SIZE", verb);
	if (lkst_parse_size(value, &size) || size < LKST_BLOCK_MIN_SIZE ||
	    size > LKST_BLOCK_MAX_SIZE)
		lkst_die(LKST_EXIT_USAGE, "bad block size '%s'; give %u..%u bytes, K and M suffixes allowed",
			 value, LKST_BLOCK_MIN_SIZE, LKST_BLOCK_MAX_SIZE);
	return size;
}

static char *cpu_arg, *size_arg, *next_arg, *mode_arg, *block_arg;
static int all_cpus;

#define CPU_OPT(help)	{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, help, "CPU" }

static struct poptOption create_options[] = {
	CPU_OPT("CPU of the block"),
	{ "size", 's', POPT_ARG_STRING, &size_arg, 0, "bytes (K/M suffix)", "SIZE" },
	{ "next", '\0', POPT_ARG_STRING, &next_arg, 0,
	  "block written after this one (default none: wrap onto itself)", "NEXT" },
	{ "mode", '\0', POPT_ARG_STRING, &mode_arg, 0,
	  "also set the CPU's buffer mode: overwrite or stop", "MODE" },
	LKST_POPT_TAIL
};

static struct lkst_block_create create_req;
static unsigned int create_mode;

static void check_create(struct lkst_cmd *cmd)
{
	(void)cmd;
	create_req.cpu = lkbuf_cpu_option(cpu_arg, "create");
	create_req.size = lkbuf_size_option(size_arg, "create");
	create_req.next = next_option(next_arg);
	create_mode = mode_arg ? lkbuf_mode_value(mode_arg) : 0;
}

static int run_create(struct lkst_cmd *cmd)
{
	struct lkst_block_create *req = &create_req;
	int ret;

	lkbuf_check_cpu(cmd, req->cpu);
	ret = lkst_dev_ioctl(cmd->fd, LKST_IOC_BLOCK_CREATE, req);
	if (ret == -EINVAL)
		lkst_die(LKST_EXIT_DEVICE, "creating a %u-byte block on cpu %u: the kernel rejected the size or next block; see lkbuf list",
			 req->size, req->cpu);
	if (ret)
		die_block(-ret, req->cpu, req->next, "creating");
	if (mode_arg)
		lkbuf_set_mode(cmd->fd, req->cpu, create_mode);
	printf("%u\n", req->block);	/* the new ID, for scripts */
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_create_ops = { create_options, NULL, check_create, run_create, NULL };

/*
 * link, delete and jump: one request on a block, each in its own struct
 * (struct lkst_block_link, _delete, _jump), of which verb fills which words.
 */
struct block_verb {
	const char *verb, *what;
	unsigned long ioctl;
	void *req;
	__u32 *cpu, *block, *next;	/* next: NULL but for link */
};

#define BLOCK_OPTS							\
	CPU_OPT("CPU of the block"),					\
	{ "block", 'b', POPT_ARG_STRING, &block_arg, 0, "block ID", "ID" }

static struct poptOption block_options[] = { BLOCK_OPTS, LKST_POPT_TAIL };
static struct poptOption link_options[] = {
	BLOCK_OPTS,
	{ "next", '\0', POPT_ARG_STRING, &next_arg, 0,
	  "next block, or none to wrap onto itself", "NEXT" },
	LKST_POPT_TAIL
};

static struct lkst_block_link link_req;
static struct lkst_block_delete delete_req;
static struct lkst_block_jump jump_req;

static void check_block(struct lkst_cmd *cmd)
{
	const struct block_verb *b = cmd->data;

	*b->cpu = lkbuf_cpu_option(cpu_arg, b->verb);
	*b->block = block_option(block_arg, b->verb);
	if (b->next) {
		lkst_require(next_arg, "--next NEXT", b->verb);
		*b->next = next_option(next_arg);
	}
}

static int run_block(struct lkst_cmd *cmd)
{
	const struct block_verb *b = cmd->data;
	int ret;

	lkbuf_check_cpu(cmd, *b->cpu);
	ret = lkst_dev_ioctl(cmd->fd, b->ioctl, b->req);
	if (ret)
		die_block(-ret, *b->cpu, *b->block, b->what);
	return LKST_EXIT_OK;
}

static const struct block_verb link_verb = { "link", "linking", LKST_IOC_BLOCK_LINK, &link_req,
	&link_req.cpu, &link_req.block, &link_req.next };
static const struct block_verb delete_verb = { "delete", "deleting", LKST_IOC_BLOCK_DELETE, &delete_req,
	&delete_req.cpu, &delete_req.block, NULL };
static const struct block_verb jump_verb = { "jump", "jumping to", LKST_IOC_BLOCK_JUMP, &jump_req,
	&jump_req.cpu, &jump_req.block, NULL };

const struct lkst_verb_ops lkbuf_link_ops = { link_options, NULL, check_block, run_block, &link_verb };
const struct lkst_verb_ops lkbuf_delete_ops = { block_options, NULL, check_block, run_block, &delete_verb };
const struct lkst_verb_ops lkbuf_jump_ops = { block_options, NULL, check_block, run_block, &jump_verb };

static struct poptOption mode_options[] = {
	CPU_OPT("this CPU's buffer"),
	{ "all", 'a', POPT_ARG_NONE, &all_cpus, 0, "every CPU's buffer", NULL },
	LKST_POPT_TAIL
};

static unsigned int mode_cpu = LKST_ALL_CPUS, mode;

static void check_mode(struct lkst_cmd *cmd)
{
	if (cmd->nr_args != 1)
		lkst_die(LKST_EXIT_USAGE, "mode: give one mode, overwrite or stop (see lkbuf mode --help)");
	mode = lkbuf_mode_value(cmd->args[0]);
	if (!!cpu_arg == !!all_cpus)
		lkst_die(LKST_EXIT_USAGE, "mode: give either -c CPU or -a (all CPUs)");
	if (cpu_arg)
		mode_cpu = lkbuf_cpu_option(cpu_arg, "mode");
}

static int run_mode(struct lkst_cmd *cmd)
{
	if (cpu_arg)
		lkbuf_check_cpu(cmd, mode_cpu);
	lkbuf_set_mode(cmd->fd, mode_cpu, mode);
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_mode_ops = { mode_options, "overwrite|stop", check_mode, run_mode, NULL };

static struct poptOption resize_options[] = {
	{ "size", 's', POPT_ARG_STRING, &size_arg, 0,
	  "new size of every block of every CPU, bytes (K/M suffix)", "SIZE" },
	LKST_POPT_TAIL
};

static struct lkst_buffer_resize resize_req;

static void check_resize(struct lkst_cmd *cmd)
{
	(void)cmd;
	resize_req.size = lkbuf_size_option(size_arg, "resize");
}

void lkbuf_resize(int fd, unsigned int size)
{
	struct lkst_buffer_resize req = { .size = size };
	int ret = lkst_dev_ioctl(fd, LKST_IOC_BUFFER_RESIZE, &req);

	if (ret == -ENOMEM)
		lkst_die(LKST_EXIT_DEVICE, "not enough kernel memory for %u-byte blocks; nothing was changed; give a smaller size",
			 size);
	if (ret == -EPERM)
		lkst_die(LKST_EXIT_DEVICE, "the buffers are persistent (lkst.persist=): their size is the reserve_mem region's, which the next boot finds them by; nothing was changed");
	if (ret)
		lkst_die_errno(-ret, "resizing the buffers");
}

static int run_resize(struct lkst_cmd *cmd)
{
	lkbuf_resize(cmd->fd, resize_req.size);
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_resize_ops = { resize_options, NULL, check_resize, run_resize, NULL };

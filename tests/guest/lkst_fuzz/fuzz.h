/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of lkst_fuzz share: a fuzzing thread's state and
 * counters, the run's globals, and the functions of each file.  The
 * program is described in main.c.
 */
#ifndef LKST_FUZZ_H
#define LKST_FUZZ_H

#include <stdatomic.h>
#include <stdint.h>
#include <pthread.h>
#include <linux/lkst_ioctl.h>
#include "../lkst_cmds.h"

#define PAGE		4096UL
#define MAX_THREADS	64
#define MAX_ERRNO	134
#define SMALL_SIZE	(64u << 10)	/* largest block a fuzzed request may allocate */
#define REC_PAGES	16		/* 256 records before a guard page */
#define NR_RECS		(REC_PAGES * PAGE / sizeof(struct lkst_record))
#define HOTPLUG_FILE	"/sys/devices/system/cpu/cpu1/online"
#define REOPEN_EVERY	20000

/* Per thread: let one slow-if-valid request through every so many calls. */
enum gate {
	G_RESIZE, G_CREATE, G_SET, G_MS_DELETE, G_MS_ACTIVE, G_BLK_DELETE,
	G_JUMP, G_SCAN, NR_GATES
};

#define CMD_UNKNOWN NR_CMDS		/* a number no command has */

enum place { P_NORMAL, P_MISALIGN, P_READONLY, P_TRUNC, P_BAD, NR_PLACES };
struct fuzzer {
	pthread_t thread;
	unsigned int id;
	uint64_t rng;
	unsigned long calls, todo;
	int fd;
	unsigned long gate_last[NR_GATES];
	unsigned char *arena;		/* a page, then an inaccessible page */
	unsigned char *ro_view;		/* a read-only view of ... */
	unsigned char *rw_view;		/* ... this page */
	unsigned char *recs_end;	/* 256 records end at a guard page */
	unsigned char *seqs_end;	/* 512 numbers end at a guard page */
	/* results */
	unsigned long cmd_calls[NR_CMDS + 1], cmd_ok[NR_CMDS + 1];
	unsigned long err[MAX_ERRNO + 1];
	unsigned long unexpected;
};

/* main.c: the run's parameters and what the kernel said of itself */
extern uint64_t seed;
extern unsigned int nr_cpu_ids;
extern unsigned int nr_known;
extern unsigned char known_list[LKST_NR_EVENT_IDS];
extern uintptr_t unmapped_addr;
extern atomic_uint active_maskset;
extern int persistent;

/* gen.c: random requests */
uint64_t splitmix(uint64_t *x);
unsigned int below(struct fuzzer *f, unsigned int n);
int chance(struct fuzzer *f, unsigned int percent);
extern atomic_ulong offline_cpu_requests;
void read_offline_cpus(void);
uint64_t bad_pointer(struct fuzzer *f);
void gen_struct(struct fuzzer *f, unsigned int c, void *buf, size_t size);
void bound_struct(struct fuzzer *f, unsigned int c, void *buf);
unsigned long unknown_cmd(struct fuzzer *f);

/* state.c: the tracer's state before the run, put back after it */
struct saved_state {
	unsigned int active;
	unsigned int nr_cpus;
	uint32_t block0_size[MAX_THREADS];
	uint32_t mode[MAX_THREADS];
	int has_blocks[MAX_THREADS];
	int ms_used[LKST_MAX_MASKSETS];
	struct lkst_maskset_desc ms[LKST_MAX_MASKSETS];
};
extern struct saved_state saved;
int save_state(int fd);
int restore_state(int fd);
void read_known_events(int fd);

#endif

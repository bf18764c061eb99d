// SPDX-License-Identifier: GPL-2.0
/*
 * bpfrec: make bench's libbpf peer, what a libbpf tool does.  It loads
 * bpfrec.bpf.c's programs (embedded at build time), attaches to each
 * tracepoint named on the command line (its index as the attach cookie)
 * the one that copies as many of its fields' bytes as it has, up to 32,
 * and drains the BPF ring buffer into FILE until SIGINT or SIGTERM, then
 * detaches, drains what is left and prints on stdout
 *   bpfrec records N bytes B lost L
 * (L: reservations that failed because the ring was full).  READY, when
 * given, is created once every tracepoint is attached, so a script can
 * start its workload then.
 *
 *   bpfrec -o FILE [-r READY] CATEGORY/NAME...
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpfrec.h"

/* The BPF object, compiled by clang -target bpf (Makefile: BPFREC_OBJ). */
__asm__(".section .rodata\n"
	".balign 8\n"
	".global bpfrec_obj\n"
	"bpfrec_obj:\n"
	".incbin \"" BPFREC_OBJ "\"\n"
	".global bpfrec_obj_end\n"
	"bpfrec_obj_end:\n"
	".previous\n");
extern const char bpfrec_obj[], bpfrec_obj_end[];

static volatile sig_atomic_t stopping;
static unsigned long long records, bytes;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "bpfrec: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/*
 * The bytes of CATEGORY/NAME's fields a program may copy: up to the end of
 * its last field (from its format in tracefs), at most the record's 32,
 * in 4-byte steps; -1 if the format cannot be read.
 */
static int field_bytes(const char *category, const char *name)
{
	static const char *const roots[] = { "/sys/kernel/tracing/events",
					     "/sys/kernel/debug/tracing/events" };
	unsigned int offset, size, end = 8;
	char path[512], line[512];
	FILE *f = NULL;
	size_t r;

	for (r = 0; !f && r < sizeof(roots) / sizeof(roots[0]); r++) {
		snprintf(path, sizeof(path), "%s/%s/%s/format", roots[r], category, name);
		f = fopen(path, "r");
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *o = strstr(line, "offset:"), *s = strstr(line, "size:");

		if (o && s && sscanf(o, "offset:%u;", &offset) == 1 &&
		    sscanf(s, "size:%u;", &size) == 1 && offset + size > end)
			end = offset + size;
	}
	fclose(f);
	end -= 8;
	return end > 32 ? 32 : (int)(end & ~3u);
}

static int save(void *ctx, void *data, size_t size)
{
	if (fwrite(data, size, 1, ctx) != 1)
		return -EIO;
	records++;
	bytes += size;
	return 0;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *ready = NULL;
	struct bpf_link **links;
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct ring_buffer *rb;
	unsigned long long lost = 0;
	int c, n, i, err, ncpus;
	__u64 *percpu;
	__u32 zero = 0;
	FILE *f;

	while ((c = getopt(argc, argv, "o:r:")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'r': ready = optarg; break;
		default: goto usage;
		}
	}
	n = argc - optind;
	if (!out || n < 1 || n > 65535)
		goto usage;
	f = fopen(out, "w");
	if (!f)
		die(out, errno);

	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	obj = bpf_object__open_mem(bpfrec_obj, bpfrec_obj_end - bpfrec_obj, NULL);
	err = libbpf_get_error(obj);
	if (err)
		die("opening the BPF object", err);
	err = bpf_object__load(obj);
	if (err)
		die("loading the BPF program", err);
	links = calloc(n, sizeof(*links));
	if (!links)
		die("calloc", ENOMEM);
	for (i = 0; i < n; i++) {
		LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = i);
		char *tp = argv[optind + i], *name = strchr(tp, '/');
		char prog_name[32];
		int fb;

		if (!name || name == tp || !name[1]) {
			fprintf(stderr, "bpfrec: %s: not CATEGORY/NAME\n", tp);
			return 2;
		}
		*name++ = '\0';
		fb = field_bytes(tp, name);
		if (fb < 0) {
			fprintf(stderr, "bpfrec: %s/%s: no format in tracefs\n", tp, name);
			return 1;
		}
		snprintf(prog_name, sizeof(prog_name), "bpfrec%d", fb);
		prog = bpf_object__find_program_by_name(obj, prog_name);
		if (!prog)
			die(prog_name, ENOENT);
		links[i] = bpf_program__attach_tracepoint_opts(prog, tp, name, &opts);
		err = libbpf_get_error(links[i]);
		if (err) {
			fprintf(stderr, "bpfrec: attaching to %s/%s: %s\n", tp, name, strerror(-err));
			return 1;
		}
	}

	rb = ring_buffer__new(bpf_map__fd(bpf_object__find_map_by_name(obj, "ring")),
			      save, f, NULL);
	err = libbpf_get_error(rb);
	if (err)
		die("ring_buffer__new", err);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (ready) {
		FILE *r = fopen(ready, "w");

		if (!r || fclose(r))
			die(ready, errno);
	}
	while (!stopping) {
		err = ring_buffer__poll(rb, 100);
		if (err < 0 && err != -EINTR)
			die("ring_buffer__poll", err);
	}
	/* Nothing more is written once detached: what is left is drained. */
	for (i = 0; i < n; i++)
		bpf_link__destroy(links[i]);
	err = ring_buffer__consume(rb);
	if (err < 0)
		die("ring_buffer__consume", err);

	ncpus = libbpf_num_possible_cpus();
	if (ncpus < 1)
		die("libbpf_num_possible_cpus", ncpus);
	percpu = calloc(ncpus, sizeof(*percpu));
	if (!percpu)
		die("calloc", ENOMEM);
	err = bpf_map_lookup_elem(bpf_map__fd(bpf_object__find_map_by_name(obj, "lost")),
				  &zero, percpu);
	if (err)
		die("reading the lost counters", errno);
	for (i = 0; i < ncpus; i++)
		lost += percpu[i];
	if (fclose(f))
		die(out, errno);
	printf("bpfrec records %llu bytes %llu lost %llu\n", records, bytes, lost);
	ring_buffer__free(rb);
	bpf_object__close(obj);
	return 0;
usage:
	fprintf(stderr, "usage: bpfrec -o FILE [-r READY] CATEGORY/NAME...\n");
	return 2;
}

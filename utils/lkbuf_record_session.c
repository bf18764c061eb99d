// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf record's session: one recorder at a time, the buffer size and
 * mode, a private maskset routing what -e chose (with --filter's
 * predicates), and the command it traces.  Everything changed is put back
 * by lkbuf_session_end(), which also runs at exit, so a failure after the
 * switch (lkst_die() exits) still restores the previous maskset.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lkbuf_cmds.h"
#include "lkbuf_record.h"
#include "lkst_pred.h"

#define FILTER_MODULE	"lkst_filter"

static const struct lkbuf_session_opts *opts;
static unsigned int new_mode;
static unsigned int new_size;

static struct session {
	int fd;
	int active, ended;
	/* The private maskset: written, then switched to from prev. */
	unsigned int prev, own;
	int written, switched;
	/* Predicates installed, and the ones they replaced (saved[ev]). */
	unsigned int filter;
	unsigned char installed[LKST_NR_EVENT_IDS];
	struct lkst_filter_prog *saved[LKST_NR_EVENT_IDS];
	/* Each CPU's mode before --mode (mode_cpus of them). */
	unsigned int *modes, nr_modes;
	int mode_set;
	/* The command: stopped on go_fd until released, exec errors on err_fd. */
	pid_t child;
	int go_fd, err_fd, released, reaped, status, exec_errno, kills;
} s = { .fd = -1, .go_fd = -1, .err_fd = -1 };

void lkbuf_session_check(const struct lkbuf_session_opts *o)
{
	struct lkst_filter_prog *prog;
	struct lkst_err err;
	unsigned int i, ev;
	size_t pos;

	opts = o;
	if (o->mode_arg)
		new_mode = lkbuf_mode_value(o->mode_arg);
	if (o->size_arg)
		new_size = lkbuf_size_option(o->size_arg, "record");
	if (!o->events)
		return;
	/* Every predicate compiles for every event it filters, before any change. */
	prog = malloc(sizeof(*prog));
	if (!prog)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	for (i = 0; i < o->events->nr; i++) {
		const struct lkbuf_rec_item *it = &o->events->items[i];
		const char *text = o->events->filters[it->option];

		for (ev = 0; text && ev < LKST_NR_EVENT_IDS; ev++) {
			if (!it->sel[ev] || !lkst_pred_compile(text, ev, prog, &pos, &err))
				continue;
			fprintf(stderr, "%s: filter for %s: %s\n  %s\n  %*s^\n", lkst_progname,
				lkst_event_by_id(ev)->mnemonic, err.msg, text, (int)pos, "");
			exit(LKST_EXIT_USAGE);
		}
	}
	free(prog);
}

/* Warnings only: this runs at exit too, where nothing may exit again. */
static void restore_warn(int ret, const char *what, unsigned int id)
{
	if (ret)
		fprintf(stderr, "%s: %s %u failed: %s; check lkm list and lkbuf list\n",
			lkst_progname, what, id, strerror(-ret));
}

static void session_mark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void session_mark(const char *fmt, ...)
{
	struct lkst_mark mark;
	char text[sizeof(mark.text) + 1];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);	/* cut to the 48 bytes a record holds */
	va_end(ap);
	memset(&mark, 0, sizeof(mark));
	memcpy(mark.text, text, strnlen(text, sizeof(mark.text)));
	ret = lkst_dev_ioctl(s.fd, LKST_IOC_MARK, &mark);
	if (ret)
		fprintf(stderr, "%s: cannot write the mark '%s': %s\n", lkst_progname,
			text, strerror(-ret));
}

static void session_exit(void)
{
	lkbuf_session_end();
}

/* The highest free user maskset ID, away from the low ones people pick. */
static unsigned int free_maskset(void)
{
	struct lkst_maskset_desc desc;
	unsigned int id;

	for (id = LKST_MAX_MASKSETS - 1; id >= LKST_MASKSET_FIRST_USER; id--) {
		memset(&desc, 0, sizeof(desc));
		desc.id = id;
		if (lkst_dev_lookup(s.fd, LKST_IOC_MASKSET_READ, &desc, "reading a maskset") == -ENOENT)
			return id;
	}
	lkst_die(LKST_EXIT_DEVICE, "no free maskset ID for the recording (%u..%u are used); delete one with lkm delete -m ID",
		 LKST_MASKSET_FIRST_USER, LKST_MAX_MASKSETS - 1);
}

/* --filter: each event's predicate installed, the one it replaces saved. */
static void install_filters(struct lkst_maskset_desc *desc, const char *filter[])
{
	struct lkst_filter_prog prog;
	struct lkst_err err;
	unsigned int ev;
	size_t pos;
	int ret;

	for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++) {
		if (!filter[ev])
			continue;
		if (!s.filter)
			s.filter = lkst_dev_handler_id(s.fd, "filter", FILTER_MODULE);
		if (desc->handler[ev] == s.filter)
			lkst_die(LKST_EXIT_USAGE, "%s: --filter routes through the filter handler already; give the handler the events go to",
				 lkst_event_by_id(ev)->mnemonic);
		memset(&prog, 0, sizeof(prog));
		prog.event = ev;
		ret = lkst_dev_handler_ctl(s.fd, s.filter, LKST_FILTER_GET, &prog, sizeof(prog));
		if (ret >= 0) {
			s.saved[ev] = malloc(sizeof(prog));
			if (!s.saved[ev])
				lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
			*s.saved[ev] = prog;
		} else if (ret != -ENOENT) {
			lkst_die_errno(-ret, "reading a predicate of the filter handler");
		}
		if (lkst_pred_compile(filter[ev], ev, &prog, &pos, &err))
			lkst_die(LKST_EXIT_USAGE, "filter: %s", err.msg);	/* checked before */
		prog.target = desc->handler[ev];
		s.installed[ev] = 1;
		ret = lkst_dev_handler_ctl(s.fd, s.filter, LKST_FILTER_SET, &prog, sizeof(prog));
		if (ret < 0)
			lkst_die_errno(-ret, "installing a predicate");
		desc->handler[ev] = s.filter;
	}
}

static void write_maskset(void)
{
	struct lkst_handler_names *names = malloc(sizeof(*names));
	struct lkst_maskset_desc desc;
	const char *filter[LKST_NR_EVENT_IDS];
	struct lkst_err err;
	int ret;

	if (!names)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	lkst_dev_load_handlers(s.fd, names);
	memset(&desc, 0, sizeof(desc));
	if (lkbuf_rec_resolve(opts->events, names, desc.handler, filter, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	free(names);
	/* The command's start and end are marks: always recorded. */
	if (desc.handler[LKST_EV_USER_MARK] == LKST_HANDLER_NOTHING)
		desc.handler[LKST_EV_USER_MARK] = LKST_HANDLER_DEFAULT;
	install_filters(&desc, filter);
	s.own = desc.id = free_maskset();
	snprintf(desc.name, sizeof(desc.name), "lkbuf-record-%d", (int)getpid());
	ret = lkst_dev_ioctl(s.fd, LKST_IOC_MASKSET_WRITE, &desc);
	if (ret)
		lkst_die_errno(-ret, "writing the recording's maskset");
	s.written = 1;
}

static void save_modes(void)
{
	struct lkst_version v;
	struct lkst_cpu_info info;
	unsigned int cpu;
	int ret = lkst_dev_ioctl(s.fd, LKST_IOC_GET_VERSION, &v);

	if (ret)
		lkst_die_errno(-ret, "reading the version");
	s.modes = calloc(v.nr_cpu_ids ? v.nr_cpu_ids : 1, sizeof(*s.modes));
	if (!s.modes)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	for (cpu = 0; cpu < v.nr_cpu_ids; cpu++) {
		lkbuf_cpu_info(s.fd, cpu, &info);
		s.modes[cpu] = info.nr_blocks ? info.mode : ~0u;
	}
	s.nr_modes = v.nr_cpu_ids;
}

static void fork_command(void)
{
	int go[2], errp[2];
	ssize_t n;
	char c;
	int e;

	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
		lkst_die(LKST_EXIT_DEVICE, "cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	s.child = fork();
	if (s.child < 0)
		lkst_die(LKST_EXIT_DEVICE, "cannot fork: %s", strerror(errno));
	if (!s.child) {
		close(go[1]);
		close(errp[0]);
		/* No byte (lkbuf ended before tracing began): never run. */
		while ((n = read(go[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			_exit(127);
		execvp(opts->command[0], (char *const *)opts->command);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(errp[1]);
	s.go_fd = go[1];
	s.err_fd = errp[0];
}

int lkbuf_session_start(int fd)
{
	struct lkst_version v;
	__u32 id;
	int ret;

	s.fd = fd;
	s.active = 1;
	atexit(session_exit);
	/*
	 * The lock is flock() on our open of /dev/lkst: the device is what
	 * recorders share, the guest has no /run to put a lock file in, and
	 * the kernel drops the lock when the recorder dies, even by SIGKILL,
	 * so no stale lock is ever left (the fd is O_CLOEXEC: the command
	 * does not inherit it).
	 */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		s.active = 0;
		if (errno == EWOULDBLOCK)
			lkst_die(LKST_EXIT_DEVICE, "another lkbuf record is running (it holds the lock on %s); nothing was changed; wait for it to end or stop it",
				 LKST_DEVICE);
		lkst_die(LKST_EXIT_DEVICE, "cannot lock %s: %s", LKST_DEVICE, strerror(errno));
	}
	ret = lkst_dev_ioctl(fd, LKST_IOC_GET_VERSION, &v);
	if (ret)
		lkst_die_errno(-ret, "reading the active maskset");
	s.prev = v.active_maskset;
	if (opts->mode_arg) {
		save_modes();
		s.mode_set = 1;
		lkbuf_set_mode(fd, LKST_ALL_CPUS, new_mode);
	}
	if (opts->size_arg)
		lkbuf_resize(fd, new_size);
	if (opts->events)
		write_maskset();
	if (opts->command)
		fork_command();
	if (opts->events) {
		id = s.own;
		ret = lkst_dev_ioctl(fd, LKST_IOC_MASKSET_SET, &id);
		if (ret)
			lkst_die_errno(-ret, "switching to the recording's maskset");
		s.switched = 1;
	}
	return opts->events != NULL;
}

int lkbuf_session_go(void)
{
	const char *prog = opts->command[0];
	ssize_t n;
	int e;

	session_mark("lkbuf record: exec pid %d: %s", (int)s.child, prog);
	s.released = 1;
	if (write(s.go_fd, "g", 1) != 1)
		lkst_die(LKST_EXIT_DEVICE, "cannot start the command: %s", strerror(errno));
	close(s.go_fd);
	s.go_fd = -1;
	/* End of file: the exec worked (the pipe closes on exec). */
	while ((n = read(s.err_fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(s.err_fd);
	s.err_fd = -1;
	if (n != (ssize_t)sizeof(e))
		return 0;
	s.exec_errno = e;
	while (waitpid(s.child, &s.status, 0) < 0 && errno == EINTR)
		;
	s.reaped = 1;
	session_mark("lkbuf record: exit pid %d cannot exec", (int)s.child);
	fprintf(stderr, "%s: cannot execute %s: %s\n", lkst_progname, prog, strerror(e));
	return -1;
}

int lkbuf_session_child(void)
{
	return s.child && !s.reaped ? (int)s.child : 0;
}

int lkbuf_session_reaped(void)
{
	pid_t pid;

	if (!s.child || s.reaped)
		return 1;
	pid = waitpid(s.child, &s.status, WNOHANG);
	if (pid != s.child)
		return 0;
	s.reaped = 1;
	if (WIFSIGNALED(s.status))
		session_mark("lkbuf record: exit pid %d signal %d", (int)s.child,
			     WTERMSIG(s.status));
	else
		session_mark("lkbuf record: exit pid %d status %d", (int)s.child,
			     WEXITSTATUS(s.status));
	return 1;
}

void lkbuf_session_signal(int sig)
{
	if (!lkbuf_session_child())
		return;
	kill(s.child, s.kills++ ? SIGKILL : sig);
}

int lkbuf_session_end(void)
{
	unsigned int ev, cpu;
	__u32 id;
	int ret;

	if (!s.active || s.ended)
		goto status;
	s.ended = 1;
	if (s.go_fd >= 0) {
		close(s.go_fd);		/* the command never runs */
		s.go_fd = -1;
		while (s.child && waitpid(s.child, &s.status, 0) < 0 && errno == EINTR)
			;
		s.reaped = 1;
		s.exec_errno = -1;
	} else if (lkbuf_session_child()) {
		fprintf(stderr, "%s: the command (pid %d) goes on, no longer traced\n",
			lkst_progname, (int)s.child);
	}
	if (s.switched) {
		id = s.prev;
		restore_warn(lkst_dev_ioctl(s.fd, LKST_IOC_MASKSET_SET, &id),
			     "switching back to maskset", s.prev);
	}
	if (s.written) {
		id = s.own;
		restore_warn(lkst_dev_ioctl(s.fd, LKST_IOC_MASKSET_DELETE, &id),
			     "deleting the recording's maskset", s.own);
	}
	for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++) {
		__u32 which = ev;

		if (!s.installed[ev])
			continue;
		if (s.saved[ev])
			ret = lkst_dev_handler_ctl(s.fd, s.filter, LKST_FILTER_SET,
						   s.saved[ev], sizeof(*s.saved[ev]));
		else
			ret = lkst_dev_handler_ctl(s.fd, s.filter, LKST_FILTER_CLEAR,
						   &which, sizeof(which));
		restore_warn(ret < 0 ? ret : 0, "restoring the predicate of event", ev);
		free(s.saved[ev]);
	}
	for (cpu = 0; s.mode_set && cpu < s.nr_modes; cpu++) {
		struct lkst_buffer_mode req = { cpu, s.modes[cpu] };

		if (s.modes[cpu] != ~0u)
			restore_warn(lkst_dev_ioctl(s.fd, LKST_IOC_BUFFER_MODE, &req),
				     "restoring the mode of cpu", cpu);
	}
	free(s.modes);
status:
	if (!s.child)
		return LKST_EXIT_OK;
	if (s.exec_errno)
		return s.exec_errno == ENOENT || s.exec_errno < 0 ? 127 : 126;
	if (!s.reaped)
		return LKST_EXIT_OK;
	if (WIFSIGNALED(s.status))
		return 128 + WTERMSIG(s.status);
	return WEXITSTATUS(s.status);
}

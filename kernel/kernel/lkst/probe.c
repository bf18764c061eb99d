// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic probes: events made at run time, fired by a kprobe or a
 * kretprobe (LKST_IOC_PROBE_ADD, LKST_IOC_PROBE_DEL).
 *
 * lkm parses kprobe_events-style fetch arguments into struct lkst_fetch;
 * the kernel only checks those small structs, and writes them back as
 * text into the event's argument descriptions.  A probe's handler runs in
 * the probed function's context, any context up to NMI: it reads
 * registers and memory (copy_from_kernel_nofault(), never a fault) and
 * dispatches like a hook, so it takes no lock and allocates nothing.
 * Removal unregisters the probe first, which waits for running handlers,
 * then removes the event.  The handlers themselves cannot be probed
 * (NOKPROBE_SYMBOL), as kprobe_events' cannot; a probe on the tracer's
 * write path is a kprobe hit inside a kprobe handler, which kprobes
 * counts as missed.
 */
#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include "internal.h"

struct lkst_kprobe {
	struct list_head node;
	char name[LKST_NAME_LEN];
	unsigned int event;
	unsigned int nr_args;
	bool uses_args;		/* a return probe saves arguments at entry */
	struct lkst_fetch fetch[LKST_NR_ARGS];
	union {
		struct kprobe kp;
		struct kretprobe rp;
	};
	bool is_return;
};

static LIST_HEAD(lkst_probes);
static DEFINE_MUTEX(lkst_probe_mutex);

#ifdef CONFIG_X86
static const unsigned short lkst_reg_offset[LKST_NR_REGS] = {
	[LKST_REG_AX] = offsetof(struct pt_regs, ax),
	[LKST_REG_BX] = offsetof(struct pt_regs, bx),
	[LKST_REG_CX] = offsetof(struct pt_regs, cx),
	[LKST_REG_DX] = offsetof(struct pt_regs, dx),
	[LKST_REG_SI] = offsetof(struct pt_regs, si),
	[LKST_REG_DI] = offsetof(struct pt_regs, di),
	[LKST_REG_BP] = offsetof(struct pt_regs, bp),
	[LKST_REG_SP] = offsetof(struct pt_regs, sp),
	[LKST_REG_R8] = offsetof(struct pt_regs, r8),
	[LKST_REG_R9] = offsetof(struct pt_regs, r9),
	[LKST_REG_R10] = offsetof(struct pt_regs, r10),
	[LKST_REG_R11] = offsetof(struct pt_regs, r11),
	[LKST_REG_R12] = offsetof(struct pt_regs, r12),
	[LKST_REG_R13] = offsetof(struct pt_regs, r13),
	[LKST_REG_R14] = offsetof(struct pt_regs, r14),
	[LKST_REG_R15] = offsetof(struct pt_regs, r15),
	[LKST_REG_IP] = offsetof(struct pt_regs, ip),
	[LKST_REG_FLAGS] = offsetof(struct pt_regs, flags),
};

/* This architecture's registers have names; the others are refused. */
static const char *const lkst_reg_name[LKST_NR_REGS] = {
	"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "r8", "r9", "r10",
	"r11", "r12", "r13", "r14", "r15", "ip", "flags",
};
#else /* CONFIG_ARM64 */
#define LKST_REG_ARM64(n) \
	[LKST_REG_X0 + (n)] = offsetof(struct pt_regs, regs[n])
static const unsigned short lkst_reg_offset[LKST_NR_REGS] = {
	LKST_REG_ARM64(0), LKST_REG_ARM64(1), LKST_REG_ARM64(2),
	LKST_REG_ARM64(3), LKST_REG_ARM64(4), LKST_REG_ARM64(5),
	LKST_REG_ARM64(6), LKST_REG_ARM64(7), LKST_REG_ARM64(8),
	LKST_REG_ARM64(9), LKST_REG_ARM64(10), LKST_REG_ARM64(11),
	LKST_REG_ARM64(12), LKST_REG_ARM64(13), LKST_REG_ARM64(14),
	LKST_REG_ARM64(15), LKST_REG_ARM64(16), LKST_REG_ARM64(17),
	LKST_REG_ARM64(18), LKST_REG_ARM64(19), LKST_REG_ARM64(20),
	LKST_REG_ARM64(21), LKST_REG_ARM64(22), LKST_REG_ARM64(23),
	LKST_REG_ARM64(24), LKST_REG_ARM64(25), LKST_REG_ARM64(26),
	LKST_REG_ARM64(27), LKST_REG_ARM64(28), LKST_REG_ARM64(29),
	LKST_REG_ARM64(30),
	[LKST_REG_SP] = offsetof(struct pt_regs, sp),
	[LKST_REG_PC] = offsetof(struct pt_regs, pc),
	[LKST_REG_PSTATE] = offsetof(struct pt_regs, pstate),
};

static const char *const lkst_reg_name[LKST_NR_REGS] = {
	[LKST_REG_X0] = "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
	"x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18",
	"x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
	"x29", "x30", "pc", "pstate",
	[LKST_REG_SP] = "sp",
};
#endif

static bool lkst_fetch_name_ok(const char *name, size_t size)
{
	size_t len = strnlen(name, size), i;

	if (len == size)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return false;
	for (; i < size; i++)
		if (name[i])
			return false;
	return true;
}

static bool lkst_fetch_type_ok(const struct lkst_fetch *f)
{
	bool comm = f->kind == LKST_FETCH_COMM || f->kind == LKST_FETCH_COMM2;

	if (comm)
		return f->type == (f->kind == LKST_FETCH_COMM ? LKST_ARG_COMM :
				   LKST_ARG_COMM2) && f->size == 8;
	switch (f->type) {
	case LKST_ARG_NONE:
	case LKST_ARG_COMM:
	case LKST_ARG_COMM2:
	case LKST_ARG_TEXT:
	case LKST_ARG_STACKPOS:
		return false;
	default:
		return f->type < LKST_NR_ARG_TYPES;
	}
}

/* One spec of a probe with @nr_args slots; @i is its slot. */
static int lkst_probe_check_fetch(const struct lkst_fetch *fetch,
				  unsigned int i, unsigned int nr_args,
				  bool is_return)
{
	const struct lkst_fetch *f = &fetch[i];
	unsigned int d;

	if (f->__pad[0] || f->__pad[1] || f->__pad[2] ||
	    !lkst_fetch_name_ok(f->name, sizeof(f->name)))
		return -EINVAL;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -EINVAL;
	if (f->nr_deref > LKST_PROBE_MAX_DEREF)
		return -EINVAL;
	for (d = f->nr_deref; d < LKST_PROBE_MAX_DEREF; d++)
		if (f->offset[d])
			return -EINVAL;
	if (!lkst_fetch_type_ok(f))
		return -EINVAL;
	switch (f->kind) {
	case LKST_FETCH_REG:
		return f->index < LKST_NR_REGS && lkst_reg_name[f->index] ?
			0 : -EINVAL;
	case LKST_FETCH_ARG:
		return f->index >= 1 && f->index <= LKST_NR_ARGS ? 0 : -EINVAL;
	case LKST_FETCH_RETVAL:
		return is_return && !f->index ? 0 : -EINVAL;
	case LKST_FETCH_COMM:
		if (f->index || f->nr_deref || i + 1 >= nr_args ||
		    fetch[i + 1].kind != LKST_FETCH_COMM2)
			return -EINVAL;
		return 0;
	case LKST_FETCH_COMM2:
		if (f->index || f->nr_deref || !i ||
		    fetch[i - 1].kind != LKST_FETCH_COMM)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

/* What PROBE_ADD accepts: the probe's own fields and every spec. */
int lkc_probe_check(const struct lkst_probe *req)
{
	static const struct lkst_fetch unused;
	bool is_return = req->flags & LKST_PROBE_RETURN;
	unsigned int i;
	int ret;

	if (req->id || req->__pad || req->flags & ~LKST_PROBE_RETURN ||
	    req->nr_args > LKST_NR_ARGS)
		return -EINVAL;
	if (!memchr(req->name, 0, sizeof(req->name)) ||
	    !memchr(req->symbol, 0, sizeof(req->symbol)) || !req->symbol[0])
		return -EINVAL;
	/* A kretprobe is on the function's entry; kprobe's offset is 32-bit. */
	if ((is_return && req->offset) || req->offset > UINT_MAX)
		return -EINVAL;
	for (i = 0; i < LKST_NR_ARGS; i++) {
		if (i >= req->nr_args) {
			if (memcmp(&req->fetch[i], &unused, sizeof(unused)))
				return -EINVAL;
			continue;
		}
		ret = lkst_probe_check_fetch(req->fetch, i, req->nr_args,
					     is_return);
		if (ret)
			return ret;
	}
	return 0;
}

static const char *lkst_fetch_type_name(const struct lkst_fetch *f,
					char *buf, size_t size)
{
	switch (f->type) {
	case LKST_ARG_DEC:
		snprintf(buf, size, "s%u", f->size * 8);
		return buf;
	case LKST_ARG_UDEC:
		snprintf(buf, size, "u%u", f->size * 8);
		return buf;
	case LKST_ARG_HEX:
		snprintf(buf, size, "x%u", f->size * 8);
		return buf;
	case LKST_ARG_PID:
		return "pid";
	case LKST_ARG_STATE:
		return "state";
	case LKST_ARG_SYSNR:
		return "sysnr";
	case LKST_ARG_RETVAL:
		return "errno";
	case LKST_ARG_KSYM:
		return "symbol";
	case LKST_ARG_UADDR:
		return "uaddr";
	default:
		return "?";
	}
}

/*
 * The spec as kprobe_events writes it, "[name=]+8(+16(%di)):x64"; "$comm"
 * for a COMM, and nothing for its COMM2 slot.
 */
void lkc_probe_format(const struct lkst_fetch *f, char *buf, size_t size)
{
	char base[16], type[8], *p = buf, *end = buf + size;
	int d;

	buf[0] = 0;
	if (f->kind == LKST_FETCH_COMM2)
		return;
	if (f->name[0])
		p += scnprintf(p, end - p, "%s=", f->name);
	switch (f->kind) {
	case LKST_FETCH_REG:
		snprintf(base, sizeof(base), "%%%s", lkst_reg_name[f->index]);
		break;
	case LKST_FETCH_ARG:
		snprintf(base, sizeof(base), "$arg%u", f->index);
		break;
	case LKST_FETCH_RETVAL:
		strscpy(base, "$retval", sizeof(base));
		break;
	case LKST_FETCH_COMM:
		scnprintf(p, end - p, "$comm");
		return;
	default:
		strscpy(base, "?", sizeof(base));
		break;
	}
	for (d = f->nr_deref - 1; d >= 0; d--)
		p += scnprintf(p, end - p, "%+d(", f->offset[d]);
	p += scnprintf(p, end - p, "%s", base);
	for (d = 0; d < f->nr_deref; d++)
		p += scnprintf(p, end - p, ")");
	scnprintf(p, end - p, ":%s",
		  lkst_fetch_type_name(f, type, sizeof(type)));
}

/*
 * The value of one spec, in the probed function's context.  @saved holds
 * the arguments a return probe saved at entry, NULL in an entry probe.
 */
u64 lkc_probe_fetch(const struct lkst_fetch *f, struct pt_regs *regs,
		    const unsigned long *saved)
{
	unsigned int d, bits = f->size * 8;
	unsigned long val;
	u64 word;

	switch (f->kind) {
	case LKST_FETCH_REG:
		val = *(unsigned long *)((char *)regs +
					 lkst_reg_offset[f->index]);
		break;
	case LKST_FETCH_ARG:
		val = saved ? saved[f->index - 1] :
			      regs_get_kernel_argument(regs, f->index - 1);
		break;
	case LKST_FETCH_RETVAL:
		val = regs_return_value(regs);
		break;
	case LKST_FETCH_COMM:
		return lkst_comm_arg(current->comm, 0);
	case LKST_FETCH_COMM2:
		return lkst_comm_arg(current->comm, 1);
	default:
		return 0;
	}
	for (d = 0; d < f->nr_deref; d++) {
		word = 0;
		/* Little endian: a narrow last load fills the low bytes. */
		if (copy_from_kernel_nofault(&word,
					     (void *)(val + f->offset[d]),
					     d + 1 == f->nr_deref ? f->size : 8))
			return 0;
		val = word;
	}
	if (bits == 64)
		return val;
	if (f->type == LKST_ARG_DEC || f->type == LKST_ARG_RETVAL)
		return (u64)sign_extend64(val, bits - 1);
	return val & GENMASK_ULL(bits - 1, 0);
}
NOKPROBE_SYMBOL(lkc_probe_fetch);

/*
 * The registers of the probe being dispatched, per CPU and context level
 * (a dispatch and the handlers it calls run at one level; a nested one,
 * at another), for lkst_probe_stack().
 */
struct lkst_probe_regs {
	struct pt_regs *level[4];
};

static DEFINE_PER_CPU(struct lkst_probe_regs, lkst_probe_regs);

static void lkst_probe_fire(const struct lkst_kprobe *p, struct pt_regs *regs,
			    const unsigned long *saved, bool trapped)
{
	u64 v[LKST_NR_ARGS] = { };
	unsigned int i, level, outer_trap = 0;
	struct pt_regs *outer;

	/* The key is on only while the active maskset routes the event. */
	if (!static_key_enabled(&lkst_event_keys[p->event]))
		return;
	for (i = 0; i < p->nr_args; i++)
		v[i] = lkc_probe_fetch(&p->fetch[i], regs, saved);
	if (trapped)
		outer_trap = lkc_trap_enter();
	level = lkst_event_context();
	/* A dispatch of that level it interrupted keeps its own. */
	outer = this_cpu_read(lkst_probe_regs.level[level]);
	this_cpu_write(lkst_probe_regs.level[level], regs);
	lkst_hook_dispatch(p->event, v[0], v[1], v[2], v[3], v[4], v[5]);
	this_cpu_write(lkst_probe_regs.level[level], outer);
	if (trapped)
		lkc_trap_exit(outer_trap);
}
NOKPROBE_SYMBOL(lkst_probe_fire);

/*
 * Whether the kprobe @kp was hit through its int3 (@regs: the registers
 * its pre-handler was given).  On x86 that handler runs in NMI context
 * (exc_int3() -> irqentry_nmi_enter()), which belongs to the probed code,
 * not to the event.  In NMI context a real NMI may also reach the probe
 * another way, and the byte at the address cannot tell which: ftrace and
 * the kprobe optimizer put an int3 there while they patch the site
 * (text_poke_bp(), whose poke_int3_handler() emulates the new instruction
 * before any NMI accounting), and a probe being disarmed has its original
 * byte back while its handler still runs.  The ways in are told apart by
 * what the probe machinery did:
 *  - a probe on ftrace is called from ftrace's callback, never by a trap;
 *  - an optimized probe's detour builds its pt_regs right below the probed
 *    code's stack pointer, which optimized_callback() stores in regs->sp;
 *    an int3's frame lies below the gap the IDT entry leaves to emulate a
 *    call, or below FRED's red zone, so its end is never regs->sp.
 * arm64 takes its BRK without entering NMI context, and has neither
 * optimized nor ftrace probes: no probe of its is taken for a trap.
 */
bool lkc_kprobe_trapped(struct kprobe *kp, struct pt_regs *regs)
{
#ifdef CONFIG_X86
	if (!in_nmi() || kprobe_ftrace(kp))
		return false;
	return regs->sp != (unsigned long)(regs + 1);
#else
	return false;
#endif
}
NOKPROBE_SYMBOL(lkc_kprobe_trapped);

/**
 * lkst_probe_stack() - the kernel stack of the dynamic probe whose event
 *	is being handled
 * @store: where the return addresses go, the probed address first
 * @size: room in @store, in entries
 *
 * A kprobe's own frames (its handler, an optimized probe's trampoline)
 * are not all unwindable, so the stack of a probe's event starts from the
 * probed function's registers: its first frame is the probed address.
 *
 * Context: a handler's handle(), preemption off (NMI included); a
 * preemptible caller is refused with a warning.  Never sleeps.
 * Return: the number of entries stored; 0 for an event that is not a
 * dynamic probe's, for a refused caller, and always in lkst.ko (the
 * module build: stack_trace_save_regs() is not exported).
 */
unsigned int lkst_probe_stack(unsigned long *store, unsigned int size)
{
	struct pt_regs *regs;

	if (WARN_ON_ONCE(preemptible()))
		return 0;
	regs = this_cpu_read(lkst_probe_regs.level[lkst_event_context()]);
#ifdef MODULE
	/* stack_trace_save_regs() is not exported: lkst.ko has no such stack. */
	return 0;
#else
	return regs ? stack_trace_save_regs(regs, store, size, 0) : 0;
#endif
}
EXPORT_SYMBOL_NS_GPL(lkst_probe_stack, LKST);
NOKPROBE_SYMBOL(lkst_probe_stack);

static int lkst_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	lkst_probe_fire(container_of(kp, struct lkst_kprobe, kp), regs, NULL,
			lkc_kprobe_trapped(kp, regs));
	return 0;
}
NOKPROBE_SYMBOL(lkst_kprobe_pre);

static int lkst_kretprobe_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	unsigned long *saved = (unsigned long *)ri->data;
	unsigned int i;

	for (i = 0; i < LKST_NR_ARGS; i++)
		saved[i] = regs_get_kernel_argument(regs, i);
	return 0;
}
NOKPROBE_SYMBOL(lkst_kretprobe_entry);

static int lkst_kretprobe_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct lkst_kprobe *p;

	if (!rp)
		return 0;
	p = container_of(rp, struct lkst_kprobe, rp);
	/* Returns come through a trampoline, in the probed context. */
	lkst_probe_fire(p, regs, p->uses_args ? (unsigned long *)ri->data :
						  NULL, false);
	return 0;
}
NOKPROBE_SYMBOL(lkst_kretprobe_ret);

static struct lkst_event_desc *lkst_probe_desc(const struct lkst_probe *req)
{
	struct lkst_event_desc *desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	unsigned int i;

	if (!desc)
		return NULL;
	strscpy(desc->mnemonic, req->name, sizeof(desc->mnemonic));
	if (req->flags & LKST_PROBE_RETURN)
		snprintf(desc->description, sizeof(desc->description),
			 "kretprobe: return from %s", req->symbol);
	else
		snprintf(desc->description, sizeof(desc->description),
			 "kprobe: %s+%llu", req->symbol, req->offset);
	for (i = 0; i < req->nr_args; i++) {
		desc->arg_type[i] = req->fetch[i].type;
		lkc_probe_format(&req->fetch[i], desc->arg_desc[i],
				 sizeof(desc->arg_desc[i]));
	}
	return desc;
}

static int lkst_probe_register(struct lkst_kprobe *p,
			       const struct lkst_probe *req)
{
	struct kprobe *kp = p->is_return ? &p->rp.kp : &p->kp;

	kp->symbol_name = kstrdup(req->symbol, GFP_KERNEL);
	if (!kp->symbol_name)
		return -ENOMEM;
	kp->offset = req->offset;
	if (!p->is_return) {
		kp->pre_handler = lkst_kprobe_pre;
		return register_kprobe(kp);
	}
	p->rp.handler = lkst_kretprobe_ret;
	if (p->uses_args) {
		p->rp.entry_handler = lkst_kretprobe_entry;
		p->rp.data_size = LKST_NR_ARGS * sizeof(unsigned long);
	}
	/* Calls that sleep each hold an instance; enough for a busy CPU. */
	p->rp.maxactive = max_t(int, 64, 4 * num_possible_cpus());
	return register_kretprobe(&p->rp);
}

static void lkst_probe_free(struct lkst_kprobe *p)
{
	kfree(p->is_return ? p->rp.kp.symbol_name : p->kp.symbol_name);
	kfree(p);
}

int lkc_ioc_probe_add(struct lkst_probe *req)
{
	struct lkst_event_desc *desc;
	struct lkst_kprobe *p;
	unsigned int i;
	int ret, event;

	/* As the kprobe tracer asks at each registration. */
	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (ret)
		return ret;
	ret = lkc_probe_check(req);
	if (ret)
		return ret;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	desc = lkst_probe_desc(req);
	if (!p || !desc) {
		ret = -ENOMEM;
		goto out;
	}
	strscpy(p->name, req->name, sizeof(p->name));
	p->nr_args = req->nr_args;
	p->is_return = req->flags & LKST_PROBE_RETURN;
	memcpy(p->fetch, req->fetch, sizeof(p->fetch));
	for (i = 0; i < p->nr_args; i++)
		if (p->fetch[i].kind == LKST_FETCH_ARG)
			p->uses_args = true;

	mutex_lock(&lkst_probe_mutex);
	event = lkst_event_add_dynamic(desc);
	if (event < 0) {
		ret = event;
		goto unlock;
	}
	p->event = event;
	ret = lkst_probe_register(p, req);
	if (ret) {
		lkst_event_remove_dynamic(event);
		goto unlock;
	}
	list_add_tail(&p->node, &lkst_probes);
	/* lkst.ko stays while a probe lives: rmmod says EBUSY. */
	__module_get(THIS_MODULE);
	p = NULL;
	ret = event;
unlock:
	mutex_unlock(&lkst_probe_mutex);
out:
	if (p)
		lkst_probe_free(p);
	kfree(desc);
	return ret;
}

static bool lkst_probe_matches(const struct lkst_kprobe *p,
			       const struct lkst_probe *req)
{
	if (req->id)
		return p->event == req->id;
	return !strcasecmp(p->name, req->name);
}

int lkc_ioc_probe_del(struct lkst_probe *req)
{
	struct lkst_kprobe *p, *found = NULL;

	if (req->__pad || !memchr(req->name, 0, sizeof(req->name)) ||
	    (!req->id && !req->name[0]))
		return -EINVAL;
	mutex_lock(&lkst_probe_mutex);
	list_for_each_entry(p, &lkst_probes, node) {
		if (lkst_probe_matches(p, req)) {
			found = p;
			break;
		}
	}
	if (!found) {
		mutex_unlock(&lkst_probe_mutex);
		return -ENOENT;
	}
	list_del(&found->node);
	/* Waits for handlers still running; none starts after it. */
	if (found->is_return)
		unregister_kretprobe(&found->rp);
	else
		unregister_kprobe(&found->kp);
	lkst_event_remove_dynamic(found->event);
	mutex_unlock(&lkst_probe_mutex);
	lkst_probe_free(found);
	module_put(THIS_MODULE);
	return 0;
}

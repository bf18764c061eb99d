// SPDX-License-Identifier: GPL-2.0
/*
 * Text forms of records and masksets.  Pure: no device access.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "lkst_format.h"
#include "lkst_symbols.h"

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

static const char hex_digits[] = "0123456789abcdef";

/*
 * Escapes bytes up to the first NUL: printable ones as they are, others and
 * backslash (so "\\x41" in a name stays unambiguous) as \xNN.  Truncates
 * like snprintf, always terminated.
 */
static void escape_bytes(const unsigned char *bytes, size_t n, char *buf, size_t len)
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
			char esc[4] = { '\\', 'x', hex_digits[c >> 4], hex_digits[c & 15] };
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
	escape_bytes(bytes, sizeof(bytes), buf, len);
}

void lkst_format_text(const __u64 *args, unsigned int nr_args, char *buf, size_t len)
{
	unsigned char bytes[LKST_NR_ARGS * 8];

	if (nr_args > LKST_NR_ARGS)
		nr_args = LKST_NR_ARGS;
	memcpy(bytes, args, nr_args * 8);
	escape_bytes(bytes, nr_args * 8, buf, len);
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
static int text_continues(const struct lkst_event_info *ev, unsigned int index)
{
	return ev->args[index].type == LKST_ARG_TEXT && index > 0 &&
	       ev->args[index - 1].type == LKST_ARG_TEXT;
}

/* The number of consecutive TEXT arguments from index on. */
static unsigned int text_run(const struct lkst_event_info *ev, unsigned int index)
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

	if (lkst_symtab_format(opts->symbols, value, sym, sizeof(sym)))
		snprintf(buf, len, "%s", sym);
	else
		snprintf(buf, len, "0x%llx", value);
}

/* Whether argument index of a STACK_* record is past its stack's frames. */
static int stack_slot_unused(const struct lkst_record *rec, unsigned int index)
{
	unsigned long long pos = rec->arg[0];

	if (rec->event != LKST_EV_STACK_KERNEL && rec->event != LKST_EV_STACK_USER)
		return 0;
	return index > 0 && LKST_STACK_POS_FIRST(pos) + index - 1 >= LKST_STACK_POS_TOTAL(pos) &&
	       !rec->arg[index];
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
		snprintf(buf, len, "%s%d",
			 LKST_SYSCALL_ABI(value) == LKST_SYSCALL_ABI_IA32 ? "ia32:" : "",
			 LKST_SYSCALL_NR(value));
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
		if (!text_continues(ev, index))
			lkst_format_text(&rec->arg[index], text_run(ev, index), buf, len);
		break;
	case LKST_ARG_STACKPOS:
		format_stackpos(value, buf, len);
		break;
	case LKST_ARG_KSYM:
		if (!stack_slot_unused(rec, index))
			format_ksym(opts, value, buf, len);
		break;
	case LKST_ARG_UADDR:
		if (!stack_slot_unused(rec, index))
			snprintf(buf, len, "0x%llx", value);
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
	if (ev->args[index].type == LKST_ARG_COMM2 || text_continues(ev, index))
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
static size_t probe_key(const char *desc, unsigned int i, char *key)
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

		if (!arg_is_shown(ev, i, &shown))
			continue;
		f->arg = i;
		f->type = ev ? field_type(ev->args[i].type) : LKST_FIELD_HEX;
		if (ev && ev->category == LKST_CAT_PROBE && ev->args[i].desc)
			probe_key(ev->args[i].desc, i, f->name);
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

/* ---- Buffered output ------------------------------------------------ */

/*
 * Room a record needs at most: 6 args of key, escaped and quoted value
 * (under 2 KiB), and the excess of the fixed-size copies past its end
 * (up to 64 bytes, see put_fixed).
 */
#define RECORD_MAX	4096

void lkst_outbuf_init(struct lkst_outbuf *o, FILE *fp)
{
	unsigned int i;

	o->fp = fp;
	o->len = 0;
	o->cache.time_high.value = ~0ull;
	o->cache.time_secs.value = ~0ull;
	o->cache.clock_valid = 0;
	for (i = 0; i < sizeof(o->cache.state) / sizeof(o->cache.state[0]); i++)
		o->cache.state[i].valid = 0;
}

void lkst_outbuf_flush(struct lkst_outbuf *o)
{
	if (o->len)
		fwrite(o->buf, 1, o->len, o->fp);
	o->len = 0;
}

static inline void put_char(struct lkst_outbuf *o, char c)
{
	o->buf[o->len++] = c;
}

static inline void put_mem(struct lkst_outbuf *o, const char *s, size_t n)
{
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void put_str(struct lkst_outbuf *o, const char *s)
{
	put_mem(o, s, strlen(s));
}

/*
 * The first n bytes of src, which has size bytes (n <= size): a copy of
 * constant size, much cheaper than one of n bytes, whose excess lands in
 * the room the buffer keeps past a record (RECORD_MAX) and is overwritten.
 */
static inline void put_fixed(struct lkst_outbuf *o, const void *src, size_t size, size_t n)
{
	memcpy(o->buf + o->len, src, size);
	o->len += n;
}

/*
 * Numbers are written by hand: they are most of every record, and printf's
 * generality costs several times more.  Eight digits at a time are made in
 * one 64-bit word, the first digit in its lowest byte (little-endian); the
 * output buffer has room past a record (RECORD_MAX), so a word is stored
 * whole and only the digits wanted are counted.
 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORD_DIGITS	1
#else
#define WORD_DIGITS	0
static const char dec_pairs[] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";
#endif

static inline unsigned int dec_digits(uint32_t v)	/* v < 10^8 */
{
	if (v < 10000)
		return v < 100 ? 1 + (v >= 10) : 3 + (v >= 1000);
	return v < 1000000 ? 5 + (v >= 100000) : 7 + (v >= 10000000);
}

/* The 8 decimal digits of v < 10^8, zero padded, as text in a word. */
static inline uint64_t dec8(uint32_t v)
{
	uint64_t y = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
	uint64_t q = (y * 5243 >> 19) & 0x0000007f0000007full;	/* 4 digits / 100 */
	uint64_t z = q | (y - q * 100) << 16;
	uint64_t d = (z * 103 >> 10) & 0x000f000f000f000full;	/* 2 digits / 10 */

	return (d | (z - d * 10) << 8) + 0x3030303030303030ull;
}

/* The last len (<= 8) digits of v < 10^8, zero padded, at p. */
static inline void dec_put(char *p, uint32_t v, unsigned int len)
{
#if WORD_DIGITS
	uint64_t w = dec8(v) >> (8 * (8 - len));

	memcpy(p, &w, 8);
#else
	char *end = p + len;

	for (; len >= 2; len -= 2) {
		end -= 2;
		memcpy(end, &dec_pairs[2 * (v % 100)], 2);
		v /= 100;
	}
	if (len)
		end[-1] = '0' + v % 10;
#endif
}

/* Decimal. */
static void put_dec(struct lkst_outbuf *o, unsigned long long v)
{
	char *p = o->buf + o->len;
	unsigned int n;

	if (v < 100000000) {
		n = dec_digits(v);
		dec_put(p, v, n);
	} else if (v < 10000000000000000ull) {
		uint32_t hi = v / 100000000;

		n = dec_digits(hi);
		dec_put(p, hi, n);
		dec_put(p + n, v % 100000000, 8);
		n += 8;
	} else {
		uint32_t top = v / 10000000000000000ull;

		n = dec_digits(top);
		dec_put(p, top, n);
		dec_put(p + n, v / 100000000 % 100000000, 8);
		dec_put(p + n + 8, v % 100000000, 8);
		n += 16;
	}
	o->len += n;
}

/* v < 10^width, as exactly width (<= 9) digits, zero padded. */
static void put_dec_fixed(struct lkst_outbuf *o, uint32_t v, unsigned int width)
{
	if (width > 8) {
		put_char(o, '0' + v / 100000000);
		v %= 100000000;
		width = 8;
	}
	dec_put(o->buf + o->len, v, width);
	o->len += width;
}

static inline void put_u64(struct lkst_outbuf *o, unsigned long long v)
{
	if (v < 10)
		put_char(o, '0' + v);
	else
		put_dec(o, v);
}

static void put_s64(struct lkst_outbuf *o, long long v)
{
	if (v < 0) {
		put_char(o, '-');
		put_u64(o, -(unsigned long long)v);
	} else {
		put_u64(o, v);
	}
}

#if WORD_DIGITS
/* The 8 hex digits of v, as text in a word. */
static inline uint64_t hex8(uint32_t v)
{
	uint64_t x = v, letters;

	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	x = __builtin_bswap64(x);			/* first digit in the lowest byte */
	letters = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	return x + 0x3030303030303030ull + letters * ('a' - '0' - 10);
}
#endif

/* "0x" and at least min_digits hex digits, like printf's 0x%0Nllx. */
static void put_hex(struct lkst_outbuf *o, unsigned long long v, unsigned int min_digits)
{
	unsigned int n = (64 - __builtin_clzll(v | 1) + 3) / 4;
	char *p = o->buf + o->len;

	n = n < min_digits ? min_digits : n;
	p[0] = '0';
	p[1] = 'x';
	o->len += 2 + n;
#if WORD_DIGITS
	if (n <= 8) {
		uint64_t w = hex8(v) >> (8 * (8 - n));

		memcpy(p + 2, &w, 8);
	} else {
		uint64_t hi = hex8(v >> 32) >> (8 * (16 - n)), lo = hex8(v);

		memcpy(p + 2, &hi, 8);
		memcpy(p + 2 + n - 8, &lo, 8);
	}
#else
	for (p += 2 + n; n; n--) {
		*--p = hex_digits[v & 15];
		v >>= 4;
	}
#endif
}

static void put_csv_field(struct lkst_outbuf *o, const char *field)
{
	const char *p;

	if (!strpbrk(field, ",\"\r\n")) {
		put_str(o, field);
		return;
	}
	put_char(o, '"');
	for (p = field; *p; p++) {
		if (*p == '"')
			put_char(o, '"');
		put_char(o, *p);
	}
	put_char(o, '"');
}

/* Task states repeat: the last decodings are kept, by a hash of the state. */
static void put_state(struct lkst_outbuf *o, unsigned long long state)
{
	struct lkst_outbuf_state *cache = o->cache.state;
	unsigned int slot = (state * 0x9e3779b97f4a7c15ull) >> 58;

	if (!cache[slot].valid || cache[slot].state != state) {
		lkst_format_state(state, cache[slot].text, sizeof(cache[slot].text));
		cache[slot].len = strlen(cache[slot].text);
		cache[slot].state = state;
		cache[slot].valid = 1;
	}
	if (cache[slot].len <= 64)
		put_fixed(o, cache[slot].text, 64, cache[slot].len);
	else
		put_mem(o, cache[slot].text, cache[slot].len);
}

/*
 * The errno name of a system call's return value in -4095..-1, also the
 * kernel's own restart codes; NULL for others and unknown numbers.
 */
const char *lkst_errno_name(long long ret)
{
	static const char *const kernel_codes[] = {
		"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
		"ERESTART_RESTARTBLOCK", "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM",
	};

	if (ret >= 0 || ret < -4095)
		return NULL;
	if (-ret >= 512 && -ret < 512 + (long long)(sizeof(kernel_codes) / sizeof(kernel_codes[0])))
		return kernel_codes[-ret - 512];
	return strerrorname_np((int)-ret);
}

/*
 * What lkst_errpath records, and a system call exit that failed as it
 * defines it (number -1 is rt_sigreturn: its value is the user's rax).
 */
int lkst_record_is_error(const struct lkst_record *rec)
{
	if (rec->event == LKST_EV_SYSCALL_ERROR || rec->event == LKST_EV_EXCEPTION_FAULT_SIGNAL)
		return 1;
	return rec->event == LKST_EV_SYSCALL_EXIT && LKST_SYSCALL_NR(rec->arg[0]) != -1 &&
	       (long long)rec->arg[1] < 0 && (long long)rec->arg[1] >= -4095;
}

/*
 * Bytes up to the first NUL (at most n) that escape_bytes would copy as
 * they are and that CSV need not quote: written directly; 0 if any byte
 * needs more (then the caller escapes as usual).
 */
static int put_plain(struct lkst_outbuf *o, const unsigned char bytes[LKST_NR_ARGS * 8],
		     size_t n, int csv)
{
	size_t i;

	for (i = 0; i < n && bytes[i]; i++) {
		unsigned char c = bytes[i];

		if (c < 0x20 || c > 0x7e || c == '\\' || (csv && (c == ',' || c == '"')))
			return 0;
	}
	put_fixed(o, bytes, LKST_NR_ARGS * 8, i);
	return 1;
}

/*
 * A command name (COMM and the COMM2 after it) or a run of TEXT arguments
 * from index on, escaped; csv quotes it if it must be.
 */
static __attribute__((noinline)) void
put_text_arg(struct lkst_outbuf *o, const struct lkst_record *rec,
	     const struct lkst_event_info *ev, unsigned int index, int csv)
{
	unsigned char bytes[LKST_NR_ARGS * 8];
	char text[LKST_NR_ARGS * 8 * 4 + 1];
	unsigned int n;

	if (ev->args[index].type == LKST_ARG_COMM) {
		n = 2;
		memcpy(bytes, &rec->arg[index], 8);
		memset(bytes + 8, 0, 8);
		if (index + 1 < LKST_NR_ARGS)
			memcpy(bytes + 8, &rec->arg[index + 1], 8);
	} else if (!text_continues(ev, index)) {
		n = text_run(ev, index);
		memcpy(bytes, &rec->arg[index], n * 8);
	} else {
		return;
	}
	if (put_plain(o, bytes, n * 8, csv))
		return;
	escape_bytes(bytes, n * 8, text, sizeof(text));
	if (csv)
		put_csv_field(o, text);
	else
		put_str(o, text);
}

/* A STACKPOS or a KSYM, as lkst_format_arg() shows it. */
static __attribute__((noinline)) void
put_stack_arg(struct lkst_outbuf *o, const struct lkst_record *rec, unsigned int index,
	      const struct lkst_format_opts *opts, int csv)
{
	char text[256];

	lkst_format_arg(rec, index, opts, text, sizeof(text));
	if (csv)
		put_csv_field(o, text);
	else
		put_str(o, text);
}

/* One argument's value; csv quotes the fields that may need it. */
static inline void put_arg(struct lkst_outbuf *o, const struct lkst_record *rec,
			   const struct lkst_event_info *ev, unsigned int index,
			   const struct lkst_format_opts *opts, int csv)
{
	unsigned long long value = rec->arg[index];

	if (!ev || opts->raw) {
		put_hex(o, value, 1);
		return;
	}
	switch (ev->args[index].type) {
	case LKST_ARG_NONE:
	case LKST_ARG_COMM2:
		break;
	case LKST_ARG_DEC:
		put_s64(o, (long long)value);
		break;
	case LKST_ARG_RETVAL:
		put_s64(o, (long long)value);
		if (!csv && lkst_errno_name((long long)value)) {
			put_char(o, '(');
			put_str(o, lkst_errno_name((long long)value));
			put_char(o, ')');
		}
		break;
	case LKST_ARG_UDEC:
	case LKST_ARG_PID:
		put_u64(o, value);
		break;
	case LKST_ARG_SYSNR:
		if (LKST_SYSCALL_ABI(value) == LKST_SYSCALL_ABI_IA32)
			put_mem(o, "ia32:", 5);
		put_s64(o, LKST_SYSCALL_NR(value));
		break;
	case LKST_ARG_STATE:
		put_state(o, value);
		break;
	case LKST_ARG_COMM:
	case LKST_ARG_TEXT:
		put_text_arg(o, rec, ev, index, csv);
		break;
	case LKST_ARG_STACKPOS:
	case LKST_ARG_KSYM:
		put_stack_arg(o, rec, index, opts, csv);
		break;
	case LKST_ARG_HEX:
	default:
		put_hex(o, value, 1);
		break;
	}
}

/* ---- Records -------------------------------------------------------- */

/*
 * Times of records in a row share their leading digits: the number above
 * the last eight digits (or the seconds) is kept from the record before.
 */
/* v < 10^8 from the cache; false if it is not that small. */
static inline int put_cached(struct lkst_outbuf *o, struct lkst_outbuf_digits *c,
			     unsigned long long v)
{
	if (v >= 100000000)
		return 0;
	if (v != c->value) {
		c->len = dec_digits(v);
		dec_put(c->text, v, c->len);
		c->value = v;
	}
	memcpy(o->buf + o->len, c->text, 8);
	o->len += c->len;
	return 1;
}

static void put_time(struct lkst_outbuf *o, unsigned long long ns,
		     const struct lkst_format_opts *opts)
{
	if (opts->seconds) {
		if (!put_cached(o, &o->cache.time_secs, ns / 1000000000ull))
			put_u64(o, ns / 1000000000ull);
		put_char(o, '.');
		put_dec_fixed(o, ns % 1000000000ull, 9);
	} else if (ns >= 100000000 && put_cached(o, &o->cache.time_high, ns / 100000000)) {
		put_dec_fixed(o, ns % 100000000, 8);
	} else {
		put_u64(o, ns);
	}
}

/* hh:mm:ss.uuuuuu of CLOCK_REALTIME in local time; o keeps the last second. */
static void put_clock_time(struct lkst_outbuf *o, unsigned long long ns,
			   const struct lkst_format_opts *opts)
{
	/* Wraps rather than overflows on a corrupt clock or anchor. */
	long long real = (long long)(ns + (unsigned long long)opts->realtime_offset_ns);
	long long sec = real / 1000000000ll, frac = real % 1000000000ll;

	if (frac < 0) {
		frac += 1000000000ll;
		sec--;
	}

	if (!o->cache.clock_valid || sec != o->cache.clock_sec) {
		time_t t = (time_t)sec;
		struct tm tm;

		if (localtime_r(&t, &tm))
			snprintf(o->cache.clock_hms, sizeof(o->cache.clock_hms), "%02d:%02d:%02d",
				 tm.tm_hour, tm.tm_min, tm.tm_sec);
		else
			snprintf(o->cache.clock_hms, sizeof(o->cache.clock_hms), "??:??:??");
		o->cache.clock_sec = sec;
		o->cache.clock_valid = 1;
	}
	put_str(o, o->cache.clock_hms);
	put_char(o, '.');
	put_dec_fixed(o, frac / 1000, 6);
}

/*
 * What the formats need of an event, worked out once per ID: its name
 * (the mnemonic or UNKNOWN_0xNN), which arguments are shown with and
 * without -r, and the text form's "key=" of each.
 */
#define TEXT_KEY_LEN	64

struct event_fmt {
	int ready;
	const struct lkst_event_info *ev;
	size_t name_len;
	const char *name;
	char name_text[32];		/* the name if it fits, NUL padded */
	unsigned char shown[2][LKST_NR_ARGS];	/* [opts->raw] */
	unsigned char key_len[LKST_NR_ARGS];
	char key[LKST_NR_ARGS][TEXT_KEY_LEN];	/* "key=" */
};

static void event_fmt_init(struct event_fmt *f, unsigned int id)
{
	static const struct lkst_format_opts cooked = { 0 }, raw = { .raw = 1 };
	const struct lkst_event_info *ev = lkst_event_by_id(id);
	unsigned int i, n;
	const char *p;

	f->ev = ev;
	memset(f->name_text, 0, sizeof(f->name_text));
	if (ev) {
		f->name = ev->mnemonic;
		strncpy(f->name_text, ev->mnemonic, sizeof(f->name_text) - 1);
	} else {
		snprintf(f->name_text, sizeof(f->name_text), "UNKNOWN_0x%02x", id);
		f->name = f->name_text;
	}
	f->name_len = strlen(f->name);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		f->shown[0][i] = arg_is_shown(ev, i, &cooked);
		f->shown[1][i] = arg_is_shown(ev, i, &raw);
		/* "prev pid" -> "prev_pid", so text pairs split cleanly on spaces. */
		if (!ev || !ev->args[i].desc || !ev->args[i].desc[0]) {
			n = snprintf(f->key[i], TEXT_KEY_LEN, "arg%u", i + 1);
		} else if (ev->args[i].type == LKST_ARG_STACKPOS) {
			n = snprintf(f->key[i], TEXT_KEY_LEN, "stack");
		} else if (ev->category == LKST_CAT_PROBE) {
			n = probe_key(ev->args[i].desc, i, f->key[i]);
		} else {
			for (n = 0, p = ev->args[i].desc; *p && n < 63; p++, n++)
				f->key[i][n] = isspace((unsigned char)*p) || *p == '=' ? '_' : *p;
		}
		f->key[i][n++] = '=';
		f->key_len[i] = n;
	}
	f->ready = 1;
}

static inline void put_event_name(struct lkst_outbuf *o, const struct event_fmt *f)
{
	if (f->name_len < sizeof(f->name_text))
		put_fixed(o, f->name_text, sizeof(f->name_text), f->name_len);
	else
		put_mem(o, f->name, f->name_len);
}

/* The event's formats; IDs past the table's are worked out every time. */
static const struct event_fmt *event_fmt(unsigned int id, struct event_fmt *spare)
{
	/*
	 * Derived from the active event table, and like it process-wide and
	 * not thread-safe (lkst.h); worked out again when the table changes.
	 */
	static struct event_fmt fmts[LKST_NR_EVENT_IDS];
	static unsigned int fmts_generation;
	unsigned int generation = lkst_events_generation();

	if (generation != fmts_generation) {
		unsigned int i;

		for (i = 0; i < LKST_NR_EVENT_IDS; i++)
			fmts[i].ready = 0;
		fmts_generation = generation;
	}
	if (id >= LKST_NR_EVENT_IDS) {
		event_fmt_init(spare, id);
		return spare;
	}
	if (!fmts[id].ready)
		event_fmt_init(&fmts[id], id);
	return &fmts[id];
}

static inline void put_context(struct lkst_outbuf *o, unsigned int context)
{
	static const struct {
		char name[8];
		size_t len;
	} names[] = { { "task", 4 }, { "softirq", 7 }, { "irq", 3 }, { "nmi", 3 } };

	if (context < 4)
		put_mem(o, names[context].name, names[context].len);
	else
		put_str(o, lkst_context_name(context));
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

static void format_csv(struct lkst_outbuf *o, const struct lkst_record *rec,
		       unsigned int cpu, const struct lkst_format_opts *opts)
{
	struct event_fmt spare;
	const struct event_fmt *f = event_fmt(rec->event, &spare);
	const unsigned char *shown = f->shown[!!opts->raw];
	const struct lkst_event_info *ev = f->ev;
	unsigned int i;

	put_time(o, rec->time_ns, opts);
	put_char(o, ',');
	put_u64(o, cpu);
	put_char(o, ',');
	put_u64(o, rec->pid);
	put_char(o, ',');
	put_context(o, rec->context);
	put_char(o, ',');
	put_event_name(o, f);
	put_char(o, ',');
	put_hex(o, rec->event, 2);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		if (opts->verbose) {
			put_char(o, ',');
			if (shown[i] && ev && ev->args[i].desc)
				put_csv_field(o, ev->args[i].desc);
		}
		put_char(o, ',');
		if (shown[i])
			put_arg(o, rec, ev, i, opts, 1);
	}
	put_char(o, '\n');
}

static void format_text(struct lkst_outbuf *o, const struct lkst_record *rec,
			unsigned int cpu, const struct lkst_format_opts *opts)
{
	struct event_fmt spare;
	const struct event_fmt *f = event_fmt(rec->event, &spare);
	const unsigned char *shown = f->shown[!!opts->raw];
	unsigned int i;

	if (opts->human) {
		const char *comm = opts->comms ?
			lkst_comm_map_name(opts->comms, rec->pid, cpu) : NULL;

		put_clock_time(o, rec->time_ns, opts);
		put_mem(o, "  #", 3);
		put_u64(o, cpu);
		put_mem(o, "  ", 2);
		put_u64(o, rec->pid);
		put_mem(o, "  ", 2);
		put_str(o, comm ? comm : "?");
		put_mem(o, "  ", 2);
	} else {
		put_time(o, rec->time_ns, opts);
		put_mem(o, " cpu=", 5);
		put_u64(o, cpu);
		put_mem(o, " pid=", 5);
		put_u64(o, rec->pid);
		put_mem(o, " ctx=", 5);
		put_context(o, rec->context);
		put_char(o, ' ');
	}
	/* On the mnemonic: the time stays the first field. */
	if (lkst_record_is_error(rec))
		put_char(o, '!');
	put_event_name(o, f);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		if (!shown[i] || (!opts->raw && stack_slot_unused(rec, i)))
			continue;
		put_char(o, ' ');
		put_fixed(o, f->key[i], sizeof(f->key[i]), f->key_len[i]);
		put_arg(o, rec, f->ev, i, opts, 0);
	}
	put_char(o, '\n');
}

/* lkbuf print --stacks: a STACK_* record's frames, a line each. */
static void format_stack_lines(struct lkst_outbuf *o, const struct lkst_record *rec,
			       const struct lkst_format_opts *opts)
{
	unsigned int first = LKST_STACK_POS_FIRST(rec->arg[0]), i;
	char frame[256];

	for (i = 1; i < LKST_NR_ARGS; i++) {
		if (stack_slot_unused(rec, i))
			continue;
		lkst_format_arg(rec, i, opts, frame, sizeof(frame));
		put_str(o, rec->event == LKST_EV_STACK_KERNEL ? "    kernel #" : "    user   #");
		put_u64(o, first + i - 1);
		put_mem(o, "  ", 2);
		put_str(o, frame);
		put_char(o, '\n');
	}
}

void lkst_format_record_buf(struct lkst_outbuf *o, const struct lkst_record *rec,
			    unsigned int cpu, const struct lkst_format_opts *opts)
{
	if (o->len > sizeof(o->buf) - RECORD_MAX)
		lkst_outbuf_flush(o);
	if (opts->stacks && !opts->csv && !opts->raw &&
	    (rec->event == LKST_EV_STACK_KERNEL || rec->event == LKST_EV_STACK_USER))
		format_stack_lines(o, rec, opts);
	else if (opts->csv)
		format_csv(o, rec, cpu, opts);
	else
		format_text(o, rec, cpu, opts);
}

void lkst_format_record(FILE *out, const struct lkst_record *rec, unsigned int cpu,
			const struct lkst_format_opts *opts)
{
	struct lkst_outbuf *o = malloc(sizeof(*o));

	if (!o)
		return;
	lkst_outbuf_init(o, out);
	lkst_format_record_buf(o, rec, cpu, opts);
	lkst_outbuf_flush(o);
	free(o);
}

/* ---- Command names of pids ------------------------------------------ */

#define COMM_TEXT_LEN	(16 * 4 + 1)

struct comm_slot {
	unsigned long long key;		/* pid + 1, or (cpu + 1) << 32 for pid 0 */
	unsigned char raw[16];
	char name[COMM_TEXT_LEN];
};

struct lkst_comm_map {
	struct comm_slot *slots;
	size_t cap, used;		/* cap is a power of two */
};

struct lkst_comm_map *lkst_comm_map_new(void)
{
	struct lkst_comm_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->cap = 1024;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

void lkst_comm_map_free(struct lkst_comm_map *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m);
}

static unsigned long long comm_key(__u32 pid, unsigned int cpu)
{
	return pid ? (unsigned long long)pid + 1 : ((unsigned long long)cpu + 1) << 32;
}

static struct comm_slot *comm_find(struct comm_slot *slots, size_t cap,
				   unsigned long long key)
{
	size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20 & (cap - 1);

	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int comm_grow(struct lkst_comm_map *m)
{
	struct comm_slot *slots = calloc(m->cap * 2, sizeof(*slots));
	size_t i;

	if (!slots)
		return -1;
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*comm_find(slots, m->cap * 2, m->slots[i].key) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap *= 2;
	return 0;
}

static void comm_set(struct lkst_comm_map *m, unsigned long long key,
		     const __u64 *comm_args)
{
	struct comm_slot *s;

	if (m->used * 2 >= m->cap && comm_grow(m))
		return;			/* out of memory: the name stays unknown */
	s = comm_find(m->slots, m->cap, key);
	if (s->key && !memcmp(s->raw, comm_args, 16))
		return;
	if (!s->key)
		m->used++;
	s->key = key;
	memcpy(s->raw, comm_args, 16);
	lkst_format_comm(comm_args[0], comm_args[1], s->name, sizeof(s->name));
}

void lkst_comm_map_learn(struct lkst_comm_map *m, const struct lkst_record *rec,
			 unsigned int cpu)
{
	if (rec->event == LKST_EV_PROCESS_CONTEXTSWITCH)
		comm_set(m, comm_key(rec->arg[1], cpu), &rec->arg[4]);
	else if (rec->event == LKST_EV_PROCESS_WAKEUP)
		comm_set(m, comm_key(rec->arg[0], rec->arg[2]), &rec->arg[4]);
}

const char *lkst_comm_map_name(const struct lkst_comm_map *m, __u32 pid,
			       unsigned int cpu)
{
	const struct comm_slot *s = comm_find(m->slots, m->cap, comm_key(pid, cpu));

	return s->key ? s->name : NULL;
}

/* ---- Record filters ------------------------------------------------- */

/* Calls fn for each comma-separated item (empty items are errors). */
static int each_item(const char *list, const char *what,
		     int (*fn)(struct lkst_filter *, const char *, struct lkst_err *),
		     struct lkst_filter *f, struct lkst_err *err)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	if (!list || !*list || list[strlen(list) - 1] == ',' || strstr(list, ",,") ||
	    list[0] == ',') {
		lkst_seterr(err, "empty item in %s list '%s'; give a comma-separated list",
			    what, list ? list : "");
		return -1;
	}
	copy = strdup(list);
	if (!copy) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save))
		ret = fn(f, item, err);
	free(copy);
	return ret;
}

int lkst_filter_events(struct lkst_filter *f, const char *list, struct lkst_err *err)
{
	f->by_event = 1;
	return lkst_parse_event_list(list, f->event, err) < 0 ? -1 : 0;
}

/* One more number of a pid or CPU list; the message names the list. */
static int add_u32(__u32 **list, size_t *n, const char *item, uint32_t max,
		   const char *what, struct lkst_err *err)
{
	__u32 *grown;
	uint32_t v;

	if (lkst_parse_u32(item, max, &v)) {
		lkst_seterr(err, "bad %s '%s' in the %s filter; give %ss 0-%u, decimal or 0x hex",
			    what, item, what, what, max);
		return -1;
	}
	grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	*list = grown;
	grown[(*n)++] = v;
	return 0;
}

static int add_pid(struct lkst_filter *f, const char *item, struct lkst_err *err)
{
	return add_u32(&f->pids, &f->nr_pids, item, UINT32_MAX, "pid", err);
}

int lkst_filter_pids(struct lkst_filter *f, const char *list, struct lkst_err *err)
{
	return each_item(list, "pid", add_pid, f, err);
}

static int add_comm(struct lkst_filter *f, const char *item, struct lkst_err *err)
{
	char **comms;

	if (strlen(item) >= COMM_TEXT_LEN) {
		lkst_seterr(err, "command name '%s' is too long to match (at most %d characters as printed); check the name",
			    item, COMM_TEXT_LEN - 1);
		return -1;
	}
	comms = realloc(f->comms, (f->nr_comms + 1) * sizeof(*comms));
	if (!comms || !(comms[f->nr_comms] = strdup(item))) {
		if (comms)
			f->comms = comms;
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	f->comms = comms;
	f->nr_comms++;
	return 0;
}

int lkst_filter_comms(struct lkst_filter *f, const char *list, struct lkst_err *err)
{
	return each_item(list, "command name", add_comm, f, err);
}

#define CPU_FILTER_MAX	65535u

static int add_cpu(struct lkst_filter *f, const char *item, struct lkst_err *err)
{
	return add_u32(&f->cpus, &f->nr_cpus, item, CPU_FILTER_MAX, "CPU", err);
}

int lkst_filter_cpus(struct lkst_filter *f, const char *list, struct lkst_err *err)
{
	return each_item(list, "CPU", add_cpu, f, err);
}

int lkst_parse_seconds(const char *s, unsigned long long *ns)
{
	unsigned long long sec = 0, frac = 0;
	int digits = 0, frac_digits = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > (UINT64_MAX / 1000000000ull - 9) / 10)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, frac_digits++) {
			if (frac_digits >= 9)
				return -1;
			frac = frac * 10 + (*s - '0');
		}
		if (!frac_digits)
			return -1;
	}
	if (*s || !digits)
		return -1;
	while (frac_digits++ < 9)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* n digits (min..max of them) as a number at most limit; advances *s. */
static int parse_digits(const char **s, int min, int max, int limit, int *out)
{
	int n = 0, v = 0;

	while (n < max && **s >= '0' && **s <= '9') {
		v = v * 10 + (**s - '0');
		(*s)++;
		n++;
	}
	if (n < min || (**s >= '0' && **s <= '9') || v > limit)
		return -1;
	*out = v;
	return 0;
}

/* "hh:mm:ss[.frac]": seconds since midnight and nanoseconds. */
static int parse_time_of_day(const char *s, int *hms, unsigned long long *frac_ns)
{
	int h, m, sec;
	unsigned long long frac = 0;
	int frac_digits = 0;

	if (parse_digits(&s, 1, 2, 23, &h) || *s++ != ':' ||
	    parse_digits(&s, 2, 2, 59, &m) || *s++ != ':' ||
	    parse_digits(&s, 2, 2, 59, &sec))
		return -1;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, frac_digits++) {
			if (frac_digits >= 9)
				return -1;
			frac = frac * 10 + (*s - '0');
		}
		if (!frac_digits)
			return -1;
	}
	if (*s)
		return -1;
	while (frac_digits++ < 9)
		frac *= 10;
	*hms = h * 3600 + m * 60 + sec;
	*frac_ns = frac;
	return 0;
}

/*
 * A time of day on the anchor's local day (plus extra_days) as trace-clock
 * ns: 0, -1 if that is not a time the trace clock can hold.
 */
static int time_of_day_to_trace(int hms, unsigned long long frac_ns, int extra_days,
				const struct lkst_clock_anchor *a, unsigned long long *ns)
{
	time_t t = (time_t)(a->realtime_ns / 1000000000ull);
	long long offset = (long long)(a->realtime_ns - a->trace_ns);
	long long real;
	struct tm tm;
	time_t day;

	tzset();
	if (!localtime_r(&t, &tm))
		return -1;
	tm.tm_mday += extra_days;
	tm.tm_hour = hms / 3600;
	tm.tm_min = hms / 60 % 60;
	tm.tm_sec = hms % 60;
	tm.tm_isdst = -1;
	day = mktime(&tm);
	if (day == (time_t)-1 || day < 0 || (unsigned long long)day > UINT64_MAX / 2000000000ull)
		return -1;
	real = (long long)day * 1000000000ll + (long long)frac_ns;
	if (real < offset)
		return -1;	/* before the trace clock's zero */
	*ns = (unsigned long long)(real - offset);
	return 0;
}

/* One side of a window; empty sides are the caller's. */
static int window_side(const char *side, const char *range, const char *which,
		       const struct lkst_clock_anchor *anchor, int *is_tod, int *hms,
		       unsigned long long *frac_ns, unsigned long long *ns,
		       struct lkst_err *err)
{
	*is_tod = strchr(side, ':') != NULL;
	if (!*is_tod) {
		if (lkst_parse_seconds(side, ns)) {
			lkst_seterr(err, "bad %s '%s' in time window '%s'; give seconds of the trace clock (12.5) or a time of day (hh:mm:ss[.frac]), either side may be empty",
				    which, side, range);
			return -1;
		}
		return 0;
	}
	if (parse_time_of_day(side, hms, frac_ns)) {
		lkst_seterr(err, "bad time of day '%s' in time window '%s'; give hh:mm:ss[.frac] with hours 0-23, as the default text prints it",
			    side, range);
		return -1;
	}
	if (!anchor) {
		lkst_seterr(err, "time of day '%s' in time window '%s' needs a log's clock anchor; with CSV input give seconds of the trace clock",
			    side, range);
		return -1;
	}
	return 0;
}

/* A side's time of day on the anchor's day (+ days) to *ns, or an error. */
static int window_tod(const char *range, int hms, unsigned long long frac_ns, int days,
		      const struct lkst_clock_anchor *anchor, unsigned long long *ns,
		      struct lkst_err *err)
{
	if (!time_of_day_to_trace(hms, frac_ns, days, anchor, ns))
		return 0;
	lkst_seterr(err, "time window '%s' starts or ends before the trace clock's start (on the day of the log's clock anchor); give seconds of the trace clock",
		    range);
	return -1;
}

int lkst_parse_window(const char *range, const struct lkst_clock_anchor *anchor,
		      unsigned long long *start_ns, unsigned long long *end_ns,
		      struct lkst_err *err)
{
	const char *comma = range ? strchr(range, ',') : NULL;
	int start_tod = 0, end_tod = 0, start_hms = 0, end_hms = 0;
	unsigned long long start_frac = 0, end_frac = 0;
	unsigned long long start = 0, end = UINT64_MAX;
	char first[64];
	size_t len;

	if (!comma || strchr(comma + 1, ',') || (size_t)(comma - range) >= sizeof(first)) {
		lkst_seterr(err, "bad time window '%s'; give START,END, each seconds of the trace clock (12.5) or a time of day (hh:mm:ss[.frac]), either may be empty",
			    range ? range : "");
		return -1;
	}
	len = comma - range;
	memcpy(first, range, len);
	first[len] = '\0';
	if (len && window_side(first, range, "START", anchor, &start_tod, &start_hms,
			       &start_frac, &start, err))
		return -1;
	if (comma[1] && window_side(comma + 1, range, "END", anchor, &end_tod, &end_hms,
				    &end_frac, &end, err))
		return -1;
	if (start_tod && window_tod(range, start_hms, start_frac, 0, anchor, &start, err))
		return -1;
	/* hh:mm:ss,hh:mm:ss ending earlier in the day: it crosses midnight. */
	if (end_tod && window_tod(range, end_hms, end_frac,
				  start_tod && (end_hms < start_hms ||
						(end_hms == start_hms && end_frac < start_frac)),
				  anchor, &end, err))
		return -1;
	if (start > end) {
		lkst_seterr(err, "time window '%s' ends before it starts; give START <= END", range);
		return -1;
	}
	*start_ns = start;
	*end_ns = end;
	return 0;
}

int lkst_filter_window(struct lkst_filter *f, const char *range,
		       const struct lkst_clock_anchor *anchor, struct lkst_err *err)
{
	if (lkst_parse_window(range, anchor, &f->start_ns, &f->end_ns, err))
		return -1;
	f->by_time = 1;
	return 0;
}

int lkst_filter_time(struct lkst_filter *f, const char *range, struct lkst_err *err)
{
	return lkst_filter_window(f, range, NULL, err);
}

int lkst_filter_pid_wanted(const struct lkst_filter *f, unsigned long long pid)
{
	size_t i;

	for (i = 0; i < f->nr_pids; i++)
		if (f->pids[i] == pid)
			return 1;
	return 0;
}

int lkst_comm_match(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);

	if (len && pattern[len - 1] == '*')
		return !strncmp(pattern, name, len - 1);
	return !strcmp(pattern, name);
}

int lkst_filter_comm_wanted(const struct lkst_filter *f, const char *name)
{
	size_t i;

	for (i = 0; name && i < f->nr_comms; i++)
		if (lkst_comm_match(f->comms[i], name))
			return 1;
	return 0;
}

static int cpu_wanted(const struct lkst_filter *f, unsigned int cpu)
{
	size_t i;

	for (i = 0; i < f->nr_cpus; i++)
		if (f->cpus[i] == cpu)
			return 1;
	return 0;
}

int lkst_filter_match(const struct lkst_filter *f, const struct lkst_record *rec,
		      unsigned int cpu, const struct lkst_comm_map *comms)
{
	int is_switch = rec->event == LKST_EV_PROCESS_CONTEXTSWITCH;
	int is_wakeup = rec->event == LKST_EV_PROCESS_WAKEUP;

	if (f->by_event && (rec->event >= LKST_NR_EVENT_IDS || !f->event[rec->event]))
		return 0;
	if (f->by_time && (rec->time_ns < f->start_ns || rec->time_ns > f->end_ns))
		return 0;
	if (f->nr_cpus && !cpu_wanted(f, cpu))
		return 0;
	if (f->nr_pids && !lkst_filter_pid_wanted(f, rec->pid) &&
	    !(is_switch && (lkst_filter_pid_wanted(f, rec->arg[0]) ||
			    lkst_filter_pid_wanted(f, rec->arg[1]))) &&
	    !(is_wakeup && lkst_filter_pid_wanted(f, rec->arg[0])))
		return 0;
	if (f->nr_comms) {
		char name[COMM_TEXT_LEN];

		if (comms && lkst_filter_comm_wanted(f, lkst_comm_map_name(comms, rec->pid, cpu)))
			return 1;
		if (!is_switch && !is_wakeup)
			return 0;
		lkst_format_comm(rec->arg[4], rec->arg[5], name, sizeof(name));
		return lkst_filter_comm_wanted(f, name);
	}
	return 1;
}

void lkst_filter_free(struct lkst_filter *f)
{
	size_t i;

	for (i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->pids);
	free(f->cpus);
	memset(f, 0, sizeof(*f));
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

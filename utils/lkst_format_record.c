// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Records as text and CSV: the buffered formatter (struct lkst_outbuf)
 * that lkbuf print writes every record with, and its per-event layouts.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "lkst_format.h"
#include "lkst_format_int.h"
#include "lkst_ksym.h"

/* ---- Buffered output ------------------------------------------------ */

/*
 * Room a record needs at most: 6 args of key, escaped and quoted value
 * (under 2 KiB), and the excess of the fixed-size copies past its end
 * (up to 64 bytes, see put_fixed).
 */
#define RECORD_MAX	4096

struct lkst_outbuf *lkst_outbuf_new(FILE *fp)
{
	struct lkst_outbuf *o = malloc(sizeof(*o));

	if (o)
		lkst_outbuf_init(o, fp);
	return o;
}

void lkst_outbuf_free(struct lkst_outbuf *o)
{
	free(o);
}

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
		*--p = lkst_fmt_hex_digits[v & 15];
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
 * Bytes up to the first NUL (at most n) that lkst_fmt_escape_bytes would copy as
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
	} else if (!lkst_fmt_text_continues(ev, index)) {
		n = lkst_fmt_text_run(ev, index);
		memcpy(bytes, &rec->arg[index], n * 8);
	} else {
		return;
	}
	if (put_plain(o, bytes, n * 8, csv))
		return;
	lkst_fmt_escape_bytes(bytes, n * 8, text, sizeof(text));
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

/*
 * A SYSNR argument: text names the call ("lseek", "ia32:lseek",
 * "x32:readv"), CSV and calls without a name keep the number.
 */
static inline void put_sysnr(struct lkst_outbuf *o, unsigned long long value, int csv)
{
	unsigned int abi = LKST_SYSCALL_ABI(value);
	int nr = LKST_SYSCALL_NR(value);
	const char *name = csv ? NULL : lkst_syscall_name(abi, nr);

	if (abi == LKST_SYSCALL_ABI_IA32)
		put_mem(o, "ia32:", 5);
	else if (name && (nr & LKST_X32_SYSCALL_BIT))
		put_mem(o, "x32:", 4);
	if (name)
		put_str(o, name);
	else
		put_s64(o, nr);
}

/* The decoded flags of a system call's argument, "(O_RDONLY|O_CLOEXEC)". */
static __attribute__((noinline)) void
put_syscall_flags(struct lkst_outbuf *o, const struct lkst_record *rec, unsigned int index)
{
	char flags[256];

	if (!lkst_fmt_syscall_flags(rec, index, flags, sizeof(flags)))
		return;
	put_char(o, '(');
	put_str(o, flags);
	put_char(o, ')');
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
		put_sysnr(o, value, csv);
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
		if (!csv && (rec->event == LKST_EV_SYSCALL_ENTRY || rec->event == LKST_EV_SYSCALL_ERROR))
			put_syscall_flags(o, rec, index);
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
		f->shown[0][i] = lkst_fmt_arg_is_shown(ev, i, &cooked);
		f->shown[1][i] = lkst_fmt_arg_is_shown(ev, i, &raw);
		/* "prev pid" -> "prev_pid", so text pairs split cleanly on spaces. */
		if (!ev || !ev->args[i].desc || !ev->args[i].desc[0]) {
			n = snprintf(f->key[i], TEXT_KEY_LEN, "arg%u", i + 1);
		} else if (ev->args[i].type == LKST_ARG_STACKPOS) {
			n = snprintf(f->key[i], TEXT_KEY_LEN, "stack");
		} else if (ev->category == LKST_CAT_PROBE) {
			n = lkst_fmt_probe_key(ev->args[i].desc, i, f->key[i]);
		} else {
			/* A log's own table may hold terminal escapes: shown escaped. */
			char esc[4 * LKST_ARG_DESC_LEN + 1];

			lkst_fmt_escape_bytes((const unsigned char *)ev->args[i].desc,
					      strlen(ev->args[i].desc), esc, sizeof(esc));
			for (n = 0, p = esc; *p && n < 63; p++, n++)
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

/*
 * The formats of every event, derived from the thread's active event table
 * and like it per thread (lkst_util.h): allocated the first time a thread
 * formats a record, freed when it ends; worked out again when the table
 * changes.
 */
struct event_fmts {
	unsigned int generation;
	struct event_fmt fmt[LKST_NR_EVENT_IDS];
};
static __thread struct event_fmts *fmts;
static pthread_key_t fmts_key;
static pthread_once_t fmts_once = PTHREAD_ONCE_INIT;

static void fmts_key_init(void)
{
	(void)pthread_key_create(&fmts_key, free);
}

/*
 * The event's formats; IDs past the table's are worked out every time, as
 * every ID is when memory for the cache runs out.
 */
static const struct event_fmt *event_fmt(unsigned int id, struct event_fmt *spare)
{
	unsigned int generation = lkst_events_generation();

	if (!fmts && id < LKST_NR_EVENT_IDS) {
		fmts = calloc(1, sizeof(*fmts));
		if (fmts) {
			pthread_once(&fmts_once, fmts_key_init);
			(void)pthread_setspecific(fmts_key, fmts);
			fmts->generation = generation - 1;
		}
	}
	if (id >= LKST_NR_EVENT_IDS || !fmts) {
		event_fmt_init(spare, id);
		return spare;
	}
	if (generation != fmts->generation) {
		unsigned int i;

		for (i = 0; i < LKST_NR_EVENT_IDS; i++)
			fmts->fmt[i].ready = 0;
		fmts->generation = generation;
	}
	if (!fmts->fmt[id].ready)
		event_fmt_init(&fmts->fmt[id], id);
	return &fmts->fmt[id];
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
			if (shown[i] && ev && ev->args[i].desc) {
				char esc[4 * LKST_ARG_DESC_LEN + 1];

				lkst_fmt_escape_bytes((const unsigned char *)ev->args[i].desc,
						      strlen(ev->args[i].desc), esc, sizeof(esc));
				put_csv_field(o, esc);
			}
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
		if (!shown[i] || (!opts->raw && lkst_fmt_stack_slot_unused(rec, i)))
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
		if (lkst_fmt_stack_slot_unused(rec, i))
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

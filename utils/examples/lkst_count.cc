// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkst_count++: the C example's work from C++, with the handles owned by
 * std::unique_ptr and the records counted per event in a std::map.
 *
 *   c++ -o lkst_count++ lkst_count.cc $(pkg-config --cflags --libs liblkst)
 *   ./lkst_count++ trace.log syscall
 */
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include <lkst.h>

namespace {

struct trace_closer {
	void operator()(lkst_trace *t) const { lkst_trace_close(t); }
};
struct iter_freer {
	void operator()(lkst_trace_iter *it) const { lkst_trace_iter_free(it); }
};

} // namespace

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		std::fprintf(stderr, "usage: %s LOG [EVENT,...]\n", argv[0]);
		return 1;
	}
	lkst_err err;
	std::unique_ptr<lkst_trace, trace_closer> t(lkst_trace_open(argv[1], 0, &err));
	if (!t) {
		std::fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	struct lkst_trace_select sel = {};	// "struct": a function has its name
	sel.events = argc > 2 ? argv[2] : nullptr;
	if (lkst_trace_select(t.get(), &sel, &err)) {
		std::fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	std::unique_ptr<lkst_trace_iter, iter_freer> it(lkst_trace_iter_new(t.get(), 0, &err));
	if (!it) {
		std::fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	std::map<std::string, unsigned long long> by_event;
	unsigned long long n = 0;
	lkst_trace_rec r;
	while (lkst_trace_next(it.get(), &r)) {
		const lkst_event_info *ev = lkst_event_by_id(r.rec->event);
		by_event[ev ? ev->mnemonic : "?"]++;
		n++;
	}
	for (const auto &e : by_event)
		std::printf("%-24s %llu\n", e.first.c_str(), e.second);
	std::printf("%llu of %llu records selected\n", n, lkst_trace_nr_records(t.get()));
	return 0;
}

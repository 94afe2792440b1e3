/*
 * iopddl_eval.c - the independent evaluator of IOPDDL solutions, by the
 * contest's definition and nothing of the solver's: costs summed in
 * int64 with overflow checked, memory by a sweep over the intervals'
 * ends (a node is live over [lo, hi): at time hi it is gone).
 */
#include "solver/iopddl.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Sums with overflow checked: false when a + b does not fit. */
static bool
add(int64_t *acc, int64_t x)
{
	return !__builtin_add_overflow(*acc, x, acc);
}

typedef struct event {
	int64_t t, du;		/* at time t, usage changes by du */
} event;

/* By time; at one time the ends (du < 0) come first. */
static int
by_time(const void *a, const void *b)
{
	const event *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->du > y->du) - (x->du < y->du);
}

/* The peak of live usage under sol (indices already checked). */
static void
peak(const sl_iopddl *p, const int64_t *sol, sl_iopddl_eval *out)
{
	event *ev = sli_xmalloc((2 * p->nnodes + 1) * sizeof *ev);
	size_t n = 0;
	for (size_t i = 0; i < p->nnodes; i++) {
		int64_t u = p->usage[p->sfirst[i] + (size_t)sol[i]];
		if (p->lo[i] >= p->hi[i] || u == 0)
			continue;
		ev[n++] = (event){p->lo[i], u};
		ev[n++] = (event){p->hi[i], -u};
	}
	qsort(ev, n, sizeof *ev, by_time);
	int64_t live = 0;
	bool over = false;
	out->peak = 0;
	out->peak_time = n ? ev[0].t : 0;
	for (size_t k = 0; k < n; k++) {
		if (!add(&live, ev[k].du))
			over = true;
		bool last = k + 1 == n || ev[k + 1].t != ev[k].t;
		if (last && (over || live > out->peak)) {
			out->peak = over ? INT64_MAX : live;
			out->peak_time = ev[k].t;
			if (over)
				break;
		}
	}
	free(ev);
}

int
sl_iopddl_evaluate(const sl_iopddl *p, const int64_t *sol, size_t n,
                   sl_iopddl_eval *out)
{
	memset(out, 0, sizeof *out);
	if (n != p->nnodes) {
		snprintf(out->why, sizeof out->why, "%zu strategies for %zu nodes",
		         n, p->nnodes);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (sol[i] < 0 || sol[i] >= p->nstrat[i]) {
			snprintf(out->why, sizeof out->why, "node %zu: no strategy %lld "
			         "(it has %u)", i, (long long)sol[i], p->nstrat[i]);
			return 1;
		}
	int64_t cost = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t c = p->cost[p->sfirst[i] + (size_t)sol[i]];
		if (c >= SL_IOPDDL_FORBIDDEN) {
			snprintf(out->why, sizeof out->why, "node %zu: strategy %lld is "
			         "forbidden", i, (long long)sol[i]);
			return 1;
		}
		if (!add(&cost, c))
			goto overflow;
	}
	for (size_t e = 0; e < p->nedges; e++) {
		size_t a = (size_t)sol[p->eu[e]], b = (size_t)sol[p->ev[e]];
		int64_t c = p->ecost[p->efirst[e] + a * p->nstrat[p->ev[e]] + b];
		if (c >= SL_IOPDDL_FORBIDDEN) {
			snprintf(out->why, sizeof out->why, "edge %zu (%u, %u): the pair "
			         "(%zu, %zu) is forbidden", e, p->eu[e], p->ev[e], a, b);
			return 1;
		}
		if (!add(&cost, c))
			goto overflow;
	}
	out->cost = cost;
	peak(p, sol, out);
	if (p->has_limit && out->peak > p->usage_limit) {
		snprintf(out->why, sizeof out->why, "usage %lld at time %lld exceeds "
		         "the limit %lld", (long long)out->peak,
		         (long long)out->peak_time, (long long)p->usage_limit);
		return 1;
	}
	out->feasible = true;
	return 0;
overflow:
	snprintf(out->why, sizeof out->why, "the cost overflows 64-bit integers");
	return 1;
}

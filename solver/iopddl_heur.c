/*
 * iopddl_heur.c - the local search on a reduced IOPDDL model: the ILP's
 * warm start, and the answer where the ILP is too large.
 * A greedy start (nodes in order, each at its cheapest strategy against
 * the neighbours already placed, within the memory rows: a node's least
 * usage always fits, so the start keeps every row); then moves of one
 * node (its best strategy against its neighbours) and of both ends of
 * an edge, until none helps; then, while time is left, iterated local
 * search: a few random nodes perturbed, improved, and the change undone
 * unless it costs no more.  Forbidden pairs cost PENALTY, so the search
 * leaves them; every row is kept at every step.
 */
#include "solver/iopddl_model.h"

#include <string.h>

#include "solver/lp.h"

#define PENALTY (INT64_C(1) << 50)

typedef struct undo {
	uint32_t node;
	uint32_t old;
} undo;

typedef struct ls {
	const sli_iopddl_model *m;
	int64_t *sol;		/* local strategy per node */
	int64_t *load;		/* per row: the coefficients of the chosen strategies */
	int64_t total;		/* node and edge costs, penalties included */
	SL_VEC(undo) log;	/* moves since the last mark */
	SL_VEC(uint32_t) queue;	/* nodes to look at again */
	unsigned char *queued;
	uint64_t rng;
} ls;

static int64_t
pen(int64_t c)
{
	return c >= SLI_FORBIDDEN ? PENALTY : c;
}

static uint64_t
next_rand(ls *L)
{
	L->rng ^= L->rng << 13;
	L->rng ^= L->rng >> 7;
	L->rng ^= L->rng << 17;
	return L->rng;
}

/* The cost of edge e at node i's strategy s, the other end as it is. */
static int64_t
edge_at(const ls *L, size_t e, size_t i, size_t s)
{
	const sl_iopddl *p = L->m->p;
	if (p->eu[e] == i)
		return pen(sli_iopddl_pair(L->m, e, s, (size_t)L->sol[p->ev[e]]));
	return pen(sli_iopddl_pair(L->m, e, (size_t)L->sol[p->eu[e]], s));
}

/* Node i's cost and that of its edges, at strategy s. */
static int64_t
local(const ls *L, size_t i, size_t s)
{
	const sli_iopddl_model *m = L->m;
	int64_t c = pen(m->cost[m->p->sfirst[i] + s]);
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++)
		c += edge_at(L, m->aedge[k], i, s);
	return c;
}

/* Whether node i may move to s with every row kept. */
static bool
fits(const ls *L, size_t i, size_t s)
{
	const sli_iopddl_model *m = L->m;
	int64_t d = sli_iopddl_coef(m, i, s) - sli_iopddl_coef(m, i, (size_t)L->sol[i]);
	if (d <= 0)
		return true;
	for (size_t k = m->nfirst[i]; k < m->nfirst[i + 1]; k++)
		if (L->load[m->nrow[k]] + d > m->rows.v[m->nrow[k]].rhs)
			return false;
	return true;
}

static void
push(ls *L, size_t i)
{
	if (L->m->nalive[i] > 1 && !L->queued[i]) {
		L->queued[i] = 1;
		SL_VEC_PUSH(L->queue, (uint32_t)i);
	}
}

/* Moves node i to s (loads, total and the undo log follow). */
static void
move(ls *L, size_t i, size_t s, bool requeue)
{
	const sli_iopddl_model *m = L->m;
	size_t old = (size_t)L->sol[i];
	if (old == s)
		return;
	int64_t d = sli_iopddl_coef(m, i, s) - sli_iopddl_coef(m, i, old);
	L->total += local(L, i, s) - local(L, i, old);
	for (size_t k = m->nfirst[i]; k < m->nfirst[i + 1]; k++)
		L->load[m->nrow[k]] += d;
	SL_VEC_PUSH(L->log, ((undo){(uint32_t)i, (uint32_t)old}));
	L->sol[i] = (int64_t)s;
	if (!requeue)
		return;
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
		size_t e = m->aedge[k];
		push(L, m->p->eu[e] == i ? m->p->ev[e] : m->p->eu[e]);
	}
}

/* Node i's best strategy that fits (its own when none is better). */
static size_t
best(const ls *L, size_t i, int64_t *gain)
{
	const sli_iopddl_model *m = L->m;
	size_t cur = (size_t)L->sol[i], bs = cur;
	int64_t now = local(L, i, cur), bc = now;
	for (size_t s = 0; s < m->p->nstrat[i]; s++) {
		if (s == cur || !m->alive[m->p->sfirst[i] + s])
			continue;
		int64_t c = local(L, i, s);
		if (c < bc && fits(L, i, s))
			bc = c, bs = s;
	}
	*gain = now - bc;
	return bs;
}

/*
 * Both ends of edge e at once: the best pair (a, b) with the other
 * neighbours as they are.  True when it moved.
 */
static bool
edge_move(ls *L, size_t e)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	size_t u = p->eu[e], v = p->ev[e];
	if (u == v || m->nalive[u] < 2 || m->nalive[v] < 2)
		return false;
	size_t au = (size_t)L->sol[u], bv = (size_t)L->sol[v];
	int64_t now = local(L, u, au) + local(L, v, bv) - edge_at(L, e, u, au);
	int64_t bestc = now;
	size_t ba = au, bb = bv;
	/* gu[a]: u's cost at a without e; likewise gv */
	int64_t gu[p->nstrat[u]], gv[p->nstrat[v]];
	for (size_t a = 0; a < p->nstrat[u]; a++)
		gu[a] = m->alive[p->sfirst[u] + a] ? local(L, u, a) - edge_at(L, e, u, a) : 0;
	for (size_t b = 0; b < p->nstrat[v]; b++)
		gv[b] = m->alive[p->sfirst[v] + b] ? local(L, v, b) - edge_at(L, e, v, b) : 0;
	for (size_t a = 0; a < p->nstrat[u]; a++) {
		if (!m->alive[p->sfirst[u] + a])
			continue;
		for (size_t b = 0; b < p->nstrat[v]; b++) {
			if (!m->alive[p->sfirst[v] + b])
				continue;
			int64_t c = gu[a] + gv[b] + pen(sli_iopddl_pair(m, e, a, b));
			if (c < bestc)
				bestc = c, ba = a, bb = b;
		}
	}
	if (bestc >= now || !fits(L, u, ba))
		return false;
	size_t mark = L->log.n;
	move(L, u, ba, false);
	if (!fits(L, v, bb)) {
		move(L, u, au, false);
		L->log.n = mark;
		return false;
	}
	move(L, v, bb, true);
	for (size_t k = m->afirst[u]; k < m->afirst[u + 1]; k++)
		push(L, p->eu[m->aedge[k]] == u ? p->ev[m->aedge[k]] : p->eu[m->aedge[k]]);
	return true;
}

/*
 * Node moves from the queue, then edge moves, until none helps or end:
 * on every edge (all), or on the edges at the nodes moved since the log
 * was last emptied.
 */
static void
improve(ls *L, double end, bool all)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	for (;;) {
		size_t steps = 0;
		while (L->queue.n) {
			size_t i = L->queue.v[--L->queue.n];
			L->queued[i] = 0;
			int64_t gain;
			size_t s = best(L, i, &gain);
			if (gain > 0)
				move(L, i, s, true);
			if (++steps % 1024 == 0 && sli_lp_clock() >= end)
				return;
		}
		bool moved = false;
		if (all) {
			for (size_t e = 0; e < p->nedges; e++)
				if (m->ealive[e] && edge_move(L, e))
					moved = true;
		} else {
			for (size_t k = 0, n = L->log.n; k < n; k++) {
				size_t i = L->log.v[k].node;
				for (size_t a = m->afirst[i]; a < m->afirst[i + 1]; a++)
					if (edge_move(L, m->aedge[a]))
						moved = true;
			}
		}
		if (!moved || sli_lp_clock() >= end)
			return;
	}
}

/* The greedy start: nodes in order, against those already placed. */
static void
greedy(ls *L)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	unsigned char *placed = sli_xcalloc(p->nnodes + 1, 1);
	for (size_t i = 0; i < p->nnodes; i++) {
		/* a least usage first: it fits whatever is placed */
		size_t s0 = 0;
		while (!m->alive[p->sfirst[i] + s0] || sli_iopddl_coef(m, i, s0) != 0)
			s0++;
		L->sol[i] = (int64_t)s0;
	}
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t bs = (size_t)L->sol[i];
		int64_t bc = INT64_MAX;
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			if (!m->alive[p->sfirst[i] + s] || !fits(L, i, s))
				continue;
			int64_t c = pen(m->cost[p->sfirst[i] + s]);
			for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
				size_t e = m->aedge[k];
				size_t j = p->eu[e] == i ? p->ev[e] : p->eu[e];
				if (placed[j])
					c += edge_at(L, e, i, s);
			}
			if (c < bc)
				bc = c, bs = s;
		}
		int64_t d = sli_iopddl_coef(m, i, bs) - sli_iopddl_coef(m, i, (size_t)L->sol[i]);
		for (size_t k = m->nfirst[i]; k < m->nfirst[i + 1]; k++)
			L->load[m->nrow[k]] += d;
		L->sol[i] = (int64_t)bs;
		placed[i] = 1;
	}
	free(placed);
}

/* The total, penalties included, of the current solution. */
static int64_t
total(const ls *L)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	int64_t c = 0;
	for (size_t i = 0; i < p->nnodes; i++)
		c += pen(m->cost[p->sfirst[i] + (size_t)L->sol[i]]);
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e])
			c += edge_at(L, e, p->eu[e], (size_t)L->sol[p->eu[e]]);
	return c;
}

/* Perturbs a few nodes near a random one, to fitting random strategies. */
static void
perturb(ls *L)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	size_t i = next_rand(L) % p->nnodes;
	for (size_t tries = 0; m->nalive[i] < 2 && tries < 64; tries++)
		i = next_rand(L) % p->nnodes;
	size_t n = 1 + next_rand(L) % 4;
	for (size_t r = 0; r < n; r++) {
		if (m->nalive[i] > 1) {
			size_t s = next_rand(L) % p->nstrat[i];
			if (m->alive[p->sfirst[i] + s] && fits(L, i, s)) {
				move(L, i, s, true);
				push(L, i);
			}
		}
		size_t deg = m->afirst[i + 1] - m->afirst[i];
		if (!deg)
			break;
		size_t e = m->aedge[m->afirst[i] + next_rand(L) % deg];
		i = p->eu[e] == i ? p->ev[e] : p->eu[e];
	}
}

int64_t
sli_iopddl_heuristic(const sli_iopddl_model *m, int64_t *sol, double end,
                     bool use_all_time)
{
	const sl_iopddl *p = m->p;
	ls L = {m, sol, NULL, 0, {0}, {0}, NULL, 0x9E3779B97F4A7C15ULL};
	L.load = sli_xcalloc(m->rows.n + 1, sizeof *L.load);
	L.queued = sli_xcalloc(p->nnodes + 1, 1);
	greedy(&L);
	L.total = total(&L);
	for (size_t i = p->nnodes; i-- > 0;)
		push(&L, i);
	improve(&L, end, true);
	L.log.n = 0;
	int64_t best_total = L.total;
	for (unsigned long it = 0; use_all_time && sli_lp_clock() < end; it++) {
		perturb(&L);
		improve(&L, end, false);
		if (L.total <= best_total) {
			best_total = L.total;
		} else {
			while (L.log.n) {
				undo u = L.log.v[--L.log.n];
				size_t mark = L.log.n;
				move(&L, u.node, u.old, false);
				L.log.n = mark;
			}
		}
		L.log.n = 0;
		while (L.queue.n)
			L.queued[L.queue.v[--L.queue.n]] = 0;
	}
	int64_t c = total(&L);
	free(L.load);
	free(L.queued);
	SL_VEC_FREE(L.log);
	SL_VEC_FREE(L.queue);
	return c >= PENALTY ? -1 : c;
}

/*
 * iopddl_reduce.c - the reductions that make an IOPDDL problem small
 * before the local search and the ILP see it, each exact (some optimal
 * solution survives), repeated until none applies:
 *   forbidden strategies die, and those with no allowed pair on an edge;
 *   a node left with one strategy folds its edges into its neighbours'
 *   node costs; an edge whose cost is a(s_u) + b(s_v) (all zero ones
 *   included) folds into its two nodes; parallel edges are summed;
 *   a strategy no better than another of its node in node cost, usage
 *   and every edge row (dominated) dies.
 * Then the memory rows: one per maximal set of simultaneously live
 * nodes, over the usage above each node's least; a strategy whose usage
 * alone breaks a row dies (and the reductions run again), and rows that
 * cannot be broken are dropped.
 * The clock is looked at between rounds and inside the long loops: on L
 * they take seconds, and a model given up at its deadline is only freed.
 */
#include "solver/iopddl_model.h"

#include <string.h>

#include "solver/lp.h"

static void
kill(sli_iopddl_model *m, size_t i, size_t s, bool *changed)
{
	size_t k = m->p->sfirst[i] + s;
	if (!m->alive[k])
		return;
	m->alive[k] = 0;
	m->nalive[i]--;
	*changed = true;
	if (!m->nalive[i] && !m->infeasible) {
		m->infeasible = true;
		snprintf(m->why, sizeof m->why, "node %zu has no allowed strategy "
		         "(every one is forbidden, alone, with a neighbour's "
		         "strategies or by the usage limit)", i);
	}
}

static bool
alive(const sli_iopddl_model *m, size_t i, size_t s)
{
	return m->alive[m->p->sfirst[i] + s];
}

/* The first alive strategy of node i (the only one when nalive[i] == 1). */
static size_t
first_alive(const sli_iopddl_model *m, size_t i)
{
	size_t s = 0;
	while (!alive(m, i, s))
		s++;
	return s;
}

/* Whether m's deadline has passed (then m is late, and stays so). */
static bool
over(sli_iopddl_model *m)
{
	if (!m->late && sli_lp_clock() >= m->end)
		m->late = true;
	return m->late;
}

/* Edge e's forbidden pairs kill the strategies that have no allowed one. */
static void
arc_consistency(sli_iopddl_model *m, size_t e, bool *changed)
{
	const sl_iopddl *p = m->p;
	size_t u = p->eu[e], v = p->ev[e];
	for (size_t a = 0; a < p->nstrat[u]; a++) {
		if (!alive(m, u, a))
			continue;
		bool ok = false;
		for (size_t b = 0; b < p->nstrat[v] && !ok; b++)
			ok = alive(m, v, b) && sli_iopddl_pair(m, e, a, b) < SLI_FORBIDDEN;
		if (!ok)
			kill(m, u, a, changed);
	}
	for (size_t b = 0; b < p->nstrat[v]; b++) {
		if (!alive(m, v, b))
			continue;
		bool ok = false;
		for (size_t a = 0; a < p->nstrat[u] && !ok; a++)
			ok = alive(m, u, a) && sli_iopddl_pair(m, e, a, b) < SLI_FORBIDDEN;
		if (!ok)
			kill(m, v, b, changed);
	}
}

/* Adds to node i's strategy s; a forbidden sum kills it. */
static void
add_cost(sli_iopddl_model *m, size_t i, size_t s, int64_t c, bool *changed)
{
	size_t k = m->p->sfirst[i] + s;
	m->cost[k] = sli_iopddl_add(m->cost[k], c);
	if (m->cost[k] >= SLI_FORBIDDEN)
		kill(m, i, s, changed);
}

/*
 * Folds edge e into node costs when one end has a single strategy, when
 * it is a loop, or when its cost is separable: c(a, b) = c(a, b0) +
 * c(a0, b) - c(a0, b0) over the alive pairs, none forbidden.
 */
static void
fold_edge(sli_iopddl_model *m, size_t e, bool *changed)
{
	const sl_iopddl *p = m->p;
	size_t u = p->eu[e], v = p->ev[e];
	if (u == v) {
		for (size_t a = 0; a < p->nstrat[u]; a++)
			if (alive(m, u, a))
				add_cost(m, u, a, sli_iopddl_pair(m, e, a, a), changed);
	} else if (m->nalive[u] == 1) {
		size_t a = first_alive(m, u);
		for (size_t b = 0; b < p->nstrat[v]; b++)
			if (alive(m, v, b))
				add_cost(m, v, b, sli_iopddl_pair(m, e, a, b), changed);
	} else if (m->nalive[v] == 1) {
		size_t b = first_alive(m, v);
		for (size_t a = 0; a < p->nstrat[u]; a++)
			if (alive(m, u, a))
				add_cost(m, u, a, sli_iopddl_pair(m, e, a, b), changed);
	} else {
		size_t a0 = first_alive(m, u), b0 = first_alive(m, v);
		int64_t c00 = sli_iopddl_pair(m, e, a0, b0);
		if (c00 >= SLI_FORBIDDEN)
			return;
		for (size_t a = 0; a < p->nstrat[u]; a++) {
			if (!alive(m, u, a))
				continue;
			int64_t ca0 = sli_iopddl_pair(m, e, a, b0);
			for (size_t b = 0; b < p->nstrat[v]; b++) {
				if (!alive(m, v, b))
					continue;
				int64_t c = sli_iopddl_pair(m, e, a, b);
				if (c >= SLI_FORBIDDEN || ca0 >= SLI_FORBIDDEN ||
				    c - ca0 != sli_iopddl_pair(m, e, a0, b) - c00)
					return;
			}
		}
		for (size_t a = 0; a < p->nstrat[u]; a++)
			if (alive(m, u, a))
				add_cost(m, u, a, sli_iopddl_pair(m, e, a, b0) - c00, changed);
		for (size_t b = 0; b < p->nstrat[v]; b++)
			if (alive(m, v, b))
				add_cost(m, v, b, sli_iopddl_pair(m, e, a0, b), changed);
	}
	m->ealive[e] = 0;
	*changed = true;
}

/* {====================================================================
 * Parallel edges
 * ===================================================================== */

static const sli_iopddl_model *sort_model;

static int
by_ends(const void *x, const void *y)
{
	const sl_iopddl *p = sort_model->p;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	uint32_t a0 = p->eu[a] < p->ev[a] ? p->eu[a] : p->ev[a];
	uint32_t a1 = p->eu[a] ^ p->ev[a] ^ a0;
	uint32_t b0 = p->eu[b] < p->ev[b] ? p->eu[b] : p->ev[b];
	uint32_t b1 = p->eu[b] ^ p->ev[b] ^ b0;
	if (a0 != b0)
		return a0 < b0 ? -1 : 1;
	if (a1 != b1)
		return a1 < b1 ? -1 : 1;
	return (a > b) - (a < b);
}

/* Sums every alive edge into the first alive edge between the same nodes. */
static void
merge_parallel(sli_iopddl_model *m, bool *changed)
{
	const sl_iopddl *p = m->p;
	uint32_t *order = sli_xmalloc((p->nedges + 1) * sizeof *order);
	size_t n = 0;
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e])
			order[n++] = (uint32_t)e;
	sort_model = m;
	qsort(order, n, sizeof *order, by_ends);
	for (size_t k = 1; k < n; k++) {
		size_t f = order[k - 1], e = order[k];
		bool same = p->eu[f] == p->eu[e] && p->ev[f] == p->ev[e];
		if (!same && !(p->eu[f] == p->ev[e] && p->ev[f] == p->eu[e]))
			continue;	/* different ends */
		size_t nu = p->nstrat[p->eu[f]], nv = p->nstrat[p->ev[f]];
		for (size_t a = 0; a < nu; a++)
			for (size_t b = 0; b < nv; b++) {
				int64_t *c = &m->ecost[p->efirst[f] + a * nv + b];
				*c = sli_iopddl_add(*c, same ? sli_iopddl_pair(m, e, a, b)
				                             : sli_iopddl_pair(m, e, b, a));
			}
		m->ealive[e] = 0;
		order[k] = (uint32_t)f;	/* the next one merges into f too */
		*changed = true;
	}
	free(order);
}

/* }==================================================================== */

/* {====================================================================
 * Adjacency and dominance
 * ===================================================================== */

static void
compute_adjacency(sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	free(m->afirst);
	free(m->aedge);
	m->afirst = sli_xcalloc(p->nnodes + 2, sizeof *m->afirst);
	size_t n = 0;
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e]) {
			m->afirst[p->eu[e] + 2]++;
			m->afirst[p->ev[e] + 2]++;
			n += 2;
		}
	for (size_t i = 0; i < p->nnodes; i++)
		m->afirst[i + 2] += m->afirst[i + 1];
	m->aedge = sli_xmalloc((n + 1) * sizeof *m->aedge);
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e]) {
			m->aedge[m->afirst[p->eu[e] + 1]++] = (uint32_t)e;
			m->aedge[m->afirst[p->ev[e] + 1]++] = (uint32_t)e;
		}
}

/*
 * Whether strategy t of node i is at least as good as s in everything:
 * node cost, usage (when there is a limit) and, on every alive edge,
 * against every alive strategy of the other end.
 */
static bool
dominates(const sli_iopddl_model *m, size_t i, size_t t, size_t s)
{
	const sl_iopddl *p = m->p;
	size_t kt = p->sfirst[i] + t, ks = p->sfirst[i] + s;
	if (m->cost[kt] > m->cost[ks] ||
	    (m->inrow[i] && p->usage[kt] > p->usage[ks]))
		return false;
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
		size_t e = m->aedge[k];
		bool head = p->eu[e] == i;
		size_t j = head ? p->ev[e] : p->eu[e];
		for (size_t b = 0; b < p->nstrat[j]; b++) {
			if (!alive(m, j, b))
				continue;
			int64_t ct = head ? sli_iopddl_pair(m, e, t, b) : sli_iopddl_pair(m, e, b, t);
			int64_t cs = head ? sli_iopddl_pair(m, e, s, b) : sli_iopddl_pair(m, e, b, s);
			if (ct > cs)
				return false;
		}
	}
	return true;
}

/* Kills the dominated strategies of every node (of two equal, the later). */
static void
prune_dominated(sli_iopddl_model *m, bool *changed)
{
	const sl_iopddl *p = m->p;
	compute_adjacency(m);
	for (size_t i = 0; i < p->nnodes && !over(m); i++) {
		if (m->nalive[i] < 2)
			continue;
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			if (!alive(m, i, s))
				continue;
			for (size_t t = 0; t < p->nstrat[i]; t++)
				if (t != s && alive(m, i, t) && dominates(m, i, t, s) &&
				    (t < s || !dominates(m, i, s, t))) {
					kill(m, i, s, changed);
					break;
				}
		}
	}
}

/* }==================================================================== */

/* {====================================================================
 * Memory rows at the maximal sets of live nodes
 * ===================================================================== */

typedef struct event {
	int64_t t;
	uint32_t node;
	bool start;
} event;

/* By time; at one time the ends first ([lo, hi): gone at hi). */
static int
by_time(const void *a, const void *b)
{
	const event *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (int)x->start - (int)y->start;
}

/*
 * Node i's part of a row: its least usage (or its only one) goes to the
 * row's base; the rest is the row's coefficient.
 */
static void
compute_umin(sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	for (size_t i = 0; i < p->nnodes; i++) {
		int64_t u = INT64_MAX;
		for (size_t s = 0; s < p->nstrat[i]; s++)
			if (alive(m, i, s) && p->usage[p->sfirst[i] + s] < u)
				u = p->usage[p->sfirst[i] + s];
		m->umin[i] = u == INT64_MAX ? 0 : u;
	}
}

/* The largest coefficient of node i in a row. */
static int64_t
umax(const sli_iopddl_model *m, size_t i)
{
	int64_t u = 0;
	for (size_t s = 0; s < m->p->nstrat[i]; s++)
		if (alive(m, i, s) && sli_iopddl_coef(m, i, s) > u)
			u = sli_iopddl_coef(m, i, s);
	return u;
}

/*
 * Adds the row of one maximal live set; kills the strategies that break
 * it alone.  A row no choice can break is not kept.
 */
static void
add_row(sli_iopddl_model *m, const uint32_t *set, size_t n, const int64_t *um,
        bool *changed)
{
	const sl_iopddl *p = m->p;
	int64_t base = 0, slack = 0;
	for (size_t k = 0; k < n; k++) {
		base = sli_iopddl_add(base, m->umin[set[k]]);
		slack = sli_iopddl_add(slack, um[set[k]]);
	}
	int64_t rhs = p->usage_limit - base;
	if (rhs < 0 || base >= SLI_FORBIDDEN) {
		if (!m->infeasible) {
			m->infeasible = true;
			snprintf(m->why, sizeof m->why, "the least usages of the %zu "
			         "nodes live with node %u sum to %lld, above the limit "
			         "%lld", n, set[0], (long long)base,
			         (long long)p->usage_limit);
		}
		return;
	}
	if (slack <= rhs)
		return;
	sli_iopddl_row r = {m->rnode.n, 0, rhs};
	for (size_t k = 0; k < n; k++) {
		size_t i = set[k];
		/* (um[i] is not updated by the kills: rows are built again
		 * after any, so a stale one only keeps a node in a row) */
		for (size_t s = 0; um[i] > rhs && s < p->nstrat[i]; s++)
			if (alive(m, i, s) && sli_iopddl_coef(m, i, s) > rhs)
				kill(m, i, s, changed);
		if (um[i] > 0) {
			SL_VEC_PUSH(m->rnode, (uint32_t)i);
			m->inrow[i] = 1;
			r.n++;
		}
	}
	SL_VEC_PUSH(m->rows, r);
}

/*
 * The rows: a sweep over the interval ends; the live set just before a
 * node leaves, when a node came since the last such moment, is maximal
 * (later sets lack the leaving node, earlier ones lack the new one).
 */
static void
compute_rows(sli_iopddl_model *m, bool *changed)
{
	const sl_iopddl *p = m->p;
	m->rows.n = m->rnode.n = 0;
	memset(m->inrow, 0, p->nnodes + 1);
	compute_umin(m);
	if (!p->has_limit)
		return;
	event *ev = sli_xmalloc((2 * p->nnodes + 1) * sizeof *ev);
	size_t n = 0;
	for (size_t i = 0; i < p->nnodes; i++)
		if (p->lo[i] < p->hi[i]) {
			ev[n++] = (event){p->lo[i], (uint32_t)i, true};
			ev[n++] = (event){p->hi[i], (uint32_t)i, false};
		}
	qsort(ev, n, sizeof *ev, by_time);
	/* each node's largest coefficient, once (rows hold 45M entries on L) */
	int64_t *um = sli_xmalloc((p->nnodes + 1) * sizeof *um);
	for (size_t i = 0; i < p->nnodes; i++)
		um[i] = umax(m, i);
	uint32_t *live = sli_xmalloc((p->nnodes + 1) * sizeof *live);
	size_t *pos = sli_xmalloc((p->nnodes + 1) * sizeof *pos);
	size_t nlive = 0;
	bool grown = false;
	for (size_t k = 0; k < n && !m->infeasible && !over(m); k++) {
		uint32_t i = ev[k].node;
		if (ev[k].start) {
			pos[i] = nlive;
			live[nlive++] = i;
			grown = true;
			continue;
		}
		if (grown)
			add_row(m, live, nlive, um, changed);
		grown = false;
		live[pos[i]] = live[--nlive];
		pos[live[pos[i]]] = pos[i];
	}
	free(um);
	free(live);
	free(pos);
	free(ev);
}

/* }==================================================================== */

static void
reduce(sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	bool changed = true, rows_known = false;
	while (changed && !m->infeasible && !over(m)) {
		changed = false;
		for (size_t e = 0; e < p->nedges; e++)
			if (m->ealive[e])
				arc_consistency(m, e, &changed);
		for (size_t e = 0; e < p->nedges && !m->infeasible; e++)
			if (m->ealive[e])
				fold_edge(m, e, &changed);
		if (changed || m->infeasible)
			continue;
		merge_parallel(m, &changed);
		if (!changed)
			prune_dominated(m, &changed);
		if (!changed && !m->late) {
			compute_rows(m, &changed);
			/* once more with the rows known: fewer usages matter */
			if (!rows_known)
				changed = rows_known = true;
		}
	}
}

void
sli_iopddl_model_init(sli_iopddl_model *m, const sl_iopddl *p, double end)
{
	memset(m, 0, sizeof *m);
	m->p = p;
	m->end = end;
	size_t ns = p->sfirst[p->nnodes], ne = p->efirst[p->nedges];
	m->cost = sli_xmalloc((ns + 1) * sizeof *m->cost);
	memcpy(m->cost, p->cost, ns * sizeof *m->cost);
	m->alive = sli_xmalloc(ns + 1);
	m->nalive = sli_xmalloc((p->nnodes + 1) * sizeof *m->nalive);
	m->ecost = sli_xmalloc((ne + 1) * sizeof *m->ecost);
	memcpy(m->ecost, p->ecost, ne * sizeof *m->ecost);
	m->ealive = sli_xmalloc(p->nedges + 1);
	memset(m->ealive, 1, p->nedges + 1);
	m->umin = sli_xcalloc(p->nnodes + 1, sizeof *m->umin);
	m->inrow = sli_xmalloc(p->nnodes + 1);
	memset(m->inrow, 1, p->nnodes + 1);
	bool changed = false;
	for (size_t i = 0; i < p->nnodes; i++) {
		m->nalive[i] = p->nstrat[i];
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			m->alive[p->sfirst[i] + s] = 1;
			if (m->cost[p->sfirst[i] + s] >= SLI_FORBIDDEN)
				kill(m, i, s, &changed);
		}
	}
	reduce(m);
	if (m->late)
		return;
	compute_adjacency(m);
	for (size_t i = 0; i < p->nnodes; i++)
		m->nodes += m->nalive[i] > 1;
	for (size_t e = 0; e < p->nedges; e++)
		m->edges += m->ealive[e];
}

void
sli_iopddl_model_fini(sli_iopddl_model *m)
{
	free(m->cost);
	free(m->alive);
	free(m->nalive);
	free(m->ecost);
	free(m->ealive);
	free(m->umin);
	free(m->inrow);
	free(m->afirst);
	free(m->aedge);
	SL_VEC_FREE(m->rows);
	SL_VEC_FREE(m->rnode);
}

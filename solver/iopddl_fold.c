/*
 * iopddl_fold.c - folds the trees of nodes whose usage no memory row
 * counts into the nodes they hang from (see iopddl_fold.h): a leaf u of
 * such a tree, on edge e to v, adds min over a of cost(u, a) + C(a, b)
 * to each strategy b of v, and remembers its argmin; v may then become
 * a leaf.  A tree left without edges adds its least cost to a constant.
 * Exact: the leaf meets the rest of the problem only through v.
 * On B and G about 350 of 764 nodes fold: the ILP loses most of its
 * binaries and a third of its rows.
 */
#include "solver/iopddl_fold.h"

#include <stdlib.h>
#include <string.h>

/* The other end of edge e from node i. */
static size_t
other(const sl_iopddl *p, size_t e, size_t i)
{
	return p->eu[e] == i ? p->ev[e] : p->eu[e];
}

/* Edge e's cost of (strategy a of i, strategy b of the other end). */
static int64_t
pair_from(const sli_iopddl_model *m, size_t e, size_t i, size_t a, size_t b)
{
	return m->p->eu[e] == i ? sli_iopddl_pair(m, e, a, b) : sli_iopddl_pair(m, e, b, a);
}

/* The only edge of node i to an unfolded node, or SIZE_MAX (none, or more). */
static size_t
only_edge(const sli_iopddl_fold *f, const sli_iopddl_model *m, size_t i, size_t *n)
{
	size_t e1 = SIZE_MAX;
	*n = 0;
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
		size_t e = m->aedge[k];
		/* (a sub-model shares m's adjacency) */
		if (!m->ealive[e] || f->folded[other(m->p, e, i)])
			continue;
		e1 = e;
		++*n;
	}
	return *n == 1 ? e1 : SIZE_MAX;
}

/* Folds leaf u on edge e into its neighbour; false when some strategy
 * of the neighbour has no allowed pair (then nothing changed). */
static bool
fold_leaf(sli_iopddl_fold *f, const sli_iopddl_model *m, size_t u, size_t e)
{
	const sl_iopddl *p = m->p;
	size_t v = other(p, e, u), at = f->pick.n;
	for (size_t b = 0; b < p->nstrat[v]; b++) {
		size_t best = 0;
		int64_t bc = SLI_FORBIDDEN;
		for (size_t a = 0; m->alive[p->sfirst[v] + b] && a < p->nstrat[u]; a++) {
			if (!m->alive[p->sfirst[u] + a])
				continue;
			int64_t c = sli_iopddl_add(f->cost[p->sfirst[u] + a],
			                           pair_from(m, e, u, a, b));
			if (c < bc)
				bc = c, best = a;
		}
		if (m->alive[p->sfirst[v] + b] && bc >= SLI_FORBIDDEN) {
			f->pick.n = at;
			return false;
		}
		SL_VEC_PUSH(f->pick, (uint32_t)best);
	}
	for (size_t b = 0; b < p->nstrat[v]; b++)
		if (m->alive[p->sfirst[v] + b])
			f->cost[p->sfirst[v] + b] += f->cost[p->sfirst[u] + f->pick.v[at + b]] +
			        pair_from(m, e, u, f->pick.v[at + b], b);
	f->via[u] = (uint32_t)e;
	f->at[u] = at;
	return true;
}

/* Folds node u, a tree left with no edge: its cheapest strategy. */
static void
fold_root(sli_iopddl_fold *f, const sli_iopddl_model *m, size_t u)
{
	const sl_iopddl *p = m->p;
	size_t best = SIZE_MAX;
	for (size_t a = 0; a < p->nstrat[u]; a++)
		if (m->alive[p->sfirst[u] + a] && (best == SIZE_MAX ||
		    f->cost[p->sfirst[u] + a] < f->cost[p->sfirst[u] + best]))
			best = a;
	f->constant += f->cost[p->sfirst[u] + best];
	f->via[u] = UINT32_MAX;
	f->at[u] = f->pick.n;
	SL_VEC_PUSH(f->pick, (uint32_t)best);
}

void
sli_iopddl_fold_init(sli_iopddl_fold *f, const sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	size_t n = p->nnodes, ns = p->sfirst[n];
	memset(f, 0, sizeof *f);
	f->cost = sli_xmalloc((ns + 1) * sizeof *f->cost);
	memcpy(f->cost, m->cost, ns * sizeof *f->cost);
	f->folded = sli_xcalloc(n + 1, 1);
	f->via = sli_xmalloc((n + 1) * sizeof *f->via);
	f->at = sli_xmalloc((n + 1) * sizeof *f->at);
	/* the nodes of some row may not fold (their usage counts) */
	unsigned char *keep = sli_xcalloc(n + 1, 1);
	for (size_t k = 0; k < m->rnode.n; k++)
		keep[m->rnode.v[k]] = 1;
	SL_VEC(uint32_t) work = {0};
	for (size_t i = 0; i < n; i++)
		if (m->nalive[i] > 1 && !keep[i])
			SL_VEC_PUSH(work, (uint32_t)i);
	while (work.n) {
		size_t u = work.v[--work.n], deg;
		if (f->folded[u])
			continue;
		size_t e = only_edge(f, m, u, &deg);
		if (deg == 0)
			fold_root(f, m, u);
		else if (e == SIZE_MAX || m->nalive[other(p, e, u)] < 2 ||
		         !fold_leaf(f, m, u, e))
			continue;
		f->folded[u] = 1;
		SL_VEC_PUSH(f->order, (uint32_t)u);
		/* its neighbour may be a leaf now */
		size_t v = deg ? other(p, e, u) : SIZE_MAX;
		if (v != SIZE_MAX && !keep[v] && m->nalive[v] > 1)
			SL_VEC_PUSH(work, (uint32_t)v);
	}
	SL_VEC_FREE(work);
	free(keep);
}

void
sli_iopddl_fold_fini(sli_iopddl_fold *f)
{
	free(f->cost);
	free(f->folded);
	free(f->via);
	free(f->at);
	SL_VEC_FREE(f->order);
	SL_VEC_FREE(f->pick);
}

void
sli_iopddl_fold_unfold(const sli_iopddl_fold *f, const sli_iopddl_model *m,
                       int64_t *sol)
{
	for (size_t k = f->order.n; k-- > 0; ) {
		size_t u = f->order.v[k];
		size_t b = f->via[u] == UINT32_MAX ? 0
		         : (size_t)sol[other(m->p, f->via[u], u)];
		sol[u] = f->pick.v[f->at[u] + b];
	}
}

/*
 * iopddl_fold.c - folds the nodes whose usage no memory row counts into
 * their neighbours (see iopddl_fold.h):
 *   a leaf u on edge e to v adds min over a of cost(u, a) + C(a, b) to
 *     each strategy b of v, and remembers its argmin; v may then
 *     become a leaf;
 *   a node u with two edges, to v and w, becomes the edge (v, w) of
 *     cost min over a of cost(u, a) + C1(a, b) + C2(a, c), summed into
 *     the edge v and w have (if any): fewer columns, and an LP at least
 *     as tight (u's choice is exact for each (b, c)); v or w may then
 *     become a leaf or have two edges;
 *   a tree left without edges adds its least cost to a constant.
 * Exact: the folded node meets the rest of the problem only through its
 * neighbours.  On G about 350 of 764 nodes fold as leaves, and 115 more
 * with two edges: the ILP goes from 65,658 columns and 12,710 rows
 * (leaves alone) to 48,036 and 9,944; on B (56 more) from 77,844 and
 * 15,202 to 67,741 and 13,802.
 */
#include "solver/iopddl_fold.h"

#include <stdlib.h>
#include <string.h>

/* A node whose usage counts, or with one strategy: never folded. */
static bool
fixed(const sli_iopddl_model *m, const unsigned char *keep, size_t i)
{
	return keep[i] || m->nalive[i] < 2;
}

static size_t
nstrat(const sli_iopddl_model *m, size_t i)
{
	return m->p->nstrat[i];
}

static bool
alive(const sli_iopddl_model *m, size_t i, size_t s)
{
	return m->alive[m->p->sfirst[i] + s];
}

int64_t
sli_iopddl_fold_pair(const sli_iopddl_fold *f, const sli_iopddl_model *m,
                     size_t k, size_t a, size_t b)
{
	const sli_iopddl_fedge *e = &f->edges.v[k];
	if (e->orig != UINT32_MAX)
		return sli_iopddl_pair(m, e->orig, a, b);
	return f->ecost.v[e->off + a * nstrat(m, e->v) + b];
}

/* The other end of edge k from node i. */
static size_t
other(const sli_iopddl_fold *f, size_t k, size_t i)
{
	const sli_iopddl_fedge *e = &f->edges.v[k];
	return e->u == i ? e->v : e->u;
}

/* Edge k's cost of (strategy a of i, strategy b of the other end). */
static int64_t
pair_from(const sli_iopddl_fold *f, const sli_iopddl_model *m, size_t k,
          size_t i, size_t a, size_t b)
{
	return f->edges.v[k].u == i ? sli_iopddl_fold_pair(f, m, k, a, b)
	                            : sli_iopddl_fold_pair(f, m, k, b, a);
}

static void
add_edge(sli_iopddl_fold *f, uint32_t u, uint32_t v, uint32_t orig, size_t off)
{
	size_t k = f->edges.n;
	SL_VEC_PUSH(f->edges, ((sli_iopddl_fedge){u, v, orig, off, true}));
	SL_VEC_PUSH(f->hnext, f->head[u]);
	f->head[u] = 2 * k;
	SL_VEC_PUSH(f->hnext, f->head[v]);
	f->head[v] = 2 * k + 1;
}

/* Node i's first two alive edges (SIZE_MAX: fewer); their number, up to 3. */
static size_t
edges_of(const sli_iopddl_fold *f, size_t i, size_t k[2])
{
	size_t n = 0;
	k[0] = k[1] = SIZE_MAX;
	for (size_t h = f->head[i]; h != SIZE_MAX && n < 3; h = f->hnext.v[h])
		if (f->edges.v[h / 2].alive) {
			if (n < 2)
				k[n] = h / 2;
			n++;
		}
	return n;
}

/* The alive edge between v and w, or SIZE_MAX. */
static size_t
edge_between(const sli_iopddl_fold *f, size_t v, size_t w)
{
	for (size_t h = f->head[v]; h != SIZE_MAX; h = f->hnext.v[h])
		if (f->edges.v[h / 2].alive && other(f, h / 2, v) == w)
			return h / 2;
	return SIZE_MAX;
}

/* Folds leaf u on edge k into its neighbour; false when some strategy
 * of the neighbour has no allowed pair (then nothing changed). */
static bool
fold_leaf(sli_iopddl_fold *f, const sli_iopddl_model *m, size_t u, size_t k)
{
	const sl_iopddl *p = m->p;
	size_t v = other(f, k, u), at = f->pick.n;
	for (size_t b = 0; b < p->nstrat[v]; b++) {
		size_t best = 0;
		int64_t bc = SLI_FORBIDDEN;
		for (size_t a = 0; alive(m, v, b) && a < p->nstrat[u]; a++) {
			if (!alive(m, u, a))
				continue;
			int64_t c = sli_iopddl_add(f->cost[p->sfirst[u] + a],
			                           pair_from(f, m, k, u, a, b));
			if (c < bc)
				bc = c, best = a;
		}
		if (alive(m, v, b) && bc >= SLI_FORBIDDEN) {
			f->pick.n = at;
			return false;
		}
		SL_VEC_PUSH(f->pick, (uint32_t)best);
	}
	for (size_t b = 0; b < p->nstrat[v]; b++)
		if (alive(m, v, b))
			f->cost[p->sfirst[v] + b] += f->cost[p->sfirst[u] + f->pick.v[at + b]] +
			        pair_from(f, m, k, u, f->pick.v[at + b], b);
	f->edges.v[k].alive = false;
	f->nb[u][0] = (uint32_t)v;
	f->at[u] = at;
	return true;
}

/*
 * Whether node u, with edges k1 to v and k2 to w, is worth folding into
 * an edge (v, w): one is there already, or the new one has no more
 * pairs than u's columns and its two edges have.
 */
static bool
series_pays(const sli_iopddl_fold *f, const sli_iopddl_model *m, size_t u,
            size_t v, size_t w)
{
	if (edge_between(f, v, w) != SIZE_MAX)
		return true;
	uint64_t nu = m->nalive[u], nv = m->nalive[v], nw = m->nalive[w];
	return nv * nw <= nu * (nv + nw + 1);
}

/*
 * Folds node u, with edges k1 to v and k2 to w, into a new edge (v, w),
 * the edge between them (if any) summed in.  Pairs that no strategy of
 * u allows are forbidden (the ILP's marginals then keep them out).
 */
static void
fold_series(sli_iopddl_fold *f, const sli_iopddl_model *m, size_t u,
            size_t k1, size_t k2)
{
	const sl_iopddl *p = m->p;
	size_t v = other(f, k1, u), w = other(f, k2, u), nv = p->nstrat[v],
	       nw = p->nstrat[w], old = edge_between(f, v, w);
	size_t off = f->ecost.n, at = f->pick.n;
	for (size_t b = 0; b < nv; b++)
		for (size_t c = 0; c < nw; c++) {
			size_t best = 0;
			int64_t bc = SLI_FORBIDDEN;
			for (size_t a = 0; alive(m, v, b) && alive(m, w, c) &&
			     a < p->nstrat[u]; a++) {
				if (!alive(m, u, a))
					continue;
				int64_t x = sli_iopddl_add(f->cost[p->sfirst[u] + a],
				            sli_iopddl_add(pair_from(f, m, k1, u, a, b),
				                           pair_from(f, m, k2, u, a, c)));
				if (x < bc)
					bc = x, best = a;
			}
			if (old != SIZE_MAX)
				bc = sli_iopddl_add(bc, pair_from(f, m, old, v, b, c));
			SL_VEC_PUSH(f->ecost, bc);
			SL_VEC_PUSH(f->pick, (uint32_t)best);
		}
	f->edges.v[k1].alive = f->edges.v[k2].alive = false;
	if (old != SIZE_MAX)
		f->edges.v[old].alive = false;
	add_edge(f, (uint32_t)v, (uint32_t)w, UINT32_MAX, off);
	f->nb[u][0] = (uint32_t)v;
	f->nb[u][1] = (uint32_t)w;
	f->at[u] = at;
	f->series++;
}

/* Folds node u, a tree left with no edge: its cheapest strategy. */
static void
fold_root(sli_iopddl_fold *f, const sli_iopddl_model *m, size_t u)
{
	const sl_iopddl *p = m->p;
	size_t best = SIZE_MAX;
	for (size_t a = 0; a < p->nstrat[u]; a++)
		if (alive(m, u, a) && (best == SIZE_MAX ||
		    f->cost[p->sfirst[u] + a] < f->cost[p->sfirst[u] + best]))
			best = a;
	f->constant += f->cost[p->sfirst[u] + best];
	f->at[u] = f->pick.n;
	SL_VEC_PUSH(f->pick, (uint32_t)best);
}

/* Folds node u if it can be; whether it did. */
static bool
fold_node(sli_iopddl_fold *f, const sli_iopddl_model *m, size_t u, bool series)
{
	size_t k[2], deg = edges_of(f, u, k);
	if (deg == 0) {
		fold_root(f, m, u);
		return true;
	}
	if (deg == 1)
		return m->nalive[other(f, k[0], u)] > 1 && fold_leaf(f, m, u, k[0]);
	if (deg > 2 || !series)
		return false;
	size_t v = other(f, k[0], u), w = other(f, k[1], u);
	if (v == w || m->nalive[v] < 2 || m->nalive[w] < 2 ||
	    !series_pays(f, m, u, v, w))
		return false;
	fold_series(f, m, u, k[0], k[1]);
	return true;
}

static void
init_arrays(sli_iopddl_fold *f, const sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	size_t n = p->nnodes, ns = p->sfirst[n];
	memset(f, 0, sizeof *f);
	f->cost = sli_xmalloc((ns + 1) * sizeof *f->cost);
	memcpy(f->cost, m->cost, ns * sizeof *f->cost);
	f->folded = sli_xcalloc(n + 1, 1);
	f->nb = sli_xmalloc((n + 1) * sizeof *f->nb);
	f->at = sli_xmalloc((n + 1) * sizeof *f->at);
	f->head = sli_xmalloc((n + 1) * sizeof *f->head);
	for (size_t i = 0; i < n; i++) {
		f->nb[i][0] = f->nb[i][1] = UINT32_MAX;
		f->head[i] = SIZE_MAX;
	}
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e])
			add_edge(f, p->eu[e], p->ev[e], (uint32_t)e, 0);
}

void
sli_iopddl_fold_init(sli_iopddl_fold *f, const sli_iopddl_model *m, bool series)
{
	size_t n = m->p->nnodes;
	init_arrays(f, m);
	/* the nodes of some row may not fold (their usage counts) */
	unsigned char *keep = sli_xcalloc(n + 1, 1);
	for (size_t k = 0; k < m->rnode.n; k++)
		keep[m->rnode.v[k]] = 1;
	SL_VEC(uint32_t) work = {0};
	for (size_t i = 0; i < n; i++)
		if (!fixed(m, keep, i))
			SL_VEC_PUSH(work, (uint32_t)i);
	while (work.n) {
		size_t u = work.v[--work.n], k[2];
		if (f->folded[u])
			continue;
		size_t deg = edges_of(f, u, k);
		if (!fold_node(f, m, u, series))
			continue;
		f->folded[u] = 1;
		SL_VEC_PUSH(f->order, (uint32_t)u);
		/* its neighbours may fold now */
		for (size_t j = 0; j < deg && j < 2; j++) {
			size_t v = other(f, k[j], u);
			if (!fixed(m, keep, v))
				SL_VEC_PUSH(work, (uint32_t)v);
		}
	}
	SL_VEC_FREE(work);
	free(keep);
}

void
sli_iopddl_fold_fini(sli_iopddl_fold *f)
{
	free(f->cost);
	free(f->folded);
	free(f->nb);
	free(f->at);
	free(f->head);
	SL_VEC_FREE(f->order);
	SL_VEC_FREE(f->pick);
	SL_VEC_FREE(f->edges);
	SL_VEC_FREE(f->ecost);
	SL_VEC_FREE(f->hnext);
}

void
sli_iopddl_fold_unfold(const sli_iopddl_fold *f, const sli_iopddl_model *m,
                       int64_t *sol)
{
	for (size_t k = f->order.n; k-- > 0; ) {
		size_t u = f->order.v[k], at = f->at[u];
		uint32_t v = f->nb[u][0], w = f->nb[u][1];
		if (v != UINT32_MAX)
			at += (size_t)sol[v] * (w != UINT32_MAX ? nstrat(m, w) : 1);
		if (w != UINT32_MAX)
			at += (size_t)sol[w];
		sol[u] = f->pick.v[at];
	}
}

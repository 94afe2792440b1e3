/*
 * iopddl_lns.c - the neighbourhoods of the large-neighbourhood search
 * (iopddl_solve.c runs it after the Lagrangian search on V and L): a
 * region of nodes is left free, every other node is fixed at the answer,
 * and the sub-model that remains (up to a budget of columns) goes to the
 * ILP.  A region grows breadth first (by the alive edges) from seeds: a
 * random node; a few nodes that can trade memory, live at a time slot
 * where the answer's usage is near the limit (only several nodes moving
 * together get past it); the nodes that start in a stretch of time; the
 * ends of an edge picked by its cost in the answer; or those with a
 * node that can trade memory within their lifetimes.  A node whose
 * fixed neighbours leave it one strategy (on V most pairs are
 * forbidden) takes them into the region, while the budget allows.
 * Also the widening of a restricted model by each node's cheapest
 * strategy at each of its usages (sli_iopddl_widen_levels).
 * The sub-model keeps m's numbering: a fixed node has one alive
 * strategy (its node cost and the edges to other fixed nodes go to the
 * ILP's constant), the edges from fixed to free nodes are folded into
 * the free nodes' costs, and its memory rows are those of the time
 * slots where free nodes are live, less the fixed nodes' usage there.
 */
#include "solver/iopddl_lns.h"

#include <stdlib.h>
#include <string.h>

/* A tight slot: its usage within this share of the limit */
#define TIGHT_SHARE 0.02
/* Seeds of a region at a tight slot, at most */
#define TIGHT_SEEDS 3
/* Rounds of taking in the neighbours that pin a region's nodes */
#define PIN_ROUNDS 16

static uint64_t
rnd(sli_iopddl_lns *L)
{
	/* xorshift64*: deterministic, one stream per search */
	L->rng ^= L->rng >> 12;
	L->rng ^= L->rng << 25;
	L->rng ^= L->rng >> 27;
	return L->rng * 2685821657736338717ULL;
}

void
sli_iopddl_lns_init(sli_iopddl_lns *L, const sli_iopddl_model *m, uint64_t seed)
{
	const sl_iopddl *p = m->p;
	size_t ns = p->sfirst[p->nnodes], n = p->nnodes;
	memset(L, 0, sizeof *L);
	L->m = m;
	L->rng = seed ? seed : 1;
	L->nslots = sli_iopddl_slots(p, &L->t0, &L->t1);
	L->load = sli_xmalloc((L->nslots + 1) * sizeof *L->load);
	L->isfree = sli_xcalloc(n + 1, 1);
	L->region = sli_xmalloc((n + 1) * sizeof *L->region);
	L->dom = sli_xmalloc((n + 1) * sizeof *L->dom);
	L->out = sli_xmalloc((n + 1) * sizeof *L->out);
	L->sub = *m;
	L->sub.cost = sli_xmalloc((ns + 1) * sizeof *L->sub.cost);
	L->sub.alive = sli_xmalloc(ns + 1);
	L->sub.nalive = sli_xmalloc((n + 1) * sizeof *L->sub.nalive);
	L->sub.ealive = sli_xmalloc(p->nedges + 1);
	memset(&L->sub.rows, 0, sizeof L->sub.rows);
	memset(&L->sub.rnode, 0, sizeof L->sub.rnode);
}

void
sli_iopddl_lns_fini(sli_iopddl_lns *L)
{
	free(L->t0);
	free(L->t1);
	free(L->load);
	free(L->isfree);
	free(L->region);
	free(L->dom);
	free(L->out);
	free(L->sub.cost);
	free(L->sub.alive);
	free(L->sub.nalive);
	free(L->sub.ealive);
	SL_VEC_FREE(L->sub.rows);
	SL_VEC_FREE(L->sub.rnode);
}

/* L->load: the usage of sol at each slot, of the nodes fixed (!isfree). */
static void
fixed_load(sli_iopddl_lns *L, const int64_t *sol)
{
	const sl_iopddl *p = L->m->p;
	memset(L->load, 0, (L->nslots + 1) * sizeof *L->load);
	for (size_t i = 0; i < p->nnodes; i++) {
		if (L->isfree[i] || L->t0[i] >= L->t1[i])
			continue;
		int64_t u = p->usage[p->sfirst[i] + (size_t)sol[i]];
		L->load[L->t0[i]] += u;
		L->load[L->t1[i]] -= u;
	}
	int64_t run = 0;
	for (size_t t = 0; t < L->nslots; t++)
		L->load[t] = run += L->load[t];
}

/* Node i's alive strategies that no neighbour outside the region
 * forbids at its strategy in L->sol (those the sub-model keeps, until
 * a neighbour joins the region). */
static uint32_t
domain(const sli_iopddl_lns *L, size_t i)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	uint32_t n = 0;
	for (size_t s = 0; s < p->nstrat[i]; s++) {
		bool ok = m->alive[p->sfirst[i] + s];
		for (size_t k = m->afirst[i]; ok && k < m->afirst[i + 1]; k++) {
			size_t e = m->aedge[k];
			if (p->eu[e] == i && !L->isfree[p->ev[e]])
				ok = sli_iopddl_pair(m, e, s, (size_t)L->sol[p->ev[e]]) < SLI_FORBIDDEN;
			else if (p->ev[e] == i && !L->isfree[p->eu[e]])
				ok = sli_iopddl_pair(m, e, (size_t)L->sol[p->eu[e]], s) < SLI_FORBIDDEN;
		}
		n += ok;
	}
	return n;
}

/* Adds node i to the region (once, only a node with a choice, and
 * while its columns, counted as the ILP would make them with the
 * region as it is, stay in budget; sli_iopddl_lns_fix then trims the
 * region to the budget by its true count). */
static void
take(sli_iopddl_lns *L, size_t i)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	if (L->isfree[i] || m->nalive[i] < 2)
		return;
	uint32_t d = domain(L, i);
	size_t add = d;
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
		size_t e = m->aedge[k], j = p->eu[e] == i ? p->ev[e] : p->eu[e];
		if (L->isfree[j])
			add += (size_t)d * L->dom[j];
	}
	if (add > L->budget - L->cols)
		return;
	L->cols += add;
	L->dom[i] = d;
	L->isfree[i] = 1;
	L->region[L->nregion++] = (uint32_t)i;
}

/* A slot where sol's usage is near the limit (within TIGHT_SHARE of
 * it, at random), else the most used one; within [lo, hi) when lo < hi
 * (and that stretch has one). */
static size_t
tight_slot(sli_iopddl_lns *L, const int64_t *sol, size_t lo, size_t hi)
{
	const sl_iopddl *p = L->m->p;
	memset(L->isfree, 0, p->nnodes);
	fixed_load(L, sol);
	if (lo >= hi || hi > L->nslots)
		lo = 0, hi = L->nslots;
	size_t best = lo, n = 0;
	for (size_t t = lo; t < hi; t++)
		if (L->load[t] > L->load[best])
			best = t;
	int64_t near = p->has_limit ? p->usage_limit - (int64_t)(TIGHT_SHARE *
	               (double)p->usage_limit) : L->load[best];
	for (size_t t = lo; t < hi; t++)
		if (L->load[t] >= near && rnd(L) % ++n == 0)
			best = t;
	return best;
}

/* Whether node i's alive strategies differ in usage (it can trade memory). */
static bool
trades(const sli_iopddl_model *m, size_t i)
{
	const sl_iopddl *p = m->p;
	if (m->nalive[i] < 2 || !m->inrow[i])
		return false;
	for (size_t s = 0; s < p->nstrat[i]; s++)
		if (m->alive[p->sfirst[i] + s] && sli_iopddl_coef(m, i, s) > 0)
			return true;
	return false;
}

/*
 * Seeds: up to n nodes that can trade memory, live at slot t (a tight
 * one), in random order.  Few seeds, so that the breadth-first growth
 * takes their neighbours too: on V most pairs are forbidden, and a node
 * whose neighbours stay fixed keeps its strategy.
 */
static void
seed_tight(sli_iopddl_lns *L, size_t t, size_t n)
{
	const sli_iopddl_model *m = L->m;
	size_t nl = 0;
	uint32_t *live = sli_xmalloc((m->p->nnodes + 1) * sizeof *live);
	for (size_t i = 0; i < m->p->nnodes; i++)
		if (L->t0[i] <= t && t < L->t1[i] && trades(m, i))
			live[nl++] = (uint32_t)i;
	for (size_t j = 0; j < nl && L->nregion < n; j++) {
		size_t r = j + (size_t)(rnd(L) % (nl - j));
		uint32_t x = live[r];
		live[r] = live[j];
		take(L, x);
	}
	free(live);
}

/*
 * Seeds: the ends of an edge picked with odds in proportion to its cost
 * at sol (where the answer pays: on V a handful of edges carry most of
 * it), and (trade) a node that can trade memory at a tight slot of
 * their lifetimes: the one may grow its usage when the other shrinks.
 */
static void
seed_costly(sli_iopddl_lns *L, const int64_t *sol, bool trade)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	double total = 0;
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e])
			total += (double)sli_iopddl_pair(m, e, (size_t)sol[p->eu[e]],
			                                 (size_t)sol[p->ev[e]]);
	if (total <= 0)
		return;
	double at = total * (double)(rnd(L) >> 11) / (double)(UINT64_C(1) << 53);
	size_t e = 0;
	for (; e < p->nedges; e++) {
		if (!m->ealive[e])
			continue;
		at -= (double)sli_iopddl_pair(m, e, (size_t)sol[p->eu[e]], (size_t)sol[p->ev[e]]);
		if (at < 0)
			break;
	}
	if (e == p->nedges)
		return;
	size_t u = p->eu[e], v = p->ev[e];
	size_t lo = L->t0[u] < L->t0[v] ? L->t0[u] : L->t0[v];
	size_t hi = L->t1[u] > L->t1[v] ? L->t1[u] : L->t1[v];
	size_t t = trade ? tight_slot(L, sol, lo, hi) : 0;
	take(L, u);
	take(L, v);
	if (trade)
		seed_tight(L, t, L->nregion + 1);
}

/* Seeds: the nodes that start at a stretch of consecutive slots from a
 * random one, up to k: a stretch of the program. */
static void
seed_window(sli_iopddl_lns *L, size_t k)
{
	const sli_iopddl_model *m = L->m;
	size_t n = m->p->nnodes, *at = sli_xcalloc(L->nslots + 2, sizeof *at);
	uint32_t *by = sli_xmalloc((n + 1) * sizeof *by);
	/* the nodes by start slot (counting sort) */
	for (size_t i = 0; i < n; i++)
		at[L->t0[i] + 1]++;
	for (size_t t = 0; t < L->nslots; t++)
		at[t + 1] += at[t];
	for (size_t i = 0; i < n; i++)
		by[at[L->t0[i]]++] = (uint32_t)i;
	size_t first = n ? (size_t)(rnd(L) % n) : 0;
	for (size_t j = first; j < n && L->nregion < k; j++)
		take(L, by[j]);
	free(by);
	free(at);
}

size_t
sli_iopddl_lns_pick(sli_iopddl_lns *L, const int64_t *sol, size_t k, size_t budget,
                    unsigned mode)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	memset(L->isfree, 0, p->nnodes);
	L->nregion = 0;
	L->cols = 0;
	L->budget = budget;
	L->sol = sol;
	if (mode == SLI_LNS_TIGHT)
		seed_tight(L, tight_slot(L, sol, 0, 0), 1 + (size_t)(rnd(L) % TIGHT_SEEDS));
	else if (mode == SLI_LNS_WINDOW)
		seed_window(L, k);
	else if (mode == SLI_LNS_COSTLY || mode == SLI_LNS_TRADE)
		seed_costly(L, sol, mode == SLI_LNS_TRADE);
	/* breadth first from the seeds, each node's edges in random order;
	 * from a new random node when the seeds' components are taken */
	for (size_t q = 0, tries = 0; L->nregion < k && tries < 8 * k; tries++) {
		if (q == L->nregion) {
			take(L, (size_t)(rnd(L) % p->nnodes));
			continue;
		}
		size_t i = L->region[q], a = m->afirst[i], d = m->afirst[i + 1] - a;
		size_t off = d ? (size_t)(rnd(L) % d) : 0;
		for (size_t j = 0; j < d && L->nregion < k; j++) {
			size_t e = m->aedge[a + (j + off) % d];
			take(L, p->eu[e] == i ? p->ev[e] : p->eu[e]);
		}
		q++;
	}
	return L->nregion;
}

/* The nodes and edges of the sub-model; false when a free node lost its
 * choice (all but one strategy forbidden by its fixed neighbours). */
static bool
fix_nodes(sli_iopddl_lns *L, const int64_t *sol)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	sli_iopddl_model *s = &L->sub;
	memcpy(s->cost, m->cost, p->sfirst[p->nnodes] * sizeof *s->cost);
	memcpy(s->alive, m->alive, p->sfirst[p->nnodes]);
	memcpy(s->nalive, m->nalive, p->nnodes * sizeof *s->nalive);
	memcpy(s->ealive, m->ealive, p->nedges);
	for (size_t i = 0; i < p->nnodes; i++) {
		if (L->isfree[i] || m->nalive[i] < 2)
			continue;
		memset(s->alive + p->sfirst[i], 0, p->nstrat[i]);
		s->alive[p->sfirst[i] + (size_t)sol[i]] = 1;
		s->nalive[i] = 1;
	}
	for (size_t e = 0; e < p->nedges; e++) {
		size_t u = p->eu[e], v = p->ev[e], su = (size_t)sol[u], sv = (size_t)sol[v];
		if (!m->ealive[e] || (L->isfree[u] && L->isfree[v]))
			continue;
		s->ealive[e] = 0;
		if (!L->isfree[u] && !L->isfree[v]) {
			int64_t *c = &s->cost[p->sfirst[u] + su];
			*c = sli_iopddl_add(*c, sli_iopddl_pair(m, e, su, sv));
		} else if (L->isfree[v]) {
			for (size_t b = 0; b < p->nstrat[v]; b++) {
				int64_t *c = &s->cost[p->sfirst[v] + b];
				*c = sli_iopddl_add(*c, sli_iopddl_pair(m, e, su, b));
			}
		} else {
			for (size_t a = 0; a < p->nstrat[u]; a++) {
				int64_t *c = &s->cost[p->sfirst[u] + a];
				*c = sli_iopddl_add(*c, sli_iopddl_pair(m, e, a, sv));
			}
		}
	}
	bool ok = true;
	for (size_t r = 0; r < L->nregion; r++) {
		size_t i = L->region[r], k0 = p->sfirst[i];
		for (size_t t = 0; t < p->nstrat[i]; t++)
			if (s->alive[k0 + t] && s->cost[k0 + t] >= SLI_FORBIDDEN) {
				s->alive[k0 + t] = 0;
				s->nalive[i]--;
			}
		if (s->nalive[i] < 2) {
			/* fixed after all: the caller builds again */
			L->isfree[i] = 0;
			ok = false;
		}
	}
	return ok;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/*
 * The rows: between consecutive ends of the free nodes' intervals the
 * set of free live nodes stays the same; one row for it, its bound the
 * limit less the most the fixed nodes use in that stretch.  Rows that
 * the free nodes can not break are left out.
 */
static void
sub_rows(sli_iopddl_lns *L, const int64_t *sol)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	sli_iopddl_model *s = &L->sub;
	s->rows.n = s->rnode.n = 0;
	if (!p->has_limit)
		return;
	fixed_load(L, sol);
	uint32_t *ends = sli_xmalloc((2 * L->nregion + 1) * sizeof *ends);
	size_t ne = 0;
	for (size_t r = 0; r < L->nregion; r++)
		if (L->t0[L->region[r]] < L->t1[L->region[r]]) {
			ends[ne++] = L->t0[L->region[r]];
			ends[ne++] = L->t1[L->region[r]];
		}
	qsort(ends, ne, sizeof *ends, cmp_u32);
	for (size_t k = 0; k + 1 < ne; k++) {
		if (ends[k] == ends[k + 1])
			continue;
		int64_t most = INT64_MIN;
		for (size_t t = ends[k]; t < ends[k + 1]; t++)
			if (L->load[t] > most)
				most = L->load[t];
		sli_iopddl_row row = {s->rnode.n, 0, p->usage_limit - most};
		int64_t reach = 0;
		for (size_t r = 0; r < L->nregion; r++) {
			size_t i = L->region[r], k0 = p->sfirst[i];
			if (L->t0[i] > ends[k] || L->t1[i] <= ends[k])
				continue;
			int64_t top = 0;
			for (size_t t = 0; t < p->nstrat[i]; t++)
				if (s->alive[k0 + t] && sli_iopddl_coef(m, i, t) > top)
					top = sli_iopddl_coef(m, i, t);
			row.rhs -= m->umin[i];
			reach += top;
			SL_VEC_PUSH(s->rnode, (uint32_t)i);
			row.n++;
		}
		if (row.n && reach > row.rhs)
			SL_VEC_PUSH(s->rows, row);
		else
			s->rnode.n = row.first;
	}
	free(ends);
}

/* The sub-model's columns (free nodes' strategies, pairs of the edges
 * between them), as the ILP makes them at most. */
static size_t
sub_cols(const sli_iopddl_lns *L)
{
	const sli_iopddl_model *s = &L->sub;
	const sl_iopddl *p = s->p;
	size_t n = 0;
	for (size_t r = 0; r < L->nregion; r++)
		n += s->nalive[L->region[r]];
	for (size_t e = 0; e < p->nedges; e++)
		if (s->ealive[e] && L->isfree[p->eu[e]] && L->isfree[p->ev[e]])
			n += (size_t)s->nalive[p->eu[e]] * s->nalive[p->ev[e]];
	return n;
}

/* fix_nodes until every free node has a choice. */
static void
fix_region(sli_iopddl_lns *L, const int64_t *sol)
{
	while (!fix_nodes(L, sol)) {
		size_t k = 0;
		for (size_t r = 0; r < L->nregion; r++)
			if (L->isfree[L->region[r]])
				L->region[k++] = L->region[r];
		L->nregion = k;
	}
}

/*
 * The region's nodes that their fixed neighbours leave one strategy
 * (fix_nodes took them out) go back in, with those neighbours, while
 * the budget allows, for up to PIN_ROUNDS rounds: on V most pairs are
 * forbidden, a neighbour fixed at the answer pins a node, and the pins
 * cascade until whole regions are fixed.  True when it took any.
 */
static bool
unpin(sli_iopddl_lns *L)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	size_t n = L->nregion, nout = 0;
	uint32_t *out = L->out;
	/* all back in first: take must not list one of them twice */
	for (size_t r = 0; r < n; r++)
		if (!L->isfree[L->region[r]]) {
			out[nout++] = L->region[r];
			L->isfree[L->region[r]] = 1;
		}
	for (size_t r = 0; r < nout; r++) {
		size_t i = out[r];
		for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
			size_t e = m->aedge[k];
			take(L, p->eu[e] == i ? p->ev[e] : p->eu[e]);
		}
	}
	return L->nregion > n;
}

void
sli_iopddl_lns_fix(sli_iopddl_lns *L, const int64_t *sol)
{
	for (int round = 0; round < PIN_ROUNDS && !fix_nodes(L, sol) && unpin(L); round++)
		;
	fix_region(L, sol);
	/* over budget (nodes that joined opened their neighbours' strategies
	 * up): the last taken go back, an eighth at a time */
	for (size_t n; L->budget && (n = sub_cols(L)) > L->budget && L->nregion > 1; ) {
		size_t keep = L->nregion - (L->nregion + 7) / 8;
		for (size_t r = keep; r < L->nregion; r++)
			L->isfree[L->region[r]] = 0;
		L->nregion = keep;
		fix_region(L, sol);
	}
	sub_rows(L, sol);
}

int64_t
sli_iopddl_against(const sli_iopddl_model *m, size_t i, size_t s, const int64_t *sol)
{
	const sl_iopddl *p = m->p;
	int64_t c = m->cost[p->sfirst[i] + s];
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
		size_t e = m->aedge[k];
		c = sli_iopddl_add(c, p->eu[e] == i
		        ? sli_iopddl_pair(m, e, s, (size_t)sol[p->ev[e]])
		        : sli_iopddl_pair(m, e, (size_t)sol[p->eu[e]], s));
	}
	return c;
}

void
sli_iopddl_widen_levels(const sli_iopddl_model *m, const int64_t *sol,
                        unsigned char *alive, uint32_t *nalive)
{
	const sl_iopddl *p = m->p;
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t k0 = p->sfirst[i], ns = p->nstrat[i];
		if (m->nalive[i] < 2 || !m->inrow[i])
			continue;
		for (size_t s = 0; s < ns; s++) {
			/* s stands for its usage when the first of the cheapest */
			int64_t u = p->usage[k0 + s];
			int64_t c = sli_iopddl_against(m, i, s, sol);
			bool best = m->alive[k0 + s] && c < SLI_FORBIDDEN;
			for (size_t t = 0; t < ns && best; t++) {
				if (t == s || !m->alive[k0 + t] || p->usage[k0 + t] != u)
					continue;
				int64_t ct = sli_iopddl_against(m, i, t, sol);
				best = ct > c || (ct == c && t > s);
			}
			if (best && !alive[k0 + s]) {
				alive[k0 + s] = 1;
				nalive[i]++;
			}
		}
	}
}

/*
 * iopddl_lns.c - the neighbourhoods of the large-neighbourhood search
 * (iopddl_solve.c runs it after the Lagrangian search on V and L): a
 * region of nodes is left free, every other node is fixed at the answer,
 * and the sub-model that remains (a few thousand columns) goes to the
 * ILP.  A region is either the nodes around a random one (by the alive
 * edges) or nodes live at a time slot where the answer's usage is near
 * the limit, and their neighbours: the usage limit binds there, and
 * only several nodes moving together get past it.
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

/* Adds node i to the region (once, only a node with a choice, and
 * while its columns, counted as the ILP makes them, stay in budget). */
static void
take(sli_iopddl_lns *L, size_t i)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	if (L->isfree[i] || m->nalive[i] < 2)
		return;
	size_t add = m->nalive[i];
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
		size_t e = m->aedge[k], j = p->eu[e] == i ? p->ev[e] : p->eu[e];
		if (L->isfree[j])
			add += (size_t)m->nalive[i] * m->nalive[j];
	}
	if (add > L->budget - L->cols)
		return;
	L->cols += add;
	L->isfree[i] = 1;
	L->region[L->nregion++] = (uint32_t)i;
}

/* A slot where sol's usage is near the limit (within TIGHT_SHARE of
 * it, at random), else the most used one. */
static size_t
tight_slot(sli_iopddl_lns *L, const int64_t *sol)
{
	const sl_iopddl *p = L->m->p;
	memset(L->isfree, 0, p->nnodes);
	fixed_load(L, sol);
	size_t best = 0, n = 0;
	for (size_t t = 0; t < L->nslots; t++)
		if (L->load[t] > L->load[best])
			best = t;
	int64_t near = p->has_limit ? p->usage_limit - (int64_t)(TIGHT_SHARE *
	               (double)p->usage_limit) : L->load[best];
	for (size_t t = 0; t < L->nslots; t++)
		if (L->load[t] >= near && rnd(L) % ++n == 0)
			best = t;
	return best;
}

/* Seeds: the nodes live at a tight slot (up to k), in random order. */
static void
seed_tight(sli_iopddl_lns *L, const int64_t *sol, size_t k)
{
	const sli_iopddl_model *m = L->m;
	size_t t = tight_slot(L, sol), n = 0;
	uint32_t *live = sli_xmalloc((m->p->nnodes + 1) * sizeof *live);
	for (size_t i = 0; i < m->p->nnodes; i++)
		if (L->t0[i] <= t && t < L->t1[i] && m->nalive[i] > 1 && m->inrow[i])
			live[n++] = (uint32_t)i;
	for (size_t j = 0; j < n && L->nregion < k; j++) {
		size_t r = j + (size_t)(rnd(L) % (n - j));
		uint32_t x = live[r];
		live[r] = live[j];
		take(L, x);
	}
	free(live);
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
	if (mode == SLI_LNS_TIGHT)
		seed_tight(L, sol, k);
	else if (mode == SLI_LNS_WINDOW)
		seed_window(L, k);
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

void
sli_iopddl_lns_fix(sli_iopddl_lns *L, const int64_t *sol)
{
	while (!fix_nodes(L, sol)) {
		size_t k = 0;
		for (size_t r = 0; r < L->nregion; r++)
			if (L->isfree[L->region[r]])
				L->region[k++] = L->region[r];
		L->nregion = k;
	}
	sub_rows(L, sol);
}

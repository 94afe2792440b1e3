/*
 * iopddl_heur.c - the local search on a reduced IOPDDL model: the ILP's
 * warm start, and the answer where the ILP is too large.
 * A greedy start (nodes in order, each at its cheapest strategy against
 * the neighbours already placed, within the usage limit: a node's least
 * usage always fits); then moves of one node (its best strategy against
 * its neighbours) and of both ends of an edge, until none helps; then,
 * while time is left, iterated local search: a subtree of the graph
 * re-solved exactly with the rest fixed (min-sum over the tree; now and
 * then with no node's usage growing, now and then at a forbidden pair
 * left), or a few random nodes perturbed, then improved, and the change
 * undone unless it costs no more than a shrinking allowance (threshold
 * accepting: the walk may cross worse answers; the best is kept).
 * Forbidden pairs cost PENALTY, so the
 * search leaves them.  The usage at every time (a segment tree over the
 * intervals' ends, not the memory rows: on L those hold 45 million
 * entries) stays within the limit at every step.
 * The repair (for the Lagrangian search's answers, which may break the
 * limit): from every node at its least usage, the nodes move to their
 * strategies in the answer where they fit, those that save the most per
 * usage added first; then the moves of one node and of an edge.
 */
#include "solver/iopddl_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/lp.h"

#define PENALTY (INT64_C(1) << 50)
/* The iterated local search keeps a change that costs at most this
 * share of the best answer more than before it (threshold accepting,
 * the share down to 0 at its end); the best answer is returned.  On V
 * from the Lagrangian search's answer 3593092, in 34 s: 1774015, where
 * keeping only changes that cost no more ends at 1791645 */
#define ACCEPT 0.01
/* The repair's time to clear forbidden pairs, at most (seconds) */
#define CLEAN_MAX 2.0
/* The work of the search on the model's clock: costs of a node at a
 * strategy, or of a pair, looked at (each with a node's edges: an entry
 * of a cost table) at this many a second */
#define LS_RATE 2.7e8

typedef struct undo {
	uint32_t node;
	uint32_t old;
} undo;

typedef struct ls {
	const sli_iopddl_model *m;
	int64_t *sol;		/* local strategy per node */
	/* usage over time: a segment tree over the intervals' ends, with
	 * range add and range max; node i spans leaves [t0[i], t1[i]) */
	size_t ntimes;
	int64_t *mx, *lz;
	uint32_t *t0, *t1;
	int64_t total;		/* node and edge costs, penalties included */
	SL_VEC(undo) log;	/* moves since the last mark */
	SL_VEC(uint32_t) queue;	/* nodes to look at again */
	unsigned char *queued;
	uint64_t rng;
	double work;		/* entries looked at, not yet on the clock */
} ls;

static int64_t
pen(int64_t c)
{
	return c >= SLI_FORBIDDEN ? PENALTY : c;
}

/* The entries that the costs of node i at each strategy look at. */
static double
node_work(const sli_iopddl_model *m, size_t i)
{
	return (double)m->p->nstrat[i] * (double)(1 + m->afirst[i + 1] - m->afirst[i]);
}

/* Whether m's clock, L's work put on it, reads end or later. */
static bool
past(ls *L, double end)
{
	sli_iopddl_spend(L->m, L->work, LS_RATE);
	L->work = 0;
	return sli_iopddl_now(L->m) >= end;
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

/* {====================================================================
 * Usage over time: range add, range max
 * ===================================================================== */

static void
seg_add(ls *L, size_t x, size_t lo, size_t hi, size_t a, size_t b, int64_t d)
{
	if (b <= lo || hi <= a)
		return;
	if (a <= lo && hi <= b) {
		L->mx[x] += d;
		L->lz[x] += d;
		return;
	}
	size_t mid = (lo + hi) / 2;
	seg_add(L, 2 * x, lo, mid, a, b, d);
	seg_add(L, 2 * x + 1, mid, hi, a, b, d);
	int64_t l = L->mx[2 * x], r = L->mx[2 * x + 1];
	L->mx[x] = (l > r ? l : r) + L->lz[x];
}

static int64_t
seg_max(const ls *L, size_t x, size_t lo, size_t hi, size_t a, size_t b)
{
	if (b <= lo || hi <= a)
		return INT64_MIN / 4;
	if (a <= lo && hi <= b)
		return L->mx[x];
	size_t mid = (lo + hi) / 2;
	int64_t l = seg_max(L, 2 * x, lo, mid, a, b);
	int64_t r = seg_max(L, 2 * x + 1, mid, hi, a, b);
	return (l > r ? l : r) + L->lz[x];
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

size_t
sli_iopddl_slots(const sl_iopddl *p, uint32_t **t0, uint32_t **t1)
{
	int64_t *t = sli_xmalloc((2 * p->nnodes + 1) * sizeof *t);
	size_t n = 0;
	for (size_t i = 0; i < p->nnodes; i++)
		if (p->lo[i] < p->hi[i])
			t[n++] = p->lo[i], t[n++] = p->hi[i];
	qsort(t, n, sizeof *t, cmp_i64);
	size_t u = 0;
	for (size_t k = 0; k < n; k++)
		if (!u || t[u - 1] != t[k])
			t[u++] = t[k];
	*t0 = sli_xcalloc(p->nnodes + 1, sizeof **t0);
	*t1 = sli_xcalloc(p->nnodes + 1, sizeof **t1);
	for (size_t i = 0; i < p->nnodes; i++) {
		if (p->lo[i] >= p->hi[i])
			continue;
		int64_t *a = bsearch(&p->lo[i], t, u, sizeof *t, cmp_i64);
		int64_t *b = bsearch(&p->hi[i], t, u, sizeof *t, cmp_i64);
		(*t0)[i] = (uint32_t)(a - t);
		(*t1)[i] = (uint32_t)(b - t);
	}
	free(t);
	return u ? u : 1;
}

/* The tree over the time slots; no usage yet. */
static void
seg_init(ls *L)
{
	L->ntimes = sli_iopddl_slots(L->m->p, &L->t0, &L->t1);
	L->mx = sli_xcalloc(4 * L->ntimes + 1, sizeof *L->mx);
	L->lz = sli_xcalloc(4 * L->ntimes + 1, sizeof *L->lz);
}

static void
seg_fini(ls *L)
{
	free(L->mx);
	free(L->lz);
	free(L->t0);
	free(L->t1);
}

/* Adds d to the usage over node i's interval. */
static void
use(ls *L, size_t i, int64_t d)
{
	if (d && L->t0[i] < L->t1[i])
		seg_add(L, 1, 0, L->ntimes, L->t0[i], L->t1[i], d);
}

/* The peak usage over node i's interval. */
static int64_t
peak_at(const ls *L, size_t i)
{
	if (L->t0[i] >= L->t1[i])
		return 0;
	return seg_max(L, 1, 0, L->ntimes, L->t0[i], L->t1[i]);
}

static int64_t
usage(const ls *L, size_t i, size_t s)
{
	return L->m->p->usage[L->m->p->sfirst[i] + s];
}

/* Whether node i may move to s with the usage limit kept. */
static bool
fits(const ls *L, size_t i, size_t s)
{
	const sl_iopddl *p = L->m->p;
	int64_t d = usage(L, i, s) - usage(L, i, (size_t)L->sol[i]);
	return d <= 0 || !p->has_limit || peak_at(L, i) + d <= p->usage_limit;
}

/* }==================================================================== */

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
	L->total += local(L, i, s) - local(L, i, old);
	use(L, i, usage(L, i, s) - usage(L, i, old));
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
	L->work += node_work(m, u) + node_work(m, v) +
	           (double)p->nstrat[u] * (double)p->nstrat[v];
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
			L->work += node_work(m, i);
			if (gain > 0)
				move(L, i, s, true);
			if (++steps % 1024 == 0 && past(L, end))
				return;
		}
		bool moved = false;
		if (all) {
			for (size_t e = 0; e < p->nedges; e++) {
				/* (a sweep of L's edges takes a second) */
				if (e % 1024 == 0 && past(L, end))
					return;
				if (m->ealive[e] && edge_move(L, e))
					moved = true;
			}
		} else {
			for (size_t k = 0, n = L->log.n; k < n; k++) {
				size_t i = L->log.v[k].node;
				for (size_t a = m->afirst[i]; a < m->afirst[i + 1]; a++)
					if (edge_move(L, m->aedge[a]))
						moved = true;
			}
		}
		if (!moved || past(L, end))
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
		use(L, i, usage(L, i, s0));
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
		use(L, i, usage(L, i, bs) - usage(L, i, (size_t)L->sol[i]));
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

/* {====================================================================
 * Tree moves: a subtree of the graph re-solved exactly, the rest fixed
 * ===================================================================== */

#define INF (INT64_MAX / 4)

typedef struct tree {
	SL_VEC(uint32_t) node;	/* in breadth-first order from the root */
	SL_VEC(uint32_t) parent;	/* index in node of the parent (root: none) */
	SL_VEC(uint32_t) pedge;	/* the edge to the parent */
	SL_VEC(size_t) moff;	/* node t's costs: msg[moff[t] + s] */
	SL_VEC(size_t) aoff;	/* its best strategy per parent strategy: arg[aoff[t] + q] */
	SL_VEC(int64_t) msg;
	SL_VEC(uint32_t) arg;
	SL_VEC(uint32_t) pick;
	uint32_t *pos;		/* per node: index in node + 1, 0 when out */
} tree;

static size_t
other_end(const sl_iopddl *p, size_t e, size_t i)
{
	return p->eu[e] == i ? p->ev[e] : p->eu[e];
}

static void
tree_add(tree *T, size_t i, uint32_t parent, uint32_t pedge)
{
	SL_VEC_PUSH(T->node, (uint32_t)i);
	SL_VEC_PUSH(T->parent, parent);
	SL_VEC_PUSH(T->pedge, pedge);
	T->pos[i] = (uint32_t)T->node.n;
}

/*
 * Grows T from root breadth first to at most maxn nodes, taking a node
 * only when one of its edges leads into T: T stays a tree of the graph
 * (no edge between two of its nodes but the tree's own).
 */
static void
grow(const ls *L, tree *T, size_t root, size_t maxn)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	T->node.n = T->parent.n = T->pedge.n = 0;
	tree_add(T, root, UINT32_MAX, UINT32_MAX);
	for (size_t h = 0; h < T->node.n && T->node.n < maxn; h++) {
		size_t x = T->node.v[h];
		for (size_t k = m->afirst[x]; k < m->afirst[x + 1] && T->node.n < maxn; k++) {
			size_t e = m->aedge[k], y = other_end(p, e, x), in = 0;
			if (T->pos[y] || m->nalive[y] < 2)
				continue;
			for (size_t f = m->afirst[y]; f < m->afirst[y + 1] && in < 2; f++)
				in += T->pos[other_end(p, m->aedge[f], y)] != 0;
			if (in == 1)
				tree_add(T, y, (uint32_t)h, (uint32_t)e);
		}
	}
}

/* Whether T's node t may take s: alive, and (monotone) no more usage. */
static bool
allowed(const ls *L, size_t i, size_t s, bool monotone)
{
	const sli_iopddl_model *m = L->m;
	return m->alive[m->p->sfirst[i] + s] &&
	       (!monotone || sli_iopddl_coef(m, i, s) <= sli_iopddl_coef(m, i, (size_t)L->sol[i]));
}

/*
 * The cheapest strategies of T's nodes with every other node as it is
 * (min-sum over the tree, leaves first), into T->pick.  Monotone: no
 * node's usage grows, so every row still holds.  Returns the entries it
 * looked at (its work).
 */
static double
solve_tree(const ls *L, tree *T, bool monotone)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	size_t n = T->node.n;
	double work = 0;
	T->moff.n = T->aoff.n = T->msg.n = T->arg.n = 0;
	for (size_t t = 0; t < n; t++) {
		size_t i = T->node.v[t];
		work += node_work(m, i);
		if (t)
			work += (double)p->nstrat[i] *
			        (double)p->nstrat[T->node.v[T->parent.v[t]]];
		SL_VEC_PUSH(T->moff, T->msg.n);
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			int64_t c = INF;
			if (allowed(L, i, s, monotone)) {
				c = pen(m->cost[p->sfirst[i] + s]);
				for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++)
					if (!T->pos[other_end(p, m->aedge[k], i)])
						c += edge_at(L, m->aedge[k], i, s);
			}
			SL_VEC_PUSH(T->msg, c);
		}
		SL_VEC_PUSH(T->aoff, T->arg.n);
		size_t nq = t ? p->nstrat[T->node.v[T->parent.v[t]]] : 0;
		SL_VEC_RESERVE(T->arg, T->arg.n + nq + 1);
		T->arg.n += nq;
	}
	for (size_t t = n; t-- > 1;) {
		size_t i = T->node.v[t], q = T->parent.v[t], j = T->node.v[q];
		size_t e = T->pedge.v[t];
		bool head = p->eu[e] == j;
		for (size_t a = 0; a < p->nstrat[j]; a++) {
			int64_t *mq = &T->msg.v[T->moff.v[q] + a];
			if (*mq >= INF)
				continue;
			int64_t best = INF;
			uint32_t arg = 0;
			for (size_t b = 0; b < p->nstrat[i]; b++) {
				int64_t c = T->msg.v[T->moff.v[t] + b];
				if (c >= INF)
					continue;
				c += pen(head ? sli_iopddl_pair(m, e, a, b) : sli_iopddl_pair(m, e, b, a));
				if (c < best)
					best = c, arg = (uint32_t)b;
			}
			T->arg.v[T->aoff.v[t] + a] = arg;
			*mq = best >= INF ? INF : *mq + best;
		}
	}
	T->pick.n = 0;
	SL_VEC_RESERVE(T->pick, n + 1);
	T->pick.n = n;
	size_t root = T->node.v[0];
	int64_t best = INF;
	T->pick.v[0] = (uint32_t)L->sol[root];
	for (size_t s = 0; s < p->nstrat[root]; s++)
		if (T->msg.v[s] < best)
			best = T->msg.v[s], T->pick.v[0] = (uint32_t)s;
	for (size_t t = 1; t < n; t++)
		T->pick.v[t] = T->arg.v[T->aoff.v[t] + T->pick.v[T->parent.v[t]]];
	return work;
}

/* Whether the usage limit holds over node i's interval. */
static bool
rows_hold(const ls *L, size_t i)
{
	const sl_iopddl *p = L->m->p;
	return !p->has_limit || peak_at(L, i) <= p->usage_limit;
}

static void
undo_all(ls *L)
{
	while (L->log.n) {
		undo u = L->log.v[--L->log.n];
		size_t mark = L->log.n;
		move(L, u.node, u.old, false);
		L->log.n = mark;
	}
}

/* Moves T's nodes to their picks; false (and undone) when a row breaks. */
static bool
apply_tree(ls *L, const tree *T)
{
	for (size_t t = 0; t < T->node.n; t++)
		move(L, T->node.v[t], T->pick.v[t], true);
	for (size_t t = 0; t < T->node.n; t++)
		if (!rows_hold(L, T->node.v[t])) {
			undo_all(L);
			return false;
		}
	return true;
}

static void
tree_fini(tree *T)
{
	SL_VEC_FREE(T->node);
	SL_VEC_FREE(T->parent);
	SL_VEC_FREE(T->pedge);
	SL_VEC_FREE(T->moff);
	SL_VEC_FREE(T->aoff);
	SL_VEC_FREE(T->msg);
	SL_VEC_FREE(T->arg);
	SL_VEC_FREE(T->pick);
	free(T->pos);
}

/* }==================================================================== */

static void
ls_init(ls *L, const sli_iopddl_model *m, int64_t *sol)
{
	memset(L, 0, sizeof *L);
	L->m = m;
	L->sol = sol;
	L->rng = 0x9E3779B97F4A7C15ULL;
	seg_init(L);
	L->queued = sli_xcalloc(m->p->nnodes + 1, 1);
}

/* Frees L; the cost of its solution, or -1 when it has a forbidden pair. */
static int64_t
ls_fini(ls *L)
{
	int64_t c = total(L);
	seg_fini(L);
	free(L->queued);
	SL_VEC_FREE(L->log);
	SL_VEC_FREE(L->queue);
	return c >= PENALTY ? -1 : c;
}

/* The usage of the solution held, and its total; every node queued. */
static void
load(ls *L)
{
	const sl_iopddl *p = L->m->p;
	for (size_t i = 0; i < p->nnodes; i++)
		use(L, i, usage(L, i, (size_t)L->sol[i]));
	L->total = total(L);
	for (size_t i = p->nnodes; i-- > 0;)
		push(L, i);
}

/*
 * The iterated local search from the solution held, until end (or, when
 * clean, until no forbidden pair is left).
 */
static void
iterate(ls *L, double end, bool clean)
{
	const sli_iopddl_model *m = L->m;
	const sl_iopddl *p = m->p;
	L->log.n = 0;
	int64_t best_total = L->total;
	double accept = clean ? 0 : ACCEPT, start = sli_iopddl_now(m);
	int64_t *best = sli_xmalloc((p->nnodes + 1) * sizeof *best);
	memcpy(best, L->sol, p->nnodes * sizeof *best);
	tree T = {0};
	SL_VEC(uint32_t) bad = {0};	/* edges at a forbidden pair */
	T.pos = sli_xcalloc(p->nnodes + 1, sizeof *T.pos);
	for (unsigned long it = 0; !past(L, end); it++) {
		int64_t cur = L->total;
		if (it % 4 == 3) {
			perturb(L);
		} else {
			/* now and then a tree at a forbidden pair, to repair it */
			if (it % 64 == 0) {
				bad.n = 0;
				L->work += L->total >= PENALTY ? (double)p->nedges : 0;
				for (size_t e = 0; e < p->nedges && L->total >= PENALTY; e++)
					if (m->ealive[e] && edge_at(L, e, p->eu[e],
					                            (size_t)L->sol[p->eu[e]]) >= PENALTY)
						SL_VEC_PUSH(bad, (uint32_t)e);
			}
			size_t root = next_rand(L) % p->nnodes;
			if (bad.n && next_rand(L) % 2) {
				size_t e = bad.v[next_rand(L) % bad.n];
				root = next_rand(L) % 2 ? p->eu[e] : p->ev[e];
			}
			if (m->nalive[root] < 2)
				continue;
			grow(L, &T, root, 2 + next_rand(L) % (it % 8 == 0 ? 400 : 40));
			L->work += solve_tree(L, &T, it % 2);
			bool ok = apply_tree(L, &T);
			for (size_t t = 0; t < T.node.n; t++)
				T.pos[T.node.v[t]] = 0;
			if (!ok)
				continue;
		}
		improve(L, end, false);
		/* the allowance: a share of the best, down to 0 at end */
		double frac = (sli_iopddl_now(m) - start) / fmax(1e-9, end - start);
		double allow = best_total < PENALTY && isfinite(end)
		             ? accept * (double)best_total * fmax(0, 1 - frac) : 0;
		if (L->total < best_total) {
			best_total = L->total;
			memcpy(best, L->sol, p->nnodes * sizeof *best);
		} else if ((double)L->total > (double)cur + allow) {
			undo_all(L);
		}
		L->log.n = 0;
		while (L->queue.n)
			L->queued[L->queue.v[--L->queue.n]] = 0;
		if (clean && L->total < PENALTY)
			break;
	}
	if (L->total > best_total) {
		memcpy(L->sol, best, p->nnodes * sizeof *best);
		memset(L->mx, 0, (4 * L->ntimes + 1) * sizeof *L->mx);
		memset(L->lz, 0, (4 * L->ntimes + 1) * sizeof *L->lz);
		load(L);
		while (L->queue.n)
			L->queued[L->queue.v[--L->queue.n]] = 0;
	}
	free(best);
	tree_fini(&T);
	SL_VEC_FREE(bad);
}

int64_t
sli_iopddl_heuristic(const sli_iopddl_model *m, int64_t *sol, double end,
                     bool use_all_time, bool from_sol)
{
	ls L;
	ls_init(&L, m, sol);
	if (from_sol) {
		load(&L);
	} else {
		greedy(&L);
		L.total = total(&L);
		for (size_t i = m->p->nnodes; i-- > 0;)
			push(&L, i);
	}
	improve(&L, end, true);
	if (use_all_time)
		iterate(&L, end, false);
	past(&L, end);	/* (puts the rest of L's work on the clock) */
	return ls_fini(&L);
}

/* {====================================================================
 * Repair: a solution above the usage limit brought within it
 * ===================================================================== */

typedef struct gain {
	double ratio;		/* cost saved per usage added */
	uint32_t node;
} gain;

static int
by_gain(const void *a, const void *b)
{
	double x = ((const gain *)a)->ratio, y = ((const gain *)b)->ratio;
	return (x < y) - (x > y);
}

/* Node i's least usage strategy (its cheapest among them). */
static size_t
least_usage(const sli_iopddl_model *m, size_t i)
{
	const sl_iopddl *p = m->p;
	size_t bs = SIZE_MAX;
	for (size_t s = 0; s < p->nstrat[i]; s++)
		if (m->alive[p->sfirst[i] + s] && sli_iopddl_coef(m, i, s) == 0 &&
		    (bs == SIZE_MAX || m->cost[p->sfirst[i] + s] < m->cost[p->sfirst[i] + bs]))
			bs = s;
	return bs;
}

int64_t
sli_iopddl_repair(const sli_iopddl_model *m, int64_t *sol, double end)
{
	const sl_iopddl *p = m->p;
	ls L;
	ls_init(&L, m, sol);
	L.total = total(&L);
	/* what each node saves at its target, the others at theirs, per
	 * usage it adds over its least usage */
	gain *g = sli_xmalloc((p->nnodes + 1) * sizeof *g);
	int64_t *target = sli_xmalloc((p->nnodes + 1) * sizeof *target);
	memcpy(target, sol, p->nnodes * sizeof *target);
	size_t n = 0;
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t lo = least_usage(m, i), s = (size_t)target[i];
		if (lo == s || lo == SIZE_MAX)
			continue;
		double du = (double)(usage(&L, i, s) - usage(&L, i, lo));
		double dc = (double)(local(&L, i, lo) - local(&L, i, s));
		g[n++] = (gain){du > 0 ? dc / du : INFINITY, (uint32_t)i};
	}
	qsort(g, n, sizeof *g, by_gain);
	/* from the least usage everywhere (within the limit), towards the
	 * target, the best savers first, each where it fits */
	for (size_t i = 0; i < p->nnodes; i++)
		if (least_usage(m, i) != SIZE_MAX)
			sol[i] = (int64_t)least_usage(m, i);
	load(&L);
	for (size_t k = 0; k < n; k++) {
		size_t i = g[k].node, s = (size_t)target[i];
		if (fits(&L, i, s))
			move(&L, i, s, true);
	}
	free(g);
	free(target);
	/* (the passes above: a few per strategy and edge) */
	L.work += 4 * (double)p->sfirst[p->nnodes] + (double)p->nedges;
	improve(&L, end, true);
	/* forbidden pairs left (the answer's, or from the moves above):
	 * the search's repairs, briefly */
	if (L.total >= PENALTY)
		iterate(&L, fmin(end, sli_iopddl_now(m) + CLEAN_MAX), true);
	past(&L, end);	/* (puts the rest of L's work on the clock) */
	return ls_fini(&L);
}

/*
 * iopddl_solve.c - solves an IOPDDL problem: the reductions
 * (iopddl_reduce.c), the local search (iopddl_heur.c), then the tight
 * ILP through the shared backend (solver/lp.h, GLPK), started from the
 * local search's answer.  The ILP, on the reduced model:
 *   x(i,s) binary for each alive strategy of a node with two or more,
 *     sum_s x(i,s) = 1;
 *   p(e,a,b) in [0,1] for each allowed pair of an alive edge (these edges
 *     join two such nodes and are not separable), with the equality
 *     marginals sum_b p(e,a,b) = x(u,a) and sum_a p(e,a,b) = x(v,b)
 *     (integral x make p integral);
 *   one row per kept memory row: sum (usage - umin) x <= rhs;
 *   minimise the node costs, the pair costs, and the costs of the nodes
 *     with one strategy (a constant);
 *   the trees of nodes in no memory row are folded into the nodes they
 *     hang from first (iopddl_fold.c), without columns, and so are such
 *     nodes with two edges (into an edge between their neighbours);
 *   the Lagrangian search (iopddl_lagr.c) first improves the local
 *     search's answer, then the LP goes by way of a smaller one (the
 *     cheapest and the free pairs, and the answer's) whose basis starts
 *     the full LP; an answer at the LP bound needs no branch and cut.
 * --write-lp and --write-mps export the reference model: the same
 * without the folds of nodes with two edges (what CBC is compared on).
 * A model too large for the ILP in time (V, L: more than LS_BIG columns)
 * gets the local search, the Lagrangian search (iopddl_lagr.c), the
 * local search again from the best answer, the ILP restricted to the
 * strategies the Lagrangian search met, both searches again with the
 * usage fixed where the answer is near the limit (level_search), then
 * the large-neighbourhood search (iopddl_lns.c: regions of the model
 * free, the rest fixed).
 * Every answer is scored by the evaluator (iopddl_eval.c) and reported
 * with its cost; an ILP objective that disagrees with it is a bug.
 */
#include "solver/iopddl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/context.h"
#include "solver/iopddl_fold.h"
#include "solver/iopddl_lns.h"
#include "solver/iopddl_model.h"
#include "solver/lp.h"

/* Models with more columns go to the local search alone (see opts). */
#define MAX_COLS 2000000
/* The local search before the ILP: this share of the time, at most ... */
#define LS_SHARE 0.05
#define LS_MAX 2.0
#define LS_PER_COL 1e-6		/* (a tiny model needs none; B and G: its
				 * answer is 10-25x the optimum, found in
				 * the LP or by branch and cut instead) */
/* A model of more columns than LS_BIG gets no ILP: the Lagrangian search
 * this share of the time, then the local search from the best answer */
#define LS_BIG 300000
#define LAGR_SHARE 0.35
#define LAGR_MAX 35.0
/* ... then the local search this share, then the ILP on the strategies
 * the Lagrangian search met (when its memory rows are not too large);
 * neither gets more than its MAX seconds: L's answer got worse with
 * more of both (100 s limit: 1.031x the best known, 200 s: 1.043x,
 * 300 s: 1.055x) */
#define ILS_SHARE 0.1
#define ILS_MAX 10.0
/* ... after the ILP on the strategies the Lagrangian search met, both
 * again as long (at most this share of the time left), with the usage
 * of the nodes live where the answer's is within LEVEL_TIGHT of the
 * limit fixed (level_search) */
#define LEVEL_TIGHT 0.1
#define LEVEL_SHARE 0.5
#define MAX_ROW_ENTRIES 2000000
/* ... rounds of it with each node's WIDEN_STEP more cheapest strategies
 * against its answer, while it ends proven in time, this much time is
 * left (seconds) and it has at most this many columns */
#define WIDEN_STEP 1
#define WIDEN_MIN_LEFT 2.0
#define RESTRICT_MAX_COLS LS_BIG
/* ... and no new round after this share of the time (the
 * large-neighbourhood search gets the rest) */
#define WIDEN_SHARE 0.6
/* ... then the large-neighbourhood search: regions of LNS_K0 nodes at
 * first, grown by LNS_GROW while their ILP ends within LNS_GROW_BELOW of
 * its time, shrunk by LNS_SHRINK when it does not end, and to at most
 * LNS_MAX_COLS columns (GLPK's presolver is not timed); each ILP gets
 * this share of the time left, within [LNS_IT_MIN, LNS_IT_MAX] seconds */
#define LNS_K0 24
#define LNS_KMIN 4
#define LNS_MAX_COLS 60000
#define LNS_GROW 1.15
#define LNS_GROW_BELOW 0.25
#define LNS_SHRINK 1.3
#define LNS_IT_SHARE 0.05
#define LNS_IT_MIN 1.0
#define LNS_IT_MAX 10.0
#define LNS_MIN_LEFT 0.5
#define LNS_SEED 0x9e3779b97f4a7c15ULL
/* ... and ends when none of its regions helped for this share of its
 * time (at least LNS_STALE_MIN seconds): the local search from its
 * answer gets the rest (V at 300 s: 73 s of regions, none better) */
#define LNS_STALE_SHARE 0.25
#define LNS_STALE_MIN 5.0
/* The Lagrangian search before the ILP of a model of at most LS_BIG
 * columns: this many seconds per column, at most this share of the time
 * and LAGR_SMALL_MAX seconds (G 0.17 s, B 0.23 s; was 0.6 s for both:
 * it found their optima within 0.15 s at load 4 on 2 cores) */
#define LAGR_SMALL_PER_COL 1.5e-6
#define LAGR_SMALL_SHARE 0.02
#define LAGR_SMALL_MAX 0.6
/* The end kept free for what follows the search: this share, plus this
 * many seconds per strategy and pair of the problem (freeing it, and the
 * process's exit: L, 4M of them, 0.35 s), at most ... */
#define MARGIN_SHARE 0.03
#define MARGIN_PER_ENTRY 1e-7
#define MARGIN_MAX 5.0
/* The time that reading a problem and its reductions take, estimated per
 * strategy and pair (search_time) */
#define START_PER_ENTRY 1e-6
/* ... and of the rest, this share: the work the clock does not count
 * (decoding answers, the evaluator, GLPK's work outside the simplex
 * method) takes time, and the wall clock must not end a search first */
#define SEARCH_SHARE 0.9
/* The work of an ILP on the searches' clock (sli_iopddl_clock), in
 * seconds: per simplex iteration and column of the model, and per
 * iteration and row (V's restricted models: 0.1-0.5 ms an iteration);
 * per node of branch and cut and product of its columns and rows (its
 * cuts and refactoring: 30-90 ms a node on V's restricted models of 12k
 * columns and 6k rows, at load 4-7); per column and entry of the model
 * built.  On a quiet machine V's restricted ILP took 107 s for 114 s of
 * work, its Lagrangian search 24 s for 35 (L's: 40 s for 35) */
#define ILP_IT_SECONDS 2.5e-9
#define ILP_ROW_IT_SECONDS 7e-8
#define ILP_NODE_SECONDS 5.5e-10
#define ILP_BUILD_SECONDS 1e-7
/* Branch and cut by pseudocosts only on the whole model of at most this
 * many columns (see run_ilp) */
#define PCOST_MAX_COLS 100000

void
sl_iopddl_opts_init(sl_iopddl_opts *o)
{
	memset(o, 0, sizeof *o);
	o->gap = 1e-9;
}

void
sl_iopddl_result_fini(sl_iopddl_result *r)
{
	free(r->solution);
	r->solution = NULL;
}

/* {====================================================================
 * The ILP
 * ===================================================================== */

typedef struct ilp {
	sli_lp lp;
	sli_iopddl_fold fold;	/* the trees without columns */
	uint32_t *xcol;		/* per strategy entry: its x column, or UINT32_MAX */
	uint32_t *perm;		/* build order -> column (order_columns) */
	SL_VEC(uint32_t) seed;	/* the pairs the smaller LP starts with
				 * (build order; warm_solve) */
} ilp;

/* Columns x and one-hot rows; the fixed nodes' costs and the trees
 * folded whole are the constant, the other folded nodes have none. */
static void
build_nodes(ilp *f, const sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	const int64_t *cost = f->fold.cost;
	SL_VEC(uint32_t) idx = {0};
	SL_VEC(double) val = {0};
	f->lp.obj_const += (double)f->fold.constant;
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t k0 = p->sfirst[i];
		if (f->fold.folded[i])
			continue;
		if (m->nalive[i] == 1) {
			for (size_t s = 0; s < p->nstrat[i]; s++)
				if (m->alive[k0 + s])
					f->lp.obj_const += (double)cost[k0 + s];
			continue;
		}
		idx.n = val.n = 0;
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			if (!m->alive[k0 + s])
				continue;
			f->xcol[k0 + s] = sli_lp_col(&f->lp, (double)cost[k0 + s], 0, 1, true);
			SL_VEC_PUSH(idx, f->xcol[k0 + s]);
			SL_VEC_PUSH(val, 1.0);
		}
		sli_lp_row_add(&f->lp, idx.n, idx.v, val.v, SLI_LP_EQ, 1, NULL);
	}
	SL_VEC_FREE(idx);
	SL_VEC_FREE(val);
}

/* Whether node i has one alive edge. */
static bool
leaf(const sli_iopddl_model *m, size_t i)
{
	return m->afirst[i + 1] - m->afirst[i] == 1;
}

/*
 * The pairs of edge e that get a column (mask[a * nv + b]): the allowed
 * ones; where u is a leaf (this edge is its only one), only those whose
 * (cost of u and the edge, usage of u) no other strategy of u beats for
 * the same b: u meets the rest of the problem only there.  Likewise
 * for v.  The caller frees the mask.
 */
static unsigned char *
pair_mask(const sli_iopddl_model *m, size_t e)
{
	const sl_iopddl *p = m->p;
	size_t u = p->eu[e], v = p->ev[e], nu = p->nstrat[u], nv = p->nstrat[v];
	unsigned char *mask = sli_xcalloc(nu * nv + 1, 1);
	for (size_t a = 0; a < nu; a++)
		for (size_t b = 0; b < nv; b++)
			mask[a * nv + b] = m->alive[p->sfirst[u] + a] &&
			                   m->alive[p->sfirst[v] + b] &&
			                   sli_iopddl_pair(m, e, a, b) < SLI_FORBIDDEN;
	for (int side = 0; side < 2; side++) {
		size_t i = side ? v : u, ni = side ? nv : nu, no = side ? nu : nv;
		if (!leaf(m, i) || (side && leaf(m, u)))
			continue;
		for (size_t b = 0; b < no; b++)
			for (size_t a = 0; a < ni; a++) {
				size_t ka = side ? b * nv + a : a * nv + b;
				if (!mask[ka])
					continue;
				int64_t ca = m->cost[p->sfirst[i] + a] + m->ecost[p->efirst[e] + ka];
				int64_t ua = m->inrow[i] ? sli_iopddl_coef(m, i, a) : 0;
				for (size_t t = 0; t < ni; t++) {
					size_t kt = side ? b * nv + t : t * nv + b;
					if (t == a || !mask[kt])
						continue;
					int64_t ct = m->cost[p->sfirst[i] + t] + m->ecost[p->efirst[e] + kt];
					int64_t ut = m->inrow[i] ? sli_iopddl_coef(m, i, t) : 0;
					if (ct <= ca && ut <= ua && (ct < ca || ut < ua || t < a)) {
						mask[ka] = 0;
						break;
					}
				}
			}
	}
	return mask;
}

/*
 * The pairs of the fold's edge k that get a column: pair_mask's for a
 * model edge, the allowed ones for an edge the fold made.  The caller
 * frees the mask.
 */
static unsigned char *
edge_mask(const ilp *f, const sli_iopddl_model *m, size_t k)
{
	const sli_iopddl_fedge *fe = &f->fold.edges.v[k];
	if (fe->orig != UINT32_MAX)
		return pair_mask(m, fe->orig);
	const sl_iopddl *p = m->p;
	size_t nu = p->nstrat[fe->u], nv = p->nstrat[fe->v];
	unsigned char *mask = sli_xcalloc(nu * nv + 1, 1);
	for (size_t a = 0; a < nu; a++)
		for (size_t b = 0; b < nv; b++)
			mask[a * nv + b] = m->alive[p->sfirst[fe->u] + a] &&
			                   m->alive[p->sfirst[fe->v] + b] &&
			                   sli_iopddl_fold_pair(&f->fold, m, k, a, b) < SLI_FORBIDDEN;
	return mask;
}

/*
 * The pairs of the fold's edge k (columns col) that the smaller LP
 * (warm_solve) starts with: for each strategy of either end, its
 * cheapest pair.
 */
static void
seed_edge(ilp *f, const sli_iopddl_model *m, size_t k, const uint32_t *col)
{
	const sl_iopddl *p = m->p;
	const sli_iopddl_fedge *fe = &f->fold.edges.v[k];
	size_t nu = p->nstrat[fe->u], nv = p->nstrat[fe->v];
	for (int side = 0; side < 2; side++) {
		size_t n1 = side ? nv : nu, n2 = side ? nu : nv;
		for (size_t a = 0; a < n1; a++) {
			size_t best = SIZE_MAX;
			int64_t bc = 0;
			for (size_t b = 0; b < n2; b++) {
				size_t q = side ? b * nv + a : a * nv + b;
				int64_t c = side ? sli_iopddl_fold_pair(&f->fold, m, k, b, a)
				                 : sli_iopddl_fold_pair(&f->fold, m, k, a, b);
				if (col[q] != UINT32_MAX && (best == SIZE_MAX || c < bc))
					best = q, bc = c;
			}
			if (best != SIZE_MAX)
				SL_VEC_PUSH(f->seed, col[best]);
		}
	}
	/* and the free ones (compatible strategies): the small LP's
	 * optimum is near the full one's with them */
	for (size_t q = 0; q < nu * nv; q++)
		if (col[q] != UINT32_MAX &&
		    sli_iopddl_fold_pair(&f->fold, m, k, q / nv, q % nv) == 0)
			SL_VEC_PUSH(f->seed, col[q]);
}

/* Pair columns of the fold's edge k and its two sets of marginals. */
static void
build_edge(ilp *f, const sli_iopddl_model *m, size_t k)
{
	const sl_iopddl *p = m->p;
	const sli_iopddl_fedge *fe = &f->fold.edges.v[k];
	size_t u = fe->u, v = fe->v, nu = p->nstrat[u], nv = p->nstrat[v];
	uint32_t *col = sli_xmalloc((nu * nv + 1) * sizeof *col);
	unsigned char *mask = edge_mask(f, m, k);
	for (size_t a = 0; a < nu; a++)
		for (size_t b = 0; b < nv; b++)
			col[a * nv + b] = mask[a * nv + b]
			        ? sli_lp_col(&f->lp, (double)sli_iopddl_fold_pair(&f->fold, m, k, a, b),
			                     0, 1, false)
			        : UINT32_MAX;
	free(mask);
	seed_edge(f, m, k, col);
	SL_VEC(uint32_t) idx = {0};
	SL_VEC(double) val = {0};
	for (int side = 0; side < 2; side++) {
		size_t n1 = side ? nv : nu, n2 = side ? nu : nv, node = side ? v : u;
		for (size_t a = 0; a < n1; a++) {
			if (!m->alive[p->sfirst[node] + a])
				continue;
			idx.n = val.n = 0;
			SL_VEC_PUSH(idx, f->xcol[p->sfirst[node] + a]);
			SL_VEC_PUSH(val, -1.0);
			for (size_t b = 0; b < n2; b++) {
				uint32_t c = side ? col[b * nv + a] : col[a * nv + b];
				if (c != UINT32_MAX) {
					SL_VEC_PUSH(idx, c);
					SL_VEC_PUSH(val, 1.0);
				}
			}
			sli_lp_row_add(&f->lp, idx.n, idx.v, val.v, SLI_LP_EQ, 0, NULL);
		}
	}
	SL_VEC_FREE(idx);
	SL_VEC_FREE(val);
	free(col);
}

static void
build_rows(ilp *f, const sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	SL_VEC(uint32_t) idx = {0};
	SL_VEC(double) val = {0};
	for (size_t r = 0; r < m->rows.n; r++) {
		const sli_iopddl_row *row = &m->rows.v[r];
		idx.n = val.n = 0;
		for (size_t k = 0; k < row->n; k++) {
			size_t i = m->rnode.v[row->first + k];
			for (size_t s = 0; s < p->nstrat[i]; s++)
				if (m->alive[p->sfirst[i] + s] && sli_iopddl_coef(m, i, s) > 0) {
					SL_VEC_PUSH(idx, f->xcol[p->sfirst[i] + s]);
					SL_VEC_PUSH(val, (double)sli_iopddl_coef(m, i, s));
				}
		}
		/* usages are large (1e7) beside the unit rows: scaled to 1 */
		double scale = row->rhs > 0 ? (double)row->rhs : 1;
		for (size_t k = 0; k < val.n; k++)
			val.v[k] /= scale;
		sli_lp_row_add(&f->lp, idx.n, idx.v, val.v, SLI_LP_LE,
		               (double)row->rhs / scale, NULL);
	}
	SL_VEC_FREE(idx);
	SL_VEC_FREE(val);
}

/* The number of columns build would make (to decide before building). */
static size_t
count_cols(const sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	size_t n = 0;
	for (size_t i = 0; i < p->nnodes; i++)
		n += m->nalive[i] > 1 ? m->nalive[i] : 0;
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e])
			n += (size_t)m->nalive[p->eu[e]] * m->nalive[p->ev[e]];
	return n;
}

/*
 * Puts the columns with a cost first, those without (most pairs of
 * compatible strategies) after them, each in build order.  GLPK's dual
 * simplex is 3x faster on B and G in this order (as glp_read_lp makes
 * it: columns by first appearance in the objective).
 */
static void
order_columns(ilp *f)
{
	sli_lp *lp = &f->lp;
	size_t n = sli_lp_ncols(lp), k = 0;
	f->perm = sli_xmalloc((n + 1) * sizeof *f->perm);
	if (!n)
		return;
	for (int zero = 0; zero < 2; zero++)
		for (size_t j = 0; j < n; j++)
			if ((lp->obj.v[j] == 0) == zero)
				f->perm[j] = (uint32_t)k++;
	double *d = sli_xmalloc((n + 1) * sizeof *d);
	double *vecs[] = {lp->obj.v, lp->lb.v, lp->ub.v};
	for (size_t v = 0; v < 3; v++) {
		for (size_t j = 0; j < n; j++)
			d[f->perm[j]] = vecs[v][j];
		memcpy(vecs[v], d, n * sizeof *d);
	}
	unsigned char *b = sli_xmalloc(n + 1);
	for (size_t j = 0; j < n; j++)
		b[f->perm[j]] = lp->binary.v[j];
	memcpy(lp->binary.v, b, n);
	free(b);
	free(d);
	for (size_t k2 = 0; k2 < lp->idx.n; k2++)
		lp->idx.v[k2] = f->perm[lp->idx.v[k2]];
}

/* Whether the fold's edge k has columns (neither folded nor merged). */
static bool
built(const ilp *f, size_t k)
{
	return f->fold.edges.v[k].alive;
}

/* The ILP of m; series: with the nodes of two edges folded (else the
 * reference model, which the exports give CBC). */
static void
build(ilp *f, const sli_iopddl_model *m, bool series)
{
	const sl_iopddl *p = m->p;
	size_t ns = p->sfirst[p->nnodes];
	memset(f, 0, sizeof *f);
	sli_lp_init(&f->lp);
	f->xcol = sli_xmalloc((ns + 1) * sizeof *f->xcol);
	for (size_t k = 0; k < ns; k++)
		f->xcol[k] = UINT32_MAX;
	sli_iopddl_fold_init(&f->fold, m, series);
	build_nodes(f, m);
	for (size_t k = 0; k < f->fold.edges.n; k++)
		if (built(f, k))
			build_edge(f, m, k);
	build_rows(f, m);
	order_columns(f);
}

static void
ilp_fini(ilp *f)
{
	sli_lp_fini(&f->lp);
	sli_iopddl_fold_fini(&f->fold);
	free(f->xcol);
	free(f->perm);
	SL_VEC_FREE(f->seed);
}

/*
 * The column values of solution sol, a point of the model: the columns
 * in the order build made them (x by node, then pairs by edge).
 */
static double *
point(const ilp *f, const sli_iopddl_model *m, const int64_t *sol)
{
	const sl_iopddl *p = m->p;
	double *x = sli_xcalloc(sli_lp_ncols(&f->lp) + 1, sizeof *x);
	size_t c = 0;
	for (size_t i = 0; i < p->nnodes; i++) {
		uint32_t xc = f->xcol[p->sfirst[i] + (size_t)sol[i]];	/* build order */
		if (xc != UINT32_MAX)
			x[xc] = 1;
		c += m->nalive[i] > 1 && !f->fold.folded[i] ? m->nalive[i] : 0;
	}
	bool ok = true;
	for (size_t k = 0; k < f->fold.edges.n; k++) {
		if (!built(f, k))
			continue;
		size_t u = f->fold.edges.v[k].u, v = f->fold.edges.v[k].v, nv = p->nstrat[v];
		unsigned char *mask = edge_mask(f, m, k);
		if (!mask[(size_t)sol[u] * nv + (size_t)sol[v]])
			ok = false;
		for (size_t a = 0; a < p->nstrat[u]; a++)
			for (size_t b = 0; b < nv; b++)
				if (mask[a * nv + b])
					x[c++] = a == (size_t)sol[u] && b == (size_t)sol[v];
		free(mask);
	}
	if (!ok) {
		/* a pair without a column: not a point of the model */
		free(x);
		return NULL;
	}
	size_t n = sli_lp_ncols(&f->lp);
	double *y = sli_xmalloc((n + 1) * sizeof *y);
	for (size_t j = 0; j < n; j++)
		y[f->perm[j]] = x[j];
	free(x);
	return y;
}

/*
 * Moves every leaf of sol whose pair has no column (pair_mask) to one
 * that has, no dearer and using no more: then sol is a point of the
 * model (its rows still hold, its cost did not grow).
 */
static void
settle_leaves(const sli_iopddl_model *m, int64_t *sol)
{
	const sl_iopddl *p = m->p;
	for (size_t e = 0; e < p->nedges; e++) {
		if (!m->ealive[e])
			continue;
		size_t u = p->eu[e], v = p->ev[e], nu = p->nstrat[u], nv = p->nstrat[v];
		unsigned char *mask = pair_mask(m, e);
		for (int side = 0; side < 2; side++) {
			size_t i = side ? v : u, ni = side ? nv : nu;
			size_t b = (size_t)sol[side ? u : v], a = (size_t)sol[i];
#define AT(s) (side ? b * nv + (s) : (s) * nv + b)
			if (mask[AT(a)])
				continue;
			int64_t ca = m->cost[p->sfirst[i] + a] + m->ecost[p->efirst[e] + AT(a)];
			for (size_t t = 0; t < ni; t++)
				if (mask[AT(t)] &&
				    m->cost[p->sfirst[i] + t] + m->ecost[p->efirst[e] + AT(t)] <= ca &&
				    (!m->inrow[i] ||
				     sli_iopddl_coef(m, i, t) <= sli_iopddl_coef(m, i, a))) {
					sol[i] = (int64_t)t;
					break;
				}
#undef AT
		}
		free(mask);
	}
}

/* The strategy of every node from the column values x. */
static void
decode(const ilp *f, const sli_iopddl_model *m, const double *x, int64_t *sol)
{
	const sl_iopddl *p = m->p;
	for (size_t i = 0; i < p->nnodes; i++) {
		double bv = -1;
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			size_t k = p->sfirst[i] + s;
			if (!m->alive[k])
				continue;
			double v = f->xcol[k] == UINT32_MAX ? 1 : x[f->perm[f->xcol[k]]];
			if (v > bv)
				bv = v, sol[i] = (int64_t)s;
		}
	}
	sli_iopddl_fold_unfold(&f->fold, m, sol);
}

/* }==================================================================== */

/*
 * Exports the reference model of m (no series folds: what CBC is
 * measured on, as it always was) as asked; 0, or -1 after an error.
 * The constant (the nodes with one strategy) goes in as a column fixed
 * at 1: the LP and MPS writers drop an objective constant, and CBC's
 * optimum would then differ from the cost.
 */
static int
export(sl_context *ctx, const sli_iopddl_model *m, const sl_iopddl_opts *o)
{
	char err[256];
	if (!o->write_lp && !o->write_mps)
		return 0;
	ilp f;
	build(&f, m, false);
	sli_lp *lp = &f.lp;
	int rc = 0;
	if (lp->obj_const != 0) {
		sli_lp_col(lp, lp->obj_const, 1, 1, false);
		lp->obj_const = 0;
	}
	if (o->write_lp && sli_lp_glpk.write(lp, SLI_LP_FORMAT_LP, o->write_lp,
	                                     err, sizeof err))
		rc = -1;
	if (!rc && o->write_mps && sli_lp_glpk.write(lp, SLI_LP_FORMAT_MPS,
	                                             o->write_mps, err, sizeof err))
		rc = -1;
	if (rc)
		sli_error(ctx, sli_loc_none(), "%s", err);
	ilp_fini(&f);
	return rc;
}

/*
 * Takes sol as the answer when it is feasible and cheaper than the one
 * held (or none is held); scores it with the evaluator.
 */
static bool
offer(const sl_iopddl *p, sl_iopddl_result *r, const int64_t *sol)
{
	sl_iopddl_eval ev;
	if (sl_iopddl_evaluate(p, sol, p->nnodes, &ev))
		return false;
	if (r->solution && r->eval.cost <= ev.cost)
		return false;
	if (!r->solution)
		r->solution = sli_xmalloc((p->nnodes + 1) * sizeof *r->solution);
	memcpy(r->solution, sol, p->nnodes * sizeof *sol);
	r->eval = ev;
	r->objective = (double)ev.cost;
	return true;
}

/* {====================================================================
 * The LP from a smaller one
 * ===================================================================== */

/* The columns the first LP has: the binaries, the seeds, start's. */
static unsigned char *
seed_columns(const ilp *f, const double *start)
{
	const sli_lp *lp = &f->lp;
	size_t n = sli_lp_ncols(lp);
	unsigned char *in = sli_xmalloc(n + 1);
	for (size_t j = 0; j < n; j++)
		in[j] = lp->binary.v[j] || start[j] > 0.5;
	for (size_t k = 0; k < f->seed.n; k++)
		in[f->perm[f->seed.v[k]]] = 1;
	return in;
}

/*
 * Opens a session on lp with the columns not in `in` fixed at 0, and
 * loaded with their cost plus one: giving them their own cost later
 * changes the objective, so the session goes on by the primal simplex
 * (right here: the basis stays primal feasible, as they enter at 0).
 */
static sli_lp_session *
open_restricted(sli_lp *lp, const unsigned char *in)
{
	size_t n = sli_lp_ncols(lp);
	char err[256];
	for (size_t j = 0; j < n; j++)
		if (!in[j])
			lp->ub.v[j] = 0, lp->obj.v[j] += 1;
	sli_lp_session *s = sli_lp_glpk.open(lp, err, sizeof err);
	for (size_t j = 0; j < n; j++)
		if (!in[j])
			lp->ub.v[j] = 1, lp->obj.v[j] -= 1;
	return s;
}

/* The objective of the column values x. */
static double
objective_of(const sli_lp *lp, const double *x)
{
	double c = lp->obj_const;
	for (size_t j = 0; j < sli_lp_ncols(lp); j++)
		c += lp->obj.v[j] * x[j];
	return c;
}

/*
 * Whether start (of objective c) is proven optimal by the LP bound z:
 * the costs are integers, so no answer costs less than z rounded up.
 */
static bool
proven_by(double c, double z)
{
	return c <= ceil(z - 1e-6 * fmax(1, fabs(z))) + 1e-6;
}

/*
 * Solves f's ILP from start (a point of it) by way of a smaller LP: the
 * binaries, the seeds and start's pairs, by the dual simplex; then all
 * columns, by the primal simplex from its optimal basis (primal
 * feasible).  When start meets the LP bound it is optimal (no branch and
 * cut), else branch and cut from the LP's basis, without start.  On G,
 * the LP in 5,200 iterations instead of 7,500 (the small one's 3,500 are
 * cheap), and start from the Lagrangian search is the optimum; on B the
 * LP in 7,600 instead of 8,800.
 */
/* Drops the relaxation's values from r (lp_only). */
static void
drop_relaxation(sli_lp_result *r)
{
	free(r->x);
	free(r->dual);
	r->x = r->dual = NULL;
	r->ndual = 0;
}

static int
warm_solve(ilp *f, const sli_lp_opts *o, const double *start, sli_lp_result *r)
{
	sli_lp *lp = &f->lp;
	size_t n = sli_lp_ncols(lp);
	unsigned char *in = seed_columns(f, start);
	sli_lp_session *s = open_restricted(lp, in);
	free(in);
	if (!s)
		return sli_lp_glpk.solve(lp, o, r);
	sli_lp_opts lo = *o;
	lo.lp_only = true;
	int rc = sli_lp_glpk.resolve(s, &lo, r);
	double its = r->iterations;
	if (!rc && r->status == SLI_LP_OPTIMAL) {
		drop_relaxation(r);
		for (size_t j = 0; j < n; j++)
			sli_lp_glpk.set_col(s, (uint32_t)j, lp->obj.v[j], lp->lb.v[j],
			                    lp->ub.v[j]);
		lo.presolve = false;	/* from the small LP's basis */
		rc = sli_lp_glpk.resolve(s, &lo, r);
		its += r->iterations;
	}
	if (!rc && r->status == SLI_LP_OPTIMAL) {
		double c = objective_of(lp, start), z = r->objective;
		drop_relaxation(r);
		if (proven_by(c, z)) {
			r->x = sli_xmalloc((n + 1) * sizeof *r->x);
			memcpy(r->x, start, n * sizeof *r->x);
			r->objective = c;
			r->bound = fmin(z, c);
			r->gap = (c - r->bound) / fmax(1e-9, fabs(c));
		} else {
			lo.lp_only = false;
			rc = sli_lp_glpk.resolve(s, &lo, r);
			its += r->iterations;
		}
	}
	sli_lp_glpk.close(s);
	r->iterations = its;
	return rc;
}

/* }==================================================================== */

/*
 * The ILP, started from the answer held (if any); when warm (the whole
 * model's, not a sub-model's of the large-model searches), with the
 * series folds, by way of a smaller LP (when there is an answer).
 * 0, or -1 after an error.
 */
static int
run_ilp(sl_context *ctx, const sli_iopddl_model *m, const sl_iopddl_opts *o,
        double end, sl_iopddl_result *r, bool warm)
{
	const sl_iopddl *p = m->p;
	if (export(ctx, m, o))
		return -1;
	ilp f;
	build(&f, m, warm);
	r->ncols = sli_lp_ncols(&f.lp);
	r->nrows = f.lp.rows.n;
	for (size_t j = 0; j < r->ncols; j++)
		r->nbinaries += f.lp.binary.v[j];
	if (r->ilp_skipped) {
		ilp_fini(&f);
		return 0;
	}
	sli_lp_opts lo = {0};
	lo.deadline = m->clock ? m->clock->hard_end : end;
	/* the time to end, as work: simplex iterations of this model's size */
	double per_it = ILP_IT_SECONDS * (double)r->ncols +
	                ILP_ROW_IT_SECONDS * (double)r->nrows;
	double per_node = ILP_NODE_SECONDS * (double)r->ncols * (double)r->nrows;
	double left = end - sli_iopddl_now(m);
	if (m->clock && isfinite(end)) {
		lo.it_limit = fmax(1, floor(left / per_it));
		lo.node_its = per_node / per_it;
	}
	lo.gap = o->gap;
	lo.log = o->log;
	/* GLPK's presolver is not timed: only where it takes seconds at most */
	lo.presolve = r->ncols <= LS_BIG;
	/* all columns are binaries: G's root LP in 15% less time, B's in
	 * the same */
	lo.long_step = true;
	/* G's branch and cut: about 1 s less than most fractional first; but
	 * GLPK starts each pseudocost by copying the whole problem and
	 * refactoring it, twice per fractional binary, without a look at the
	 * clock (V's sub-models of 10-35k columns overran a 15 s limit by
	 * 0.8 s in there): only on the whole model, and not a large one */
	lo.pcost = warm && r->ncols <= PCOST_MAX_COLS;
	double *start = r->solution ? point(&f, m, r->solution) : NULL;
	lo.start = start;
	sli_lp_result lr;
	int rc = warm && start ? warm_solve(&f, &lo, start, &lr)
	                         : sli_lp_glpk.solve(&f.lp, &lo, &lr);
	sli_iopddl_spend(m, lr.iterations * per_it + lr.nodes * per_node +
	                 ILP_BUILD_SECONDS * (double)(r->ncols + f.lp.idx.n), 1);
	free(start);
	if (rc) {
		sli_error(ctx, sli_loc_none(), "the ILP solver failed: %s", lr.message);
		ilp_fini(&f);
		free(lr.x);
		return -1;
	}
	r->bound = lr.bound;
	r->status = sli_lp_public_status(lr.status);
	if (lr.x) {
		int64_t *sol = sli_xmalloc((p->nnodes + 1) * sizeof *sol);
		decode(&f, m, lr.x, sol);
		sl_iopddl_eval ev;
		if (sl_iopddl_evaluate(p, sol, p->nnodes, &ev) ||
		    fabs((double)ev.cost - lr.objective) > 0.5 + 1e-9 * fabs(lr.objective)) {
			sli_error(ctx, sli_loc_none(), "the evaluator (%s, cost %lld) "
			          "disagrees with the ILP objective %.17g (a bug in shardlp)",
			          ev.feasible ? "feasible" : ev.why, (long long)ev.cost,
			          lr.objective);
			rc = -1;
		} else if (offer(p, r, sol)) {
			r->from_heuristic = false;
		}
		free(sol);
	}
	free(lr.x);
	ilp_fini(&f);
	return rc;
}

/*
 * The ILP on mr, a restriction of the model, started from the answer
 * held (its leaves first moved to pairs that mr has); its optimum is
 * not the problem's: the status stays feasible, with no bound.  *proven:
 * whether it ended proven optimal on mr.
 */
static int
sub_ilp(sl_context *ctx, const sli_iopddl_model *mr, const sl_iopddl_opts *o,
        double end, sl_iopddl_result *r, bool *proven)
{
	const sl_iopddl *p = mr->p;
	int64_t *sol = sli_xmalloc((p->nnodes + 1) * sizeof *sol);
	memcpy(sol, r->solution, p->nnodes * sizeof *sol);
	settle_leaves(mr, sol);
	sl_iopddl_eval ev;
	if (!sl_iopddl_evaluate(p, sol, p->nnodes, &ev) && ev.cost <= r->eval.cost) {
		memcpy(r->solution, sol, p->nnodes * sizeof *sol);
		r->eval = ev;
		r->objective = (double)ev.cost;
	}
	free(sol);
	sl_iopddl_opts ro = *o;
	ro.write_lp = ro.write_mps = NULL;
	r->ilp_skipped = false;
	r->nbinaries = 0;
	int rc = run_ilp(ctx, mr, &ro, end, r, false);
	*proven = r->status == SL_SOLVE_OPTIMAL;
	r->status = SL_SOLVE_FEASIBLE;
	r->bound = -INFINITY;
	return rc;
}

/*
 * The strategies of node i the restricted ILP keeps: those of cand (with
 * a bit of bits), the answer's, and its least usage one (umin and the
 * rows stay as they are); two at least when it has two.
 */
static void
restrict_node(sli_iopddl_model *mr, const sli_iopddl_model *m, size_t i,
              const unsigned char *cand, unsigned bits, const int64_t *sol)
{
	const sl_iopddl *p = m->p;
	size_t k0 = p->sfirst[i], low = SIZE_MAX, other = SIZE_MAX;
	mr->nalive[i] = 0;
	for (size_t s = 0; s < p->nstrat[i]; s++) {
		unsigned char *a = &mr->alive[k0 + s];
		if (!*a)
			continue;
		if (low == SIZE_MAX && sli_iopddl_coef(m, i, s) == 0)
			low = s;
		*a = (cand[k0 + s] & bits) || s == (size_t)sol[i] || s == low;
		if (!*a && (other == SIZE_MAX || m->cost[k0 + s] < m->cost[k0 + other]))
			other = s;
		mr->nalive[i] += *a;
	}
	if (mr->nalive[i] < 2 && other != SIZE_MAX) {
		mr->alive[k0 + other] = 1;
		mr->nalive[i]++;
	}
}

/*
 * Adds to node i's strategies in mr its extra cheapest others of m
 * against the answer sol that cost less there than sol's own (moves the
 * usage limit blocks, as the answer is a local optimum): the
 * neighbourhood of sol that the next restricted ILP searches, small
 * enough for its rounds to end.
 */
static void
widen_node(sli_iopddl_model *mr, const sli_iopddl_model *m, size_t i,
           size_t extra, const int64_t *sol)
{
	const sl_iopddl *p = m->p;
	size_t k0 = p->sfirst[i];
	for (size_t n = 0; n < extra; n++) {
		size_t bs = SIZE_MAX;
		int64_t bc = sli_iopddl_against(m, i, (size_t)sol[i], sol);
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			if (!m->alive[k0 + s] || mr->alive[k0 + s])
				continue;
			int64_t c = sli_iopddl_against(m, i, s, sol);
			if (c < bc)
				bc = c, bs = s;
		}
		if (bs == SIZE_MAX)
			return;
		mr->alive[k0 + bs] = 1;
		mr->nalive[i]++;
	}
}

/*
 * The restricted model mr: the strategies of cand with a bit of bits,
 * the answer's and the least usage ones, and (extra > 0) each node's
 * extra cheapest others against the answer.  Whether it is small enough.
 */
static bool
restrict_model(sli_iopddl_model *mr, const sli_iopddl_model *m,
               const unsigned char *cand, unsigned bits, size_t extra,
               const int64_t *sol)
{
	const sl_iopddl *p = m->p;
	memcpy(mr->alive, m->alive, p->sfirst[p->nnodes]);
	for (size_t i = 0; i < p->nnodes; i++) {
		mr->nalive[i] = m->nalive[i];
		if (m->nalive[i] > 1)
			restrict_node(mr, m, i, cand, bits, sol);
		if (m->nalive[i] > 1 && extra)
			widen_node(mr, m, i, extra, sol);
	}
	if (extra)
		sli_iopddl_widen_levels(m, sol, mr->alive, mr->nalive);
	return count_cols(mr) <= RESTRICT_MAX_COLS;
}

/*
 * The ILP on the strategies the Lagrangian search met (all of its answers
 * when the model stays small, else only those of its repaired ones),
 * started from the answer held; then, while the rounds end proven
 * optimal on their strategies and time is left, again with each node's
 * cheapest others against the answer added (more each round), until
 * end.  Its optimum is not the problem's: the status stays feasible,
 * with no bound.
 */
static int
restricted_ilp(sl_context *ctx, const sli_iopddl_model *m, const unsigned char *cand,
               const sl_iopddl_opts *o, double end, double widen_end,
               sl_iopddl_result *r)
{
	const sl_iopddl *p = m->p;
	size_t ns = p->sfirst[p->nnodes];
	if (m->rnode.n > MAX_ROW_ENTRIES)
		return 0;
	sli_iopddl_model mr = *m;
	mr.alive = sli_xmalloc(ns + 1);
	mr.nalive = sli_xmalloc((p->nnodes + 1) * sizeof *mr.nalive);
	unsigned bits = 3;
	bool fits = restrict_model(&mr, m, cand, bits, 0, r->solution);
	if (!fits)
		fits = restrict_model(&mr, m, cand, bits = 2, 0, r->solution);
	int rc = 0;
	for (size_t extra = 0; fits && !rc; ) {
		bool done = false;
		rc = sub_ilp(ctx, &mr, o, end, r, &done);
		if (!done || sli_iopddl_now(m) >= fmin(widen_end, end - WIDEN_MIN_LEFT))
			break;
		extra += WIDEN_STEP;
		fits = restrict_model(&mr, m, cand, bits, extra, r->solution);
	}
	free(mr.alive);
	free(mr.nalive);
	return rc;
}

/*
 * The large-neighbourhood search (iopddl_lns.c): regions of the model
 * left free, the rest fixed at the answer, each sub-model's ILP started
 * from the answer, until end.  A region grows while its ILP ends proven
 * well within its time and shrinks when it does not end; regions around
 * a random node alternate with regions where the usage is near the limit.
 */
static int
lns(sl_context *ctx, const sli_iopddl_model *m, const sl_iopddl_opts *o,
    double end, sl_iopddl_result *r)
{
	sli_iopddl_lns L;
	sli_iopddl_lns_init(&L, m, LNS_SEED);
	double k = LNS_K0, cap = fmin(LNS_IT_MAX, fmax(LNS_IT_MIN,
	                              LNS_IT_SHARE * (end - sli_iopddl_now(m))));
	int rc = 0;
	double start = sli_iopddl_now(m), last = start;
	for (unsigned it = 0; !rc && sli_iopddl_now(m) < end - LNS_MIN_LEFT; it++) {
		if (sli_iopddl_now(m) - last > fmax(LNS_STALE_MIN, LNS_STALE_SHARE * (end - start)))
			break;	/* the local search gets the rest */
		size_t n = sli_iopddl_lns_pick(&L, r->solution, (size_t)k,
		                               LNS_MAX_COLS, it % SLI_LNS_MODES);
		sli_iopddl_lns_fix(&L, r->solution);
		double t = sli_iopddl_now(m);
		bool done = false;
		int64_t was = r->eval.cost;
		rc = sub_ilp(ctx, &L.sub, o, fmin(end, t + cap), r, &done);
		if (r->eval.cost < was)
			last = sli_iopddl_now(m);
		if (done && n >= m->nodes)
			break;	/* the whole model, solved */
		if (!done)
			k = fmax(LNS_KMIN, k / LNS_SHRINK);
		else if (sli_iopddl_now(m) - t < LNS_GROW_BELOW * cap)
			k = fmin((double)m->nodes, k * LNS_GROW);
	}
	sli_iopddl_lns_fini(&L);
	return rc;
}

/*
 * The model mf for the search at fixed levels: the nodes live where the
 * usage of sol is within LEVEL_TIGHT of the limit keep only the strategies
 * of sol's usage there (umin follows), the others keep all of theirs.
 * On V the limit binds at a few times only: there the search, with no
 * usage to trade, goes on as if the problem had no limit, and finds how
 * the rest of the program is best sharded around those levels (the
 * local search alone, limit or not, stays where it is).  mf shares m's
 * arrays but alive, nalive and umin (free them).
 */
static void
fix_levels(sli_iopddl_model *mf, const sli_iopddl_model *m, const int64_t *sol)
{
	const sl_iopddl *p = m->p;
	size_t ns = p->sfirst[p->nnodes];
	uint32_t *t0, *t1;
	size_t nslots = sli_iopddl_slots(p, &t0, &t1);
	int64_t *load = sli_xcalloc(nslots + 1, sizeof *load);
	size_t *tight = sli_xcalloc(nslots + 1, sizeof *tight);
	for (size_t i = 0; i < p->nnodes; i++) {
		int64_t u = p->usage[p->sfirst[i] + (size_t)sol[i]];
		load[t0[i]] += u;
		load[t1[i]] -= u;
	}
	/* tight[k]: the slots before k near the limit */
	int64_t run = 0;
	for (size_t k = 0; k < nslots; k++) {
		run += load[k];
		tight[k + 1] = tight[k] +
		               ((double)run >= (1 - LEVEL_TIGHT) * (double)p->usage_limit);
	}
	*mf = *m;
	mf->alive = sli_xmalloc(ns + 1);
	memcpy(mf->alive, m->alive, ns);
	mf->nalive = sli_xmalloc((p->nnodes + 1) * sizeof *mf->nalive);
	memcpy(mf->nalive, m->nalive, p->nnodes * sizeof *mf->nalive);
	mf->umin = sli_xmalloc((p->nnodes + 1) * sizeof *mf->umin);
	memcpy(mf->umin, m->umin, p->nnodes * sizeof *mf->umin);
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t k0 = p->sfirst[i];
		int64_t u = p->usage[k0 + (size_t)sol[i]];
		if (t0[i] >= t1[i] || tight[t1[i]] == tight[t0[i]])
			continue;
		mf->nalive[i] = 0;
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			mf->alive[k0 + s] &= p->usage[k0 + s] == u;
			mf->nalive[i] += mf->alive[k0 + s];
		}
		mf->umin[i] = u;
	}
	free(t0);
	free(t1);
	free(load);
	free(tight);
}

/*
 * The Lagrangian search and the local search on the model at the
 * levels of sol (fix_levels), from sol (of cost cost), until end (the
 * local search its last ils seconds).  The new cost (sol holds the best
 * answer, one of m's too).
 */
static int64_t
level_search(const sli_iopddl_model *m, int64_t *sol, int64_t cost, double end,
             double ils)
{
	sli_iopddl_model mf;
	fix_levels(&mf, m, sol);
	int64_t c = sli_iopddl_lagrangian(&mf, sol, cost, end - ils, NULL);
	c = sli_iopddl_heuristic(&mf, sol, end, true, c >= 0);
	free(mf.alive);
	free(mf.nalive);
	free(mf.umin);
	return c >= 0 && c < cost ? c : cost;
}

/* With a log: the best cost after a stage of the search, with the work
 * and the time (seconds) so far. */
static void
progress(const sl_iopddl_opts *o, const sli_iopddl_clock *clk, double t0,
         const char *stage, int64_t cost)
{
	if (o->log)
		fprintf(o->log, "shardlp: after the %s: cost %lld, work %.2f s, "
		        "%.2f s\n", stage, (long long)cost, clk->spent,
		        sli_lp_clock() - t0);
}

/* The margin kept of a time of span seconds for a problem of entries
 * strategies and pairs. */
static double
margin(double span, double entries)
{
	return fmin(MARGIN_MAX, MARGIN_SHARE * span + MARGIN_PER_ENTRY * entries);
}

/*
 * The time the searches get on their clock (sli_iopddl_clock), whose
 * hard end is end on the wall clock: the time limit, less the margin
 * kept for what follows the search and an estimate of the time that
 * reading the problem and its reductions took (entries: its strategies
 * and pairs); with a deadline alone, the time left to it.  The same on
 * every machine, so that the searches give the same answer (where the
 * hard end does not stop them first).
 */
static double
search_time(const sl_iopddl_opts *o, double entries, double end)
{
	if (o->work_limit > 0)
		return o->work_limit;
	if (isinf(end))
		return INFINITY;
	if (o->time_limit <= 0)
		return fmax(0, end - sli_lp_clock());
	double t = o->time_limit - margin(o->time_limit, entries);
	return fmax(0, SEARCH_SHARE * t - START_PER_ENTRY * entries);
}

/*
 * The Lagrangian search before the ILP of a small model (sol, of cost
 * cost, < 0: none): its answer seeds the smaller LP (warm_solve) and,
 * when it is the optimum, spares branch and cut.  On G and B it found
 * the optimum within 0.15 s (the local search's answer costs 4000x that
 * on G).  Its new cost (or cost).
 */
static int64_t
lagrangian_start(const sli_iopddl_model *m, int64_t *sol, int64_t cost,
                 size_t ncols, double end)
{
	double now = sli_iopddl_now(m);
	double t = fmin(LAGR_SMALL_MAX, LAGR_SMALL_PER_COL * (double)ncols);
	if (isfinite(end))
		t = fmin(t, LAGR_SMALL_SHARE * (end - now));
	int64_t c = sli_iopddl_lagrangian(m, sol, cost, now + t, NULL);
	return c >= 0 ? c : cost;
}

int
sl_iopddl_solve(sl_context *ctx, const sl_iopddl *p, const sl_iopddl_opts *o,
                sl_iopddl_result *r)
{
	double t0 = sli_lp_clock();
	sli_lp_opts lo = {0};
	lo.time_limit = o->time_limit;
	lo.deadline = o->deadline;
	/* what follows the search (decoding, the evaluator, freeing a large
	 * model, the caller writing the answer) gets a margin of the time */
	double end = sli_lp_deadline(&lo, t0);
	double entries = (double)(p->sfirst[p->nnodes] + p->efirst[p->nedges]);
	if (isfinite(end))
		end -= margin(fmax(0, end - t0), entries);
	memset(r, 0, sizeof *r);
	r->status = SL_SOLVE_NO_SOLUTION;
	r->bound = -INFINITY;
	r->gap = INFINITY;
	r->heuristic_cost = -1;

	sli_iopddl_model m;
	sli_iopddl_model_init(&m, p, end);
	r->nodes = m.nodes;
	r->edges = m.edges;
	int rc = 0;
	if (m.late)
		goto out;	/* no time left for a search: no solution */
	if (m.infeasible) {
		r->status = SL_SOLVE_INFEASIBLE;
		snprintf(r->eval.why, sizeof r->eval.why, "%s", m.why);
		goto out;
	}
	size_t ncols = count_cols(&m);
	r->ilp_skipped = o->local_search_only ||
	                 ncols > (o->max_cols ? o->max_cols : MAX_COLS);
	/* a large model's LP does not end in time (V: 733k columns, still
	 * in its root LP after 10 minutes): the Lagrangian search instead */
	bool large = r->ilp_skipped || ncols > LS_BIG;
	if (large)
		r->ilp_skipped = true;
	/* from here the searches read their clock (sli_iopddl_clock): the
	 * work done, from 0 to the search time; the wall clock's end stays
	 * the hard one */
	sli_iopddl_clock clk = {0, end};
	m.clock = &clk;
	end = search_time(o, entries, end);
	double now = 0, left = end;
	double ls_end = large ? end
	              : now + fmin(fmin(LS_MAX, LS_SHARE * left),
	                           LS_PER_COL * (double)ncols);
	int64_t *sol = sli_xmalloc((p->nnodes + 1) * sizeof *sol);
	/* without a time limit, no perturbations: until no move helps;
	 * before the Lagrangian search, none either */
	r->heuristic_cost = sli_iopddl_heuristic(&m, sol, ls_end,
	                                         !isinf(end) && !large, false);
	unsigned char *cand = NULL;
	double lagr = 0, ils = 0;	/* (a large model's searches) */
	if (large && !isinf(end)) {
		/* the local search goes on from the best answer (or, when
		 * there is none, from a new start) */
		cand = sli_xcalloc(p->sfirst[p->nnodes] + 1, 1);
		lagr = fmin(LAGR_SHARE * left, LAGR_MAX);
		ils = fmin(ILS_SHARE * left, ILS_MAX);
		int64_t c = sli_iopddl_lagrangian(&m, sol, r->heuristic_cost,
		                                  now + lagr, cand);
		progress(o, &clk, t0, "Lagrangian search", c);
		r->heuristic_cost = sli_iopddl_heuristic(&m, sol, now + lagr + ils,
		                                         true, c >= 0);
	}
	if (!r->ilp_skipped)
		r->heuristic_cost = lagrangian_start(&m, sol, r->heuristic_cost,
		                                     ncols, end);
	if (r->heuristic_cost >= 0)
		settle_leaves(&m, sol);
	if (r->heuristic_cost >= 0 && offer(p, r, sol)) {
		r->from_heuristic = true;
		r->status = SL_SOLVE_FEASIBLE;
	}
	/* (a large model's is only exported) */
	if (!r->ilp_skipped || o->write_lp || o->write_mps)
		rc = run_ilp(ctx, &m, o, end, r, true);
	if (!rc && cand && r->solution && !o->local_search_only) {
		progress(o, &clk, t0, "local search", r->heuristic_cost);
		rc = restricted_ilp(ctx, &m, cand, o, end, now + WIDEN_SHARE * left, r);
		progress(o, &clk, t0, "restricted ILP", r->eval.cost);
		memcpy(sol, r->solution, p->nnodes * sizeof *sol);
		double lt = fmin(lagr + ils, LEVEL_SHARE * (end - sli_iopddl_now(&m)));
		if (!rc && p->has_limit && lt > 0 &&
		    level_search(&m, sol, r->eval.cost, sli_iopddl_now(&m) + lt,
		                 lt * ils / (lagr + ils)) < r->eval.cost)
			offer(p, r, sol);
		progress(o, &clk, t0, "search at fixed levels", r->eval.cost);
		if (!rc)
			rc = lns(ctx, &m, o, end, r);
		progress(o, &clk, t0, "large-neighbourhood search", r->eval.cost);
		/* time left (the ILP ended): the local search from its answer */
		memcpy(sol, r->solution, p->nnodes * sizeof *sol);
		if (!rc && sli_iopddl_now(&m) < end - 0.5 &&
		    sli_iopddl_heuristic(&m, sol, end, true, true) >= 0 && offer(p, r, sol))
			r->from_heuristic = true;
	}
	r->work = clk.spent;
	free(cand);
	free(sol);
	if (r->solution && r->status != SL_SOLVE_OPTIMAL)
		r->status = SL_SOLVE_FEASIBLE;
	if (r->solution) {
		if (r->bound > r->objective)
			r->bound = r->objective;
		r->gap = (r->objective - r->bound) / fmax(1e-9, fabs(r->objective));
	}
out:
	sli_iopddl_model_fini(&m);
	r->seconds = sli_lp_clock() - t0;
	if (rc)
		return -1;
	return r->solution ? 0 : 1;
}

/*
 * decompose.c - exact dynamic programming over a chain of blocks
 * (shardlp-cost(7), DECOMPOSITION).
 *
 * Ops are numbered in program order.  A free tensor (more than one
 * sharding option) spans the ops that touch it, ties widened to their
 * hull; a gap between two consecutive ops crossed by at most one free
 * tensor splits the program in two parts that share only that tensor
 * (and fixed tensors, which couple nothing).  Cutting at such gaps gives
 * a chain of blocks B0 .. Bn joined by boundary tensors c1 .. cn.
 *
 * Invariant: every cost term lands in exactly one block.  An op, with
 * all its edges, belongs to the block of its position; tensors cost
 * nothing themselves (memory is a constraint, and a budget that can bind
 * turns decomposition off).
 * With F(c, q) the least cost of everything before c given c takes q,
 *
 *     F(c_i+1, q') = min over the block model with c_i+1 fixed to q'
 *                    and F(c_i, q) - min F(c_i) on c_i's columns,
 *
 * one backend solve per q'; the last block gives the optimum.  A tensor
 * with one edge in the whole program (a weight) is folded into its op's
 * columns (sli_form_part.leaf).  Blocks whose models are identical (same
 * lp, same options) form a class with a cache keyed by the shape of the
 * incoming prefix cost, so a chain of identical layers costs a few solves
 * per distinct shape, not per layer; classes whose lps differ only in the
 * objective (weights pinned differently) share one backend session, so
 * every solve but the first starts from an optimal basis.
 *
 * Fewer solves per shape: a solution found under earlier prices, or for
 * another class of the group, is kept where no option it chose got
 * relatively dearer (reuse_solutions); on a
 * mesh whose interchangeable axes leave the model and the prices
 * unchanged, one outgoing option per orbit is solved and the others are
 * its images (Symmetry), and a symmetric solve excludes the incoming
 * options that are not the least of their orbits (fix_orbital).
 * A large block's solve starts branch and cut from the group's last
 * solution, moved to the outgoing option at hand (start_for).
 *
 * Fewer solves of costly blocks (Lazy outgoing values): a class of at
 * least sli_decomp_lazy_cols columns gets lower bounds for all its
 * outgoing options from relaxations, and exact values only for the
 * options the chain picks, refined from the last block down.  Such a
 * class makes no cache entry (its values are per block, a bound or
 * exact); the other classes keep theirs, solved under whatever prices
 * come in, and their values are exact only where their pick is.
 * Symmetry and reuse serve those classes only; start_for both.
 * A costly class met again under incoming prices that differ from the
 * ones of its last relaxations by nearly a constant (the layers after
 * the first of a model whose layers are alike) takes its bounds from
 * those, moved by the least change of price, and solves nothing
 * (carry_bounds).  And what the solves of a costly class learn of its
 * block cost per incoming option, which prices do not change, prices its
 * later blocks where it proves their optimum (Known block costs).
 */
#include "solver/decompose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cost/terms.h"
#include "solver/formulate.h"
#include "util/uf.h"

#define NONE UINT32_MAX
/* most ops in one block, unless no cut comes sooner */
#define MAX_BLOCK_OPS 400
/*
 * blocks of fewer columns solve without a first point (start_for): their
 * relaxations are mostly integral, and a first point can change which of
 * tied optima a solve returns
 */
#define START_MIN_COLS 10000
/* blocks at least this large get lazy outgoing values (decompose.h) */
size_t sli_decomp_lazy_cols = START_MIN_COLS;
/* incoming prices equal to this (relative) tolerance share a cache entry */
#define SHAPE_TOL 1e-10
/*
 * a lazy block takes its class's last bounds when its incoming prices
 * differ from theirs by a constant give or take this much (relative to
 * the largest price): the bounds then lose no more than that
 */
#define CARRY_TOL 1e-4

typedef struct entry {
	double *shape;		/* incoming prices, nin (NULL without c_in) */
	double *value;		/* per outgoing option: least cost, or inf */
	double slack;		/* max over options of value - proven bound */
	uint32_t *pick;		/* per outgoing option, per local tensor: option */
	uint32_t *opick;	/* per outgoing option, per local op: option, or
				 * NONE (an image under a symmetry) */
} entry;

/*
 * A permutation of the mesh axes that maps the model of a class onto
 * itself (axes of equal size, bandwidth and latency trading places, with
 * every option set closed and every option's cost equal to its image's).
 */
typedef struct sym {
	uint32_t **map;		/* per local tensor: option -> its image */
} sym;

typedef struct klass {
	sli_form f;		/* the first block of the class */
	uint64_t hash;		/* of the lp without its objective */
	bool has_in, has_out;
	size_t nin, nout;	/* options of c_in (local 0), c_out (next) */
	uint32_t in_col, out_col;
	uint32_t group;		/* classes with the same matrix share a session */
	SL_VEC(entry) entries;
	bool sym_done;		/* syms computed */
	SL_VEC(sym) syms;	/* the symmetries of the model, identity excluded */
	/* a lazy class: the incoming prices of its last relaxations, nin,
	 * and the bounds they gave, less the prices' offset, nout (or NULL) */
	double *lazy_shape, *lazy_val;
	uint32_t *lazy_lean;	/* and the incoming option each leaned on */
	struct known *kn;	/* per outgoing option, or NULL (Known block
				 * costs) */
	uint32_t slots;		/* a lazy class: 1 + its first basis slot
				 * (slot_use), 0 before its first solve */
} klass;

/*
 * The local index of a class's outgoing tensor c_out: the block's tensors
 * are c_in (when it has one), c_out, then the others by first use.
 */
static uint32_t
out_local(const klass *k)
{
	return k->has_in ? 1 : 0;
}

/* Classes whose lps differ only in their objective: one session. */
typedef struct group {
	uint32_t rep;		/* its first class */
	size_t last;		/* its last block: the session closes there */
	sli_lp_session *s;
	double *obj;		/* the objective now in the session */
	uint32_t fixed;		/* outgoing option fixed to 1 now, or NONE */
	double *sol;		/* the last solution found in the session */
	uint32_t lazy_last;	/* its lazy class solved last, or NONE */
} group;

typedef struct block {
	uint32_t op0, nops;	/* ops op0 .. op0 + nops - 1 */
	uint32_t in, out;	/* boundary tensors, NONE at the ends */
	uint32_t cls;
	uint32_t *tensors;	/* local order: c_in, c_out, then first use */
	size_t nt;
	size_t entry;		/* in its class, after the forward pass */
	double *val;		/* per outgoing option: F(c_out, q), a lower
				 * bound unless exact (Lazy outgoing values) */
	bool *exact;
	uint32_t *own;		/* per outgoing option, per local tensor: its
				 * picks, or NULL: the entry's */
	size_t gen;		/* solves that changed val or exact (relax,
				 * refine): whether the prices of the block
				 * after it moved */
	/* a lazy block relaxed option by option: per option, the incoming
	 * option its relaxation leaned on most (or NONE), under the prices
	 * of the block before at its generation in_gen; a block whose
	 * bounds were carried takes the leans of the block they came from
	 * (prices moved by a constant lean the same way) */
	uint32_t *lean;
	size_t in_gen;
	double slack;		/* max over options of value - proven bound */
} block;

typedef struct dec {
	const sli_cost_model *cm;
	const sli_lp_backend *be;
	sli_lp_opts opts;	/* the caller's, with on_node when watched */
	const char *phase;	/* of the last report, and its block */
	size_t block;
	sli_decomp_result *r;
	double t0;
	double end;		/* deadline of every solve (sli_lp_deadline) */
	size_t *nopt;		/* options per tensor */
	uint32_t *lo, *hi;	/* span of each free tensor, lo > hi when unused */
	uint32_t *refs;		/* edges per tensor; UINT32_MAX when tied */
	SL_VEC(block) blocks;
	SL_VEC(klass) classes;
	SL_VEC(group) groups;
	uint32_t nslots;	/* basis slots handed out (slot_use) */
	/* every class starts from the solver's own first basis, not the
	 * crash basis (sli_lp.slack_basis): set when a class is lazy */
	bool slack_basis;
} dec;

static uint64_t
mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static bool
is_free(const dec *d, uint32_t t)
{
	return t != NONE && d->nopt[t] > 1;
}

/* {====================================================================
 * Finding the chain
 * ===================================================================== */

static void
widen(dec *d, uint32_t t, uint32_t pos)
{
	if (d->lo[t] > pos)
		d->lo[t] = pos;
	if (d->hi[t] < pos || d->hi[t] == NONE)
		d->hi[t] = pos;
}

/* Spans of the free tensors; tied free tensors share their hull. */
static void
compute_spans(dec *d)
{
	const sli_cost_model *cm = d->cm;
	size_t nt = cm->tensors.n;
	for (size_t t = 0; t < nt; t++) {
		d->lo[t] = NONE;
		d->hi[t] = NONE;
	}
	for (size_t o = 0; o < cm->ops.n; o++) {
		const sli_cost_op *co = &cm->ops.v[o];
		for (uint32_t i = 0; i < co->noperands; i++)
			if (is_free(d, co->operands[i]))
				widen(d, co->operands[i], (uint32_t)o);
		for (uint32_t i = 0; i < co->nresults; i++)
			if (is_free(d, co->results[i]))
				widen(d, co->results[i], (uint32_t)o);
	}
	if (!cm->ties.n)
		return;
	sli_uf u;
	sli_uf_init(&u, (uint32_t)nt);
	for (size_t i = 0; i < cm->ties.n; i++) {
		uint32_t a = cm->ties.v[i].a, b = cm->ties.v[i].b;
		if (is_free(d, a) && is_free(d, b))
			sli_uf_union(&u, a, b);
	}
	for (size_t t = 0; t < nt; t++) {
		uint32_t root = sli_uf_find(&u, (uint32_t)t);
		if (root != t && d->lo[t] != NONE) {
			widen(d, root, d->lo[t]);
			widen(d, root, d->hi[t]);
		}
	}
	for (size_t t = 0; t < nt; t++) {
		uint32_t root = sli_uf_find(&u, (uint32_t)t);
		d->lo[t] = d->lo[root];
		d->hi[t] = d->hi[root];
	}
	sli_uf_fini(&u);
}

/*
 * Estimated seconds to solve a block whose model has about `size`
 * binaries once per option of its outgoing tensor: a cold solve (GLPK's
 * dual simplex on these degenerate LPs, about 1e-6 cols^1.5 s, with 1.4
 * columns a binary), paid once by all the `same` blocks of the same
 * structure, then warm re-solves, also superlinear (a larger model needs
 * more pivots, and its relaxation is more often fractional and then
 * needs branching: 6e-9 cols^1.5 s, 5 ms at 8,600 columns), and 3e-5 s
 * for each call.
 */
static double
block_cost(double size, size_t nout, size_t same)
{
	double cols = 1.4 * size, c15 = cols * sqrt(cols);
	return 1e-6 * c15 / (double)(same ? same : 1) +
	       (3e-5 + 6e-9 * c15) * (double)nout;
}

/* A gap where a block may end: after op end - 1, crossed by t alone. */
typedef struct cand {
	uint32_t end, t;
	double cost;		/* of the best chain of blocks up to here */
	size_t from;		/* the candidate that chain comes from */
} cand;

/* Tensor t as seen from op o: its type and options, where it starts. */
static uint64_t
tensor_sig(const dec *d, uint32_t t, uint32_t o)
{
	if (t == NONE)
		return 1;
	const sli_cost_tensor *ct = &d->cm->tensors.v[t];
	uint64_t h = mix(d->nopt[t], ct->rank);
	for (uint32_t k = 0; k < ct->rank; k++)
		h = mix(h, (uint64_t)ct->dims[k]);
	h = mix(h, (uint64_t)(ct->elem_bytes * 8));
	if (is_free(d, t))
		h = mix(h, (uint64_t)(o - d->lo[t]) + 2);
	return h;
}

/* Op o, invariant under moving it with everything it touches. */
static uint64_t
op_sig(const dec *d, uint32_t o)
{
	const sli_cost_op *co = &d->cm->ops.v[o];
	uint64_t h = mix((uint64_t)co->op->kind, (uint64_t)co->kind);
	h = mix(h, (uint64_t)co->noperands << 32 | co->nresults);
	h = mix(h, co->forbidden);
	for (uint32_t a = 0; co->extra && a < d->cm->naxes; a++)
		h = mix(h, (uint64_t)(co->extra->a[a] + 2));
	for (uint32_t i = 0; co->req && i < co->noperands; i++)
		for (uint32_t a = 0; a < d->cm->naxes; a++)
			h = mix(h, (uint64_t)(co->req[i].a[a] + 2));
	for (uint32_t i = 0; i < co->noperands; i++)
		h = mix(h, tensor_sig(d, co->operands[i], o));
	for (uint32_t i = 0; i < co->nresults; i++)
		h = mix(h, tensor_sig(d, co->results[i], o));
	return h;
}

/* About how many binaries op o brings to a model: options and results. */
static double
op_size(const dec *d, uint32_t o)
{
	const sli_cost_op *co = &d->cm->ops.v[o];
	double n = 1;
	if (co->kind != SLI_COST_OPAQUE)
		n = fmin(1e6, pow((double)co->rule.nfactors + 1, d->cm->naxes));
	for (uint32_t i = 0; i < co->nresults; i++)
		if (is_free(d, co->results[i]))
			n += (double)d->nopt[co->results[i]];
	return n;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* How many of the n sorted signatures equal h. */
static size_t
count_sig(const uint64_t *v, size_t n, uint64_t h)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = lo;
	while (k < n && v[k] == h)
		k++;
	return k - lo;
}

/*
 * Cuts the ops into blocks at gaps crossed by at most one free tensor:
 * of all such chains, the one of least estimated solving time
 * (block_cost; a shortest path over the candidate gaps, each block at
 * most MAX_BLOCK_OPS ops when it can).  Blocks of the same structure
 * (the same ops on the same types, options and relative positions) are
 * likely one class, so they share the cost of the cold solve: the last
 * layer of a transformer stays two blocks like the others instead of
 * one larger model of its own.  Returns the number of blocks.
 */
static size_t
find_blocks(dec *d)
{
	const sli_cost_model *cm = d->cm;
	size_t no = cm->ops.n, nt = cm->tensors.n;
	if (no < 2)
		return 0;
	/* crossing count and the sum of the crossing tensors per gap */
	int64_t *cnt = sli_xcalloc(no + 1, sizeof *cnt);
	uint64_t *sum = sli_xcalloc(no + 1, sizeof *sum);
	for (size_t t = 0; t < nt; t++) {
		if (d->lo[t] == NONE || d->lo[t] == d->hi[t])
			continue;
		cnt[d->lo[t]]++;
		cnt[d->hi[t]]--;
		sum[d->lo[t]] += t;
		sum[d->hi[t]] -= t;
	}
	/* candidates: the start (gap -1), the cuttable gaps, the end */
	SL_VEC(cand) c = {0};
	cand first = {0, NONE, 0, 0};
	SL_VEC_PUSH(c, first);
	int64_t n = 0;
	uint64_t sm = 0;
	for (uint32_t gap = 0; gap + 1 < no; gap++) {
		n += cnt[gap];
		sm += sum[gap];
		if (n <= 1) {
			cand x = {gap + 1, n ? (uint32_t)sm : NONE, INFINITY, 0};
			SL_VEC_PUSH(c, x);
		}
	}
	cand last = {(uint32_t)no, NONE, INFINITY, 0};
	SL_VEC_PUSH(c, last);
	free(cnt);
	free(sum);

	/*
	 * prefix sums of sizes and of op signatures: the signature of ops
	 * a .. b-1 is sum of sig(o) B^(o-a), (P[b] - P[a]) / B^a mod 2^64
	 */
	const uint64_t B = 0x9e3779b97f4a7c15ull;
	uint64_t binv = B;
	for (int k = 0; k < 6; k++)
		binv *= 2 - B * binv;
	double *size = sli_xmalloc((no + 1) * sizeof *size);
	uint64_t *pre = sli_xmalloc((no + 1) * sizeof *pre);
	uint64_t *ipw = sli_xmalloc((no + 1) * sizeof *ipw);
	uint64_t pw = 1, ip = 1;
	size[0] = 0;
	pre[0] = 0;
	for (uint32_t o = 0; o < no; o++) {
		size[o + 1] = size[o] + op_size(d, o);
		pre[o + 1] = pre[o] + op_sig(d, o) * pw;
		ipw[o] = ip;
		pw *= B;
		ip *= binv;
	}
	ipw[no] = ip;
#define BLOCK_SIG(i, j) mix(mix((pre[c.v[j].end] - pre[c.v[i].end]) * \
	ipw[c.v[i].end], c.v[j].end - c.v[i].end), \
	(uint64_t)(c.v[i].t != NONE) << 1 | (c.v[j].t != NONE))
	SL_VEC(uint64_t) sigs = {0};
	for (int pass = 0; pass < 2; pass++) {
		for (size_t j = 1; j < c.n; j++) {
			size_t nout = c.v[j].t == NONE ? 1 : d->nopt[c.v[j].t];
			for (size_t i = j; i-- > 0;) {
				uint32_t len = c.v[j].end - c.v[i].end;
				if (len > MAX_BLOCK_OPS && i + 1 < j)
					break;
				if (c.v[i].t != NONE && c.v[i].t == c.v[j].t)
					continue;
				uint64_t h = BLOCK_SIG(i, j);
				if (!pass) {
					SL_VEC_PUSH(sigs, h);
					continue;
				}
				double sz = size[c.v[j].end] - size[c.v[i].end];
				double v = c.v[i].cost + block_cost(sz, nout,
				           count_sig(sigs.v, sigs.n, h));
				if (v < c.v[j].cost) {
					c.v[j].cost = v;
					c.v[j].from = i;
				}
			}
		}
		if (!pass && sigs.n)
			qsort(sigs.v, sigs.n, sizeof *sigs.v, cmp_u64);
	}
#undef BLOCK_SIG
	SL_VEC_FREE(sigs);
	free(size);
	free(pre);
	free(ipw);
	/* the chain, from the end back */
	size_t nb = 0;
	for (size_t j = c.n - 1; j > 0; j = c.v[j].from)
		nb++;
	if (nb >= 2 && !isinf(c.v[c.n - 1].cost)) {
		SL_VEC_RESERVE(d->blocks, nb);
		d->blocks.n = nb;
		size_t b = nb;
		for (size_t j = c.n - 1; j > 0; j = c.v[j].from) {
			const cand *x = &c.v[c.v[j].from];
			block bk = {x->end, c.v[j].end - x->end, x->t, c.v[j].t, 0, NULL, 0, 0,
			             NULL, NULL, NULL, 0, NULL, 0, 0};
			d->blocks.v[--b] = bk;
		}
	}
	SL_VEC_FREE(c);
	return d->blocks.n;
}

static size_t
block_of_op(const dec *d, uint32_t op)
{
	size_t lo = 0, hi = d->blocks.n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (d->blocks.v[mid].op0 <= op)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The block a free tensor (internal or outgoing) or a tie belongs to. */
static size_t
home(const dec *d, uint32_t t)
{
	return d->lo[t] == NONE ? 0 : block_of_op(d, d->lo[t]);
}

static size_t
tie_home(const dec *d, const sli_cost_tie *tie)
{
	if (is_free(d, tie->a))
		return home(d, tie->a);
	if (is_free(d, tie->b))
		return home(d, tie->b);
	return 0;
}

/* }==================================================================== */

/* {====================================================================
 * Blocks and their classes
 * ===================================================================== */

typedef SL_VEC(uint32_t) u32vec;

static void
add_local(u32vec *v, uint32_t *stamp, uint32_t mark, uint32_t t)
{
	if (t == NONE || stamp[t] == mark)
		return;
	stamp[t] = mark;
	SL_VEC_PUSH(*v, t);
}

/*
 * h mixed with n bytes at p, eight at a time: the blocks of a long chain
 * hash megabytes, a third of classify's time byte by byte (sli_hash).
 */
static uint64_t
mix_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t w;
	for (; n >= sizeof w; s += sizeof w, n -= sizeof w) {
		memcpy(&w, s, sizeof w);
		h = mix(h, w);
	}
	for (; n; s++, n--)
		h = mix(h, *s);
	return h;
}

static uint64_t
form_hash(const sli_form *f)
{
	const sli_lp *lp = &f->lp;
	size_t nc = sli_lp_ncols(lp);
	uint64_t h = mix(nc, lp->rows.n);
	h = mix_bytes(h, lp->ub.v, nc * sizeof *lp->ub.v);
	h = mix_bytes(h, lp->idx.v, lp->idx.n * sizeof *lp->idx.v);
	h = mix_bytes(h, lp->val.v, lp->val.n * sizeof *lp->val.v);
	return h;
}

#define SAME(a, b, n) ((n) == 0 || !memcmp((a), (b), (n) * sizeof *(a)))

/* Whether two block models have the same constraint matrix and bounds. */
static bool
same_matrix(const sli_form *a, const sli_form *b)
{
	const sli_lp *x = &a->lp, *y = &b->lp;
	size_t nc = sli_lp_ncols(x);
	if (nc != sli_lp_ncols(y) || x->rows.n != y->rows.n || x->idx.n != y->idx.n ||
	    a->nt != b->nt || a->no != b->no)
		return false;
	if (!SAME(x->lb.v, y->lb.v, nc) || !SAME(x->ub.v, y->ub.v, nc) ||
	    !SAME(x->binary.v, y->binary.v, nc) ||
	    !SAME(x->idx.v, y->idx.v, x->idx.n) || !SAME(x->val.v, y->val.v, x->idx.n))
		return false;
	for (size_t i = 0; i < x->rows.n; i++) {
		const sli_lp_row *p = &x->rows.v[i], *q = &y->rows.v[i];
		if (p->first != q->first || p->n != q->n || p->sense != q->sense ||
		    p->rhs != q->rhs)
			return false;
	}
	for (size_t k = 0; k < a->nt; k++)
		if (a->t[k].col != b->t[k].col ||
		    (a->t[k].col != NONE && a->t[k].n != b->t[k].n))
			return false;
	return true;
}

/*
 * Whether two block models with the same matrix are the same problem:
 * the same objective and the same options for every tensor and op (so
 * one solution decodes into the same shardings).
 */
static bool
same_problem(const sli_form *a, const sli_form *b)
{
	const sli_lp *x = &a->lp, *y = &b->lp;
	if (!SAME(x->obj.v, y->obj.v, sli_lp_ncols(x)) || x->obj_const != y->obj_const)
		return false;
	for (size_t k = 0; k < a->nt; k++) {
		const sli_form_var *u = &a->t[k], *v = &b->t[k];
		if (u->n != v->n || !SAME(u->opt, v->opt, u->n) ||
		    (u->fold != NULL) != (v->fold != NULL))
			return false;
		if (u->fold && (u->op != v->op ||
		    !SAME(u->fold, v->fold, a->o[u->op].n)))
			return false;
	}
	for (size_t k = 0; k < a->no; k++)
		if (a->o[k].n != b->o[k].n || !SAME(a->o[k].opt, b->o[k].opt, a->o[k].n))
			return false;
	return true;
}

/*
 * Lists every block's tensors, builds its model and files it under its
 * class (a new one, or the existing one with an identical model).  False
 * when the deadline came first (the blocks after it are not classed):
 * building a block's model can take seconds on a mesh of many pieces.
 */
static bool
classify(dec *d, bool reuse)
{
	bool done = true;
	const sli_cost_model *cm = d->cm;
	size_t nt = cm->tensors.n, nb = d->blocks.n;

	/* free tensors and ties by home block (counting sort) */
	size_t *tstart = sli_xcalloc(nb + 2, sizeof *tstart);
	size_t *xstart = sli_xcalloc(nb + 2, sizeof *xstart);
	for (size_t t = 0; t < nt; t++)
		if (is_free(d, (uint32_t)t))
			tstart[home(d, (uint32_t)t) + 1]++;
	for (size_t i = 0; i < cm->ties.n; i++)
		xstart[tie_home(d, &cm->ties.v[i]) + 1]++;
	for (size_t b = 0; b < nb; b++) {
		tstart[b + 1] += tstart[b];
		xstart[b + 1] += xstart[b];
	}
	uint32_t *tlist = sli_xmalloc((tstart[nb] + 1) * sizeof *tlist);
	uint32_t *xlist = sli_xmalloc((xstart[nb] + 1) * sizeof *xlist);
	size_t *tfill = sli_xmalloc((nb + 1) * sizeof *tfill);
	size_t *xfill = sli_xmalloc((nb + 1) * sizeof *xfill);
	memcpy(tfill, tstart, nb * sizeof *tfill);
	memcpy(xfill, xstart, nb * sizeof *xfill);
	for (size_t t = 0; t < nt; t++)
		if (is_free(d, (uint32_t)t))
			tlist[tfill[home(d, (uint32_t)t)]++] = (uint32_t)t;
	for (size_t i = 0; i < cm->ties.n; i++)
		xlist[xfill[tie_home(d, &cm->ties.v[i])]++] = (uint32_t)i;

	uint32_t *stamp = sli_xcalloc(nt + 1, sizeof *stamp);
	uint32_t *local = sli_xmalloc((nt + 1) * sizeof *local);
	for (size_t t = 0; t < nt; t++)
		local[t] = NONE;
	u32vec ts = {0}, ops = {0};
	SL_VEC(bool) mem = {0};
	SL_VEC(bool) leaf = {0};
	for (size_t b = 0; b < nb; b++) {
		block *bk = &d->blocks.v[b];
		uint32_t mark = (uint32_t)b + 1;
		if (sli_lp_clock() >= d->end) {
			done = false;
			break;
		}
		ts.n = 0;
		add_local(&ts, stamp, mark, bk->in);
		add_local(&ts, stamp, mark, bk->out);
		ops.n = 0;
		for (uint32_t o = bk->op0; o < bk->op0 + bk->nops; o++) {
			const sli_cost_op *co = &cm->ops.v[o];
			for (uint32_t i = 0; i < co->noperands; i++)
				add_local(&ts, stamp, mark, co->operands[i]);
			for (uint32_t i = 0; i < co->nresults; i++)
				add_local(&ts, stamp, mark, co->results[i]);
			SL_VEC_PUSH(ops, o);
		}
		for (size_t i = xstart[b]; i < xstart[b + 1]; i++) {
			add_local(&ts, stamp, mark, cm->ties.v[xlist[i]].a);
			add_local(&ts, stamp, mark, cm->ties.v[xlist[i]].b);
		}
		for (size_t i = tstart[b]; i < tstart[b + 1]; i++)
			add_local(&ts, stamp, mark, tlist[i]);
		mem.n = leaf.n = 0;
		for (size_t k = 0; k < ts.n; k++) {
			uint32_t t = ts.v[k];
			SL_VEC_PUSH(mem, is_free(d, t) && t != bk->in);
			SL_VEC_PUSH(leaf, d->refs[t] == 1 && t != bk->in && t != bk->out);
		}
		bk->nt = ts.n;
		bk->tensors = sli_xmalloc((ts.n + 1) * sizeof *bk->tensors);
		memcpy(bk->tensors, ts.v, ts.n * sizeof *ts.v);

		sli_form_part part = {ts.v, ts.n, mem.v, leaf.v, ops.v, ops.n,
		                      xlist + xstart[b], xstart[b + 1] - xstart[b], local};
		klass k;
		memset(&k, 0, sizeof k);
		sli_form_build_part(&k.f, cm, &part);
		k.hash = form_hash(&k.f);
		k.has_in = bk->in != NONE;
		k.has_out = bk->out != NONE;
		size_t c, g = d->groups.n;
		for (c = reuse ? 0 : d->classes.n; c < d->classes.n; c++) {
			klass *o = &d->classes.v[c];
			if (o->hash != k.hash || o->has_in != k.has_in ||
			    o->has_out != k.has_out || !same_matrix(&o->f, &k.f))
				continue;
			g = o->group;
			if (same_problem(&o->f, &k.f))
				break;
		}
		if (c < d->classes.n) {
			sli_form_fini(&k.f);
		} else {
			k.nin = k.has_in ? k.f.t[0].n : 1;
			k.in_col = k.has_in ? k.f.t[0].col : 0;
			k.nout = k.has_out ? k.f.t[out_local(&k)].n : 1;
			k.out_col = k.has_out ? k.f.t[out_local(&k)].col : 0;
			k.group = (uint32_t)g;
			if (g == d->groups.n) {
				group ng = {(uint32_t)c, 0, NULL, NULL, NONE, NULL, NONE};
				SL_VEC_PUSH(d->groups, ng);
				d->r->ncols += sli_lp_ncols(&k.f.lp);
				d->r->nrows += k.f.lp.rows.n;
				for (size_t j = 0; j < sli_lp_ncols(&k.f.lp); j++)
					d->r->nbinaries += k.f.lp.binary.v[j];
			}
			SL_VEC_PUSH(d->classes, k);
		}
		bk->cls = (uint32_t)c;
		d->groups.v[d->classes.v[c].group].last = b;
	}
	SL_VEC_FREE(ts);
	SL_VEC_FREE(ops);
	SL_VEC_FREE(mem);
	SL_VEC_FREE(leaf);
	free(stamp);
	free(local);
	free(tstart);
	free(xstart);
	free(tlist);
	free(xlist);
	free(tfill);
	free(xfill);
	return done;
}

/* }==================================================================== */

/* {====================================================================
 * Symmetry
 *
 * On a mesh with interchangeable axes (equal size, bandwidth and
 * latency) a block whose model is unchanged when they trade places, and
 * whose incoming prices are too, has equal least costs for an outgoing
 * sharding and its image, and the image of one's solution solves the
 * other: only one sharding per orbit is solved.
 * ===================================================================== */

static uint64_t
asg_key(const sli_cost_asg *q, uint32_t naxes)
{
	uint64_t k = 0;
	for (uint32_t a = naxes; a-- > 0;)
		k = k << 7 | (uint64_t)(q->a[a] + 1);
	return k;
}

/*
 * The image of each option of v under perm into map (v->n entries);
 * false when some image is not an option.  Options are listed in key
 * order (sli_cost_tensor_options), so images are found by bisection.
 */
static bool
map_options(const sli_cost_asg *opt, size_t n, const int8_t *perm,
            uint32_t naxes, uint32_t *map)
{
	for (size_t j = 0; j < n; j++) {
		sli_cost_asg img;
		memset(img.a, SLI_COST_NONE, sizeof img.a);
		for (uint32_t a = 0; a < naxes; a++)
			img.a[perm[a]] = opt[j].a[a];
		uint64_t want = asg_key(&img, naxes);
		size_t lo = 0, hi = n;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (asg_key(&opt[mid], naxes) < want)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == n || asg_key(&opt[lo], naxes) != want)
			return false;
		map[j] = (uint32_t)lo;
	}
	return true;
}

static bool
same_cost(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1, fmax(fabs(a), fabs(b)));
}

/* Whether the columns of var v cost the same as their images. */
static bool
var_symmetric(const sli_lp *lp, const sli_form_var *v, const uint32_t *map)
{
	if (v->col == NONE)
		return true;
	for (size_t j = 0; j < v->n; j++)
		if (!same_cost(lp->obj.v[v->col + j], lp->obj.v[v->col + map[j]]))
			return false;
	return true;
}

static void
syms_free(klass *k)
{
	for (size_t i = 0; i < k->syms.n; i++) {
		for (size_t l = 0; l < k->f.nt; l++)
			free(k->syms.v[i].map[l]);
		free(k->syms.v[i].map);
	}
	SL_VEC_FREE(k->syms);
}

/* Tries perm on class k; keeps it when it maps the model onto itself. */
static void
try_sym(dec *d, klass *k, const int8_t *perm)
{
	const sli_form *f = &k->f;
	uint32_t naxes = d->cm->naxes;
	sym y;
	y.map = sli_xcalloc(f->nt + 1, sizeof *y.map);
	bool ok = true;
	for (size_t l = 0; l < f->nt && ok; l++) {
		const sli_form_var *v = &f->t[l];
		y.map[l] = sli_xmalloc((v->n + 1) * sizeof **y.map);
		ok = map_options(v->opt, v->n, perm, naxes, y.map[l]) &&
		     var_symmetric(&f->lp, v, y.map[l]);
	}
	uint32_t *omap = NULL;
	for (size_t o = 0; o < f->no && ok; o++) {
		const sli_form_var *v = &f->o[o];
		omap = sli_xrealloc(omap, (v->n + 1) * sizeof *omap);
		ok = map_options(v->opt, v->n, perm, naxes, omap) &&
		     var_symmetric(&f->lp, v, omap);
	}
	free(omap);
	if (ok) {
		SL_VEC_PUSH(k->syms, y);
		return;
	}
	for (size_t l = 0; l < f->nt; l++)
		free(y.map[l]);
	free(y.map);
}

/*
 * The symmetries of class k: every permutation of interchangeable axes
 * (meshes of at most 5 axes) under which the model is unchanged.
 */
static void
compute_syms(dec *d, klass *k)
{
	const sli_cost_model *cm = d->cm;
	uint32_t n = cm->naxes;
	k->sym_done = true;
	if (n < 2 || n > 5 || !k->has_out)
		return;
	/* every permutation, in lexicographic order (Heap would do too) */
	int8_t perm[SLI_COST_MAX_AXES];
	for (uint32_t a = 0; a < SLI_COST_MAX_AXES; a++)
		perm[a] = (int8_t)a;
	for (;;) {
		/* next permutation of perm[0..n-1] */
		int i = (int)n - 2;
		while (i >= 0 && perm[i] >= perm[i + 1])
			i--;
		if (i < 0)
			break;
		int j = (int)n - 1;
		while (perm[j] <= perm[i])
			j--;
		int8_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		for (int lo = i + 1, hi = (int)n - 1; lo < hi; lo++, hi--) {
			t = perm[lo];
			perm[lo] = perm[hi];
			perm[hi] = t;
		}
		bool ok = true;
		for (uint32_t a = 0; a < n && ok; a++) {
			uint32_t b = (uint32_t)perm[a];
			ok = sli_cost_axes_alike(cm, a, b);
		}
		if (ok)
			try_sym(d, k, perm);
	}
}

/*
 * For an entry of class k (its symmetries computed) with incoming prices
 * shape: rep[j] is the outgoing option solved for j (j itself, or the
 * least of its orbit), via[j] the symmetry mapping rep[j] to j (or -1);
 * ok[i] tells whether symmetry i keeps the prices (k->syms.n entries).
 */
static void
orbits(const klass *k, const double *shape, uint32_t *rep, int *via, bool *ok)
{
	for (size_t j = 0; j < k->nout; j++) {
		rep[j] = (uint32_t)j;
		via[j] = -1;
	}
	for (size_t i = 0; i < k->syms.n; i++)
		ok[i] = false;
	if (!k->syms.n)
		return;
	/* the symmetries that keep the incoming prices too */
	for (size_t i = 0; i < k->syms.n; i++) {
		const sym *y = &k->syms.v[i];
		ok[i] = true;
		for (size_t j = 0; k->has_in && j < k->nin && ok[i]; j++) {
			double a = shape[j], b = shape[y->map[0][j]];
			ok[i] = isinf(a) || isinf(b) ? isinf(a) && isinf(b)
			      : fabs(a - b) <= SHAPE_TOL * fmax(1, fabs(a));
		}
	}
	/* they form a group: an orbit's least member maps onto each other */
	uint32_t out = out_local(k);
	for (size_t j = 0; j < k->nout; j++) {
		uint32_t r = (uint32_t)j;
		for (size_t i = 0; i < k->syms.n; i++)
			if (ok[i] && k->syms.v[i].map[out][j] < r)
				r = k->syms.v[i].map[out][j];
		for (size_t i = 0; i < k->syms.n && r != j; i++)
			if (ok[i] && k->syms.v[i].map[out][r] == j) {
				rep[j] = r;
				via[j] = (int)i;
				break;
			}
	}
	for (size_t j = 0; j < k->nout; j++)
		if (rep[rep[j]] != rep[j]) {
			rep[j] = (uint32_t)j;
			via[j] = -1;
		}
}

/* }==================================================================== */

/* {====================================================================
 * Dynamic programming over the chain
 * ===================================================================== */

static bool
same_shape(const double *a, const double *b, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		if (isinf(a[j]) || isinf(b[j])) {
			if (isinf(a[j]) != isinf(b[j]))
				return false;
			continue;
		}
		if (fabs(a[j] - b[j]) > SHAPE_TOL * fmax(1, fabs(a[j])))
			return false;
	}
	return true;
}

/*
 * Orbital fixing.  When some symmetries keeping the prices also keep
 * outgoing option j, the problem with j fixed is symmetric under them,
 * and any solution has an image as cheap whose incoming option is the
 * least of its orbit: the other incoming options may be excluded.  That
 * cuts off the symmetric averages the LP relaxation tends to end at (an
 * LP optimum of a symmetric problem can be taken symmetric, and no
 * integral point with the incoming sharding on the move is).  fixed[q]
 * says whether incoming option q is excluded now; j = NONE undoes all.
 */
static void
fix_orbital(dec *d, klass *k, const double *shape, const bool *ok, uint32_t j,
            bool *fixed)
{
	if (!k->has_in || !k->has_out)
		return;
	const sli_lp *lp = &k->f.lp;
	group *g = &d->groups.v[k->group];
	for (size_t q = 0; q < k->nin; q++) {
		bool drop = false;
		for (size_t i = 0; i < k->syms.n && !drop && j != NONE; i++)
			drop = ok[i] && k->syms.v[i].map[1][j] == j &&
			       k->syms.v[i].map[0][q] < q;
		if (drop == fixed[q] || isinf(shape[q]))
			continue;
		uint32_t c = k->in_col + (uint32_t)q;
		d->be->set_col(g->s, c, lp->obj.v[c] + shape[q], 0, drop ? 0 : 1);
		fixed[q] = drop;
	}
}

/*
 * Reuse across prices and classes.  The classes of a group have the same
 * constraints, so a solution for outgoing option j found in class a
 * under incoming prices p is a point of class k under prices shape too.
 * Where the two objectives differ only on one-hot columns (the options
 * of a tensor or an op), every point costs its old cost plus the sum,
 * over the one-hot groups, of the change of its chosen column: at least
 * the old optimum plus the least change the constraints allow in each
 * group.  So when the old solution chose a least changed column in every
 * group, it stays optimal, at its old cost plus its changes.  (Within
 * one class only the incoming prices change: no incoming option got
 * cheaper relative to the chosen one.)
 */
typedef struct change {
	int32_t *grp;		/* per column: local tensor, nt + local op, or -1 */
	double *d;		/* per column: cost now - cost then, inf if excluded now */
	double *least;		/* per group: least d of its columns allowed now */
} change;

/* The cost of column c of class k under incoming prices shape: inf
 * where the prices exclude it (sli_lp_opts has no other exclusions). */
static double
cost_now(const klass *k, const double *shape, uint32_t c)
{
	double v = k->f.lp.obj.v[c];
	if (k->has_in && c >= k->in_col && c < k->in_col + k->nin)
		v += shape[c - k->in_col];
	return v;
}

static void
change_init(change *ch, const klass *k)
{
	const sli_form *f = &k->f;
	size_t nc = sli_lp_ncols(&f->lp);
	ch->grp = sli_xmalloc((nc + 1) * sizeof *ch->grp);
	ch->d = sli_xmalloc((nc + 1) * sizeof *ch->d);
	ch->least = sli_xmalloc((f->nt + f->no + 1) * sizeof *ch->least);
	for (size_t c = 0; c < nc; c++)
		ch->grp[c] = -1;
	for (size_t l = 0; l < f->nt; l++)
		for (size_t i = 0; f->t[l].col != NONE && i < f->t[l].n; i++)
			ch->grp[f->t[l].col + i] = (int32_t)l;
	for (size_t l = 0; l < f->no; l++)
		for (size_t i = 0; f->o[l].col != NONE && i < f->o[l].n; i++)
			ch->grp[f->o[l].col + i] = (int32_t)(f->nt + l);
}

static void
change_fini(change *ch)
{
	free(ch->grp);
	free(ch->d);
	free(ch->least);
}

/*
 * The changes from class a under prices then to class k under prices
 * now.  False when they cannot be bounded per group: a column outside
 * the groups changed, or one allowed now was excluded then (the old
 * optimum was over fewer points).
 */
static bool
compute_change(const klass *k, const double *now, const klass *a,
               const double *then, change *ch)
{
	const sli_lp *lp = &k->f.lp;
	size_t nc = sli_lp_ncols(lp), ng = k->f.nt + k->f.no;
	for (size_t g = 0; g < ng; g++)
		ch->least[g] = INFINITY;
	for (size_t c = 0; c < nc; c++) {
		double x = cost_now(k, now, (uint32_t)c), y = cost_now(a, then, (uint32_t)c);
		int32_t g = ch->grp[c];
		if (isinf(x) || lp->ub.v[c] <= 0) {
			ch->d[c] = INFINITY;
			continue;
		}
		if (isinf(y) || (g < 0 && x != y))
			return false;
		ch->d[c] = x - y;
		if (g >= 0 && ch->d[c] < ch->least[g])
			ch->least[g] = ch->d[c];
	}
	return true;
}

/*
 * Fills value, picks and op picks of outgoing option j from p's
 * solution (of class a) where it stays optimal under ch; x is scratch
 * (the columns of k, all 0 on entry and on return).
 */
static bool
reuse_from(const klass *k, const entry *p, size_t j, const change *ch,
           double *x, entry *e)
{
	const sli_form *f = &k->f;
	size_t nt = f->nt, no = f->no;
	if (isinf(p->value[j]) || (no && p->opick[j * no] == NONE))
		return false;
	double tol = SHAPE_TOL * fmax(1, fabs(p->value[j])), sum = 0;
	for (size_t g = 0; g < nt + no; g++) {
		const sli_form_var *v = g < nt ? &f->t[g] : &f->o[g - nt];
		if (v->col == NONE || !v->n)
			continue;
		uint32_t c = v->col + (g < nt ? p->pick[j * nt + g] : p->opick[j * no + g - nt]);
		/* the outgoing tensor is fixed to j in both */
		bool out = k->has_out && g == out_local(k);
		if (isinf(ch->d[c]) || (!out && ch->d[c] > ch->least[g] + tol))
			return false;
		sum += ch->d[c];
	}
	e->value[j] = p->value[j] + sum;
	e->slack = fmax(e->slack, p->slack);
	/* the picks of leaves follow k's folds from the op picks */
	for (size_t l = 0; l < nt; l++)
		if (f->t[l].col != NONE && f->t[l].n)
			x[f->t[l].col + p->pick[j * nt + l]] = 1;
	for (size_t l = 0; l < no; l++)
		if (f->o[l].col != NONE && f->o[l].n)
			x[f->o[l].col + p->opick[j * no + l]] = 1;
	sli_form_pick(f, x, e->pick + j * nt);
	memcpy(e->opick + j * no, p->opick + j * no, no * sizeof *e->opick);
	memset(x, 0, sli_lp_ncols(&f->lp) * sizeof *x);
	return true;
}

/*
 * Marks done the outgoing options of k whose solution an earlier entry
 * of k's group gives (k's own entries first, the latest first).
 */
static void
reuse_solutions(dec *d, const klass *k, const double *shape, entry *e, bool *done)
{
	change ch;
	change_init(&ch, k);
	double *x = sli_xcalloc(sli_lp_ncols(&k->f.lp) + 1, sizeof *x);
	size_t left = k->nout;
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t c = 0; c < d->classes.n && left; c++) {
			const klass *a = &d->classes.v[c];
			if (a->group != k->group || (a == k) != !pass)
				continue;
			for (size_t n = a->entries.n; n-- > 0 && left;) {
				const entry *p = &a->entries.v[n];
				if (!compute_change(k, shape, a, p->shape, &ch))
					continue;
				for (size_t j = 0; j < k->nout; j++)
					if (!done[j] && reuse_from(k, p, j, &ch, x, e)) {
						done[j] = true;
						left--;
						d->r->nreuse++;
					}
			}
		}
	free(x);
	change_fini(&ch);
}

/*
 * A first point for the solve of outgoing option j, into x: the group's
 * last solution with c_out moved to j and the refunds redone, when that
 * is a point of the model as the session bounds it now (fixed[q]: c_in's
 * option q is excluded).  Branch and cut takes it as its incumbent: on
 * the attention blocks of a transformer on an 8x8 mesh with sub-axes
 * (24k columns) the relaxation is within 0.3% of the optimum, and most
 * of a solve went into finding a first integral point: 14-76 s wall
 * each without, 3-6 s with, the point often optimal already.
 */
static bool
start_for(const klass *k, const group *g, const double *shape,
          const bool *fixed, uint32_t j, double *x)
{
	const sli_lp *lp = &k->f.lp;
	if (!g->sol || !k->has_out || sli_lp_ncols(lp) < START_MIN_COLS)
		return false;
	memcpy(x, g->sol, sli_lp_ncols(lp) * sizeof *x);
	for (size_t q = 0; q < k->nout; q++)
		x[k->out_col + q] = q == j;
	for (size_t q = 0; k->has_in && q < k->nin; q++)
		if (x[k->in_col + q] > 0.5 && (isinf(shape[q]) || fixed[q]))
			return false;
	sli_form_fill_refunds(&k->f, x);
	return sli_lp_feasible(lp, x, 1e-9);
}

/*
 * What a block solve leaves unproven: its gap when it stopped at the
 * --gap tolerance or a limit; none when the backend proved it optimal
 * (within the backend's own tolerance, 1e-9 of a block's objective,
 * which holds the prefix's cost: summed over the blocks those would
 * read as a gap of the whole)
 */
static double
slack_of(const sli_lp_result *lr)
{
	return lr->status == SLI_LP_OPTIMAL ? 0 : fmax(0, lr->objective - lr->bound);
}

/* Records in r a solve that ended without an answer (time limit, solver
 * error) and frees its result; returns -1. */
static int
solve_failed(dec *d, sli_lp_result *lr)
{
	free(lr->x);
	free(lr->dual);
	d->r->status = lr->status;
	snprintf(d->r->message, sizeof d->r->message, "%s", lr->message);
	return -1;
}

/*
 * Makes k's group session (opened on first use) the model of class k
 * under incoming prices shape; c_in's options priced inf are excluded.
 * Returns 0, or -1 when the backend cannot open it (r->status says so).
 */
static int
load_class(dec *d, klass *k, const double *shape)
{
	const sli_lp_backend *be = d->be;
	const sli_lp *lp = &k->f.lp;
	group *g = &d->groups.v[k->group];
	size_t nc = sli_lp_ncols(lp);
	if (!g->s) {
		k->f.lp.slack_basis = d->slack_basis;
		g->s = be->open(lp, d->r->message, sizeof d->r->message);
		if (!g->s) {
			d->r->status = SLI_LP_ERROR;
			return -1;
		}
		g->obj = sli_xmalloc((nc + 1) * sizeof *g->obj);
		memcpy(g->obj, lp->obj.v, nc * sizeof *g->obj);
	}
	for (size_t c = 0; c < nc; c++)
		if (g->obj[c] != lp->obj.v[c]) {
			/* the fixed outgoing option stays fixed */
			bool fix = k->has_out && g->fixed != NONE &&
			           c == k->out_col + g->fixed;
			be->set_col(g->s, (uint32_t)c, lp->obj.v[c],
			            fix ? 1 : lp->lb.v[c], lp->ub.v[c]);
			g->obj[c] = lp->obj.v[c];
		}
	for (size_t j = 0; k->has_in && j < k->nin; j++) {
		uint32_t c = k->in_col + (uint32_t)j;
		bool inf = isinf(shape[j]);
		be->set_col(g->s, c, lp->obj.v[c] + (inf ? 0 : shape[j]), 0, inf ? 0 : 1);
	}
	return 0;
}

/* Fixes c_out to option j in k's group session (NONE: leaves it free). */
static void
fix_out(dec *d, klass *k, uint32_t j)
{
	const sli_lp *lp = &k->f.lp;
	group *g = &d->groups.v[k->group];
	if (!k->has_out || g->fixed == j)
		return;
	if (g->fixed != NONE) {
		uint32_t c0 = k->out_col + g->fixed;
		d->be->set_col(g->s, c0, lp->obj.v[c0], 0, 1);
	}
	if (j != NONE) {
		uint32_t c = k->out_col + j;
		d->be->set_col(g->s, c, lp->obj.v[c], 1, 1);
	}
	g->fixed = j;
}

static bool is_lazy(const klass *k);

/*
 * Before a solve of lazy class k, loaded, with its outgoing option fixed
 * to j (NONE: free): the solve keeps its LP basis for the next solve of
 * k at j, and starts from the one kept by the last, or else by the class
 * of its group solved last at j: the same bounds (give or take incoming
 * options excluded since), so a primal feasible basis, optimal for
 * nearby prices.  The basis the session holds is another option's: the
 * first refinement of an attention block on 8x8 with sub-axes took
 * 11,365 primal iterations (13 s) from it, 27 from its own.
 */
static void
slot_use(dec *d, klass *k, uint32_t j)
{
	group *g = &d->groups.v[k->group];
	if (!d->be->use_slot || !is_lazy(k))
		return;
	uint32_t n = (uint32_t)k->nout + 1, at = j == NONE ? n - 1 : j;
	if (!k->slots) {
		k->slots = d->nslots + 1;
		d->nslots += n;
	}
	uint32_t from[2] = {k->slots - 1 + at, SLI_LP_NO_SLOT};
	const klass *o = g->lazy_last == NONE ? NULL : &d->classes.v[g->lazy_last];
	if (o && o != k && o->slots)
		from[1] = o->slots - 1 + at;
	d->be->use_slot(g->s, k->slots - 1 + at, from, 2);
	g->lazy_last = (uint32_t)(k - d->classes.v);
}

/*
 * Solves class k for the incoming prices shape, once per outgoing
 * option, into a new entry.  Returns 0, or -1 when a solve ended without
 * a proven answer (time limit, solver error: r->status says which).
 */
static int
solve_entry(dec *d, klass *k, const double *shape, entry *e)
{
	const sli_lp_backend *be = d->be;
	const sli_lp *lp = &k->f.lp;
	size_t nt = k->f.nt;
	memset(e, 0, sizeof *e);
	e->value = sli_xmalloc(k->nout * sizeof *e->value);
	e->pick = sli_xcalloc(k->nout * nt + 1, sizeof *e->pick);
	e->opick = sli_xmalloc((k->nout * k->f.no + 1) * sizeof *e->opick);
	for (size_t i = 0; i < k->nout * k->f.no; i++)
		e->opick[i] = NONE;
	if (k->has_in) {
		e->shape = sli_xmalloc(k->nin * sizeof *e->shape);
		memcpy(e->shape, shape, k->nin * sizeof *shape);
	}
	group *g = &d->groups.v[k->group];
	size_t nc = sli_lp_ncols(lp);
	if (load_class(d, k, shape))
		return -1;
	uint32_t *rep = sli_xmalloc((k->nout + 1) * sizeof *rep);
	int *via = sli_xmalloc((k->nout + 1) * sizeof *via);
	if (!k->sym_done)
		compute_syms(d, k);
	bool *ok = sli_xcalloc(k->syms.n + 1, sizeof *ok);
	bool *fixed = sli_xcalloc(k->nin + 1, sizeof *fixed);
	orbits(k, shape, rep, via, ok);
	bool *done = sli_xcalloc(k->nout + 1, sizeof *done);
	reuse_solutions(d, k, shape, e, done);
	int rc = 0;
	/*
	 * the option fixed at the end of the last solve goes first: after
	 * price and objective changes the basis is then still primal
	 * feasible, and the primal simplex method needs no first phase
	 */
	uint32_t first = 0;
	if (g->fixed != NONE && g->fixed < k->nout && rep[g->fixed] == g->fixed &&
	    !done[g->fixed])
		first = g->fixed;
	sli_lp_opts o = d->opts;
	o.start = NULL;
	o.time_limit = 0;
	o.deadline = d->end;
	/*
	 * when another option goes first (the fixed one is an image, or
	 * reused), the relaxation is solved at the fixed one before: from a
	 * primal feasible basis; the objective and the bound changed at once
	 * need a first phase, 5x slower on a transformer's attention
	 */
	bool left = false;
	for (size_t j = 0; j < k->nout; j++)
		left |= rep[j] == j && !done[j];
	if (left && g->fixed != NONE && first != g->fixed && sli_lp_clock() < d->end) {
		sli_lp_opts lo = o;
		sli_lp_result lr;
		lo.lp_only = true;
		be->resolve(g->s, &lo, &lr);
		d->r->nsolves++;
		free(lr.x);
		free(lr.dual);
	}
	double *sx = sli_xmalloc((nc + 1) * sizeof *sx);
	for (size_t jj = 0; jj < k->nout && !rc; jj++) {
		size_t j = jj == 0 ? first : jj <= first ? jj - 1 : jj;
		if (rep[j] != j || done[j])
			continue;
		if (sli_lp_clock() >= d->end) {
			d->r->status = SLI_LP_NO_SOLUTION;
			rc = -1;
			break;
		}
		fix_out(d, k, (uint32_t)j);
		fix_orbital(d, k, shape, ok, (uint32_t)j, fixed);
		o.start = start_for(k, g, shape, fixed, (uint32_t)j, sx) ? sx : NULL;
		sli_lp_result lr;
		be->resolve(g->s, &o, &lr);
		d->r->nsolves++;
		switch (lr.status) {
		case SLI_LP_OPTIMAL:
		case SLI_LP_FEASIBLE:
			e->value[j] = lr.objective;
			e->slack = fmax(e->slack, slack_of(&lr));
			sli_form_pick(&k->f, lr.x, e->pick + j * nt);
			sli_form_pick_ops(&k->f, lr.x, e->opick + j * k->f.no);
			free(g->sol);
			g->sol = lr.x;
			break;
		case SLI_LP_INFEASIBLE:
			e->value[j] = INFINITY;
			break;
		default:
			rc = solve_failed(d, &lr);
		}
	}
	fix_orbital(d, k, shape, ok, NONE, fixed);
	free(fixed);
	free(sx);
	/* the other members of each orbit: images of its solved one */
	for (size_t j = 0; j < k->nout && !rc; j++) {
		if (rep[j] == j || done[j])
			continue;
		const sym *y = &k->syms.v[via[j]];
		const uint32_t *from = e->pick + rep[j] * nt;
		uint32_t *to = e->pick + j * nt;
		e->value[j] = e->value[rep[j]];
		for (size_t l = 0; l < nt; l++)
			to[l] = y->map[l][from[l]];
		d->r->nsym++;
	}
	free(done);
	free(rep);
	free(via);
	free(ok);
	return rc;
}

static void
entry_free(entry *e)
{
	free(e->shape);
	free(e->value);
	free(e->pick);
	free(e->opick);
}

/*
 * Lazy outgoing values.  A block's F(c_out, .) is kept as a value and a
 * flag per outgoing option: exact, or a proven lower bound.  Raising the
 * incoming prices can only raise a block's optimum, so a value found
 * under lower bounds stays a lower bound once they are raised; and a
 * solution under lower-bound prices whose incoming option is priced
 * exactly is exact (the other options can only get dearer).  A class of
 * costly blocks (at least sli_decomp_lazy_cols columns, a c_out of
 * several options) starts from one relaxation of the block with c_out
 * free (bound_block), then one per option with c_out fixed (relax); the
 * other classes solve every option as before, their values exact where
 * the incoming option they pick is.  At the end refine() makes exact,
 * recursively, only the options the chain picks.
 */
static bool
is_lazy(const klass *k)
{
	return k->has_out && k->nout > 1 &&
	       sli_lp_ncols(&k->f.lp) >= sli_decomp_lazy_cols;
}

/* The incoming prices of block b: F of the block before, less its least
 * (off); returns 1 when every option is infeasible (forward() stops
 * there, so refinements always find a finite one). */
static int
prices_of(const dec *d, size_t b, double *shape, double *off)
{
	const block *pv = b ? &d->blocks.v[b - 1] : NULL;
	size_t n = pv ? d->classes.v[pv->cls].nout : 1;
	*off = pv ? INFINITY : 0;
	for (size_t j = 0; pv && j < n; j++)
		*off = fmin(*off, pv->val[j]);
	if (isinf(*off))
		return 1;
	for (size_t j = 0; pv && d->classes.v[d->blocks.v[b].cls].has_in && j < n; j++)
		shape[j] = pv->val[j] - *off;
	return 0;
}

/* The local picks of outgoing option j of block bk. */
static uint32_t *
picks(const dec *d, const block *bk, size_t j)
{
	const klass *k = &d->classes.v[bk->cls];
	uint32_t *p = bk->own ? bk->own : k->entries.v[bk->entry].pick;
	return p + j * bk->nt;
}

/* Whether option j of block b is priced exactly: its incoming option is. */
static bool
exact_in(const dec *d, size_t b, size_t j)
{
	const block *bk = &d->blocks.v[b];
	const klass *k = &d->classes.v[bk->cls];
	if (!b || isinf(bk->val[j]))
		return true;
	return d->blocks.v[b - 1].exact[k->has_in ? picks(d, bk, j)[0] : 0];
}

/*
 * Known block costs.  With c_out fixed to j, the cost of a block of a
 * costly class given its incoming option p, less p's incoming price, is
 * the same number G_j(p) in every block of the class, whatever the
 * prices: the optimum under prices s is min over p of s_p + G_j(p).  So
 * what one solve learns serves every later block of the class: a branch
 * and cut that proves optimum V under prices s gives G_j(p) >= V - s_p
 * for every p, and G_j(p') = V - s_p' for the p' it picks (with the
 * picks that reach it); a relaxation gives, by its duals, a lower bound
 * on G_j(p) for every p.  Under new prices, the least s_p + G_j(p) over
 * the p whose G_j(p) is known is the optimum when no p's s_p plus its
 * bound is below it, and refine() takes it without a solve.  The layers
 * of a transformer after the first of each class are priced this way.
 */
typedef struct known {
	double *lo;		/* per incoming option: a bound on G_j(p) */
	double *g;		/* G_j(p) where known, else NAN */
	uint32_t **pick;	/* and the local picks reaching it, or NULL */
} known;

/* Whether class k keeps known block costs: a costly class with c_in. */
static bool
keeps_known(const klass *k)
{
	return k->has_in && sli_lp_ncols(&k->f.lp) >= sli_decomp_lazy_cols;
}

static known *
known_of(klass *k, uint32_t j)
{
	if (!k->kn) {
		k->kn = sli_xcalloc(k->nout + 1, sizeof *k->kn);
		for (size_t o = 0; o < k->nout; o++) {
			known *kn = &k->kn[o];
			kn->lo = sli_xmalloc((k->nin + 1) * sizeof *kn->lo);
			kn->g = sli_xmalloc((k->nin + 1) * sizeof *kn->g);
			kn->pick = sli_xcalloc(k->nin + 1, sizeof *kn->pick);
			for (size_t p = 0; p < k->nin; p++) {
				kn->lo[p] = -INFINITY;
				kn->g[p] = NAN;
			}
		}
	}
	return &k->kn[j];
}

static void
known_free(klass *k)
{
	for (size_t o = 0; k->kn && o < k->nout; o++) {
		for (size_t p = 0; p < k->nin; p++)
			free(k->kn[o].pick[p]);
		free(k->kn[o].lo);
		free(k->kn[o].g);
		free(k->kn[o].pick);
	}
	free(k->kn);
	k->kn = NULL;
}

/*
 * Row duals y of lr, kept to their signs (so that any point within the
 * columns' bounds costs at least y'b plus the least of each column's
 * reduced cost over its bounds), and the reduced costs rc = c - A'y for
 * the objective c of k under prices shape (shape NULL: the lp's own
 * objective).  Returns y'b plus the lp's constant.
 */
static double
dual_costs(const klass *k, const double *shape, const sli_lp_result *lr, double *rc)
{
	const sli_lp *lp = &k->f.lp;
	size_t nc = sli_lp_ncols(lp);
	for (size_t c = 0; c < nc; c++)
		rc[c] = shape ? cost_now(k, shape, (uint32_t)c) : lp->obj.v[c];
	double base = lp->obj_const;
	for (size_t i = 0; i < lp->rows.n; i++) {
		const sli_lp_row *row = &lp->rows.v[i];
		double y = lr->dual[i];
		if ((row->sense == SLI_LP_LE && y > 0) || (row->sense == SLI_LP_GE && y < 0))
			y = 0;
		base += y * row->rhs;
		for (size_t n = row->first; n < row->first + row->n; n++)
			rc[lp->idx.v[n]] -= y * lp->val.v[n];
	}
	return base;
}

/*
 * Bounds G_j(p) for every p by the duals of lr, a relaxation of class k
 * with c_out fixed to j: every point with c_in = p and c_out = j costs,
 * less p's price, at least y'b, plus the least reduced cost of each other
 * column over its bounds, plus the reduced costs of p's and j's columns.
 */
static void
know_bound(klass *k, uint32_t j, const sli_lp_result *lr)
{
	if (!keeps_known(k) || !lr->dual)
		return;
	const sli_lp *lp = &k->f.lp;
	size_t nc = sli_lp_ncols(lp);
	double *rc = sli_xmalloc((nc + 1) * sizeof *rc);
	double base = dual_costs(k, NULL, lr, rc);
	for (size_t c = 0; c < nc; c++) {
		bool in = c >= k->in_col && c < k->in_col + k->nin;
		bool out = k->has_out && c >= k->out_col && c < k->out_col + k->nout;
		if (!in && !out)
			base += fmin(rc[c] * lp->lb.v[c], rc[c] * lp->ub.v[c]);
	}
	if (k->has_out)
		base += rc[k->out_col + j];
	known *kn = known_of(k, j);
	for (size_t p = 0; p < k->nin; p++) {
		double v = base + rc[k->in_col + p];
		/* the relaxation's own rounding: a bound a little below */
		kn->lo[p] = fmax(kn->lo[p], v - 1e-9 * fmax(1, fabs(v)));
	}
	free(rc);
}

/* Records G_j(p) = G, reached by the local picks pick. */
static void
know_at(klass *k, uint32_t j, uint32_t p, double G, const uint32_t *pick)
{
	known *kn = known_of(k, j);
	kn->g[p] = G;
	kn->lo[p] = G;	/* (no bound above the value: rounding) */
	if (!kn->pick[p])
		kn->pick[p] = sli_xmalloc((k->f.nt + 1) * sizeof *kn->pick[p]);
	memcpy(kn->pick[p], pick, k->f.nt * sizeof *pick);
}

/*
 * Records a proven optimum V of class k with c_out fixed to j under
 * prices shape, reached by the local picks pick (c_in's first).
 */
static void
know_point(klass *k, uint32_t j, const double *shape, double V, const uint32_t *pick)
{
	if (!keeps_known(k))
		return;
	known *kn = known_of(k, j);
	for (size_t p = 0; p < k->nin; p++)
		if (!isinf(shape[p]))
			kn->lo[p] = fmax(kn->lo[p], V - shape[p]);
	know_at(k, j, pick[0], V - shape[pick[0]], pick);
}

/*
 * The least s_p + G_j(p) under prices shape over the p allowed whose
 * G_j(p) is known (inf: none), that p in *p (NONE: none).
 */
static double
known_best(const klass *k, const known *kn, const double *shape, uint32_t *p)
{
	double best = INFINITY;
	*p = NONE;
	for (size_t q = 0; q < k->nin; q++)
		if (!isinf(shape[q]) && !isnan(kn->g[q]) && shape[q] + kn->g[q] < best) {
			best = shape[q] + kn->g[q];
			*p = (uint32_t)q;
		}
	return best;
}

/*
 * The optimum of class k with c_out fixed to j under prices shape when
 * known block costs prove it (NAN otherwise), its incoming option in *p,
 * and in *slack how far above the proven bound it is (rounding only).
 */
static double
known_value(const klass *k, uint32_t j, const double *shape, uint32_t *p, double *slack)
{
	if (!k->kn)
		return NAN;
	const known *kn = &k->kn[j];
	double best = known_best(k, kn, shape, p), lo = INFINITY;
	for (size_t q = 0; q < k->nin; q++)
		if (!isinf(shape[q]))
			lo = fmin(lo, shape[q] + kn->lo[q]);
	if (*p == NONE || best > lo + 1e-9 * fmax(1, fabs(best)))
		return NAN;
	*slack = fmax(0, best - lo);
	return best;
}

/*
 * Solves the relaxation of k's group session as it is loaded into lr.
 * Returns 0, or -1 (solve_failed) when it ended neither optimal nor
 * infeasible.
 */
static int
relaxation(dec *d, const klass *k, sli_lp_result *lr)
{
	sli_lp_opts o = d->opts;
	o.start = NULL;
	o.time_limit = 0;
	o.deadline = d->end;
	o.lp_only = true;
	d->be->resolve(d->groups.v[k->group].s, &o, lr);
	d->r->nsolves++;
	if (lr->status == SLI_LP_OPTIMAL || lr->status == SLI_LP_INFEASIBLE)
		return 0;
	return solve_failed(d, lr);
}

/*
 * Lower bounds for every outgoing option of block b (a lazy class) from
 * one relaxation with c_out free: with y its row duals (kept to their
 * signs, so the bound holds for any y) and d = c - A'y, every point
 * costs at least y'b + sum_j min(d_j lb_j, d_j ub_j), and fixing c_out
 * to q replaces that column's term by d_q.
 */
static int
bound_block(dec *d, size_t b, const double *shape, double off)
{
	block *bk = &d->blocks.v[b];
	klass *k = &d->classes.v[bk->cls];
	const sli_lp *lp = &k->f.lp;
	size_t nc = sli_lp_ncols(lp);
	if (load_class(d, k, shape))
		return -1;
	fix_out(d, k, NONE);
	slot_use(d, k, NONE);
	sli_lp_result lr;
	bk->own = sli_xcalloc(k->nout * bk->nt + 1, sizeof *bk->own);
	if (relaxation(d, k, &lr))
		return -1;
	if (lr.status == SLI_LP_INFEASIBLE) {
		for (size_t q = 0; q < k->nout; q++) {
			bk->val[q] = INFINITY;
			bk->exact[q] = true;
		}
		return 0;
	}
	double *rc = sli_xmalloc((nc + 1) * sizeof *rc);
	double base = dual_costs(k, shape, &lr, rc);
	for (size_t c = 0; c < nc; c++)
		if (!isinf(rc[c]))	/* an excluded incoming option is 0 */
			base += fmin(rc[c] * lp->lb.v[c], rc[c] * lp->ub.v[c]);
	for (size_t q = 0; q < k->nout; q++) {
		double dq = rc[k->out_col + q];
		/* the relaxation's own rounding: bounds a little below */
		double v = base - fmin(0, dq) + dq;
		bk->val[q] = off + v - 1e-9 * fmax(1, fabs(v));
		bk->exact[q] = false;
	}
	free(rc);
	free(lr.x);
	free(lr.dual);
	return 0;
}

/*
 * Raises the bound of option j of block b (a lazy class) to the
 * relaxation's with c_out fixed to j, under the incoming values as they
 * are (within 0.3% of the optimum on a transformer's attention, where
 * the bound with c_out free can be 25% below).  *in (when not NULL)
 * receives the incoming option the relaxation leans on most, or NONE.
 * Returns 0, or -1 when the solve ended without an answer.
 */
static int
relax(dec *d, size_t b, uint32_t j, uint32_t *in)
{
	block *bk = &d->blocks.v[b];
	klass *k = &d->classes.v[bk->cls];
	double *shape = sli_xmalloc((k->nin + 1) * sizeof *shape), off;
	prices_of(d, b, shape, &off);
	int rc = load_class(d, k, shape);
	free(shape);
	if (rc)
		return -1;
	fix_out(d, k, j);
	slot_use(d, k, j);
	sli_lp_result lr;
	if (in)
		*in = NONE;
	if (relaxation(d, k, &lr))
		return -1;
	bk->gen++;
	if (lr.status == SLI_LP_INFEASIBLE) {
		bk->val[j] = INFINITY;
		bk->exact[j] = true;
		return 0;
	}
	know_bound(k, j, &lr);
	double v = off + lr.objective;
	bk->val[j] = fmax(bk->val[j], v - 1e-9 * fmax(1, fabs(v)));
	for (size_t p = 0; in && k->has_in && p < k->nin; p++)
		if (lr.x[k->in_col + p] > 1e-6 &&
		    (*in == NONE || lr.x[k->in_col + p] > lr.x[k->in_col + *in]))
			*in = (uint32_t)p;
	free(lr.x);
	free(lr.dual);
	return 0;
}

/*
 * Bounds for every outgoing option of block b (a lazy class) from the
 * last relaxations of its class, with no solve.  A point of the block
 * takes exactly one incoming option, so with prices moved from then to
 * now its cost moves by at least lo = the least of now - then over the
 * options allowed now (excluded then: no bound), and every bound then,
 * plus lo, is one now.  Taken only when the prices moved by nearly a
 * constant (CARRY_TOL), where these bounds are within that of the
 * relaxations: in a model whose layers are alike, every layer after the
 * first two.  Returns whether it bounded the block.
 */
static bool
carry_bounds(dec *d, size_t b, const double *shape, double off)
{
	block *bk = &d->blocks.v[b];
	const klass *k = &d->classes.v[bk->cls];
	if (!k->lazy_shape)	/* (kept only with c_in: keep_bounds) */
		return false;
	double lo = INFINITY, hi = -INFINITY, top = 1;
	for (size_t p = 0; p < k->nin; p++) {
		if (isinf(shape[p]))
			continue;
		if (isinf(k->lazy_shape[p]))
			return false;
		double m = shape[p] - k->lazy_shape[p];
		lo = fmin(lo, m);
		hi = fmax(hi, m);
		top = fmax(top, fabs(shape[p]));
	}
	if (isinf(lo) || hi - lo > CARRY_TOL * top)
		return false;
	bk->own = sli_xcalloc(k->nout * bk->nt + 1, sizeof *bk->own);
	for (size_t j = 0; j < k->nout; j++) {
		/* (an option infeasible then is infeasible now) */
		double v = off + k->lazy_val[j] + lo;
		bk->exact[j] = isinf(v);
		bk->val[j] = isinf(v) ? v : v - 1e-12 * fmax(1, fabs(v));
	}
	if (k->lazy_lean) {
		bk->lean = sli_xmalloc((k->nout + 1) * sizeof *bk->lean);
		memcpy(bk->lean, k->lazy_lean, k->nout * sizeof *bk->lean);
		bk->in_gen = b ? d->blocks.v[b - 1].gen : 0;
	}
	d->r->ncarried++;
	return true;
}

/* Keeps block b's bounds, just relaxed, for the next block of its class. */
static void
keep_bounds(dec *d, size_t b, const double *shape, double off)
{
	const block *bk = &d->blocks.v[b];
	klass *k = &d->classes.v[bk->cls];
	if (!k->has_in)
		return;
	if (!k->lazy_shape) {
		k->lazy_shape = sli_xmalloc((k->nin + 1) * sizeof *k->lazy_shape);
		k->lazy_val = sli_xmalloc((k->nout + 1) * sizeof *k->lazy_val);
	}
	memcpy(k->lazy_shape, shape, k->nin * sizeof *shape);
	free(k->lazy_lean);
	k->lazy_lean = NULL;
	if (bk->lean) {
		k->lazy_lean = sli_xmalloc((k->nout + 1) * sizeof *k->lazy_lean);
		memcpy(k->lazy_lean, bk->lean, k->nout * sizeof *k->lazy_lean);
	}
	for (size_t j = 0; j < k->nout; j++)
		k->lazy_val[j] = bk->val[j] - off;
}

/* Tells the caller (sli_lp_opts.progress) where the solve is: at block b
 * (from 1) of phase, in a branch and cut of `nodes` so far (0: none). */
static void
tell(const dec *d, size_t nodes, double gap)
{
	sli_lp_progress p = {d->phase, d->block, d->blocks.n, d->r->nsolves,
	                     sli_lp_clock() - d->t0, nodes, gap};
	d->opts.progress(d->opts.progress_arg, &p);
}

static void
report(dec *d, const char *phase, size_t b)
{
	d->phase = phase;
	d->block = b;
	if (d->opts.progress)
		tell(d, 0, -1);
}

/* the backend's branch and cut (sli_lp_opts.on_node), within the block
 * of the last report */
static void
on_node(void *arg, size_t nodes, double gap)
{
	tell(arg, nodes, gap);
}

/* most incoming options lower_prices() lowers for one solve */
#define LOWER_MAX 2

/*
 * Where known block costs fall short of pricing option j of block b
 * under prices shape only by a few incoming options p (at most
 * LOWER_MAX) whose G_j(p) is not known, bounded only a little below the
 * best known point (in a chain of alike layers, the option that each
 * layer's optimum passes by while its relative price rises layer by
 * layer), fills low with shape, those prices lowered by their shortfall
 * times the blocks of the class still to come, and returns true.  The
 * block solved under low bounds G_j(p) that much higher, so that the
 * later blocks of the class need no solve; and its optimum is the one
 * under shape too when it picks an option not lowered (every point
 * costs at least as much under shape, that one no more).
 */
static bool
lower_prices(const dec *d, size_t b, uint32_t j, const double *shape, double *low)
{
	const block *bk = &d->blocks.v[b];
	const klass *k = &d->classes.v[bk->cls];
	if (!k->kn || !k->has_in)
		return false;
	const known *kn = &k->kn[j];
	uint32_t p;
	double best = known_best(k, kn, shape, &p);
	if (p == NONE)
		return false;
	size_t later = 0, n = 0;
	for (size_t c = b + 1; c < d->blocks.n; c++)
		later += d->blocks.v[c].cls == bk->cls;
	if (!later)
		return false;
	double tol = 1e-9 * fmax(1, fabs(best));
	memcpy(low, shape, k->nin * sizeof *low);
	for (size_t q = 0; q < k->nin; q++) {
		double short_by = best - (shape[q] + kn->lo[q]);
		if (isinf(shape[q]) || !isnan(kn->g[q]) || short_by <= tol)
			continue;
		/* (unbounded: no shortfall to scale) */
		if (++n > LOWER_MAX || isinf(kn->lo[q]))
			return false;
		low[q] = shape[q] - short_by * (double)(later + 1);
	}
	return n > 0;
}

/* Whether known block costs price option j of block b under the
 * incoming values as they are (refine() then needs no relaxation). */
static bool
known_here(const dec *d, size_t b, uint32_t j)
{
	const block *bk = &d->blocks.v[b];
	const klass *k = &d->classes.v[bk->cls];
	if (!k->kn || !k->has_in)
		return false;
	double *shape = sli_xmalloc((k->nin + 1) * sizeof *shape), off, ks;
	uint32_t p;
	prices_of(d, b, shape, &off);
	bool yes = !isnan(known_value(k, j, shape, &p, &ks));
	free(shape);
	return yes;
}

/*
 * Makes option j of block b exact: solves the block with c_out fixed to
 * j under the incoming values as they are, and while the incoming
 * option it picks is a bound, makes that one exact first and solves
 * again (each round makes one more incoming option exact, so this ends).
 * Returns 0, or -1 when a solve ended without a proven answer.
 */
static int
refine(dec *d, size_t b, uint32_t j)
{
	block *bk = &d->blocks.v[b];
	klass *k = &d->classes.v[bk->cls];
	group *g = &d->groups.v[k->group];
	size_t nc = sli_lp_ncols(&k->f.lp), nt = bk->nt;
	if (!bk->own) {
		bk->own = sli_xmalloc((k->nout * nt + 1) * sizeof *bk->own);
		memcpy(bk->own, picks(d, bk, 0), k->nout * nt * sizeof *bk->own);
	}
	double *shape = sli_xmalloc((k->nin + 1) * sizeof *shape);
	double *low = sli_xmalloc((k->nin + 1) * sizeof *low);
	bool *fixed = sli_xcalloc(k->nin + 1, sizeof *fixed);
	double *x = NULL, *sx = sli_xmalloc((nc + 1) * sizeof *sx), off;
	sli_lp_opts o = d->opts;
	o.time_limit = 0;
	o.deadline = d->end;
	/*
	 * a lazy class's branch and cut starts from its own basis and a
	 * point: there Driebeck and Tomlin's rule took fewer nodes than
	 * most fractional first, also on meshes whose axes trade places
	 * (8x8 with sub-axes, 24 layers: 108.6 -> 79.2 s)
	 */
	if (is_lazy(k))
		o.most_fractional = false;
	int rc = 0;
	/*
	 * a costly block's first solve under incoming bounds would be
	 * wasted: the incoming option its relaxation leans on is made exact
	 * before it (a lazy class, or the chain's last block when it is as
	 * large: a branch and cut of tens of seconds)
	 */
	uint32_t p;
	if ((is_lazy(k) || nc >= sli_decomp_lazy_cols) && b && !bk->exact[j] &&
	    !known_here(d, b, j)) {
		report(d, "refining", b + 1);
		/* (its relaxation as the forward pass left it, when the prices
		 * coming in are the same: solving it again gives the bound it
		 * has) */
		if (bk->lean && d->blocks.v[b - 1].gen == bk->in_gen)
			p = bk->lean[j];
		else
			rc = relax(d, b, j, &p);
		if (!rc && !bk->exact[j] && p != NONE && !d->blocks.v[b - 1].exact[p])
			rc = refine(d, b - 1, p);
	}
	while (!rc && !bk->exact[j]) {
		if (sli_lp_clock() >= d->end) {
			d->r->status = SLI_LP_NO_SOLUTION;
			rc = -1;
			break;
		}
		report(d, "refining", b + 1);
		prices_of(d, b, shape, &off);
		double ks, kv = k->has_in ? known_value(k, j, shape, &p, &ks) : NAN;
		if (!isnan(kv)) {
			memcpy(bk->own + j * nt, k->kn[j].pick[p], nt * sizeof *bk->own);
			bk->val[j] = fmax(bk->val[j], off + kv);
			bk->gen++;
			d->r->nknown++;
			if (d->blocks.v[b - 1].exact[p]) {
				bk->val[j] = off + kv;
				bk->exact[j] = true;
				bk->slack = fmax(bk->slack, ks);
				break;
			}
			rc = refine(d, b - 1, p);
			continue;
		}
		bool lowered = lower_prices(d, b, j, shape, low);
		d->r->nlowered += lowered;
		if (load_class(d, k, lowered ? low : shape)) {
			rc = -1;
			break;
		}
		fix_out(d, k, j);
		slot_use(d, k, j);
		/* the last solution of this option is still a point unless
		 * the incoming option it took proved infeasible */
		bool keep = x && nc >= START_MIN_COLS &&
		            (!k->has_in || !isinf(shape[bk->own[j * nt]]));
		o.start = keep ? x : start_for(k, g, shape, fixed, j, sx) ? sx : NULL;
		sli_lp_result lr;
		d->be->resolve(g->s, &o, &lr);
		d->r->nsolves++;
		bk->gen++;
		if (lr.status == SLI_LP_INFEASIBLE) {
			bk->val[j] = INFINITY;
			bk->exact[j] = true;
			break;
		}
		if (lr.status != SLI_LP_OPTIMAL && lr.status != SLI_LP_FEASIBLE) {
			rc = solve_failed(d, &lr);
			break;
		}
		sli_form_pick(&k->f, lr.x, bk->own + j * nt);
		if (lr.status == SLI_LP_OPTIMAL && k->has_in)
			know_point(k, j, lowered ? low : shape, lr.objective, bk->own + j * nt);
		/* (under lowered prices a bound; exact unless it picks one) */
		bk->val[j] = fmax(bk->val[j], off + lr.objective);
		free(g->sol);
		g->sol = sli_xmalloc((nc + 1) * sizeof *g->sol);
		memcpy(g->sol, lr.x, nc * sizeof *g->sol);
		free(x);
		x = lr.x;
		p = k->has_in ? bk->own[j * nt] : 0;
		if (lowered && low[p] != shape[p])
			continue;	/* G_j(p) known now: priced again */
		const block *pv = b ? &d->blocks.v[b - 1] : NULL;
		if (!pv || pv->exact[p]) {
			bk->val[j] = off + lr.objective;
			bk->exact[j] = true;
			bk->slack = fmax(bk->slack, slack_of(&lr));
			break;
		}
		rc = refine(d, b - 1, p);
	}
	free(x);
	free(sx);
	free(shape);
	free(low);
	free(fixed);
	return rc;
}

/*
 * The forward pass: prefix costs block by block, then the options the
 * chain picks made exact.  Returns 0 with the optimum in total, 1 when
 * the chain is infeasible, -1 when a solve failed.
 */
static int
forward(dec *d, double *total, double *slack)
{
	size_t nb = d->blocks.n;
	double *shape = NULL, off;
	int rc = 0;
	bool lazy = false;
	for (size_t c = 0; c < d->classes.n; c++)
		lazy |= is_lazy(&d->classes.v[c]);
	for (size_t b = 0; b < nb && !rc; b++) {
		block *bk = &d->blocks.v[b];
		klass *k = &d->classes.v[bk->cls];
		size_t nin = b ? d->classes.v[bk[-1].cls].nout : 1;
		report(d, "blocks", b + 1);
		shape = sli_xrealloc(shape, (nin + 1) * sizeof *shape);
		if (prices_of(d, b, shape, &off)) {
			rc = 1;
			break;
		}
		bk->val = sli_xmalloc((k->nout + 1) * sizeof *bk->val);
		bk->exact = sli_xmalloc((k->nout + 1) * sizeof *bk->exact);
		if (is_lazy(k)) {
			if (carry_bounds(d, b, shape, off))
				continue;
			rc = bound_block(d, b, shape, off);
			/*
			 * then each option's own relaxation: within 0.3% of
			 * its value on a transformer's attention, where the
			 * bound above is 15-25% low and the chain would ask
			 * for branch and cut on tens of options; a warm dual
			 * simplex each (0.18 s of CPU on 24,157 columns)
			 */
			bk->lean = sli_xmalloc((k->nout + 1) * sizeof *bk->lean);
			for (uint32_t j = 0; j < k->nout; j++)
				bk->lean[j] = NONE;
			for (uint32_t j = 0; !rc && j < k->nout; j++)
				if (!bk->exact[j])
					rc = relax(d, b, j, &bk->lean[j]);
			bk->in_gen = b ? d->blocks.v[b - 1].gen : 0;
			if (!rc)
				keep_bounds(d, b, shape, off);
			continue;
		}
		size_t e;
		for (e = k->entries.n; e-- > 0;)
			if (!k->has_in || same_shape(k->entries.v[e].shape, shape, k->nin))
				break;
		if (e == (size_t)-1) {
			entry ne;
			if (solve_entry(d, k, shape, &ne)) {
				entry_free(&ne);
				rc = -1;
				break;
			}
			SL_VEC_PUSH(k->entries, ne);
			e = k->entries.n - 1;
		}
		/* later refinements may come back to a lazy chain's sessions */
		group *g = &d->groups.v[k->group];
		if (!lazy && g->last == b && g->s) {
			d->be->close(g->s);
			g->s = NULL;
		}
		bk->entry = e;
		const entry *en = &k->entries.v[e];
		for (size_t j = 0; j < k->nout; j++)
			bk->val[j] = off + en->value[j];
		for (size_t j = 0; j < k->nout; j++)
			bk->exact[j] = exact_in(d, b, j);
		bk->slack = en->slack;
	}
	if (!rc && !d->blocks.v[nb - 1].exact[0])
		rc = refine(d, nb - 1, 0);
	if (!rc) {
		*total = d->blocks.v[nb - 1].val[0];
		*slack = 0;
		for (size_t b = 0; b < nb; b++)
			*slack += d->blocks.v[b].slack;
		if (isinf(*total))
			rc = 1;
	}
	free(shape);
	return rc;
}

/* The chosen options, last block first. */
static void
backward(dec *d, sli_cost_asg *q)
{
	size_t pick = 0;
	for (size_t b = d->blocks.n; b-- > 0;) {
		const block *bk = &d->blocks.v[b];
		const klass *k = &d->classes.v[bk->cls];
		const uint32_t *p = picks(d, bk, pick);
		for (size_t l = 0; l < bk->nt; l++)
			q[bk->tensors[l]] = k->f.t[l].opt[p[l]];
		pick = k->has_in ? p[0] : 0;
	}
}

/* }==================================================================== */

int
sli_decomp_solve(const sli_cost_model *cm, const sli_lp_backend *be,
                 const sli_lp_opts *o, bool reuse, sli_cost_asg *q,
                 sli_decomp_result *r)
{
	dec d;
	size_t nt = cm->tensors.n;
	int rc = 1;

	memset(r, 0, sizeof *r);
	r->status = SLI_LP_ERROR;
	r->objective = r->gap = INFINITY;
	r->bound = -INFINITY;
	if (cm->budget_binds || !be->open || cm->ops.n < 2)
		return 1;
	memset(&d, 0, sizeof d);
	d.cm = cm;
	d.be = be;
	d.opts = *o;
	if (o->progress) {
		d.opts.on_node = on_node;
		d.opts.on_node_arg = &d;
	}
	d.phase = "blocks";
	d.block = 1;
	d.r = r;
	d.t0 = sli_lp_clock();
	d.end = sli_lp_deadline(o, d.t0);
	d.nopt = sli_xcalloc(nt + 1, sizeof *d.nopt);
	d.lo = sli_xmalloc((nt + 1) * sizeof *d.lo);
	d.hi = sli_xmalloc((nt + 1) * sizeof *d.hi);

	/* fixed tensors take their one option */
	for (size_t t = 0; t < nt; t++) {
		sli_cost_asg *opt;
		d.nopt[t] = sli_cost_tensor_options(cm, (uint32_t)t, &opt);
		if (d.nopt[t] == 1)
			q[t] = opt[0];
		free(opt);
		if (!d.nopt[t])
			goto out;
	}
	d.refs = sli_xcalloc(nt + 1, sizeof *d.refs);
	for (size_t op = 0; op < cm->ops.n; op++) {
		const sli_cost_op *co = &cm->ops.v[op];
		for (uint32_t i = 0; i < co->noperands; i++)
			if (co->operands[i] != NONE)
				d.refs[co->operands[i]]++;
		for (uint32_t i = 0; i < co->nresults; i++)
			if (co->results[i] != NONE)
				d.refs[co->results[i]]++;
	}
	for (size_t i = 0; i < cm->ties.n; i++)
		d.refs[cm->ties.v[i].a] = d.refs[cm->ties.v[i].b] = NONE;
	compute_spans(&d);
	if (find_blocks(&d) < 2)
		goto out;
	if (!classify(&d, reuse)) {
		r->status = SLI_LP_NO_SOLUTION;	/* as forward() on the deadline */
		rc = 0;
		goto out;
	}
	r->nblocks = d.blocks.n;
	r->nclasses = d.classes.n;
	for (size_t c = 0; c < d.classes.n; c++)
		d.slack_basis |= is_lazy(&d.classes.v[c]);

	double total, slack;
	int fw = forward(&d, &total, &slack);
	if (fw > 0)
		goto out;	/* infeasible: the whole model names the conflict */
	rc = 0;
	if (fw < 0)
		goto out;
	backward(&d, q);
	r->objective = total;
	r->bound = r->objective - slack;
	r->gap = slack / fmax(1e-9, fabs(r->objective));
	/* a solve stopped at the --gap tolerance is not proven optimal */
	r->status = slack <= 1e-9 * fmax(1, fabs(r->objective))
	          ? SLI_LP_OPTIMAL : SLI_LP_FEASIBLE;
out:
	r->seconds = sli_lp_clock() - d.t0;
	for (size_t b = 0; b < d.blocks.n; b++) {
		free(d.blocks.v[b].tensors);
		free(d.blocks.v[b].val);
		free(d.blocks.v[b].exact);
		free(d.blocks.v[b].own);
		free(d.blocks.v[b].lean);
	}
	for (size_t g = 0; g < d.groups.n; g++) {
		if (d.groups.v[g].s)
			be->close(d.groups.v[g].s);
		free(d.groups.v[g].obj);
		free(d.groups.v[g].sol);
	}
	SL_VEC_FREE(d.groups);
	for (size_t c = 0; c < d.classes.n; c++) {
		klass *k = &d.classes.v[c];
		for (size_t e = 0; e < k->entries.n; e++)
			entry_free(&k->entries.v[e]);
		SL_VEC_FREE(k->entries);
		syms_free(k);
		known_free(k);
		free(k->lazy_shape);
		free(k->lazy_val);
		free(k->lazy_lean);
		sli_form_fini(&k->f);
	}
	SL_VEC_FREE(d.blocks);
	SL_VEC_FREE(d.classes);
	free(d.nopt);
	free(d.lo);
	free(d.hi);
	free(d.refs);
	return rc;
}

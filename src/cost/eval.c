/*
 * eval.c - the estimated step time in seconds of a complete sharding of a
 * module's tensors (shardlp-cost(7)), two ways.  The model's price
 * (sli_cost_eval_asg): every op takes the factor assignment that makes
 * its own part least (compute, all-reduce, the reshards of its operands
 * and results), all priced by primitives.c as the ILP's terms are.  The
 * evaluator (sli_cost_eval): what the export runs for the module's
 * shardings (emitted.c).  Both report the peak live bytes per device
 * (liveness.c), held against the budget.
 */
#include "cost/cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost/emitted.h"
#include "cost/memo.h"
#include "cost/primitives.h"

/*
 * The reshards of one op's edges priced so far, per edge (operands, then
 * results) by the projection of the op's assignment: many assignments
 * share one projection (with sub-axes, most of them do).
 */
typedef struct edge_memo {
	sli_htab *seen;		/* per edge: projection -> index in cost */
	SL_VEC(double) *cost;	/* per edge */
	uint32_t n;
} edge_memo;

static void
memo_init(edge_memo *em, const sli_cost_op *co)
{
	em->n = co->noperands + co->nresults;
	em->seen = sli_xcalloc(em->n + 1, sizeof *em->seen);
	em->cost = sli_xcalloc(em->n + 1, sizeof *em->cost);
}

static void
memo_fini(edge_memo *em)
{
	for (uint32_t e = 0; e < em->n; e++) {
		sli_htab_fini(&em->seen[e]);
		SL_VEC_FREE(em->cost[e]);
	}
	free(em->seen);
	free(em->cost);
}

/* The reshard of edge e to or from r (by price), priced once per r. */
static double
memo_reshard(const sli_cost_model *cm, edge_memo *em, uint32_t e, bool result,
             uint32_t x, const sli_cost_asg *q, const sli_cost_asg *r)
{
	uint32_t k = sli_cost_memo(&em->seen[e], r, (uint32_t)em->cost[e].n);
	if (k < em->cost[e].n)
		return em->cost[e].v[k];
	double c = result ? sli_cost_reshard(cm, r, sli_cost_tensor_bytes(cm, x, r),
	                                     &q[x], NULL)
	                  : sli_cost_reshard(cm, &q[x],
	                                     sli_cost_tensor_bytes(cm, x, &q[x]), r, NULL);
	SL_VEC_PUSH(em->cost[e], c);
	return c;
}

/*
 * The local cost of op o under s given the tensor shardings q, tallied
 * into t, or (t NULL) each reshard priced once per projection by em
 * unless em is NULL.  With em, the pricing ends as soon as the cost
 * reaches stop (never when stop is NaN): the edges left cost >= 0
 * (reshards_nonnegative), so the whole costs at least what is returned.
 */
static double
op_local(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s,
         const sli_cost_asg *q, double *compute, sli_cost_parts *t, edge_memo *em,
         double stop)
{
	const sli_cost_op *co = &cm->ops.v[o];
	double c = sli_cost_op_self(cm, o, s, compute, t);
	sli_cost_asg none;
	memset(none.a, SLI_COST_NONE, sizeof none.a);

	for (uint32_t i = 0; i < co->noperands; i++) {
		uint32_t x = co->operands[i];
		if (em && c >= stop)
			return c;
		if (x == SLI_COST_NO_TENSOR)
			continue;
		if (co->ropt && co->ropt[i]) {
			/* s plays no part: one price */
			uint32_t k = em ? sli_cost_memo(&em->seen[i], &none,
			                                (uint32_t)em->cost[i].n) : 0;
			if (em && k < em->cost[i].n) {
				c += em->cost[i].v[k];
				continue;
			}
			double r = sli_cost_op_require(cm, o, i, &q[x], NULL, t);
			if (em)
				SL_VEC_PUSH(em->cost[i], r);
			c += r;
			continue;
		}
		sli_cost_asg r;
		sli_cost_op_project(cm, o, false, i, s, &r);
		c += em ? memo_reshard(cm, em, i, false, x, q, &r)
		        : sli_cost_reshard(cm, &q[x], sli_cost_tensor_bytes(cm, x, &q[x]),
		                           &r, t);
	}
	for (uint32_t i = 0; i < co->nresults; i++) {
		uint32_t x = co->results[i];
		if (em && c >= stop)
			return c;
		if (x == SLI_COST_NO_TENSOR)
			continue;
		sli_cost_asg r;
		sli_cost_op_project(cm, o, true, i, s, &r);
		c += em ? memo_reshard(cm, em, co->noperands + i, true, x, q, &r)
		        : sli_cost_reshard(cm, &r, sli_cost_tensor_bytes(cm, x, &r),
		                           &q[x], t);
	}
	return c;
}

/*
 * Op o's least local cost given q, with its compute part and the
 * assignment that makes it; false when the op has none.
 */
static bool
op_best(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *q,
        double *cost, double *compute, sli_cost_asg *chosen)
{
	sli_cost_asg *opts;
	size_t n = sli_cost_op_options(cm, o, &opts);
	double best = INFINITY, bestcomp = 0;
	size_t bi = 0;
	edge_memo em;
	memo_init(&em, &cm->ops.v[o]);
	for (size_t k = 0; k < n; k++) {
		/*
		 * an assignment that reaches what it must beat is not taken,
		 * whatever its edges left add (stop: NaN for the first, which
		 * is always taken, and where reshards may cost < 0)
		 */
		double beat = best - 1e-12 * fabs(best);
		double stop = k > 0 && cm->reshards_nonnegative ? beat : NAN;
		double comp;
		double c = op_local(cm, o, &opts[k], q, &comp, NULL, &em, stop);
		if (k == 0 || c < beat) {
			best = c;
			bestcomp = comp;
			bi = k;
		}
	}
	memo_fini(&em);
	if (n) {
		*cost = best;
		*compute = bestcomp;
		*chosen = opts[bi];
	}
	free(opts);
	return n > 0;
}

int
sli_cost_eval_asg(const sli_cost_model *cm, const sli_cost_asg *q,
                  sli_cost_parts *out, sli_cost_asg *chosen)
{
	memset(out, 0, sizeof *out);
	out->peak_bytes = sli_cost_peak_bytes(cm, q, NULL);
	out->budget = cm->budget;
	int rc = 0;
	for (size_t o = 0; o < cm->ops.n; o++) {
		double best, comp;
		sli_cost_asg s;
		if (!op_best(cm, (uint32_t)o, q, &best, &comp, &s)) {
			rc = -1;
			continue;
		}
		out->compute += comp;
		out->communication += best - comp;
		op_local(cm, (uint32_t)o, &s, q, NULL, out, NULL, NAN);	/* tally */
		if (chosen)
			chosen[o] = s;
	}
	out->total = out->communication + out->compute;
	return rc;
}

/* {====================================================================
 * Ties broken as the export runs them (sli_cost_tidy)
 * ===================================================================== */

/*
 * The edge of op o (assignment s) to its operand or result i, tensor x:
 * the projection of s on it into r, and what its reshard does.
 * EDGE_REORDERS: it keeps an axis behind other axes than before
 * (sli_cost_reorders).  EDGE_RESHARDS: an operand resharded on its way
 * in (r differs from its sharding).  The export picks the op's
 * assignment from the shardings it sees, and where an operand already
 * has the one the model's cheapest assignment wants, it picks that one;
 * otherwise it may pick another (a dot whose operand is sharded on the
 * contracting dimension is all-reduced rather than the operand moved by
 * an all-to-all, at twice the model's price).
 */
enum { EDGE_REORDERS = 1, EDGE_RESHARDS = 2 };

static unsigned
edge_of(const sli_cost_model *cm, uint32_t o, bool result, uint32_t i,
        const sli_cost_asg *s, const sli_cost_asg *q, sli_cost_asg *r)
{
	const sli_cost_op *co = &cm->ops.v[o];
	uint32_t x = result ? co->results[i] : co->operands[i];
	if (x == SLI_COST_NO_TENSOR || (!result && co->ropt && co->ropt[i]))
		return 0;
	sli_cost_op_project(cm, o, result, i, s, r);
	if (result)
		return sli_cost_reorders(cm, r, &q[x]) ? EDGE_REORDERS : 0;
	return (sli_cost_reorders(cm, &q[x], r) ? EDGE_REORDERS : 0) |
	       (memcmp(r, &q[x], sizeof *r) ? EDGE_RESHARDS : 0);
}

/* Per tensor, the ops next to it (its definition and uses), in op order. */
typedef struct near_ops {
	uint32_t *first;	/* tensor t's ops: op[first[t] .. first[t + 1]) */
	uint32_t *op;
} near_ops;

/* Calls f(o, t, ud) once for each op o and each distinct tensor t it touches. */
static void
each_touch(const sli_cost_model *cm, void (*f)(uint32_t, uint32_t, void *), void *ud)
{
	for (uint32_t o = 0; o < cm->ops.n; o++) {
		const sli_cost_op *co = &cm->ops.v[o];
		uint32_t ne = co->noperands + co->nresults;
		for (uint32_t e = 0; e < ne; e++) {
			uint32_t t = e < co->noperands ? co->operands[e]
			                               : co->results[e - co->noperands];
			bool seen = t == SLI_COST_NO_TENSOR;
			for (uint32_t e2 = 0; e2 < e && !seen; e2++)
				seen = (e2 < co->noperands ? co->operands[e2]
				                           : co->results[e2 - co->noperands]) == t;
			if (!seen)
				f(o, t, ud);
		}
	}
}

static void
count_touch(uint32_t o, uint32_t t, void *ud)
{
	(void)o;
	((near_ops *)ud)->first[t + 2]++;
}

static void
place_touch(uint32_t o, uint32_t t, void *ud)
{
	near_ops *n = ud;
	n->op[n->first[t + 1]++] = o;
}

static void
near_ops_init(near_ops *n, const sli_cost_model *cm)
{
	size_t nt = cm->tensors.n;
	n->first = sli_xcalloc(nt + 2, sizeof *n->first);
	each_touch(cm, count_touch, n);
	for (size_t t = 0; t < nt; t++)
		n->first[t + 2] += n->first[t + 1];
	n->op = sli_xmalloc((n->first[nt + 1] + 1) * sizeof *n->op);
	each_touch(cm, place_touch, n);
}

/*
 * The model's price of the ops next to tensor t given q, and into *n how
 * many of their edges on t reorder axes; INFINITY when one of them has
 * no assignment.
 */
static double
near_price(const sli_cost_model *cm, const near_ops *near, uint32_t t,
           const sli_cost_asg *q, uint32_t *n, uint32_t *m)
{
	double c = 0;
	*n = *m = 0;
	for (uint32_t k = near->first[t]; k < near->first[t + 1]; k++) {
		uint32_t o = near->op[k];
		const sli_cost_op *co = &cm->ops.v[o];
		double oc, comp;
		sli_cost_asg s, r;
		if (!op_best(cm, o, q, &oc, &comp, &s))
			return INFINITY;
		c += oc;
		for (uint32_t e = 0; e < co->noperands + co->nresults; e++) {
			bool res = e >= co->noperands;
			uint32_t i = res ? e - co->noperands : e;
			if ((res ? co->results[i] : co->operands[i]) != t)
				continue;
			unsigned f = edge_of(cm, o, res, i, &s, q, &r);
			*n += (f & EDGE_REORDERS) != 0;
			*m += (f & EDGE_RESHARDS) != 0;
		}
	}
	return c;
}

/*
 * Moves tensor t to sharding want, when that is one of its options,
 * costs the model no more, keeps within the budget and reorders fewer
 * axes on t's edges.  Wide (the second tidy, sli_cost_tidy): to the
 * option of t nearest want (want itself, or else the one with the most
 * of want's axes on want's dims and no others); and, reordering as
 * many, when it leaves fewer of t's uses resharding it (EDGE_RESHARDS);
 * or, as many again, holds fewer bytes per device (an argument an add
 * takes sharded: the all-slice is free either way, the memory is not).
 */
static void
try_move(const sli_cost_model *cm, const near_ops *near, sli_cost_asg *q,
         uint32_t t, const sli_cost_asg *want, bool wide)
{
	sli_cost_asg *opts, to;
	size_t n = sli_cost_tensor_options(cm, t, &opts);
	int most = -1;
	for (size_t k = 0; k < n; k++) {
		int axes = 0;
		bool sub = true;
		if (!wide && memcmp(&opts[k], want, sizeof *want))
			continue;
		for (uint32_t a = 0; a < cm->naxes && sub; a++) {
			sub = opts[k].a[a] < 0 || opts[k].a[a] == want->a[a];
			axes += opts[k].a[a] >= 0;
		}
		if (sub && axes > most) {
			most = axes;
			to = opts[k];
		}
	}
	free(opts);
	if (most < 0 || !memcmp(&to, &q[t], sizeof to))
		return;
	uint32_t n0, n1, m0, m1;
	sli_cost_asg old = q[t];
	double before = near_price(cm, near, t, q, &n0, &m0);
	double b0 = sli_cost_tensor_bytes(cm, t, &old);
	q[t] = to;
	double after = near_price(cm, near, t, q, &n1, &m1);
	double b1 = sli_cost_tensor_bytes(cm, t, &to);
	bool fewer = n1 < n0 ||
	             (wide && n1 == n0 && (m1 < m0 || (m1 == m0 && b1 < b0)));
	bool ok = after <= before + 1e-9 * fmax(1, fabs(before)) && fewer &&
	          (cm->budget <= 0 || sli_cost_peak_bytes(cm, q, NULL) <= cm->budget);
	if (!ok)
		q[t] = old;
}

void
sli_cost_tidy(const sli_cost_model *cm, sli_cost_asg *q, bool wide)
{
	bool *tied = sli_xcalloc(cm->tensors.n + 1, 1);
	for (size_t k = 0; k < cm->ties.n; k++)
		tied[cm->ties.v[k].a] = tied[cm->ties.v[k].b] = true;
	near_ops near;
	near_ops_init(&near, cm);
	for (uint32_t o = 0; o < cm->ops.n; o++) {
		const sli_cost_op *co = &cm->ops.v[o];
		double c, comp;
		sli_cost_asg s, r;
		if (!op_best(cm, o, q, &c, &comp, &s))
			continue;
		for (uint32_t e = 0; e < co->noperands + co->nresults; e++) {
			bool res = e >= co->noperands;
			uint32_t i = res ? e - co->noperands : e;
			uint32_t x = res ? co->results[i] : co->operands[i];
			if (x == SLI_COST_NO_TENSOR || tied[x] || cm->tensors.v[x].fixed)
				continue;
			unsigned f = edge_of(cm, o, res, i, &s, q, &r);
			if ((f & EDGE_REORDERS) || (wide && (f & EDGE_RESHARDS)))
				try_move(cm, &near, q, x, &r, wide);
		}
	}
	free(near.first);
	free(near.op);
	free(tied);
}

/* }==================================================================== */

/* sli_cost_eval and sli_cost_eval_model: with or without the export. */
static int
eval_module(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
            sli_buf *why, bool emitted)
{
	sli_cost_model cm;
	if (sli_cost_model_build(m, p, &cm))
		return -1;
	sli_cost_asg *q = sli_xcalloc(cm.tensors.n + 1, sizeof *q);
	int rc = sli_cost_read(&cm, q, why);
	/* the export's compute and collectives, one walk of the program;
	 * where it fails on m, the model's price stands in */
	if (!rc && emitted) {
		memset(out, 0, sizeof *out);
		out->peak_bytes = sli_cost_peak_bytes(&cm, q, NULL);
		out->budget = cm.budget;
		emitted = sli_cost_emitted(m, &cm, out) == 0;
	}
	if (!rc && !emitted && sli_cost_eval_asg(&cm, q, out, NULL)) {
		if (why)
			sli_buf_puts(why, "an op has no valid factor assignment");
		rc = -1;
	}
	out->total = out->compute + out->communication;
	free(q);
	sli_cost_model_fini(&cm);
	return rc;
}

int
sli_cost_eval(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
              sli_buf *why)
{
	return eval_module(m, p, out, why, true);
}

int
sli_cost_eval_model(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
                    sli_buf *why)
{
	return eval_module(m, p, out, why, false);
}

/*
 * primitives.c - the prices of shardlp-cost(7), "The cost of a sharding":
 * per-device bytes, the alpha-beta price in seconds of each collective on
 * one axis (a ring on the axis's link), a reshard, the projection of an op's factor
 * assignment onto its operands and results, and the op's own compute and
 * all-reduce.  Where given a tally (sli_cost_parts), a price also counts
 * its collectives and the bytes each device sends.  The model's price
 * (eval.c) and the ILP's cost terms (terms.c) price with these alone, so
 * the two agree on every integral point.
 */
#include "cost/primitives.h"
#include "util/checked.h"

#include <math.h>
#include <string.h>

/* {====================================================================
 * Sizes
 * ===================================================================== */

/* Product of the sizes of the axes of q on dim d. */
int64_t
sli_cost_dim_shards(const sli_cost_model *cm, const sli_cost_asg *q, uint32_t d)
{
	int64_t n = 1;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (q->a[a] == (int8_t)d)
			n = sli_mul_i64_sat(n, cm->axis_size[a]);
	return n;
}

double
sli_cost_tensor_bytes(const sli_cost_model *cm, uint32_t t, const sli_cost_asg *q)
{
	const sli_cost_tensor *ct = &cm->tensors.v[t];
	double e = ct->elem_bytes;
	for (uint32_t d = 0; d < ct->rank; d++) {
		int64_t n = sli_cost_dim_shards(cm, q, d);
		e *= (double)(sli_add_i64_sat(ct->dims[d], n - 1) / n);
	}
	return e;
}

/* }==================================================================== */

/* {====================================================================
 * Collectives on one axis, and a reshard made of them
 * ===================================================================== */

/*
 * The alpha-beta price of a ring collective on axis a (n devices): n - 1
 * steps, each paying the link's latency and sending `step` bytes.
 */
static double
ring(const sli_cost_model *cm, uint32_t a, double steps, double step)
{
	return steps * (cm->axis_lat[a] + step / cm->axis_bw[a]) * SLI_COST_UNIT;
}

static void
tally(sli_cost_parts *t, sli_cost_coll kind, double bytes)
{
	if (t) {
		t->ncoll[kind] += 1;
		t->coll_bytes[kind] += bytes;
	}
}

double
sli_cost_gather(const sli_cost_model *cm, uint32_t a, double bytes)
{
	double n = (double)cm->axis_size[a];
	return ring(cm, a, n - 1, bytes);
}

double
sli_cost_all_to_all(const sli_cost_model *cm, uint32_t a, double bytes)
{
	double n = (double)cm->axis_size[a];
	return ring(cm, a, n - 1, bytes / n);
}

double
sli_cost_all_reduce(const sli_cost_model *cm, uint32_t a, double bytes)
{
	double n = (double)cm->axis_size[a];
	return ring(cm, a, 2 * (n - 1), bytes / n);
}

double
sli_cost_reshard(const sli_cost_model *cm, const sli_cost_asg *from,
                 double bytes, const sli_cost_asg *to, sli_cost_parts *t)
{
	double c = 0;
	for (uint32_t a = 0; a < cm->naxes; a++) {
		if (from->a[a] < 0 || to->a[a] == from->a[a])
			continue;
		double n = (double)cm->axis_size[a];
		if (to->a[a] < 0) {
			c += sli_cost_gather(cm, a, bytes);
			tally(t, SLI_COLL_ALL_GATHER, (n - 1) * bytes);
		} else {
			c += sli_cost_all_to_all(cm, a, bytes);
			tally(t, SLI_COLL_ALL_TO_ALL, (n - 1) * bytes / n);
		}
	}
	return c;
}

/* The axes q puts before axis a on a's dim, as a mask of axis indices. */
static uint32_t
prefix(const sli_cost_asg *q, uint32_t a)
{
	uint32_t p = 0;
	for (uint32_t b = 0; b < a; b++)
		if (q->a[b] == q->a[a])
			p |= 1u << b;
	return p;
}

bool
sli_cost_reorders(const sli_cost_model *cm, const sli_cost_asg *from,
                  const sli_cost_asg *to)
{
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (from->a[a] >= 0 && to->a[a] == from->a[a] &&
		    prefix(from, a) != prefix(to, a))
			return true;
	return false;
}

/* }==================================================================== */

/* {====================================================================
 * Ops: projections of a factor assignment, compute and all-reduce
 * ===================================================================== */

/* Product of the sizes of the axes s puts on factor f. */
int64_t
sli_cost_factor_shards(const sli_cost_model *cm, const sli_cost_asg *s, uint32_t f)
{
	return sli_cost_dim_shards(cm, s, f);	/* the same count, over factors */
}

int
sli_cost_factor_dim(const sli_cost_model *cm, const sl_rule *r,
                    const sl_tensor_mapping *tm, const sli_cost_asg *s,
                    uint32_t f)
{
	for (uint32_t d = 0; d < tm->rank; d++) {
		const sl_dim_mapping *dm = &tm->dims[d];
		for (uint32_t k = 0; k < dm->n; k++) {
			if (dm->factors[k] != f)
				continue;
			for (uint32_t j = 0; j < k; j++) {
				uint32_t g = dm->factors[j];
				if (sli_cost_factor_shards(cm, s, g) != r->factor_sizes[g])
					return -1;
			}
			return (int)d;
		}
	}
	return -1;
}

const sl_tensor_mapping *
sli_cost_mapping_of(const sli_cost_op *co, bool result, uint32_t i)
{
	if (co->kind == SLI_COST_OPAQUE)
		return NULL;
	if (result)
		return i < co->rule.nresults ? &co->rule.results[i] : NULL;
	return i < co->rule.noperands ? &co->rule.operands[i] : NULL;
}

void
sli_cost_op_project(const sli_cost_model *cm, uint32_t o, bool result,
                    uint32_t i, const sli_cost_asg *s, sli_cost_asg *out)
{
	const sli_cost_op *co = &cm->ops.v[o];

	memset(out->a, SLI_COST_NONE, sizeof out->a);
	if (!result && co->req) {
		*out = co->req[i];
		return;
	}
	const sl_tensor_mapping *tm = sli_cost_mapping_of(co, result, i);
	if (!tm)
		return;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (s->a[a] >= 0)
			out->a[a] = (int8_t)sli_cost_factor_dim(cm, &co->rule, tm, s,
			                                        (uint32_t)s->a[a]);
	for (uint32_t a = 0; !result && co->extra && a < cm->naxes; a++)
		if (co->extra->a[a] >= 0)
			out->a[a] = co->extra->a[a];
}

/* Whether s puts axis a on a reduction factor of op co. */
static bool
reduces(const sli_cost_op *co, const sli_cost_asg *s, uint32_t a)
{
	return s->a[a] >= 0 &&
	       sli_rule_factor_kind(&co->rule, (uint32_t)s->a[a]) == SLI_FACTOR_REDUCTION;
}

double
sli_cost_op_self(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s,
                 double *compute, sli_cost_parts *t)
{
	const sli_cost_op *co = &cm->ops.v[o];
	double c = 0, flops = 0;

	if (co->kind != SLI_COST_OPAQUE && co->flop_weight > 0) {
		flops = co->flop_weight;
		for (uint32_t f = 0; f < co->rule.nfactors; f++) {
			int64_t n = sli_cost_factor_shards(cm, s, f);
			flops *= (double)(sli_add_i64_sat(co->rule.factor_sizes[f], n - 1) / n);
		}
	}
	double comp = flops > 0 ? flops / co->flop_rate * SLI_COST_UNIT : 0;
	if (compute)
		*compute = comp;
	c += comp;
	if (co->kind != SLI_COST_RULE)
		return c;
	/*
	 * Over several axes the export's all-reduce is a reduce-scatter and
	 * an all-gather axis after axis, each axis's ring on what the ones
	 * before it left: at least the result over all of them (N devices)
	 * per step, whatever the order, which is what is priced here; on
	 * one axis that is exact.
	 */
	double all = 1;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (reduces(co, s, a))
			all *= (double)cm->axis_size[a];
	for (uint32_t a = 0; a < cm->naxes; a++) {
		if (!reduces(co, s, a))
			continue;
		for (uint32_t i = 0; i < co->nresults; i++) {
			if (co->results[i] == SLI_COST_NO_TENSOR)
				continue;
			sli_cost_asg r;
			sli_cost_op_project(cm, o, true, i, s, &r);
			double b = sli_cost_tensor_bytes(cm, co->results[i], &r);
			double n = (double)cm->axis_size[a];
			c += sli_cost_all_reduce(cm, a, b * n / all);
			tally(t, SLI_COLL_ALL_REDUCE, 2 * (n - 1) * b / all);
		}
	}
	return c;
}

double
sli_cost_op_require(const sli_cost_model *cm, uint32_t o, uint32_t i,
                    const sli_cost_asg *q, sli_cost_asg *to, sli_cost_parts *t)
{
	const sli_cost_op *co = &cm->ops.v[o];
	double bytes = sli_cost_tensor_bytes(cm, co->operands[i], q);
	const sli_cost_asg *opt = &co->req[i];
	uint32_t n = 1;
	if (co->ropt && co->ropt[i]) {
		opt = co->ropt[i];
		n = co->nropt[i];
	}
	double best = INFINITY;
	uint32_t bi = 0;
	for (uint32_t k = 0; k < n; k++) {
		double c = sli_cost_reshard(cm, q, bytes, &opt[k], NULL);
		if (c < best)
			best = c, bi = k;
	}
	if (to)
		*to = opt[bi];
	if (t)
		sli_cost_reshard(cm, q, bytes, &opt[bi], t);
	return best;
}

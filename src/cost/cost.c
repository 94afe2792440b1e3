/*
 * cost.c - the cost model of a module and its one evaluator
 * (shardlp-cost(7)).  Invariant: every cost the ILP pays is a sum of the
 * pieces computed here (tensor memory, op compute and all-reduce, per-axis
 * reshards), so the evaluator and the ILP objective agree on every
 * integral assignment.
 */
#include "cost/cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/axis.h"

#define MB 1e6
#define MAX_RANK 16
#define NO_TENSOR UINT32_MAX

/* {====================================================================
 * Value -> tensor index (open addressing on the pointer)
 * ===================================================================== */

typedef struct vslot {
	const sl_value *v;
	uint32_t t;
} vslot;

typedef struct vmap {
	vslot *s;
	size_t cap, n;
} vmap;

static size_t
vhash(const sl_value *v, size_t cap)
{
	uintptr_t x = (uintptr_t)v;
	x ^= x >> 17;
	x *= 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 7) & (cap - 1);
}

static void
vmap_put(vmap *m, const sl_value *v, uint32_t t)
{
	if (2 * (m->n + 1) > m->cap) {
		vmap old = *m;
		m->cap = old.cap ? 2 * old.cap : 64;
		m->s = sli_xcalloc(m->cap, sizeof *m->s);
		m->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.s[i].v)
				vmap_put(m, old.s[i].v, old.s[i].t);
		free(old.s);
	}
	size_t i = vhash(v, m->cap);
	while (m->s[i].v && m->s[i].v != v)
		i = (i + 1) & (m->cap - 1);
	if (!m->s[i].v)
		m->n++;
	m->s[i].v = v;
	m->s[i].t = t;
}

uint32_t
sli_cost_tensor_of(const sli_cost_model *cm, const sl_value *v)
{
	const vmap *m = cm->vmap;
	if (!m || !m->cap)
		return NO_TENSOR;
	size_t i = vhash(v, m->cap);
	while (m->s[i].v) {
		if (m->s[i].v == v)
			return m->s[i].t;
		i = (i + 1) & (m->cap - 1);
	}
	return NO_TENSOR;
}

/* }==================================================================== */

void
sli_cost_params_init(sli_cost_params *p)
{
	memset(p, 0, sizeof *p);
	p->memory_weight = 0.1;
	p->comm_weight = 1.0;
	p->compute_weight = 1.0 / 64;
}

/* {====================================================================
 * Shardings as written in the module
 * ===================================================================== */

/* An sdy collective (all_gather, all_slice, ...): its result sharding is
 * its out_sharding. */
static bool
collective(const sl_op *op)
{
	return sli_op_info[op->kind].format == SL_FMT_SDY_COLLECTIVE;
}

static const sl_sharding *
as_sharding(const sl_attr *a)
{
	return a && a->kind == SL_ATTR_SHARDING ? &a->u.sharding : NULL;
}

static const sl_sharding *
spv_at(const sl_attr *a, uint32_t i)
{
	if (!a)
		return NULL;
	if (a->kind == SL_ATTR_SHARDING_PER_VALUE)
		return i < a->u.spv.n ? a->u.spv.v[i] : NULL;
	return i == 0 ? as_sharding(a) : NULL;
}

static sl_op *
arg_owner(const sl_value *v)
{
	if (v->def || !v->block || !v->block->parent)
		return NULL;
	return v->block->parent->parent;
}

const sl_sharding *
sli_cost_value_sharding(const sl_value *v)
{
	const sl_op *owner = !v->def && v->block && v->block->parent
	                     ? v->block->parent->parent : NULL;
	if (owner && owner->kind == SL_OP_SDY_MANUAL_COMPUTATION)
		return NULL;
	return sli_value_sharding(v);
}

/* The model axes that are mesh axis `name` or pieces of it (a mask). */
static uint32_t
axis_mask(const sli_cost_model *cm, sl_sym name)
{
	uint32_t m = 0;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (cm->axis_name[a] == name)
			m |= 1u << a;
	return m;
}

/*
 * The model axes that make up axis ref r, in *m: 1 when they cover it
 * exactly, 0 when r is a sub-axis the model's pieces do not add up to
 * (*m is then its whole axis), -1 when r is not an axis of the mesh.
 */
static int
ref_mask(const sli_cost_model *cm, const sl_axis_ref *r, uint32_t *m)
{
	uint32_t whole = axis_mask(cm, r->name);
	*m = whole;
	if (!whole)
		return -1;
	if (!r->sub)
		return 1;
	uint32_t part = 0;
	int64_t size = 1;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if ((whole >> a & 1) && cm->axis_pre[a] >= r->pre &&
		    cm->axis_pre[a] * cm->axis_size[a] <= r->pre * r->size) {
			part |= 1u << a;
			size *= cm->axis_size[a];
		}
	if (!part || size != r->size)
		return 0;
	/* consecutive pieces from r's pre-size whose sizes multiply to r's */
	uint32_t first = 0;
	while (!(part >> first & 1))
		first++;
	if (cm->axis_pre[first] != r->pre)
		return 0;
	*m = part;
	return 1;
}

sl_axis_ref
sli_cost_axis_ref(const sli_cost_model *cm, uint32_t a)
{
	if (cm->axis_pre[a] == 1 && cm->axis_size[a] == cm->axis_whole[a])
		return sli_axis_full(cm->axis_name[a]);
	return sli_axis_sub(cm->axis_name[a], cm->axis_pre[a], cm->axis_size[a]);
}

/* The mesh declared as @name at the top of the module, or NULL. */
static const sl_mesh *
mesh_named(const sli_cost_model *cm, sl_sym name)
{
	const sl_op *top = cm->m->top;
	const sl_block *body = top && top->nregions ? top->regions[0].first : NULL;
	for (const sl_op *op = body ? body->first : NULL; op; op = op->next) {
		if (op->kind != SL_OP_SDY_MESH || sli_op_sym_name(cm->m, op) != name)
			continue;
		sl_attr *a = sli_op_get(op, SLS_mesh);
		return a && a->kind == SL_ATTR_MESH ? &a->u.mesh : NULL;
	}
	return NULL;
}

/*
 * What from_sharding made of a sharding: the model holds it exactly (any
 * axis order; an empty mesh, which Shardy replaces by the mesh it meets,
 * counts as the model's), holds its full axes but not its sub-axes (those
 * its pieces do not add up to, or all without --sub-axes), or cannot hold
 * it (another mesh, a rank mismatch, an unknown axis).
 */
enum { SH_EXACT, SH_SUBAXES, SH_OTHER };

/*
 * Converts a sharding into per-axis form (q) and per-dim axis lists in the
 * user's order (pin, or NULL).  With SH_SUBAXES, q and pin hold what the
 * model can and the axes of the sub-axes it cannot are kept off the tensor
 * (pin->replicated); with SH_OTHER, q is replicated and pin->any false.
 */
static int
from_sharding(const sli_cost_model *cm, const sl_sharding *s, uint32_t rank,
              sli_cost_asg *q, sli_cost_pin *pin)
{
	sli_cost_pin tmp;
	int kind = SH_EXACT;
	uint32_t used = 0, m;
	if (!pin)
		pin = &tmp;
	memset(q->a, SLI_COST_NONE, sizeof q->a);
	memset(pin, 0, sizeof *pin);
	memset(pin->axes, -1, sizeof pin->axes);
	if (s->rank != rank || rank > MAX_RANK)
		return SH_OTHER;
	if (s->mesh || s->mesh_name != cm->mesh_name) {
		const sl_mesh *mesh = s->mesh ? s->mesh : mesh_named(cm, s->mesh_name);
		if (!mesh || !sli_mesh_is_empty(mesh))
			return SH_OTHER;
	}
	pin->any = true;
	pin->loc = s->loc;
	for (uint32_t d = 0; d < rank; d++) {
		const sl_dim_sharding *ds = &s->dims[d];
		uint32_t n = 0;
		pin->closed[d] = !ds->open;
		for (uint32_t k = 0; k < ds->axes.n; k++) {
			int exact = ref_mask(cm, &ds->axes.v[k], &m);
			if (exact < 0 || (m & used))
				goto other;
			if (!exact) {
				kind = SH_SUBAXES;
				pin->replicated |= m;
				continue;
			}
			used |= m;
			for (uint32_t a = 0; a < cm->naxes; a++)
				if (m >> a & 1) {
					q->a[a] = (int8_t)d;
					pin->axes[d][n++] = (int8_t)a;
				}
		}
	}
	for (uint32_t k = 0; k < s->replicated.n; k++) {
		int exact = ref_mask(cm, &s->replicated.v[k], &m);
		if (exact < 0)
			goto other;
		if (!exact)
			kind = SH_SUBAXES;
		pin->replicated |= m;
	}
	/* an axis beside a sub-axis of itself the model cannot hold */
	if (used & pin->replicated)
		goto other;
	/* unreduced axes may not shard the tensor either (a whole axis is
	 * kept off when the pieces do not add up to its unreduced sub-axis) */
	for (uint32_t k = 0; k < s->unreduced.n; k++)
		if (ref_mask(cm, &s->unreduced.v[k], &m) >= 0)
			pin->replicated |= m;
	return kind;
other:
	memset(q->a, SLI_COST_NONE, sizeof q->a);
	memset(pin, 0, sizeof *pin);
	memset(pin->axes, -1, sizeof pin->axes);
	return SH_OTHER;
}

/*
 * A block argument that carries no sharding of its own (while and case
 * bodies, manual computations) has the sharding of its data-flow owner.
 */
static bool
derived(const sli_cost_model *cm, uint32_t t)
{
	const sl_value *v = cm->tensors.v[t].v;
	sl_op *owner = arg_owner(v);
	return owner && owner->kind != SL_OP_FUNC && !sli_cost_value_sharding(v);
}

int
sli_cost_read(const sli_cost_model *cm, sli_cost_asg *q, sli_buf *why)
{
	(void)why;
	for (size_t t = 0; t < cm->tensors.n; t++) {
		const sli_cost_tensor *ct = &cm->tensors.v[t];
		const sl_sharding *s = sli_cost_value_sharding(ct->v);
		if (!s && ct->fixed) {
			q[t] = *ct->fixed;
			continue;
		}
		if (!s) {
			memset(q[t].a, SLI_COST_NONE, sizeof q[t].a);
			continue;
		}
		from_sharding(cm, s, ct->rank, &q[t], NULL);
	}
	for (int pass = 0; pass < 4; pass++)
		for (size_t i = 0; i < cm->ties.n; i++) {
			uint32_t a = cm->ties.v[i].a, b = cm->ties.v[i].b;
			if (derived(cm, a) && !derived(cm, b))
				q[a] = q[b];
			else if (derived(cm, b) && !derived(cm, a))
				q[b] = q[a];
		}
	return 0;
}

/* }==================================================================== */

/* {====================================================================
 * Pieces of the cost
 * ===================================================================== */

/* Product of the sizes of the axes of q on dim d. */
static int64_t
dim_shards(const sli_cost_model *cm, const sli_cost_asg *q, uint32_t d)
{
	int64_t n = 1;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (q->a[a] == (int8_t)d)
			n *= cm->axis_size[a];
	return n;
}

double
sli_cost_tensor_bytes(const sli_cost_model *cm, uint32_t t, const sli_cost_asg *q)
{
	const sli_cost_tensor *ct = &cm->tensors.v[t];
	double e = ct->elem_bytes;
	for (uint32_t d = 0; d < ct->rank; d++) {
		int64_t n = dim_shards(cm, q, d);
		e *= (double)((ct->dims[d] + n - 1) / n);
	}
	return e;
}

double
sli_cost_memory(const sli_cost_model *cm, double bytes)
{
	return cm->params.memory_weight * bytes / MB;
}

double
sli_cost_gather(const sli_cost_model *cm, uint32_t a, double bytes)
{
	double n = (double)cm->axis_size[a];
	return cm->params.comm_weight *
	       (bytes / MB * (n - 1) / cm->axis_bw[a] + cm->axis_lat[a]);
}

double
sli_cost_all_to_all(const sli_cost_model *cm, uint32_t a, double bytes)
{
	double n = (double)cm->axis_size[a];
	return cm->params.comm_weight *
	       (bytes / MB * (n - 1) / n / cm->axis_bw[a] + cm->axis_lat[a]);
}

double
sli_cost_all_reduce(const sli_cost_model *cm, uint32_t a, double bytes)
{
	double n = (double)cm->axis_size[a];
	return cm->params.comm_weight *
	       (2 * bytes / MB * (n - 1) / n / cm->axis_bw[a] + cm->axis_lat[a]);
}

double
sli_cost_reshard(const sli_cost_model *cm, const sli_cost_asg *from,
                 double bytes, const sli_cost_asg *to)
{
	double c = 0;
	for (uint32_t a = 0; a < cm->naxes; a++) {
		if (from->a[a] < 0 || to->a[a] == from->a[a])
			continue;
		c += to->a[a] < 0 ? sli_cost_gather(cm, a, bytes)
		                  : sli_cost_all_to_all(cm, a, bytes);
	}
	return c;
}

uint32_t
sli_cost_dim_axes(const sli_cost_model *cm, const int8_t *major,
                  const sli_cost_asg *q, uint32_t d, int8_t *out)
{
	uint32_t n = 0, seen = 0;
	for (uint32_t k = 0; major && k < SLI_COST_MAX_AXES && major[k] >= 0; k++)
		if (q->a[major[k]] == (int8_t)d) {
			out[n++] = major[k];
			seen |= 1u << major[k];
		}
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (q->a[a] == (int8_t)d && !(seen >> a & 1))
			out[n++] = (int8_t)a;
	return n;
}

/*
 * Whether q is a valid sharding of ct that honours pin, its axes written
 * in the order major gives (per dim).
 */
static bool
allows(const sli_cost_model *cm, const sli_cost_tensor *ct,
       const sli_cost_pin *pin, const int8_t (*major)[SLI_COST_MAX_AXES],
       const sli_cost_asg *q)
{
	if (ct->fixed)
		return !memcmp(ct->fixed->a, q->a, cm->naxes);
	for (uint32_t a = 0; a < cm->naxes; a++) {
		if (q->a[a] < 0)
			continue;
		if ((uint32_t)q->a[a] >= ct->rank || (ct->forbidden >> a & 1) ||
		    (pin->replicated >> a & 1))
			return false;
	}
	for (uint32_t d = 0; d < ct->rank; d++) {
		int64_t n = dim_shards(cm, q, d);
		if (n > 1 && (cm->params.conservative ? ct->dims[d] % n != 0
		                                      : n > ct->dims[d]))
			return false;
		if (!pin->any)
			continue;
		/* the axes on d as written start with the user's (are all of
		 * them when closed) */
		int8_t w[SLI_COST_MAX_AXES];
		uint32_t nw = sli_cost_dim_axes(cm, major[d], q, d, w), k;
		for (k = 0; k < SLI_COST_MAX_AXES && pin->axes[d][k] >= 0; k++)
			if (k >= nw || w[k] != pin->axes[d][k])
				return false;
		if (pin->closed[d] && nw != k)
			return false;
	}
	return true;
}

bool
sli_cost_tensor_allows(const sli_cost_model *cm, uint32_t t, const sli_cost_asg *q)
{
	const sli_cost_tensor *ct = &cm->tensors.v[t];
	return allows(cm, ct, &ct->pin, ct->major, q);
}

/* Product of the sizes of the axes s puts on factor f. */
static int64_t
factor_shards(const sli_cost_model *cm, const sli_cost_asg *s, uint32_t f)
{
	int64_t n = 1;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (s->a[a] == (int8_t)f)
			n *= cm->axis_size[a];
	return n;
}

/*
 * Where factor f lands in a tensor mapping under s: its dim, or -1 when
 * the tensor lacks it or cannot express it (an earlier factor of the same
 * dim is not fully sharded).
 */
static int
factor_dim(const sli_cost_model *cm, const sl_rule *r, const sl_tensor_mapping *tm,
           const sli_cost_asg *s, uint32_t f)
{
	for (uint32_t d = 0; d < tm->rank; d++) {
		const sl_dim_mapping *dm = &tm->dims[d];
		for (uint32_t k = 0; k < dm->n; k++) {
			if (dm->factors[k] != f)
				continue;
			for (uint32_t j = 0; j < k; j++) {
				uint32_t g = dm->factors[j];
				if (factor_shards(cm, s, g) != r->factor_sizes[g])
					return -1;
			}
			return (int)d;
		}
	}
	return -1;
}

static const sl_tensor_mapping *
mapping_of(const sli_cost_op *co, bool result, uint32_t i)
{
	if (co->kind == SLI_COST_OPAQUE)
		return NULL;
	if (result)
		return i < co->rule.nresults ? &co->rule.results[i] : NULL;
	return i < co->rule.noperands ? &co->rule.operands[i] : NULL;
}

bool
sli_cost_op_allows(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s)
{
	const sli_cost_op *co = &cm->ops.v[o];
	const sl_rule *r = &co->rule;
	uint32_t nf = co->kind == SLI_COST_OPAQUE ? 0 : r->nfactors;

	for (uint32_t a = 0; a < cm->naxes; a++) {
		int f = s->a[a];
		if (f < 0)
			continue;
		if ((uint32_t)f >= nf || (co->forbidden >> a & 1))
			return false;
		sli_factor_kind k = sli_rule_factor_kind(r, (uint32_t)f);
		if (k == SLI_FACTOR_NEED_REPLICATION || k == SLI_FACTOR_PERMUTATION ||
		    sli_rule_factor_blocked(r, (uint32_t)f))
			return false;
	}
	for (uint32_t f = 0; f < nf; f++) {
		int64_t n = factor_shards(cm, s, f);
		if (n > 1 && (cm->params.conservative ? r->factor_sizes[f] % n != 0
		                                      : n > r->factor_sizes[f]))
			return false;
	}
	/* every sharded factor a result has must be expressible there */
	for (uint32_t i = 0; i < co->nresults; i++) {
		const sl_tensor_mapping *tm = mapping_of(co, true, i);
		if (!tm)
			continue;
		for (uint32_t a = 0; a < cm->naxes; a++) {
			if (s->a[a] < 0)
				continue;
			uint32_t f = (uint32_t)s->a[a];
			bool has = false;
			for (uint32_t d = 0; d < tm->rank && !has; d++)
				for (uint32_t k = 0; k < tm->dims[d].n; k++)
					if (tm->dims[d].factors[k] == f)
						has = true;
			if (has && factor_dim(cm, r, tm, s, f) < 0)
				return false;
		}
	}
	return true;
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
	const sl_tensor_mapping *tm = mapping_of(co, result, i);
	if (!tm)
		return;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (s->a[a] >= 0)
			out->a[a] = (int8_t)factor_dim(cm, &co->rule, tm, s,
			                               (uint32_t)s->a[a]);
}

double
sli_cost_op_self(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s,
                 double *compute)
{
	const sli_cost_op *co = &cm->ops.v[o];
	double c = 0, flops = 0;

	if (co->kind != SLI_COST_OPAQUE && co->flop_weight > 0) {
		flops = co->flop_weight;
		for (uint32_t f = 0; f < co->rule.nfactors; f++) {
			int64_t n = factor_shards(cm, s, f);
			flops *= (double)((co->rule.factor_sizes[f] + n - 1) / n);
		}
	}
	double comp = cm->params.compute_weight * flops / MB;
	if (compute)
		*compute = comp;
	c += comp;
	if (co->kind != SLI_COST_RULE)
		return c;
	for (uint32_t a = 0; a < cm->naxes; a++) {
		if (s->a[a] < 0 ||
		    sli_rule_factor_kind(&co->rule, (uint32_t)s->a[a]) != SLI_FACTOR_REDUCTION)
			continue;
		for (uint32_t i = 0; i < co->nresults; i++) {
			if (co->results[i] == NO_TENSOR)
				continue;
			sli_cost_asg r;
			sli_cost_op_project(cm, o, true, i, s, &r);
			c += sli_cost_all_reduce(cm, a,
			        sli_cost_tensor_bytes(cm, co->results[i], &r));
		}
	}
	return c;
}

/* Calls fn for every assignment of naxes axes to {-1, 0..n-1}. */
static size_t
enumerate(uint32_t naxes, uint32_t n, bool (*ok)(const sli_cost_model *, uint32_t,
          const sli_cost_asg *), const sli_cost_model *cm, uint32_t idx,
          sli_cost_asg **out)
{
	SL_VEC(sli_cost_asg) v = {0};
	sli_cost_asg q;
	memset(q.a, SLI_COST_NONE, sizeof q.a);
	for (;;) {
		if (ok(cm, idx, &q))
			SL_VEC_PUSH(v, q);
		uint32_t a = 0;
		while (a < naxes) {
			if (q.a[a] + 1 < (int)n) {
				q.a[a]++;
				break;
			}
			q.a[a] = SLI_COST_NONE;
			a++;
		}
		if (a == naxes)
			break;
	}
	*out = v.v;
	return v.n;
}

size_t
sli_cost_tensor_options(const sli_cost_model *cm, uint32_t t, sli_cost_asg **out)
{
	return enumerate(cm->naxes, cm->tensors.v[t].rank, sli_cost_tensor_allows,
	                 cm, t, out);
}

size_t
sli_cost_op_options(const sli_cost_model *cm, uint32_t o, sli_cost_asg **out)
{
	const sli_cost_op *co = &cm->ops.v[o];
	uint32_t nf = co->kind == SLI_COST_OPAQUE ? 0 : co->rule.nfactors;
	return enumerate(cm->naxes, nf, sli_cost_op_allows, cm, o, out);
}

double
sli_cost_op_require(const sli_cost_model *cm, uint32_t o, uint32_t i,
                    const sli_cost_asg *q, sli_cost_asg *to)
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
		double c = sli_cost_reshard(cm, q, bytes, &opt[k]);
		if (c < best)
			best = c, bi = k;
	}
	if (to)
		*to = opt[bi];
	return best;
}

/* The local cost of op o under s given the tensor shardings q. */
static double
op_local(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s,
         const sli_cost_asg *q, double *compute)
{
	const sli_cost_op *co = &cm->ops.v[o];
	double c = sli_cost_op_self(cm, o, s, compute);

	for (uint32_t i = 0; i < co->noperands; i++) {
		uint32_t t = co->operands[i];
		if (t == NO_TENSOR)
			continue;
		if (co->ropt && co->ropt[i]) {
			c += sli_cost_op_require(cm, o, i, &q[t], NULL);
			continue;
		}
		sli_cost_asg r;
		sli_cost_op_project(cm, o, false, i, s, &r);
		c += sli_cost_reshard(cm, &q[t], sli_cost_tensor_bytes(cm, t, &q[t]), &r);
	}
	for (uint32_t i = 0; i < co->nresults; i++) {
		uint32_t t = co->results[i];
		if (t == NO_TENSOR)
			continue;
		sli_cost_asg r;
		sli_cost_op_project(cm, o, true, i, s, &r);
		c += sli_cost_reshard(cm, &r, sli_cost_tensor_bytes(cm, t, &r), &q[t]);
	}
	return c;
}

int
sli_cost_eval_asg(const sli_cost_model *cm, const sli_cost_asg *q,
                  sli_cost_parts *out, sli_cost_asg *chosen)
{
	memset(out, 0, sizeof *out);
	for (size_t t = 0; t < cm->tensors.n; t++) {
		double b = sli_cost_tensor_bytes(cm, (uint32_t)t, &q[t]);
		out->bytes += b;
		out->memory += sli_cost_memory(cm, b);
	}
	int rc = 0;
	for (size_t o = 0; o < cm->ops.n; o++) {
		sli_cost_asg *opts;
		size_t n = sli_cost_op_options(cm, (uint32_t)o, &opts);
		double best = INFINITY, bestcomp = 0;
		size_t bi = 0;
		for (size_t k = 0; k < n; k++) {
			double comp;
			double c = op_local(cm, (uint32_t)o, &opts[k], q, &comp);
			if (k == 0 || c < best - 1e-12 * fabs(best)) {
				best = c;
				bestcomp = comp;
				bi = k;
			}
		}
		if (n == 0) {
			rc = -1;
		} else {
			out->compute += bestcomp;
			out->communication += best - bestcomp;
			if (chosen)
				chosen[o] = opts[bi];
		}
		free(opts);
	}
	out->total = out->memory + out->communication + out->compute;
	return rc;
}

int
sli_cost_eval(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
              sli_buf *why)
{
	sli_cost_model cm;
	if (sli_cost_model_build(m, p, &cm))
		return -1;
	sli_cost_asg *q = sli_xcalloc(cm.tensors.n + 1, sizeof *q);
	int rc = sli_cost_read(&cm, q, why);
	if (!rc && sli_cost_eval_asg(&cm, q, out, NULL)) {
		if (why)
			sli_buf_puts(why, "an op has no valid factor assignment");
		rc = -1;
	}
	free(q);
	sli_cost_model_fini(&cm);
	return rc;
}

/* }==================================================================== */

/* {====================================================================
 * Building the model
 * ===================================================================== */

typedef struct builder {
	sli_cost_model *cm;
	sl_context *ctx;
	int failed;
	SL_VEC(struct { int64_t id; uint32_t t; }) groups;
} builder;

/* Warns of a user sharding the model approximates (the solver's build). */
static void
report(builder *b, sl_loc loc, int kind)
{
	if (!b->cm->params.report)
		return;
	if (kind == SH_SUBAXES)
		sli_diag(b->ctx, SL_DIAG_WARNING, loc, "sharding outside the "
		         "optimisation model (sub-axes): kept as written, priced "
		         "without its sub-axes");
	else
		sli_diag(b->ctx, SL_DIAG_WARNING, loc, "sharding outside the "
		         "optimisation model (another mesh or rank): kept as "
		         "written, priced as replicated");
}

static uint32_t
add_tensor(builder *b, sl_value *v, uint32_t forbidden, bool pinnable)
{
	sli_cost_model *cm = b->cm;
	sl_type *ty = v->type;
	if (!ty || !sli_type_is_static(ty))
		return NO_TENSOR;
	if (ty->rank > MAX_RANK) {
		sli_error(b->ctx, v->loc, "tensor of rank %u: the cost model takes "
		          "rank %d at most", ty->rank, MAX_RANK);
		b->failed = 1;
		return NO_TENSOR;
	}
	sli_cost_tensor ct;
	memset(&ct, 0, sizeof ct);
	ct.v = v;
	ct.rank = ty->rank;
	ct.dims = ty->dims;
	ct.elem_bytes = ty->elem && ty->elem->bits ? (ty->elem->bits + 7) / 8 : 4;
	ct.forbidden = forbidden;
	memset(ct.pin.axes, -1, sizeof ct.pin.axes);
	memset(ct.major, -1, sizeof ct.major);
	const sl_sharding *s = pinnable ? sli_cost_value_sharding(v) : NULL;
	if (s) {
		sli_cost_asg q;
		int kind = from_sharding(cm, s, ct.rank, &q, &ct.pin);
		if (kind == SH_OTHER) {
			ct.kept = true;
			ct.fixed = SL_NEW(&cm->arena, sli_cost_asg);
			*ct.fixed = q;
		} else {
			ct.pin.what = v->def ? (v->def->kind == SL_OP_SDY_SHARDING_CONSTRAINT
			                        ? "sharding constraint" : "result sharding")
			                     : "argument sharding";
		}
		if (kind != SH_EXACT)
			report(b, s->loc, kind);
	}
	uint32_t idx = (uint32_t)cm->tensors.n;
	SL_VEC_PUSH(cm->tensors, ct);
	vmap_put(cm->vmap, v, idx);
	return idx;
}

static void
add_tie(builder *b, const sl_value *x, const sl_value *y, sl_loc loc, const char *why)
{
	uint32_t a = sli_cost_tensor_of(b->cm, x), c = sli_cost_tensor_of(b->cm, y);
	if (a == NO_TENSOR || c == NO_TENSOR || a == c)
		return;
	if (b->cm->tensors.v[a].rank != b->cm->tensors.v[c].rank)
		return;
	sli_cost_tie t = {a, c, loc, why};
	SL_VEC_PUSH(b->cm->ties, t);
}

static double
flop_weight(sl_op_kind k)
{
	switch (k) {
	case SL_OP_DOT_GENERAL:
	case SL_OP_DOT:
	case SL_OP_CONVOLUTION:
		return 2;
	case SL_OP_RESHAPE: case SL_OP_TRANSPOSE: case SL_OP_BROADCAST_IN_DIM:
	case SL_OP_SLICE: case SL_OP_DYNAMIC_SLICE: case SL_OP_CONCATENATE:
	case SL_OP_PAD: case SL_OP_CONSTANT: case SL_OP_IOTA: case SL_OP_GATHER:
	case SL_OP_REVERSE: case SL_OP_BITCAST_CONVERT: case SL_OP_DYNAMIC_UPDATE_SLICE:
	case SL_OP_GET_TUPLE_ELEMENT: case SL_OP_TUPLE: case SL_OP_OPTIMIZATION_BARRIER:
		return 0;
	default:
		return (sli_op_info[k].traits & T_SDY) ? 0 : 1;
	}
}

/* A rule with one factor per dimension shared by operand i and result i. */
static int
identity_rule(builder *b, const sl_op *op, sl_rule *r)
{
	sli_arena *ar = &b->cm->arena;
	uint32_t n = op->nresults < op->noperands ? op->nresults : op->noperands;
	uint32_t nf = 0;
	memset(r, 0, sizeof *r);
	for (uint32_t i = 0; i < n; i++) {
		sl_type *t = op->results[i].type;
		if (!t || !sli_type_is_static(t) || op->operands[i]->type != t)
			return -1;
		nf += t->rank;
	}
	r->nfactors = nf;
	r->factor_sizes = SL_NEWN(ar, int64_t, nf + 1);
	r->noperands = op->noperands;
	r->nresults = op->nresults;
	r->operands = SL_NEWN(ar, sl_tensor_mapping, op->noperands + 1);
	r->results = SL_NEWN(ar, sl_tensor_mapping, op->nresults + 1);
	nf = 0;
	for (uint32_t i = 0; i < n; i++) {
		sl_type *t = op->results[i].type;
		sl_dim_mapping *dm = SL_NEWN(ar, sl_dim_mapping, t->rank + 1);
		for (uint32_t d = 0; d < t->rank; d++) {
			r->factor_sizes[nf] = t->dims[d];
			dm[d].factors = SL_NEWN(ar, uint32_t, 1);
			dm[d].factors[0] = nf++;
			dm[d].n = 1;
		}
		r->operands[i].dims = r->results[i].dims = dm;
		r->operands[i].rank = r->results[i].rank = t->rank;
	}
	return 0;
}

static void walk_block(builder *b, sl_block *blk, uint32_t forbidden);

static uint32_t
manual_axes_mask(builder *b, const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_manual_axes);
	uint32_t mask = 0;
	if (!a || a->kind != SL_ATTR_MANUAL_AXES)
		return 0;
	for (uint32_t k = 0; k < a->u.axes.n; k++) {
		mask |= axis_mask(b->cm, a->u.axes.v[k].name);
	}
	return mask;
}

static void
add_op(builder *b, sl_op *op, sli_cost_opkind kind, const sl_rule *rule,
       uint32_t forbidden)
{
	sli_cost_model *cm = b->cm;
	sli_cost_op co;
	memset(&co, 0, sizeof co);
	co.op = op;
	co.kind = kind;
	if (rule)
		co.rule = *rule;
	co.noperands = op->noperands;
	co.nresults = op->nresults;
	co.operands = SL_NEWN(&cm->arena, uint32_t, op->noperands + 1);
	co.results = SL_NEWN(&cm->arena, uint32_t, op->nresults + 1);
	for (uint32_t i = 0; i < op->noperands; i++)
		co.operands[i] = sli_cost_tensor_of(cm, op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++)
		co.results[i] = sli_cost_tensor_of(cm, &op->results[i]);
	co.flop_weight = kind == SLI_COST_RULE ? flop_weight(op->kind) : 0;
	co.forbidden = forbidden;
	SL_VEC_PUSH(cm->ops, co);
}

/* Terminator operands of every block of region r tied to op's results. */
static void
tie_returns(builder *b, sl_op *op, sl_region *r)
{
	for (sl_block *blk = r->first; blk; blk = blk->next) {
		sl_op *term = blk->last;
		if (!term)
			continue;
		for (uint32_t i = 0; i < term->noperands && i < op->nresults; i++)
			add_tie(b, term->operands[i], &op->results[i], op->loc, "data flow");
	}
}

static void
block_args(builder *b, sl_block *blk, uint32_t forbidden, bool pinnable)
{
	for (uint32_t i = 0; i < blk->nargs; i++)
		add_tensor(b, &blk->args[i], forbidden, pinnable);
}

/* Fixes tensor t (if any) to the sharding it has now (none: replicated). */
static void
fix_current(builder *b, uint32_t t)
{
	sli_cost_model *cm = b->cm;
	if (t == NO_TENSOR || cm->tensors.v[t].fixed)
		return;
	sli_cost_tensor *ct = &cm->tensors.v[t];
	const sl_sharding *s = sli_cost_value_sharding(ct->v);
	ct->fixed = SL_NEW(&cm->arena, sli_cost_asg);
	memset(ct->fixed->a, SLI_COST_NONE, sizeof ct->fixed->a);
	if (s)
		from_sharding(cm, s, ct->rank, ct->fixed, NULL);
}

static void
visit(builder *b, sl_op *op, uint32_t forbidden)
{
	sli_cost_model *cm = b->cm;
	sl_rule rule;

	switch (op->kind) {
	case SL_OP_SDY_MESH:
	case SL_OP_RETURN:
	case SL_OP_SHLO_RETURN:
	case SL_OP_SDY_RETURN:
		return;
	case SL_OP_SDY_SHARDING_GROUP: {
		sl_attr *g = sli_op_get(op, SLS_group_id);
		uint32_t t = op->noperands ? sli_cost_tensor_of(cm, op->operands[0]) : NO_TENSOR;
		if (!g || g->kind != SL_ATTR_INT || t == NO_TENSOR)
			return;
		for (size_t i = 0; i < b->groups.n; i++) {
			if (b->groups.v[i].id != g->u.i.v)
				continue;
			const sli_cost_tensor *x = &cm->tensors.v[b->groups.v[i].t];
			const sli_cost_tensor *y = &cm->tensors.v[t];
			if (x->rank != y->rank ||
			    memcmp(x->dims, y->dims, x->rank * sizeof *x->dims)) {
				sli_error(b->ctx, op->loc, "sharding group %lld has values "
				          "of different shapes", (long long)g->u.i.v);
				b->failed = 1;
				return;
			}
			add_tie(b, x->v, op->operands[0], op->loc, "sharding group");
			return;
		}
		SL_VEC_RESERVE(b->groups, b->groups.n + 1);
		b->groups.v[b->groups.n].id = g->u.i.v;
		b->groups.v[b->groups.n].t = t;
		b->groups.n++;
		return;
	}
	case SL_OP_WHILE:
		for (uint32_t i = 0; i < op->nresults; i++)
			add_tensor(b, &op->results[i], forbidden, true);
		for (uint32_t k = 0; k < op->nregions; k++) {
			sl_block *e = op->regions[k].first;
			if (!e)
				continue;
			block_args(b, e, forbidden, false);
			for (uint32_t i = 0; i < e->nargs && i < op->nresults; i++)
				add_tie(b, &e->args[i], &op->results[i], op->loc, "while");
			walk_block(b, e, forbidden);
		}
		for (uint32_t i = 0; i < op->noperands && i < op->nresults; i++)
			add_tie(b, op->operands[i], &op->results[i], op->loc, "while");
		if (op->nregions > 1)
			tie_returns(b, op, &op->regions[1]);
		return;
	case SL_OP_CASE:
	case SL_OP_IF:
		for (uint32_t i = 0; i < op->nresults; i++)
			add_tensor(b, &op->results[i], forbidden, true);
		for (uint32_t k = 0; k < op->nregions; k++) {
			for (sl_block *e = op->regions[k].first; e; e = e->next)
				walk_block(b, e, forbidden);
			tie_returns(b, op, &op->regions[k]);
		}
		return;
	case SL_OP_SDY_NAMED_COMPUTATION: {
		sl_block *e = op->nregions ? op->regions[0].first : NULL;
		for (uint32_t i = 0; i < op->nresults; i++)
			add_tensor(b, &op->results[i], forbidden, true);
		if (!e)
			return;
		block_args(b, e, forbidden, true);
		for (uint32_t i = 0; i < e->nargs && i < op->noperands; i++)
			add_tie(b, op->operands[i], &e->args[i], op->loc, "named computation");
		walk_block(b, e, forbidden);
		tie_returns(b, op, &op->regions[0]);
		return;
	}
	case SL_OP_SDY_MANUAL_COMPUTATION: {
		uint32_t inner = forbidden | manual_axes_mask(b, op);
		sl_block *e = op->nregions ? op->regions[0].first : NULL;
		if (e) {
			block_args(b, e, inner, false);
			sl_attr *ins = sli_op_get(op, SLS_in_shardings);
			for (uint32_t i = 0; i < e->nargs; i++) {
				uint32_t t = sli_cost_tensor_of(cm, &e->args[i]);
				const sl_sharding *s = spv_at(ins, i);
				sli_cost_asg q;
				if (t == NO_TENSOR || !s || from_sharding(cm, s,
				    cm->tensors.v[t].rank, &q, NULL) == SH_OTHER)
					continue;
				/* the local view: manual axes gone, the rest fixed */
				sli_cost_tensor *ct = &cm->tensors.v[t];
				ct->fixed = SL_NEW(&cm->arena, sli_cost_asg);
				for (uint32_t a = 0; a < SLI_COST_MAX_AXES; a++)
					ct->fixed->a[a] = (inner >> a & 1) ? SLI_COST_NONE : q.a[a];
			}
			walk_block(b, e, inner);
		}
		for (uint32_t i = 0; i < op->nresults; i++) {
			uint32_t t = add_tensor(b, &op->results[i], forbidden, true);
			if (t == NO_TENSOR)
				continue;
			/* a manual axis its out sharding lacks would change the
			 * body's local type */
			sli_cost_tensor *ct = &cm->tensors.v[t];
			uint32_t used = 0;
			for (uint32_t d = 0; d < ct->rank; d++)
				for (uint32_t k = 0; k < SLI_COST_MAX_AXES &&
				     ct->pin.axes[d][k] >= 0; k++)
					used |= 1u << ct->pin.axes[d][k];
			ct->forbidden |= (inner & ~forbidden) & ~used;
		}
		add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
		sli_cost_op *co = &cm->ops.v[cm->ops.n - 1];
		co->req = SL_NEWN(&cm->arena, sli_cost_asg, op->noperands + 1);
		sl_attr *ins = sli_op_get(op, SLS_in_shardings);
		for (uint32_t i = 0; i < op->noperands; i++) {
			const sl_sharding *s = spv_at(ins, i);
			uint32_t t = co->operands[i];
			memset(co->req[i].a, SLI_COST_NONE, sizeof co->req[i].a);
			if (s && t != NO_TENSOR)
				from_sharding(cm, s, cm->tensors.v[t].rank, &co->req[i], NULL);
		}
		return;
	}
	default:
		break;
	}
	for (uint32_t i = 0; i < op->nresults; i++)
		add_tensor(b, &op->results[i], forbidden, true);
	switch (op->kind) {
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_PROPAGATION_BARRIER:
	case SL_OP_SDY_DATA_FLOW_EDGE:
	case SL_OP_OPTIMIZATION_BARRIER:
		if (identity_rule(b, op, &rule) == 0) {
			add_op(b, op, SLI_COST_IDENTITY, &rule, forbidden);
			return;
		}
		add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
		return;
	default:
		break;
	}
	if (collective(op)) {
		/*
		 * An explicit collective: what it moves is fixed, its operand
		 * and its result (out_sharding) held as they are (the verifier
		 * ties the two), and it costs the reshard from the one to the
		 * other, as a reshard would.
		 */
		for (uint32_t i = 0; i < op->noperands; i++)
			fix_current(b, sli_cost_tensor_of(cm, op->operands[i]));
		for (uint32_t i = 0; i < op->nresults; i++)
			fix_current(b, sli_cost_tensor_of(cm, &op->results[i]));
		if (identity_rule(b, op, &rule) == 0)
			add_op(b, op, SLI_COST_IDENTITY, &rule, forbidden);
		else
			add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
		return;
	}
	sli_rule_opts ro;
	memset(&ro, 0, sizeof ro);
	ro.conservative = cm->params.conservative;
	ro.arena = &cm->arena;
	int rc = sli_rule_for_op(cm->m, op, &ro, &rule);
	sli_rule_opts_fini(&ro);
	if (rc < 0) {
		b->failed = 1;
		return;
	}
	if (rc == SLI_RULE_FOUND && rule.noperands == op->noperands &&
	    rule.nresults == op->nresults)
		add_op(b, op, SLI_COST_RULE, &rule, forbidden);
	else
		add_op(b, op, SLI_COST_OPAQUE, NULL, forbidden);
}

static void
walk_block(builder *b, sl_block *blk, uint32_t forbidden)
{
	for (sl_op *op = blk->first; op && !b->failed; op = op->next)
		visit(b, op, forbidden);
}

/*
 * The requirements operand i of return op co may take: the result
 * sharding as written (req), then every other valid sharding of the
 * operand that extends it in its open dims, as an argument's may grow.
 */
static void
result_options(builder *b, sli_cost_op *co, uint32_t i, const sli_cost_pin *pin)
{
	sli_cost_model *cm = b->cm;
	const sli_cost_tensor *ct = &cm->tensors.v[co->operands[i]];
	bool open = false;
	for (uint32_t d = 0; d < ct->rank; d++)
		open |= !pin->closed[d];
	if (!open || ct->fixed)
		return;
	SL_VEC(sli_cost_asg) v = {0};
	SL_VEC_PUSH(v, co->req[i]);
	sli_cost_asg q;
	memset(q.a, SLI_COST_NONE, sizeof q.a);
	for (;;) {
		if (allows(cm, ct, pin, pin->axes, &q) &&
		    memcmp(q.a, co->req[i].a, sizeof q.a))
			SL_VEC_PUSH(v, q);
		uint32_t a = 0;
		while (a < cm->naxes) {
			if (q.a[a] + 1 < (int)ct->rank) {
				q.a[a]++;
				break;
			}
			q.a[a] = SLI_COST_NONE;
			a++;
		}
		if (a == cm->naxes)
			break;
	}
	if (!co->ropt) {
		co->ropt = SL_NEWN(&cm->arena, sli_cost_asg *, co->noperands + 1);
		co->nropt = SL_NEWN(&cm->arena, uint32_t, co->noperands + 1);
	}
	co->ropt[i] = SL_NEWN(&cm->arena, sli_cost_asg, v.n);
	memcpy(co->ropt[i], v.v, v.n * sizeof *v.v);
	co->nropt[i] = (uint32_t)v.n;
	SL_VEC_FREE(v);
}

/* func.return operands against the function's result shardings. */
static void
add_return(builder *b, sl_op *func)
{
	sli_cost_model *cm = b->cm;
	sl_block *e = func->regions[0].first;
	sl_op *ret = e ? e->last : NULL;
	sl_attr *ra = sli_op_get(func, SLS_res_attrs);
	if (!ret || ret->kind != SL_OP_RETURN || !ra || ra->kind != SL_ATTR_ARRAY)
		return;
	bool any = false;
	for (uint32_t i = 0; i < ra->u.arr.n; i++) {
		sl_attr *d = ra->u.arr.v[i];
		if (d && d->kind == SL_ATTR_DICT &&
		    sli_dict_get(d->u.dict.v, d->u.dict.n, SLS_sdy_sharding))
			any = true;
	}
	if (!any)
		return;
	add_op(b, ret, SLI_COST_OPAQUE, NULL, 0);
	sli_cost_op *co = &cm->ops.v[cm->ops.n - 1];
	co->req = SL_NEWN(&cm->arena, sli_cost_asg, ret->noperands + 1);
	for (uint32_t i = 0; i < ret->noperands; i++) {
		uint32_t t = co->operands[i];
		const sl_sharding *s = NULL;
		if (i < ra->u.arr.n && ra->u.arr.v[i]->kind == SL_ATTR_DICT)
			s = as_sharding(sli_dict_get(ra->u.arr.v[i]->u.dict.v,
			                ra->u.arr.v[i]->u.dict.n, SLS_sdy_sharding));
		if (!s || t == NO_TENSOR) {
			/* no requirement: the edge is free */
			co->operands[i] = NO_TENSOR;
			continue;
		}
		/* one outside the model is held as written, approximated */
		sli_cost_pin pin;
		int kind = from_sharding(cm, s, cm->tensors.v[t].rank, &co->req[i], &pin);
		if (kind != SH_EXACT)
			report(b, s->loc, kind);
		if (kind != SH_OTHER && cm->params.extend_results)
			result_options(b, co, i, &pin);
	}
}

static uint32_t
root(uint32_t *p, uint32_t x)
{
	while (p[x] != x)
		x = p[x] = p[p[x]];
	return x;
}

static uint32_t
prefix_len(const int8_t *axes)
{
	uint32_t n = 0;
	while (n < SLI_COST_MAX_AXES && axes[n] >= 0)
		n++;
	return n;
}

/* The dim of tm that holds factor f alone, or -1. */
static int
single_dim(const sl_tensor_mapping *tm, uint32_t f)
{
	for (uint32_t d = 0; tm && d < tm->rank; d++)
		if (tm->dims[d].n == 1 && tm->dims[d].factors[0] == f)
			return (int)d;
	return -1;
}

/*
 * The order row of the dim of operand or result i of co that holds factor
 * f alone, on the tie root of its tensor (p), or NULL.
 */
static int8_t *
factor_row(sli_cost_model *cm, uint32_t *p, const sli_cost_op *co, bool result,
           uint32_t i, uint32_t f)
{
	uint32_t t = result ? co->results[i] : co->operands[i];
	if (t == NO_TENSOR)
		return NULL;
	int d = single_dim(mapping_of(co, result, i), f);
	sli_cost_tensor *rt = &cm->tensors.v[root(p, t)];
	return d >= 0 && (uint32_t)d < rt->rank ? rt->major[d] : NULL;
}

/*
 * Orders that cost nothing to choose: a dim no user prefix reaches (its
 * order row empty, so no pin looks at it) takes the order of a dim that
 * the same factor of an op maps to, forward then backward through the
 * program, so that written orders agree along the data flow and no
 * hidden permutation (CAVEATS of shardlp-cost(7)) appears between them.
 */
static void
follow_orders(sli_cost_model *cm, uint32_t *p)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < cm->ops.n; k++) {
			const sli_cost_op *co = &cm->ops.v[pass ? cm->ops.n - 1 - k : k];
			uint32_t nf = co->kind == SLI_COST_OPAQUE ? 0 : co->rule.nfactors;
			for (uint32_t f = 0; f < nf; f++) {
				const int8_t *from = NULL;
				for (int res = 0; res < 2 && !from; res++)
					for (uint32_t i = 0; i < (res ? co->nresults
					                              : co->noperands) && !from; i++) {
						int8_t *row = factor_row(cm, p, co, res, i, f);
						if (row && row[0] >= 0)
							from = row;
					}
				for (int res = 0; res < 2 && from; res++)
					for (uint32_t i = 0; i < (res ? co->nresults
					                              : co->noperands); i++) {
						int8_t *row = factor_row(cm, p, co, res, i, f);
						if (row && row[0] < 0)
							memcpy(row, from, SLI_COST_MAX_AXES);
					}
			}
		}
}

/*
 * The written order of every tensor (sli_cost_tensor.major): per dim, the
 * longest user prefix among the tensors tied to it, since tied tensors
 * carry one sharding.  Where two such prefixes disagree no sharding can
 * start with both, so the choice between them changes nothing.  Dims no
 * prefix reaches follow their neighbours' (follow_orders).
 */
static void
compute_major(sli_cost_model *cm)
{
	size_t nt = cm->tensors.n;
	uint32_t *p = sli_xmalloc((nt + 1) * sizeof *p);
	for (size_t t = 0; t < nt; t++)
		p[t] = (uint32_t)t;
	for (size_t i = 0; i < cm->ties.n; i++)
		p[root(p, cm->ties.v[i].a)] = root(p, cm->ties.v[i].b);
	for (size_t t = 0; t < nt; t++) {
		const sli_cost_tensor *ct = &cm->tensors.v[t];
		sli_cost_tensor *rt = &cm->tensors.v[root(p, (uint32_t)t)];
		if (!ct->pin.any)
			continue;
		for (uint32_t d = 0; d < ct->rank && d < rt->rank; d++)
			if (prefix_len(ct->pin.axes[d]) > prefix_len(rt->major[d]))
				memcpy(rt->major[d], ct->pin.axes[d], sizeof rt->major[d]);
	}
	follow_orders(cm, p);
	for (size_t t = 0; t < nt; t++) {
		uint32_t r = root(p, (uint32_t)t);
		if (r != t)
			memcpy(cm->tensors.v[t].major, cm->tensors.v[r].major,
			       sizeof cm->tensors.v[t].major);
	}
	free(p);
}

/* A mesh with axes; with big, one with an axis that can shard (size > 1). */
static const sl_mesh *
mesh_of(const sl_op *op, bool big)
{
	sl_attr *a = op->kind == SL_OP_SDY_MESH ? sli_op_get(op, SLS_mesh) : NULL;
	if (!a || a->kind != SL_ATTR_MESH || a->u.mesh.naxes == 0)
		return NULL;
	for (uint32_t k = 0; big && k < a->u.mesh.naxes; k++)
		if (a->u.mesh.axes[k].size > 1)
			return &a->u.mesh;
	return big ? NULL : &a->u.mesh;
}

/* {--------------------------------------------------------------------
 * Sub-axes: the pieces each mesh axis is split into
 * --------------------------------------------------------------------- */

#define MAX_CUTS 16

/* Where the sub-axes written in the module start and end, per mesh axis. */
typedef struct cuts {
	const sl_mesh *mesh;
	int64_t at[SLI_COST_MAX_AXES][MAX_CUTS];
	uint32_t n[SLI_COST_MAX_AXES];
} cuts;

static void
cut_ref(cuts *c, const sl_axis_ref *r)
{
	if (!r->sub)
		return;
	int x = sli_mesh_axis_index(c->mesh, r->name);
	if (x < 0)
		return;
	int64_t ends[2] = {r->pre, r->pre * r->size};
	for (int e = 0; e < 2; e++) {
		bool have = false;
		for (uint32_t k = 0; k < c->n[x]; k++)
			have |= c->at[x][k] == ends[e];
		if (!have && c->n[x] < MAX_CUTS)
			c->at[x][c->n[x]++] = ends[e];
	}
}

static void
cut_list(cuts *c, const sl_axis_list *l)
{
	for (uint32_t k = 0; k < l->n; k++)
		cut_ref(c, &l->v[k]);
}

static void
cut_attr(cuts *c, const sl_attr *a)
{
	if (!a)
		return;
	switch (a->kind) {
	case SL_ATTR_SHARDING:
		for (uint32_t d = 0; d < a->u.sharding.rank; d++)
			cut_list(c, &a->u.sharding.dims[d].axes);
		cut_list(c, &a->u.sharding.replicated);
		cut_list(c, &a->u.sharding.unreduced);
		break;
	case SL_ATTR_SHARDING_PER_VALUE:
		for (uint32_t i = 0; i < a->u.spv.n; i++) {
			sl_attr tmp;
			tmp.kind = SL_ATTR_SHARDING;
			tmp.u.sharding = *a->u.spv.v[i];
			cut_attr(c, &tmp);
		}
		break;
	case SL_ATTR_ARRAY:
		for (uint32_t i = 0; i < a->u.arr.n; i++)
			cut_attr(c, a->u.arr.v[i]);
		break;
	case SL_ATTR_DICT:
		for (uint32_t i = 0; i < a->u.dict.n; i++)
			cut_attr(c, a->u.dict.v[i].attr);
		break;
	default:
		break;
	}
}

static void
cut_block(cuts *c, const sl_block *b)
{
	for (uint32_t i = 0; i < b->nargs; i++)
		for (uint32_t k = 0; k < b->args[i].nattrs; k++)
			cut_attr(c, b->args[i].attrs[k].attr);
	for (const sl_op *op = b->first; op; op = op->next) {
		for (uint32_t k = 0; k < op->nattrs; k++)
			cut_attr(c, op->attrs[k].attr);
		for (uint32_t k = 0; k < op->nprops; k++)
			cut_attr(c, op->props[k].attr);
		for (uint32_t r = 0; r < op->nregions; r++)
			for (const sl_block *inner = op->regions[r].first; inner;
			     inner = inner->next)
				cut_block(c, inner);
	}
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/*
 * Splits n (a factor of an axis between two cuts) into its prime factors,
 * smallest first, onto piece[*np..] (at most `room` of them; the rest of
 * n goes whole into the last).  Factors past 65535 stay whole.
 */
static void
split_primes(int64_t n, int64_t *piece, uint32_t *np, uint32_t room)
{
	uint32_t k = 0;
	for (int64_t p = 2; p * p <= n && p < 65536 && k + 1 < room; p++)
		while (n % p == 0 && k + 1 < room) {
			piece[(*np)++] = p;
			n /= p;
			k++;
		}
	if (n > 1 || k == 0)
		piece[(*np)++] = n;
}

/*
 * The pieces of each mesh axis, in device order: the axis itself, or with
 * sub_axes its prime factors, taken smallest first between the places
 * where the module's sub-axes start and end (so that "x":(1)2, "x":(2)2
 * of an axis of 4 are two model axes, and "x":(3)2 of an axis of 6 is
 * one); a place that does not divide the next (another sub-axis of the
 * same axis crosses it) is left out and that sub-axis stays outside the
 * model.  At most SLI_COST_MAX_AXES pieces in all: past that, the last
 * two pieces of the axis with the most are joined, and a warning says so.
 */
static void
split_axes(builder *b, const sl_mesh *mesh,
           int64_t piece[SLI_COST_MAX_AXES][SLI_COST_MAX_AXES],
           uint32_t npiece[SLI_COST_MAX_AXES])
{
	uint32_t total = 0;
	cuts c;
	memset(&c, 0, sizeof c);
	c.mesh = mesh;
	if (b->cm->params.sub_axes && b->cm->m->top)
		for (uint32_t r = 0; r < b->cm->m->top->nregions; r++)
			for (const sl_block *blk = b->cm->m->top->regions[r].first; blk;
			     blk = blk->next)
				cut_block(&c, blk);
	for (uint32_t x = 0; x < mesh->naxes; x++) {
		int64_t n = mesh->axes[x].size;
		npiece[x] = 0;
		if (!b->cm->params.sub_axes || n <= 1) {
			piece[x][npiece[x]++] = n;
			total++;
			continue;
		}
		/* the cuts that keep a chain 1 | c1 | c2 | ... | n */
		qsort(c.at[x], c.n[x], sizeof c.at[x][0], cmp_i64);
		int64_t last = 1;
		for (uint32_t k = 0; k < c.n[x]; k++) {
			int64_t at = c.at[x][k];
			if (at <= last || at >= n || at % last || n % at ||
			    npiece[x] + 1 >= SLI_COST_MAX_AXES)
				continue;
			split_primes(at / last, piece[x], &npiece[x],
			             SLI_COST_MAX_AXES - 1 - npiece[x]);
			last = at;
		}
		split_primes(n / last, piece[x], &npiece[x], SLI_COST_MAX_AXES - npiece[x]);
		total += npiece[x];
	}
	if (total > SLI_COST_MAX_AXES && b->cm->params.report)
		sli_diag(b->ctx, SL_DIAG_WARNING, sli_loc_none(), "--sub-axes: %u "
		         "pieces of the mesh axes, the model takes %d; the largest "
		         "axes are split less finely", total, SLI_COST_MAX_AXES);
	while (total > SLI_COST_MAX_AXES) {
		uint32_t w = 0;
		for (uint32_t x = 1; x < mesh->naxes; x++)
			if (npiece[x] > npiece[w])
				w = x;
		npiece[w]--;
		piece[w][npiece[w] - 1] *= piece[w][npiece[w]];
		total--;
	}
}

/* }-------------------------------------------------------------------- */

static int
find_mesh(builder *b, sl_block *body)
{
	sli_cost_model *cm = b->cm;
	const sl_mesh *mesh = NULL;
	bool big = false;
	for (sl_op *op = body->first; op && !big; op = op->next)
		big = mesh_of(op, true) != NULL;
	for (sl_op *op = body->first; op; op = op->next) {
		if (!mesh_of(op, big))
			continue;
		sl_attr *a = sli_op_get(op, SLS_mesh);
		if (mesh) {
			sli_error(b->ctx, op->loc, "the cost model takes one mesh with "
			          "axes; found a second one");
			return -1;
		}
		mesh = &a->u.mesh;
		cm->mesh_name = sli_op_sym_name(cm->m, op);
	}
	if (!mesh) {
		sli_error(b->ctx, cm->m->top ? cm->m->top->loc : sli_loc_none(),
		          "no sdy.mesh with axes: nothing to shard over");
		return -1;
	}
	if (mesh->naxes > SLI_COST_MAX_AXES) {
		sli_error(b->ctx, sli_loc_none(), "mesh of %u axes: the cost model "
		          "takes %d at most", mesh->naxes, SLI_COST_MAX_AXES);
		return -1;
	}
	cm->mesh = mesh;
	int64_t piece[SLI_COST_MAX_AXES][SLI_COST_MAX_AXES];
	uint32_t npiece[SLI_COST_MAX_AXES];
	split_axes(b, mesh, piece, npiece);
	cm->naxes = 0;
	for (uint32_t x = 0; x < mesh->naxes; x++) {
		double bw = 1, lat = 0;
		for (uint32_t k = 0; k < cm->params.naxes; k++) {
			const sli_cost_axis *p = &cm->params.axes[k];
			if (strcmp(p->name, sl_sym_str(b->ctx, mesh->axes[x].name)))
				continue;
			if (p->bandwidth > 0)
				bw = p->bandwidth;
			lat = p->latency;
		}
		int64_t pre = 1;
		for (uint32_t k = 0; k < npiece[x]; k++) {
			uint32_t a = cm->naxes++;
			cm->axis_name[a] = mesh->axes[x].name;
			cm->axis_whole[a] = mesh->axes[x].size;
			cm->axis_pre[a] = pre;
			cm->axis_size[a] = piece[x][k];
			cm->axis_bw[a] = bw;
			cm->axis_lat[a] = lat;
			pre *= piece[x][k];
		}
	}
	return 0;
}

int
sli_cost_model_build(sl_module *m, const sli_cost_params *p, sli_cost_model *cm)
{
	builder b;
	memset(cm, 0, sizeof *cm);
	memset(&b, 0, sizeof b);
	cm->m = m;
	if (p)
		cm->params = *p;
	else
		sli_cost_params_init(&cm->params);
	sli_arena_init(&cm->arena);
	cm->vmap = sli_xcalloc(1, sizeof(vmap));
	b.cm = cm;
	b.ctx = m->ctx;
	sl_block *body = m->top && m->top->nregions ? m->top->regions[0].first : NULL;
	if (!body || find_mesh(&b, body)) {
		if (body == NULL)
			sli_error(b.ctx, sli_loc_none(), "empty module");
		sli_cost_model_fini(cm);
		return -1;
	}
	for (sl_op *f = body->first; f && !b.failed; f = f->next) {
		if (f->kind != SL_OP_FUNC || !f->nregions || !f->regions[0].first)
			continue;
		sl_block *e = f->regions[0].first;
		block_args(&b, e, 0, true);
		for (sl_block *blk = e; blk && !b.failed; blk = blk->next) {
			if (blk != e)
				block_args(&b, blk, 0, false);
			walk_block(&b, blk, 0);
		}
		if (!b.failed)
			add_return(&b, f);
	}
	SL_VEC_FREE(b.groups);
	if (b.failed) {
		sli_cost_model_fini(cm);
		return -1;
	}
	compute_major(cm);
	return 0;
}

void
sli_cost_model_fini(sli_cost_model *cm)
{
	vmap *vm = cm->vmap;
	if (vm) {
		free(vm->s);
		free(vm);
	}
	SL_VEC_FREE(cm->tensors);
	SL_VEC_FREE(cm->ops);
	SL_VEC_FREE(cm->ties);
	sli_arena_fini(&cm->arena);
	cm->vmap = NULL;
}

/* }==================================================================== */

/*
 * shardings.c - shardings as written in the module, read into the
 * model's per-axis form (shardlp-cost(7), "The model of a program" and
 * CAVEATS): which model axes an axis ref stands for, the user's pin of a
 * tensor, and every tensor's current sharding for the evaluator.  Where a
 * sharding is stored is asked of ir/access.h.
 */
#include "cost/shardings.h"
#include "util/checked.h"

#include <string.h>

#include "cost/primitives.h"
#include "ir/axis.h"

/* The op whose region holds block argument v, or NULL. */
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
	const sl_op *owner = arg_owner(v);
	if (owner && owner->kind == SL_OP_SDY_MANUAL_COMPUTATION)
		return NULL;
	return sli_value_sharding(v);
}

/* The model axes that are mesh axis `name` or pieces of it, on any
 * mesh (a mask). */
uint32_t
sli_cost_axis_mask(const sli_cost_model *cm, sl_sym name)
{
	uint32_t m = 0;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (cm->axis_name[a] == name)
			m |= 1u << a;
	return m;
}

int
sli_cost_asg_mesh(const sli_cost_model *cm, const sli_cost_asg *q)
{
	int mesh = -1;
	for (uint32_t a = 0; a < cm->naxes; a++) {
		if (q->a[a] < 0)
			continue;
		if (mesh >= 0 && mesh != cm->axis_mesh[a])
			return -2;
		mesh = cm->axis_mesh[a];
	}
	return mesh;
}

/*
 * The model axes of model mesh `mesh` that make up axis ref r, in *m: 1
 * when they cover it exactly, 0 when r is a sub-axis the model's pieces
 * do not add up to (*m is then its whole axis), -1 when r is not an axis
 * of the mesh (or mesh is -1, an empty mesh).
 */
static int
ref_mask(const sli_cost_model *cm, int mesh, const sl_axis_ref *r, uint32_t *m)
{
	uint32_t whole = mesh < 0 ? 0
	                 : sli_cost_axis_mask(cm, r->name) & cm->mesh_axes[mesh];
	*m = whole;
	if (!whole)
		return -1;
	if (!r->sub)
		return 1;
	uint32_t part = 0;
	int64_t size = 1;
	for (uint32_t a = 0; a < cm->naxes; a++)
		if ((whole >> a & 1) && cm->axis_pre[a] >= r->pre &&
		    sli_mul_i64_sat(cm->axis_pre[a], cm->axis_size[a]) <=
		    sli_mul_i64_sat(r->pre, r->size)) {
			part |= 1u << a;
			size = sli_mul_i64_sat(size, cm->axis_size[a]);
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

int
sli_cost_sharding_mesh(const sli_cost_model *cm, const sl_sharding *s)
{
	for (uint32_t k = 0; !s->mesh && k < cm->nmeshes; k++)
		if (s->mesh_name == cm->mesh_names[k])
			return (int)k;
	const sl_mesh *mesh = s->mesh ? s->mesh : mesh_named(cm, s->mesh_name);
	return mesh && sli_mesh_is_empty(mesh) ? -1 : -2;
}

/*
 * Converts a sharding into per-axis form (q) and per-dim axis lists in the
 * user's order (pin, or NULL).  With SLI_COST_SH_SUBAXES, q and pin hold what the
 * model can and the axes of the sub-axes it cannot are kept off the tensor
 * (pin->replicated); with SLI_COST_SH_OTHER, q is replicated and pin->any false.
 * The axes of the model's other meshes are kept off the tensor too.
 */
int
sli_cost_from_sharding(const sli_cost_model *cm, const sl_sharding *s,
                       uint32_t rank, sli_cost_asg *q, sli_cost_pin *pin)
{
	sli_cost_pin tmp;
	int kind = SLI_COST_SH_EXACT;
	uint32_t used = 0, m;
	if (!pin)
		pin = &tmp;
	memset(q->a, SLI_COST_NONE, sizeof q->a);
	memset(pin, 0, sizeof *pin);
	memset(pin->axes, -1, sizeof pin->axes);
	if (s->rank != rank || rank > SLI_COST_MAX_RANK)
		return SLI_COST_SH_OTHER;
	int mesh = sli_cost_sharding_mesh(cm, s);
	if (mesh == -2)
		return SLI_COST_SH_OTHER;
	pin->any = true;
	if (mesh >= 0)
		pin->replicated = ~cm->mesh_axes[mesh] & ((1u << cm->naxes) - 1);
	pin->loc = s->loc;
	for (uint32_t d = 0; d < rank; d++) {
		const sl_dim_sharding *ds = &s->dims[d];
		uint32_t n = 0;
		pin->closed[d] = !ds->open;
		for (uint32_t k = 0; k < ds->axes.n; k++) {
			int exact = ref_mask(cm, mesh, &ds->axes.v[k], &m);
			if (exact < 0 || (m & used))
				goto other;
			if (!exact) {
				kind = SLI_COST_SH_SUBAXES;
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
		int exact = ref_mask(cm, mesh, &s->replicated.v[k], &m);
		if (exact < 0)
			goto other;
		if (!exact)
			kind = SLI_COST_SH_SUBAXES;
		pin->replicated |= m;
	}
	/* an axis beside a sub-axis of itself the model cannot hold */
	if (used & pin->replicated)
		goto other;
	/* unreduced axes may not shard the tensor either (a whole axis is
	 * kept off when the pieces do not add up to its unreduced sub-axis) */
	for (uint32_t k = 0; k < s->unreduced.n; k++)
		if (ref_mask(cm, mesh, &s->unreduced.v[k], &m) >= 0)
			pin->replicated |= m;
	return kind;
other:
	memset(q->a, SLI_COST_NONE, sizeof q->a);
	memset(pin, 0, sizeof *pin);
	memset(pin->axes, -1, sizeof pin->axes);
	return SLI_COST_SH_OTHER;
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

bool
sli_cost_reads_exactly(const sli_cost_model *cm, sl_loc *where)
{
	for (size_t t = 0; t < cm->tensors.n; t++) {
		const sli_cost_tensor *ct = &cm->tensors.v[t];
		const sl_sharding *s = sli_cost_value_sharding(ct->v);
		sli_cost_asg q;
		if (s && sli_cost_from_sharding(cm, s, ct->rank, &q, NULL) !=
		         SLI_COST_SH_EXACT) {
			*where = sli_value_loc(ct->v);
			return false;
		}
	}
	return true;
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
		sli_cost_from_sharding(cm, s, ct->rank, &q[t], NULL);
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

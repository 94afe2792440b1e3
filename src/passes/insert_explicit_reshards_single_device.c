/*
 * insert_explicit_reshards_single_device.c - ops that run on one device
 * in -sdy-insert-explicit-reshards (insert_explicit_reshards.c): an op
 * with a result sharding on a maximal mesh (`<@single_dev, []>`).
 *
 * Inferred from the single_device_sharding cases: the values cross
 * between the single device and the others through the replicated
 * sharding on the "global" mesh, the module's first mesh with axes.
 *
 *   - Each tensor operand is resharded to the op's single-device
 *     sharding (that of its first result on a maximal mesh), after a
 *     reshard to the closed replicated sharding on the global mesh when
 *     it is not already that (a missing sharding counts as replicated).
 *   - Each tensor result is produced on the single device, then
 *     resharded, right after the op and in result order, to the
 *     replicated sharding on the global mesh, and then, when its own
 *     sharding was on a mesh with axes and had dimension axes, back to
 *     that sharding; its other uses read the last reshard.
 *   - Tokens and other non-tensor values are left alone.
 */
#include "passes/insert_explicit_reshards.h"

#include "ir/axis.h"
#include "passes/passutil.h"

static bool
on_maximal(const sl_module *m, const sl_op *op, const sl_sharding *s)
{
	const sl_mesh *ms = s ? sli_sharding_mesh_at(m, op, s) : NULL;
	return ms && sli_mesh_is_maximal(ms);
}

/* The first result sharding of op on a maximal mesh, or NULL. */
static const sl_sharding *
single_device_sharding(const sl_module *m, const sl_op *op)
{
	for (uint32_t j = 0; j < op->nresults; j++) {
		const sl_sharding *s = sli_result_sharding(op, j);
		if (on_maximal(m, op, s))
			return s;
	}
	return NULL;
}

/* The module's first sdy.mesh with axes: its name, or 0. */
static sl_sym
global_mesh(const sl_module *m)
{
	sl_block *top = sli_region_entry(&m->top->regions[0]);
	for (sl_op *op = top ? top->first : NULL; op; op = op->next) {
		if (op->kind != SL_OP_SDY_MESH)
			continue;
		const sl_mesh *ms = sli_mesh_op_mesh(op);
		if (ms && ms->naxes)
			return sli_op_sym_name(m, op);
	}
	return 0;
}

static bool
is_tensor(const sl_value *v)
{
	return v->type && v->type->kind == SL_TYPE_TENSOR;
}

static sl_sharding *
replicated_on(sl_module *m, sl_sym mesh, uint32_t rank)
{
	sl_sharding *s = sli_sharding_open(m, mesh, NULL, rank);
	for (uint32_t d = 0; d < rank; d++)
		s->dims[d].open = false;
	return s;
}

static bool
has_dim_axes(const sl_sharding *s)
{
	for (uint32_t d = 0; s && d < s->rank; d++)
		if (s->dims[d].axes.n)
			return true;
	return false;
}

/* A reshard of v to s, placed before `at` in block b. */
static sl_value *
reshard(sl_module *m, sl_value *v, const sl_sharding *s, sl_op *at, sl_block *b, sl_loc loc)
{
	sl_op *rs = sli_op_create(m, SL_OP_SDY_RESHARD, &v, 1, &v->type, 1, 0);
	rs->loc = loc;
	sli_result_set_sharding(m, rs, 0, s);
	sli_xr_place(rs, at, b);
	return &rs->results[0];
}

static void
fix_operands(sl_module *m, sl_op *op, sl_sym global, const sl_sharding *single,
             const sl_sharding *(*seen)(sl_module *, const sl_value *))
{
	for (uint32_t i = 0; i < op->noperands; i++) {
		sl_value *v = op->operands[i];
		if (!is_tensor(v))
			continue;
		const sl_sharding *s = seen(m, v);
		bool replicated = !s || (s->mesh_name == global && !has_dim_axes(s));
		if (!replicated)
			v = reshard(m, v, replicated_on(m, global, sli_value_rank(v)), op,
			            op->parent, op->loc);
		op->operands[i] = reshard(m, v, single, op, op->parent, op->loc);
	}
}

static void
fix_results(sl_module *m, sl_op *op, sl_sym global, const sl_sharding *single,
            sli_vmap *subst)
{
	sl_op *next = op->next;
	sl_block *b = op->parent;
	for (uint32_t j = 0; j < op->nresults; j++) {
		sl_value *r = &op->results[j];
		if (!is_tensor(r))
			continue;
		const sl_sharding *own = sli_result_sharding(op, j);
		if (!on_maximal(m, op, own))
			sli_result_set_sharding(m, op, j, single);
		sl_value *v = reshard(m, r, replicated_on(m, global, sli_value_rank(r)), next, b,
		                      op->loc);
		if (!on_maximal(m, op, own) && has_dim_axes(own))
			v = reshard(m, v, own, next, b, op->loc);
		sli_vmap_set(subst, r, v);
	}
}

bool
sli_xr_single_device(sl_module *m, sl_op *op,
                     const sl_sharding *(*seen)(sl_module *, const sl_value *),
                     sli_vmap *subst)
{
	const sl_sharding *single = single_device_sharding(m, op);
	if (!single)
		return false;
	sl_sym global = global_mesh(m);
	if (!global)
		return false;
	fix_operands(m, op, global, single, seen);
	fix_results(m, op, global, single, subst);
	return true;
}

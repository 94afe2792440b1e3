/*
 * sink_data_flow_edges.c - -sdy-sink-data-flow-edges (export;
 * spec/import-passes.md section 4, spec/propagation.md sections 7.8 and
 * 7.9): the shardings of the `sdy.data_flow_edge` ops go back onto their
 * data-flow ops, and every edge op is replaced by its input.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

static sl_op *
edge_of(const sl_value *v)
{
	sli_usevec u = {0};
	sli_value_uses(v, &u);
	sl_op *e = NULL;
	for (size_t i = 0; i < u.n && !e; i++)
		if (u.v[i].user->kind == SL_OP_SDY_DATA_FLOW_EDGE)
			e = u.v[i].user;
	SL_VEC_FREE(u);
	return e;
}

/* addManual(outer, inner) of spec/propagation.md 7.9. */
static sl_sharding *
add_manual(sl_module *m, const sl_sharding *outer, const sl_sharding *inner,
           const sl_axis_list *manual)
{
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *inner;
	r->replicated = outer->replicated;
	r->unreduced = outer->unreduced;
	r->reduction = SL_RED_SUM;
	r->dims = r->rank ? SL_NEWN(&m->arena, sl_dim_sharding, r->rank) : NULL;
	for (uint32_t d = 0; d < r->rank; d++) {
		r->dims[d] = inner->dims[d];
		const sl_axis_list *o = d < outer->rank ? &outer->dims[d].axes : NULL;
		uint32_t k = 0;
		while (o && k < o->n) {
			bool is_manual = false;
			for (uint32_t j = 0; j < manual->n; j++)
				is_manual |= manual->v[j].name == o->v[k].name;
			if (!is_manual)
				break;
			k++;
		}
		if (!k)
			continue;
		uint32_t n = k + inner->dims[d].axes.n;
		sl_axis_ref *v = SL_NEWN(&m->arena, sl_axis_ref, n);
		memcpy(v, o->v, sizeof *v * k);
		if (inner->dims[d].axes.n)
			memcpy(v + k, inner->dims[d].axes.v, sizeof *v * inner->dims[d].axes.n);
		r->dims[d].axes.v = v;
		r->dims[d].axes.n = n;
	}
	return r;
}

/*
 * The edge shardings of values v[0..n): NULL when no edge has one, else a
 * full list with fully open fillers on the first mesh seen.
 */
static sl_sharding **
gather(sl_module *m, sl_value *const *v, uint32_t n)
{
	sl_sharding *first = NULL;
	sl_sharding **out = SL_NEWN(&m->arena, sl_sharding *, n ? n : 1);
	for (uint32_t i = 0; i < n; i++) {
		sl_op *e = edge_of(v[i]);
		out[i] = e ? sli_result_sharding(e, 0) : NULL;
		if (out[i] && !first)
			first = out[i];
	}
	if (!first)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		if (!out[i])
			out[i] = sli_sharding_open(m, first->mesh_name, first->mesh,
			                           sli_value_rank(v[i]));
	return out;
}

static void
sink_op(sl_module *m, sl_op *op)
{
	sl_value **res = SL_NEWN(&m->arena, sl_value *, op->nresults + 1);
	for (uint32_t i = 0; i < op->nresults; i++)
		res[i] = &op->results[i];
	bool computation = op->kind == SL_OP_SDY_NAMED_COMPUTATION ||
	                   op->kind == SL_OP_SDY_MANUAL_COMPUTATION;
	if (computation && op->nregions && op->regions[0].first) {
		sl_block *b = op->regions[0].first;
		sl_value **args = SL_NEWN(&m->arena, sl_value *, b->nargs + 1);
		for (uint32_t i = 0; i < b->nargs; i++)
			args[i] = &b->args[i];
		sl_sharding **in = gather(m, args, b->nargs);
		sl_attr *ma = sli_op_get(op, SLS_manual_axes);
		if (in && op->kind == SL_OP_SDY_MANUAL_COMPUTATION && ma &&
		    ma->kind == SL_ATTR_MANUAL_AXES) {
			for (uint32_t i = 0; i < b->nargs; i++) {
				sl_sharding *old = sli_spv_get(op, SLS_in_shardings, i);
				if (old)
					in[i] = add_manual(m, old, in[i], &ma->u.axes);
			}
		}
		if (in)
			sli_op_set_prop(m, op, SLS_in_shardings, sli_attr_spv(m, in, b->nargs));
	}
	sl_sharding **out = gather(m, res, op->nresults);
	if (!out)
		return;
	sl_attr *a = sli_attr_spv(m, out, op->nresults);
	if (computation)
		sli_op_set_prop(m, op, SLS_out_shardings, a);
	else
		sli_op_set_attr(m, op, SLS_sdy_sharding, a);
}

int
sli_pass_sink_data_flow_edges(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (sli_is_data_flow_op(ops.v[i]))
			sink_op(m, ops.v[i]);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *e = ops.v[i];
		if (e->kind != SL_OP_SDY_DATA_FLOW_EDGE || e->noperands != 1)
			continue;
		sli_value_replace_uses(&e->results[0], e->operands[0], e);
		sli_op_erase(e);
	}
	SL_VEC_FREE(ops);
	return 0;
}

/*
 * sink_data_flow_edges.c - -sdy-sink-data-flow-edges (export;
 * spec/import-passes.md section 4, spec/propagation.md sections 7.8, 7.9
 * and 8.4): the shardings of the `sdy.data_flow_edge` ops go back onto
 * their data-flow ops, and every edge op is replaced by its input.  With
 * sink-debug-sharding-origins / sink-debug-propagation-edge-sharding the
 * debug attributes of the edges move onto the data-flow op as
 * sdy.block_arg_... / sdy.result_... arrays (set even when empty, A13).
 * One walk finds every edge; uses are replaced in one more walk.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

typedef struct sink {
	sl_module *m;
	sli_vmap edges;		/* edge owner -> result of its sdy.data_flow_edge */
	bool origins, prop_edges;
	sl_sym s_origins, s_block_arg_origins, s_result_origins;
} sink;

static sl_op *
edge_of(const sink *k, const sl_value *v)
{
	sl_value *r = sli_vmap_get(&k->edges, v);
	return r ? r->def : NULL;
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
gather(const sink *k, sl_value *const *v, uint32_t n)
{
	sl_module *m = k->m;
	sl_sharding *first = NULL;
	sl_sharding **out = SL_NEWN(&m->arena, sl_sharding *, n ? n : 1);
	for (uint32_t i = 0; i < n; i++) {
		sl_op *e = edge_of(k, v[i]);
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

/*
 * Sets attribute `name` of op to the array of the `key` attributes of the
 * edges of v[0..n) that have one (a non-empty one for propagation edges);
 * edges without it are skipped, so positions need not match (A13).
 */
static void
move_debug(const sink *k, sl_op *op, sl_value *const *v, uint32_t n, sl_sym key,
           sl_sym name)
{
	sl_module *m = k->m;
	sl_attr *arr = sli_attr_new(m, SL_ATTR_ARRAY);
	arr->u.arr.v = n ? SL_NEWN(&m->arena, sl_attr *, n) : NULL;
	for (uint32_t i = 0; i < n; i++) {
		sl_op *e = edge_of(k, v[i]);
		sl_attr *a = e ? sli_op_attr(e, key) : NULL;
		if (!a)
			continue;
		if (a->kind == SL_ATTR_PROP_EDGES && !a->u.edges.n)
			continue;
		arr->u.arr.v[arr->u.arr.n++] = a;
	}
	sli_op_set_attr(m, op, name, arr);
}

static void
sink_debug(const sink *k, sl_op *op, sl_value *const *args, uint32_t nargs,
           sl_value *const *res)
{
	if (k->origins) {
		move_debug(k, op, args, nargs, k->s_origins, k->s_block_arg_origins);
		move_debug(k, op, res, op->nresults, k->s_origins, k->s_result_origins);
	}
	if (k->prop_edges) {
		move_debug(k, op, args, nargs, SLS_sdy_propagation_edges,
		           SLS_sdy_block_arg_propagation_edges);
		move_debug(k, op, res, op->nresults, SLS_sdy_propagation_edges,
		           SLS_sdy_result_propagation_edges);
	}
}

static void
sink_op(const sink *k, sl_op *op)
{
	sl_module *m = k->m;
	sl_value **res = SL_NEWN(&m->arena, sl_value *, op->nresults + 1);
	for (uint32_t i = 0; i < op->nresults; i++)
		res[i] = &op->results[i];
	bool computation = op->kind == SL_OP_SDY_NAMED_COMPUTATION ||
	                   op->kind == SL_OP_SDY_MANUAL_COMPUTATION;
	sl_value **args = NULL;
	uint32_t nargs = 0;
	if (computation && op->nregions && op->regions[0].first) {
		sl_block *b = op->regions[0].first;
		nargs = b->nargs;
		args = SL_NEWN(&m->arena, sl_value *, b->nargs + 1);
		for (uint32_t i = 0; i < b->nargs; i++)
			args[i] = &b->args[i];
		sl_sharding **in = gather(k, args, b->nargs);
		const sl_axis_list *ma = sli_manual_axes(op);
		if (in && op->kind == SL_OP_SDY_MANUAL_COMPUTATION && ma) {
			for (uint32_t i = 0; i < b->nargs; i++) {
				sl_sharding *old = sli_comp_in_sharding(op, i);
				if (old)
					in[i] = add_manual(m, old, in[i], ma);
			}
		}
		if (in)
			sli_comp_set_in_spv(m, op, sli_attr_spv(m, in, b->nargs));
	}
	sink_debug(k, op, args, nargs, res);
	sl_sharding **out = gather(k, res, op->nresults);
	if (!out)
		return;
	sli_result_set_spv(m, op, sli_attr_spv(m, out, op->nresults));
}

int
sli_pass_sink_data_flow_edges(sl_module *m, const sli_pass_opts *opts)
{
	sink k = {m, {0}, false, false, 0, 0, 0};
	k.origins = opts->sink.debug_origins;
	k.prop_edges = opts->sink.debug_edges;
	k.s_origins = sli_sym(m, "sdy.sharding_origins");
	k.s_block_arg_origins = sli_sym(m, "sdy.block_arg_sharding_origins");
	k.s_result_origins = sli_sym(m, "sdy.result_sharding_origins");
	sli_vmap_init(&k.edges);
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	/* The first edge of each owner, as a walk of its uses would find. */
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *e = ops.v[i];
		if (e->kind == SL_OP_SDY_DATA_FLOW_EDGE && e->noperands == 1 &&
		    !sli_vmap_get(&k.edges, e->operands[0]))
			sli_vmap_set(&k.edges, e->operands[0], &e->results[0]);
	}
	for (size_t i = 0; i < ops.n; i++)
		if (sli_is_data_flow_op(ops.v[i]))
			sink_op(&k, ops.v[i]);
	/* Every edge result becomes the edge's input (through chains of edges). */
	sli_vmap repl;
	sli_vmap_init(&repl);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *e = ops.v[i];
		if (e->kind != SL_OP_SDY_DATA_FLOW_EDGE || e->noperands != 1)
			continue;
		sl_value *to = e->operands[0];
		while (to->def && to->def->kind == SL_OP_SDY_DATA_FLOW_EDGE &&
		       to->def->noperands == 1)
			to = to->def->operands[0];
		sli_vmap_set(&repl, &e->results[0], to);
	}
	if (repl.n)
		sli_replace_uses_map(m->top, &repl);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *e = ops.v[i];
		if (e->kind == SL_OP_SDY_DATA_FLOW_EDGE && e->noperands == 1)
			sli_op_erase(e);
	}
	sli_vmap_fini(&repl);
	sli_vmap_fini(&k.edges);
	SL_VEC_FREE(ops);
	return 0;
}

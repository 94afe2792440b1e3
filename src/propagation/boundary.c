/*
 * boundary.c - what crosses a function or computation boundary: the view
 * of a manual computation's shardings without (or with) its manual axes
 * (spec 7.9), steps through func_data_flow_edges between callers and
 * callees, and the results of the main function against its returned
 * values (7.4).
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"

#include <string.h>

static const sl_type *
func_type(const sl_op *func)
{
	sl_attr *ft = sli_op_get(func, SLS_function_type);
	return ft && ft->kind == SL_ATTR_TYPE ? ft->u.type : NULL;
}

const sl_sharding *
sli_prop_add_manual(sl_module *m, const sl_op *mc, const sl_sharding *outer,
           const sl_sharding *inner)
{
	const sl_axis_list *manual = sli_manual_axes(mc);
	if (!inner || !outer)
		return inner;
	sl_sharding *o = SL_NEW(&m->arena, sl_sharding);
	*o = *inner;
	o->dims = SL_NEWN(&m->arena, sl_dim_sharding, inner->rank ? inner->rank : 1);
	for (uint32_t d = 0; d < inner->rank; d++) {
		o->dims[d] = inner->dims[d];
		uint32_t k = 0;
		if (d < outer->rank)
			while (k < outer->dims[d].axes.n && sli_axis_is_manual(manual, &outer->dims[d].axes.v[k]))
				k++;
		if (!k)
			continue;
		uint32_t n = k + inner->dims[d].axes.n;
		o->dims[d].axes.v = SL_NEWN(&m->arena, sl_axis_ref, n);
		memcpy(o->dims[d].axes.v, outer->dims[d].axes.v, sizeof(sl_axis_ref) * k);
		if (inner->dims[d].axes.n)
			memcpy(o->dims[d].axes.v + k, inner->dims[d].axes.v,
			       sizeof(sl_axis_ref) * inner->dims[d].axes.n);
		o->dims[d].axes.n = n;
	}
	o->replicated = outer->replicated;
	o->unreduced = outer->unreduced;
	o->reduction = SL_RED_SUM;
	return o;
}

void
sli_prop_visit_func_edge(sli_prop *P, sl_op *e)
{
	if (!e->noperands || !e->nresults || !sli_prop_static_tensor(e->results[0].type))
		return;
	sl_value *v = e->operands[0];
	sl_op **calls = NULL, *ret = NULL;
	uint32_t cap = 1, n = 0;
	if (!v->def && sli_prop_is_func_arg(v)) {
		calls = sli_prop_callers(P, v->block->parent->parent->id);
		for (sl_op **c = calls; c && *c; c++)
			cap++;
	} else if (v->def && v->def->kind == SL_OP_CALL) {
		sl_op *f = sli_lookup_func(P->m, sli_prop_callee(P->m, v->def));
		if (f && f->nregions && f->regions[0].first)
			ret = f->regions[0].first->last;
	}
	/* the sources (callers' operands, or the callee's returned value), then e */
	stensor *ts = sli_arena_alloc(&P->scratch, sizeof *ts * (cap + 1));
	for (sl_op **c = calls; c && *c; c++)
		if (v->index < (*c)->noperands)
			sli_prop_plain(P, &ts[n++], (*c)->operands[v->index]);
	if (ret && v->index < ret->noperands)
		sli_prop_plain(P, &ts[n++], ret->operands[v->index]);
	if (!n)
		return;
	sli_prop_plain(P, &ts[n], &e->results[0]);
	const sl_rule *rule = sli_prop_identity_rule(P, e->results[0].type, n, 1);
	step_args a = {e, rule, NULL, DIR_STRATEGY, 0, false, false, true, false, NULL, false};
	sli_prop_step(P, &a, ts, n, 1);
}

/* Spec 7.4: main function results against the returned values. */
void
sli_prop_sync_func_results(sli_prop *P)
{
	sl_op *f = P->main_func;
	if (!f)
		return;
	const sl_type *ft = func_type(f);
	sl_op *ret = f->regions[0].first->last;
	if (!ft || !ret || ret->kind != SL_OP_RETURN)
		return;
	char *mark = P->scratch.cur;
	sli_chunk *head = P->scratch.head;
	for (uint32_t i = 0; i < ft->nres && i < ret->noperands; i++) {
		if (P->scratch.head == head && head)
			P->scratch.cur = mark;
		const sl_type *t = ft->types[ft->rank + i];
		if (!sli_prop_static_tensor(t))
			continue;
		stensor ts[2];
		sli_prop_plain(P, &ts[0], ret->operands[i]);
		memset(&ts[1], 0, sizeof ts[1]);
		ts[1].func = f;
		ts[1].res = i;
		ts[1].s = sli_prop_func_result(P, f, i);
		const sl_rule *rule = sli_prop_identity_rule(P, t, 1, 1);
		step_args a = {f, rule, NULL, DIR_FIXED, SL_DIR_BOTH, false, false, false, true, NULL, false};
		sli_prop_step(P, &a, ts, 1, 1);
	}
}

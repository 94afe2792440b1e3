/*
 * update_non_divisible.c - -sdy-update-non-divisible-input-output-shardings
 * (export; spec/import-passes.md section 4): on function arguments and
 * results, call results and manual computation in/out shardings, each
 * dimension sharding that does not divide the dimension is cut to its
 * longest prefix that does (possibly ending in a sub-axis); a changed
 * dimension loses its priority.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/axis.h"

#include <stdlib.h>

/* s made divisible for type t, or NULL when it already is. */
static sl_sharding *
fix(sl_module *m, const sl_sharding *s, const sl_type *t)
{
	const sl_mesh *mesh = sli_sharding_mesh(m, s);
	if (!mesh || t->kind != SL_TYPE_TENSOR || t->unranked || t->rank != s->rank)
		return NULL;
	sl_sharding *r = NULL;
	for (uint32_t d = 0; d < s->rank; d++) {
		int64_t rem = t->dims[d];
		if (rem == SL_DYN)
			continue;
		const sl_axis_list *l = &s->dims[d].axes;
		sl_axis_ref *v = l->n ? SL_NEWN(&m->arena, sl_axis_ref, l->n) : NULL;
		uint32_t n = 0;
		bool cut = false;
		for (uint32_t i = 0; i < l->n; i++) {
			int64_t size = sli_axis_size(&l->v[i], mesh);
			int64_t g = size > 0 ? sli_gcd64(size, rem) : 1;
			if (g == size) {
				v[n++] = l->v[i];
				rem /= g;
				continue;
			}
			cut = true;
			if (g > 1)
				v[n++] = sli_axis_sub(l->v[i].name, sli_axis_pre(&l->v[i]), g);
			break;
		}
		if (!cut)
			continue;
		if (!r) {
			r = SL_NEW(&m->arena, sl_sharding);
			*r = *s;
			r->dims = SL_NEWN(&m->arena, sl_dim_sharding, s->rank);
			for (uint32_t k = 0; k < s->rank; k++)
				r->dims[k] = s->dims[k];
		}
		r->dims[d].axes.v = v;
		r->dims[d].axes.n = n;
		r->dims[d].priority = SL_NO_PRIORITY;
	}
	return r;
}

static sl_attr *
fix_list(sl_module *m, sl_attr *a, sl_value *const *vals, uint32_t n)
{
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
		return NULL;
	sl_sharding **v = NULL;
	for (uint32_t i = 0; i < a->u.spv.n && i < n; i++) {
		sl_sharding *r = fix(m, a->u.spv.v[i], vals[i]->type);
		if (!r)
			continue;
		if (!v) {
			v = SL_NEWN(&m->arena, sl_sharding *, a->u.spv.n);
			for (uint32_t k = 0; k < a->u.spv.n; k++)
				v[k] = a->u.spv.v[k];
		}
		v[i] = r;
	}
	return v ? sli_attr_spv(m, v, a->u.spv.n) : NULL;
}

/* The arguments and results of function op. */
static void
fix_func(sl_module *m, sl_op *op)
{
	sl_block *b = sli_func_body(op);
	for (uint32_t i = 0; b && i < b->nargs; i++) {
		sl_sharding *s = sli_func_arg_sharding(op, i);
		sl_sharding *r = s ? fix(m, s, b->args[i].type) : NULL;
		if (r)
			sli_func_set_arg_sharding(m, op, i, r);
	}
	sl_attr *ft = sli_op_get(op, SLS_function_type);
	uint32_t n = sli_func_nresults(op);
	for (uint32_t i = 0; ft && i < n; i++) {
		sl_sharding *s = sli_func_res_sharding(op, i);
		sl_sharding *r = s ? fix(m, s, ft->u.type->types[ft->u.type->rank + i]) : NULL;
		if (r)
			sli_func_set_res_sharding(m, op, i, r);
	}
}

void
sli_update_non_divisible_io(sl_module *m, bool nested)
{
	if (!nested) {
		sl_block *body = sli_module_body(m);
		for (sl_op *op = body ? body->first : NULL; op; op = op->next)
			if (op->kind == SL_OP_FUNC)
				fix_func(m, op);
		return;
	}
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t k = 0; k < ops.n; k++) {
		sl_op *op = ops.v[k];
		if (op->kind == SL_OP_FUNC) {
			fix_func(m, op);
		} else if (op->kind == SL_OP_CALL) {
			for (uint32_t i = 0; i < op->nresults; i++) {
				sl_sharding *s = sli_result_sharding(op, i);
				sl_sharding *r = s ? fix(m, s, op->results[i].type) : NULL;
				if (r)
					sli_result_set_sharding(m, op, i, r);
			}
		} else if (op->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
			sl_value **res = SL_NEWN(&m->arena, sl_value *, op->nresults + 1);
			for (uint32_t i = 0; i < op->nresults; i++)
				res[i] = &op->results[i];
			sl_attr *a = fix_list(m, sli_comp_in_spv(op), op->operands, op->noperands);
			if (a)
				sli_comp_set_in_spv(m, op, a);
			a = fix_list(m, sli_result_spv(op), res, op->nresults);
			if (a)
				sli_result_set_spv(m, op, a);
		}
	}
	SL_VEC_FREE(ops);
}

int
sli_pass_update_non_divisible_input_output_shardings(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_update_non_divisible_io(m, true);
	return 0;
}

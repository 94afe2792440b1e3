/*
 * manual_axes_cleanup.c - -sdy-manual-axes-cleanup (spec/import-passes.md
 * section 2.6): in every manual computation, the manual axes an in/out
 * sharding does not use are added to its replicated axes, and the manual
 * axes are sorted in mesh order.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/axis.h"

#include <stdlib.h>
#include <string.h>

static bool
is_empty_mesh(const sl_mesh *mesh)
{
	return !mesh || (mesh->naxes == 0 && mesh->nids == 0);
}

/* s with the manual axes it does not use replicated, or NULL if none. */
static sl_sharding *
fill(sl_module *m, const sl_sharding *s, const sl_mesh *mesh, sl_sym mesh_name,
     const sl_mesh *inline_mesh, const sl_axis_list *manual)
{
	sli_axis_vec used = {0}, rest = {0}, full = {0};
	for (uint32_t d = 0; d < s->rank; d++)
		for (uint32_t i = 0; i < s->dims[d].axes.n; i++)
			SL_VEC_PUSH(used, s->dims[d].axes.v[i]);
	for (uint32_t i = 0; i < s->replicated.n; i++)
		SL_VEC_PUSH(used, s->replicated.v[i]);
	for (uint32_t i = 0; i < s->unreduced.n; i++)
		SL_VEC_PUSH(used, s->unreduced.v[i]);
	for (uint32_t i = 0; i < manual->n; i++)
		SL_VEC_PUSH(full, sli_axis_full(manual->v[i].name));
	sli_axis_set_diff(m->ctx, mesh, full.v, full.n, used.v, used.n, &rest);
	sl_sharding *r = NULL;
	if (rest.n) {
		sli_axis_vec rep = {0};
		for (uint32_t i = 0; i < s->replicated.n; i++)
			SL_VEC_PUSH(rep, s->replicated.v[i]);
		for (size_t i = 0; i < rest.n; i++)
			SL_VEC_PUSH(rep, rest.v[i]);
		sli_axis_vec_sort_and_merge(m->ctx, mesh, &rep);
		r = SL_NEW(&m->arena, sl_sharding);
		*r = *s;
		r->replicated.n = (uint32_t)rep.n;
		r->replicated.v = sli_arena_dup(&m->arena, rep.v, sizeof *rep.v * rep.n);
		r->mesh_name = mesh_name;
		r->mesh = mesh_name ? NULL : (sl_mesh *)inline_mesh;
		SL_VEC_FREE(rep);
	}
	SL_VEC_FREE(used);
	SL_VEC_FREE(rest);
	SL_VEC_FREE(full);
	return r;
}

static sl_attr *
fill_list(sl_module *m, sl_attr *a, sl_value *const *vals, uint32_t nvals,
          const sl_mesh *mesh, const sl_sharding *common, const sl_axis_list *manual)
{
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
		return NULL;
	sl_sharding **v = NULL;
	for (uint32_t i = 0; i < a->u.spv.n; i++) {
		if (i >= nvals || vals[i]->type->kind != SL_TYPE_TENSOR)
			continue;
		sl_sharding *r = fill(m, a->u.spv.v[i], mesh, common->mesh_name,
		                      common->mesh, manual);
		if (!r)
			continue;
		if (!v) {
			v = SL_NEWN(&m->arena, sl_sharding *, a->u.spv.n);
			memcpy(v, a->u.spv.v, sizeof *v * a->u.spv.n);
		}
		v[i] = r;
	}
	return v ? sli_attr_spv(m, v, a->u.spv.n) : NULL;
}

static int
cleanup(sl_module *m, sl_op *op)
{
	sl_attr *in = sli_comp_in_spv(op);
	sl_attr *out = sli_result_spv(op);
	uint32_t nin = in ? in->u.spv.n : 0;
	uint32_t nout = out ? out->u.spv.n : 0;
	const sl_axis_list *manual = sli_manual_axes(op);
	if (!nin && !nout) {
		sl_block *b = op->nregions ? op->regions[0].first : NULL;
		if (manual && manual->n && b && b->first && b->first->kind != SL_OP_SDY_RETURN) {
			sli_error(m->ctx, op->loc, "op has manual_axes when there are no in/out "
			          "shardings and the body is not empty. This isn't allowed at "
			          "this stage, please contact the Shardy team or file a bug.");
			return -1;
		}
		return 0;
	}
	const sl_sharding *common = NULL;
	const sl_mesh *mesh = NULL;
	for (uint32_t i = 0; i < nin + nout && !common; i++) {
		const sl_sharding *s = i < nin ? in->u.spv.v[i] : out->u.spv.v[i - nin];
		const sl_mesh *sm = sli_sharding_mesh(m, s);
		if (!is_empty_mesh(sm)) {
			common = s;
			mesh = sm;
		}
	}
	if (!common || !manual)
		return 0;
	if (manual->n > 1) {
		sl_axis_ref *v = sli_arena_dup(&m->arena, manual->v, sizeof *manual->v * manual->n);
		sli_axis_mesh_sort(m->ctx, mesh, v, manual->n);
		manual = sli_set_manual_axes(m, op, v, manual->n);
	}
	sl_value **res = SL_NEWN(&m->arena, sl_value *, op->nresults + 1);
	for (uint32_t i = 0; i < op->nresults; i++)
		res[i] = &op->results[i];
	sl_attr *nin_a = fill_list(m, in, op->operands, op->noperands, mesh, common, manual);
	sl_attr *nout_a = fill_list(m, out, res, op->nresults, mesh, common, manual);
	if (nin_a)
		sli_comp_set_in_spv(m, op, nin_a);
	if (nout_a)
		sli_result_set_spv(m, op, nout_a);
	return 0;
}

int
sli_pass_manual_axes_cleanup(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	int rc = 0;
	for (size_t i = 0; i < ops.n && !rc; i++)
		if (ops.v[i]->kind == SL_OP_SDY_MANUAL_COMPUTATION)
			rc = cleanup(m, ops.v[i]);
	SL_VEC_FREE(ops);
	return rc;
}

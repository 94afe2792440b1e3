/*
 * explicit_reshard_op.c - the plan of one op of the IR
 * (sli_xr_plan_for_op, explicit_reshard_plan.h): the facts
 * sli_xr_plan_op needs, read from the op without changing it, for
 * shardings the caller gives (the op's own, or hypothetical ones).
 *
 * The op's rule comes from the rule registry; ops without one, or with a
 * custom one, get no plan.  The mesh of an op: the one named by its
 * shardings when they all agree on the axes (device ids aside), none when
 * they disagree, when none has a sharding, or when it is maximal; of
 * these, the mesh named by the most shardings with axes wins (the first
 * to reach the count on a tie), and shardings with axes on a mesh with
 * other device ids are resharded onto it.  Tensor sizes are element
 * counts (0 for dynamic shapes).
 */
#include "passes/explicit_reshard_plan.h"

#include "ir/access.h"
#include "rules/rules.h"

static bool
fully_replicated(const sl_sharding *s)
{
	if (!s)
		return true;
	for (uint32_t d = 0; d < s->rank; d++)
		if (s->dims[d].axes.n)
			return false;
	return s->unreduced.n == 0;
}

static bool
same_axes(const sl_mesh *a, const sl_mesh *b)
{
	if (a->naxes != b->naxes)
		return false;
	for (uint32_t i = 0; i < a->naxes; i++)
		if (a->axes[i].name != b->axes[i].name || a->axes[i].size != b->axes[i].size)
			return false;
	return true;
}

static bool
same_ids(const sl_mesh *a, const sl_mesh *b)
{
	if (!a->ids && !b->ids)
		return true;
	int64_t n = sli_mesh_total_size(a);
	for (int64_t i = 0; i < n; i++) {
		int64_t x = a->ids ? a->ids[i] : i, y = b->ids ? b->ids[i] : i;
		if (x != y)
			return false;
	}
	return true;
}

/*
 * The op's mesh (file comment) into in's mesh fields; false when there is
 * none to use.  ms[t] gets the mesh of tensor t's sharding (NULL without
 * one).
 */
static bool
choose_mesh(const sl_module *m, const sl_op *op, const sl_sharding *const *sh,
            const sl_mesh **ms, uint32_t nt, sli_xr_in *in)
{
	const sl_mesh *first = NULL;
	for (uint32_t t = 0; t < nt; t++) {
		if (!sh[t])
			continue;
		ms[t] = sli_sharding_mesh_at(m, op, sh[t]);
		if (!ms[t])
			return false;
		if (!first) {
			first = ms[t];
			in->mesh_name = sh[t]->mesh_name;
			in->inline_mesh = sh[t]->mesh;
		} else if (!same_axes(first, ms[t])) {
			return false;
		}
	}
	if (!first || sli_mesh_is_maximal(first))
		return false;
	in->mesh = first;
	uint32_t best = 0;
	for (uint32_t t = 0; t < nt; t++) {
		if (fully_replicated(sh[t]))
			continue;
		uint32_t count = 0;
		for (uint32_t u = 0; u <= t; u++)
			count += !fully_replicated(sh[u]) && sh[u]->mesh_name == sh[t]->mesh_name;
		if (count > best) {
			best = count;
			in->mesh_name = sh[t]->mesh_name;
			in->inline_mesh = sh[t]->mesh;
			in->mesh = ms[t];
		}
	}
	return true;
}

int
sli_xr_plan_for_op(sl_module *m, const sl_op *op, const sl_sharding *const *in_sh,
                   const sl_sharding *const *out_sh, bool full,
                   struct sli_rule_opts *ropts, sli_arena *scratch, sli_arena *out,
                   sli_xr_plan *plan)
{
	sl_rule *rule = SL_NEW(scratch, sl_rule);
	int rc = sli_rule_for_op(m, op, ropts, rule);
	if (rc <= 0)
		return rc;
	if (rule->custom || rule->noperands != op->noperands || rule->nresults != op->nresults)
		return 0;
	uint32_t nt = op->noperands + op->nresults;
	const sl_sharding **sh = SL_NEWN(scratch, const sl_sharding *, nt + 1);
	const sl_mesh **ms = SL_NEWN(scratch, const sl_mesh *, nt + 1);
	int64_t *sizes = SL_NEWN(scratch, int64_t, nt + 1);
	bool *other = SL_NEWN(scratch, bool, nt + 1);
	for (uint32_t i = 0; i < op->noperands; i++) {
		sh[i] = in_sh[i];
		sizes[i] = sli_type_num_elements(op->operands[i]->type);
	}
	for (uint32_t j = 0; j < op->nresults; j++) {
		sh[op->noperands + j] = out_sh[j];
		sizes[op->noperands + j] = sli_type_num_elements(op->results[j].type);
	}
	sli_xr_in in = {rule, NULL, 0, NULL, op->noperands, op->nresults, sh,
	                sh + op->noperands, other, sizes, op->kind == SL_OP_RESHAPE, full,
	                op->kind == SL_OP_DOT || op->kind == SL_OP_DOT_GENERAL};
	if (!choose_mesh(m, op, sh, ms, nt, &in))
		return 0;
	for (uint32_t t = 0; t < nt; t++)
		other[t] = !fully_replicated(sh[t]) && ms[t] && !same_ids(ms[t], in.mesh);
	if (sli_xr_plan_op(m->ctx, scratch, out, &in, plan) < 0)
		return 0;
	return 1;
}

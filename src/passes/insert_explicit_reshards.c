/*
 * insert_explicit_reshards.c - -sdy-insert-explicit-reshards
 * (sdy_export_passes.md): makes every op's shardings compatible with its
 * sharding rule by inserting `sdy.reshard` ops, and `sdy.all_reduce` ops
 * after ops whose reduction factors are sharded.  What to insert for one
 * op is decided by explicit_reshard_plan.c; this file finds the ops, the
 * shardings and the mesh, and applies the plan to the IR.
 *
 * Each function is walked in post-order (nested regions first); ops the
 * pass inserts are not visited.  Per op, in order:
 *
 *   - terminators are skipped; a function's return is handled last: each
 *     returned value whose sharding is not equivalent to the function's
 *     result sharding is resharded to it right before the return (to a
 *     closed, replicated sharding when the result has none);
 *   - data-flow ops (while, case, optimization_barrier, named
 *     computations): each value flowing into an edge owner is resharded,
 *     right after its definition, to the owner's sharding when they are
 *     not equivalent;
 *   - func.call: each operand is resharded, right after its definition,
 *     to the callee's argument sharding;
 *   - otherwise the op's plan (sli_xr_plan_for_op, explicit_reshard_op.c)
 *     is applied: operand reshards before it, then after it the
 *     all-reduces, then the result reshards.
 *
 * Equivalent shardings: a missing sharding is equivalent to one without
 * dimension axes (whatever its unreduced axes); two shardings are when
 * neither has dimension axes, or both are on the same mesh with the same
 * axes per dimension, and they have the same unreduced axes (open or
 * closed dimensions and replicated axes do not count).
 *
 * Before a value flows into a user, the unreduced axes of its sharding
 * that the user's does not keep are all-reduced (for an op with a rule,
 * the user's sharding is that of its first result); unreduced axes the
 * user adds, and reshards that add some, are insert_explicit_reshards_
 * unreduced.c's business.
 *
 * A function argument or result on a single-device (maximal) mesh is an
 * error; ops that run on one device are insert_explicit_reshards_single_
 * device.c's business (full version only).
 *
 * With enable-full-version=false only func.call operands, and
 * concatenates with an operand whose sharding differs from the result's,
 * are treated; everything else is left alone.
 */
#include "passes/pass.h"
#include "passes/passutil.h"
#include "passes/explicit_reshard_memo.h"
#include "passes/insert_explicit_reshards.h"

#include <string.h>

#include "rules/rules.h"

/* Bytes of scratch memory kept from op to op. */
#define SCRATCH_KEEP (1u << 20)

typedef struct xr {
	sl_module *m;
	sl_context *ctx;
	bool full;
	sli_arena scratch;	/* what one op needs; reset when it grows */
	sli_arena rules;	/* the rules, which the registry caches by arena */
	/*
	 * Uses to redirect: a result that got a reshard or an all-reduce is
	 * read through it by the ops after it, which are visited later; each
	 * op's operands are looked up here when it is visited (one pass over
	 * the uses instead of one per new op).
	 */
	sli_vmap subst;
	sli_rule_opts ropts;
	sli_xr_memo memo;	/* plans of equal ops */
	bool named_maximal;	/* the module has an sdy.mesh on one device */
} xr;

/* ---- sharding facts ---- */

static bool
no_dim_axes(const sl_sharding *s)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (s->dims[d].axes.n)
			return false;
	return true;
}

static bool
equivalent(const sl_sharding *a, const sl_sharding *b)
{
	if (!a || !b)
		return (!a || no_dim_axes(a)) && (!b || no_dim_axes(b));
	bool same_unreduced = sli_axis_list_equal(a->unreduced.v, a->unreduced.n,
	                                          b->unreduced.v, b->unreduced.n);
	if (no_dim_axes(a) && no_dim_axes(b))
		return same_unreduced;
	if (a->mesh_name != b->mesh_name || a->rank != b->rank)
		return false;
	for (uint32_t d = 0; d < a->rank; d++)
		if (!sli_axis_list_equal(a->dims[d].axes.v, a->dims[d].axes.n,
		                         b->dims[d].axes.v, b->dims[d].axes.n))
			return false;
	return same_unreduced;
}

/*
 * The sharding of v as an op using it sees it: none for the arguments of
 * the bodies of ops other than functions and data-flow ops (a reduce's
 * body works on scalars); a propagation barrier passes its operand's on
 * (the dot-with-barrier case of insert_explicit_reshards/000).
 */
static const sl_sharding *
sharding_of(sl_module *m, const sl_value *v)
{
	while (v->def && v->def->kind == SL_OP_SDY_PROPAGATION_BARRIER && v->def->noperands)
		v = v->def->operands[0];
	if (!v->def && v->block && v->block->parent) {
		const sl_op *owner = v->block->parent->parent;
		if (owner && owner->kind != SL_OP_FUNC && !sli_is_data_flow_op(owner))
			return NULL;
	}
	return sli_value_sharding_seen(m, v);
}

/* A closed sharding of `rank` without axes on the mesh of `like`. */
static sl_sharding *
closed_like(sl_module *m, sl_sym mesh_name, sl_mesh *mesh, uint32_t rank)
{
	sl_sharding *s = sli_sharding_open(m, mesh_name, mesh, rank);
	for (uint32_t d = 0; d < rank; d++)
		s->dims[d].open = false;
	return s;
}

/* ---- IR edits ---- */

void
sli_xr_place(sl_op *op, sl_op *at, sl_block *b)
{
	if (at)
		sli_op_insert_before(at, op);
	else
		sli_op_append(b, op);
}

static sl_op *
new_reshard(sl_module *m, sl_value *v, const sl_sharding *to, sl_loc loc)
{
	sl_op *rs = sli_op_create(m, SL_OP_SDY_RESHARD, &v, 1, &v->type, 1, 0);
	rs->loc = loc;
	sli_result_set_sharding(m, rs, 0, to);
	return rs;
}

/* Where code right after value v's definition goes: before *at in *b. */
static void
after_value(sl_value *v, sl_op **at, sl_block **b)
{
	if (v->def) {
		*at = v->def->next;
		*b = v->def->parent;
	} else {
		*b = v->block;
		*at = v->block->first;
	}
}

/* A new sdy.all_reduce (`red`) of v over `axes` producing sharding s. */
static sl_op *
new_all_reduce(sl_module *m, sl_value *v, const sl_axis_ref *axes, uint32_t n,
               sl_reduction red, const sl_sharding *s, sl_loc loc)
{
	sl_op *ar = sli_op_create(m, SL_OP_SDY_ALL_REDUCE, &v, 1, &v->type, 1, 0);
	ar->loc = loc;
	sl_attr *a = sli_attr_new(m, SL_ATTR_AXIS_REF_LIST);
	a->u.axes.n = n;
	a->u.axes.v = n ? sli_arena_dup(&m->arena, axes, sizeof *axes * n) : NULL;
	sli_op_set_prop(m, ar, SLS_reduction_axes, a);
	if (red != SL_RED_SUM)
		sli_op_set_prop(m, ar, SLS_reduction_op, sli_attr_int(m, red, NULL));
	sli_result_set_sharding(m, ar, 0, s);
	return ar;
}

/*
 * When operand i of user has unreduced axes that `target` (NULL: none)
 * does not keep, all-reduces it over them, placed before `at` in block b;
 * the operand then has its sharding without those axes, which is
 * returned (the reduce case of insert_explicit_reshards/000 shows that
 * the target's other unreduced axes are not added).
 */
static const sl_sharding *
reduce_unreduced(xr *X, sl_op *user, uint32_t i, const sl_sharding *have,
                 const sl_sharding *target, sl_op *at, sl_block *b)
{
	if (!have || !have->unreduced.n)
		return have;
	const sl_mesh *mesh = sli_sharding_mesh_at(X->m, user, have);
	if (!mesh)
		return have;
	sli_axis_vec diff = {0};
	sli_axis_set_diff(X->ctx, mesh, have->unreduced.v, have->unreduced.n,
	                  target ? target->unreduced.v : NULL,
	                  target ? target->unreduced.n : 0, &diff);
	if (!diff.n)
		return have;
	sli_axis_vec kept = {0};
	sli_axis_set_diff(X->ctx, mesh, have->unreduced.v, have->unreduced.n, diff.v,
	                  diff.n, &kept);
	sl_sharding *s = SL_NEW(&X->m->arena, sl_sharding);
	*s = *have;
	s->unreduced.n = (uint32_t)kept.n;
	s->unreduced.v = kept.n ? sli_arena_dup(&X->m->arena, kept.v, sizeof *kept.v * kept.n)
	                        : NULL;
	if (!kept.n)
		s->reduction = SL_RED_SUM;
	SL_VEC_FREE(kept);
	sl_value *v = user->operands[i];
	sl_op *ar = new_all_reduce(X->m, v, diff.v, (uint32_t)diff.n, have->reduction, s,
	                           v->def ? v->def->loc : user->loc);
	SL_VEC_FREE(diff);
	sli_xr_place(ar, at, b);
	user->operands[i] = &ar->results[0];
	return s;
}

/*
 * Brings operand i of user to `to` (NULL: closed, replicated): first the
 * all-reduce of unreduced axes `to` does not keep, then, in the full
 * version, a reshard when the shardings are not equivalent.  Inserted
 * right after the operand's definition when `after_def`, else right
 * before user.
 */
static void
reshard_operand(xr *X, sl_op *user, uint32_t i, const sl_sharding *to,
                bool after_def, bool full)
{
	sl_value *v = user->operands[i];
	sl_op *at = user;
	sl_block *b = user->parent;
	if (after_def)
		after_value(v, &at, &b);
	const sl_sharding *have = sharding_of(X->m, v);
	have = reduce_unreduced(X, user, i, have, to, at, b);
	have = sli_xr_make_unreduced(X->m, user, i, have, to, at, b);
	if (!full || equivalent(have, to))
		return;
	if (!to)
		to = closed_like(X->m, have->mesh_name, have->mesh, have->rank);
	v = user->operands[i];
	if (after_def)
		after_value(v, &at, &b);
	sl_op *rs = new_reshard(X->m, v, to, v->def ? v->def->loc : user->loc);
	sli_xr_place(rs, at, b);
	user->operands[i] = &rs->results[0];
}

/* All-reduces op's operands over the unreduced axes its first result
 * does not keep (Shardy assumes all results have the same ones); sh holds
 * the shardings of op's operands, then of its results, and gets those of
 * the new operands. */
static void
reduce_operands(xr *X, sl_op *op, const sl_sharding **sh)
{
	if (!op->nresults)
		return;
	for (uint32_t i = 0; i < op->noperands; i++)
		sh[i] = reduce_unreduced(X, op, i, sh[i], sh[op->noperands], op, op->parent);
}

/* ---- ops without a rule: returns, data-flow ops, calls ---- */

static void
fix_return(xr *X, sl_op *func)
{
	sl_block *body = sli_func_body(func);
	sl_op *ret = body ? body->last : NULL;
	if (!ret || ret->kind != SL_OP_RETURN)
		return;
	for (uint32_t i = 0; i < ret->noperands; i++)
		reshard_operand(X, ret, i, sli_func_res_sharding(func, i), false, X->full);
}

/* Reshards every source of result i's edge to `owner`. */
static void
fix_result_edge(xr *X, sl_op *op, uint32_t i, const sl_sharding *owner, bool full)
{
	if ((op->kind == SL_OP_WHILE || op->kind == SL_OP_OPTIMIZATION_BARRIER) &&
	    i < op->noperands)
		reshard_operand(X, op, i, owner, true, full);
	for (uint32_t r = 0; r < op->nregions; r++) {
		if (op->kind == SL_OP_WHILE && r == 0)
			continue;	/* the condition yields no edge source */
		for (sl_block *b = op->regions[r].first; b; b = b->next) {
			sl_op *term = b->last;
			if (term && i < term->noperands)
				reshard_operand(X, term, i, owner, true, full);
		}
	}
}

/*
 * The sources of a result edge get the result's sharding (inside a manual
 * computation, without its manual axes); the operands of a named or
 * manual computation get the sharding their body argument has.
 */
static void
fix_data_flow(xr *X, sl_op *op, bool full)
{
	bool comp = op->kind == SL_OP_SDY_NAMED_COMPUTATION ||
	            op->kind == SL_OP_SDY_MANUAL_COMPUTATION;
	for (uint32_t i = 0; i < op->nresults; i++) {
		const sl_sharding *owner = sli_result_sharding(op, i);
		if (op->kind == SL_OP_SDY_MANUAL_COMPUTATION && owner)
			owner = sli_sharding_erase_manual(X->m, op, owner);
		fix_result_edge(X, op, i, owner, full);
	}
	for (uint32_t i = 0; comp && i < op->noperands; i++)
		reshard_operand(X, op, i, sli_comp_in_sharding(op, i), true, full);
}

static void
fix_call(xr *X, sl_op *call)
{
	/* a composite is a call of its decomposition (composites.c) */
	sl_op *f = call->kind == SL_OP_CALL ? sli_call_func(X->m, call)
	                                    : sli_composite_func(X->m, call);
	if (!f)
		return;
	const sl_sharding *any = NULL;
	for (uint32_t i = 0; i < call->noperands && !any; i++)
		any = sli_func_arg_sharding(f, i);
	sl_sym mesh_name = 0;
	sl_mesh *mesh = NULL;
	if (!any) {
		for (uint32_t i = 0; i < call->noperands && !mesh_name && !mesh; i++) {
			const sl_sharding *s = sharding_of(X->m, call->operands[i]);
			const sl_mesh *ms = s ? sli_sharding_mesh_at(X->m, call, s) : NULL;
			if (ms && !sli_mesh_is_maximal(ms)) {
				mesh_name = s->mesh_name;
				mesh = s->mesh;
			}
		}
		if (!mesh_name && !mesh)
			return;
	}
	for (uint32_t i = 0; i < call->noperands; i++) {
		const sl_sharding *to = any ? sli_func_arg_sharding(f, i) : NULL;
		if (!to)
			to = closed_like(X->m, any ? any->mesh_name : mesh_name,
			                 any ? any->mesh : mesh, sli_value_rank(call->operands[i]));
		reshard_operand(X, call, i, to, true, true);
	}
}

/* ---- ops with a rule ---- */

/*
 * Applies plan to op: operand reshards, then all-reduces, then result
 * reshards; the later users of a result read the last of its chain.
 */
static void
apply_plan(xr *X, sl_op *op, const sli_xr_plan *plan)
{
	sl_module *m = X->m;
	for (uint32_t i = 0; i < plan->nin; i++) {
		if (!plan->in_to[i])
			continue;
		sl_op *rs = new_reshard(m, op->operands[i], plan->in_to[i], op->loc);
		sli_op_insert_before(op, rs);
		op->operands[i] = &rs->results[0];
	}
	sl_op *next = op->next;
	sl_block *b = op->parent;
	sl_op **rs = SL_NEWN(&X->scratch, sl_op *, op->nresults + 1);
	for (uint32_t j = 0; j < plan->nout && j < op->nresults; j++) {
		if (!plan->out_as[j])
			continue;
		sl_value *r = &op->results[j];
		const sl_sharding *was = sli_result_sharding(op, j);
		if (!was)
			was = closed_like(m, plan->mesh_name, plan->inline_mesh, sli_value_rank(r));
		rs[j] = new_reshard(m, r, was, op->loc);
		sli_xr_place(rs[j], next, b);
		sli_vmap_set(&X->subst, r, &rs[j]->results[0]);
		sli_result_set_sharding(m, op, j, plan->out_as[j]);
	}
	if (!plan->all_reduce.n)
		return;
	next = op->next;
	for (uint32_t j = 0; j < op->nresults; j++) {
		sl_value *r = &op->results[j];
		const sl_sharding *s = sli_result_sharding(op, j);
		if (!s)
			s = closed_like(m, plan->mesh_name, plan->inline_mesh, sli_value_rank(r));
		sl_op *ar = new_all_reduce(m, r, plan->all_reduce.v, plan->all_reduce.n,
		                           SL_RED_SUM, s, op->loc);
		sli_xr_place(ar, next, b);
		if (rs[j])
			rs[j]->operands[0] = &ar->results[0];
		else
			sli_vmap_set(&X->subst, r, &ar->results[0]);
	}
}

static bool
full_for(const xr *X, const sl_op *op)
{
	if (X->full)
		return true;
	if (op->kind != SL_OP_CONCATENATE || !op->nresults)
		return false;
	const sl_sharding *rs = sli_result_sharding(op, 0);
	for (uint32_t i = 0; i < op->noperands; i++) {
		const sl_sharding *s = sli_value_sharding(op->operands[i]);
		if (!(s == rs || (s && rs && sli_sharding_equal(s, rs))))
			return true;
	}
	return false;
}

/* sh: the shardings of op's operands, then of its results. */
static int
fix_ruled(xr *X, sl_op *op, const sl_sharding **sh, bool full)
{
	sli_xr_plan plan;
	int rc = sli_xr_memo_plan(&X->memo, X->m, op, sh, sh + op->noperands, full,
	                          &X->ropts, &X->scratch, &X->m->arena, &plan);
	if (rc > 0)
		apply_plan(X, op, &plan);
	return rc < 0 ? -1 : 0;
}

static bool
is_terminator(const sl_op *op)
{
	return op->kind != SL_OP_UNKNOWN && (sli_op_info[op->kind].traits & T_TERM);
}

/*
 * Whether a result sharding of res[0..n) may be on a maximal mesh: one
 * names a mesh while the module has maximal ones, or has an inline mesh
 * (the look-up of each mesh is saved on the usual op).
 */
static bool
maybe_single_device(const xr *X, const sl_sharding *const *res, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++)
		if (res[j] && (X->named_maximal || !res[j]->mesh_name))
			return true;
	return false;
}

static int
fix_op(xr *X, sl_op *op)
{
	for (uint32_t i = 0; X->subst.n && i < op->noperands; i++) {
		sl_value *to;
		while ((to = sli_vmap_get(&X->subst, op->operands[i])))
			op->operands[i] = to;
	}
	if (is_terminator(op))
		return 0;
	bool full = full_for(X, op);
	if (sli_is_data_flow_op(op)) {
		fix_data_flow(X, op, full);
		return 0;
	}
	if (op->kind == SL_OP_CALL || op->kind == SL_OP_COMPOSITE) {
		fix_call(X, op);
		return 0;
	}
	if (op->kind == SL_OP_SDY_RESHARD &&
	    sli_xr_reshard_to_unreduced(X->m, op, sharding_of(X->m, op->operands[0]), &X->subst))
		return 0;
	/* the shardings are read once: operands, then results */
	const sl_sharding **sh = SL_NEWN(&X->scratch, const sl_sharding *,
	                                 op->noperands + op->nresults + 1);
	for (uint32_t i = 0; i < op->noperands; i++)
		sh[i] = sharding_of(X->m, op->operands[i]);
	for (uint32_t j = 0; j < op->nresults; j++)
		sh[op->noperands + j] = sli_result_sharding(op, j);
	if (full && maybe_single_device(X, sh + op->noperands, op->nresults) &&
	    sli_xr_single_device(X->m, op, sharding_of, &X->subst))
		return 0;
	reduce_operands(X, op, sh);
	return fix_ruled(X, op, sh, full);
}

/* A sharding on a maximal mesh (one device). */
static bool
single_device(const xr *X, const sl_op *at, const sl_sharding *s)
{
	const sl_mesh *ms = s ? sli_sharding_mesh_at(X->m, at, s) : NULL;
	return ms && sli_mesh_is_maximal(ms);
}

/* Function arguments and results may not live on one device. */
static int
check_io(xr *X, sl_op *func)
{
	sl_block *body = sli_func_body(func);
	for (uint32_t i = 0; body && i < body->nargs; i++) {
		if (single_device(X, func, sli_func_arg_sharding(func, i))) {
			sli_error(X->ctx, func->loc, "function argument %u cannot have a "
			          "single-device (maximal) sharding attribute", i);
			return -1;
		}
	}
	for (uint32_t i = 0; i < sli_func_nresults(func); i++) {
		if (single_device(X, func, sli_func_res_sharding(func, i))) {
			sli_error(X->ctx, func->loc, "function result %u cannot have a "
			          "single-device (maximal) sharding attribute", i);
			return -1;
		}
	}
	return 0;
}

static int
fix_func(xr *X, sl_op *func)
{
	sli_opvec ops = {0};
	int rc = 0;
	if (check_io(X, func) < 0)
		return -1;
	sli_collect_postorder(func, &ops);
	for (size_t i = 0; i < ops.n && rc == 0; i++) {
		rc = fix_op(X, ops.v[i]);
		/* freed now and then: a reset per op costs a malloc per op */
		if (X->scratch.total > SCRATCH_KEEP)
			sli_arena_reset(&X->scratch);
	}
	SL_VEC_FREE(ops);
	if (rc == 0)
		fix_return(X, func);
	return rc;
}

int
sli_pass_insert_explicit_reshards(sl_module *m, const sli_pass_opts *opts)
{
	xr X;
	int rc = 0;
	memset(&X, 0, sizeof X);
	X.m = m;
	X.ctx = m->ctx;
	X.full = opts->xr.full;
	sli_vmap_init(&X.subst);
	sli_xr_memo_init(&X.memo);
	sli_arena_init(&X.scratch);
	sli_arena_init(&X.rules);
	X.ropts.arena = &X.rules;
	for (sl_op *op = sli_region_entry(&m->top->regions[0])->first; op; op = op->next) {
		const sl_mesh *ms = op->kind == SL_OP_SDY_MESH ? sli_mesh_op_mesh(op) : NULL;
		X.named_maximal |= ms && sli_mesh_is_maximal(ms);
	}
	for (sl_op *op = sli_region_entry(&m->top->regions[0])->first; op && rc == 0;
	     op = op->next)
		if (op->kind == SL_OP_FUNC)
			rc = fix_func(&X, op);
	sli_rule_opts_fini(&X.ropts);
	sli_arena_fini(&X.scratch);
	sli_arena_fini(&X.rules);
	sli_vmap_fini(&X.subst);
	sli_xr_memo_fini(&X.memo);
	return rc < 0 ? -1 : 0;
}

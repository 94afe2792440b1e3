/*
 * verify_unreduced_axes.c - -sdy-verify-unreduced-axes (sdy_export_passes.md):
 * checks that no op turns unreduced axes into reduced ones except the
 * blessed ones (sdy.reshard, sdy.sharding_constraint), changing nothing.
 * Each function is walked in post-order and its walk stops at its first
 * error; the pass fails if any function has one.  Values are seen through
 * propagation barriers, and an operand made by a blessed op counts as
 * having no sharding.  Per op:
 *
 *   sdy.reshard, sdy.sharding_constraint   nothing more (the verifier has
 *                                          checked them after parsing)
 *   stablehlo.reduce                       transition (spec 4.10) from the
 *                                          inputs to the results, new axes
 *                                          with the body's reduction
 *   stablehlo.dot, dot_general             new axes with sum
 *   sdy.all_reduce, sdy.reduce_scatter     the operand must be sharded
 *   stablehlo.all_reduce, reduce_scatter   dropped axes with the body's
 *                                          reduction, no new ones
 *   func.call                              operand i and callee argument i,
 *                                          callee result i and result i have
 *                                          the same unreduced axes
 *   a return (func.return, sdy.return,     operand i has the unreduced axes of
 *   stablehlo.return)                      the function's (or the parent's)
 *                                          result i, if that has a sharding
 *   any other op                           new axes with sum, none dropped
 *
 * The body's reduction is that of the ops (all stablehlo.add, maximum or
 * minimum) defining the operands of its stablehlo.return, else none.  A
 * manual computation's result is seen without its manual axes by its
 * body's return.  Inferred where the cases leave it open: ops inside
 * nested modules are not walked, and a call to a function that does not
 * exist is not checked.
 */
#include "passes/pass.h"
#include "passes/passutil.h"
#include "ir/axis.h"
#include "verify/verify.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The value v stands for, through propagation barriers. */
static const sl_value *
through_barriers(const sl_value *v)
{
	while (v->def && v->def->kind == SL_OP_SDY_PROPAGATION_BARRIER && v->def->noperands == 1)
		v = v->def->operands[0];
	return v;
}

static bool
made_by_blessed(const sl_value *v)
{
	const sl_op *d = through_barriers(v)->def;
	return d && (d->kind == SL_OP_SDY_RESHARD || d->kind == SL_OP_SDY_SHARDING_CONSTRAINT);
}

static const sl_sharding *
sharding_of(sl_module *m, const sl_value *v)
{
	return sli_value_sharding_seen(m, through_barriers(v));
}

/* The sharding operand v brings to a transition: none if blessed. */
static const sl_sharding *
operand_sharding(sl_module *m, const sl_value *v)
{
	return made_by_blessed(v) ? NULL : sharding_of(m, v);
}

/* The reduction of a reducer body (see the head comment), or SLI_VERIFY_NO_OP. */
static int
body_reduction(const sl_op *op)
{
	const sl_block *b = op->nregions ? op->regions[0].first : NULL;
	const sl_op *ret = b ? b->last : NULL;
	int red = SLI_VERIFY_NO_OP;
	if (!ret || ret->kind != SL_OP_SHLO_RETURN || ret->noperands == 0)
		return SLI_VERIFY_NO_OP;
	for (uint32_t i = 0; i < ret->noperands; i++) {
		const sl_op *d = ret->operands[i]->def;
		int r = !d ? SLI_VERIFY_NO_OP :
		        d->kind == SL_OP_ADD ? SL_RED_SUM :
		        d->kind == SL_OP_MAXIMUM ? SL_RED_MAX :
		        d->kind == SL_OP_MINIMUM ? SL_RED_MIN : SLI_VERIFY_NO_OP;
		if (r == SLI_VERIFY_NO_OP || (red != SLI_VERIFY_NO_OP && r != red))
			return SLI_VERIFY_NO_OP;
		red = r;
	}
	return red;
}

/* The transition of op from its first `nin` operands to its results. */
static int
check_op(sl_module *m, sl_op *op, uint32_t nin, int intro, int removal)
{
	const sl_sharding **src = sli_xcalloc(nin + 1, sizeof *src);
	const sl_sharding **tgt = sli_xcalloc(op->nresults + 1, sizeof *tgt);
	for (uint32_t i = 0; i < nin; i++)
		src[i] = operand_sharding(m, op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++)
		tgt[i] = sharding_of(m, &op->results[i]);
	int rc = sli_verify_unreduced_transition(m, op, src, nin, tgt, op->nresults, intro,
	                                         removal);
	free(src);
	free(tgt);
	return rc;
}

/* The stablehlo collectives: from operand 0 to result 0. */
static int
check_collective(sl_module *m, sl_op *op)
{
	if (!op->noperands || !op->nresults)
		return 0;
	const sl_sharding *src = sharding_of(m, op->operands[0]);
	const sl_sharding *tgt = sharding_of(m, &op->results[0]);
	if (!src && !tgt)
		return 0;
	return sli_verify_unreduced_transition(m, op, &src, 1, &tgt, 1, SLI_VERIFY_NO_OP,
	                                       body_reduction(op));
}

static bool
has_axis(const sl_axis_list *l, const sl_axis_ref *r)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (sli_axis_equal(&l->v[i], r))
			return true;
	return false;
}

typedef SL_VEC(const char *) namevec;

/* Appends to names, once each, the names of the axes of a that b lacks. */
static void
missing_names(sl_module *m, const sl_axis_list *a, const sl_axis_list *b, namevec *names)
{
	for (uint32_t i = 0; i < a->n; i++) {
		const char *name = sl_sym_str(m->ctx, a->v[i].name);
		bool seen = false;
		if (has_axis(b, &a->v[i]))
			continue;
		for (size_t k = 0; k < names->n && !seen; k++)
			seen = strcmp(names->v[k], name) == 0;
		if (!seen)
			SL_VEC_PUSH(*names, name);
	}
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The unreduced axes of a and b (NULL: none) as sets: 0 if equal, else -1
 * after "has unreduced axes mismatch for 'x, y<suffix>" on op, naming
 * every axis on one side only, sorted.
 */
static int
check_equal(sl_module *m, sl_op *op, const sl_sharding *a, const sl_sharding *b,
            const char *suffix, uint32_t index, const char *tail)
{
	static const sl_axis_list none;
	const sl_axis_list *ua = a ? &a->unreduced : &none, *ub = b ? &b->unreduced : &none;
	namevec names = {0};
	missing_names(m, ua, ub, &names);
	missing_names(m, ub, ua, &names);
	if (!names.n)
		return 0;
	qsort(names.v, names.n, sizeof *names.v, cmp_names);
	sli_buf msg;
	sli_buf_init(&msg);
	sli_buf_printf(&msg, "'%s' op has unreduced axes mismatch for '",
	               sl_sym_str(m->ctx, op->name));
	for (size_t k = 0; k < names.n; k++)
		sli_buf_printf(&msg, "%s%s", k ? ", " : "", names.v[k]);
	sli_buf_printf(&msg, "' at %s %u%s", suffix, index, tail);
	sli_error(m->ctx, op->loc, "%s", sli_buf_cstr(&msg));
	sli_buf_fini(&msg);
	SL_VEC_FREE(names);
	return -1;
}

static int
check_call(sl_module *m, sl_op *call)
{
	sl_op *f = sli_call_func(m, call);
	sl_block *body = f ? sli_func_body(f) : NULL;
	if (!f)
		return 0;
	for (uint32_t i = 0; i < call->noperands && (!body || i < body->nargs); i++)
		if (!made_by_blessed(call->operands[i]) &&
		    check_equal(m, call, sharding_of(m, call->operands[i]),
		                sli_func_arg_sharding(f, i), "call argument", i, "."))
			return -1;
	for (uint32_t i = 0; i < call->nresults && i < sli_func_nresults(f); i++)
		if (check_equal(m, call, sli_func_res_sharding(f, i),
		                sharding_of(m, &call->results[i]), "call result", i, "."))
			return -1;
	return 0;
}

static const char blessed_tail[] = " without a blessed operation (e.g., sdy.reshard). "
	"This is an invalid transition from unreduced to reduced.";

/* A return against the results of its function or parent op. */
static int
check_return(sl_module *m, sl_op *ret)
{
	sl_op *parent = ret->parent && ret->parent->parent ? ret->parent->parent->parent : NULL;
	if (!parent)
		return 0;
	for (uint32_t i = 0; i < ret->noperands; i++) {
		const sl_sharding *want;
		if (parent->kind == SL_OP_FUNC)
			want = i < sli_func_nresults(parent) ? sli_func_res_sharding(parent, i) : NULL;
		else if (i < parent->nresults)
			want = sharding_of(m, &parent->results[i]);
		else
			break;
		if (want && parent->kind == SL_OP_SDY_MANUAL_COMPUTATION)
			want = sli_sharding_erase_manual(m, parent, want);
		if (!want || made_by_blessed(ret->operands[i]))
			continue;
		if (check_equal(m, ret, sharding_of(m, ret->operands[i]), want, "return value", i,
		                blessed_tail))
			return -1;
	}
	return 0;
}

static bool
is_return(const sl_op *op)
{
	return op->kind == SL_OP_RETURN || op->kind == SL_OP_SDY_RETURN ||
	       op->kind == SL_OP_SHLO_RETURN;
}

static int
check_one(sl_module *m, sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_SHARDING_CONSTRAINT:
		return 0;
	case SL_OP_REDUCE:
		/* the inputs are the first half of the operands, the inits the rest */
		return check_op(m, op, op->noperands / 2, body_reduction(op), SLI_VERIFY_NO_OP);
	case SL_OP_DOT:
	case SL_OP_DOT_GENERAL:
		return check_op(m, op, op->noperands, SL_RED_SUM, SLI_VERIFY_NO_OP);
	case SL_OP_SDY_ALL_REDUCE:
	case SL_OP_SDY_REDUCE_SCATTER:
		if (op->noperands && !sharding_of(m, op->operands[0])) {
			sli_error(m->ctx, op->loc, "'%s' op operand must be sharded.",
			          sl_sym_str(m->ctx, op->name));
			return -1;
		}
		return 0;
	case SL_OP_ALL_REDUCE:
	case SL_OP_REDUCE_SCATTER:
		return check_collective(m, op);
	case SL_OP_CALL:
		return check_call(m, op);
	default:
		break;
	}
	if (is_return(op))
		return check_return(m, op);
	if (op->kind < SL_OP__COUNT && (sli_op_info[op->kind].traits & T_TERM))
		return 0;
	return check_op(m, op, op->noperands, SL_RED_SUM, SLI_VERIFY_NO_OP);
}

int
sli_pass_verify_unreduced_axes(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_block *body = sli_module_body(m);
	sli_opvec ops = {0};
	int rc = 0;
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		ops.n = 0;
		sli_collect_postorder(f, &ops);
		for (size_t i = 0; i < ops.n; i++)
			if (check_one(m, ops.v[i])) {
				rc = -1;
				break;
			}
	}
	SL_VEC_FREE(ops);
	return rc;
}

/*
 * apply_sharding_constraints.c - -sdy-apply-sharding-constraints
 * (spec/import-passes.md section 2.9): a closed sharding constraint (or a
 * manual computation's in-sharding) becomes the sharding of its input
 * when nothing else constrains that input differently; on data-flow edge
 * targets the constraint is moved next to the input instead.  A chain of
 * single-use constraints also takes over the later uses of its input.
 * With debug-propagation-edge-sharding, each constraint applied to its
 * input records a step on the constraint op (spec/propagation.md 8.4.2),
 * numbered after the largest step already in the module.
 */
#include "passes/pass.h"
#include "passes/passutil.h"
#include "ir/axis.h"

#include <stdlib.h>
#include <string.h>

/* The op of a region that holds block argument v, or NULL. */
static sl_op *
arg_owner(const sl_value *v)
{
	if (v->def || !v->block || !v->block->parent)
		return NULL;
	return v->block->parent->parent;
}

static sl_op *
edge_user(const sl_value *v)
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

/*
 * Where the sharding of a data-flow target x lives: *edge is its
 * sdy.data_flow_edge (if any), *owner the owner value.  False when x is
 * no data-flow target.
 */
static bool
flow_target(sl_value *x, sl_op **edge, sl_value **owner)
{
	*edge = NULL;
	*owner = NULL;
	if (x->def) {
		if (x->def->kind == SL_OP_SDY_DATA_FLOW_EDGE) {
			*edge = x->def;
			return true;
		}
		switch (x->def->kind) {
		case SL_OP_WHILE:
		case SL_OP_CASE:
		case SL_OP_OPTIMIZATION_BARRIER:
			*owner = x;
			*edge = edge_user(x);
			return true;
		default:
			return false;
		}
	}
	sl_op *p = arg_owner(x);
	if (!p)
		return false;
	switch (p->kind) {
	case SL_OP_WHILE:
		if (x->index >= p->nresults)
			return false;
		*owner = &p->results[x->index];
		*edge = edge_user(*owner);
		return true;
	case SL_OP_SDY_NAMED_COMPUTATION:
	case SL_OP_SDY_MANUAL_COMPUTATION:
		*owner = x;
		*edge = edge_user(x);
		return true;
	default:
		return false;
	}
}

/* The current sharding of x, as Shardy's getSharding sees it. */
static sl_sharding *
current_sharding(sl_value *x)
{
	if (x->def)
		return sli_value_sharding(x);
	sl_op *p = arg_owner(x);
	if (p && p->kind == SL_OP_FUNC)
		return sli_value_sharding(x);
	sl_op *edge;
	sl_value *owner;
	if (!flow_target(x, &edge, &owner))
		return NULL;
	if (edge)
		return sli_result_sharding(edge, 0);
	if (owner && owner->def)
		return sli_result_sharding(owner->def, owner->index);
	return NULL;
}

static bool
can_attach(const sl_value *x)
{
	if (x->def)
		return true;
	sl_op *p = arg_owner(x);
	return p && (p->kind == SL_OP_FUNC || p->kind == SL_OP_WHILE ||
	             p->kind == SL_OP_SDY_NAMED_COMPUTATION ||
	             p->kind == SL_OP_SDY_MANUAL_COMPUTATION);
}

static bool
any_open(const sl_sharding *s)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (s->dims[d].open)
			return true;
	return false;
}

static sl_sharding *
constraint_sharding(const sl_op *op)
{
	return sli_result_sharding(op, 0);
}

/* Whether a user of x other than a constraint with sharding s, or a
 * manual computation taking x with an in-sharding other than s. */
static bool
differently_constrained(sl_value *x, const sl_sharding *s)
{
	sli_usevec u = {0};
	sli_value_uses(x, &u);
	bool diff = false;
	for (size_t i = 0; i < u.n && !diff; i++) {
		sl_op *user = u.v[i].user;
		if (user->kind == SL_OP_SDY_SHARDING_CONSTRAINT) {
			sl_sharding *t = constraint_sharding(user);
			diff = !t || !sli_sharding_equal(t, s);
		} else if (user->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
			sl_sharding *t = sli_spv_get(user, SLS_in_shardings, u.v[i].index);
			diff = !t || !sli_sharding_equal(t, s);
		}
	}
	SL_VEC_FREE(u);
	return diff;
}

/* Moves op right after the definition of x (block start for an argument). */
static void
move_after_def(sl_op *op, sl_value *x)
{
	sli_op_erase(op);
	if (x->def)
		sli_op_insert_after(x->def, op);
	else
		sli_op_prepend(x->block, op);
}

/* Sets s's unreduced axes on the edge (or owner) of x. */
static void
set_unreduced(sl_module *m, sl_value *x, const sl_sharding *s)
{
	sl_op *edge;
	sl_value *owner;
	flow_target(x, &edge, &owner);
	sl_sharding *cur = edge ? sli_result_sharding(edge, 0) :
	                   owner && owner->def ? sli_result_sharding(owner->def, owner->index) : NULL;
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	if (cur)
		*r = *cur;
	else
		*r = *sli_sharding_open(m, s->mesh_name, s->mesh, sli_value_rank(x));
	r->unreduced = s->unreduced;
	r->reduction = s->reduction;
	if (edge)
		sli_result_set_sharding(m, edge, 0, r);
	else if (owner && owner->def)
		sli_result_set_sharding(m, owner->def, owner->index, r);
}

typedef struct applier {
	sl_module *m;
	bool debug_edges;
	int64_t step;		/* next step number */
} applier;


/*
 * The step of constraint c writing s onto its unsharded input: every
 * dimension axis of s goes from result-0 to operand-0, one entry per axis
 * sorted by axis, appended to c's sdy.propagation_edges.
 */
static void
record_step(applier *A, sl_op *c, const sl_sharding *s)
{
	sl_module *m = A->m;
	uint32_t n = 0;
	for (uint32_t d = 0; d < s->rank; d++)
		n += s->dims[d].axes.n;
	if (!n)
		return;
	sl_axis_ref *axes = SL_NEWN(&m->arena, sl_axis_ref, n);
	n = 0;
	for (uint32_t d = 0; d < s->rank; d++)
		for (uint32_t k = 0; k < s->dims[d].axes.n; k++)
			axes[n++] = s->dims[d].axes.v[k];
	/* insertion sort: a handful of axes */
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && sli_axis_less(m->ctx, &axes[j], &axes[j - 1]); j--) {
			sl_axis_ref t = axes[j];
			axes[j] = axes[j - 1];
			axes[j - 1] = t;
		}
	sl_edge_ref *tgt = SL_NEW(&m->arena, sl_edge_ref);
	tgt->result = false;
	tgt->index = 0;
	sl_edge_step st = {A->step++, SL_NEWN(&m->arena, sl_edge_entry, n), n};
	for (uint32_t i = 0; i < n; i++) {
		st.entries[i].axis = axes[i];
		st.entries[i].source.result = true;
		st.entries[i].source.index = 0;
		st.entries[i].targets = tgt;
		st.entries[i].ntargets = 1;
	}
	sl_attr *old = sli_op_attr(c, SLS_sdy_propagation_edges);
	uint32_t nold = old && old->kind == SL_ATTR_PROP_EDGES ? old->u.edges.n : 0;
	sl_attr *a = sli_attr_new(m, SL_ATTR_PROP_EDGES);
	a->u.edges.v = SL_NEWN(&m->arena, sl_edge_step, nold + 1);
	if (nold)
		memcpy(a->u.edges.v, old->u.edges.v, sizeof *a->u.edges.v * nold);
	a->u.edges.v[nold] = st;
	a->u.edges.n = nold + 1;
	sli_op_set_attr(m, c, SLS_sdy_propagation_edges, a);
}

/* The largest step of any sdy.propagation_edges in the module, plus 1. */
static int
max_step(sl_op *op, void *ud)
{
	int64_t *next = ud;
	sl_attr *a = sli_op_attr(op, SLS_sdy_propagation_edges);
	if (a && a->kind == SL_ATTR_PROP_EDGES)
		for (uint32_t k = 0; k < a->u.edges.n; k++)
			if (a->u.edges.v[k].step >= *next)
				*next = a->u.edges.v[k].step + 1;
	return 0;
}

/*
 * Applies sharding s of constraint c (or of in-sharding `index` of manual
 * computation mc, when c is NULL) to its input x.
 */
static void
apply(applier *A, sl_value *x, const sl_sharding *s, sl_op *c, sl_op *mc)
{
	sl_module *m = A->m;
	if (!can_attach(x) || current_sharding(x) || any_open(s) ||
	    differently_constrained(x, s))
		return;
	sl_op *edge;
	sl_value *owner;
	if (flow_target(x, &edge, &owner)) {
		if (!c) {
			c = sli_op_create(m, SL_OP_SDY_SHARDING_CONSTRAINT, &x, 1, &x->type, 1, 0);
			c->loc = mc->loc;
			sli_op_set_prop(m, c, SLS_sharding, sli_attr_sharding(m, s));
		}
		move_after_def(c, x);
		sli_value_replace_uses(x, &c->results[0], c);
		if (s->unreduced.n)
			set_unreduced(m, x, s);
		return;
	}
	sli_value_set_sharding(m, x, s);
	if (c && A->debug_edges)
		record_step(A, c, s);
}

/* Users of v that are sharding constraints or manual computations,
 * other than `except`. */
static bool
has_constraint_user(const sl_value *v, const sl_op *except)
{
	sli_usevec u = {0};
	sli_value_uses(v, &u);
	bool found = false;
	for (size_t i = 0; i < u.n && !found; i++)
		found = u.v[i].user != except &&
		        (u.v[i].user->kind == SL_OP_SDY_SHARDING_CONSTRAINT ||
		         u.v[i].user->kind == SL_OP_SDY_MANUAL_COMPUTATION);
	SL_VEC_FREE(u);
	return found;
}

static void
rewrite_chain(sl_op *c)
{
	sl_value *x = c->operands[0];
	if ((x->def && x->def->kind == SL_OP_SDY_SHARDING_CONSTRAINT) ||
	    current_sharding(x) || has_constraint_user(x, c))
		return;
	sl_op *tail = c;
	size_t len = 1;
	for (;;) {
		sli_usevec u = {0};
		sli_value_uses(&tail->results[0], &u);
		sl_op *next = u.n == 1 && u.v[0].user->kind == SL_OP_SDY_SHARDING_CONSTRAINT ?
		              u.v[0].user : NULL;
		SL_VEC_FREE(u);
		if (!next)
			break;
		tail = next;
		len++;
	}
	if (len < 2 || has_constraint_user(&tail->results[0], NULL))
		return;
	for (sl_op *op = tail->next; op; op = op->next) {
		if (op == c || op->kind == SL_OP_RETURN)
			continue;
		for (uint32_t i = 0; i < op->noperands; i++)
			if (op->operands[i] == x)
				op->operands[i] = &tail->results[0];
	}
}

int
sli_pass_apply_sharding_constraints(sl_module *m, const sli_pass_opts *opts)
{
	applier A = {m, false, 0};
	A.debug_edges = sli_pass_opt_bool(opts, "debug-propagation-edge-sharding", false);
	if (A.debug_edges)
		sli_walk(m->top, max_step, &A.step);
	sli_opvec ops = {0};
	sli_collect_postorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		if (op->kind == SL_OP_SDY_SHARDING_CONSTRAINT && op->noperands == 1) {
			sl_sharding *s = constraint_sharding(op);
			rewrite_chain(op);
			if (s)
				apply(&A, op->operands[0], s, op, NULL);
		} else if (op->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
			for (uint32_t k = 0; k < op->noperands; k++) {
				sl_sharding *s = sli_spv_get(op, SLS_in_shardings, k);
				if (s)
					apply(&A, op->operands[k], s, NULL, op);
			}
		}
	}
	SL_VEC_FREE(ops);
	return 0;
}

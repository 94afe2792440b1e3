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
 * Use lists are built once and kept current through the few rewrites the
 * pass makes, so that each constraint costs the size of its uses.
 */
#include "passes/pass.h"
#include "passes/passutil.h"
#include "ir/axis.h"

#include <stdlib.h>
#include <string.h>

typedef SL_VEC(sli_usevec) usevecs;

typedef struct applier {
	sl_module *m;
	bool debug_edges;
	int64_t step;		/* next step number */
	SL_VEC(sl_value *) values;	/* value->id is the position */
	usevecs uses;		/* per value id: its uses, textual order at first */
} applier;

static int
number_op(sl_op *op, void *ud)
{
	applier *A = ud;
	for (uint32_t i = 0; i < op->nresults; i++) {
		op->results[i].id = (uint32_t)A->values.n;
		SL_VEC_PUSH(A->values, &op->results[i]);
	}
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (uint32_t i = 0; i < b->nargs; i++) {
				b->args[i].id = (uint32_t)A->values.n;
				SL_VEC_PUSH(A->values, &b->args[i]);
			}
	return 0;
}

static bool
known(const applier *A, const sl_value *v)
{
	return v->id < A->values.n && A->values.v[v->id] == v;
}

/* A value created by the pass gets an id and an empty use list. */
static void
add_value(applier *A, sl_value *v)
{
	v->id = (uint32_t)A->values.n;
	SL_VEC_PUSH(A->values, v);
	sli_usevec none = {0};
	SL_VEC_PUSH(A->uses, none);
}

static int
collect_uses(sl_op *op, void *ud)
{
	applier *A = ud;
	for (uint32_t i = 0; i < op->noperands; i++) {
		sl_value *v = op->operands[i];
		if (v && known(A, v)) {
			sli_use u = {op, i};
			SL_VEC_PUSH(A->uses.v[v->id], u);
		}
	}
	return 0;
}

static void
uses_init(applier *A)
{
	sli_walk(A->m->top, number_op, A);
	SL_VEC_RESERVE(A->uses, A->values.n + 1);
	memset(A->uses.v, 0, sizeof *A->uses.v * A->values.n);
	A->uses.n = A->values.n;
	sli_walk(A->m->top, collect_uses, A);
}

static void
uses_fini(applier *A)
{
	for (size_t i = 0; i < A->uses.n; i++)
		SL_VEC_FREE(A->uses.v[i]);
	SL_VEC_FREE(A->uses);
	SL_VEC_FREE(A->values);
}

static const sli_usevec *
uses_of(const applier *A, const sl_value *v)
{
	static const sli_usevec none;
	return known(A, v) ? &A->uses.v[v->id] : &none;
}

/* Operand k of user becomes `to` (was `from`); the use lists follow. */
static void
set_operand(applier *A, sl_op *user, uint32_t k, sl_value *from, sl_value *to)
{
	user->operands[k] = to;
	if (known(A, from)) {
		sli_usevec *u = &A->uses.v[from->id];
		for (size_t i = 0; i < u->n; i++)
			if (u->v[i].user == user && u->v[i].index == k) {
				memmove(&u->v[i], &u->v[i + 1], sizeof *u->v * (u->n - i - 1));
				u->n--;
				break;
			}
	}
	if (known(A, to)) {
		sli_use nu = {user, k};
		SL_VEC_PUSH(A->uses.v[to->id], nu);
	}
}

/* Every use of `from` except in `except` becomes `to`. */
static void
replace_uses(applier *A, sl_value *from, sl_value *to, const sl_op *except)
{
	if (!known(A, from))
		return;
	sli_usevec *u = &A->uses.v[from->id];
	size_t keep = 0;
	for (size_t i = 0; i < u->n; i++) {
		sli_use x = u->v[i];
		if (x.user == except) {
			u->v[keep++] = x;
			continue;
		}
		x.user->operands[x.index] = to;
		if (known(A, to))
			SL_VEC_PUSH(A->uses.v[to->id], x);
	}
	u->n = keep;
}

/* The op of a region that holds block argument v, or NULL. */
static sl_op *
arg_owner(const sl_value *v)
{
	if (v->def || !v->block || !v->block->parent)
		return NULL;
	return v->block->parent->parent;
}

static sl_op *
edge_user(const applier *A, const sl_value *v)
{
	const sli_usevec *u = uses_of(A, v);
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i].user->kind == SL_OP_SDY_DATA_FLOW_EDGE)
			return u->v[i].user;
	return NULL;
}

/*
 * Where the sharding of a data-flow target x lives: *edge is its
 * sdy.data_flow_edge (if any), *owner the owner value.  False when x is
 * no data-flow target.
 */
static bool
flow_target(const applier *A, sl_value *x, sl_op **edge, sl_value **owner)
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
			*edge = edge_user(A, x);
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
		*edge = edge_user(A, *owner);
		return true;
	case SL_OP_SDY_NAMED_COMPUTATION:
	case SL_OP_SDY_MANUAL_COMPUTATION:
		*owner = x;
		*edge = edge_user(A, x);
		return true;
	default:
		return false;
	}
}

/* The current sharding of x, as Shardy's getSharding sees it. */
static sl_sharding *
current_sharding(const applier *A, sl_value *x)
{
	if (x->def)
		return sli_value_sharding(x);
	sl_op *p = arg_owner(x);
	if (p && p->kind == SL_OP_FUNC)
		return sli_value_sharding(x);
	sl_op *edge;
	sl_value *owner;
	if (!flow_target(A, x, &edge, &owner))
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
differently_constrained(const applier *A, sl_value *x, const sl_sharding *s)
{
	const sli_usevec *u = uses_of(A, x);
	bool diff = false;
	for (size_t i = 0; i < u->n && !diff; i++) {
		sl_op *user = u->v[i].user;
		if (user->kind == SL_OP_SDY_SHARDING_CONSTRAINT) {
			sl_sharding *t = constraint_sharding(user);
			diff = !t || !sli_sharding_equal(t, s);
		} else if (user->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
			sl_sharding *t = sli_comp_in_sharding(user, u->v[i].index);
			diff = !t || !sli_sharding_equal(t, s);
		}
	}
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
set_unreduced(applier *A, sl_value *x, const sl_sharding *s)
{
	sl_module *m = A->m;
	sl_op *edge;
	sl_value *owner;
	flow_target(A, x, &edge, &owner);
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
	if (!can_attach(x) || current_sharding(A, x) || any_open(s) ||
	    differently_constrained(A, x, s))
		return;
	sl_op *edge;
	sl_value *owner;
	if (flow_target(A, x, &edge, &owner)) {
		if (!c) {
			c = sli_op_create(m, SL_OP_SDY_SHARDING_CONSTRAINT, &x, 1, &x->type, 1, 0);
			c->loc = mc->loc;
			sli_result_set_sharding(m, c, 0, s);
			add_value(A, &c->results[0]);
			if (known(A, x)) {
				sli_use u = {c, 0};
				SL_VEC_PUSH(A->uses.v[x->id], u);
			}
		}
		move_after_def(c, x);
		replace_uses(A, x, &c->results[0], c);
		if (s->unreduced.n)
			set_unreduced(A, x, s);
		return;
	}
	sli_value_set_sharding(m, x, s);
	if (c && A->debug_edges)
		record_step(A, c, s);
}

/* Users of v that are sharding constraints or manual computations,
 * other than `except`. */
static bool
has_constraint_user(const applier *A, const sl_value *v, const sl_op *except)
{
	const sli_usevec *u = uses_of(A, v);
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i].user != except &&
		    (u->v[i].user->kind == SL_OP_SDY_SHARDING_CONSTRAINT ||
		     u->v[i].user->kind == SL_OP_SDY_MANUAL_COMPUTATION))
			return true;
	return false;
}

static void
rewrite_chain(applier *A, sl_op *c)
{
	sl_value *x = c->operands[0];
	if ((x->def && x->def->kind == SL_OP_SDY_SHARDING_CONSTRAINT) ||
	    current_sharding(A, x) || has_constraint_user(A, x, c))
		return;
	sl_op *tail = c;
	size_t len = 1;
	for (;;) {
		const sli_usevec *u = uses_of(A, &tail->results[0]);
		sl_op *next = u->n == 1 && u->v[0].user->kind == SL_OP_SDY_SHARDING_CONSTRAINT ?
		              u->v[0].user : NULL;
		if (!next)
			break;
		tail = next;
		len++;
	}
	if (len < 2 || has_constraint_user(A, &tail->results[0], NULL))
		return;
	for (sl_op *op = tail->next; op; op = op->next) {
		if (op == c || op->kind == SL_OP_RETURN)
			continue;
		for (uint32_t i = 0; i < op->noperands; i++)
			if (op->operands[i] == x)
				set_operand(A, op, i, x, &tail->results[0]);
	}
}

int
sli_pass_apply_sharding_constraints(sl_module *m, const sli_pass_opts *opts)
{
	applier A;
	memset(&A, 0, sizeof A);
	A.m = m;
	A.debug_edges = opts->apply.debug_edges;
	if (A.debug_edges)
		sli_walk(m->top, max_step, &A.step);
	uses_init(&A);
	sli_opvec ops = {0};
	sli_collect_postorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		if (op->kind == SL_OP_SDY_SHARDING_CONSTRAINT && op->noperands == 1) {
			sl_sharding *s = constraint_sharding(op);
			rewrite_chain(&A, op);
			if (s)
				apply(&A, op->operands[0], s, op, NULL);
		} else if (op->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
			for (uint32_t k = 0; k < op->noperands; k++) {
				sl_sharding *s = sli_comp_in_sharding(op, k);
				if (s)
					apply(&A, op->operands[k], s, NULL, op);
			}
		}
	}
	SL_VEC_FREE(ops);
	uses_fini(&A);
	return 0;
}

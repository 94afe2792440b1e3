/*
 * check.c - the independent checker of solved modules.  It shares no code
 * with the formulation: it walks the module itself, reads shardings as
 * written (axis refs, not per-axis dims) and compares them with a record
 * taken before solving, so that a bug in the model or the decoder shows
 * up as a violated guarantee of greedy propagation.
 */
#include "solver/solve.h"

#include <stdlib.h>
#include <string.h>

#include "cost/cost.h"
#include "ir/axis.h"

typedef SL_VEC(sl_value *) valvec;

/* Every value of the module, in a fixed pre-order. */
static void
collect_block(sl_block *b, valvec *out);

static void
collect_op(sl_op *op, valvec *out)
{
	for (uint32_t i = 0; i < op->nresults; i++)
		SL_VEC_PUSH(*out, &op->results[i]);
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			collect_block(b, out);
}

static void
collect_block(sl_block *b, valvec *out)
{
	for (uint32_t i = 0; i < b->nargs; i++)
		SL_VEC_PUSH(*out, &b->args[i]);
	for (sl_op *op = b->first; op; op = op->next)
		collect_op(op, out);
}

static void
collect(sl_module *m, valvec *out)
{
	if (m->top)
		collect_op(m->top, out);
}

typedef SL_VEC(const sl_sharding *) shvec;

/* The result shardings of every function (NULL where none), in order. */
static void
collect_results(sl_module *m, shvec *out)
{
	sl_block *body = m->top && m->top->nregions ? m->top->regions[0].first : NULL;
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		for (uint32_t i = 0; i < sli_func_nresults(f); i++)
			SL_VEC_PUSH(*out, sli_func_res_sharding(f, i));
	}
}

void
sli_check_snapshot(sl_module *m, sli_check_snap *s)
{
	shvec r = {0};
	collect_results(m, &r);
	s->res = r.v;
	s->nres = r.n;
	valvec v = {0};
	collect(m, &v);
	s->n = v.n;
	s->v = sli_xcalloc(v.n + 1, sizeof *s->v);
	for (size_t i = 0; i < v.n; i++)
		s->v[i] = sli_cost_value_sharding(v.v[i]);
	SL_VEC_FREE(v);
}

void
sli_check_snap_free(sli_check_snap *s)
{
	free(s->v);
	free(s->res);
	s->v = NULL;
	s->res = NULL;
	s->n = s->nres = 0;
}

static bool
mentions(const sl_sharding *s, const sl_axis_ref *r)
{
	for (uint32_t d = 0; d < s->rank; d++)
		for (uint32_t k = 0; k < s->dims[d].axes.n; k++)
			if (sli_axis_overlaps(&s->dims[d].axes.v[k], r))
				return true;
	return false;
}

static bool
same_dims(const sl_sharding *a, const sl_sharding *b)
{
	if (a->rank != b->rank)
		return false;
	for (uint32_t d = 0; d < a->rank; d++)
		if (!sli_axis_list_equal(a->dims[d].axes.v, a->dims[d].axes.n,
		                         b->dims[d].axes.v, b->dims[d].axes.n))
			return false;
	return true;
}

/* The manual axes in force around value v (inner computations included). */
static bool
under_manual(const sl_value *v, const sl_axis_ref **axes, uint32_t *n)
{
	const sl_block *b = v->def ? v->def->parent : v->block;
	while (b && b->parent && b->parent->parent) {
		sl_op *owner = b->parent->parent;
		if (owner->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
			sl_attr *a = sli_op_get(owner, SLS_manual_axes);
			if (a && a->kind == SL_ATTR_MANUAL_AXES) {
				*axes = a->u.axes.v;
				*n = a->u.axes.n;
				return true;
			}
		}
		b = owner->parent;
	}
	return false;
}

/* The mesh of s: inline, or declared by name at the top of m (or NULL). */
static const sl_mesh *
mesh_of(sl_module *m, const sl_sharding *s)
{
	sl_block *body = m->top && m->top->nregions ? m->top->regions[0].first : NULL;
	if (s->mesh)
		return s->mesh;
	for (sl_op *op = body ? body->first : NULL; op; op = op->next) {
		if (op->kind != SL_OP_SDY_MESH || sli_op_sym_name(m, op) != s->mesh_name)
			continue;
		sl_attr *a = sli_op_get(op, SLS_mesh);
		return a && a->kind == SL_ATTR_MESH ? &a->u.mesh : NULL;
	}
	return NULL;
}

/*
 * Whether out may be on another mesh than in: only when in is on an empty
 * mesh (no axes, no device ids), which greedy propagation replaces by the
 * mesh it meets; a maximal mesh (one device id) stays.
 */
static bool
same_mesh(sl_module *m, const sl_sharding *in, const sl_sharding *out)
{
	const sl_mesh *a = mesh_of(m, in), *b = mesh_of(m, out);
	if (!in->mesh && !out->mesh && in->mesh_name == out->mesh_name)
		return true;
	if (a && b && sli_mesh_equal(a, b) && in->mesh && out->mesh)
		return true;
	return a && sli_mesh_is_empty(a);
}

/*
 * Whether b extends a at the minor end: a's refs in order, the last one
 * possibly grown into a larger sub-axis or its full axis from the same
 * start ("x":(1)2 into "x"), as greedy propagation extends open dims.
 */
static bool
extends(const sl_axis_list *a, const sl_axis_list *b)
{
	if (a->n == 0)
		return true;
	if (a->n > b->n || !sli_axis_list_equal(a->v, a->n - 1, b->v, a->n - 1))
		return false;
	return sli_axis_equal(&a->v[a->n - 1], &b->v[a->n - 1]) ||
	       sli_axis_prefix_of(&a->v[a->n - 1], &b->v[a->n - 1]);
}

/* Holds out against the user sharding in: returns the violations reported. */
static int
held(sl_module *m, sl_loc loc, const sl_sharding *in, const sl_sharding *out)
{
	sl_context *ctx = m->ctx;
	int bad = 0;
	if (in->rank != out->rank || !same_mesh(m, in, out)) {
		sli_error(ctx, loc, "check: sharding changed mesh or rank");
		return 1;
	}
	for (uint32_t d = 0; d < in->rank; d++) {
		const sl_axis_list *a = &in->dims[d].axes, *b = &out->dims[d].axes;
		bool ok = in->dims[d].open ? extends(a, b)
		          : sli_axis_list_equal(a->v, a->n, b->v, b->n);
		if (!ok) {
			sli_error(ctx, loc, "check: dimension %u of a user sharding "
			          "%s", d, in->dims[d].open ? "lost its major axes"
			                                    : "(closed) changed");
			bad++;
		}
	}
	for (uint32_t k = 0; k < in->replicated.n; k++)
		if (mentions(out, &in->replicated.v[k])) {
			sli_error(ctx, loc, "check: an explicitly replicated axis "
			          "shards the value");
			bad++;
		}
	return bad;
}

int
sli_check(sl_module *m, const sli_check_snap *before)
{
	sl_context *ctx = m->ctx;
	valvec v = {0};
	int bad = 0;

	if (sl_module_verify(m)) {
		sli_error(ctx, sli_loc_none(), "check: the solved module does not verify");
		bad++;
	}
	collect(m, &v);
	if (v.n != before->n) {
		sli_error(ctx, sli_loc_none(), "check: the module changed shape "
		          "(%zu values, %zu before)", v.n, before->n);
		SL_VEC_FREE(v);
		return bad + 1;
	}
	for (size_t i = 0; i < v.n; i++) {
		const sl_sharding *in = before->v[i];
		const sl_sharding *out = sli_cost_value_sharding(v.v[i]);
		sl_loc loc = v.v[i]->def ? v.v[i]->def->loc : sli_value_loc(v.v[i]);
		if (in && !out) {
			sli_error(ctx, loc, "check: a user sharding was dropped");
			bad++;
			continue;
		}
		if (out) {
			const sl_axis_ref *ma;
			uint32_t mn;
			if (under_manual(v.v[i], &ma, &mn))
				for (uint32_t k = 0; k < mn; k++)
					if (mentions(out, &ma[k])) {
						sli_error(ctx, loc, "check: manual axis used inside "
						          "its manual computation");
						bad++;
					}
		}
		if (!in)
			continue;
		bad += held(m, loc, in, out);
	}
	SL_VEC_FREE(v);

	/* function results: held as user shardings */
	shvec r = {0};
	collect_results(m, &r);
	if (r.n != before->nres) {
		sli_error(ctx, sli_loc_none(), "check: the function results changed");
		bad++;
	}
	for (size_t i = 0; i < r.n && i < before->nres; i++) {
		const sl_sharding *in = before->res[i], *out = r.v[i];
		if (in && !out) {
			sli_error(ctx, in->loc, "check: a result sharding was dropped");
			bad++;
		} else if (in) {
			bad += held(m, in->loc, in, out);
		}
	}
	SL_VEC_FREE(r);

	/* sharding groups: one sharding per group id */
	SL_VEC(struct { int64_t id; const sl_sharding *s; }) groups = {0};
	for (sl_op *f = m->top && m->top->nregions ? m->top->regions[0].first->first : NULL;
	     f; f = f->next) {
		if (f->kind != SL_OP_FUNC || !f->nregions)
			continue;
		for (sl_block *b = f->regions[0].first; b; b = b->next)
			for (sl_op *op = b->first; op; op = op->next) {
				if (op->kind != SL_OP_SDY_SHARDING_GROUP || !op->noperands)
					continue;
				sl_attr *g = sli_op_get(op, SLS_group_id);
				if (!g || g->kind != SL_ATTR_INT)
					continue;
				const sl_sharding *s = sli_cost_value_sharding(op->operands[0]);
				size_t k;
				for (k = 0; k < groups.n; k++)
					if (groups.v[k].id == g->u.i.v)
						break;
				if (k == groups.n) {
					SL_VEC_RESERVE(groups, groups.n + 1);
					groups.v[groups.n].id = g->u.i.v;
					groups.v[groups.n].s = s;
					groups.n++;
					continue;
				}
				const sl_sharding *t = groups.v[k].s;
				bool eq = (!s && !t) || (s && t && same_dims(s, t));
				if (!eq && (!s || !t)) {
					/* no sharding reads as fully replicated */
					const sl_sharding *x = s ? s : t;
					eq = true;
					for (uint32_t d = 0; d < x->rank; d++)
						eq &= x->dims[d].axes.n == 0;
				}
				if (!eq) {
					sli_error(ctx, op->loc, "check: sharding group %lld has "
					          "members with different shardings",
					          (long long)g->u.i.v);
					bad++;
				}
			}
	}
	SL_VEC_FREE(groups);
	return bad;
}

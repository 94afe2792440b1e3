/*
 * reshard_to_collectives.c - -sdy-reshard-to-collectives (export;
 * sdy_export_passes.md): every `sdy.reshard` becomes the chain of
 * sdy.all_slice / collective_permute / all_to_all / all_gather that
 * reshard_plan.c computes from its operand's sharding to its own, each
 * collective's out_sharding being the closed sharding after it.
 *
 * Rules (from the conformance cases; where they are silent, inferred):
 *   - an operand without a sharding is replicated on the reshard's mesh;
 *   - redundant reshards (both sides fully replicated, whatever the meshes,
 *     or the same mesh and the same axes per dimension once open
 *     dimensions are read as closed) are removed, their uses taking the
 *     operand; with keep-redundant-reshards they stay as they are;
 *   - across two meshes with the same axes (other device ids), the plan
 *     permutes once to the reshard's mesh;
 *   - across other meshes, a reshard to a fully replicated sharding gathers
 *     on the operand's mesh; any other one stays a reshard;
 *   - a reshard to or from a single-device (maximal) mesh stays;
 *   - a reshard of a propagation barrier's result reads through the
 *     barrier: its collectives take the barrier's operand;
 *   - reshards whose unreduced axes differ from the operand's, or whose
 *     mesh cannot be found, stay (the pass does not invent all-reduces).
 */
#include "passes/pass.h"
#include "passes/passutil.h"
#include "passes/reshard_plan.h"

#include <string.h>

#include "ir/access.h"
#include "ir/rewrite.h"

typedef SL_VEC(sl_op *) opvec;

static int
collect(sl_op *op, void *ud)
{
	if (op->kind == SL_OP_SDY_RESHARD)
		SL_VEC_PUSH(*(opvec *)ud, op);
	return 0;
}

static bool
replicated(const sl_sharding *s)
{
	for (uint32_t d = 0; s && d < s->rank; d++)
		if (s->dims[d].axes.n)
			return false;
	return true;
}

static bool
same_mesh(const sl_sharding *a, const sl_sharding *b)
{
	if (a->mesh_name || b->mesh_name)
		return a->mesh_name == b->mesh_name;
	return sli_mesh_equal(a->mesh, b->mesh);
}

/* Same axes per dimension, open or closed alike. */
static bool
same_axes(const sl_sharding *a, const sl_sharding *b)
{
	uint32_t d = 0;
	while (d < a->rank && d < b->rank &&
	       sli_axis_list_equal(a->dims[d].axes.v, a->dims[d].axes.n,
	                           b->dims[d].axes.v, b->dims[d].axes.n))
		d++;
	return a->rank == b->rank && d == a->rank;
}

/* Same axis names and sizes, in order (device ids may differ). */
static bool
same_axes_mesh(const sl_mesh *a, const sl_mesh *b)
{
	if (!a || !b || a->naxes != b->naxes || !a->naxes)
		return false;
	for (uint32_t i = 0; i < a->naxes; i++)
		if (a->axes[i].name != b->axes[i].name || a->axes[i].size != b->axes[i].size)
			return false;
	return true;
}

static bool
same_unreduced(const sl_sharding *a, const sl_sharding *b)
{
	return sli_axis_list_equal(a->unreduced.v, a->unreduced.n,
	                           b->unreduced.v, b->unreduced.n);
}

static sl_axis_list
arena_list(sl_module *m, const sli_axis_vec *v)
{
	sl_axis_list l = {NULL, (uint32_t)v->n};
	if (v->n) {
		l.v = SL_NEWN(&m->arena, sl_axis_ref, v->n);
		memcpy(l.v, v->v, v->n * sizeof *l.v);
	}
	return l;
}

/* The closed sharding `after` on the mesh of `like`, its unreduced axes. */
static sl_sharding *
step_sharding(sl_module *m, const sl_sharding *like, const sli_axis_vec *after,
              uint32_t rank)
{
	sl_sharding *s = SL_NEWN(&m->arena, sl_sharding, 1);
	*s = *like;
	s->rank = rank;
	s->replicated = (sl_axis_list){NULL, 0};
	s->dims = rank ? SL_NEWN(&m->arena, sl_dim_sharding, rank) : NULL;
	for (uint32_t d = 0; d < rank; d++) {
		s->dims[d].axes = arena_list(m, &after[d]);
		s->dims[d].priority = SL_NO_PRIORITY;
	}
	return s;
}

/* The axes prop of a step: per-dimension lists, or all-to-all params. */
static void
set_axes(sl_module *m, sl_op *c, const sli_rtc_step *st, uint32_t rank)
{
	sl_attr *a;
	if (st->kind == SL_OP_SDY_COLLECTIVE_PERMUTE)
		return;
	if (st->kind == SL_OP_SDY_ALL_TO_ALL) {
		a = sli_attr_new(m, SL_ATTR_ALL_TO_ALL_PARAMS);
		a->u.a2a.n = 1;
		a->u.a2a.v = SL_NEWN(&m->arena, sl_a2a_param, 1);
		a->u.a2a.v[0].axes = arena_list(m, &st->axes[0]);
		a->u.a2a.v[0].src = st->src;
		a->u.a2a.v[0].tgt = st->tgt;
		sli_op_set_prop(m, c, SLS_params, a);
		return;
	}
	a = sli_attr_new(m, SL_ATTR_AXIS_REF_LISTS);
	a->u.lists.n = rank;
	a->u.lists.v = rank ? SL_NEWN(&m->arena, sl_axis_list, rank) : NULL;
	for (uint32_t d = 0; d < rank; d++)
		a->u.lists.v[d] = arena_list(m, &st->axes[d]);
	sli_op_set_prop(m, c, st->kind == SL_OP_SDY_ALL_GATHER ? SLS_gathering_axes
	                                                       : SLS_slicing_axes, a);
}

/* Replaces reshard r by the plan's collectives applied to x, on the mesh
 * of `like` (or `out` once a step reaches it); r's uses go to the last
 * collective through `repl`. */
static void
emit_plan(sl_module *m, sl_op *r, sl_value *x, const sli_rtc_plan *plan,
          const sl_sharding *like, const sl_sharding *out, sli_vmap *repl)
{
	for (size_t i = 0; i < plan->steps.n; i++) {
		const sli_rtc_step *st = &plan->steps.v[i];
		sl_op *c = sli_op_create(m, st->kind, &x, 1, &x->type, 1, 0);
		sli_op_copy_loc(m, c, r);
		set_axes(m, c, st, plan->rank);
		const sl_sharding *on = st->on_target_mesh ? out : like;
		sli_op_set_prop(m, c, SLS_out_sharding,
		                sli_attr_sharding(m, step_sharding(m, on, st->after, plan->rank)));
		sli_op_insert_before(r, c);
		x = &c->results[0];
	}
	sli_vmap_set(repl, &r->results[0], x);
	sli_op_erase(r);
}

static sl_axis_list *
dim_lists(sl_module *m, const sl_sharding *s, uint32_t rank)
{
	sl_axis_list *v = SL_NEWN(&m->arena, sl_axis_list, rank ? rank : 1);
	for (uint32_t d = 0; s && d < rank && d < s->rank; d++)
		v[d] = s->dims[d].axes;
	return v;
}

static bool
maximal(const sl_module *m, const sl_sharding *s)
{
	const sl_mesh *mesh = s ? sli_sharding_mesh(m, s) : NULL;
	return mesh && sli_mesh_is_maximal(mesh);
}

/* Lowers reshard r.  The uses of a reshard it replaces are recorded in
 * `repl` and redirected in one walk at the end of the pass (one walk per
 * reshard made the pass quadratic in the program); r's operand, defined
 * before r, has been redirected already if it was such a reshard. */
static void
lower(sl_module *m, sl_op *r, bool keep_redundant, sli_vmap *repl)
{
	r->operands[0] = sli_vmap_lookup(repl, r->operands[0]);
	sl_value *src = r->operands[0];
	if (src->def && src->def->kind == SL_OP_SDY_PROPAGATION_BARRIER)
		src = src->def->operands[0];
	const sl_sharding *out = sli_result_sharding(r, 0);
	const sl_sharding *in = sli_value_sharding_seen(m, src);
	if (!out || maximal(m, in) || maximal(m, out))
		return;
	const sl_sharding *like = in ? in : out;
	bool redundant = replicated(in) && replicated(out);
	const sl_mesh *mesh = sli_sharding_mesh(m, like);
	bool switch_mesh = in && !same_mesh(in, out) && same_axes_mesh(mesh, sli_sharding_mesh(m, out));
	if (!redundant && in && !same_mesh(in, out) && !switch_mesh && !replicated(out))
		return;
	if (in && !redundant && !same_unreduced(in, out))
		return;
	if (!redundant && in && same_mesh(in, out) && same_axes(in, out))
		redundant = true;
	if (redundant) {
		if (!keep_redundant) {
			sli_vmap_set(repl, &r->results[0], r->operands[0]);
			sli_op_erase(r);
		}
		return;
	}
	if (!mesh)
		return;
	sli_rtc_plan plan = {0};
	/* a gather to a replicated sharding on another mesh stays on the operand's */
	const sl_sharding *target = in && !same_mesh(in, out) && !switch_mesh ? like : out;
	if (sli_rtc_plan_build(m->ctx, mesh, dim_lists(m, in, out->rank),
	                       dim_lists(m, out, out->rank), out->rank, switch_mesh,
	                       &plan) == 0)
		emit_plan(m, r, src, &plan, like, target, repl);
	sli_rtc_plan_fini(&plan);
}

int
sli_pass_reshard_to_collectives(sl_module *m, const sli_pass_opts *opts)
{
	opvec v = {0};
	sli_vmap repl;

	sli_vmap_init(&repl);
	sli_walk(m->top, collect, &v);
	for (size_t i = 0; i < v.n; i++)
		lower(m, v.v[i], opts->rtc.keep_redundant, &repl);
	if (repl.n)
		sli_replace_uses_map(m->top, &repl);
	sli_vmap_fini(&repl);
	SL_VEC_FREE(v);
	return 0;
}

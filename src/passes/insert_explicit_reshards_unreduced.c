/*
 * insert_explicit_reshards_unreduced.c - the unreduced-axes part of
 * -sdy-insert-explicit-reshards (insert_explicit_reshards.c): turning
 * replicated or sharded axes into unreduced ones, where an `sdy.reshard`
 * adds unreduced axes, or a value flows into a function result or a
 * data-flow edge whose sharding has unreduced axes the value lacks (a
 * value without a sharding is left alone there).
 *
 * Going from sharding `in` to `out`, whose unreduced axes add `new` to
 * in's: per dimension, when out's axes are a prefix of in's, the dropped
 * axes that are in `new` stay and go unreduced through one
 * `sdy.sharded_to_unreduced` (the other dropped axes are gathered);
 * otherwise the dimension takes out's axes.  A reshard to those
 * dimensions (keeping in's unreduced axes) comes first when they differ
 * from in's, then a `sdy.replicated_to_unreduced` over the axes of `new`
 * no dimension gives (its sharding has the dimensions reached so far and
 * in's unreduced axes plus these, sorted and merged; it is `out` itself
 * when nothing goes through the sharded-to-unreduced), then the
 * sharded-to-unreduced, producing `out`.
 */
#include "passes/insert_explicit_reshards.h"

#include <string.h>

#include "passes/passutil.h"
#include "propagation/projection.h"

static sl_op *
new_collective(sl_module *m, sl_op_kind kind, sl_value *v, sl_attr *axes,
               const sl_sharding *out, sl_loc loc)
{
	sl_op *op = sli_op_create(m, kind, &v, 1, &v->type, 1, 0);
	op->loc = loc;
	sli_op_set_prop(m, op, SLS_axes, axes);
	sli_result_set_sharding(m, op, 0, out);
	return op;
}

static sl_attr *
axis_list_attr(sl_module *m, const sl_axis_ref *v, size_t n)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_AXIS_REF_LIST);
	a->u.axes.n = (uint32_t)n;
	a->u.axes.v = n ? sli_arena_dup(&m->arena, v, sizeof *v * n) : NULL;
	return a;
}

/* Whether a and b have the same axes in every dimension. */
static bool
same_dims(const sl_sharding *a, const sl_sharding *b)
{
	uint32_t d = 0;
	while (a->rank == b->rank && d < a->rank &&
	       sli_axis_list_equal(a->dims[d].axes.v, a->dims[d].axes.n, b->dims[d].axes.v,
	                           b->dims[d].axes.n))
		d++;
	return a->rank == b->rank && d == a->rank;
}

/* Whether ref r lies inside the axes of v. */
static bool
covered(const sl_context *ctx, const sl_mesh *mesh, const sl_axis_ref *r,
        const sli_axis_vec *v)
{
	sli_axis_vec rest = {0};
	sli_axis_set_diff(ctx, mesh, r, 1, v->v, v->n, &rest);
	bool in = rest.n == 0;
	SL_VEC_FREE(rest);
	return in;
}

/* What `in` drops going to its prefix `out`, into *drop; false when out
 * is not a prefix of in. */
static bool
dropped_suffix(const sl_mesh *mesh, const sl_dim_sharding *in, const sl_dim_sharding *out,
               sli_axis_vec *drop)
{
	int st = sli_axes_prefix_status(out->axes.v, out->axes.n, in->axes.v, in->axes.n);
	if (st == SLI_EQUAL)
		return true;
	if (st != SLI_STRICT_PREFIX)
		return false;
	uint32_t k = out->axes.n;
	if (k && !sli_axis_equal(&out->axes.v[k - 1], &in->axes.v[k - 1])) {
		sl_axis_ref rest;
		if (sli_axis_suffix_without_overlap(&in->axes.v[k - 1], &out->axes.v[k - 1],
		                                    mesh, &rest))
			SL_VEC_PUSH(*drop, rest);
	}
	for (uint32_t j = k; j < in->axes.n; j++)
		SL_VEC_PUSH(*drop, in->axes.v[j]);
	return true;
}

static sl_axis_list
arena_list(sl_module *m, const sl_axis_ref *v, size_t n)
{
	sl_axis_list l = {n ? sli_arena_dup(&m->arena, v, sizeof *v * n) : NULL, (uint32_t)n};
	return l;
}

/*
 * Per dimension (file comment): the axes going through the sharded-to-
 * unreduced into `lists` and s2u, the dimensions reached before it into
 * mid.
 */
static void
split_dims(sl_module *m, const sl_mesh *mesh, const sl_sharding *in,
           const sl_sharding *out, const sli_axis_vec *fresh, sl_attr *lists,
           sli_axis_vec *s2u, sl_sharding *mid)
{
	for (uint32_t d = 0; d < in->rank; d++) {
		sli_axis_vec drop = {0}, keep = {0}, dim = {0};
		if (dropped_suffix(mesh, &in->dims[d], &out->dims[d], &drop)) {
			for (size_t j = 0; j < drop.n; j++) {
				if (covered(m->ctx, mesh, &drop.v[j], fresh)) {
					SL_VEC_PUSH(keep, drop.v[j]);
					SL_VEC_PUSH(*s2u, drop.v[j]);
				}
			}
		}
		for (uint32_t j = 0; j < out->dims[d].axes.n; j++)
			SL_VEC_PUSH(dim, out->dims[d].axes.v[j]);
		for (size_t j = 0; j < keep.n; j++)
			sli_axis_vec_add_or_merge(&dim, &keep.v[j], mesh);
		lists->u.lists.v[d] = arena_list(m, keep.v, keep.n);
		mid->dims[d] = in->dims[d];
		mid->dims[d].axes = arena_list(m, dim.v, dim.n);
		SL_VEC_FREE(drop);
		SL_VEC_FREE(keep);
		SL_VEC_FREE(dim);
	}
}

/*
 * The collectives taking v from sharding in to out (file comment), before
 * `at` in block b; the value they produce, or NULL when out adds no
 * unreduced axis.
 */
static sl_value *
unreduce(sl_module *m, const sl_mesh *mesh, sl_value *v, const sl_sharding *in,
         const sl_sharding *out, sl_op *at, sl_block *b, sl_loc loc)
{
	sli_axis_vec fresh = {0}, s2u = {0}, r2u = {0}, merged = {0};
	sli_axis_set_diff(m->ctx, mesh, out->unreduced.v, out->unreduced.n,
	                  in->unreduced.v, in->unreduced.n, &fresh);
	if (!fresh.n || in->rank != out->rank) {
		SL_VEC_FREE(fresh);
		return NULL;
	}
	sl_attr *lists = sli_attr_new(m, SL_ATTR_AXIS_REF_LISTS);
	lists->u.lists.n = in->rank;
	lists->u.lists.v = SL_NEWN(&m->arena, sl_axis_list, in->rank + 1);
	sl_sharding *mid = SL_NEW(&m->arena, sl_sharding);
	*mid = *in;
	mid->dims = SL_NEWN(&m->arena, sl_dim_sharding, in->rank + 1);
	split_dims(m, mesh, in, out, &fresh, lists, &s2u, mid);
	if (!same_dims(mid, in)) {
		sl_op *rs = sli_op_create(m, SL_OP_SDY_RESHARD, &v, 1, &v->type, 1, 0);
		rs->loc = loc;
		sli_result_set_sharding(m, rs, 0, mid);
		sli_xr_place(rs, at, b);
		v = &rs->results[0];
	}
	sli_axis_set_diff(m->ctx, mesh, fresh.v, fresh.n, s2u.v, s2u.n, &r2u);
	if (r2u.n) {
		const sl_sharding *to = out;
		if (s2u.n) {
			for (uint32_t j = 0; j < in->unreduced.n; j++)
				SL_VEC_PUSH(merged, in->unreduced.v[j]);
			for (size_t j = 0; j < r2u.n; j++)
				SL_VEC_PUSH(merged, r2u.v[j]);
			sli_axis_vec_sort_and_merge(m->ctx, mesh, &merged);
			sl_sharding *with = SL_NEW(&m->arena, sl_sharding);
			*with = *mid;
			with->replicated = out->replicated;
			with->unreduced = arena_list(m, merged.v, merged.n);
			to = with;
		}
		sl_op *op = new_collective(m, SL_OP_SDY_REPLICATED_TO_UNREDUCED, v,
		                           axis_list_attr(m, r2u.v, r2u.n), to, loc);
		sli_xr_place(op, at, b);
		v = &op->results[0];
	}
	if (s2u.n) {
		sl_op *op = new_collective(m, SL_OP_SDY_SHARDED_TO_UNREDUCED, v, lists, out, loc);
		sli_xr_place(op, at, b);
		v = &op->results[0];
	}
	SL_VEC_FREE(fresh);
	SL_VEC_FREE(s2u);
	SL_VEC_FREE(r2u);
	SL_VEC_FREE(merged);
	return v;
}

const sl_sharding *
sli_xr_make_unreduced(sl_module *m, sl_op *user, uint32_t i, const sl_sharding *have,
                      const sl_sharding *target, sl_op *at, sl_block *b)
{
	if (!have || !target || !target->unreduced.n)
		return have;
	const sl_mesh *mesh = sli_sharding_mesh_at(m, user, target);
	sl_value *v = user->operands[i];
	sl_value *to = mesh ? unreduce(m, mesh, v, have, target, at, b,
	                               v->def ? v->def->loc : user->loc) : NULL;
	if (!to)
		return have;
	user->operands[i] = to;
	return target;
}

bool
sli_xr_reshard_to_unreduced(sl_module *m, sl_op *rs, const sl_sharding *in,
                            sli_vmap *subst)
{
	const sl_sharding *out = sli_result_sharding(rs, 0);
	if (!in || !out || !out->unreduced.n)
		return false;
	const sl_mesh *mesh = sli_sharding_mesh_at(m, rs, in);
	sl_value *to = mesh ? unreduce(m, mesh, rs->operands[0], in, out, rs, rs->parent,
	                               rs->loc) : NULL;
	if (!to)
		return false;
	sli_vmap_set(subst, &rs->results[0], to);
	sli_op_erase(rs);
	return true;
}

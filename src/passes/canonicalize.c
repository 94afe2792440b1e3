/*
 * canonicalize.c - the sdy canonicalization patterns (Shardy's
 * canonicalization.{td,cc}; spec/dialect-and-verifier.md section 5), applied
 * to every op until nothing changes, as -canonicalize does: no-op
 * collectives fold to their operand, reshard-of-reshard, all_slice of
 * all_gather, all_reduce of replicated_to_unreduced, all_to_all fusion,
 * all_reduce + all_slice into reduce_scatter, unused manual-computation
 * inputs, inlining of manual computations whose manual axes have size 1,
 * CSE of reshards of one root (through reshapes and transposes), and
 * erasure of unused side-effect-free ops.
 */
#include "passes/pass.h"

#include "ir/access.h"
#include "ir/axis.h"

#include <stdlib.h>
#include <string.h>

typedef struct canon {
	sl_module *m;
	sl_context *ctx;
	bool changed;
} canon;

typedef SL_VEC(sl_op *) opvec;

/* ====================================================================
 * IR helpers
 * ==================================================================== */

static int
collect(sl_op *op, void *ud)
{
	opvec *v = ud;
	SL_VEC_PUSH(*v, op);
	return 0;
}

typedef struct replace_ud {
	sl_value *from, *to;
} replace_ud;

static int
replace_in_op(sl_op *op, void *ud)
{
	replace_ud *r = ud;
	for (uint32_t i = 0; i < op->noperands; i++)
		if (op->operands[i] == r->from)
			op->operands[i] = r->to;
	return 0;
}

/* Replaces every use of `from` in the module by `to`. */
static void
replace_uses(canon *c, sl_value *from, sl_value *to)
{
	replace_ud r = {from, to};
	sli_walk(c->m->top, replace_in_op, &r);
}

/* Replaces the single result of op by v and erases op. */
static void
replace_op(canon *c, sl_op *op, sl_value *v)
{
	replace_uses(c, &op->results[0], v);
	sli_op_erase(op);
	c->changed = true;
}

static void
recount(canon *c)
{
	sli_compute_use_counts(c->m->top);
}

static sl_op *
def(const sl_value *v, sl_op_kind kind)
{
	return v && v->def && v->def->kind == kind && v->def->parent ? v->def : NULL;
}

static sl_attr *
prop(const sl_op *op, sl_sym name, sl_attr_kind kind)
{
	sl_attr *a = sli_op_get(op, name);
	return a && a->kind == kind ? a : NULL;
}

static sl_sharding *
out_sharding(const sl_op *op)
{
	return sli_result_sharding(op, 0);
}

/* The mesh a sharding refers to, NULL when it cannot be found. */
static const sl_mesh *
sharding_mesh(canon *c, const sl_op *from, const sl_sharding *s)
{
	return sli_sharding_mesh_at(c->m, from, s);
}

static sl_sharding *
spv_at(const sl_attr *a, uint32_t i)
{
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE || i >= a->u.spv.n)
		return NULL;
	return a->u.spv.v[i];
}

/*
 * The sharding of a value, or NULL: an op result's, or the one a block
 * argument carries itself (a function argument's; the arguments of other
 * bodies carry none).
 */
static const sl_sharding *
value_sharding(const sl_value *v)
{
	if (v->def)
		return sli_result_sharding(v->def, v->index);
	const sl_attr *a = sli_arg_sharding_attr(v);
	return a && a->kind == SL_ATTR_SHARDING ? &a->u.sharding : NULL;
}

static bool
same_mesh_ref(const sl_sharding *a, const sl_sharding *b)
{
	if (a->mesh || b->mesh)
		return a->mesh && b->mesh && sli_mesh_equal(a->mesh, b->mesh);
	return a->mesh_name == b->mesh_name;
}

static bool
list_equal(const sl_axis_list *a, const sl_axis_list *b)
{
	return sli_axis_list_equal(a->v, a->n, b->v, b->n);
}

/* Same mesh and same axes everywhere; open/closed and priorities aside. */
static bool
sharding_equivalent(const sl_sharding *a, const sl_sharding *b)
{
	if (!a || !b || !same_mesh_ref(a, b) || a->rank != b->rank)
		return false;
	for (uint32_t d = 0; d < a->rank; d++)
		if (!list_equal(&a->dims[d].axes, &b->dims[d].axes))
			return false;
	return list_equal(&a->replicated, &b->replicated) &&
	       list_equal(&a->unreduced, &b->unreduced) &&
	       (!a->unreduced.n || a->reduction == b->reduction);
}

static bool
sharding_identical(const sl_sharding *a, const sl_sharding *b)
{
	if (!sharding_equivalent(a, b))
		return false;
	for (uint32_t d = 0; d < a->rank; d++)
		if (a->dims[d].open != b->dims[d].open || a->dims[d].priority != b->dims[d].priority)
			return false;
	return true;
}

static bool
lists_empty(const sl_attr *a)
{
	if (!a)
		return false;
	if (a->kind == SL_ATTR_AXIS_REF_LIST)
		return a->u.axes.n == 0;
	if (a->kind != SL_ATTR_AXIS_REF_LISTS)
		return false;
	for (uint32_t i = 0; i < a->u.lists.n; i++)
		if (a->u.lists.v[i].n)
			return false;
	return true;
}

static bool
lists_equal(const sl_attr *a, const sl_attr *b)
{
	if (!a || !b || a->kind != b->kind)
		return false;
	if (a->kind == SL_ATTR_AXIS_REF_LIST)
		return list_equal(&a->u.axes, &b->u.axes);
	if (a->u.lists.n != b->u.lists.n)
		return false;
	for (uint32_t i = 0; i < a->u.lists.n; i++)
		if (!list_equal(&a->u.lists.v[i], &b->u.lists.v[i]))
			return false;
	return true;
}

static bool
is_pure(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_CONSTANT:
	case SL_OP_SDY_PROPAGATION_BARRIER:
		return true;
	case SL_OP_RNG:
	case SL_OP_RNG_BIT_GENERATOR:
	case SL_OP_AFTER_ALL:
		return false;
	default:
		return op->kind != SL_OP_UNKNOWN && sli_op_format_pure(op);
	}
}

static bool
unused(const sl_op *op)
{
	for (uint32_t i = 0; i < op->nresults; i++)
		if (op->results[i].id)
			return false;
	return true;
}

/* ====================================================================
 * Collective patterns
 * ==================================================================== */

/* all_slice(all_gather(x, A), A) -> x */
static bool
slice_of_gather(canon *c, sl_op *op)
{
	sl_op *g = def(op->operands[0], SL_OP_SDY_ALL_GATHER);
	if (!g || !lists_equal(sli_op_get(g, SLS_gathering_axes), sli_op_get(op, SLS_slicing_axes)))
		return false;
	replace_op(c, op, g->operands[0]);
	return true;
}

/* all_reduce(replicated_to_unreduced(x, A), A) -> x */
static bool
reduce_of_r2u(canon *c, sl_op *op)
{
	sl_op *r = def(op->operands[0], SL_OP_SDY_REPLICATED_TO_UNREDUCED);
	if (!r || !lists_equal(sli_op_get(r, SLS_axes), sli_op_get(op, SLS_reduction_axes)))
		return false;
	replace_op(c, op, r->operands[0]);
	return true;
}

/* all_reduce(sharded_to_unreduced(x, A), axes of A) -> all_gather(x, A) */
static bool
reduce_of_s2u(canon *c, sl_op *op)
{
	sl_op *s = def(op->operands[0], SL_OP_SDY_SHARDED_TO_UNREDUCED);
	sl_attr *a = s ? prop(s, SLS_axes, SL_ATTR_AXIS_REF_LISTS) : NULL;
	sl_attr *red = prop(op, SLS_reduction_axes, SL_ATTR_AXIS_REF_LIST);
	if (!a || !red)
		return false;
	bool *used = sli_xcalloc(red->u.axes.n + 1, sizeof *used);
	uint32_t n = 0;
	bool ok = true;
	for (uint32_t d = 0; d < a->u.lists.n && ok; d++)
		for (uint32_t k = 0; k < a->u.lists.v[d].n && ok; k++) {
			uint32_t j = 0;
			while (j < red->u.axes.n &&
			       (used[j] || !sli_axis_equal(&red->u.axes.v[j], &a->u.lists.v[d].v[k])))
				j++;
			ok = j < red->u.axes.n;
			if (ok)
				used[j] = true;
			n++;
		}
	free(used);
	if (!ok || n != red->u.axes.n)
		return false;
	const char *name = "sdy.all_gather";
	sl_op *g = sli_op_new(c->m, sl_sym_intern(c->ctx, name, strlen(name)), 1, 1, 0);
	g->operands[0] = s->operands[0];
	g->results[0].type = op->results[0].type;
	g->loc = op->loc;
	sli_op_set_prop(c->m, g, SLS_gathering_axes, a);
	sli_result_set_sharding(c->m, g, 0, out_sharding(op));
	sli_op_insert_before(op, g);
	replace_op(c, op, &g->results[0]);
	return true;
}

static sl_attr *
new_lists(canon *c, const sl_axis_list *v, uint32_t n)
{
	sl_attr *a = sli_attr_new(c->m, SL_ATTR_AXIS_REF_LISTS);
	a->u.lists.n = n;
	a->u.lists.v = SL_NEWN(&c->m->arena, sl_axis_list, n ? n : 1);
	memcpy(a->u.lists.v, v, n * sizeof *v);
	return a;
}

static sl_axis_list
arena_list(canon *c, const sl_axis_ref *v, size_t n)
{
	sl_axis_list l = {NULL, (uint32_t)n};
	if (n)
		l.v = sli_arena_dup(&c->m->arena, v, n * sizeof *v);
	return l;
}

static sl_op *
new_collective(canon *c, const char *name, sl_value *in, sl_type *type)
{
	sl_op *op = sli_op_new(c->m, sl_sym_intern(c->ctx, name, strlen(name)), 1, 1, 0);
	op->operands[0] = in;
	op->results[0].type = type;
	return op;
}

/*
 * all_slice(all_reduce(x, R), S), every user of the all_reduce an all_slice
 * with axes S: per dim, the longest prefix of S in R goes to a
 * reduce_scatter; what is left of S stays in an all_slice after it.  Every
 * axis of R must be used.
 */
static bool
reduce_scatter_fusion(canon *c, sl_op *op)
{
	sl_op *ar = def(op->operands[0], SL_OP_SDY_ALL_REDUCE);
	sl_attr *slicing = prop(op, SLS_slicing_axes, SL_ATTR_AXIS_REF_LISTS);
	sl_attr *red = ar ? prop(ar, SLS_reduction_axes, SL_ATTR_AXIS_REF_LIST) : NULL;
	sl_sharding *arout = ar ? out_sharding(ar) : NULL;
	opvec users = {0};
	if (!ar || !slicing || !red || !arout)
		return false;
	opvec all = {0};
	sli_walk(c->m->top, collect, &all);
	for (size_t i = 0; i < all.n; i++)
		for (uint32_t k = 0; k < all.v[i]->noperands; k++)
			if (all.v[i]->operands[k] == &ar->results[0]) {
				sl_op *u = all.v[i];
				if (u->kind != SL_OP_SDY_ALL_SLICE ||
				    !lists_equal(sli_op_get(u, SLS_slicing_axes), slicing)) {
					SL_VEC_FREE(all);
					SL_VEC_FREE(users);
					return false;
				}
				SL_VEC_PUSH(users, u);
				break;
			}
	SL_VEC_FREE(all);

	const sl_mesh *mesh = sharding_mesh(c, op, arout);
	uint32_t rank = slicing->u.lists.n;
	bool *used = sli_xcalloc(red->u.axes.n + 1, sizeof *used);
	sl_axis_list *rs = SL_NEWN(&c->m->arena, sl_axis_list, rank + 1);
	sl_axis_list *rest = SL_NEWN(&c->m->arena, sl_axis_list, rank + 1);
	bool residual = false, ok = mesh != NULL;
	for (uint32_t d = 0; d < rank && ok; d++) {
		const sl_axis_list *l = &slicing->u.lists.v[d];
		uint32_t k = 0;
		for (; k < l->n; k++) {
			uint32_t j = 0;
			while (j < red->u.axes.n && (used[j] || !sli_axis_equal(&red->u.axes.v[j], &l->v[k])))
				j++;
			if (j == red->u.axes.n)
				break;
			used[j] = true;
		}
		rs[d] = arena_list(c, l->v, k);
		rest[d] = arena_list(c, l->v + k, l->n - k);
		residual |= k < l->n;
	}
	for (uint32_t j = 0; j < red->u.axes.n; j++)
		ok &= used[j];
	free(used);
	const sl_sharding *in = value_sharding(ar->operands[0]);
	const sl_type *t = ar->operands[0]->type;
	if (in && in->rank != rank)
		ok = false;
	if (!in && (t->kind != SL_TYPE_TENSOR || t->unranked || t->rank != rank))
		ok = false;
	if (!ok) {
		SL_VEC_FREE(users);
		return false;
	}

	sl_sharding *s = SL_NEW(&c->m->arena, sl_sharding);
	s->mesh_name = arout->mesh_name;
	s->mesh = arout->mesh;
	s->rank = rank;
	s->dims = SL_NEWN(&c->m->arena, sl_dim_sharding, rank + 1);
	for (uint32_t d = 0; d < rank; d++) {
		sli_axis_vec v = {0};
		s->dims[d].priority = SL_NO_PRIORITY;
		if (in)
			for (uint32_t k = 0; k < in->dims[d].axes.n; k++)
				SL_VEC_PUSH(v, in->dims[d].axes.v[k]);
		for (uint32_t k = 0; k < rs[d].n; k++)
			sli_axis_vec_add_or_merge(&v, &rs[d].v[k], mesh);
		s->dims[d].axes = arena_list(c, v.v, v.n);
		SL_VEC_FREE(v);
	}
	if (in)
		s->replicated = in->replicated;

	sl_op *rsop = new_collective(c, "sdy.reduce_scatter", ar->operands[0], op->results[0].type);
	sli_op_set_prop(c->m, rsop, SLS_scatter_axes, new_lists(c, rs, rank));
	sli_result_set_sharding(c->m, rsop, 0, s);
	sl_attr *redop = sli_op_get(ar, SLS_reduction_op);
	if (redop)
		sli_op_set_prop(c->m, rsop, SLS_reduction_op, redop);
	rsop->loc = ar->loc;
	sli_op_insert_before(op, rsop);
	sl_value *result = &rsop->results[0];
	if (residual) {
		sl_op *sl = new_collective(c, "sdy.all_slice", result, op->results[0].type);
		sli_op_set_prop(c->m, sl, SLS_slicing_axes, new_lists(c, rest, rank));
		sli_result_set_sharding(c->m, sl, 0, out_sharding(op));
		sl->loc = op->loc;
		sli_op_insert_before(op, sl);
		result = &sl->results[0];
	}
	for (size_t i = 0; i < users.n; i++)
		replace_op(c, users.v[i], result);
	SL_VEC_FREE(users);
	sli_op_erase(ar);
	return true;
}

static int
cmp_param(const void *a, const void *b)
{
	const sl_a2a_param *x = a, *y = b;
	return x->src < y->src ? -1 : x->src > y->src;
}

/* all_to_all(all_to_all(x, P), Q), inner used once, no dim in two params:
 * one all_to_all with P and Q sorted by source dim. */
static bool
all_to_all_fusion(canon *c, sl_op *op)
{
	sl_op *in = def(op->operands[0], SL_OP_SDY_ALL_TO_ALL);
	sl_attr *p = in ? prop(in, SLS_params, SL_ATTR_ALL_TO_ALL_PARAMS) : NULL;
	sl_attr *q = prop(op, SLS_params, SL_ATTR_ALL_TO_ALL_PARAMS);
	if (!p || !q || in->results[0].id != 1)
		return false;
	uint32_t n = p->u.a2a.n + q->u.a2a.n;
	sl_a2a_param *v = SL_NEWN(&c->m->arena, sl_a2a_param, n + 1);
	memcpy(v, p->u.a2a.v, p->u.a2a.n * sizeof *v);
	memcpy(v + p->u.a2a.n, q->u.a2a.v, q->u.a2a.n * sizeof *v);
	for (uint32_t i = 0; i < 2 * n; i++)
		for (uint32_t j = 0; j < i; j++) {
			int64_t a = i % 2 ? v[i / 2].tgt : v[i / 2].src;
			int64_t b = j % 2 ? v[j / 2].tgt : v[j / 2].src;
			if (a == b)
				return false;
		}
	qsort(v, n, sizeof *v, cmp_param);
	sl_attr *a = sli_attr_new(c->m, SL_ATTR_ALL_TO_ALL_PARAMS);
	a->u.a2a.v = v;
	a->u.a2a.n = n;
	sli_op_set_prop(c->m, op, SLS_params, a);
	op->operands[0] = in->operands[0];
	sli_op_erase(in);
	c->changed = true;
	return true;
}

/* ====================================================================
 * Manual computations
 * ==================================================================== */

typedef struct remap_ud {
	sl_value *from, *to;
	uint32_t n;
} remap_ud;

static int
remap_in_op(sl_op *op, void *ud)
{
	remap_ud *r = ud;
	for (uint32_t i = 0; i < op->noperands; i++) {
		sl_value *v = op->operands[i];
		if (v >= r->from && v < r->from + r->n)
			op->operands[i] = r->to + (v - r->from);
	}
	return 0;
}

/* Drops the operands whose block argument has no use, and their in_shardings. */
static bool
manual_unused_inputs(canon *c, sl_op *op)
{
	sl_block *b = op->nregions ? sli_region_entry(&op->regions[0]) : NULL;
	if (!b || b->nargs != op->noperands)
		return false;
	uint32_t keep = 0;
	for (uint32_t i = 0; i < b->nargs; i++)
		keep += b->args[i].id != 0;
	if (keep == b->nargs)
		return false;
	sl_attr *in = sli_comp_in_spv(op);
	sl_value *args = SL_NEWN(&c->m->arena, sl_value, keep + 1);
	sl_value **mapped = sli_xcalloc(b->nargs, sizeof *mapped);
	sl_sharding **sh = SL_NEWN(&c->m->arena, sl_sharding *, keep + 1);
	uint32_t k = 0;
	for (uint32_t i = 0; i < b->nargs; i++) {
		if (!b->args[i].id)
			continue;
		args[k] = b->args[i];
		sli_value_set_locattr(c->m, &args[k], sli_value_locattr(c->m, &b->args[i]));
		args[k].index = k;
		if (b->argattrs)
			b->argattrs[k] = b->argattrs[i];
		op->operands[k] = op->operands[i];
		if (in && i < in->u.spv.n)
			sh[k] = in->u.spv.v[i];
		mapped[i] = &args[k];
		k++;
	}
	for (uint32_t i = 0; i < b->nargs; i++) {
		if (!mapped[i])
			continue;
		remap_ud r = {&b->args[i], mapped[i], 1};
		for (sl_op *o = b->first; o; o = o->next)
			sli_walk(o, remap_in_op, &r);
	}
	free(mapped);
	b->args = args;
	b->nargs = keep;
	op->noperands = keep;
	if (in) {
		sl_attr *a = sli_attr_new(c->m, SL_ATTR_SHARDING_PER_VALUE);
		a->u.spv.v = sh;
		a->u.spv.n = keep;
		sli_comp_set_in_spv(c->m, op, a);
	}
	c->changed = true;
	return true;
}

/* Inlines a manual computation whose manual axes have total size 1. */
static bool
manual_inline(canon *c, sl_op *op)
{
	sl_attr *in = sli_comp_in_spv(op);
	sl_attr *out = sli_result_spv(op);
	const sl_axis_list *manual = sli_manual_axes(op);
	sl_block *b = op->nregions ? sli_region_entry(&op->regions[0]) : NULL;
	if (!b || b->nargs != op->noperands || !b->last || b->last->kind != SL_OP_SDY_RETURN ||
	    b->last->noperands != op->nresults)
		return false;
	const sl_sharding *first = spv_at(in, 0) ? spv_at(in, 0) : spv_at(out, 0);
	if (first && manual) {
		const sl_mesh *mesh = sharding_mesh(c, op, first);
		int64_t product = 1;
		if (!mesh)
			return false;
		for (uint32_t i = 0; i < manual->n; i++)
			product *= sli_mesh_axis_size(mesh, manual->v[i].name);
		if (product != 1)
			return false;
	}
	for (uint32_t i = 0; i < b->nargs; i++)
		replace_uses(c, &b->args[i], op->operands[i]);
	sl_op *ret = b->last;
	for (uint32_t i = 0; i < op->nresults; i++)
		replace_uses(c, &op->results[i], ret->operands[i]);
	while (b->first != ret) {
		sl_op *x = b->first;
		sli_op_erase(x);
		sli_op_insert_before(op, x);
	}
	sli_op_erase(op);
	c->changed = true;
	return true;
}

/* ====================================================================
 * Reshard CSE through reshapes and transposes
 * ==================================================================== */

/* A value seen through a chain of reshapes/transposes back to its root. */
typedef struct chain {
	sl_value *root;
	opvec path;		/* root-side first */
	bool transposes;
} chain;

static void
chain_of(sl_value *v, chain *ch)
{
	SL_VEC(sl_op *) rev = {0};
	while (v->def && v->def->noperands == 1 &&
	       (v->def->kind == SL_OP_RESHAPE || v->def->kind == SL_OP_TRANSPOSE)) {
		SL_VEC_PUSH(rev, v->def);
		ch->transposes |= v->def->kind == SL_OP_TRANSPOSE;
		v = v->def->operands[0];
	}
	ch->root = v;
	for (size_t i = rev.n; i-- > 0;)
		SL_VEC_PUSH(ch->path, rev.v[i]);
	SL_VEC_FREE(rev);
}

/* Dim shardings under construction: one axis vector per dim. */
typedef struct dims {
	sli_axis_vec *v;
	uint32_t rank;
} dims;

static void
dims_free(dims *d)
{
	for (uint32_t i = 0; i < d->rank; i++)
		SL_VEC_FREE(d->v[i]);
	free(d->v);
	d->v = NULL;
	d->rank = 0;
}

static bool
static_tensor(const sl_type *t)
{
	return t && sli_type_is_static(t);
}

/* One piece of a flattened tensor: an axis (sharded) or a plain factor. */
typedef struct seg {
	bool sharded;
	sl_axis_ref axis;
	int64_t size;
} seg;

/*
 * The dim shardings after a reshape from `from` to `to`: the tensor is cut
 * into major-to-minor pieces, each sharded by one axis or not sharded, and
 * the pieces are regrouped into the new dims (splitting an axis into
 * sub-axes where a new dim boundary falls inside it).  False when the
 * result cannot be written as dim shardings.
 */
static bool
reshape_dims(const dims *d, const sl_type *from, const sl_type *to, const sl_mesh *mesh,
             dims *out)
{
	SL_VEC(seg) segs = {0};
	bool ok = true;
	out->rank = to->rank;
	out->v = sli_xcalloc(to->rank + 1, sizeof *out->v);
	for (uint32_t i = 0; i < from->rank && ok; i++) {
		int64_t rem = from->dims[i];
		for (size_t k = 0; k < d->v[i].n && ok; k++) {
			seg s = {true, d->v[i].v[k], sli_axis_size(&d->v[i].v[k], mesh)};
			if (s.size <= 0 || rem % s.size) {
				ok = false;
				break;
			}
			rem /= s.size;
			SL_VEC_PUSH(segs, s);
		}
		if (ok && rem > 1) {
			seg s = {false, {0, false, 0, 0}, rem};
			SL_VEC_PUSH(segs, s);
		}
	}
	size_t at = 0;
	for (uint32_t i = 0; i < to->rank && ok; i++) {
		int64_t need = to->dims[i];
		bool plain = false;
		while (need > 1 && ok) {
			if (at == segs.n) {
				ok = false;
				break;
			}
			seg *s = &segs.v[at];
			int64_t take = s->size;
			if (take > need) {
				if (take % need) {
					ok = false;
					break;
				}
				take = need;
			} else if (need % take) {
				ok = false;
				break;
			}
			if (s->sharded) {
				if (plain) {
					ok = false;
					break;
				}
				sl_axis_ref part = s->axis;
				if (take < s->size) {
					int64_t pre = sli_axis_pre(&s->axis);
					part = sli_axis_sub(s->axis.name, pre, take);
					s->axis = sli_axis_sub(s->axis.name, pre * take, s->size / take);
				}
				sli_axis_vec_add_or_merge(&out->v[i], &part, mesh);
			} else {
				plain = true;
			}
			if (take == s->size)
				at++;
			else
				s->size /= take;
			need /= take;
		}
	}
	if (at != segs.n)
		ok = false;
	SL_VEC_FREE(segs);
	return ok;
}

static sl_attr *
int_array(const sl_op *op, const char *name, sl_context *ctx)
{
	sl_attr *a = sli_op_get(op, sl_sym_intern(ctx, name, strlen(name)));
	return a && (a->kind == SL_ATTR_DENSE_ARRAY || a->kind == SL_ATTR_ARRAY) ? a : NULL;
}

static bool
transpose_dims(canon *c, const sl_op *op, const dims *d, dims *out)
{
	sl_attr *perm = int_array(op, "permutation", c->ctx);
	uint32_t n = perm ? (perm->kind == SL_ATTR_DENSE_ARRAY ? perm->u.darr.n : perm->u.arr.n) : 0;
	if (!perm || n != d->rank)
		return false;
	out->rank = n;
	out->v = sli_xcalloc(n + 1, sizeof *out->v);
	for (uint32_t i = 0; i < n; i++) {
		int64_t p;
		if (perm->kind == SL_ATTR_DENSE_ARRAY)
			p = perm->u.darr.v[i];
		else if (perm->u.arr.v[i]->kind == SL_ATTR_INT)
			p = perm->u.arr.v[i]->u.i.v;
		else
			return false;
		if (p < 0 || p >= (int64_t)n)
			return false;
		for (size_t k = 0; k < d->v[p].n; k++)
			SL_VEC_PUSH(out->v[i], d->v[p].v[k]);
	}
	return true;
}

/*
 * Whether resharding `first` and taking it back to the root, then along
 * `path`, gives exactly the sharding of `second`.
 */
static bool
cse_matches(canon *c, sl_op *first, const chain *fc, sl_op *second, const chain *sc)
{
	const sl_sharding *fs = sli_result_sharding(first, 0);
	const sl_sharding *ss = sli_result_sharding(second, 0);
	if (!fs || !ss)
		return false;
	if (!fc->path.n && !sc->path.n)
		return sharding_identical(fs, ss);
	if (!same_mesh_ref(fs, ss) || !list_equal(&fs->replicated, &ss->replicated) ||
	    !list_equal(&fs->unreduced, &ss->unreduced))
		return false;
	const sl_mesh *mesh = sharding_mesh(c, first, fs);
	const sl_type *t = first->operands[0]->type;
	if (!mesh || !static_tensor(t) || fs->rank != t->rank)
		return false;
	dims cur = {sli_xcalloc(fs->rank + 1, sizeof *cur.v), fs->rank};
	for (uint32_t i = 0; i < fs->rank; i++)
		for (uint32_t k = 0; k < fs->dims[i].axes.n; k++)
			SL_VEC_PUSH(cur.v[i], fs->dims[i].axes.v[k]);
	bool ok = true;
	const sl_type *root = fc->root->type;
	if (fc->path.n) {
		dims next = {0};
		ok = static_tensor(root) && reshape_dims(&cur, t, root, mesh, &next);
		dims_free(&cur);
		cur = next;
		t = root;
	}
	for (size_t i = 0; i < sc->path.n && ok; i++) {
		sl_op *op = sc->path.v[i];
		const sl_type *rt = op->results[0].type;
		dims next = {0};
		if (op->kind == SL_OP_RESHAPE)
			ok = static_tensor(rt) && reshape_dims(&cur, t, rt, mesh, &next);
		else
			ok = transpose_dims(c, op, &cur, &next);
		dims_free(&cur);
		cur = next;
		t = rt;
	}
	ok = ok && cur.rank == ss->rank;
	for (uint32_t i = 0; ok && i < cur.rank; i++)
		ok = sli_axis_list_equal(cur.v[i].v, cur.v[i].n, ss->dims[i].axes.v,
		                         ss->dims[i].axes.n);
	dims_free(&cur);
	return ok;
}

/* Position of each op of a block in op->id, for dominance checks. */
static void
number_block(sl_block *b)
{
	uint32_t i = 0;
	for (sl_op *op = b->first; op; op = op->next)
		op->id = i++;
}

/* Replaces `second` by `first` taken back to the root and along second's path. */
static void
cse_rewrite(canon *c, sl_op *first, const chain *fc, sl_op *second, const chain *sc)
{
	sl_value *v = &first->results[0];
	sl_op *before = sc->path.n ? sc->path.v[0] : second;
	if (fc->path.n) {
		const char *name = "stablehlo.reshape";
		sl_op *rs = sli_op_new(c->m, sl_sym_intern(c->ctx, name, strlen(name)), 1, 1, 0);
		rs->operands[0] = v;
		rs->results[0].type = fc->root->type;
		rs->loc = second->loc;
		sli_op_insert_before(before, rs);
		v = &rs->results[0];
	}
	if (sc->path.n) {
		sc->path.v[0]->operands[0] = v;
		v = second->operands[0];
	}
	replace_op(c, second, v);
}

static void
cse_block(canon *c, sl_block *b)
{
	typedef struct entry {
		sl_op *op;
		chain ch;
	} entry;
	SL_VEC(entry) cache = {0};
	number_block(b);
	for (sl_op *op = b->first, *next; op; op = next) {
		next = op->next;
		if (op->kind != SL_OP_SDY_RESHARD || op->noperands != 1)
			continue;
		entry e = {op, {NULL, {0}, false}};
		chain_of(op->operands[0], &e.ch);
		bool done = false;
		for (size_t i = 0; i < cache.n && !done; i++) {
			entry *f = &cache.v[i];
			if (f->ch.root != e.ch.root)
				continue;
			if (e.ch.path.n && (e.ch.path.v[0]->parent != b ||
			                    e.ch.path.v[0]->id <= f->op->id))
				continue;
			if (!cse_matches(c, f->op, &f->ch, op, &e.ch))
				continue;
			cse_rewrite(c, f->op, &f->ch, op, &e.ch);
			number_block(b);
			done = true;
		}
		if (!done && !e.ch.transposes)
			SL_VEC_PUSH(cache, e);
		else
			SL_VEC_FREE(e.ch.path);
	}
	for (size_t i = 0; i < cache.n; i++)
		SL_VEC_FREE(cache.v[i].ch.path);
	SL_VEC_FREE(cache);
}

static int
cse_blocks(sl_op *op, void *ud)
{
	canon *c = ud;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			cse_block(c, b);
	return 0;
}

/* ====================================================================
 * The driver
 * ==================================================================== */

/* Tries the patterns rooted at op; true when it changed the module. */
static bool
rewrite(canon *c, sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_RESHARD: {
		sl_op *inner = def(op->operands[0], SL_OP_SDY_RESHARD);
		if (!inner || inner->results[0].id != 1)
			return false;
		op->operands[0] = inner->operands[0];
		sli_op_erase(inner);
		c->changed = true;
		return true;
	}
	case SL_OP_SDY_ALL_GATHER:
		if (!lists_empty(sli_op_get(op, SLS_gathering_axes)))
			return false;
		replace_op(c, op, op->operands[0]);
		return true;
	case SL_OP_SDY_ALL_SLICE:
		if (lists_empty(sli_op_get(op, SLS_slicing_axes))) {
			replace_op(c, op, op->operands[0]);
			return true;
		}
		return slice_of_gather(c, op) || reduce_scatter_fusion(c, op);
	case SL_OP_SDY_REDUCE_SCATTER:
		if (!lists_empty(sli_op_get(op, SLS_scatter_axes)))
			return false;
		replace_op(c, op, op->operands[0]);
		return true;
	case SL_OP_SDY_ALL_REDUCE:
		if (lists_empty(sli_op_get(op, SLS_reduction_axes))) {
			replace_op(c, op, op->operands[0]);
			return true;
		}
		return reduce_of_r2u(c, op) || reduce_of_s2u(c, op);
	case SL_OP_SDY_COLLECTIVE_PERMUTE:
		if (!sharding_equivalent(value_sharding(op->operands[0]), out_sharding(op)))
			return false;
		replace_op(c, op, op->operands[0]);
		return true;
	case SL_OP_SDY_ALL_TO_ALL:
		if (unused(op)) {
			sli_op_erase(op);
			c->changed = true;
			return true;
		}
		return all_to_all_fusion(c, op);
	case SL_OP_SDY_MANUAL_COMPUTATION:
		return manual_unused_inputs(c, op) || manual_inline(c, op);
	default:
		break;
	}
	if (op->nresults && is_pure(op) && unused(op)) {
		sli_op_erase(op);
		c->changed = true;
		return true;
	}
	return false;
}

int
sli_pass_canonicalize(sl_module *m, const sli_pass_opts *opts)
{
	canon c = {m, m->ctx, false};
	(void)opts;
	for (int round = 0; round < 64; round++) {
		opvec ops = {0};
		c.changed = false;
		sli_walk(m->top, collect, &ops);
		recount(&c);
		for (size_t i = 0; i < ops.n; i++) {
			sl_op *op = ops.v[i];
			if (op == m->top || !op->parent)
				continue;
			if (rewrite(&c, op))
				recount(&c);
		}
		SL_VEC_FREE(ops);
		sli_walk(m->top, cse_blocks, &c);
		if (!c.changed)
			break;
	}
	return 0;
}

int
sli_pass_canonicalize_all(sl_module *m, const sli_pass_opts *opts)
{
	sli_fold_constants(m);
	return sli_pass_canonicalize(m, opts);
}

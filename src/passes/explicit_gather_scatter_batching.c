/*
 * explicit_gather_scatter_batching.c - -sdy-explicit-gather-scatter-batching
 * (spec/import-passes.md section 2.5): a gather or scatter whose dimension 0
 * is an implicit batch dimension (its index component comes from an iota
 * along dimension 0) gets it as an explicit batching dimension, and that
 * index component is dropped from the indices.  As MLIR's greedy driver,
 * the pass then erases the side-effect-free ops of each function that
 * nothing uses.  The rewritten op stays in place: only its indices operand
 * and dimension numbers change.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/stablehlo_attrs.h"

#include <stdlib.h>
#include <string.h>

typedef SL_VEC(int64_t) i64vec;

/* The dimension numbers being rewritten: the lists as growable vectors. */
typedef struct dimnums {
	i64vec lists[SL_GS_NLISTS];
	int64_t ivd;
} dimnums;

static void
dimnums_fini(dimnums *d)
{
	for (int k = 0; k < SL_GS_NLISTS; k++)
		SL_VEC_FREE(d->lists[k]);
}

/* {====== dimension numbers ================================================ */

static void
dimnums_from(dimnums *d, const sl_gs_dims *from)
{
	memset(d, 0, sizeof *d);
	for (int k = 0; k < SL_GS_NLISTS; k++)
		for (uint32_t i = 0; i < from->lists[k].n; i++)
			SL_VEC_PUSH(d->lists[k], from->lists[k].v[i]);
	d->ivd = from->index_vector_dim;
}

/* The new attribute, with index_vector_dim written out even when 0. */
static sl_attr *
dimnums_attr(sl_module *m, bool scatter, const dimnums *d, sl_loc loc)
{
	sl_gs_dims g;
	for (int k = 0; k < SL_GS_NLISTS; k++) {
		g.lists[k].v = d->lists[k].v;
		g.lists[k].n = (uint32_t)d->lists[k].n;
	}
	g.index_vector_dim = d->ivd;
	g.has_index_vector_dim = true;
	return sli_attr_gs_dims(m, scatter, &g, loc);
}

/* Position of x in v, or -1. */
static int64_t
find_i64(const i64vec *v, int64_t x)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return (int64_t)i;
	return -1;
}

static void
erase_at(i64vec *v, int64_t i)
{
	memmove(v->v + i, v->v + i + 1, sizeof *v->v * (v->n - (size_t)i - 1));
	v->n--;
}

/* }======================================================================= */

/* {====== the iota origin of an index component ============================ */

static bool
int_prop(sl_module *m, const sl_op *op, const char *name, int64_t *v)
{
	const sl_attr *a = sli_op_get(op, sli_sym(m, name));
	if (!a || a->kind != SL_ATTR_INT)
		return false;
	*v = a->u.i.v;
	return true;
}

static bool
is_kind(const sl_value *v, sl_op_kind kind)
{
	return v->def && v->def->kind == kind;
}

/* Peels reshape, broadcast_in_dim, clamp (its operand) and select (its
 * false branch when that is an iota, else its true branch). */
static sl_value *
unwrap(sl_value *v)
{
	for (;;) {
		const sl_op *d = v->def;
		if (!d)
			return v;
		switch (d->kind) {
		case SL_OP_RESHAPE:
		case SL_OP_BROADCAST_IN_DIM:
			if (d->noperands < 1)
				return v;
			v = d->operands[0];
			break;
		case SL_OP_CLAMP:
			if (d->noperands != 3)
				return v;
			v = d->operands[1];
			break;
		case SL_OP_SELECT:
			if (d->noperands != 3)
				return v;
			v = is_kind(d->operands[2], SL_OP_IOTA) ? d->operands[2] : d->operands[1];
			break;
		default:
			return v;
		}
	}
}

/* Whether component p of the indices comes from an iota along dim 0. */
static bool
iota_origin(sl_module *m, sl_value *indices, int64_t ivd, int64_t p)
{
	int64_t dim;
	sl_value *v = indices;
	if (is_kind(v, SL_OP_CONCATENATE)) {
		const sl_op *c = v->def;
		if (!int_prop(m, c, "dimension", &dim) || dim != ivd || p >= (int64_t)c->noperands)
			return false;
		v = c->operands[p];
	}
	v = unwrap(v);
	return is_kind(v, SL_OP_IOTA) && int_prop(m, v->def, "iota_dimension", &dim) && dim == 0;
}

/* }======================================================================= */

/* {====== the new indices ================================================== */

static sl_type *
with_dim(sl_module *m, const sl_type *t, int64_t ivd, int64_t size)
{
	int64_t *dims = sli_xmalloc(sizeof *dims * t->rank);
	memcpy(dims, t->dims, sizeof *dims * t->rank);
	dims[ivd] = size;
	sl_type *r = sli_type_tensor(m->ctx, t->rank, dims, t->elem, 0, false);
	free(dims);
	return r;
}

static sl_attr *
i64_array(sl_module *m, const int64_t *v, uint32_t n)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_DENSE_ARRAY);
	a->u.darr.elem = sli_type_elem(m->ctx, "i64", 3);
	a->u.darr.n = n;
	a->u.darr.v = n ? sli_arena_dup(&m->arena, v, sizeof *v * n) : NULL;
	return a;
}

/* Inserts op before `at`, at its location. */
static sl_value *
place(sl_module *m, sl_op *op, sl_op *at)
{
	sli_op_copy_loc(m, op, at);
	sli_op_insert_before(at, op);
	return &op->results[0];
}

static sl_value *
new_concat(sl_module *m, sl_op *at, sl_value *const *in, uint32_t n, sl_type *t, int64_t ivd)
{
	sl_op *c = sli_op_create(m, SL_OP_CONCATENATE, in, n, &t, 1, 0);
	sli_op_set_prop(m, c, sli_sym(m, "dimension"),
	                sli_attr_int(m, ivd, sli_type_elem(m->ctx, "i64", 3)));
	return place(m, c, at);
}

/* indices[..., lo:hi along ivd, ...] */
static sl_value *
new_slice(sl_module *m, sl_op *at, sl_value *indices, int64_t ivd, int64_t lo, int64_t hi)
{
	const sl_type *t = indices->type;
	uint32_t r = t->rank;
	int64_t *v = sli_xcalloc(3 * (size_t)r, sizeof *v);
	int64_t *start = v, *limit = v + r, *strides = v + 2 * r;
	for (uint32_t i = 0; i < r; i++) {
		limit[i] = t->dims[i];
		strides[i] = 1;
	}
	start[ivd] = lo;
	limit[ivd] = hi;
	sl_type *st = with_dim(m, t, ivd, hi - lo);
	sl_op *s = sli_op_create(m, SL_OP_SLICE, &indices, 1, &st, 1, 0);
	sli_op_set_prop(m, s, sli_sym(m, "start_indices"), i64_array(m, start, r));
	sli_op_set_prop(m, s, sli_sym(m, "limit_indices"), i64_array(m, limit, r));
	sli_op_set_prop(m, s, sli_sym(m, "strides"), i64_array(m, strides, r));
	free(v);
	return place(m, s, at);
}

/*
 * The indices without component p along ivd, built before `at`: a
 * concatenate with one input per component loses input p; otherwise the
 * parts before and after p are sliced out and concatenated.
 */
static sl_value *
drop_component(sl_module *m, sl_op *at, sl_value *indices, int64_t ivd, int64_t p)
{
	const sl_type *t = indices->type;
	int64_t total = t->dims[ivd];
	sl_type *rt = with_dim(m, t, ivd, total - 1);
	int64_t dim;
	if (is_kind(indices, SL_OP_CONCATENATE) &&
	    int_prop(m, indices->def, "dimension", &dim) && dim == ivd &&
	    (int64_t)indices->def->noperands == total) {
		const sl_op *c = indices->def;
		sl_value **in = sli_xmalloc(sizeof *in * c->noperands);
		uint32_t n = 0;
		for (uint32_t i = 0; i < c->noperands; i++)
			if ((int64_t)i != p)
				in[n++] = c->operands[i];
		sl_value *r = n == 1 ? in[0] : new_concat(m, at, in, n, rt, ivd);
		free(in);
		return r;
	}
	sl_value *parts[2];
	uint32_t n = 0;
	if (p > 0)
		parts[n++] = new_slice(m, at, indices, ivd, 0, p);
	if (p + 1 < total)
		parts[n++] = new_slice(m, at, indices, ivd, p + 1, total);
	return n == 1 ? parts[0] : new_concat(m, at, parts, n, rt, ivd);
}

/* }======================================================================= */

static bool
ranked(const sl_type *t)
{
	return t && t->kind == SL_TYPE_TENSOR && !t->unranked;
}

/* Sets a boolean prop to false unless present, as MLIR's builders do. */
static void
default_false(sl_module *m, sl_op *op, const char *name)
{
	sl_sym s = sli_sym(m, name);
	if (sli_op_prop(op, s))
		return;
	sl_attr *a = sli_attr_new(m, SL_ATTR_BOOL);
	a->u.b = false;
	sli_op_set_prop(m, op, s, a);
}

/* The gather or scatter pattern; true when op was rewritten. */
static bool
rewrite(sl_module *m, sl_op *op)
{
	bool gather = op->kind == SL_OP_GATHER;
	uint32_t iidx;
	if (gather) {
		if (op->noperands != 2 || op->nresults != 1)
			return false;
		iidx = 1;
	} else {
		if (op->noperands < 3 || op->noperands % 2 == 0 || op->nregions != 1)
			return false;
		iidx = (op->noperands - 1) / 2;
	}
	sl_value *indices = op->operands[iidx];
	const sl_type *ot = op->operands[0]->type, *it = indices->type;
	if (!ranked(ot) || !ranked(it) || ot->rank == 0 || it->rank == 0)
		return false;

	dimnums d;
	sl_sym attr = sli_sym(m, gather ? "dimension_numbers" : "scatter_dimension_numbers");
	const sl_attr *old = sli_op_prop(op, attr);
	const sl_gs_dims *from = sli_attr_get_gs_dims(old, !gather);
	if (!from)
		return false;
	dimnums_from(&d, from);
	bool ok = false;
	int64_t p, c;
	if (d.lists[SL_GS_BATCH].n || d.ivd < 0 || d.ivd >= (int64_t)it->rank ||
	    it->dims[d.ivd] <= 1 || it->dims[0] != ot->dims[0] ||
	    (p = find_i64(&d.lists[SL_GS_MAP], 0)) < 0 ||
	    !iota_origin(m, indices, d.ivd, p) ||
	    (c = find_i64(&d.lists[SL_GS_COLLAPSED], 0)) < 0)
		goto done;

	op->operands[iidx] = drop_component(m, op, indices, d.ivd, p);
	erase_at(&d.lists[SL_GS_MAP], p);
	erase_at(&d.lists[SL_GS_COLLAPSED], c);
	SL_VEC_PUSH(d.lists[SL_GS_BATCH], 0);
	d.lists[SL_GS_IDX_BATCH].n = 0;
	SL_VEC_PUSH(d.lists[SL_GS_IDX_BATCH], 0);
	sli_op_set_prop(m, op, attr, dimnums_attr(m, !gather, &d, old->loc));
	default_false(m, op, "indices_are_sorted");
	if (!gather)
		default_false(m, op, "unique_indices");
	ok = true;
done:
	dimnums_fini(&d);
	return ok;
}

/* {====== dead ops ========================================================= */

/* Side-effect-free ops MLIR's greedy driver erases when unused. */
static bool
is_pure(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_UNKNOWN:
	case SL_OP_RNG:
	case SL_OP_RNG_BIT_GENERATOR:
	case SL_OP_AFTER_ALL:
		return false;
	case SL_OP_GATHER:
	case SL_OP_SDY_CONSTANT:
		return true;
	default:
		return sli_op_format_pure(op);
	}
}

/*
 * Erases the unused pure ops under func.  Users come before their
 * operands' producers in reverse post-order, so one sweep that updates
 * the use counts (value->id) erases whole dead chains.
 */
static void
erase_dead(sl_op *func)
{
	sli_opvec ops = {0};
	sli_compute_use_counts(func);
	sli_collect_postorder(func, &ops);
	for (size_t i = ops.n; i-- > 0;) {
		sl_op *op = ops.v[i];
		if (!op->nresults || !is_pure(op))
			continue;
		bool used = false;
		for (uint32_t r = 0; r < op->nresults && !used; r++)
			used = op->results[r].id != 0;
		if (used)
			continue;
		for (uint32_t k = 0; k < op->noperands; k++)
			op->operands[k]->id--;
		sli_op_erase(op);
	}
	SL_VEC_FREE(ops);
}

/* }======================================================================= */

int
sli_pass_explicit_gather_scatter_batching(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		sli_opvec ops = {0};
		sli_collect_preorder(f, &ops);
		for (size_t i = 0; i < ops.n; i++)
			if (ops.v[i]->kind == SL_OP_GATHER || ops.v[i]->kind == SL_OP_SCATTER)
				rewrite(m, ops.v[i]);
		SL_VEC_FREE(ops);
		erase_dead(f);
	}
	return 0;
}

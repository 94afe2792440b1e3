/*
 * pad_for_divisibility.c - -sdy-pad-for-divisibility (sdy_export_passes.md;
 * a step of Shardy's partitioner, not of -sdy-export-pipeline): every
 * tensor whose sharded dimension is not divisible by the product of its
 * axes is padded up to the next multiple, and result types change.
 *
 * Rules (from the conformance cases pad_for_divisibility_*; where they are
 * silent, inferred):
 *   - a value's padded type rounds each dimension up to a multiple of the
 *     product of its axes' sizes (static dims only);
 *   - function arguments and results must already be divisible: else
 *     "argument #i" / "result #i has a non-divisible sharding" and "failed
 *     to legalize operation 'func.func'" at the function, and the pass
 *     fails before changing anything;
 *   - ops are converted in order; each value is then of its padded type:
 *     an op that yields more is followed by a slice back to it (a trim,
 *     with the value's sharding), an operand that is smaller than an op
 *     needs is padded with zeros (stablehlo.pad after a zero constant,
 *     with the operand's sharding), both placed before the op;
 *   - sdy collectives and element-wise ops take operands and give results
 *     of one shape: the largest of their operands' and results' padded
 *     shapes; collectives keep the operands' padding contents;
 *   - stablehlo.slice whose result is padded reads further (limit = start
 *     + (padded - 1) * stride + 1), padding its operand if it must;
 *   - stablehlo.pad: the high padding is what makes the padded result;
 *     along a dimension with interior padding, the operand's own padding
 *     is first replaced by the pad value (iota < size mask and select);
 *   - stablehlo.dot_general, stablehlo.dot (its lhs's last dimension
 *     contracting with its rhs's first) and stablehlo.convolution: paired
 *     dimensions are padded alike; contracting dimensions (for convolution
 *     the features and the input's spatial dimensions) must hold zeros,
 *     so where the padding is not known to be zero a mask and select make
 *     it so.  Padding is known zero after a pad the pass inserts of a value
 *     that held none or zeros, through collectives, slices that trim and
 *     such selects; not after any other op (Shardy's padding cache);
 *   - a convolution whose kernel spatial dimension, or whose grouped
 *     feature or batch dimension, needs padding cannot be padded: an
 *     error at the op, as for any other op whose result needs padding and
 *     that the pass does not know; any other op (returns, region ops,
 *     unknown ops) gets its operands sliced back to their input types,
 *     and an op without operands (constant, iota) a pad after it;
 *   - block arguments of nested regions are left as they are.
 */
#include "passes/pad_for_divisibility.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/access.h"
#include "ir/axis.h"
#include "ir/stablehlo_attrs.h"
#include "passes/passutil.h"

/* {====== types and the value table ===================================== */

bool
sli_pfd_static(const sl_type *t)
{
	return t && sli_type_is_static(t);
}

static sl_type *
with_dims(sli_pfd *P, const sl_type *like, const int64_t *dims)
{
	return sli_type_tensor(P->m->ctx, like->rank, dims, like->elem, like->enc, false);
}

/* t padded for sharding s: each sharded dim up to a multiple of its axes. */
static sl_type *
padded_type(sli_pfd *P, sl_type *t, const sl_sharding *s)
{
	const sl_mesh *mesh = s ? sli_sharding_mesh(P->m, s) : NULL;
	if (!mesh || !sli_pfd_static(t) || !t->rank)
		return t;
	int64_t *dims = sli_xmalloc(sizeof *dims * t->rank);
	memcpy(dims, t->dims, sizeof *dims * t->rank);
	bool changed = false;
	for (uint32_t d = 0; d < t->rank && d < s->rank; d++) {
		int64_t n = 1;
		for (uint32_t k = 0; k < s->dims[d].axes.n; k++)
			n *= sli_axis_size(&s->dims[d].axes.v[k], mesh);
		if (n > 1 && dims[d] % n) {
			dims[d] += n - dims[d] % n;
			changed = true;
		}
	}
	sl_type *r = changed ? with_dims(P, t, dims) : t;
	free(dims);
	return r;
}

sli_pfd_val *
sli_pfd_val_of(sli_pfd *P, const sl_value *v)
{
	assert(v->id < P->vals.n);
	return &P->vals.v[v->id];
}

static void
number(sli_pfd *P, sl_value *v, bool pad)
{
	sli_pfd_val e = {v->type, v->type, v, true, NULL};
	if (pad)
		e.padded = padded_type(P, v->type, sli_value_sharding_seen(P->m, v));
	v->id = (uint32_t)P->vals.n;
	SL_VEC_PUSH(P->vals, e);
}

/* Numbers every value of block b and of the regions inside it. */
static void
number_block(sli_pfd *P, sl_block *b)
{
	for (uint32_t i = 0; i < b->nargs; i++)
		number(P, &b->args[i], false);
	for (sl_op *op = b->first; op; op = op->next) {
		for (uint32_t i = 0; i < op->nresults; i++)
			number(P, &op->results[i], true);
		for (uint32_t r = 0; r < op->nregions; r++)
			for (sl_block *nb = op->regions[r].first; nb; nb = nb->next)
				number_block(P, nb);
	}
}

sli_pfd_arg
sli_pfd_operand(sli_pfd *P, const sl_op *op, uint32_t i)
{
	const sli_pfd_val *e = sli_pfd_val_of(P, op->operands[i]);
	sli_pfd_arg a = {e->rep, e->orig, e->zero,
	                 sli_value_sharding_seen(P->m, op->operands[i])};
	return a;
}

/* }======================================================================= */

/* {====== the ops the pass builds ======================================== */

sl_attr *
sli_pfd_i64_array(sli_pfd *P, const int64_t *v, uint32_t n)
{
	sl_attr *a = sli_attr_new(P->m, SL_ATTR_DENSE_ARRAY);
	a->u.darr.elem = sli_type_elem(P->m->ctx, "i64", 3);
	a->u.darr.n = n;
	a->u.darr.v = n ? sli_arena_dup(&P->m->arena, v, sizeof *v * n) : NULL;
	return a;
}

void
sli_pfd_ints(sli_pfd *P, const sl_op *op, const char *name, uint32_t n,
             int64_t dflt, int64_t *out)
{
	sli_i64vec v = {0};
	bool ok = sli_attr_ints(P->m->ctx, sli_op_get(op, sli_sym(P->m, name)), &v);
	for (uint32_t i = 0; i < n; i++)
		out[i] = ok && i < v.n ? v.v[i] : dflt;
	SL_VEC_FREE(v);
}

/* Op `kind` of one result, before at, with sharding s (may be NULL). */
static sl_op *
emit(sli_pfd *P, sl_op_kind kind, sl_value **in, uint32_t n, sl_type *t,
     const sl_sharding *s, sl_op *at)
{
	sl_op *op = sli_op_create(P->m, kind, in, n, &t, 1, 0);
	op->loc = at->loc;
	sli_op_insert_before(at, op);
	if (s)
		sli_result_set_sharding(P->m, op, 0, s);
	return op;
}

static sl_type *
scalar(sli_pfd *P, sl_type *elem)
{
	return sli_type_tensor(P->m->ctx, 0, NULL, elem, 0, false);
}

/* `stablehlo.constant dense<body> : tensor<elem>` before at. */
static sl_value *
constant(sli_pfd *P, const char *body, sl_type *elem, sl_op *at)
{
	sl_type *t = scalar(P, elem);
	sl_op *c = emit(P, SL_OP_CONSTANT, NULL, 0, t, NULL, at);
	sl_attr *d = sli_attr_new(P->m, SL_ATTR_DENSE);
	d->u.dense.n = strlen(body);
	d->u.dense.body = sli_arena_strndup(&P->m->arena, body, d->u.dense.n);
	d->u.dense.type = t;
	sli_op_set_prop(P->m, c, SLS_value, d);
	return &c->results[0];
}

/* A zero of element type elem, as MLIR prints it. */
static sl_value *
zero(sli_pfd *P, sl_type *elem, sl_op *at)
{
	const char *s = sl_sym_str(P->m->ctx, elem->text);
	const char *body = "0.000000e+00";
	if (!strcmp(s, "i1"))
		body = "false";
	else if (strchr("ius", s[0]))
		body = "0";
	else if (!strncmp(s, "complex", 7))
		body = "(0.000000e+00,0.000000e+00)";
	return constant(P, body, elem, at);
}

static sl_value *
new_slice(sli_pfd *P, sl_value *v, const int64_t *dims, const sl_sharding *s,
          sl_op *at)
{
	uint32_t r = v->type->rank;
	int64_t *z = sli_xcalloc(2 * (size_t)r + 1, sizeof *z), *ones = z + r;
	for (uint32_t d = 0; d < r; d++)
		ones[d] = 1;
	sl_op *op = emit(P, SL_OP_SLICE, &v, 1, with_dims(P, v->type, dims), s, at);
	sli_op_set_prop(P->m, op, sli_sym(P->m, "start_indices"), sli_pfd_i64_array(P, z, r));
	sli_op_set_prop(P->m, op, sli_sym(P->m, "limit_indices"), sli_pfd_i64_array(P, dims, r));
	sli_op_set_prop(P->m, op, sli_sym(P->m, "strides"), sli_pfd_i64_array(P, ones, r));
	free(z);
	return &op->results[0];
}

static sl_value *
new_pad(sli_pfd *P, sl_value *v, const int64_t *dims, const sl_sharding *s,
        sl_op *at)
{
	uint32_t r = v->type->rank;
	int64_t *z = sli_xcalloc(2 * (size_t)r + 1, sizeof *z), *high = z + r;
	for (uint32_t d = 0; d < r; d++)
		high[d] = dims[d] - v->type->dims[d];
	sl_value *in[2] = {v, zero(P, v->type->elem, at)};
	sl_op *op = emit(P, SL_OP_PAD, in, 2, with_dims(P, v->type, dims), s, at);
	sli_op_set_prop(P->m, op, sli_sym(P->m, "edge_padding_low"), sli_pfd_i64_array(P, z, r));
	sli_op_set_prop(P->m, op, sli_sym(P->m, "edge_padding_high"), sli_pfd_i64_array(P, high, r));
	sli_op_set_prop(P->m, op, sli_sym(P->m, "interior_padding"), sli_pfd_i64_array(P, z, r));
	free(z);
	return &op->results[0];
}

void
sli_pfd_fit(sli_pfd *P, sl_op *at, sli_pfd_arg *a, const int64_t *dims)
{
	const sl_type *t = a->v->type;
	if (!sli_pfd_static(t))
		return;
	int64_t *cut = sli_xmalloc(sizeof *cut * (t->rank + 1));
	bool shrink = false, grow = false;
	for (uint32_t d = 0; d < t->rank; d++) {
		cut[d] = t->dims[d] < dims[d] ? t->dims[d] : dims[d];
		shrink |= cut[d] < t->dims[d];
		grow |= cut[d] < dims[d];
	}
	if (shrink)
		a->v = new_slice(P, a->v, cut, a->s, at);
	if (grow)
		a->v = new_pad(P, a->v, dims, a->s, at);
	free(cut);
}

/* `iota(dim d) < size` over type t (of i32), with sharding s, before at. */
static sl_value *
in_range(sli_pfd *P, const sl_type *t, uint32_t d, int64_t size,
         const sl_sharding *s, sl_op *at)
{
	sl_context *ctx = P->m->ctx;
	sl_type *i32 = sli_type_elem(ctx, "i32", 3);
	sl_type *it = sli_type_tensor(ctx, t->rank, t->dims, i32, 0, false);
	sl_op *iota = emit(P, SL_OP_IOTA, NULL, 0, it, s, at);
	sli_op_set_prop(P->m, iota, sli_sym(P->m, "iota_dimension"),
	                sli_attr_int(P->m, d, sli_type_elem(ctx, "i64", 3)));
	char num[32];
	snprintf(num, sizeof num, "%" PRId64, size);
	sl_value *lim = constant(P, num, i32, at);
	sl_op *b = emit(P, SL_OP_BROADCAST_IN_DIM, &lim, 1, it, s, at);
	sli_op_set_prop(P->m, b, sli_sym(P->m, "broadcast_dimensions"), sli_pfd_i64_array(P, NULL, 0));
	sl_value *in[2] = {&iota->results[0], &b->results[0]};
	sl_type *bt = sli_type_tensor(ctx, t->rank, t->dims, sli_type_elem(ctx, "i1", 2), 0, false);
	sl_op *cmp = emit(P, SL_OP_COMPARE, in, 2, bt, s, at);
	sl_sym dir = sli_sym(P->m, "comparison_direction");
	sli_op_set_prop(P->m, cmp, dir,
	                sli_attr_stablehlo_enum(P->m, dir, sli_sym(P->m, "LT"), at->loc));
	return &cmp->results[0];
}

void
sli_pfd_enforce(sli_pfd *P, sl_op *at, sli_pfd_arg *a, const bool *want, sl_value *fill)
{
	const sl_type *t = a->v->type;
	if (!sli_pfd_static(t) || !sli_pfd_static(a->orig) || (a->zero && !fill))
		return;
	sl_value *mask = NULL, *f = fill;
	bool all = true;
	for (uint32_t d = 0; d < t->rank; d++) {
		if (t->dims[d] == a->orig->dims[d])
			continue;
		if (!want[d]) {
			all = false;
			continue;
		}
		if (!f)
			f = zero(P, t->elem, at);
		sl_value *c = in_range(P, t, d, a->orig->dims[d], a->s, at);
		if (mask) {
			sl_value *in[2] = {mask, c};
			c = &emit(P, SL_OP_AND, in, 2, c->type, a->s, at)->results[0];
		}
		mask = c;
	}
	if (!mask)
		return;
	sl_op *b = emit(P, SL_OP_BROADCAST_IN_DIM, &f, 1, a->v->type, a->s, at);
	sli_op_set_prop(P->m, b, sli_sym(P->m, "broadcast_dimensions"), sli_pfd_i64_array(P, NULL, 0));
	sl_value *in[3] = {mask, a->v, &b->results[0]};
	a->v = &emit(P, SL_OP_SELECT, in, 3, a->v->type, a->s, at)->results[0];
	a->zero = all && !fill;
}

void
sli_pfd_result(sli_pfd *P, sl_op *op, uint32_t i, const int64_t *dims, bool zero)
{
	sl_value *r = &op->results[i];
	sli_pfd_val *e = sli_pfd_val_of(P, r);
	r->type = with_dims(P, e->orig, dims);
	sli_pfd_arg a = {r, e->orig, zero, sli_value_sharding_seen(P->m, r)};
	if (r->type != e->padded)
		sli_pfd_fit(P, op->next, &a, e->padded->dims);
	e->rep = a.v;
	e->zero = a.zero;
}

/* }======================================================================= */

/* {====== the conversion of one op ======================================= */

static bool
dims_equal(const sl_type *a, const sl_type *b)
{
	return a->rank == b->rank && !memcmp(a->dims, b->dims, sizeof *a->dims * a->rank);
}

/* Whether nothing of op changes: operands as they were, results divisible. */
static bool
untouched(sli_pfd *P, const sl_op *op)
{
	for (uint32_t i = 0; i < op->noperands; i++) {
		const sli_pfd_val *e = sli_pfd_val_of(P, op->operands[i]);
		if (e->rep != op->operands[i] || e->rep->type != e->orig)
			return false;
	}
	for (uint32_t i = 0; i < op->nresults; i++) {
		const sli_pfd_val *e = sli_pfd_val_of(P, &op->results[i]);
		if (e->padded != e->orig)
			return false;
	}
	return true;
}

static int
cannot_pad(sli_pfd *P, const sl_op *op, uint32_t result)
{
	sli_error(P->m->ctx, op->loc, "cannot pad '%s': result #%u has a non-divisible sharding",
	          sl_sym_str(P->m->ctx, op->name), result);
	return -1;
}

int
sli_pfd_fallback(sli_pfd *P, sl_op *op)
{
	for (uint32_t i = 0; i < op->nresults; i++) {
		const sli_pfd_val *e = sli_pfd_val_of(P, &op->results[i]);
		if (e->padded != e->orig && (op->noperands || op->nregions))
			return cannot_pad(P, op, i);
	}
	for (uint32_t i = 0; i < op->noperands; i++) {
		sli_pfd_val *e = sli_pfd_val_of(P, op->operands[i]);
		sli_pfd_arg a = sli_pfd_operand(P, op, i);
		if (e->cut && e->cut->def->parent == op->parent) {
			op->operands[i] = e->cut;
			continue;
		}
		if (sli_pfd_static(a.orig))
			sli_pfd_fit(P, op, &a, a.orig->dims);
		if (a.v != e->rep)
			e->cut = a.v;
		op->operands[i] = a.v;
	}
	for (uint32_t i = 0; i < op->nresults; i++) {
		const sli_pfd_val *e = sli_pfd_val_of(P, &op->results[i]);
		if (e->padded != e->orig)
			sli_pfd_result(P, op, i, e->orig->dims, true);
	}
	return 0;
}

static bool
elementwise(const sl_op *op)
{
	sl_op_format f = sli_op_info[op->kind].format;
	return !op->nregions && op->kind != SL_OP_REVERSE &&
	       (f == SL_FMT_SAME || f == SL_FMT_SELECT || f == SL_FMT_COMPLEX ||
	        op->kind == SL_OP_COMPARE);
}

/*
 * Collectives and element-wise ops: operands of the result's shape and the
 * result take the largest padded shape among them; `keep` says whether the
 * padding contents go through (collectives move data, never compute it).
 */
static int
same_shape(sli_pfd *P, sl_op *op, bool keep)
{
	const sli_pfd_val *e0 = op->nresults ? sli_pfd_val_of(P, &op->results[0]) : NULL;
	if (!e0 || !sli_pfd_static(e0->orig))
		return sli_pfd_fallback(P, op);
	for (uint32_t i = 1; i < op->nresults; i++)
		if (!dims_equal(sli_pfd_val_of(P, &op->results[i])->orig, e0->orig))
			return sli_pfd_fallback(P, op);
	uint32_t r = e0->orig->rank;
	int64_t *t = sli_xmalloc(sizeof *t * (r + 1));
	memcpy(t, e0->padded->dims, sizeof *t * r);
	for (uint32_t i = 0; i < op->noperands; i++) {
		sli_pfd_arg a = sli_pfd_operand(P, op, i);
		if (sli_pfd_static(a.orig) && dims_equal(a.orig, e0->orig))
			for (uint32_t d = 0; d < r; d++)
				if (a.v->type->dims[d] > t[d])
					t[d] = a.v->type->dims[d];
	}
	bool zero = true;
	for (uint32_t i = 0; i < op->noperands; i++) {
		sli_pfd_arg a = sli_pfd_operand(P, op, i);
		bool same = sli_pfd_static(a.orig) && dims_equal(a.orig, e0->orig);
		if (sli_pfd_static(a.orig))
			sli_pfd_fit(P, op, &a, same ? t : a.orig->dims);
		zero &= !same || a.zero;
		op->operands[i] = a.v;
	}
	bool unpadded = !memcmp(t, e0->orig->dims, sizeof *t * r);
	for (uint32_t i = 0; i < op->nresults; i++)
		sli_pfd_result(P, op, i, t, unpadded || (keep && zero));
	free(t);
	return 0;
}

static int
convert(sli_pfd *P, sl_op *op)
{
	if (untouched(P, op))
		return 0;
	switch (op->kind) {
	case SL_OP_SDY_ALL_GATHER:
	case SL_OP_SDY_ALL_SLICE:
	case SL_OP_SDY_ALL_TO_ALL:
	case SL_OP_SDY_ALL_REDUCE:
	case SL_OP_SDY_REDUCE_SCATTER:
	case SL_OP_SDY_COLLECTIVE_PERMUTE:
		return same_shape(P, op, true);
	case SL_OP_SLICE:
		return sli_pfd_slice(P, op);
	case SL_OP_PAD:
		return sli_pfd_pad(P, op);
	case SL_OP_DOT_GENERAL:
		return sli_pfd_dot_general(P, op);
	case SL_OP_DOT:
		return sli_pfd_dot(P, op);
	case SL_OP_CONVOLUTION:
		return sli_pfd_convolution(P, op);
	default:
		return elementwise(op) ? same_shape(P, op, false) : sli_pfd_fallback(P, op);
	}
}

/* Converts the ops of b in order, those of an op's regions before it. */
static int
walk_block(sli_pfd *P, sl_block *b)
{
	sl_op *next;
	for (sl_op *op = b->first; op; op = next) {
		next = op->next;
		for (uint32_t r = 0; r < op->nregions; r++)
			for (sl_block *nb = op->regions[r].first; nb; nb = nb->next)
				if (walk_block(P, nb))
					return -1;
		if (convert(P, op))
			return -1;
	}
	return 0;
}

/* }======================================================================= */

/* {====== functions ====================================================== */

static int
io_error(sli_pfd *P, const sl_op *f, const char *what, uint32_t i)
{
	sl_context *ctx = P->m->ctx;
	sli_error(ctx, f->loc, "%s #%u has a non-divisible sharding; function inputs "
	          "and outputs must be divisible", what, i);
	sli_error(ctx, f->loc, "failed to legalize operation 'func.func'");
	return -1;
}

/* Shardy's rule: padded values never cross a function's boundary. */
static int
check_io(sli_pfd *P, const sl_op *f)
{
	const sl_attr *ft = sli_op_get(f, SLS_function_type);
	if (!ft || ft->kind != SL_ATTR_TYPE || ft->u.type->kind != SL_TYPE_FUNC)
		return 0;
	const sl_type *t = ft->u.type;
	for (uint32_t i = 0; i < t->rank; i++)
		if (padded_type(P, t->types[i], sli_func_arg_sharding(f, i)) != t->types[i])
			return io_error(P, f, "argument", i);
	for (uint32_t i = 0; i < t->nres; i++) {
		sl_type *rt = t->types[t->rank + i];
		if (padded_type(P, rt, sli_func_res_sharding(f, i)) != rt)
			return io_error(P, f, "result", i);
	}
	return 0;
}

typedef SL_VEC(sl_op *) opvec;

static int
collect(sl_op *op, void *ud)
{
	if (op->kind == SL_OP_FUNC)
		SL_VEC_PUSH(*(opvec *)ud, op);
	return 0;
}

int
sli_pass_pad_for_divisibility(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_pfd P = {m, {0}};
	opvec funcs = {0};
	int rc = 0;
	sli_walk_funcs(m->top, collect, &funcs);
	for (size_t i = 0; i < funcs.n && !rc; i++)
		rc = check_io(&P, funcs.v[i]);
	for (size_t i = 0; i < funcs.n && !rc; i++) {
		sl_block *body = sli_func_body(funcs.v[i]);
		if (!body)
			continue;
		P.vals.n = 0;
		number_block(&P, body);
		rc = walk_block(&P, body);
	}
	SL_VEC_FREE(P.vals);
	SL_VEC_FREE(funcs);
	return rc;
}

/* }======================================================================= */
